"""Envs packed into shared Jolt worlds (robots_per_world): several envs' robots in one world,
never touching, so that one physics update advances them all. Packing is an implementation
detail: results must be bit-identical for any packing and thread count, resets and both
autoreset modes included, and a packed env renders as if alone."""

from __future__ import annotations


import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import joltgym
from joltgym.model import _ReferenceSolverSettings
from joltgym import _native
from joltgym.tasks import TASKS, task_spec
from joltgym.vector import JoltVectorEnv
from observations import flat, row

NUM_ENVS = 7
# Short episodes: every env resets several times, at different steps in different worlds.
EPISODE = 23


def can_share_world(task: str) -> bool:
    return JoltVectorEnv(2, task=task, num_threads=1).robots_per_world == 2


def trajectory(task: str, robots_per_world: int, threads: int, mode: AutoresetMode) -> list[np.ndarray]:
    venv = JoltVectorEnv(NUM_ENVS, task=task, num_threads=threads, robots_per_world=robots_per_world,
                         max_episode_steps=EPISODE, autoreset_mode=mode)
    assert venv.robots_per_world == robots_per_world
    obs, _ = venv.reset(seed=11)
    out = [flat(obs)]
    rng = np.random.default_rng(4)
    for _ in range(80):
        action = rng.uniform(venv.action_space.low, venv.action_space.high).astype(np.float32)
        obs, reward, terminated, truncated, info = venv.step(action)
        out += [flat(obs), reward.copy(), terminated.copy(), truncated.copy()]
        if mode == AutoresetMode.SAME_STEP and "final_obs" in info:
            out.append(np.stack([flat(o) if o is not None else np.zeros_like(flat(row(obs, 0))) for o in info["final_obs"]]))
    venv.close()
    return out


SHARING = [t for t in sorted(TASKS) if can_share_world(t)]


def test_the_tasks_whose_robots_touch_nothing_through_jolt_share_worlds():
    # Soft floor rows, and self-collisions (Hopper-v5 and the Humanoids: contype 1, conaffinity 1)
    # as joltgym's own soft contacts within each tree (test_self_contacts.py): every task.
    assert set(SHARING) == set(TASKS)


# Every task under next-step autoreset; same-step autoreset is the pool's own bookkeeping, alike for every
# task: a task of each kind stands for the rest (a contact-rich Gymnasium robot, the heaviest Gymnasium and
# Playground robots, a Control Suite task with touch sensors).
SAME_STEP_TASKS = ["Ant", "Humanoid", "Go1JoystickFlatTerrain", "G1JoystickFlatTerrain", "FingerSpin"]


@pytest.mark.parametrize("mode, task", [*((AutoresetMode.NEXT_STEP, task) for task in SHARING),
                                        *((AutoresetMode.SAME_STEP, task) for task in SAME_STEP_TASKS)])
def test_results_do_not_depend_on_the_packing_or_the_thread_count(mode, task):
    alone = trajectory(task, 1, 1, mode)
    # (1, 2): seven worlds on two threads, each thread's own share first and then the other's remains
    for robots_per_world, threads in ((3, 1), (4, 2), (1, 2), (NUM_ENVS, 1)):
        packed = trajectory(task, robots_per_world, threads, mode)
        assert len(packed) == len(alone)
        for a, b in zip(alone, packed):
            np.testing.assert_array_equal(a, b, err_msg=f"{task}: {robots_per_world} robots per world")


def test_the_pool_packs_by_itself_where_it_can_and_keeps_every_thread_busy():
    # About 96 bodies to a world (src/pool/packing.h): HalfCheetah's 7 bodies 13 to a world,
    # Hopper's 4 24, Reacher's 3 32, Humanoid's 11 8.
    assert JoltVectorEnv(256, task="HalfCheetah", num_threads=1).robots_per_world == 13
    assert JoltVectorEnv(256, task="HalfCheetah", num_threads=2).robots_per_world == 13
    assert JoltVectorEnv(256, task="Reacher", num_threads=2).robots_per_world == 32
    assert JoltVectorEnv(256, task="Humanoid", num_threads=2).robots_per_world == 8
    assert JoltVectorEnv(6, task="HalfCheetah", num_threads=2).robots_per_world == 3  # two worlds, two threads
    assert JoltVectorEnv(1, task="Ant").robots_per_world == 1
    assert JoltVectorEnv(64, task="Hopper", num_threads=1).robots_per_world == 22  # 24 at most, three worlds evened
    hard = _ReferenceSolverSettings.of(task_spec("Hopper").solver, soft_contacts=False)
    assert JoltVectorEnv(64, task="Hopper", num_threads=1, solver=hard).robots_per_world == 1
    # Asking for more robots than envs packs them all.
    assert JoltVectorEnv(5, task="Walker2d", robots_per_world=16).robots_per_world == 5


@pytest.mark.parametrize("task", ["Reacher", "InvertedPendulum", "Hopper", "HalfCheetah", "Ant", "Humanoid"])
@pytest.mark.parametrize("num_envs, threads", [(256, 2), (256, 1), (100, 2), (37, 3), (1000, 4)])
def test_the_worlds_are_filled_evenly_and_every_thread_gets_as_many(task, num_envs, threads):
    """A world with fewer robots than its peers finishes early and leaves its thread idle while the
    others step: 256 InvertedPendulums 48 to a world would be five of 48 and one of 16."""
    env = JoltVectorEnv(num_envs, task=task, num_threads=threads)
    sizes = env._pool.world_sizes
    assert sum(sizes) == num_envs and max(sizes) - min(sizes) <= 1 and max(sizes) == env.robots_per_world
    assert len(sizes) % threads == 0, sizes
    env.close()


def test_a_requested_size_is_the_most_to_a_world_and_filled_evenly():
    env = JoltVectorEnv(10, task="Hopper", num_threads=1, robots_per_world=4)
    assert env._pool.world_sizes == [4, 3, 3] and env.robots_per_world == 4
    env.close()


def test_the_bare_loop_packs_into_the_worlds_it_is_given_and_names_a_bad_count():
    spec = task_spec("Hopper")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    assert _native.BareLoop(model.native, spec.make_task(model), 10, worlds=3).num_worlds == 3
    assert _native.BareLoop(model.native, spec.make_task(model), 256).num_worlds == 11  # a one-thread pool's: 24 at most
    for bad in (-1, 11):
        with pytest.raises(ValueError, match=f"worlds must be in \\[0, num_envs\\].*got {bad}"):
            _native.BareLoop(model.native, spec.make_task(model), 10, worlds=bad)


def test_robots_that_touch_through_jolt_cannot_be_packed_and_bad_values_are_named():
    # Jolt's hard contacts, floor and self-collisions alike
    hard = _ReferenceSolverSettings.of(task_spec("Hopper").solver, soft_contacts=False)
    with pytest.raises(ValueError, match="hopper.*touch bodies through Jolt"):
        JoltVectorEnv(4, task="Hopper", robots_per_world=2, solver=hard)
    for bad in (0, -1, 2.5, True, "8"):
        with pytest.raises(ValueError, match="robots_per_world"):
            JoltVectorEnv(4, task="HalfCheetah", robots_per_world=bad)


def test_a_packed_env_renders_as_if_alone_in_its_world():
    frames = {}
    for robots_per_world in (1, 4):
        venv = JoltVectorEnv(4, task="Ant", robots_per_world=robots_per_world, render_mode="rgb_array",
                             width=96, height=72)
        venv.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(5):
            venv.step(rng.uniform(-1, 1, venv.action_space.shape).astype(np.float32))
        frames[robots_per_world] = venv.render()
        venv.close()
    for alone, packed in zip(frames[1], frames[4]):
        np.testing.assert_array_equal(alone, packed)
    assert not np.array_equal(frames[4][0], frames[4][1])  # each env draws its own robot


def test_one_robot_of_a_world_is_restored_while_the_others_keep_their_state():
    spec = task_spec("HalfCheetah")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver).native
    world = _native.World([model, model], contacts="none")
    start = world.robots[0].qpos.copy()
    world.step([np.full(6, 0.5, np.float32), np.full(6, -0.5, np.float32)], 20)
    moved = world.robots[1].qpos.copy()
    world.restore_robot_initial_state(0)
    np.testing.assert_array_equal(world.robots[0].qpos, start)
    np.testing.assert_array_equal(world.robots[1].qpos, moved)
    # Robots that touch each other through Jolt share contacts in its cache: only whole worlds restore.
    ant = joltgym.load_model(task_spec("Ant").xml_file).native
    touching = _native.World([ant, ant], origins=[(0, 0, 0), (0, 0, 0.9)], contacts="always")
    with pytest.raises(RuntimeError, match="robot 1 touches bodies through Jolt"):
        touching.restore_robot_initial_state(1)
    with pytest.raises(IndexError, match="robot 2 out of range"):
        world.restore_robot_initial_state(2)

