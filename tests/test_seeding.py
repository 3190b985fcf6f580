"""A single env reset with seed s runs the episodes of the vector env's env whose seed is s: the same
reset states, the same trajectories, episode after episode (Gymnasium's sync vector env gives env i the
single env's reset(seed=seed + i), and users switch between the two). Likewise for the PettingZoo envs
and MultiAgentVectorEnv's worlds."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import joltgym  # noqa: F401  (registers the ids)
from joltgym.marl.modules import make_parallel_env
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.tasks import TASKS
from observations import flat, row


@pytest.mark.parametrize("task", sorted(TASKS))
def test_a_single_env_runs_the_episodes_of_the_vector_envs_env_with_its_seed(task):
    env_id = f"joltgym/{task}-v0"
    single = gym.make(env_id, max_episode_steps=30).unwrapped
    vector = gym.make_vec(env_id, num_envs=4, max_episode_steps=30)
    obs, _ = single.reset(seed=10)
    vobs, _ = vector.reset(seed=[7, 8, 9, 10])
    np.testing.assert_array_equal(flat(obs), flat(row(vobs, 3)))
    rng = np.random.default_rng(1)
    low, high = single.action_space.low, single.action_space.high
    episodes, length = 0, 0
    for _ in range(120):  # several episodes: later resets draw from the same stream
        action = rng.uniform(low, high).astype(np.float32)
        actions = np.tile(action, (4, 1))
        obs, reward, terminated, _, _ = single.step(action)
        vobs, vreward, vterminated, vtruncated, _ = vector.step(actions)
        length += 1
        np.testing.assert_array_equal(flat(obs), flat(row(vobs, 3)))
        assert reward == vreward[3] and terminated == vterminated[3]
        assert vtruncated[3] == (length == 30 and not terminated)
        if terminated or length == 30:
            obs, _ = single.reset()
            vobs, _, _, _, _ = vector.step(actions)  # NEXT_STEP autoreset: this step starts the next episode
            np.testing.assert_array_equal(flat(obs), flat(row(vobs, 3)))
            episodes, length = episodes + 1, 0
    assert episodes >= 3
    vector.close()


def test_reset_noise_differs_between_seeds_and_repeats_for_one():
    env = gym.make("joltgym/Walker2d-v0").unwrapped
    a, _ = env.reset(seed=10)
    b, _ = env.reset(seed=11)
    c, _ = env.reset(seed=10)
    assert not np.array_equal(a, b)
    np.testing.assert_array_equal(a, c)


@pytest.mark.parametrize("env_id", ["joltgym/MaHopper-v0", "joltgym/SumoAnts-v0"])
def test_a_pettingzoo_env_runs_the_episodes_of_the_vector_worlds_with_its_seed(env_id):
    single = make_parallel_env(env_id.removeprefix("joltgym/").removesuffix("-v0"))
    vector = MultiAgentVectorEnv(env_id, 3, num_threads=1)
    obs, _ = single.reset(seed=6)
    vobs, _ = vector.reset(seed=4)  # world 2 has seed 6
    for i, agent in enumerate(single.possible_agents):
        np.testing.assert_array_equal(obs[agent], vobs[2, i, : obs[agent].shape[0]])
    vector.close()
