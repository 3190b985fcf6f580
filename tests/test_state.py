"""Exact state save and restore (get_state / set_state) of JoltVectorEnv and the single env: for
every task, a state restored into other envs, another pool (other packing and thread count), after
pickling, in another process, or across env kinds steps on bit for bit as the env it was saved
from, through autoresets; errors that name what is wrong."""

from __future__ import annotations

import multiprocessing
import pickle

import gymnasium as gym
import numpy as np
import pytest

import joltgym  # noqa: F401
from joltgym.model import _ReferenceSolverSettings
from joltgym.tasks import TASKS, task_spec
from joltgym.vector import JoltVectorEnv
from observations import flat

N = 4
EPISODE = 25  # short episodes, so that a continuation crosses an autoreset


def make_pool(task: str, **kwargs) -> JoltVectorEnv:
    randomize = "playground" if "playground" in TASKS[task].randomizations else None
    return JoltVectorEnv(N, task=task, max_episode_steps=EPISODE, randomize=randomize, **kwargs)


def action_table(env, steps: int, seed: int) -> np.ndarray:
    space = env.single_action_space
    return np.random.default_rng(seed).uniform(space.low, space.high, (steps, N, space.shape[0])).astype(np.float32)


def record(env: JoltVectorEnv, actions: np.ndarray) -> list[tuple]:
    """Per step: observations, rewards, terminated, truncated of every env."""
    out = []
    for a in actions:
        obs, rewards, terminated, truncated, _ = env.step(a)
        out.append((flat(obs), rewards.copy(), terminated.copy(), truncated.copy()))
    return out


def save_midway(env: JoltVectorEnv, seed: int, before: int, after: int, table_seeds: tuple[int, int]):
    """Resets env with `seed`, steps it `before` steps, saves every env, then steps `after` more:
    (the states, those later actions, what they gave)."""
    env.reset(seed=seed)
    record(env, action_table(env, before, seed=table_seeds[0]))
    states = env.get_state()
    later = action_table(env, after, seed=table_seeds[1])
    return states, later, record(env, later)


def assert_rows_equal(reference: list[tuple], rows_of_reference: list[int], other: list[tuple], what: str) -> None:
    """Env i of `other` against env rows_of_reference[i] of `reference`, every step and output."""
    for t, (mine, theirs) in enumerate(zip(reference, other)):
        for i, r in enumerate(rows_of_reference):
            for name, a, b in zip(("obs", "reward", "terminated", "truncated"), mine, theirs):
                np.testing.assert_array_equal(a[r], b[i], err_msg=f"{what}: env {i} (saved from env {r}), step {t}, {name}")


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_steps_on_bit_for_bit_from_a_restored_state(task):
    original = make_pool(task, num_threads=1)
    # Saved at step 17, continued over steps 17-37: every env autoresets at 25.
    states, later, reference = save_midway(original, 3, 17, 20, (1, 2))
    states = pickle.loads(pickle.dumps(states))
    assert all(isinstance(s, bytes) for s in states)
    original.close()

    # Another pool, two threads and its own packing, mid-episode elsewhere; each env takes
    # another env's state (and its actions).
    other = make_pool(task, num_threads=2)
    other.reset(seed=11)
    record(other, action_table(other, 5, seed=9))
    perm = [2, 0, 3, 2]  # env 3 takes env 2's state too
    other.set_state([states[r] for r in perm])
    assert_rows_equal(reference, perm, record(other, later[:, perm]), task)
    other.close()


@pytest.mark.parametrize("robots_per_world", [1, 2, 4])
def test_any_packing_restores_the_same_continuation(robots_per_world):
    states, later, reference = save_midway(make_pool("Ant", num_threads=1, robots_per_world=1), 0, 10, 30, (1, 2))
    packed = make_pool("Ant", num_threads=2, robots_per_world=robots_per_world)
    packed.reset(seed=1)
    packed.set_state(states[::-1])
    assert_rows_equal(reference, [3, 2, 1, 0], record(packed, later[:, ::-1]), f"{robots_per_world} robots per world")


def test_restoring_in_place_repeats_the_same_steps():
    # The search pattern: save, try a continuation, go back, try it again.
    env = make_pool("Go1JoystickRoughTerrain", num_threads=2)
    saved, later, first = save_midway(env, 4, 8, 12, (0, 5))
    env.set_state(saved)
    assert_rows_equal(first, list(range(N)), record(env, later), "again")


def test_one_env_by_integer_id_and_the_others_untouched():
    env = make_pool("Hopper", num_threads=1)
    env.reset(seed=0)
    record(env, action_table(env, 6, seed=0))
    one = env.get_state(1)
    assert isinstance(one, bytes) and one == env.get_state([1])[0]
    before = env.get_state()
    env.set_state(one, 3)
    after = env.get_state()
    assert after[:3] == before[:3] and after[3] == before[1]


def test_async_envs_restore_and_return_the_same_continuation():
    states, later, reference = save_midway(make_pool("Humanoid", num_threads=1), 0, 12, 20, (0, 1))
    env = make_pool("Humanoid", num_threads=2, batch_size=2)
    env.reset(seed=3)
    env.set_state(states)
    env.send(later[0], np.arange(N))
    counts = np.ones(N, int)
    got: list[list] = [[] for _ in range(N)]
    while min(len(g) for g in got) < len(later):
        obs, rewards, terminated, truncated, infos = env.recv()
        for k, i in enumerate(infos["env_id"]):
            got[i].append((flat(obs)[k], rewards[k], terminated[k], truncated[k]))
        ids = infos["env_id"]
        env.send(later[np.minimum(counts[ids], len(later) - 1), ids], ids)
        counts[ids] += 1
    for i in range(N):
        for t in range(len(later)):
            np.testing.assert_array_equal(reference[t][0][i], got[i][t][0], err_msg=f"env {i}, step {t}")
            assert (reference[t][1][i], reference[t][2][i], reference[t][3][i]) == got[i][t][1:]


def _continue_in_another_process(task, state, actions):
    env = JoltVectorEnv(1, task=task, max_episode_steps=EPISODE)
    env.reset(seed=99)
    env.set_state([state])
    return [(flat(o)[0], r[0]) for o, r, *_ in (env.step(a[:1]) for a in actions)]


@pytest.mark.parametrize("task", ["Humanoid", "Go1JoystickFlatTerrain"])
def test_a_pickled_state_steps_on_identically_in_another_process(task):
    env = JoltVectorEnv(N, task=task, max_episode_steps=EPISODE)
    env.reset(seed=2)
    record(env, action_table(env, 9, seed=3))
    state = env.get_state(2)
    later = action_table(env, 10, seed=4)
    reference = record(env, later)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        theirs = pool.apply(_continue_in_another_process, (task, state, later[:, [2]]))
    for t, (obs, reward) in enumerate(theirs):
        np.testing.assert_array_equal(reference[t][0][2], obs, err_msg=f"step {t}")
        assert reference[t][1][2] == reward


@pytest.mark.parametrize("task", sorted(TASKS))
def test_the_single_env_restores_its_own_states_and_a_vector_envs(task):
    randomize = "playground" if "playground" in TASKS[task].randomizations else None
    env = gym.make(f"joltgym/{task}-v0", randomize=randomize).unwrapped
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    space = env.action_space
    for _ in range(7):
        env.step(rng.uniform(space.low, space.high).astype(np.float32))
    state = env.get_state()
    later = rng.uniform(space.low, space.high, (12, space.shape[0])).astype(np.float32)
    reference = [env.step(a)[:4] for a in later]
    elapsed = env.elapsed_steps

    twin = gym.make(f"joltgym/{task}-v0", randomize=randomize).unwrapped
    twin.reset(seed=8)
    twin.set_state(pickle.loads(pickle.dumps(state)))
    assert twin.elapsed_steps == 7
    for t, (a, ref) in enumerate(zip(later, reference)):
        got = twin.step(a)[:4]
        np.testing.assert_array_equal(flat(ref[0]), flat(got[0]), err_msg=f"step {t}")
        assert ref[1:] == got[1:], f"step {t}"
    assert twin.elapsed_steps == elapsed

    # The same bytes restore into a vector env's env, and a vector env's into the single env.
    vector = JoltVectorEnv(2, task=task, randomize=randomize)
    vector.reset(seed=0)
    vector.set_state(state, 1)
    back = vector.get_state(1)
    obs, rewards, *_ = vector.step(np.stack([later[0], later[0]]))
    np.testing.assert_array_equal(flat(reference[0][0]), flat(obs)[1])
    assert rewards[1] == reference[0][1]
    twin.set_state(back)
    np.testing.assert_array_equal(flat(twin.step(later[0])[0]), flat(reference[0][0]))


def test_a_restored_single_env_starts_the_same_next_episodes():
    env = gym.make("joltgym/Hopper-v0")
    env.reset(seed=1)
    saved = env.unwrapped.get_state()
    first = [env.reset()[0] for _ in range(3)]
    env.unwrapped.set_state(saved)
    np.testing.assert_array_equal(np.array(first), np.array([env.reset()[0] for _ in range(3)]))


def test_time_limit_counter_follows_with_set_wrapper_attr():
    env = gym.make("joltgym/InvertedPendulum-v0", max_episode_steps=10)
    env.reset(seed=0)
    for _ in range(4):
        env.step(np.zeros(1, np.float32))
    saved = env.unwrapped.get_state()
    env.reset(seed=1)
    env.unwrapped.set_state(saved)
    env.set_wrapper_attr("_elapsed_steps", env.unwrapped.elapsed_steps)
    truncated = [env.step(np.zeros(1, np.float32))[3] for _ in range(6)]
    assert truncated == [False] * 5 + [True]


def test_misuse_raises_errors_that_name_it():
    env = make_pool("Hopper", num_threads=1, batch_size=2)
    env.reset(seed=0)
    state = env.get_state(0)
    cheetah = JoltVectorEnv(1, task="HalfCheetah")
    cheetah.reset(seed=0)
    with pytest.raises(ValueError, match="joltgym_hopper.*not of this env's.*joltgym_half_cheetah"):
        cheetah.set_state(state, 0)
    with pytest.raises(ValueError, match="damaged or cut short"):
        env.set_state(state[:-10], 0)
    damaged = bytearray(state)
    damaged[len(damaged) // 2] ^= 0xFF
    with pytest.raises(ValueError, match="damaged"):
        env.set_state(bytes(damaged), 0)
    with pytest.raises(ValueError, match="not a joltgym env state"):
        env.set_state(b"hello world, no state", 0)
    with pytest.raises(TypeError, match="must be bytes"):
        env.set_state([1.5], [0])
    with pytest.raises(TypeError, match="a list of states"):
        env.set_state(state, [0])
    with pytest.raises(ValueError, match="1 state.*for 2 env id"):
        env.set_state([state], [0, 1])
    with pytest.raises(ValueError, match="out of range"):
        env.get_state([4])
    with pytest.raises(ValueError, match="given twice to set_state"):
        env.set_state([state, state], [1, 1])
    env.send(np.zeros((2, 3), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"env\(s\) 0, 1 .*recv\(\) has not returned.*get_state\(\)"):
        env.get_state()
    with pytest.raises(ValueError, match="set_state"):
        env.set_state(state, 1)
    env.recv()
    env.set_state(state, 1)  # fine once received

    single = gym.make("joltgym/Hopper-v0").unwrapped
    with pytest.raises(gym.error.ResetNeeded):
        single.get_state()
    with pytest.raises(TypeError, match="bytes, or qpos and qvel"):
        single.set_state(np.zeros(6))
    with pytest.raises(ValueError, match="not of this env's"):
        single.set_state(cheetah.get_state(0))
    cheetah.close()
    env.close()
    with pytest.raises(gym.error.ClosedEnvironmentError):
        env.get_state()


@pytest.mark.parametrize("task", ["Ant", "HalfCheetah"])
def test_worlds_with_jolts_own_contacts_restore_them_too(task):
    # Hard contacts live in Jolt's contact cache, whose warm starts the next update uses: such a
    # robot's state is its whole world's.
    hard = _ReferenceSolverSettings.of(task_spec(task).solver, soft_contacts=False)
    original = JoltVectorEnv(2, task=task, solver=hard, max_episode_steps=EPISODE)
    assert original.robots_per_world == 1
    original.reset(seed=0)
    record2 = lambda env, table: [tuple(np.array(x) for x in env.step(a)[:4]) for a in table]  # noqa: E731
    space = original.single_action_space
    table = np.random.default_rng(0).uniform(space.low, space.high, (40, 2, space.shape[0])).astype(np.float32)
    record2(original, table[:15])  # standing on its feet: in contact with the floor
    states = original.get_state()
    reference = record2(original, table[15:])
    other = JoltVectorEnv(2, task=task, solver=hard, max_episode_steps=EPISODE, num_threads=2)
    other.reset(seed=1)
    other.set_state(states[::-1])
    for t, (mine, theirs) in enumerate(zip(reference, record2(other, table[15:, ::-1]))):
        for a, b in zip(mine, theirs):
            np.testing.assert_array_equal(a[::-1], b, err_msg=f"step {t}")
