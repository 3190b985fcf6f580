"""Height-field floors (MJCF <hfield>): spheres, boxes, capsules, ellipsoids and cylinders touch them through
soft rows as MuJoCo's prisms do, tested against MuJoCo on the same XML; a height field on a moving body is
refused by name."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.errors import UnsupportedFeatureError

# A 9 x 9 field over 2 m x 2 m: a bump in the middle and a slope towards +x.
ROWS = 9
HEIGHTS = np.array([[0.15 * c / (ROWS - 1) + 0.25 * np.exp(-((r - 4) ** 2 + (c - 4) ** 2) / 3.0) for c in range(ROWS)]
                    for r in range(ROWS)])
SCENE = """
<mujoco>
  <option timestep="0.002"/>
  <asset>
    <hfield name="terrain" nrow="{n}" ncol="{n}" size="1 1 0.4 0.1" elevation="{elevation}"/>
  </asset>
  <worldbody>
    <geom name="floor" type="hfield" hfield="terrain" pos="0.1 0 0" {floor}/>
    {bodies}
  </worldbody>
</mujoco>
"""
BALL = """<body name="ball{k}" pos="{x} {y} 0.6"><freejoint/>
      <geom type="sphere" size="0.05" mass="0.3" {geom}/></body>"""


def scene(balls, floor="", geom=""):
    elevation = " ".join(f"{h:.4f}" for h in HEIGHTS.ravel())
    bodies = "\n".join(BALL.format(k=k, x=x, y=y, geom=geom) for k, (x, y) in enumerate(balls))
    return SCENE.format(n=ROWS, elevation=elevation, floor=floor, bodies=bodies)


def trajectories(build_world, xml, steps):
    model, world = build_world(xml)
    m = model.mj_model
    d = mujoco.MjData(m)
    mujoco.mj_forward(m, d)
    ours, theirs = [], []
    for _ in range(steps):
        world.step(np.zeros(0, np.float32))
        mujoco.mj_step(m, d)
        ours.append(world.qpos.copy())
        theirs.append(d.qpos.copy())
    return np.array(ours), np.array(theirs)


BALLS = [(-0.6, -0.5), (0.1, 0.05), (0.5, 0.4), (-0.2, 0.55)]  # on the slope, on the bump's top and flank


def test_balls_dropped_on_a_height_field_land_and_roll_as_in_mujoco(build_world):
    ours, theirs = trajectories(build_world, scene(BALLS), 600)  # 1.2 s: a fall, a landing and a roll
    for k in range(len(BALLS)):
        z = slice(7 * k + 2, 7 * k + 3)
        xy = slice(7 * k, 7 * k + 2)
        np.testing.assert_allclose(ours[:, z], theirs[:, z], atol=0.01, err_msg=f"ball {k} height")
        np.testing.assert_allclose(ours[:, xy], theirs[:, xy], atol=0.03, err_msg=f"ball {k} roll")
    assert np.abs(theirs[-1, 0:2] - theirs[0, 0:2]).max() > 0.05  # a ball on the slope did roll


def test_a_ball_rests_on_a_level_field_at_mujocos_height(build_world):
    # Level (MuJoCo normalises a field's elevations, so a constant one lies at 0): each ball, over a
    # triangle's face, an edge or a corner, sinks into its soft rows as deep as MuJoCo's does.
    level = scene([(0.0, 0.0), (0.125, 0.125), (0.2, -0.3)]).replace(
        " ".join(f"{h:.4f}" for h in HEIGHTS.ravel()), " ".join(["0.5"] * ROWS * ROWS))
    ours, theirs = trajectories(build_world, level, 1000)
    for k in range(3):
        np.testing.assert_allclose(ours[-1, 7 * k + 2], theirs[-1, 7 * k + 2], atol=5e-4, err_msg=f"ball {k}")
        assert abs(theirs[-1, 7 * k + 2] - 0.05) < 0.005


# Boxes need a finer grid: MuJoCo gives one contact per prism, and a foot-sized box over one or two
# of them tips and slides on level ground in MuJoCo (joltgym's stays flat on its corners).
FINE = 41
FINE_HEIGHTS = np.array([[0.15 * c / (FINE - 1) + 0.25 * np.exp(-((r - 20) ** 2 + (c - 20) ** 2) / 60.0)
                          for c in range(FINE)] for r in range(FINE)])
BOX = """<body name="box{k}" pos="{x} {y} {z}"><freejoint/>
      <geom type="box" size="0.08 0.03 0.01" euler="{tilt}" mass="0.3"/></body>"""


def box_scene(heights, places, z, tilt="0 0 0"):
    elevation = " ".join(f"{h:.4f}" for h in np.ravel(heights))
    bodies = "\n".join(BOX.format(k=k, x=x, y=y, z=z, tilt=tilt) for k, (x, y) in enumerate(places))
    return SCENE.format(n=FINE, elevation=elevation, floor="", bodies=bodies).replace('pos="0.1 0 0" ', "")


def test_a_box_rests_on_a_level_field_at_mujocos_height(build_world):
    # Over a sample, across an edge and over a face: flat, as deep as MuJoCo's, where it was set down.
    places = [(0.0, 0.0), (0.125, 0.125), (0.26, -0.3)]
    ours, theirs = trajectories(build_world, box_scene(np.full(FINE * FINE, 0.5), places, z=0.03), 800)
    np.testing.assert_allclose(ours.reshape(800, 3, 7)[:, :, :3], theirs.reshape(800, 3, 7)[:, :, :3], atol=5e-4)
    np.testing.assert_allclose(ours[-1, 2::7], 0.01, atol=2e-4)


def test_boxes_dropped_tilted_on_the_bump_and_slope_land_as_in_mujoco(build_world):
    ours, theirs = trajectories(build_world, box_scene(FINE_HEIGHTS, BALLS, z=0.6, tilt="0.3 0.2 0.5"), 800)
    for k in range(len(BALLS)):  # a fall, a tumble over the bump and a slide
        np.testing.assert_allclose(ours[:, 7 * k:7 * k + 3], theirs[:, 7 * k:7 * k + 3], atol=0.04, err_msg=f"box {k}")
    moved = [np.abs(theirs[-1, 7 * k:7 * k + 2] - theirs[0, 7 * k:7 * k + 2]).max() for k in range(len(BALLS))]
    assert max(moved) > 0.02  # they did not just land where they fell


# Capsules, ellipsoids and cylinders: one contact per triangle they come near, at the deepest point Jolt's
# GJK/EPA finds against it (MuJoCo's general convex search gives one per prism), edges between flat-meeting
# faces inactive (a contact there takes the face's normal).
CONVEX = {"capsule": 'type="capsule" size="0.04 0.08"', "ellipsoid": 'type="ellipsoid" size="0.1 0.06 0.04"',
          "cylinder": 'type="cylinder" size="0.06 0.03"'}


def convex_scene(shape, places, z, tilt="0 0 0", heights=HEIGHTS):
    elevation = " ".join(f"{h:.4f}" for h in np.ravel(heights))
    bodies = "\n".join(f"""<body name="thing{k}" pos="{x} {y} {z}" euler="{tilt}"><freejoint/>
      <geom {CONVEX[shape]} mass="0.3"/></body>""" for k, (x, y) in enumerate(places))
    return SCENE.format(n=len(heights), elevation=elevation, floor="", bodies=bodies)


# Resting height on a level field: measured within 0.2 mm of MuJoCo's, but for a cylinder standing over a
# cell's diagonal (5 mm: MuJoCo's slides 1.2 cm off it, ours stays).
LEVEL_HEIGHT = {"capsule": 5e-4, "ellipsoid": 5e-4, "cylinder": 6e-3}


@pytest.mark.parametrize("shape", CONVEX)
def test_convex_shapes_rest_on_a_level_field_at_mujocos_height(build_world, shape):
    level = np.full((ROWS, ROWS), 0.5)
    places = [(0.0, 0.0), (0.125, 0.125), (0.2, -0.3)]
    tilt = "0 90 0" if shape == "capsule" else "0 0 0"  # the capsule lying, across the triangles
    ours, theirs = trajectories(build_world, convex_scene(shape, places, 0.15, tilt, level), 1000)
    for k in range(len(places)):
        np.testing.assert_allclose(ours[-1, 7 * k + 2], theirs[-1, 7 * k + 2], atol=LEVEL_HEIGHT[shape],
                                   err_msg=f"{shape} {k}")
        # both creep on it as much (the lying capsule 2-5 cm in either; the rest under 1 mm)
        assert abs(np.abs(ours[-1, 7 * k:7 * k + 2] - ours[0, 7 * k:7 * k + 2]).max()
                   - np.abs(theirs[-1, 7 * k:7 * k + 2] - theirs[0, 7 * k:7 * k + 2]).max()) < 0.015


# The first 300 steps of a drop onto the bump and the slope: a fall, a landing and a roll or slide. Measured:
# capsules 1 mm (0.017 by step 600); an ellipsoid landing on the bump's top 4.4 cm by step 200 (a point of
# MuJoCo's general search per prism against Jolt's per triangle); cylinders 2.5 cm as they land (MuJoCo's
# sinks 3.7 cm into its soft rows on impact) and 9 cm once one tips over on the slope.
DROPPED = {"capsule": 0.005, "ellipsoid": 0.08, "cylinder": 0.1}


@pytest.mark.parametrize("shape", CONVEX)
def test_convex_shapes_dropped_tilted_on_the_bump_and_slope_land_as_in_mujoco(build_world, shape):
    ours, theirs = trajectories(build_world, convex_scene(shape, BALLS, 0.6, "0.3 0.2 0.5"), 300)
    for k in range(len(BALLS)):
        np.testing.assert_allclose(ours[:, 7 * k:7 * k + 3], theirs[:, 7 * k:7 * k + 3], atol=DROPPED[shape],
                                   err_msg=f"{shape} {k}")
        assert theirs[:, 7 * k + 2].min() < 0.5, "it fell onto the field"
        assert ours[-1, 7 * k + 2] > theirs[-1, 7 * k + 2] - 0.1, "and did not fall through it"


def test_a_height_field_on_a_moving_body_is_refused_by_name(tmp_path):
    path = tmp_path / "moving.xml"
    xml = scene([(0, 0)]).replace('<geom name="floor" type="hfield" hfield="terrain" pos="0.1 0 0" />', "")
    xml = xml.replace('mass="0.3" />', 'mass="0.3" /><geom name="carried" type="hfield" hfield="terrain"/>')
    path.write_text(xml)
    with pytest.raises(UnsupportedFeatureError, match=r"geom 'carried': height fields on moving bodies"):
        joltgym.load_model(path)
