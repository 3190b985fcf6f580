"""The DeepMind Control Suite's models, dm_control's own files from its wheel, loaded as a new user
would: those whose elements joltgym supports load and step; every other is refused by name, naming
the first element it lacks. Supporting an element moves a model from REFUSED to LOADS. The models
dm_control builds at run time (LQR's chain, the swimmer's segments) are built by its own generator,
as its tasks do. Where a model loads, a run under the same controls follows MuJoCo's."""

from __future__ import annotations

from pathlib import Path

import dm_control
import mujoco
import numpy as np
import pytest

import joltgym
from arm_runs import side_by_side
from joltgym import _native


def lqr_2_1():  # the suite's lqr_2_1 task: two bodies, one actuator
    from dm_control.suite import lqr

    return lqr.get_model_and_assets(2, 1, np.random.RandomState(0))


def swimmer6():  # the suite's swimmer6 task: the head and five segments
    from dm_control.suite import swimmer

    return swimmer.get_model_and_assets(6)


GENERATED = {"lqr": lqr_2_1, "swimmer": swimmer6}


def model_path(name: str, tmp_path: Path) -> Path:
    if name not in GENERATED:
        return SUITE / f"{name}.xml"
    xml, assets = GENERATED[name]()
    for asset, data in assets.items():
        (tmp_path / asset).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / asset).write_bytes(data if isinstance(data, bytes) else data.encode())
    (tmp_path / f"{name}.xml").write_bytes(xml)
    return tmp_path / f"{name}.xml"

SUITE = Path(dm_control.__file__).parent / "suite"
LOADS = ["acrobot", "ball_in_cup", "cartpole", "cheetah", "finger", "fish", "hopper", "humanoid", "lqr", "manipulator",
         "pendulum", "point_mass", "quadruped", "reacher", "stacker", "swimmer", "walker"]
# Models that load only with their trees' joints solved in joint space, and what the default solver says instead.
ARTICULATED_ONLY = {
    "quadruped": r"equality 'coupling_front_left': a tendon equality on joint 'pitch_front_left' of a multi-hinge body "
                 r"outside an articulated tree; use SolverSettings\(articulated_joints=True\)",
}
ARTICULATED = joltgym.SolverSettings(velocity_iterations=8, position_iterations=1, baumgarte=1.0, articulated_joints=True,
                                     mujoco_euler=True)
REFUSED = {
    "dog": r"body 'upper_leg_L': the second hinge of a multi-hinge body \('hip_L_abduct'\) must be limited to within "
           r"\+-88 degrees",
    "humanoid_CMU": r"body 'lhumerus': the second hinge of a multi-hinge body \('lhumerusry'\) must be limited",
}


def test_every_suite_model_is_accounted_for():
    assert sorted(p.stem for p in SUITE.glob("*.xml")) == sorted(LOADS + list(REFUSED))


@pytest.mark.parametrize("name", LOADS)
def test_a_supported_suite_model_loads_and_steps(name, tmp_path):
    # quadruped.xml as it is: its ball's contacts with the articulated body, its legs and torso on its height field
    model = joltgym.load_model(model_path(name, tmp_path), solver=ARTICULATED if name in ARTICULATED_ONLY else None)
    m = model.mj_model
    world = _native.World(model.native)
    qpos0 = np.array(world.qpos)
    rng = np.random.default_rng(0)
    low, high = (m.actuator_ctrlrange.T if m.nu else (np.zeros(0), np.zeros(0)))
    low = np.where(m.actuator_ctrllimited, low, -1.0)
    high = np.where(m.actuator_ctrllimited, high, 1.0)
    for _ in range(200):
        world.step(rng.uniform(low, high).astype(np.float32))
    qpos = np.array(world.qpos)
    assert qpos.shape == (m.nq,) and np.isfinite(qpos).all() and np.isfinite(world.qvel).all()
    assert np.abs(qpos - qpos0).max() > 1e-4, "random controls (or gravity) moved it"


@pytest.mark.parametrize("name", {**REFUSED, **ARTICULATED_ONLY})
def test_an_unsupported_suite_model_is_refused_by_name(name, tmp_path):
    with pytest.raises(joltgym.UnsupportedFeatureError, match={**REFUSED, **ARTICULATED_ONLY}[name]):
        joltgym.load_model(model_path(name, tmp_path))


@pytest.mark.parametrize("name, steps, moved, task", [("point_mass", 300, 0.05, None), ("swimmer", 500, 0.05, None),
                                                      ("fish", 300, 0.05, None), ("ball_in_cup", 500, 0.05, "BallInCupCatch")])
def test_a_suite_model_moves_as_mujocos(name, steps, moved, task, tmp_path):
    # The suite's own files (point_mass: tendon motors, joint limits and damping, contacts switched
    # off while the mass rests on its floor; swimmer6: a planar chain in a dense fluid; ball_in_cup: a
    # ball swinging on its string below the cup, on its task's solver), both engines on MuJoCo's Euler
    # step under the same slowly turning controls.
    solver = joltgym.tasks.task_spec(task).solver if task else None
    model = joltgym.load_model(model_path(name, tmp_path), solver=solver)
    m = model.mj_model
    d = mujoco.MjData(m)
    world = _native.World(model.native)
    ours, theirs = side_by_side(m, d, world, lambda t: [np.sin(t / 20.0 + k) for k in range(m.nu)], steps)
    assert np.abs(theirs[:, :m.nq] - theirs[0, :m.nq]).max() > moved, f"MuJoCo's {name} moved"
    assert np.abs(ours - theirs).max() <= 0.01 * np.abs(theirs).max(), np.abs(ours - theirs).max(axis=0)


def test_the_humanoid_collapses_as_mujocos():
    # Its ankles are two hinges about anchors 4 cm apart; zero controls from the suite's standing pose.
    model = joltgym.load_model(SUITE / "humanoid.xml")
    m = model.mj_model
    d = mujoco.MjData(m)
    world = _native.World(model.native)
    heights = []
    for _ in range(240):
        mujoco.mj_step(m, d)
        world.step(np.zeros(m.nu, np.float32))
        heights.append((d.qpos[2], world.qpos[2]))
    theirs, ours = np.array(heights).T
    assert theirs[0] - theirs[-1] > 0.5, "MuJoCo's humanoid fell"
    np.testing.assert_allclose(ours, theirs, atol=0.02)
    assert world.max_joint_anchor_error() < 1e-5
