"""Physics against closed-form results and against MuJoCo on the same XML."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym

G = 9.81

PENDULUM = """
<mujoco>
  <option timestep="{dt}" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="pole" pos="0 0 2">
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0" armature="0"/>
      <geom type="sphere" pos="0 0 -{length}" size="{radius}" mass="{mass}" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
"""


def zero_crossing_times(signal: np.ndarray, dt: float) -> np.ndarray:
    s = np.sign(signal)
    idx = np.nonzero(s[:-1] * s[1:] < 0)[0]
    # linear interpolation between the samples around each sign change
    return (idx + signal[idx] / (signal[idx] - signal[idx + 1])) * dt


@pytest.mark.parametrize("length", [0.5, 1.0])
def test_pendulum_small_angle_period(build_world, length):
    dt, mass, radius = 0.001, 1.5, 0.05
    _, world = build_world(PENDULUM.format(dt=dt, length=length, radius=radius, mass=mass))
    inertia = 0.4 * mass * radius**2 + mass * length**2
    expected = 2 * np.pi * np.sqrt(inertia / (mass * G * length))

    world.set_state([0.02], [0.0])
    angles = []
    for _ in range(int(4 * expected / dt)):
        world.step(np.zeros(0, np.float32))
        angles.append(world.qpos[0])
    crossings = zero_crossing_times(np.array(angles), dt)
    period = 2 * np.mean(np.diff(crossings))
    assert abs(period - expected) / expected < 0.005, (period, expected)
    # amplitude is conserved (no numerical damping worth speaking of)
    assert np.max(np.abs(angles[-int(expected / dt):])) == pytest.approx(0.02, rel=0.02)


TWO_LINK = """
<mujoco>
  <option timestep="0.002" gravity="0 0 0"/>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 0 1" armature="0.1" damping="0.5" stiffness="3"/>
      <geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" mass="1.2" contype="0" conaffinity="0"/>
      <body name="lower" pos="0.4 0 0">
        <joint name="elbow" type="hinge" axis="0 0 1" armature="0.05" damping="0.2"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="0.6" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor joint="shoulder" gear="2"/>
    <motor joint="elbow" gear="1.5"/>
  </actuator>
</mujoco>
"""


COAXIAL_PAIR = """
<mujoco>
  <option timestep="0.002" gravity="0 0 0"/>
  <worldbody>
    <body name="base" pos="0 0 1">
      <freejoint/>
      <geom type="cylinder" size="0.2 0.05" mass="2" contype="0" conaffinity="0"/>
      <body name="rotor">
        <joint name="spin" type="hinge" axis="0 0 1" armature="0.05" damping="0.3" stiffness="2"/>
        <geom type="box" size="0.3 0.05 0.02" mass="0.5" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <actuator><motor joint="spin" gear="1.5"/></actuator>
</mujoco>
"""


def test_two_body_hinge_with_armature_and_damping_matches_mujoco_acceleration(build_world):
    """Both COMs on the hinge axis: no Coriolis terms, so one step's acceleration is exact."""
    model, world = build_world(COAXIAL_PAIR, joltgym.SolverSettings(velocity_iterations=30))
    qpos = np.array([0, 0, 1, 1, 0, 0, 0, 0.4])
    qvel = np.array([0, 0, 0, 0, 0, 0.5, 3.0])
    ctrl = np.array([0.8])

    data = mujoco.MjData(model.mj_model)
    data.qpos[:], data.qvel[:], data.ctrl[:] = qpos, qvel, ctrl
    mujoco.mj_step(model.mj_model, data)  # Euler: damping implicit, as our drive row
    mujoco_qacc = (data.qvel - qvel) / model.timestep

    world.set_state(qpos, qvel)
    world.step(ctrl.astype(np.float32))
    jolt_qacc = (world.qvel - qvel) / model.timestep

    # hinge acceleration and the base's reaction about the same axis
    for dof in (6, 5):
        assert jolt_qacc[dof] == pytest.approx(mujoco_qacc[dof], rel=0.01), (dof, jolt_qacc, mujoco_qacc)
    # armature matters here: the rotor's own inertia is ~0.015, armature 0.05
    no_armature = mujoco.MjModel.from_xml_string(COAXIAL_PAIR.replace('armature="0.05"', 'armature="0"'))
    d2 = mujoco.MjData(no_armature)
    d2.qpos[:], d2.qvel[:], d2.ctrl[:] = qpos, qvel, ctrl
    mujoco.mj_step(no_armature, d2)
    assert abs((d2.qvel[6] - qvel[6]) / model.timestep - mujoco_qacc[6]) > 0.5 * abs(mujoco_qacc[6])


def test_two_link_chain_trajectory_matches_mujoco(build_world):
    """Gravity-free arm with armature, damping, stiffness and motors: 0.5 s against MuJoCo."""
    model, world = build_world(TWO_LINK)
    qpos, qvel, ctrl = np.array([0.3, -0.4]), np.array([1.0, -2.0]), np.array([0.5, -0.3])
    data = mujoco.MjData(model.mj_model)
    data.qpos[:], data.qvel[:], data.ctrl[:] = qpos, qvel, ctrl
    world.set_state(qpos, qvel)
    for _ in range(250):
        mujoco.mj_step(model.mj_model, data)
        world.step(ctrl.astype(np.float32))
    np.testing.assert_allclose(world.qpos, data.qpos, atol=3e-3)
    np.testing.assert_allclose(world.qvel, data.qvel, atol=1e-2)
    assert abs(data.qpos[1] - qpos[1]) > 0.5  # the arm really moved


BOX_ON_PLANE = """
<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="10 10 0.1"/>
    <body name="box" pos="0.3 -0.2 0.1">
      <freejoint/>
      <geom type="box" size="0.2 0.15 0.1" mass="3"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_body_at_rest_on_plane_stays_at_rest(build_world):
    model, world = build_world(BOX_ON_PLANE)
    start = world.qpos.copy()
    for _ in range(4):
        world.step(np.zeros(0, np.float32), nsteps=250)
    end = world.qpos
    assert np.all(np.isfinite(end))
    assert np.linalg.norm(end[:2] - start[:2]) < 1e-3  # no sliding
    assert abs(end[2] - start[2]) < 0.01  # rests on the plane within Jolt's hard-contact slop
    assert np.abs(world.qvel).max() < 1e-3
    np.testing.assert_allclose(np.abs(end[3:]), np.abs(start[3:]), atol=1e-4)  # no rotation


LIMITED = """
<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002" gravity="0 0 0"/>
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="j" type="{kind}" axis="0 1 0" limited="true" range="{lo} {hi}"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.04" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="j" gear="50" ctrllimited="true" ctrlrange="-1 1"/></actuator>
</mujoco>
"""


@pytest.mark.parametrize(
    "kind,lo,hi",
    [
        ("hinge", -0.5, 0.3),  # straddles zero
        ("hinge", -1.2, -0.4),  # entirely negative
        ("hinge", 0.5, 1.3),  # entirely positive
        ("slide", 0.1, 0.4),  # slide range not containing zero
    ],
)
@pytest.mark.parametrize("direction", [1.0, -1.0])
def test_joint_limit_holds_under_saturating_torque(build_world, kind, lo, hi, direction):
    _, world = build_world(LIMITED.format(kind=kind, lo=lo, hi=hi))
    world.set_state([0.5 * (lo + hi)], [0.0])
    world.step(np.array([direction], np.float32), nsteps=1500)
    bound = hi if direction > 0 else lo
    tolerance = np.radians(1.0) if kind == "hinge" else 0.005
    assert abs(world.qpos[0] - bound) < tolerance, (world.qpos[0], bound)


TWO_SLIDE_ROOT = """
<mujoco>
  <compiler angle="radian"/>
  <option timestep="0.002" gravity="0 0 -9.81"/>
  <worldbody>
    <body name="puck" pos="0.1 -0.1 0.5">
      <joint name="x" type="slide" axis="1 0 0" limited="true" range="-0.3 0.2" ref="0.1" damping="2"/>
      <joint name="y" type="slide" axis="0 1 0" limited="true" range="-0.25 0.25" ref="-0.1"/>
      <geom type="sphere" size="0.05" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator>
    <motor joint="x" gear="10"/>
    <motor joint="y" gear="10"/>
  </actuator>
</mujoco>
"""


def test_root_on_two_slides_translates_only_and_holds_its_limits(build_world):
    model, world = build_world(TWO_SLIDE_ROOT)
    np.testing.assert_allclose(world.qpos, [0.1, -0.1], atol=1e-6)  # qpos0 is the joints' ref
    world.step(np.array([1.0, -1.0], np.float32), nsteps=1000)
    np.testing.assert_allclose(world.qpos, [0.2, -0.25], atol=0.005)
    assert abs(world.body_com()[0, 2] - 0.5) < 1e-4  # gravity cannot move it: z is not a DOF
    np.testing.assert_allclose(world.body_quat()[0], [1, 0, 0, 0], atol=1e-6)


@pytest.mark.parametrize("articulated", [False, True], ids=["joint_by_joint", "articulated"])
def test_a_tiny_body_turns_with_its_own_inertia(build_world, articulated):
    """A 1 g sphere of 1 cm (I = 4e-8 kg m^2, where Jolt would substitute a unit sphere's 4e-4) spun by a motor:
    alpha = tau / I, as MuJoCo's (dm_control's fish has fins this small)."""
    xml = """
<mujoco>
  <option timestep="0.001" gravity="0 0 0"/>
  <worldbody>
    <body name="bead">
      <joint name="spin" type="hinge" axis="0 0 1"/>
      <geom type="sphere" size="0.01" mass="0.001" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><motor joint="spin" gear="1e-6"/></actuator>
</mujoco>
"""
    settings = joltgym.SolverSettings(articulated_joints=True, baumgarte=1.0) if articulated else None
    model, world = build_world(xml, settings)
    m = model.mj_model
    data = mujoco.MjData(m)
    data.ctrl[:] = 1.0
    for _ in range(10):
        mujoco.mj_step(m, data)
        world.step(np.ones(1, np.float32))
    assert data.qvel[0] == pytest.approx(10 * 0.001 * 1e-6 / 4e-8, rel=1e-3)  # 0.25 rad/s
    assert world.qvel[0] == pytest.approx(data.qvel[0], rel=1e-3)
