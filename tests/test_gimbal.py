"""Two and three hinges on one body (abdomen, hips, shoulders): as one gimbal constraint, and solved
in joint space with the rest of the tree (articulated_joints), each coordinate a rate."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym.model import _ReferenceSolverSettings
from joltgym import _native

LEG = """
<mujoco>
  <option timestep="0.002" integrator="Euler" gravity="0 0 {gravity}"/>
  <worldbody>
    <body name="base" pos="0 0 1.5">
      {base_joint}
      <geom type="box" size="0.15 0.1 0.05" mass="4" contype="0" conaffinity="0"/>
      <body name="leg" pos="0 0 -0.05" euler="10 -20 5">
        <joint name="hx" axis="1 0 0" armature="0.02" damping="0.5" stiffness="3" {limits}/>
        <joint name="hz" axis="0 0 1" armature="0.01" damping="0.3" stiffness="2" limited="true" range="-60 60"/>
        {third}
        <geom type="capsule" fromto="0 0 0 0.05 0.02 -0.4" size="0.05" mass="1.5" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="hx" gear="5"/><motor joint="hz" gear="3"/>{third_motor}
  </actuator>
</mujoco>
"""
THIRD = '<joint name="hy" axis="0 1 0" armature="0.015" damping="0.4" stiffness="1" {limits}/>'


SOLVES = pytest.mark.parametrize("articulated", [False, True], ids=["gimbal_constraint", "articulated"])


def solver(articulated: bool, **settings) -> joltgym.SolverSettings:
    """The settings asked for, joint by joint or in joint space (its placement in one pass)."""
    if articulated:
        settings.update(articulated_joints=True, baumgarte=1.0)
    return _ReferenceSolverSettings(**settings)


def leg_xml(hinges: int, gravity: float = -9.81, free_base: bool = True, limits: str = "") -> str:
    return LEG.format(
        gravity=gravity,
        base_joint="<freejoint/>" if free_base else "",
        limits=limits,
        third=THIRD.format(limits=limits) if hinges == 3 else "",
        third_motor='<motor joint="hy" gear="4"/>' if hinges == 3 else "",
    )


def swing_leg_beside_mujoco(model, world, check_start=None):
    """The leg's coordinates set off and driven by fixed controls for 0.5 s in both engines, checked
    against MuJoCo's: its coordinates within 3e-3 rad, rates within 2.5e-2 rad/s; returns MuJoCo's data."""
    m = model.mj_model
    qpos = m.qpos0.copy()
    qpos[7:] = [0.3, -0.5, 0.4][: m.nq - 7]
    qvel = np.zeros(m.nv)
    qvel[3:6] = [0.5, -0.3, 0.8]
    qvel[6:] = [1.0, -2.0, 1.5][: m.nv - 6]
    ctrl = np.array([0.6, -0.4, 0.5])[: m.nu]
    data = mujoco.MjData(m)
    data.qpos[:], data.qvel[:], data.ctrl[:] = qpos, qvel, ctrl
    world.set_state(qpos, qvel)
    if check_start:
        mujoco.mj_forward(m, data)
        check_start(data)
    for _ in range(250):
        mujoco.mj_step(m, data)
        world.step(ctrl.astype(np.float32))
    np.testing.assert_allclose(world.qpos[7:], data.qpos[7:], atol=3e-3)
    np.testing.assert_allclose(world.qvel[6:], data.qvel[6:], atol=2.5e-2)
    assert np.abs(data.qpos[7:] - qpos[7:]).max() > 0.3  # the leg really moved
    assert world.max_joint_anchor_error() < 1e-4
    return data


@SOLVES
@pytest.mark.parametrize("hinges", [2, 3])
def test_multi_hinge_leg_follows_mujoco(build_world, hinges, articulated):
    """Armature, damping, stiffness and motors on every coordinate, a free base, gravity: 0.5 s."""
    model, world = build_world(leg_xml(hinges), solver(articulated, velocity_iterations=30))
    swing_leg_beside_mujoco(model, world)


@pytest.mark.parametrize("hinges", [2, 3])
def test_hinges_with_anchors_of_their_own_follow_mujoco(build_world, hinges):
    """dm_control's humanoid's ankles: each hinge of one body turns it about its own anchor, the
    later anchors riding on the earlier hinges. Same run as above, anchors 6 and 11 cm apart."""
    xml = leg_xml(hinges).replace('name="hz" axis', 'name="hz" pos="0.02 0 -0.06" axis')
    xml = xml.replace('name="hy" axis', 'name="hy" pos="0 0.03 -0.1" axis')
    model, world = build_world(xml, solver(True, velocity_iterations=30))
    m = model.mj_model

    def each_rate_about_its_own_anchor(data):
        np.testing.assert_allclose(world.cvel()[1:], data.cvel[1:], atol=1e-5)

    data = swing_leg_beside_mujoco(model, world, each_rate_about_its_own_anchor)
    np.testing.assert_allclose(world.qpos[:3], data.qpos[:3], atol=2e-3)
    data.qpos[:] = world.qpos  # MuJoCo's kinematics of our coordinates put the leg where ours is
    mujoco.mj_kinematics(m, data)
    com = world.body_com()
    np.testing.assert_allclose(com[1] - com[0], data.xipos[2] - data.xipos[1], atol=1e-5)


@SOLVES
def test_a_two_hinge_body_turns_past_a_right_angle(build_world, articulated):
    """Two hinges have no singular pose: the second one, unlimited, swings through 90 degrees and on
    (dm_control's humanoid's shoulders go past their limits that far) as MuJoCo's does."""
    xml = leg_xml(2, gravity=0.0, free_base=False).replace(' limited="true" range="-60 60"', "")
    xml = xml.replace('armature="0.01" damping="0.3" stiffness="2"', 'armature="0.01"')  # hz swings freely
    model, world = build_world(xml, solver(articulated, velocity_iterations=30))
    m = model.mj_model
    qpos, qvel = np.array([0.4, 1.3]), np.array([0.5, 4.0])
    world.set_state(qpos, qvel)
    np.testing.assert_allclose(world.qpos, qpos, atol=1e-6)
    np.testing.assert_allclose(world.qvel, qvel, atol=1e-5)
    data = mujoco.MjData(m)
    data.qpos[:], data.qvel[:] = qpos, qvel
    for _ in range(100):
        mujoco.mj_step(m, data)
        world.step(np.zeros(2, np.float32))
    assert data.qpos[1] > 1.9, "MuJoCo's second hinge went past 90 degrees"
    np.testing.assert_allclose(world.qpos, data.qpos, atol=5e-3)
    np.testing.assert_allclose(world.qvel, data.qvel, atol=3e-2)


def test_anchors_of_their_own_need_the_articulation(tmp_path):
    path = tmp_path / "leg.xml"
    path.write_text(leg_xml(2).replace('name="hz" axis', 'name="hz" pos="0 0 0.1" axis'))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=r"body 'leg'.*anchors of their own.*articulated_joints"):
        joltgym.load_model(path, solver=solver(False))


@SOLVES
def test_generalized_force_acts_on_its_coordinate_only(build_world, articulated):
    """A motor is a generalized force: at rest without gravity, qacc = M^-1 (gear * ctrl) as MuJoCo."""
    model, world = build_world(leg_xml(3, gravity=0.0, free_base=False), solver(articulated, velocity_iterations=60))
    m = model.mj_model
    qpos = np.array([0.4, -0.6, 0.5])
    for ctrl in np.eye(3):
        data = mujoco.MjData(m)
        data.qpos[:], data.ctrl[:] = qpos, ctrl
        mujoco.mj_step(m, data)
        world.set_state(qpos, np.zeros(3))
        world.step(ctrl.astype(np.float32))
        np.testing.assert_allclose(world.qfrc_actuator, m.actuator_gear[:, 0] * ctrl, rtol=1e-6)
        np.testing.assert_allclose(world.qvel, data.qvel, rtol=0.02, atol=2e-4 * np.abs(data.qvel).max())


@SOLVES
def test_coordinates_stop_at_their_ranges(build_world, articulated):
    limits = 'limited="true" range="-30 40"'
    model, world = build_world(leg_xml(3, free_base=False, limits=limits), solver(articulated, soft_limits=False))
    lo, hi = np.deg2rad([[-30, -60, -30], [40, 60, 40]])
    for sign in (1.0, -1.0):
        world.set_state(np.zeros(3), np.zeros(3))
        world.step(np.full(3, 4.0 * sign, np.float32), nsteps=500)  # far beyond what the springs hold
        q = world.qpos
        limit = hi if sign > 0 else lo
        np.testing.assert_allclose(q, limit, atol=0.02)
        assert np.all(q <= hi + 0.01) and np.all(q >= lo - 0.01)


@SOLVES
def test_coordinates_rest_in_their_soft_limits_as_deep_as_mujocos(build_world, articulated):
    limits = 'limited="true" range="-30 40"'
    model, world = build_world(leg_xml(3, free_base=False, limits=limits), solver(articulated))
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    lo, hi = np.deg2rad([[-30, -60, -30], [40, 60, 40]])
    for sign in (1.0, -1.0):
        world.set_state(np.zeros(3), np.zeros(3))
        world.step(np.full(3, 4.0 * sign, np.float32), nsteps=500)
        data = mujoco.MjData(m)
        data.ctrl[:] = 4.0 * sign
        mujoco.mj_step(m, data, 500)
        limit = hi if sign > 0 else lo
        theirs, ours = sign * (data.qpos - limit), sign * (world.qpos - limit)
        assert np.all(theirs > 1e-3), "MuJoCo's soft limits let a pushed coordinate in"
        np.testing.assert_allclose(ours, theirs, rtol=0.2, atol=1e-3)


@SOLVES
def test_two_hinge_body_keeps_its_third_rotation_locked(build_world, articulated):
    """After random torques, MuJoCo's kinematics of our qpos puts the leg where our body is."""
    model, world = build_world(leg_xml(2, free_base=False), solver(articulated))
    rng = np.random.default_rng(5)
    for _ in range(20):
        world.step(rng.uniform(-3, 3, 2).astype(np.float32), nsteps=25)
    data = mujoco.MjData(model.mj_model)
    data.qpos[:] = world.qpos
    mujoco.mj_kinematics(model.mj_model, data)
    ours = world.body_quat()[0]
    theirs = data.xquat[2]
    assert abs(abs(np.dot(ours, theirs)) - 1.0) < 1e-5


@pytest.mark.parametrize(
    "change,needle",
    [
        (('axis="0 0 1" armature="0.01"', 'axis="0 0.3 1" armature="0.01"'), "orthogonal"),
        (('limited="true" range="-60 60"', ""), "must be limited"),
    ],
)
def test_unsupported_multi_hinge_bodies_are_named(tmp_path, change, needle):
    path = tmp_path / "leg.xml"
    path.write_text(leg_xml(3).replace(*change))
    with pytest.raises(joltgym.UnsupportedFeatureError, match=f"body 'leg'.*{needle}"):
        joltgym.load_model(path)


def test_humanoid_state_round_trips_and_matches_mujoco_kinematics():
    model = joltgym.load_model("humanoid.xml")
    world = _native.World(model.native)
    m = model.mj_model
    rng = np.random.default_rng(0)
    data = mujoco.MjData(m)
    for _ in range(5):
        qpos = m.qpos0.copy()
        qpos[7:] = rng.uniform(m.jnt_range[1:, 0], m.jnt_range[1:, 1])
        qpos[3:7] = rng.normal(size=4)
        qpos[3:7] /= np.linalg.norm(qpos[3:7])
        qvel = rng.normal(size=m.nv)
        world.set_state(qpos, qvel)
        np.testing.assert_allclose(world.qpos, qpos, atol=2e-6)
        np.testing.assert_allclose(world.qvel, qvel, atol=2e-5)
        data.qpos[:], data.qvel[:] = qpos, qvel
        mujoco.mj_forward(m, data)
        np.testing.assert_allclose(world.cinert()[1:], data.cinert[1:], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(world.cvel()[1:], data.cvel[1:], rtol=1e-4, atol=1e-4)
