"""The Stable-Baselines3 VecEnv adapter: SB3's info conventions, and a short PPO run."""

from __future__ import annotations

import numpy as np
import pytest

from joltgym.vector.sb3 import JoltSB3VecEnv


def test_done_envs_carry_terminal_observation_and_time_limit_flag():
    venv = JoltSB3VecEnv(3, max_episode_steps=6)
    venv.seed(4)
    obs = venv.reset()
    assert obs.shape == (3, 17)
    for step in range(6):
        obs, rewards, dones, infos = venv.step(np.zeros((3, 6), np.float32))
        assert len(infos) == 3 and rewards.dtype == np.float32
        if step < 5:
            assert not dones.any() and "terminal_observation" not in infos[0]
    assert dones.all()
    for i in range(3):
        assert infos[i]["TimeLimit.truncated"] is True
        terminal = infos[i]["terminal_observation"]
        assert terminal.shape == (17,) and not np.array_equal(terminal, obs[i])
        assert "x_velocity" in infos[i]  # the last step's info travels with it


def test_seeded_resets_are_reproducible():
    a, b = JoltSB3VecEnv(2), JoltSB3VecEnv(2)
    a.seed(7)
    b.seed(7)
    np.testing.assert_array_equal(a.reset(), b.reset())


def test_adapter_attributes():
    venv = JoltSB3VecEnv(2)
    assert venv.get_attr("render_mode") == [None, None]
    assert venv.env_is_wrapped(object) == [False, False]
    with pytest.raises(AttributeError):
        venv.set_attr("foo", 1)


@pytest.mark.slow  # a PPO training
def test_ppo_trains_through_the_adapter():
    from stable_baselines3 import PPO
    from stable_baselines3.common.vec_env import VecMonitor

    venv = VecMonitor(JoltSB3VecEnv(4, max_episode_steps=200))
    model = PPO("MlpPolicy", venv, n_steps=256, batch_size=256, n_epochs=2, seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=4096)
    assert model.num_timesteps >= 4096
    assert len(model.ep_info_buffer) >= 4  # episodes ended and were recorded via the adapter's infos
    action, _ = model.predict(venv.reset(), deterministic=True)
    assert action.shape == (4, 6)


def test_stable_baselines3_trains_a_cnn_policy_on_the_pools_frames():
    from stable_baselines3 import PPO

    env = JoltSB3VecEnv(2, task="CheetahRun", obs_type="pixels", width=64, height=64, max_episode_steps=20)
    model = PPO("CnnPolicy", env, n_steps=32, batch_size=32, n_epochs=1, seed=0)
    model.learn(64)
    assert model.observation_space.shape == (3, 64, 64)  # SB3 moved the channels first itself
