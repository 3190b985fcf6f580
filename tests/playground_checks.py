"""Checks every Playground task shares against EnvPool 1.2.5's port of it."""

from __future__ import annotations

import envpool
import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from test_go1_joystick import POOL_FIELDS


def assert_spaces_config_and_info_are_envpools(name: str, act_dim: int, reward_terms: int, command: bool = True) -> None:
    """joltgym/<name>-v0 against EnvPool's <name>-v1: observation shapes (each key of a Dict), action
    shape, episode length, every config field a task parameter with EnvPool's default, the same
    reward terms in info and, for a task with commands, the command."""
    ours = gym.make(f"joltgym/{name}-v0")
    theirs = envpool.make_gymnasium(f"{name}-v1", num_envs=2, seed=0)
    if isinstance(theirs.observation_space, gym.spaces.Dict):
        assert set(ours.observation_space.spaces) == set(theirs.observation_space.spaces)
        for key, space in theirs.observation_space.spaces.items():
            assert ours.observation_space[key].shape == space.shape, key
    else:
        assert ours.observation_space.shape == theirs.observation_space.shape
    assert ours.action_space.shape == theirs.action_space.shape == (act_dim,)
    config = envpool.make_spec(f"{name}-v1").config
    assert ours.spec.max_episode_steps == config.max_episode_steps
    expected = {k: getattr(config, k) for k in config._fields if k not in POOL_FIELDS}
    defaults = TASKS[name].native.defaults
    assert set(defaults) == set(expected)
    for key, value in expected.items():
        assert defaults[key] == pytest.approx(value, rel=1e-6), key
    _, reset_info = ours.reset(seed=0)
    theirs.reset()
    *_, their_info = theirs.step(np.zeros((2, act_dim)))
    *_, our_info = ours.step(np.zeros(act_dim, np.float32))
    their_terms = {k for k in their_info if k.startswith("reward_")}
    assert len(their_terms) == reward_terms and their_terms == {k for k in our_info if k.startswith("reward_")}
    if command:
        assert np.shape(reset_info["command"]) == np.shape(our_info["command"]) == (3,)
