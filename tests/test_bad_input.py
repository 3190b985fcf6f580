"""Bad actions and arguments raise clear Python exceptions; numeric dtypes convert."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import joltgym  # noqa: F401


@pytest.fixture
def env():
    e = gym.make("joltgym/HalfCheetah-v0").unwrapped
    e.reset(seed=0)
    return e


@pytest.mark.parametrize("shape", [(5,), (7,), (1, 6), (6, 1), ()])
def test_wrong_action_shape(env, shape):
    with pytest.raises(ValueError, match=r"action has shape .* expected \(6,\)"):
        env.step(np.zeros(shape, np.float32))


@pytest.mark.parametrize("action", [["a"] * 6, np.array(["x"] * 6), "forward", None, {"a": 1}])
def test_non_numeric_action(env, action):
    with pytest.raises(TypeError, match="action"):
        env.step(action)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_action_names_the_index(env, bad):
    action = np.zeros(6, np.float32)
    action[4] = bad
    before = env.qpos.copy()
    with pytest.raises(ValueError, match="index 4"):
        env.step(action)
    np.testing.assert_array_equal(env.qpos, before)  # rejected before any physics ran


@pytest.mark.parametrize("dtype", [np.float64, np.float16, np.int32, np.int64])
def test_numeric_dtypes_are_converted(env, dtype):
    env.reset(seed=1)
    expected, *_ = env.step(np.zeros(6, np.float32))
    env.reset(seed=1)
    obs, reward, *_ = env.step(np.zeros(6, dtype))
    np.testing.assert_array_equal(obs, expected)
    assert obs.dtype == np.float32


def test_python_list_action(env):
    obs, *_ = env.step([0.1, -0.2, 0.3, 0, 0, 0.5])
    assert obs.shape == (17,)


def test_out_of_range_action_is_clamped_like_mujoco_ctrlrange(env):
    env.reset(seed=2)
    at_limit, *_ = env.step(np.ones(6, np.float32))
    env.reset(seed=2)
    beyond, _, _, _, info = env.step(np.full(6, 3.0, np.float32))
    np.testing.assert_array_equal(at_limit, beyond)  # torque clamped to ctrlrange
    assert info["reward_ctrl"] == pytest.approx(-0.1 * 6 * 9.0)  # cost on the raw action, as v5


def test_bad_set_state_shapes(env):
    with pytest.raises(ValueError, match="qpos"):
        env.set_state(np.zeros(8), np.zeros(9))
    with pytest.raises(ValueError, match="qvel"):
        env.set_state(np.zeros(9), np.zeros(3))


@pytest.mark.parametrize("kwargs", [{"frame_skip": 0}, {"render_mode": "rgb"}])
def test_bad_constructor_arguments(kwargs):
    with pytest.raises(ValueError):
        gym.make("joltgym/HalfCheetah-v0", **kwargs)
