"""Joint frictionloss as MuJoCo's dry-friction rows: a bilateral soft row per joint whose force stays
within +-frictionloss. Against MuJoCo on the same XML (Euler, as our step): a spinning joint coasts
to rest, a loaded joint creeps at MuJoCo's rate where its load is below the friction, and a slide
stops where MuJoCo's does, on the joint-by-joint rows and in the joint-space solve (planar and 3-D)."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym

ARM = """
<mujoco>
  <option timestep="0.002" gravity="0 0 {gravity}"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0" {joint}/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05" mass="1" contype="0" conaffinity="0"/>
      {child}
    </body>
  </worldbody>
</mujoco>
"""
# A second hinge across the first: a 3-D tree (no planar links).
ELBOW = """<body name="forearm" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="1 0 0" {joint}/>
        <geom type="capsule" fromto="0 0 0 0 0.25 0" size="0.04" mass="0.5" contype="0" conaffinity="0"/>
      </body>"""
SLIDER = """
<mujoco>
  <option timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="cart" pos="0 0 0.5">
      <joint name="rail" type="slide" axis="1 0 0" frictionloss="{floss}" {joint}/>
      <geom type="box" size="0.1 0.1 0.1" mass="2" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
"""

JOINT_BY_JOINT = joltgym.SolverSettings(substeps=1, velocity_iterations=60, position_iterations=2, baumgarte=0.5)
ARTICULATED = joltgym.SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                     articulated_joints=True)
SOLVERS = pytest.mark.parametrize("solver", [JOINT_BY_JOINT, ARTICULATED], ids=["joint_by_joint", "articulated"])


def trajectories(build_world, xml: str, qvel0, steps: int, solver) -> tuple[np.ndarray, np.ndarray]:
    """qpos and qvel per step, MuJoCo's (Euler) and ours, from rest at qpos0 with qvel0."""
    model, world = build_world(xml, solver)
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    d.qvel[:] = qvel0
    world.set_state(m.qpos0.astype(np.float32), np.asarray(qvel0, np.float32))
    ours, theirs = [], []
    for _ in range(steps):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        theirs.append(np.concatenate([d.qpos, d.qvel]))
        ours.append(np.concatenate([world.qpos, world.qvel]))
    return np.array(ours), np.array(theirs)


@SOLVERS
@pytest.mark.parametrize("joint", ['frictionloss="0.3"', 'frictionloss="0.3" armature="0.01" damping="0.05"',
                                   'frictionloss="0.1" solreffriction="0.05 1" solimpfriction="0.8 0.9 0.001"'])
def test_a_spinning_joint_coasts_to_rest_as_mujocos(build_world, solver, joint):
    ours, theirs = trajectories(build_world, ARM.format(gravity=0, joint=joint, child=""), [3.0], 600, solver)
    angle, rate = theirs[:, 0], theirs[:, 1]
    assert abs(rate[-1]) < 0.05 * 3.0, "MuJoCo's friction brought the joint (nearly) to rest"
    assert np.abs(ours[:, 1] - rate).max() < 0.02 * 3.0
    assert np.abs(ours[:, 0] - angle).max() < 0.02 * abs(angle[-1])


@SOLVERS
def test_two_crossed_hinges_with_friction_coast_as_mujocos(build_world, solver):
    xml = ARM.format(gravity=0, joint='frictionloss="0.2" armature="0.002"',
                     child=ELBOW.format(joint='frictionloss="0.05"'))
    ours, theirs = trajectories(build_world, xml, [2.0, -3.0], 500, solver)
    assert np.abs(theirs[-1, 2:]).max() < 0.3, "MuJoCo's joints slowed down"
    assert np.abs(ours[:, 2:] - theirs[:, 2:]).max() < 0.03
    assert np.abs(ours[:, :2] - theirs[:, :2]).max() < 0.03


@SOLVERS
def test_a_joint_loaded_below_its_frictionloss_creeps_at_mujocos_rate(build_world, solver):
    # Gravity's torque on the horizontal arm is m g l/2 = 1.4715 N m, below the friction's 3: the
    # soft row lets it creep at R tau / B, and MuJoCo's does too.
    ours, theirs = trajectories(build_world, ARM.format(gravity=-9.81, joint='frictionloss="3"', child=""), [0.0], 300,
                                solver)
    creep = theirs[-100:, 1].mean()
    assert 0.02 < creep < 0.1, creep
    assert ours[-100:, 1].mean() == pytest.approx(creep, rel=0.05)
    assert np.abs(ours[:, 0] - theirs[:, 0]).max() < 0.05 * abs(theirs[-1, 0])


@pytest.mark.parametrize("joint", ["", 'armature="0.5" damping="0.3"'])
def test_a_slide_stops_where_mujocos_does(build_world, joint):
    ours, theirs = trajectories(build_world, SLIDER.format(floss=4.0, joint=joint), [1.5], 800, JOINT_BY_JOINT)
    assert abs(theirs[-1, 1]) < 0.05, "MuJoCo's cart has stopped"
    assert ours[-1, 0] == pytest.approx(theirs[-1, 0], rel=0.03)
    assert np.abs(ours[:, 1] - theirs[:, 1]).max() < 0.05


@pytest.mark.parametrize("joint", ['frictionloss="0.3"', 'frictionloss="0.3" armature="0.01" damping="0.05"',
                                   'frictionloss="3"'])
def test_mujocos_euler_order_takes_mujocos_own_step_with_friction(build_world, joint):
    # A planar tree stepped in MuJoCo's Euler order solves MuJoCo's rows as MuJoCo does: its
    # trajectory is MuJoCo's up to float rounding, through the stop and under a creeping load.
    solver = joltgym.SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                    articulated_joints=True, mujoco_euler=True)
    ours, theirs = trajectories(build_world, ARM.format(gravity=-9.81, joint=joint, child=""), [3.0], 600, solver)
    assert np.abs(ours - theirs).max() < 1e-4


def test_without_frictionloss_nothing_changes(build_world):
    plain, _ = trajectories(build_world, ARM.format(gravity=-9.81, joint="", child=""), [1.0], 100, ARTICULATED)
    zero, _ = trajectories(build_world, ARM.format(gravity=-9.81, joint='frictionloss="0"', child=""), [1.0], 100,
                           ARTICULATED)
    np.testing.assert_array_equal(plain, zero)


def test_a_disabled_frictionloss_flag_drops_the_rows(build_world):
    plain, theirs_plain = trajectories(build_world, ARM.format(gravity=-9.81, joint="", child=""), [1.0], 100, ARTICULATED)
    xml = ARM.format(gravity=-9.81, joint='frictionloss="3"', child="").replace(
        "<worldbody>", '<option><flag frictionloss="disable"/></option><worldbody>')
    disabled, theirs = trajectories(build_world, xml, [1.0], 100, ARTICULATED)
    np.testing.assert_array_equal(plain, disabled)
    np.testing.assert_array_equal(theirs_plain, theirs)  # MuJoCo drops them too


@pytest.mark.parametrize("kind", ["free", "ball"])
def test_frictionloss_on_a_free_or_ball_joint_is_refused_by_name(tmp_path, kind):
    path = tmp_path / "model.xml"
    path.write_text(f"""<mujoco><worldbody><body name="b" pos="0 0 1">
        <joint name="j" type="{kind}" frictionloss="0.5"/><geom type="sphere" size="0.1" mass="1"/>
        </body></worldbody></mujoco>""")
    with pytest.raises(joltgym.UnsupportedFeatureError, match=rf"joint 'j': .*frictionloss on a {kind} joint"):
        joltgym.load_model(path)


@pytest.mark.parametrize("links, pushed", [(24, 0.05), (38, 0.02)])
def test_a_long_chain_with_every_row_kind_on_every_hinge_swings_as_mujocos(build_world, links, pushed):
    # Hinges each with its drive (armature, damping), its dry friction and a limit it starts
    # outside of: three rows a hinge. 38 hinges: the most rates and bodies one tree holds
    # (Apollo's 38 rates, G1's 30 bodies).
    body = ""
    for k in reversed(range(links)):
        body = (f'<body name="l{k}" pos="{0.0 if k == 0 else 0.1} 0 {1.0 if k == 0 else 0.0}">'
                f'<joint name="j{k}" type="hinge" axis="0 1 0" armature="0.01" damping="0.05" frictionloss="0.05" '
                f'range="5 60"/><geom type="capsule" fromto="0 0 0 0.1 0 0" size="0.01" mass="0.1" '
                f'contype="0" conaffinity="0"/>{body}</body>')
    xml = f'<mujoco><option timestep="0.002"/><worldbody>{body}</worldbody></mujoco>'
    ours, theirs = trajectories(build_world, xml, np.zeros(links), 200, ARTICULATED)
    assert np.abs(theirs[-1, :links]).min() > pushed, "MuJoCo's limits pushed every joint towards its range"
    assert np.abs(ours[:, :links] - theirs[:, :links]).max() < 0.05
