"""A world of several robots: they touch each other or not as the collision rule says, each
keeps its state in its own model's layout, and a robot's views do not depend on its origin."""

from __future__ import annotations


import numpy as np
import pytest

import joltgym
from joltgym.model import _ReferenceSolverSettings
from joltgym import _native
from joltgym.tasks import task_spec

GRAVITY = 9.81


def native_model(task: str):
    # Hard joint limits: a robot's resting height then does not depend on how hard it landed or
    # what it carries (soft limits give under load, as MuJoCo's do), and these tests of collision
    # rules compare resting heights.
    spec = task_spec(task)
    return joltgym.load_model(spec.xml_file, solver=_ReferenceSolverSettings.of(spec.solver, soft_limits=False))


def drop_ant_on_ant(contacts: str, steps: int = 150):
    """Ant 1 starts 0.9 m above ant 0 and both are left alone (zero controls)."""
    ant = native_model("Ant").native
    world = _native.World([ant, ant], origins=[(0, 0, 0), (0, 0, 0.9)], contacts=contacts)
    world.step([np.zeros(8), np.zeros(8)], steps)
    return world


def test_robots_that_may_touch_stack_and_carry_each_others_weight():
    world = drop_ant_on_ant("always", steps=200)
    lower, upper = world.robots
    # Torso heights above the floor: the upper ant rests on the lower one, not on the floor.
    lower_z = lower.qpos[2]
    upper_z = upper.qpos[2] + 0.9  # qpos is relative to the robot's origin
    assert upper_z > lower_z + 0.25, (lower_z, upper_z)
    mass = native_model("Ant").mj_model.body_mass.sum()
    # At rest the contacts on each robot carry its weight: the upper ant's all come from the
    # lower ant, the lower ant's from the floor (both ants' weight) and from the upper ant.
    upper_force = lower_force = 0.0
    for _ in range(50):  # averaged over 0.5 s of rest
        world.step([np.zeros(8), np.zeros(8)])
        upper_force += upper.contact_forces()[:, 5].sum() / 50
        lower_force += lower.contact_forces()[:, 5].sum() / 50
    assert upper_force == pytest.approx(mass * GRAVITY, rel=0.05)
    assert lower_force == pytest.approx(mass * GRAVITY, rel=0.05)


def test_robots_that_never_touch_pass_through_each_other():
    for contacts in ("none", "bitmasks"):  # Ant's geoms: contype 1, conaffinity 0, as Gymnasium's
        world = drop_ant_on_ant(contacts, steps=300)
        lower, upper = world.robots
        alone = _native.World(native_model("Ant").native)
        alone.step(np.zeros(8), 300)
        np.testing.assert_allclose(lower.qpos, alone.qpos, atol=1e-4)
        # Fell to the floor: an ant landing from 0.9 m rests a few cm from where one set down does
        # (its legs splay), an ant on another one 0.4 m higher or more.
        assert upper.qpos[2] + 0.9 == pytest.approx(alone.qpos[2], abs=0.1)


def test_collision_rule_per_pair():
    ant = native_model("Ant").native
    stacked = [(0, 0, 0), (0, 0, 0.9), (0, 0, 1.8)]
    table = [["always", "always", "none"], ["always", "always", "none"], ["none", "none", "always"]]
    world = _native.World([ant, ant, ant], origins=stacked, contacts=table)
    world.step([np.zeros(8)] * 3, 150)
    heights = [r.qpos[2] + origin[2] for r, origin in zip(world.robots, stacked)]
    assert heights[1] > heights[0] + 0.25  # 1 rests on 0
    # 2 passes through both, down to the floor: an ant standing there has its torso at ~0.5-0.6 m,
    # one resting on ant 0 at 0.9 m or more, on ant 1 at 1.2 m or more.
    assert heights[2] < 0.75


def test_views_are_relative_to_the_robot_origin():
    hopper = native_model("Hopper").native
    origins = [(0, 0, 0), (3.0, 2.0, 0.0)]
    world = _native.World([hopper, hopper], origins=origins, contacts="none")
    controls = np.random.default_rng(0).uniform(-1, 1, (30, 3)).astype(np.float32)
    for action in controls:
        world.step([action, action], 4)
    here, there = world.robots
    assert there.origin == (3.0, 2.0, 0.0)
    # The same motion, up to float rounding of the larger world coordinates.
    np.testing.assert_allclose(there.qpos, here.qpos, atol=1e-3)
    np.testing.assert_allclose(there.qvel, here.qvel, atol=1e-2)
    np.testing.assert_allclose(there.body_com(), here.body_com(), atol=1e-3)
    np.testing.assert_allclose(there.site_pos(), here.site_pos(), atol=1e-3)


def test_different_models_in_one_world_keep_their_own_layouts():
    ant, cheetah = native_model("Ant").native, native_model("HalfCheetah").native
    world = _native.World([ant, cheetah], origins=[(0, 0, 0), (0, 5, 0)])
    world.step([np.zeros(8), np.zeros(6)], 10)
    a, c = world.robots
    assert a.qpos.shape == (15,) and a.qvel.shape == (14,) and a.contact_forces().shape == (14, 6)
    assert c.qpos.shape == (9,) and c.qvel.shape == (9,) and c.contact_forces().shape == (8, 6)
    with pytest.raises(ValueError, match=r"ctrl\[1\] has shape"):
        world.step([np.zeros(8), np.zeros(8)])


def test_bad_world_arguments():
    ant, humanoid = native_model("Ant").native, native_model("Humanoid").native
    with pytest.raises(ValueError, match="one origin per model"):
        _native.World([ant, ant], origins=[(0, 0, 0)])
    with pytest.raises(ValueError, match="'bitmasks', 'always' or 'none'"):
        _native.World([ant, ant], contacts="sometimes")
    with pytest.raises(ValueError, match="symmetric"):
        _native.World([ant, ant], contacts=[["always", "none"], ["always", "always"]])
    with pytest.raises(ValueError, match="one timestep"):
        _native.World([ant, humanoid])
    with pytest.raises(ValueError, match="one control array per robot"):
        _native.World([ant, ant]).step([np.zeros(8)])


def test_only_bodies_that_may_touch_something_through_jolt_enter_the_broad_phase():
    # Soft floor contacts are our own rows and these robots never self-collide (v5's contype 1,
    # conaffinity 0): Jolt's pair search would only find pairs for the group filter to reject.
    # Hopper-v5's and Humanoid-v5's links do collide with each other, as our own soft rows too.
    for task in ("HalfCheetah", "Walker2d", "Ant", "Reacher", "Hopper", "Humanoid"):
        assert not any(_native.World(native_model(task).native).robots[0].colliding_bodies), task
    # With Jolt's hard contacts they are Jolt's: every body of a self-colliding robot enters.
    for task in ("Hopper", "Humanoid"):
        hard = _ReferenceSolverSettings.of(task_spec(task).solver, soft_contacts=False)
        model = joltgym.load_model(task_spec(task).xml_file, solver=hard)
        assert all(_native.World(model.native).robots[0].colliding_bodies), task
    # Two Ants that may touch: every body looks for the other ant's.
    assert all(all(r.colliding_bodies) for r in drop_ant_on_ant("always", steps=1).robots)
    assert not any(any(r.colliding_bodies) for r in drop_ant_on_ant("none", steps=1).robots)
