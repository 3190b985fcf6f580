"""joltgym/BarkourJoystick-v0 against EnvPool 1.2.5's BarkourJoystick-v1: the same spaces, config and
info keys; the observation's 15-frame history; the kicks; the state-dependent reward terms of a state
equal EnvPool's formulas on MuJoCo's sensors in that state; episode statistics under random actions
close to EnvPool's."""

from __future__ import annotations

import envpool
import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from test_go1_joystick import POOL_FIELDS, mujoco_in, random_action_statistics, sensor

ID, EP_ID = "joltgym/BarkourJoystick-v0", "BarkourJoystick-v1"


def test_spaces_info_keys_and_config_are_envpools():
    ours = gym.make(ID)
    theirs = envpool.make_gymnasium(EP_ID, num_envs=2, seed=0)
    assert ours.observation_space.shape == theirs.observation_space.shape == (465,)
    assert ours.action_space.shape == theirs.action_space.shape == (12,)
    config = envpool.make_spec(EP_ID).config
    assert ours.spec.max_episode_steps == config.max_episode_steps
    expected = {k: getattr(config, k) for k in config._fields if k not in POOL_FIELDS}
    defaults = TASKS["BarkourJoystick"].native.defaults
    assert set(defaults) == set(expected)
    for key, value in expected.items():
        assert defaults[key] == pytest.approx(value, rel=1e-6), key
    ours.reset(seed=0)
    theirs.reset()
    *_, their_info = theirs.step(np.zeros((2, 12)))
    *_, our_info = ours.step(np.zeros(12, np.float32))
    assert {k for k in their_info if k.startswith("reward_")} == {k for k in our_info if k.startswith("reward_")}


def test_the_observation_holds_the_last_fifteen_frames_newest_first():
    env = gym.make(ID, obs_noise=-1.0)
    first, info = env.reset(seed=1)
    np.testing.assert_array_equal(first[31:], 0.0)
    np.testing.assert_allclose(first[4:7], np.asarray(info["command"]) * [2.0, 2.0, 0.25], atol=1e-6)
    frames = [first]
    for _ in range(3):
        obs, *_ = env.step(np.full(12, 0.2, np.float32))
        frames.append(obs)
    np.testing.assert_array_equal(frames[3][31:62], frames[2][:31])
    np.testing.assert_array_equal(frames[3][93:124], frames[0][:31])
    np.testing.assert_allclose(frames[3][19:31], 0.2)


def test_a_kick_pushes_the_robot_when_scheduled():
    # Every kick_wait steps a half-sine push over kick_duration steps adds about velocity_kick m/s.
    def run(kick):
        env = gym.make(ID, obs_noise=-1.0, kick_wait_steps_min=20, kick_wait_steps_max=21, kick_duration_steps_min=5,
                       kick_duration_steps_max=6, velocity_kick_min=kick, velocity_kick_max=kick)
        env.reset(seed=2)
        out = []
        for _ in range(30):
            env.step(np.zeros(12, np.float32))
            out.append(env.unwrapped.qvel[:2].copy())
        return np.array(out)

    kicked, calm = run(0.8), run(0.0)
    np.testing.assert_array_equal(kicked[:20], calm[:20])  # nothing before the 20th step
    assert np.linalg.norm(kicked[25] - calm[25]) > 0.08  # 0.25 m/s of impulse, less what the feet's friction takes


def test_state_reward_terms_are_envpools_formulas_on_mujocos_sensors():
    env = gym.make(ID, obs_noise=-1.0)
    params = TASKS["BarkourJoystick"].native.defaults
    _, info = env.reset(seed=3)
    rng = np.random.default_rng(2)
    for step in range(30):
        command = np.asarray(info["command"])
        _, _, terminated, truncated, info = env.step(rng.uniform(-0.3, 0.3, 12).astype(np.float32))
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        linvel, gyro, up = sensor(m, d, "local_linvel"), sensor(m, d, "gyro"), sensor(m, d, "upvector")
        global_linvel = sensor(m, d, "global_linvel")
        sigma = params["tracking_sigma"]
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "lin_vel_z": global_linvel[2] ** 2 * params["lin_vel_z_scale"],
            "orientation": np.sum(up[:2] ** 2) * params["orientation_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        if terminated or truncated:
            break


def test_random_action_episodes_match_envpools():
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics("BarkourJoystick", 300, act_dim=12)
    # The few episodes that end within 300 steps average 155 steps here against 117; over 64 envs x
    # 1,000 steps the falls are 41, 53 and MuJoCo's own 50, within their noise (benchmarks/barkour_falls.py).
    assert our_length == pytest.approx(their_length, rel=0.4)
    for key, value in their_terms.items():
        tolerance = 0.8 if key in ("reward_tracking_lin_vel", "reward_stand_still") else 0.25
        assert our_terms[key] == pytest.approx(value, rel=tolerance, abs=0.01), key
