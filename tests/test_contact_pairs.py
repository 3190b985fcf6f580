"""Explicit contact pairs (MJCF <contact><pair>): two geoms touch with the pair's own condim,
friction, solref, solimp and margin whatever their bitmasks say, and the pair replaces the contact
their own parameters would make; tested against MuJoCo on the same XML. Pairs joltgym cannot solve
are refused by name."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.errors import UnsupportedFeatureError

SLIDER = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" {floor}/>
    <body name="puck" pos="0 0 0.05">
      <freejoint/>
      <geom name="puck" type="box" size="0.1 0.08 0.05" mass="1" {puck}/>
    </body>
  </worldbody>
  <contact>{pairs}</contact>
</mujoco>
"""


ARTICULATED = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                     articulated_joints=True)


def run(build_world, xml, steps, qvel=None, solver=None):
    model, world = build_world(xml, solver)
    m = model.mj_model
    d = mujoco.MjData(m)
    if qvel is not None:
        d.qvel[:] = qvel
    mujoco.mj_forward(m, d)
    world.set_state(d.qpos.astype(np.float32), d.qvel.astype(np.float32))
    ours, theirs = [], []
    for _ in range(steps):
        world.step(np.zeros(m.nu, np.float32))
        mujoco.mj_step(m, d)
        ours.append(world.qpos.copy())
        theirs.append(d.qpos.copy())
    return np.array(ours), np.array(theirs)


PUSH = [2.0, 0.5, 0, 0, 0, 0]  # sliding off at 2 m/s


@pytest.mark.parametrize("pair, friction", [
    ('<pair geom1="floor" geom2="puck" condim="3" friction="0.3 0.3"/>', 0.3),
    ('<pair geom1="floor" geom2="puck" condim="1"/>', 0.0),
])
def test_a_geom_that_only_its_pair_lets_touch_the_floor_slides_as_mujocos(build_world, pair, friction):
    xml = SLIDER.format(floor="", puck='contype="0" conaffinity="0"', pairs=pair)
    ours, theirs = run(build_world, xml, 600, PUSH)
    # Sliding across both tangents, four corners' pyramids solve to MuJoCo's force within 1%.
    np.testing.assert_allclose(ours[:, :3], theirs[:, :3], atol=5e-3)
    travelled = np.hypot(*(ours[-1, :2] - ours[0, :2]))
    if friction:  # stopped, a little past v^2 / (2 mu g): a pyramid's sides hold less across its axes
        assert np.abs(ours[-1, :2] - ours[-100, :2]).max() < 1e-4
        assert 1.0 < travelled / ((PUSH[0] ** 2 + PUSH[1] ** 2) / (2 * friction * 9.81)) < 1.15
    else:
        assert travelled > 2.0


def test_a_pair_replaces_the_contact_its_geoms_own_parameters_would_make(build_world):
    # The geoms alone would grip (friction 1); their pair says 0.1, and only the pair's contact acts.
    xml = SLIDER.format(floor='friction="1"', puck='friction="1"',
                        pairs='<pair geom1="puck" geom2="floor" friction="0.1 0.1" solref="0.01 1"/>')
    ours, theirs = run(build_world, xml, 600, PUSH)
    np.testing.assert_allclose(ours[:, :3], theirs[:, :3], atol=5e-3)  # as in the test above
    assert np.hypot(*(theirs[-1, :2] - theirs[0, :2])) > 1.5


# Two legs hung from a hub that turns about the vertical: they swing into each other, which only
# their pair lets them feel (every geom has contype 0).
LEGS = """
<mujoco>
  <option timestep="0.002" gravity="0 0 -9.81"/>
  <default><geom contype="0" conaffinity="0" density="500"/></default>
  <worldbody>
    <body name="hub" pos="0 0 1">
      <joint name="spin" type="hinge" axis="0 0 1" armature="0.1"/>
      <geom type="sphere" size="0.05"/>
      <body name="left" pos="-0.12 0 0">
        <joint name="left" type="hinge" axis="0 1 0" range="-1 1.5"/>
        <geom name="left_shin" type="capsule" fromto="0 0 0 0 0 -0.4" size="0.03"/>
        <geom name="left_foot" type="{left}" pos="0 0 -0.42" size="0.04 0.03 0.02"/>
      </body>
      <body name="right" pos="0.12 0 0">
        <joint name="right" type="hinge" axis="0 1 0" range="-1.5 1"/>
        <geom name="right_shin" type="capsule" fromto="0 0 0 0 0 -0.4" size="0.03"/>
        <geom name="right_foot" type="{right}" pos="0 0 -0.42" size="0.04 0.03 0.02"/>
      </body>
    </body>
  </worldbody>
  <contact>
    <pair geom1="left_foot" geom2="right_foot" condim="{condim}"/>
    <pair geom1="left_shin" geom2="right_shin" condim="1"/>
  </contact>
</mujoco>
"""
SWING = [0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("left, right, condim", [("box", "box", 1), ("box", "box", 3), ("sphere", "box", 1),
                                                 ("capsule", "cylinder", 3)])
def test_feet_of_one_tree_kick_each_other_through_their_pair_as_mujocos(build_world, left, right, condim):
    xml = LEGS.format(left=left, right=right, condim=condim)
    model, _ = build_world(xml, ARTICULATED)
    qvel = np.zeros(model.nv)
    qvel[1], qvel[2] = -4.0, 4.0  # the feet swing towards each other
    ours, theirs = run(build_world, xml, 300, qvel, ARTICULATED)
    # Without the pair the feet would pass: the left leg swings past vertical. With it both stop short.
    assert theirs[:, 1].min() > -0.3 and theirs[:, 2].max() < 0.3
    np.testing.assert_allclose(ours[:, 1:], theirs[:, 1:], atol=0.06)


def test_explicit_pairs_load_playgrounds_g1_which_collides_through_them_only():
    from joltgym.robot_assets import locomotion_scenes

    model = joltgym.load_model(locomotion_scenes()["g1/scene_mjx_feetonly_flat_terrain.xml"], solver=ARTICULATED)
    assert model.mj_model.npair == 5 and not np.any(model.mj_model.geom_contype[1:])  # the floor is geom 0
    _native.World(model.native)


@pytest.mark.parametrize("pair, message", [
    ('<pair geom1="floor" geom2="puck" condim="4"/>', r"<contact><pair> 'p': condim 4 \(torsional or rolling"),
    ('<pair geom1="floor" geom2="puck" solreffriction="0.01 1"/>', r"<contact><pair> 'p': solreffriction"),
])
def test_pair_parameters_joltgym_does_not_model_are_refused_by_name(tmp_path, pair, message):
    path = tmp_path / "pair.xml"
    path.write_text(SLIDER.format(floor="", puck="", pairs=pair.replace("<pair ", '<pair name="p" ')))
    with pytest.raises(UnsupportedFeatureError, match=message):
        joltgym.load_model(path)


TWO_BALLS = """
<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="a" pos="0 0 1"><freejoint/><geom name="ga" type="sphere" size="0.1" mass="1" contype="0" conaffinity="0"/>
    {arm}</body>
  <body name="b" pos="0.5 0.05 1"><freejoint/><geom name="gb" type="sphere" size="0.1" mass="2" contype="0" conaffinity="0"/></body>
</worldbody><contact><pair name="ab" geom1="ga" geom2="gb"/></contact></mujoco>"""


ARM_ON_A = ('<body name="arm"><joint type="hinge"/><geom type="capsule" fromto="0 0 0 0 0 -0.3" size="0.02" '
            'contype="0" conaffinity="0"/></body>')


@pytest.mark.parametrize("arm", ["", ARM_ON_A], ids=["lone balls", "a articulated with an arm"])
def test_a_pair_between_two_separate_bodies_is_mujocos_soft_contact(build_world, arm):
    # Two free balls, their own contacts off, meet off-centre through their explicit pair; with an arm on a,
    # a's tree is articulated and the pair's rows are Jolt's, which the articulation carries over the arm.
    model, world = build_world(TWO_BALLS.format(arm=arm), ARTICULATED)
    mj = model.mj_model
    data = mujoco.MjData(mj)
    data.qvel[0] = 2.0
    robot = world.robots[0]
    robot.set_state(mj.qpos0.astype(np.float32), data.qvel.astype(np.float32))
    touching = 0
    for _ in range(200):
        mujoco.mj_step(mj, data)
        world.step(np.zeros(0, np.float32), nsteps=1)
        touching += data.ncon > 0
    b_x = mj.jnt_dofadr[mj.body("b").jntadr[0]]
    assert touching > 5 and data.qvel[b_x] > 0.5, "the pair's contact pushed b away"
    np.testing.assert_allclose(robot.qvel, data.qvel, atol=0.02 * np.abs(data.qvel).max())


def test_a_pair_with_a_static_box_is_refused_by_name(tmp_path):
    path = tmp_path / "wall.xml"
    path.write_text(SLIDER.format(floor="", puck="", pairs='<pair name="w" geom1="wall" geom2="puck"/>').replace(
        "<worldbody>", '<worldbody><geom name="wall" type="box" size="0.1 1 1" pos="2 0 1"/>'))
    with pytest.raises(UnsupportedFeatureError, match=r"<contact><pair> 'w': a robot geom paired with the world's "
                                                       r"geom 'wall', which is not a plane or a height field"):
        joltgym.load_model(path)
