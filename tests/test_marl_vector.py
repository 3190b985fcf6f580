"""Many multi-agent worlds stepped natively: shapes, autoreset, thread-count independence, errors."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import joltgym  # noqa: F401
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv

IDS = [spec.env_id for spec in MULTI_AGENT_TASKS.values()]


def rollout(env_id: str, threads: int, steps: int = 60, **kwargs) -> list[np.ndarray]:
    env = MultiAgentVectorEnv(env_id, 6, num_threads=threads, **kwargs)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    out = [obs]
    for _ in range(steps):
        actions = rng.uniform(-0.4, 0.4, (6, env.task.num_agents, env.task.max_act_dim)).astype(np.float32)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        out += [obs, rewards, terminated, truncated, infos["_reset"]]
    env.close()
    return out


@pytest.mark.parametrize("env_id", IDS)
def test_results_do_not_depend_on_the_thread_count(env_id):
    one, two, three = rollout(env_id, 1), rollout(env_id, 2), rollout(env_id, 3)
    for a, b, c in zip(one, two, three):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)


def test_shapes_and_next_step_autoreset():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 3, num_threads=1, agent_conf="6x1", max_cycles=5)
    obs, infos = env.reset(seed=0)
    assert obs.shape == (3, 6, 9) and env.state().shape == (3, 17) and infos["_reset"].all()
    actions = np.zeros((3, 6, 1), np.float32)
    for step in range(5):
        obs, rewards, terminated, truncated, infos = env.step(actions)
        assert rewards.shape == (3, 6) and infos["acted"].all() and not infos["_reset"].any()
    assert truncated.all() and not terminated.any()
    obs, rewards, terminated, truncated, infos = env.step(actions)
    assert infos["_reset"].all() and not rewards.any() and not infos["acted"].any()
    assert not obs[:, 2, 8:].any() and env.to_dicts(obs, 0)["agent_2"].shape == (8,)


def test_shaping_weight_reaches_every_world():
    env = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 2, num_threads=1, shaping_weight=0.0)
    env.reset(seed=1)
    _, rewards, _, _, infos = env.step(np.zeros((2, 2, 8), np.float32))
    np.testing.assert_array_equal(rewards, infos["reward_sparse"])
    env.shaping_weight = 1.0
    _, rewards, _, _, infos = env.step(np.zeros((2, 2, 8), np.float32))
    np.testing.assert_allclose(rewards, infos["reward_sparse"] + infos["reward_shaping"], rtol=1e-6)


def test_bad_input():
    env = MultiAgentVectorEnv("joltgym/MaAnt-v0", 2, num_threads=1)
    env.reset(seed=0)
    actions = np.zeros((2, 2, 4), np.float32)
    actions[1, 0, 2] = np.inf
    with pytest.raises(ValueError, match=r"agent_0 in env 1 contains a non-finite value \(inf\) at index 2"):
        env.step(actions)
    with pytest.raises(ValueError, match=r"actions has shape \(2, 4\), expected \(2, 2, 4\)"):
        env.step(np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match="num_envs"):
        MultiAgentVectorEnv("joltgym/MaAnt-v0", 0)
    env.close()
    with pytest.raises(gym.error.ClosedEnvironmentError, match="closed"):
        env.step(actions)
