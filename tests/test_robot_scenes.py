"""MuJoCo Playground's legged robots (issue 38): their 20 scene XMLs from the asset wheels, each one
either loading and standing at its home pose as MuJoCo's does on the same XML, or refused with an
error that names what is not supported yet."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.robot_assets import locomotion_scenes

SCENES = locomotion_scenes()
SOLVER = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                articulated_joints=True)
# What each scene that does not load yet is refused for, by name.
NOT_YET = {
    "go1/scene_mjx_feetonly_bowl.xml": r"geom 'floor': colliding hfield geoms",
    "go1/scene_mjx_feetonly_rough_terrain.xml": r"geom 'floor': colliding hfield geoms",
    "go1/scene_mjx_fullcollisions_flat_terrain.xml": r"body 'FR_calf': geoms with different condim in one body where "
                                                     r"Jolt's contacts reach it",
    "apollo/scene_mjx_feetonly_flat_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "berkeley_humanoid/scene_mjx_feetonly_rough_terrain.xml": r"geom 'floor': colliding hfield geoms",
    "g1/scene_mjx_feetonly.xml": r"<contact><pair>: explicit contact pairs",
    "g1/scene_mjx_feetonly_flat_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "g1/scene_mjx_feetonly_rough_terrain.xml": r"<contact><pair>: explicit contact pairs",
    "t1/scene_mjx_feetonly_flat_terrain.xml": r"body 'left_foot_link': geoms with different contype/conaffinity in one "
                                              r"body where Jolt's contacts reach it",
    "t1/scene_mjx_feetonly_rough_terrain.xml": r"geom 'floor': colliding hfield geoms",
    "barkour/scene_hfield_mjx.xml": r"geom 'floor': colliding hfield geoms",
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
    model = joltgym.load_model(SCENES[name], solver=SOLVER)
    m = model.mj_model
    d = mujoco.MjData(m)
    mujoco.mj_resetDataKeyframe(m, d, 0)  # every scene's first keyframe is its home pose
    ctrl = m.key_ctrl[0].astype(np.float32)
    world = _native.World(model.native)
    world.set_state(d.qpos.astype(np.float32), d.qvel.astype(np.float32))
    theirs, ours = [], []
    for _ in range(500):  # 1-2 s
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        theirs.append(d.qpos.copy())
        ours.append(world.qpos.copy())
    theirs, ours = np.array(theirs), np.array(ours)
    assert np.abs(ours[:, 2] - theirs[:, 2]).max() < 0.015  # base height, m, at every step
    assert np.abs(ours[:, 7:] - theirs[:, 7:]).max() < 0.1  # every joint, rad, through the landing
    if theirs[-1, 2] > 0.8 * theirs[0, 2]:  # MuJoCo's stands (Berkeley Humanoid tips over on its home pose)
        assert np.abs(ours[-100:, 7:] - theirs[-100:, 7:]).max() < 0.02  # and holds the pose as MuJoCo's
