"""Site sensors computed natively (physics/world/sensors.h) against MuJoCo's own sensors on the
same model and state: a Go1 of MuJoCo Playground and a small model with a rotated site."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.robot_assets import scene_path

GO1 = scene_path("go1/scene_mjx_feetonly_flat_terrain.xml")
ARTICULATED = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                     articulated_joints=True)
# A capsule on a free joint with a site off its centre of mass and turned, and every sensor kind on it.
TUMBLER = """
<mujoco>
  <option gravity="0 0 {g}" timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="b" pos="0 0 {z}">
      <freejoint/>
      <geom type="capsule" fromto="-0.2 0 0 0.2 0.05 0" size="0.05" mass="2"/>
      <geom type="box" pos="0.1 0.05 0" size="0.03 0.04 0.05" mass="0.5"/>
      <site name="s" pos="0.12 -0.04 0.03" euler="0.4 -0.3 1.1"/>
    </body>
  </worldbody>
  <sensor>
    <gyro site="s"/><velocimeter site="s"/><accelerometer site="s"/>
    <framexaxis objtype="site" objname="s"/><framezaxis objtype="site" objname="s"/>
    <framelinvel objtype="site" objname="s"/><frameangvel objtype="site" objname="s"/>
  </sensor>
</mujoco>
"""
KINDS = ["gyro", "velocimeter", "framexaxis", "framezaxis", "framelinvel", "frameangvel"]
MJ_SENSOR = {k: getattr(mujoco.mjtSensor, f"mjSENS_{k.upper()}") for k in KINDS + ["accelerometer"]}


def reading(m: mujoco.MjModel, d: mujoco.MjData, kind: str, site: int) -> np.ndarray:
    for i in range(m.nsensor):
        if m.sensor_type[i] == MJ_SENSOR[kind] and m.sensor_objid[i] == site and m.sensor_objtype[i] == mujoco.mjtObj.mjOBJ_SITE:
            return d.sensordata[m.sensor_adr[i] : m.sensor_adr[i] + 3].copy()
    raise KeyError(kind)


def random_state(m: mujoco.MjModel, rng: np.random.Generator, lift: float) -> tuple[np.ndarray, np.ndarray]:
    qpos = m.qpos0.copy() if m.nkey == 0 else m.key_qpos[0].copy()
    qpos[2] += lift
    q = rng.normal(size=4)
    qpos[3:7] = q / np.linalg.norm(q)
    qpos[7:] += rng.uniform(-0.3, 0.3, m.nq - 7)
    return qpos, rng.normal(size=m.nv)


def place(model: joltgym.JoltModel, qpos, qvel):
    world = _native.World(model.native)
    world.set_state(qpos.astype(np.float32), qvel.astype(np.float32))
    return world, world.robots[0]


@pytest.mark.parametrize("seed", range(3))
def test_go1s_site_sensors_read_what_mujocos_read_in_the_same_state(seed):
    model = joltgym.load_model(GO1, solver=ARTICULATED)
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = random_state(m, np.random.default_rng(seed), lift=0.3)
    mujoco.mj_forward(m, d)
    _, robot = place(model, d.qpos, d.qvel)
    for name in ("imu", "FR", "FL", "RR", "RL"):
        site = m.site(name).id
        for kind in KINDS:
            try:
                theirs = reading(m, d, kind, site)
            except KeyError:  # Go1 reads only its feet's framelinvel
                continue
            np.testing.assert_allclose(robot.site_sensor(kind, site), theirs, rtol=1e-4, atol=1e-5, err_msg=f"{name} {kind}")


@pytest.mark.parametrize("seed", range(3))
def test_a_turned_site_off_the_centre_of_mass_reads_as_mujocos(tmp_path, seed):
    path = tmp_path / "tumbler.xml"
    path.write_text(TUMBLER.format(g=-9.81, z=1.0))
    model = joltgym.load_model(path)
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qpos[:], d.qvel[:] = random_state(m, np.random.default_rng(seed), lift=0.0)
    mujoco.mj_forward(m, d)
    _, robot = place(model, d.qpos, d.qvel)
    for kind in KINDS:
        np.testing.assert_allclose(robot.site_sensor(kind, 0), reading(m, d, kind, 0), rtol=1e-4, atol=1e-5, err_msg=kind)


def test_the_accelerometer_reads_zero_in_free_fall_and_g_at_rest(tmp_path):
    path = tmp_path / "tumbler.xml"
    path.write_text(TUMBLER.format(g=-9.81, z=1.0))
    model = joltgym.load_model(path)
    m = model.mj_model
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    world, robot = place(model, d.qpos, np.zeros(m.nv))
    world.step(np.zeros(0, np.float32))
    np.testing.assert_allclose(robot.site_sensor("accelerometer", 0), 0.0, atol=1e-3)  # falling: nothing pushes
    world.step(np.zeros(0, np.float32), nsteps=1500)  # lands and comes to rest on the floor
    x, z = robot.site_sensor("framexaxis", 0), robot.site_sensor("framezaxis", 0)
    up_in_site = 9.81 * np.array([x[2], np.cross(z, x)[2], z[2]])  # R^T (0, 0, g)
    np.testing.assert_allclose(robot.site_sensor("accelerometer", 0), up_in_site, atol=0.05)
    for _ in range(1500):  # and MuJoCo's, at rest on its floor, reads the same: +g upwards
        mujoco.mj_step(m, d)
    np.testing.assert_allclose(reading(m, d, "accelerometer", 0),
                               d.site_xmat[0].reshape(3, 3).T @ np.array([0.0, 0.0, 9.81]), atol=0.05)


def test_the_accelerometer_of_a_tumbling_body_follows_mujocos(tmp_path):
    # No gravity: the reading is the site's centripetal and angular accelerations alone.
    path = tmp_path / "tumbler.xml"
    path.write_text(TUMBLER.format(g=0, z=1.0))
    model = joltgym.load_model(path)
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qvel[:] = [0.3, -0.2, 0.1, 4.0, -7.0, 2.0]
    mujoco.mj_forward(m, d)
    world, robot = place(model, d.qpos, d.qvel)
    for step in range(50):
        mujoco.mj_step(m, d)
        world.step(np.zeros(0, np.float32))
        if step >= 5:
            theirs = reading(m, d, "accelerometer", 0)
            np.testing.assert_allclose(robot.site_sensor("accelerometer", 0), theirs, rtol=0.05,
                                       atol=0.05 * np.linalg.norm(theirs), err_msg=f"step {step}")


def test_actuator_force_is_mujocos_after_its_forcerange(tmp_path):
    model = joltgym.load_model(GO1, solver=ARTICULATED)
    m = model.mj_model
    d = mujoco.MjData(m)
    d.qpos[:] = m.key_qpos[0]
    d.qpos[2] += 0.5
    d.ctrl[:] = m.key_ctrl[0] + np.random.default_rng(0).uniform(-1.5, 1.5, m.nu)  # some beyond forcerange
    world, robot = place(model, d.qpos, d.qvel)
    world.step(d.ctrl.astype(np.float32))
    mujoco.mj_step(m, d)
    assert np.any(np.abs(d.actuator_force) >= 23.7 - 1e-6)
    np.testing.assert_allclose(robot.actuator_force, d.actuator_force, rtol=1e-4, atol=1e-4)


def test_an_unknown_sensor_or_site_is_named():
    model = joltgym.load_model(GO1, solver=ARTICULATED)
    robot = _native.World(model.native).robots[0]
    with pytest.raises(ValueError, match=r"unknown site sensor 'rangefinder'; known: touch, gyro, velocimeter"):
        robot.site_sensor("rangefinder", 0)
    with pytest.raises(ValueError, match=r"site 99 is not a site of model"):
        robot.site_sensor("gyro", 99)


# A box resting on the floor, a touch sensor on each site shape: sites the contacts' outward rays meet
# read their normal forces (the whole weight, a corner's quarter, an edge's half, and an edge's half for a
# site below the floor that the rays reach), a site on the box's top reads nothing (the rays point away).
RESTING_BOX = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="b" pos="0 0 0.2">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.05" mass="2"/>
      <site name="bottom" type="box" pos="0 0 -0.05" size="0.11 0.11 0.02"/>
      <site name="corner" type="sphere" pos="0.1 0.1 -0.05" size="0.02"/>
      <site name="top" type="ellipsoid" pos="0 0 0.05" size="0.12 0.12 0.02"/>
      <site name="edge" type="capsule" pos="0.1 0 -0.05" size="0.02 0.1" euler="90 0 0"/>
      <site name="below" type="cylinder" pos="-0.1 0 -0.3" size="0.02 0.11" euler="90 0 0"/>
    </body>
  </worldbody>
  <sensor><touch site="bottom"/><touch site="corner"/><touch site="top"/><touch site="edge"/><touch site="below"/></sensor>
</mujoco>
"""


def test_touch_sensors_of_a_resting_box_read_as_mujocos(tmp_path):
    path = tmp_path / "box.xml"
    path.write_text(RESTING_BOX)
    model = joltgym.load_model(path)
    m = model.mj_model
    d = mujoco.MjData(m)
    for _ in range(1000):
        mujoco.mj_step(m, d)
    world, robot = place(model, m.qpos0, np.zeros(m.nv))
    world.step(np.zeros(0, np.float32), nsteps=1000)
    ours = np.array([robot.site_sensor("touch", s)[0] for s in range(m.nsite)])
    weight = 2.0 * 9.81
    np.testing.assert_allclose(d.sensordata, [weight, weight / 4, 0.0, weight / 2, weight / 2], rtol=1e-3)
    np.testing.assert_allclose(ours, d.sensordata, rtol=1e-3, atol=1e-3)
