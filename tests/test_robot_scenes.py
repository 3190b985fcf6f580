"""MuJoCo Playground's legged robots (issue 38): their 20 scene XMLs from the asset wheels, each one
loading, and standing or falling from its home pose and moving under an open-loop gait as MuJoCo's
does on the same XML."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from joltgym.robot_assets import locomotion_scenes

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from robot_scenes import compare, contact_agreement  # noqa: E402  (the docs' table and this test run the same comparison)

SCENES = locomotion_scenes()
# Box feet landing on a height field, where MuJoCo's one contact per prism and joltgym's corners
# (height_field.h) hold a foot's edge differently: both robots tip the same way at the same time,
# their ankles up to 0.2 rad apart through the landing.
BOX_FEET_ON_HEIGHT_FIELDS = {"g1/scene_mjx_feetonly_rough_terrain.xml", "berkeley_humanoid/scene_mjx_feetonly_rough_terrain.xml"}


def test_the_asset_wheels_hold_the_nine_robots_twenty_scenes():
    assert len(SCENES) == 20
    assert {name.split("/")[0] for name in SCENES} == {
        "go1", "g1", "spot", "h1", "t1", "berkeley_humanoid", "op3", "apollo", "barkour"}


@pytest.mark.parametrize("name", sorted(set(SCENES) - BOX_FEET_ON_HEIGHT_FIELDS))
def test_a_robot_set_down_in_its_home_pose_stands_or_falls_as_mujocos_does(name):
    run = compare(SCENES[name], 500)  # 1-2 s, against MuJoCo's converged solve (robot_scenes.py)
    theirs, ours = run["mujoco"], run["joltgym"]
    falls = theirs[-1, 2] < 0.8 * theirs[0, 2]  # Berkeley Humanoid and Apollo tip over from their home poses
    assert np.abs(ours[:, 2] - theirs[:, 2]).max() < (0.03 if falls else 0.008)  # base height, m, at every step
    assert np.abs(ours[:, 7:] - theirs[:, 7:]).max() < 0.05  # every joint, rad, through the landing
    # MuJoCo's stands still by the end (Berkeley Humanoid tips over on its home pose; G1 and T1 still sink
    # into a crouch): ours holds the same pose.
    if theirs[-1, 2] > 0.8 * theirs[0, 2] and np.ptp(theirs[-100:, 7:], axis=0).max() < 0.005:
        assert np.abs(ours[-100:, 7:] - theirs[-100:, 7:]).max() < 0.01


@pytest.mark.parametrize("name", sorted(BOX_FEET_ON_HEIGHT_FIELDS))
def test_box_feet_on_rough_terrain_land_and_tip_as_mujocos(name):
    run = compare(SCENES[name], 500)
    theirs, ours = run["mujoco"], run["joltgym"]
    landing = slice(0, 250)
    assert np.abs(ours[landing, 2] - theirs[landing, 2]).max() < 0.008
    assert np.abs(ours[landing, 7:] - theirs[landing, 7:]).max() < 0.2
    assert np.abs(ours[-1, :2] - theirs[-1, :2]).max() < 0.06  # where the base has gone after 1 s
    drift_ours, drift_theirs = ours[-1, :2] - ours[0, :2], theirs[-1, :2] - theirs[0, :2]
    assert drift_ours @ drift_theirs > 0.9 * np.linalg.norm(drift_ours) * np.linalg.norm(drift_theirs)


@pytest.mark.parametrize("name", sorted(SCENES))
def test_a_robot_driven_by_an_open_loop_gait_moves_as_mujocos_does(name):
    # The quadrupeds trot, the humanoids shuffle (robot_scenes.gait_controls); over the first half
    # (0.5-1 s), before an open-loop gait tips some of them over.
    run = compare(SCENES[name], 500, gait=True)
    theirs, ours = run["mujoco"], run["joltgym"]
    half = len(theirs) // 2
    assert np.abs(ours[:half, 2] - theirs[:half, 2]).max() < 0.008  # base height, m
    assert np.abs(ours[:half, :2] - theirs[:half, :2]).max() < 0.06  # where the base went, m
    assert np.abs(ours[:half, 7:] - theirs[:half, 7:]).max() < 0.25  # joints, rad
    assert contact_agreement({k: v[:half] for k, v in run.items() if k.endswith("contacts")}) > 0.85
    assert np.linalg.norm(theirs[half, :2] - theirs[0, :2]) > 0.01 or name.startswith("op3")  # it did move
