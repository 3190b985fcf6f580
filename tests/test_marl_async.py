"""MultiAgentVectorEnv's asynchronous mode: each env's episodes whatever order envs come back in,
for every multi-agent id, any thread count and packing; resets through recv; errors."""

from __future__ import annotations

import numpy as np
import pytest

import joltgym  # noqa: F401
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv

IDS = [spec.env_id for spec in MULTI_AGENT_TASKS.values()]


def episodes_by_env(env: MultiAgentVectorEnv, steps: int, asynchronous: bool) -> list[list]:
    """Each env's observations, rewards, flags and reset marks over `steps` of its own steps; env i's
    actions at its step t come from a table, whatever batch it is sent in."""
    n, agents, width = env.num_envs, env.task.num_agents, env.task.max_act_dim
    table = np.random.default_rng(0).uniform(-0.4, 0.4, (n, steps + 1, agents, width)).astype(np.float32)
    records: list[list] = [[] for _ in range(n)]
    counts = np.zeros(n, int)
    if asynchronous:
        env.async_reset(seed=5)
        obs, rewards, terminated, truncated, infos = env.recv()
        ids = infos["env_id"]
    else:
        obs, infos = env.reset(seed=5)
        rewards = terminated = truncated = np.zeros((n, agents))
        ids = np.arange(n)
    while True:
        for k, i in enumerate(ids):
            records[i].append((obs[k], rewards[k], terminated[k], truncated[k], infos["_reset"][k]))
        if all(len(r) > steps for r in records):
            return records
        actions = table[ids, np.minimum(counts[ids], steps)]
        counts[ids] += 1
        if asynchronous:
            env.send(actions, ids)
            obs, rewards, terminated, truncated, infos = env.recv()
            ids = infos["env_id"]
        else:
            obs, rewards, terminated, truncated, infos = env.step(actions)


@pytest.mark.parametrize("env_id", IDS)
def test_each_envs_episodes_do_not_depend_on_the_order_envs_come_back_in(env_id):
    steps = 40
    runs = []
    for batch_size, threads in ((6, 1), (3, 2), (2, 2), (1, 1)):
        env = MultiAgentVectorEnv(env_id, 6, num_threads=threads, batch_size=batch_size, max_cycles=15)
        runs.append(episodes_by_env(env, steps, asynchronous=bool(runs)))
        env.close()
    for other in runs[1:]:
        for i in range(6):
            for t in range(steps + 1):
                for a, b in zip(runs[0][i][t][1:] if t == 0 else runs[0][i][t], other[i][t][1:] if t == 0 else other[i][t]):
                    np.testing.assert_array_equal(a, b, err_msg=f"{env_id}: env {i}, step {t}")


def test_batches_are_whole_worlds_and_recv_reports_resets():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 8, num_threads=2, batch_size=4, agent_conf="2x3")
    assert all(4 % size == 0 for size in env.world_sizes)
    env.async_reset(seed=0)
    seen = []
    for _ in range(2):
        obs, rewards, terminated, truncated, infos = env.recv()
        assert obs.shape == (4, 2, env.task.max_obs_dim) and infos["_reset"].all() and not rewards.any()
        seen += infos["env_id"].tolist()
    assert sorted(seen) == list(range(8))
    env.send(np.zeros((4, 2, 3), np.float32))
    obs, rewards, terminated, truncated, infos = env.recv()
    assert infos["acted"].all() and not infos["_reset"].any()


def test_misuse_raises_errors_that_name_it():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 4, num_threads=1, batch_size=2, agent_conf="2x3",
                              envs_per_world=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"recv\(\) waits for 2 envs, but only 0"):
        env.recv()
    env.send(np.zeros((2, 2, 3), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"env\(s\) 0 were sent actions that recv\(\) has not returned"):
        env.send(np.zeros((1, 2, 3), np.float32), [0])
    with pytest.raises(ValueError, match=r"env\(s\) 0, 1 were sent actions"):
        env.step(np.zeros((4, 2, 3), np.float32))  # batch_size 2: step is send + recv, to envs in flight here
    bad = np.zeros((1, 2, 3), np.float32)
    bad[0, 1, 2] = np.inf
    with pytest.raises(ValueError, match="the action of agent_1 in env 3 contains a non-finite value"):
        env.send(bad, [3])
    with pytest.raises(ValueError, match="batch_size must be an integer in"):
        MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 4, batch_size=5)


def test_synchronous_step_refuses_while_envs_are_in_flight():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 4, num_threads=1, agent_conf="2x3", envs_per_world=1)
    env.reset(seed=0)
    env.send(np.zeros((2, 2, 3), np.float32), [0, 1])
    with pytest.raises(ValueError, match=r"step\(\) steps every env, but 2 env\(s\)"):
        env.step(np.zeros((4, 2, 3), np.float32))
    env.reset(seed=0)
    env.step(np.zeros((4, 2, 3), np.float32))
