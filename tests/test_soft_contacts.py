"""Contacts with planes as MuJoCo's soft constraints: a body dropped on the floor sinks in, bounces
and comes to rest as MuJoCo's does on the same XML (geom parameters mixed per pair as MuJoCo mixes
them), slides as far, a resting HalfCheetah stands as high, and Jolt's hard contacts stay an option."""

from __future__ import annotations

import gymnasium as gym
import mujoco
import numpy as np
import pytest

import joltgym
from joltgym.model import _ReferenceSolverSettings

DROP = """
<mujoco>
  <option timestep="{dt}"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" {floor}/>
    <body name="ball" pos="0 0 {height}" euler="{euler}">
      <freejoint/>
      <geom type="{shape}" size="{size}" mass="2" {geom}/>
    </body>
  </worldbody>
</mujoco>
"""


def drop(build_world, steps: int, solver=None, qvel=None, **fmt):
    """The free body's qpos per step in MuJoCo and in joltgym, from the same state."""
    params = dict(dt=0.002, floor="", height=0.3, euler="0 0 0", shape="sphere", size="0.1", geom="")
    params.update(fmt)
    model, world = build_world(DROP.format(**params), solver)
    m = model.mj_model
    d = mujoco.MjData(m)
    if qvel is not None:
        d.qvel[:] = qvel
        world.set_state(d.qpos.astype(np.float32), np.asarray(qvel, np.float32))
    ours, theirs = [], []
    for _ in range(steps):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        theirs.append(d.qpos.copy())
        ours.append(np.asarray(world.qpos, np.float64).copy())
    return np.array(ours), np.array(theirs)


def landing(z: np.ndarray, rest_height: float) -> tuple[float, float, float]:
    """How deep below `rest_height` it sinks on landing, how far it bounces back up, how deep it rests."""
    first = int(np.argmax(z < rest_height + 0.002))  # touchdown
    deepest = first + int(np.argmin(z[first : first + 200]))
    bounce = float(z[deepest:].max() - z[deepest])
    return float(rest_height - z[deepest]), bounce, float(rest_height - z[-1])


CASES = {
    "defaults": dict(),
    "frictionless": dict(floor='condim="1"', geom='condim="1"'),
    "half-cheetah floor": dict(dt=0.01, floor='solimp="0 0.8 0.01" friction="0.4 0.1 0.1"',
                               geom='solimp="0 0.8 0.01" friction="0.4 0.1 0.1"'),
    "ant margins": dict(dt=0.01, floor='margin="0.01"', geom='margin="0.01" friction="1 0.5 0.5"'),
    "soft geom, mixed by solmix": dict(geom='solref="0.05 0.7" solimp="0.5 0.9 0.02" solmix="3"'),
    "direct solref": dict(floor='solref="-5000 -50"', geom='solref="-20000 -100"'),
    "priority": dict(floor='priority="1" solref="0.04 1"', geom='solref="0.01 1"'),
    "gap": dict(floor='margin="0.01" gap="0.005"'),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_a_dropped_sphere_sinks_bounces_and_rests_as_mujocos(build_world, case):
    fmt = CASES[case]
    dt = fmt.get("dt", 0.002)
    ours, theirs = drop(build_world, int(2.5 / dt), **fmt)
    sink, bounce, rest = landing(ours[:, 2], 0.1)
    mj_sink, mj_bounce, mj_rest = landing(theirs[:, 2], 0.1)
    assert abs(mj_rest) > 5e-5, "MuJoCo's contact is soft (or held off by its margin)"
    assert rest == pytest.approx(mj_rest, rel=0.2)
    assert sink == pytest.approx(mj_sink, rel=0.2)
    assert bounce == pytest.approx(mj_bounce, rel=0.2, abs=2e-4)


SHAPES = {
    "box on a face": dict(shape="box", size="0.1 0.15 0.05", height=0.2),
    "tilted box on an edge": dict(shape="box", size="0.1 0.15 0.05", height=0.3, euler="30 0 0"),
    "cylinder standing": dict(shape="cylinder", size="0.1 0.05", height=0.2),
    "cylinder lying": dict(shape="cylinder", size="0.1 0.2", height=0.3, euler="90 0 0"),
    "capsule lying": dict(shape="capsule", size="0.05 0.2", height=0.3, euler="0 90 0"),
    "ellipsoid lying": dict(shape="ellipsoid", size="0.1 0.15 0.05", height=0.2),
    "ellipsoid tipping over": dict(shape="ellipsoid", size="0.05 0.05 0.2", height=0.3, euler="0 80 0"),
}


@pytest.mark.parametrize("case", SHAPES, ids=list(SHAPES))
def test_other_shapes_come_to_rest_as_mujocos(build_world, case):
    ours, theirs = drop(build_world, 1500, **SHAPES[case])
    np.testing.assert_allclose(ours[-1, :3], theirs[-1, :3], atol=5e-4)
    # same orientation, up to the quaternion's sign
    assert abs(float(np.dot(ours[-1, 3:], theirs[-1, 3:]))) > 0.9999


@pytest.mark.parametrize("friction", [0.3, 1.0])
def test_a_box_slides_as_far_as_mujocos(build_world, friction):
    fmt = dict(shape="box", size="0.1 0.1 0.05", height=0.05, geom=f'friction="{friction} 0.1 0.1"')
    qvel = [2.0, 0.5, 0, 0, 0, 0]
    ours, theirs = drop(build_world, 800, qvel=qvel, **fmt)
    travelled, mj_travelled = np.linalg.norm(ours[-1, :2]), np.linalg.norm(theirs[-1, :2])
    assert mj_travelled > 0.1
    assert travelled == pytest.approx(mj_travelled, rel=0.05)
    np.testing.assert_allclose(ours[-1, :2], theirs[-1, :2], atol=0.05 * mj_travelled)


def test_a_tumbling_ellipsoid_rolls_as_mujocos_while_its_motion_is_not_chaotic(build_world):
    # One contact at the deepest point against the floor, as MuJoCo's plane-convex collision.
    ours, theirs = drop(build_world, 350, shape="ellipsoid", size="0.1 0.15 0.05", euler="30 20 0")
    assert np.abs(theirs[-1, :2]).max() > 0.1, "it rolled away"
    np.testing.assert_allclose(ours[:, :3], theirs[:, :3], atol=1e-3)  # measured 4e-4


def test_jolts_own_contacts_collide_an_ellipsoid_by_its_surface(build_world):
    hard = _ReferenceSolverSettings(soft_contacts=False)
    ours, _ = drop(build_world, 500, solver=hard, shape="ellipsoid", size="0.1 0.15 0.05", height=0.2)
    # at rest on its shortest semi-axis, no deeper than Jolt's slop
    assert 0.05 - hard.penetration_slop - 1e-4 < ours[-1, 2] < 0.05 + 1e-4
    np.testing.assert_allclose(ours[-1], ours[-100], atol=1e-6)


def test_hard_contacts_stay_an_option(build_world):
    hard = _ReferenceSolverSettings(soft_contacts=False)
    fmt = CASES["half-cheetah floor"]
    ours, theirs = drop(build_world, 250, solver=hard, **fmt)
    _, _, mj_rest = landing(theirs[:, 2], 0.1)
    _, _, rest = landing(ours[:, 2], 0.1)
    assert mj_rest > 0.003  # MuJoCo's sphere sinks in by millimetres, by what it weighs over the stiffness
    # Jolt's rests exactly its penetration slop deep, whatever it weighs
    assert rest == pytest.approx(hard.penetration_slop, abs=1e-4)


def test_contact_forces_of_a_resting_body_carry_its_weight(build_world):
    model, world = build_world(DROP.format(dt=0.002, floor="", height=0.3, euler="0 0 0", shape="box",
                                           size="0.1 0.15 0.05", geom=""))
    world.step(np.zeros(0, np.float32), nsteps=1000)
    forces = world.contact_forces()
    np.testing.assert_allclose(forces[1, 3:], [0, 0, 2 * 9.81], rtol=1e-3, atol=1e-3)
    points = world.contact_points()
    assert len(points) == 4  # MuJoCo's four lowest corners
    assert all(p[0] == 0 and p[1] == 1 for p in points)


def zero_action_torso_height(env, steps: int) -> float:
    env.reset(seed=0)
    zero = np.zeros(env.action_space.shape, np.float32)
    for _ in range(steps):
        env.step(zero)
    data = getattr(env.unwrapped, "data", None)
    return float(data.qpos[1] if data is not None else env.unwrapped.qpos[1])


def test_a_resting_half_cheetah_stands_as_high_as_mujocos():
    theirs = zero_action_torso_height(gym.make("HalfCheetah-v5", reset_noise_scale=0.0), 300)
    ours = zero_action_torso_height(gym.make("joltgym/HalfCheetah-v0", reset_noise_scale=0.0), 300)
    hard = gym.make("joltgym/HalfCheetah-v0", reset_noise_scale=0.0,
                    solver=_ReferenceSolverSettings(substeps=3, velocity_iterations=8, baumgarte=1.0, soft_contacts=False))
    assert ours == pytest.approx(theirs, abs=0.005)
    # One sub-step and two joint-space iterations: the contacts still carry the whole tree.
    fast = zero_action_torso_height(gym.make("joltgym/HalfCheetah-v0", reset_noise_scale=0.0, solver="fast"), 300)
    assert fast == pytest.approx(theirs, abs=0.005)
    assert zero_action_torso_height(hard, 300) > theirs + 0.01  # Jolt's hard floor holds it up


SWUNG_LEG = """
<mujoco>
  <option timestep="0.0005"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="thigh" pos="0 0 0.89">
      {hip}
      <geom type="capsule" fromto="0 0 0 0 0 -0.45" size="0.04" contype="0" conaffinity="0"/>
      <body name="shin" pos="0 0 -0.45">
        <joint name="knee" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.4" size="0.03" contype="0" conaffinity="0"/>
        <geom type="sphere" pos="0 0 -0.4" size="0.05"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""
HIPS = {
    "hinge": ('<joint name="hip" type="hinge" axis="0 1 0"/>', [-0.35, 0.1], [8.0, 6.0]),
    "two-hinge hip": ('<joint name="hip_y" type="hinge" axis="0 1 0"/><joint name="hip_x" type="hinge" axis="1 0 0" '
                      'range="-1 1"/>', [-0.35, 0.05, 0.1], [8.0, 1.5, 6.0]),
}


@pytest.mark.parametrize("hip", HIPS, ids=list(HIPS))
def test_a_swung_leg_lands_as_mujocos(build_world, hip):
    """A foot swung into the floor at 8 rad/s: MuJoCo's contact rows leave out the velocity-product
    part of the foot's acceleration (J-dot qvel, ~50 m/s^2 away from the floor here), so they press
    harder than rows on the point's own acceleration would (impulse +34% and velocities off by 4
    rad/s without the term)."""
    joint, qpos, qvel = HIPS[hip]
    model, world = build_world(SWUNG_LEG.format(hip=joint), joltgym.SolverSettings(velocity_iterations=50))
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = qpos, qvel
    world.set_state(np.asarray(qpos, np.float32), np.asarray(qvel, np.float32))
    force = np.zeros(6)
    theirs, ours, worst = 0.0, 0.0, 0.0
    for _ in range(300):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        for i in range(d.ncon):
            mujoco.mj_contactForce(m, d, i, force)
            theirs += force[0] * m.opt.timestep
        ours += sum(point[3][2] for point in world.contact_points()) * m.opt.timestep
        worst = max(worst, float(np.abs(np.asarray(world.qvel) - d.qvel).max()))
    assert theirs > 30.0  # the landing stops the swing
    assert ours == pytest.approx(theirs, rel=0.03)
    assert worst < 0.6


SKATE = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" {floor}/>
    <body name="skate" pos="0 0 0.1">
      <freejoint/>
      <geom name="grippy" type="box" size="0.05 0.05 0.05" pos="0.2 0 0" mass="1" friction="1.2" condim="3"/>
      <geom name="slippery" type="box" size="0.05 0.05 0.05" pos="-0.2 0 0" mass="1" {slippery}/>
      <geom name="light" type="capsule" fromto="-0.2 0 0 0.2 0 0" size="0.02" mass="0.1" contype="0" conaffinity="0"/>
    </body>
    {extra}
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("slippery", ['friction="0.05"', 'friction="1.2" condim="1"', 'friction="0.3" solref="0.05 1"'])
def test_geoms_of_one_body_keep_their_own_contact_parameters(build_world, slippery):
    # One end grips, the other slides: pushed sideways, the body turns about its grippy end as
    # MuJoCo's does, which only per-geom friction and condim give (the boxes slide, never roll).
    # The floor's friction and condim are the least, so that each pair takes its geom's (MuJoCo's max).
    model, world = build_world(SKATE.format(floor='friction="0.01" condim="1"', slippery=slippery, extra=""), None)
    m = model.mj_model
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    qvel = np.array([0.0, 1.5, 0.0, 0.0, 0.0, 0.0])
    d.qvel[:] = qvel
    world.set_state(d.qpos.astype(np.float32), qvel.astype(np.float32))
    ours, theirs = [], []
    for _ in range(600):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        theirs.append(d.qpos.copy())
        ours.append(np.asarray(world.qpos, np.float64))
    ours, theirs = np.array(ours), np.array(theirs)
    yaw = lambda q: 2.0 * np.arctan2(q[:, 6], q[:, 3])  # noqa: E731  (the body stays level: a turn about z)
    assert abs(yaw(theirs)[-1]) > 0.2, "MuJoCo's body turned"
    assert yaw(ours)[-1] == pytest.approx(yaw(theirs)[-1], rel=0.1)
    assert np.abs(ours[:, :3] - theirs[:, :3]).max() < 0.02


def test_geoms_of_one_body_with_their_own_parameters_are_refused_where_jolt_would_collide_them(build_world):
    wall = '<geom name="wall" type="box" size="0.1 1 0.3" pos="0 1 0.2"/>'
    with pytest.raises(joltgym.UnsupportedFeatureError,
                       match=r"body 'skate': geoms with different friction in one body where Jolt's contacts reach it"):
        build_world(SKATE.format(floor="", slippery='friction="0.05"', extra=wall), None)
