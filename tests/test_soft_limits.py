"""Joint limits as MuJoCo's soft constraints: a joint driven into its limit overshoots and settles
as MuJoCo's does on the same XML, rests in it as deep under load, and the hard limit stays an option."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym.model import _ReferenceSolverSettings

ARM = """
<mujoco>
  <option timestep="0.002" gravity="0 0 {gravity}"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="hinge" type="hinge" axis="0 1 0" range="-30 30" {joint}/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
"""
UPPER = np.radians(30.0)


def trajectories(build_world, xml: str, q0: float, v0: float, steps: int, solver=None):
    """Joint angle per step in MuJoCo (Euler, as our step) and in joltgym, from the same state."""
    model, world = build_world(xml, solver)
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    d.qpos[0], d.qvel[0] = q0, v0
    world.set_state([q0], [v0])
    ours, theirs = [], []
    for _ in range(steps):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        theirs.append(d.qpos[0])
        ours.append(world.qpos[0])
    return np.array(ours), np.array(theirs)


def overshoot_and_settling(q: np.ndarray, dt: float) -> tuple[float, float]:
    """How far the joint went past its limit, and when it came back to within 10% of that."""
    past = q - UPPER
    peak = int(np.argmax(past))
    entered = int(np.argmax(past > 0))
    back = peak + int(np.argmax(past[peak:] < 0.1 * past[peak]))
    return float(past[peak]), (back - entered) * dt


@pytest.mark.parametrize("joint", ["", 'solreflimit="0.05 0.5"', 'solreflimit="0.01 1" solimplimit="0.8 0.99 0.01"', 'armature="0.05" damping="0.2"'])
def test_a_joint_driven_into_its_limit_overshoots_and_settles_as_mujoco(build_world, joint):
    ours, theirs = trajectories(build_world, ARM.format(gravity=0, joint=joint), 0.3, 4.0, 250)
    depth, settle = overshoot_and_settling(ours, 0.002)
    mj_depth, mj_settle = overshoot_and_settling(theirs, 0.002)
    assert mj_depth > 0.005, "MuJoCo's limit is soft: the joint goes in"
    assert depth == pytest.approx(mj_depth, rel=0.2)
    assert settle == pytest.approx(mj_settle, rel=0.2)


def test_a_loaded_joint_rests_in_its_limit_as_deep_as_mujocos(build_world):
    # Gravity pulls the arm down (the axis makes positive angles point down): it rests on its upper limit.
    ours, theirs = trajectories(build_world, ARM.format(gravity=-9.81, joint=""), 0.0, 0.0, 1500)
    mj_rest = theirs[-1] - UPPER
    assert mj_rest > 1e-4
    assert ours[-1] - UPPER == pytest.approx(mj_rest, rel=0.2)
    assert np.std(ours[-200:]) < 1e-4, "it has come to rest"


def test_hard_limits_stay_an_option(build_world):
    hard = _ReferenceSolverSettings(soft_limits=False)
    ours, _ = trajectories(build_world, ARM.format(gravity=0, joint=""), 0.3, 4.0, 250, solver=hard)
    assert ours.max() - UPPER < 1e-3, "a hard limit stops the joint at its range (float32 angles)"


@pytest.mark.parametrize("armature", [0.0, 0.01, 1.0])
def test_a_joint_outside_its_range_comes_back_as_fast_as_mujocos(build_world, armature):
    # Ant's ankles start 0.5 rad outside their ranges (qpos0 = 0, range 30-70 degrees), behind an
    # armature 190x their links: the soft limit brings them back at the rate its stiffness and
    # damping set, and lets go once the joint is moving in faster than that.
    joint = f'armature="{armature}"' if armature else ""
    ours, theirs = trajectories(build_world, ARM.format(gravity=0, joint=joint), UPPER + 0.5, 0.0, 40)
    np.testing.assert_allclose(ours, theirs, atol=0.02)
    assert theirs[-1] < UPPER  # back inside the range
