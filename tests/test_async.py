"""JoltVectorEnv's asynchronous mode (EnvPool's send/recv, Gymnasium's step_async/step_wait):
per-env determinism whatever order envs come back in, batches of whole worlds, resets through
recv, autoreset modes, background stepping, and errors that name the misuse."""

from __future__ import annotations

import pickle
import threading
import time

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from joltgym.tasks import TASKS
from joltgym.vector import JoltVectorEnv
from observations import flat


def action_table(env: JoltVectorEnv, steps: int, seed: int = 1) -> np.ndarray:
    """[env, step, act_dim]: env i's action at its step t, over the task's whole action range."""
    space = env.single_action_space
    rng = np.random.default_rng(seed)
    return rng.uniform(space.low, space.high, (env.num_envs, steps, space.shape[0])).astype(np.float32)


def episodes_by_env(env: JoltVectorEnv, table: np.ndarray, seed: int = 7, asynchronous: bool = True) -> list[list]:
    """Each env's observations, rewards and flags for table.shape[1] of its own steps, stepped
    synchronously or through send/recv in whatever order the pool returns envs."""
    n, steps = table.shape[:2]
    records: list[list] = [[] for _ in range(n)]
    counts = np.zeros(n, int)
    if asynchronous:
        env.async_reset(seed=seed)
        obs, rewards, terminated, truncated, infos = env.recv()
    else:
        obs, infos = env.reset(seed=seed)
        rewards, terminated, truncated = np.zeros(n), np.zeros(n, bool), np.zeros(n, bool)
    ids = infos["env_id"] if asynchronous else np.arange(n)
    while True:
        for k, i in enumerate(ids):
            records[i].append((flat(obs)[k], rewards[k], terminated[k], truncated[k]))
        if all(len(r) > steps for r in records):
            return records
        if asynchronous:
            env.send(table[ids, np.minimum(counts[ids], steps - 1)], ids)  # envs past the table keep stepping
            counts[ids] += 1
            obs, rewards, terminated, truncated, infos = env.recv()
            ids = infos["env_id"]
        else:
            obs, rewards, terminated, truncated, infos = env.step(table[:, counts[0]])
            counts += 1


def assert_same_episodes(reference: list[list], other: list[list], steps: int) -> None:
    for i, (mine, theirs) in enumerate(zip(reference, other)):
        for t in range(steps + 1):
            a, b = mine[t], theirs[t]
            np.testing.assert_array_equal(a[0], b[0], err_msg=f"env {i}, step {t}")
            assert a[1:] == b[1:], f"env {i}, step {t}"


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_runs_each_envs_episodes_whatever_order_envs_come_back_in(task):
    # Through autoresets (25-step episodes): synchronous steps on one thread against send/recv
    # with half and a quarter of the envs per batch, on two threads.
    steps = 40
    runs = []
    for batch_size, threads in ((8, 1), (4, 2), (2, 2), (8, 2)):
        env = JoltVectorEnv(8, task=task, batch_size=batch_size, num_threads=threads, max_episode_steps=25)
        table = action_table(env, steps)
        runs.append(episodes_by_env(env, table, asynchronous=bool(runs)))
        env.close()
    for other in runs[1:]:
        assert_same_episodes(runs[0], other, steps)


@pytest.mark.parametrize("robots_per_world", [1, 2, 4])
def test_any_packing_gives_the_same_async_episodes(robots_per_world):
    steps = 30
    runs = []
    for rpw in (None, robots_per_world):
        env = JoltVectorEnv(8, task="Ant", batch_size=4, num_threads=2, robots_per_world=rpw, max_episode_steps=20)
        runs.append(episodes_by_env(env, action_table(env, steps)))
        env.close()
    assert_same_episodes(runs[0], runs[1], steps)


def test_batches_are_whole_worlds_and_carry_env_ids():
    env = JoltVectorEnv(12, task="HalfCheetah", batch_size=4, num_threads=2)
    assert all(4 % size == 0 for size in env.world_sizes) and sum(env.world_sizes) == 12
    obs, info = env.reset(seed=0)
    assert obs.shape == (12, 17)
    np.testing.assert_array_equal(info["env_id"], np.arange(12))
    seen = []
    obs, rewards, terminated, truncated, info = env.step(np.zeros((12, 6), np.float32))  # all sent, 4 back
    for _ in range(6):
        assert obs.shape == (4, 17) and rewards.shape == (4,) and rewards.dtype == np.float64
        assert info["x_position"].shape == (4,) and info["_env_id"].all()
        ids = info["env_id"]
        assert len(set(ids.tolist())) == 4
        starts = np.cumsum([0] + env.world_sizes)
        for first, last in zip(starts[:-1], starts[1:]):  # every world wholly in the batch or wholly out
            assert np.isin(np.arange(first, last), ids).all() or not np.isin(np.arange(first, last), ids).any()
        seen.append(ids.copy())
        obs, rewards, terminated, truncated, info = env.step(np.zeros((4, 6), np.float32), ids)
    assert set(np.concatenate(seen).tolist()) == set(range(12))
    env.close()


def test_async_reset_gives_the_observations_reset_does():
    env = JoltVectorEnv(6, task="Hopper", batch_size=3)
    obs, _ = env.reset(seed=11)
    env.async_reset(seed=11)
    got = {}
    for _ in range(2):
        o, rewards, terminated, truncated, info = env.recv()
        assert (rewards == 0).all() and not terminated.any() and not truncated.any()
        assert "reward_healthy" not in info  # reset rows hold the reset keys only
        for k, i in enumerate(info["env_id"]):
            got[int(i)] = o[k]
    np.testing.assert_array_equal(np.stack([got[i] for i in range(6)]), obs)
    env.close()


def test_gymnasium_step_async_and_step_wait_equal_step():
    actions = np.random.default_rng(0).uniform(-1, 1, (20, 4, 6)).astype(np.float32)
    a, b = JoltVectorEnv(4), JoltVectorEnv(4)
    a.reset(seed=3), b.reset(seed=3)
    for step in actions:
        expected = a.step(step)
        b.step_async(step)
        got = b.step_wait()
        np.testing.assert_array_equal(expected[0], got[0])
        np.testing.assert_array_equal(expected[1], got[1])
        np.testing.assert_array_equal(got[4]["env_id"], np.arange(4))


def test_workers_step_while_python_runs():
    env = JoltVectorEnv(8, task="Humanoid", batch_size=4, num_threads=1)
    env.reset(seed=0)
    env.send(np.zeros((8, 17), np.float32))
    deadline = time.monotonic() + 60
    while env.ready < 8 and time.monotonic() < deadline:  # no recv: only the pool's own threads step
        time.sleep(0.001)
    assert env.ready == 8 and env.in_flight == 8
    env.recv(), env.recv()
    assert env.in_flight == 0
    env.close()


def test_recv_releases_the_gil():
    env = JoltVectorEnv(16, task="Humanoid", batch_size=16, num_threads=1)
    env.reset(seed=0)
    ticks = []
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks.append(1)
            time.sleep(0)

    thread = threading.Thread(target=count)
    thread.start()
    counted_during_recv = 0
    for _ in range(20):
        env.send(np.zeros((16, 17), np.float32))
        before = len(ticks)
        env.recv()  # holding the GIL through its wait, the counting thread could not count
        counted_during_recv += len(ticks) - before
    stop.set()
    thread.join()
    assert counted_during_recv > 0


def test_same_step_autoreset_reports_final_observations_of_its_batch():
    env = JoltVectorEnv(4, task="HalfCheetah", batch_size=2, max_episode_steps=3,
                        autoreset_mode=AutoresetMode.SAME_STEP)
    env.reset(seed=0)
    ids = np.arange(4)
    ended = set()
    for _ in range(8):
        obs, rewards, terminated, truncated, info = env.step(np.zeros((len(ids), 6), np.float32), ids)
        ids = info["env_id"]
        if truncated.any():
            assert info["_final_obs"].tolist() == truncated.tolist()
            for k in np.flatnonzero(truncated):
                assert info["final_obs"][k].shape == (17,)
                assert not np.array_equal(info["final_obs"][k], obs[k])
                ended.add(int(ids[k]))
    assert ended == {0, 1, 2, 3}


def test_disabled_autoreset_refuses_to_send_to_an_ended_env():
    env = JoltVectorEnv(2, task="HalfCheetah", batch_size=1, max_episode_steps=1,
                        autoreset_mode=AutoresetMode.DISABLED, robots_per_world=1)
    env.reset(seed=0)
    env.send(np.zeros((2, 6), np.float32))
    _, _, _, truncated, info = env.recv()
    assert truncated.all()
    with pytest.raises(ValueError, match=rf"env\(s\) {info['env_id'][0]} ended their episode"):
        env.send(np.zeros((1, 6), np.float32))


def test_misuse_raises_errors_that_name_it():
    env = JoltVectorEnv(4, task="HalfCheetah", batch_size=2, robots_per_world=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"recv\(\) waits for 2 envs, but only 0 are stepping"):
        env.recv()
    with pytest.raises(ValueError, match=r"out of range \[0, 4\)"):
        env.send(np.zeros((1, 6), np.float32), [4])
    with pytest.raises(ValueError, match="sent twice"):
        env.send(np.zeros((2, 6), np.float32), [1, 1])
    with pytest.raises(ValueError, match=r"actions has shape \(3, 6\), expected \(2, 6\)"):
        env.send(np.zeros((3, 6), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"NaN, inf .* env\(s\) 1"):
        env.send(np.array([[0] * 6, [np.nan] * 6], np.float32), [0, 1])
    with pytest.raises(ValueError, match="integer env ids"):
        env.send(np.zeros((1, 6), np.float32), [0.5])
    env.send(np.zeros((2, 6), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"env\(s\) 1 were sent actions that recv\(\) has not returned"):
        env.send(np.zeros((1, 6), np.float32), [1])
    env.send(np.zeros((1, 6), np.float32), [2])
    _, _, _, _, info = env.recv()
    assert sorted(info["env_id"].tolist()) in ([0, 1], [0, 2], [1, 2])
    env.close()


def test_synchronous_step_refuses_while_envs_are_in_flight():
    env = JoltVectorEnv(4, task="HalfCheetah")
    env.reset(seed=0)
    env.send(np.zeros((2, 6), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"2 env\(s\) were sent actions that recv\(\) has not returned yet"):
        env.step(np.zeros((4, 6), np.float32))
    env.reset(seed=0)  # ends the asynchronous step
    env.step(np.zeros((4, 6), np.float32))


def test_a_world_waits_for_all_of_its_envs_and_recv_says_so():
    env = JoltVectorEnv(4, task="HalfCheetah", batch_size=2, robots_per_world=2)
    assert env.world_sizes == [2, 2]
    env.reset(seed=0)
    env.send(np.zeros((1, 6), np.float32), [0])
    with pytest.raises(ValueError, match=r"env\(s\) 0 were sent but wait for the other envs of their Jolt world"):
        env.recv()
    env.send(np.zeros((1, 6), np.float32), [1])
    _, _, _, _, info = env.recv()
    assert info["env_id"].tolist() == [0, 1]


@pytest.mark.parametrize("batch_size", [0, 5, 2.0, True])
def test_bad_batch_sizes(batch_size):
    with pytest.raises(ValueError, match=r"batch_size must be an integer in \[1, num_envs=4\]"):
        JoltVectorEnv(4, batch_size=batch_size)


def test_robots_per_world_must_divide_the_batch():
    with pytest.raises(ValueError, match=r"robots_per_world=3 with batch_size=4 .* must divide both"):
        JoltVectorEnv(12, task="HalfCheetah", batch_size=4, robots_per_world=3)


def test_rendering_and_physics_parameters_wait_for_the_envs_world():
    env = JoltVectorEnv(4, task="HalfCheetah", batch_size=2, render_mode="rgb_array", width=32, height=32,
                        robots_per_world=1)
    env.reset(seed=0)
    for _ in range(5):
        env.send(np.ones((len(env._last_ids), 6), np.float32))
        frames = env.render()  # beside envs in flight
        masses = env.get_physics("body_mass")
        assert len(frames) == 4 and masses.shape[0] == 4
        env.recv()
    env.close()


def test_pickling_keeps_the_batch_size():
    env = pickle.loads(pickle.dumps(JoltVectorEnv(4, batch_size=2)))
    assert env.batch_size == 2
    env.reset(seed=0)
    _, _, _, _, info = env.step(np.zeros((4, 6), np.float32))
    assert len(info["env_id"]) == 2
