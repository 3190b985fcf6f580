"""MuJoCo's contact rules on Jolt: bitmasks, parent-child exclusion, friction by max."""

from __future__ import annotations

import numpy as np
import pytest

DROP = """
<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" friction="{floor_friction}"/>
    <body name="ball" pos="0 0 0.5">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1" contype="{contype}" conaffinity="{conaffinity}"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("contype,conaffinity,lands", [(1, 1, True), (1, 0, True), (0, 1, True), (2, 2, False)])
def test_contype_conaffinity_decide_contact(build_world, contype, conaffinity, lands):
    # the floor has MuJoCo's defaults contype=conaffinity=1
    _, world = build_world(DROP.format(contype=contype, conaffinity=conaffinity, floor_friction=1))
    world.step(np.zeros(0, np.float32), nsteps=400)
    z = world.qpos[2]
    if lands:
        assert z == pytest.approx(0.1, abs=0.01)
    else:
        assert z < -1.0  # fell through


OVERLAPPING_CHILD = """
<mujoco>
  <option timestep="0.005" gravity="0 0 0"/>
  <worldbody>
    <body name="parent" pos="0 0 1">
      <freejoint/>
      <geom type="box" size="0.2 0.2 0.2" mass="1"/>
      <body name="child" pos="0.1 0 0">
        <joint type="hinge" axis="0 0 1"/>
        <geom type="box" size="0.2 0.05 0.05" mass="0.2"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def test_parent_and_child_never_collide(build_world):
    _, world = build_world(OVERLAPPING_CHILD)
    start = world.qpos.copy()
    world.step(np.zeros(0, np.float32), nsteps=200)
    # overlapping geoms would push the two apart if Jolt saw a contact
    np.testing.assert_allclose(world.qpos, start, atol=1e-5)
    assert np.abs(world.qvel).max() < 1e-5


SLIDE_ON_FLOOR = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" friction="{floor}"/>
    <body name="puck" pos="0 0 0.05">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.05" mass="1" friction="{puck}"/>
    </body>
  </worldbody>
</mujoco>
"""


@pytest.mark.parametrize("floor,puck", [(0.1, 0.5), (0.5, 0.1)])
def test_friction_combines_by_max(build_world, floor, puck):
    _, world = build_world(SLIDE_ON_FLOOR.format(floor=floor, puck=puck))
    qpos = world.qpos.copy()
    world.set_state(qpos, np.array([2.0, 0, 0, 0, 0, 0]))
    world.step(np.zeros(0, np.float32), nsteps=50)  # 0.1 s of sliding
    deceleration = (2.0 - world.qvel[0]) / 0.1
    assert deceleration == pytest.approx(max(floor, puck) * 9.81, rel=0.05)


SLIDE_WITH_CONDIM = SLIDE_ON_FLOOR.replace('friction="{floor}"', 'friction="{floor}" condim="{floor_condim}"').replace(
    'friction="{puck}"', 'friction="{puck}" condim="{puck_condim}"'
)


@pytest.mark.parametrize("floor_condim,puck_condim,frictional", [(1, 1, False), (3, 1, True), (1, 3, True)])
def test_contact_is_frictionless_only_when_both_geoms_have_condim_1(build_world, floor_condim, puck_condim, frictional):
    """MuJoCo gives a contact the larger condim of its two geoms (Humanoid's limbs: condim 1)."""
    xml = SLIDE_WITH_CONDIM.format(floor=0.5, puck=0.5, floor_condim=floor_condim, puck_condim=puck_condim)
    _, world = build_world(xml)
    world.set_state(world.qpos.copy(), np.array([2.0, 0, 0, 0, 0, 0]))
    world.step(np.zeros(0, np.float32), nsteps=50)
    deceleration = (2.0 - world.qvel[0]) / 0.1
    assert deceleration == pytest.approx(0.5 * 9.81 if frictional else 0.0, abs=0.05 * 9.81)


WELDED_FOOT = """
<mujoco>
  <option timestep="0.005"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="box" pos="0.3 -0.2 0.2">
      <freejoint/>
      <geom type="box" size="0.2 0.15 0.1" mass="3"/>
      <body name="foot" pos="0.2 0 0">
        <geom type="sphere" size="0.05" mass="1" pos="0.05 0 -0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
"""


def test_contact_forces_of_a_resting_body_sum_to_its_weight_and_name_welded_bodies(build_world):
    """cfrc_ext: the box rests on its edge and on a sphere of a welded (jointless) body."""
    model, world = build_world(WELDED_FOOT)
    world.step(np.zeros(0, np.float32), nsteps=400)
    cfrc = world.contact_forces()
    assert cfrc.shape == (3, 6)  # world, box, foot
    np.testing.assert_allclose(cfrc[:, 3:].sum(axis=0), [0, 0, 4 * 9.81], atol=1e-3)
    assert cfrc[1, 5] > 1.0 and cfrc[2, 5] > 1.0  # each MuJoCo body gets its own share
    # at rest the torques about the centre of mass balance gravity's (zero) torque
    np.testing.assert_allclose(cfrc[:, :3].sum(axis=0), [0, 0, 0], atol=1e-2)
    for body, mj_body, point, force in world.contact_points():
        assert abs(point[2]) < 1e-3  # contacts sit on the floor
