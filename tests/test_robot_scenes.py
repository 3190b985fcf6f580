"""MuJoCo Playground's legged robots (issue 38): their 20 scene XMLs from the asset wheels, each one
either loading and standing at its home pose as MuJoCo's does on the same XML, or refused with an
error that names what is not supported yet."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.robot_assets import locomotion_scenes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from robot_scenes import SOLVER, compare  # noqa: E402  (the docs' table and this test run the same comparison)

SCENES = locomotion_scenes()
# What each scene that does not load yet is refused for, by name.
NOT_YET = {
    "go1/scene_mjx_fullcollisions_flat_terrain.xml": r"body 'FR_calf': geoms with different condim in one body where "
                                                     r"Jolt's contacts reach it",
    "apollo/scene_mjx_feetonly_flat_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "berkeley_humanoid/scene_mjx_feetonly_rough_terrain.xml": r"geom 'l_foot1' of body 'll_faa' touches height field "
                                                              r"'floor': only spheres collide with height fields",
    "g1/scene_mjx_feetonly.xml": r"<contact><pair>: explicit contact pairs",
    "g1/scene_mjx_feetonly_flat_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "g1/scene_mjx_feetonly_rough_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "t1/scene_mjx_feetonly_flat_terrain.xml": r"body 'left_foot_link': geoms with different contype/conaffinity in one "
                                              r"body where Jolt's contacts reach it",
    "t1/scene_mjx_feetonly_rough_terrain.xml": r"body 'left_foot_link': geoms with different contype/conaffinity in one "
                                               r"body where Jolt's contacts reach it",
}


def test_the_asset_wheels_hold_the_nine_robots_twenty_scenes():
    assert len(SCENES) == 20
    assert {name.split("/")[0] for name in SCENES} == {
        "go1", "g1", "spot", "h1", "t1", "berkeley_humanoid", "op3", "apollo", "barkour"}
    assert set(NOT_YET) < set(SCENES)


@pytest.mark.parametrize("name", sorted(NOT_YET))
def test_a_scene_not_supported_yet_is_refused_by_name(name):
    with pytest.raises(joltgym.UnsupportedFeatureError, match=NOT_YET[name]):
        _native.World(joltgym.load_model(SCENES[name], solver=SOLVER).native)


@pytest.mark.parametrize("name", sorted(set(SCENES) - set(NOT_YET)))
def test_a_robot_set_down_in_its_home_pose_stands_or_falls_as_mujocos_does(name):
    run = compare(SCENES[name], 500)  # 1-2 s, against MuJoCo's converged solve (robot_scenes.py)
    theirs, ours = run["mujoco"], run["joltgym"]
    assert np.abs(ours[:, 2] - theirs[:, 2]).max() < 0.008  # base height, m, at every step
    assert np.abs(ours[:, 7:] - theirs[:, 7:]).max() < 0.05  # every joint, rad, through the landing
    if theirs[-1, 2] > 0.8 * theirs[0, 2]:  # MuJoCo's stands (Berkeley Humanoid tips over on its home pose)
        assert np.abs(ours[-100:, 7:] - theirs[-100:, 7:]).max() < 0.01  # and holds the pose as MuJoCo's
