"""joltgym/Op3Joystick-v0 against EnvPool 1.2.5's Op3Joystick-v1: the same spaces, config and info
keys; the observation's three-frame history; the state-dependent reward terms of a state equal
EnvPool's formulas on MuJoCo's sensors in that state; episode statistics under random actions close
to EnvPool's."""

from __future__ import annotations

import envpool
import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from test_go1_joystick import POOL_FIELDS, mujoco_in, random_action_statistics, sensor

ID, EP_ID = "joltgym/Op3Joystick-v0", "Op3Joystick-v1"


def test_spaces_info_keys_and_config_are_envpools():
    ours = gym.make(ID)
    theirs = envpool.make_gymnasium(EP_ID, num_envs=2, seed=0)
    assert ours.observation_space.shape == theirs.observation_space.shape == (147,)  # a Box, as EnvPool's
    assert ours.action_space.shape == theirs.action_space.shape == (20,)
    assert ours.spec.max_episode_steps == 1000
    config = envpool.make_spec(EP_ID).config
    expected = {k: getattr(config, k) for k in config._fields if k not in POOL_FIELDS}
    defaults = TASKS["Op3Joystick"].native.defaults
    assert set(defaults) == set(expected)
    for key, value in expected.items():
        assert defaults[key] == pytest.approx(value, rel=1e-6), key
    ours.reset(seed=0)
    theirs.reset()
    *_, their_info = theirs.step(np.zeros((2, 20)))
    *_, our_info = ours.step(np.zeros(20, np.float32))
    assert {k for k in their_info if k.startswith("reward_")} == {k for k in our_info if k.startswith("reward_")}


def test_the_observation_holds_the_last_three_frames_newest_first():
    env = gym.make(ID, obs_noise=-1.0)  # a negative obs_noise turns the noise off, as EnvPool's
    first, info = env.reset(seed=1)
    np.testing.assert_array_equal(first[49:], 0.0)  # no older frames yet
    np.testing.assert_allclose(first[6:9], info["command"], atol=1e-6)
    second, *_ = env.step(np.full(20, 0.5, np.float32))
    third, *_ = env.step(np.full(20, -0.5, np.float32))
    np.testing.assert_array_equal(third[49:98], second[:49])
    np.testing.assert_array_equal(third[98:], first[:49])
    np.testing.assert_allclose(third[29:49], 0.5)  # each frame's previous action
    np.testing.assert_allclose(second[29:49], 0.0)


def test_state_reward_terms_are_envpools_formulas_on_mujocos_sensors():
    env = gym.make(ID, obs_noise=-1.0)
    params = TASKS["Op3Joystick"].native.defaults
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(2)
    for step in range(30):
        command = np.asarray(info["command"])
        _, _, terminated, truncated, info = env.step(rng.uniform(-0.3, 0.3, 20).astype(np.float32))
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        linvel, gyro, up = sensor(m, d, "local_linvel"), sensor(m, d, "gyro"), sensor(m, d, "upvector")
        global_linvel, global_angvel = sensor(m, d, "global_linvel"), sensor(m, d, "global_angvel")
        sigma = params["tracking_sigma"]
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "lin_vel_z": global_linvel[2] ** 2 * params["lin_vel_z_scale"],
            "ang_vel_xy": np.sum(global_angvel[:2] ** 2) * params["ang_vel_xy_scale"],
            "orientation": np.sum(up[:2] ** 2) * params["orientation_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        if terminated or truncated:
            break


def test_random_action_episodes_match_envpools():
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics("Op3Joystick", 300, act_dim=20)
    assert our_length == pytest.approx(their_length, rel=0.15)
    for key, value in their_terms.items():
        # The tracking and zero-command terms follow each episode's command, a few hundred draws here
        # (10% of them zero): they differ by chance by up to 3x; their formulas are tested above.
        if key in ("reward_tracking_lin_vel", "reward_zero_cmd"):
            continue
        assert our_terms[key] == pytest.approx(value, rel=0.2, abs=0.01), key


def test_with_zero_commands_the_zero_cmd_term_is_the_actions_squared():
    env = gym.make(ID, obs_noise=-1.0, lin_vel_x_min=0.0, lin_vel_x_max=0.0, lin_vel_y_min=0.0, lin_vel_y_max=0.0,
                   ang_vel_yaw_min=0.0, ang_vel_yaw_max=0.0)
    env.reset(seed=0)
    action = np.linspace(-0.5, 0.5, 20).astype(np.float32)
    *_, info = env.step(action)
    assert info["reward_zero_cmd"] == pytest.approx(np.sum(action.astype(np.float64) ** 2) * -0.5, rel=1e-6)
