"""A robot's contacts with itself (a hand on a thigh; a ball in a cup on another tree) as MuJoCo's soft contacts, found by
joltgym's sphere/capsule collision and solved in the tree's joint space, against MuJoCo on the
same model; and the robots whose bodies then touch nothing through Jolt share worlds."""

from __future__ import annotations

import numpy as np
import mujoco
import pytest

import joltgym
from joltgym import _native
from joltgym.tasks import task_spec

# A free torso with a two-link arm; no gravity.
ARM = """
<mujoco>
  <option timestep="0.002" gravity="0 0 0"/>
  <worldbody>
    <body name="torso" pos="0 0 1">
      <freejoint/>
      <geom type="capsule" fromto="0 0 -0.3 0 0 0.3" size="0.1" mass="5" condim="{condim}"/>
      <body name="upper" pos="0 0 0.3">
        <joint name="shoulder" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 {reach} 0 0" size="0.04" mass="0.5" condim="{condim}"/>
        <body name="lower" pos="{reach} 0 0">
          <joint name="elbow" type="hinge" axis="0 1 0"/>
          {lower}
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
"""
# The lower arm, swung about the elbow, strikes the torso and bounces off.
LOWER = {
    "capsule": '<geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05" mass="0.5" condim="{condim}"/>',
    # a thin link that touches nothing, ending in a ball
    "sphere": '<geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.02" mass="0.2" contype="0" conaffinity="0"/>'
              '<geom type="sphere" pos="0 0 -0.45" size="0.06" mass="0.5" condim="{condim}"/>',
    # an ellipsoid, found against the capsule by Jolt's GJK/EPA on its support function
    "ellipsoid": '<geom type="ellipsoid" pos="0 0 -0.25" size="0.05 0.07 0.25" mass="0.5" condim="{condim}"/>',
}
ARTICULATED = joltgym.SolverSettings(substeps=2, velocity_iterations=4, position_iterations=1, articulated_joints=True)


def swing(build_world, lower: str, condim: int, solver: joltgym.SolverSettings):
    model, world = build_world(ARM.format(condim=condim, reach=0.3, lower=LOWER[lower].format(condim=condim)), solver)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    robot = world.robots[0]
    qvel = np.zeros(mj.nv)
    qvel[7] = 4.0  # the elbow swings the lower arm into the torso
    data.qpos[:], data.qvel[:] = mj.qpos0, qvel
    robot.set_state(mj.qpos0.astype(np.float32), qvel.astype(np.float32))
    worst, touching, forces = 0.0, 0, []
    for _ in range(300):
        mujoco.mj_step(mj, data)
        world.step(np.zeros(0, np.float32), nsteps=1)
        touching += data.ncon > 0
        worst = max(worst, float(np.abs(np.asarray(robot.qpos) - data.qpos).max()))
        forces.append(np.asarray(robot.contact_forces()))
    return worst, touching, data, robot, forces


@pytest.mark.parametrize("lower", LOWER)
@pytest.mark.parametrize("condim", [1, 3])
def test_a_limb_striking_its_own_torso_moves_as_mujocos(build_world, lower, condim):
    worst, touching, data, robot, _ = swing(build_world, lower, condim, ARTICULATED)
    assert touching > 20  # the arm did strike the torso in MuJoCo
    # Measured: 0.005-0.021 with these contacts; Jolt's hard contacts were 0.13-0.22 off.
    assert worst < 0.04
    # The blow's momentum, shared with the torso as MuJoCo shares it.
    assert robot.qvel[0] == pytest.approx(data.qvel[0], abs=0.01)
    assert abs(data.qvel[0]) > 0.05


# The lower arm hangs parallel to the torso, 1 cm into it: MuJoCo's parallel-capsule case, two points.
PARALLEL = ARM.format(condim=1, reach=0.14,
                      lower='<geom type="capsule" fromto="0 0 -0.1 0 0 -0.5" size="0.05" mass="0.5" condim="1"/>')


def test_parallel_capsules_touch_at_two_points_and_part_as_mujocos(build_world):
    one_update = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1,
                                        articulated_joints=True)
    model, world = build_world(PARALLEL, one_update)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    mujoco.mj_forward(mj, data)
    expected = sorted(round(float(c.pos[2]), 4) for c in data.contact[:data.ncon])
    assert len(expected) == 2
    robot = world.robots[0]
    worst = 0.0
    for step in range(200):
        mujoco.mj_step(mj, data)
        world.step(np.zeros(0, np.float32), nsteps=1)
        if step == 0:  # the points of the first update, each on both bodies
            heights = sorted({round(p[2], 4) for _, _, p, _ in robot.contact_points()})
            assert heights == pytest.approx(expected, abs=1e-4)
        worst = max(worst, float(np.abs(np.asarray(robot.qpos) - data.qpos).max()))
    assert worst < 0.005  # measured 0.0007


def test_self_contact_forces_are_equal_and_opposite_on_the_two_bodies(build_world):
    *_, forces = swing(build_world, "capsule", 1, ARTICULATED)
    touched = [f for f in forces if np.abs(f[:, 3:]).max() > 1.0]
    assert touched, "no contact force in the whole swing"
    for f in touched:  # torso (MuJoCo body 1) and lower arm (3): cfrc_ext's forces cancel
        np.testing.assert_allclose(f[1, 3:], -f[3, 3:], rtol=1e-4, atol=1e-3)
        assert np.abs(f[2]).max() == 0.0  # the upper arm touches nothing


def test_a_non_articulated_robot_keeps_jolts_contacts_with_itself(build_world):
    # The same strike without the articulation: Jolt's contacts stop the arm all the same.
    worst, touching, data, robot, _ = swing(build_world, "capsule", 1,
                                            joltgym.SolverSettings(substeps=2, velocity_iterations=20))
    assert touching > 20
    assert robot.qvel[0] == pytest.approx(data.qvel[0], abs=0.05)


# Two planar trees, each hinged to the world, the arm's tip pressed into the post (dm_control's finger
# and spinner in small): one articulation over both, their contact solved in its joint space.
TWO_TREES = """
<mujoco>
  <option timestep="0.01" cone="pyramidal"><flag gravity="disable"/></option>
  <default><geom solimp="0 0.9 0.01" solref=".02 1" condim="{condim}"/><joint type="hinge" axis="0 -1 0" damping="1"/></default>
  <worldbody>
    <body name="arm" pos="-.2 0 .4"><joint/><geom type="capsule" size=".03" fromto="0 0 0 .34 0 0"/></body>
    <body name="post" pos=".2 0 .4"><joint/><geom type="capsule" size=".04 .09"/></body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("condim", [1, 3])
def test_two_trees_hinged_to_the_world_push_each_other_as_in_mujoco(build_world, condim):
    # iterated to convergence: the friction pyramid's rows converge slowly (8 iterations: 0.36 rad/s off)
    solver = joltgym.SolverSettings(substeps=1, velocity_iterations=100, position_iterations=1, baumgarte=1.0,
                                    articulated_joints=True, mujoco_euler=True)
    model, world = build_world(TWO_TREES.format(condim=condim), solver)
    mj = model.mj_model
    robot = world.robots[0]
    for qpos, qvel in (((0.0, 0.0), (0.0, 0.0)), ((0.02, 0.5), (3.0, -1.0)), ((-0.05, 0.3), (2.0, 0.0))):
        data = mujoco.MjData(mj)
        data.qpos[:], data.qvel[:] = qpos, qvel
        mujoco.mj_forward(mj, data)
        assert data.ncon == 1 and data.contact[0].dist < -0.005  # pressed in
        mujoco.mj_step(mj, data)
        robot.set_state(np.array(qpos, np.float32), np.array(qvel, np.float32))
        world.step(np.zeros(0, np.float32), nsteps=1)
        # measured: within 0.002 rad/s
        np.testing.assert_allclose(robot.qvel, data.qvel, atol=0.01)


def test_humanoid_standup_starts_with_mujocos_self_contacts():
    # HumanoidStandup's hands start 10-16 mm inside its hips: MuJoCo's soft contacts push them out
    # gently; Jolt's hard contacts threw the arms (worst qpos 0.06 off MuJoCo in 40 zero-action steps).
    spec = task_spec("HumanoidStandup")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    world = _native.World(model.native)
    robot = world.robots[0]
    mujoco.mj_forward(mj, data)
    zeros = np.zeros(mj.nu, np.float32)
    worst = 0.0
    for step in range(40):
        for _ in range(5):
            mujoco.mj_step(mj, data)
        world.step(zeros, nsteps=5)
        worst = max(worst, float(np.abs(np.asarray(robot.qpos) - data.qpos).max()))
        if step == 0:  # the hands' push on the hips, summed over the body
            mujoco.mj_rnePostConstraint(mj, data)
            cfrc = np.asarray(robot.contact_forces())
            assert cfrc[:, 5].sum() == pytest.approx(data.cfrc_ext[:, 5].sum(), rel=0.05)
    assert worst < 0.01  # measured 0.0037


@pytest.mark.parametrize("task, per_world", [("Hopper", 16), ("Humanoid", 8), ("HumanoidStandup", 8)])
def test_robots_that_only_touch_themselves_and_the_floor_share_worlds(task, per_world):
    from joltgym.vector import JoltVectorEnv

    assert JoltVectorEnv(16, task=task, num_threads=1).robots_per_world == per_world


# Two kinematic trees outside any articulation (dm_control's ball_in_cup in small): a ball on two slides
# dropped into a sprung cup of three capsules. Their contacts are MuJoCo's soft ones, solved row by row
# in Jolt's lists; one iteration per step, as BallInCupCatch solves them.
BALL_AND_CUP = """
<mujoco>
  <option timestep="0.002" cone="pyramidal"/>
  <default><geom condim="{condim}"/></default>
  <worldbody>
    <body name="cup" pos="0 0 0.6">
      <joint type="slide" axis="1 0 0" stiffness="20" damping="3"/><joint type="slide" axis="0 0 1" stiffness="20" damping="3"/>
      <geom type="capsule" fromto="-.05 0 0 -.04 0 -.1" size=".008"/>
      <geom type="capsule" fromto="-.04 0 -.1 .04 0 -.1" size=".008"/>
      <geom type="capsule" fromto=".04 0 -.1 .05 0 0" size=".008"/>
    </body>
    <body name="ball" pos="0.01 0 0.75">
      <joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 0 1"/>
      <geom type="sphere" size=".025" mass="0.05"/>
    </body>
  </worldbody>
</mujoco>
"""
ONE_PASS = joltgym.SolverSettings(velocity_iterations=1, position_iterations=1, baumgarte=1.0)


@pytest.mark.parametrize("condim", [1, 3])
def test_bodies_of_two_trees_outside_any_articulation_touch_as_in_mujoco(build_world, condim):
    model, world = build_world(BALL_AND_CUP.format(condim=condim), ONE_PASS)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    robot = world.robots[0]
    lowest_theirs = lowest_ours = np.inf
    touching = 0
    for _ in range(400):
        mujoco.mj_step(mj, data)
        world.step(np.zeros(0, np.float32), nsteps=1)
        touching += data.ncon > 0
        # the ball's height over the cup's: MuJoCo's soft contacts let it sink into the cup's floor on impact
        lowest_theirs = min(lowest_theirs, data.qpos[3] - data.qpos[1])
        lowest_ours = min(lowest_ours, robot.qpos[3] - robot.qpos[1])
    assert touching > 200, "the ball lands in the cup and stays"
    resting = (-0.1 + 0.008 + 0.025) - (0.75 - 0.6)  # the ball on the cup's floor, in the slides' coordinates
    assert lowest_theirs < resting - 0.005, "it sinks into the floor on impact"
    assert lowest_ours == pytest.approx(lowest_theirs, abs=1e-3), (lowest_ours, lowest_theirs, resting)
    # measured 1e-6 (condim 1: one row, solved exactly) and 3e-4 (condim 3: the pyramid's rows one after another)
    np.testing.assert_allclose(robot.qpos, data.qpos, atol=1e-3)


def test_robots_whose_trees_touch_only_each_other_and_the_floor_share_worlds():
    from joltgym.vector import JoltVectorEnv

    assert JoltVectorEnv(16, task="BallInCupCatch", num_threads=1).robots_per_world > 1


# A ball on slides and a hinge (a tree of its own, outside any articulation) dropped onto a planar arm whose
# tree the joint-space solve takes (dm_control's manipulator's ball and hand in small); the arm held up by a
# motor and swung under the ball.
BALL_ON_ARM = """
<mujoco>
  <option timestep="0.002" integrator="Euler"/>
  <default><joint damping="0.05"/><geom condim="{condim}" solimp="0.9 0.95 0.001" solref="0.01 1"/></default>
  <worldbody>
    <geom type="plane" size="2 2 .1"/>
    <body name="upper" pos="0 0 0.5">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="0.3"/>
      <body name="lower" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0" range="-30 30" limited="true"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025" mass="0.1"/>
      </body>
    </body>
    <body name="ball" pos="0.45 0 0.62">
      <joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 0 1"/><joint type="hinge" axis="0 1 0"/>
      <geom type="sphere" size="0.04" mass="0.05"/>
    </body>
  </worldbody>
  <actuator><motor joint="shoulder" gear="3"/></actuator>
</mujoco>
"""


@pytest.mark.parametrize("condim, bound", [(1, 2e-3), (3, 0.02)])
def test_a_ball_on_an_articulated_arm_touches_it_as_in_mujoco(build_world, condim, bound):
    # Their contacts are rows in Jolt's lists, which the arm's articulation carries over its joints.
    solver = joltgym.SolverSettings(velocity_iterations=8, position_iterations=1, baumgarte=1.0,
                                    articulated_joints=True, mujoco_euler=True)
    model, world = build_world(BALL_ON_ARM.format(condim=condim), solver)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    ball = mj.body("ball").id
    worst, touching = 0.0, 0
    for t in range(500):
        ctrl = np.array([-0.3 - 0.15 * np.sin(t / 30)], np.float32)
        data.ctrl[:] = ctrl
        mujoco.mj_step(mj, data)
        world.step(ctrl)
        touching += any(ball in (mj.geom_bodyid[c.geom1], mj.geom_bodyid[c.geom2]) and 0 not in
                        (mj.geom_bodyid[c.geom1], mj.geom_bodyid[c.geom2]) for c in data.contact[:data.ncon])
        worst = max(worst, float(np.abs(np.asarray(world.robots[0].qpos) - data.qpos).max()))
    assert touching > 100, "the ball rests on the arm in MuJoCo"
    # measured 1e-4 (condim 1) and 0.012 (condim 3: the ball rolls along the swinging arm, its friction
    # pyramid's rows one after another)
    assert worst < bound
