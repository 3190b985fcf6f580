"""The native single-env classes by task name (the seed's HalfCheetahCore and HumanoidCore; a
<Task>Core for every registered task): each builds its own task from keyword arguments and steps
exactly as the Gymnasium env of that task does."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.tasks import TASKS


@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_task_has_its_named_core(name):
    core_class = getattr(_native, f"{name}Core")
    assert issubclass(core_class, _native.TaskCore)
    assert core_class.task_type.name == name
    assert core_class.__doc__.startswith(f"Single {name} environment (C++)")


@pytest.mark.parametrize("name", ["HalfCheetah", "Humanoid"])
def test_the_seeds_cores_step_as_the_gymnasium_env(name):
    spec = TASKS[name]
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    core = getattr(_native, f"{name}Core")(model.native, ctrl_cost_weight=0.2)
    env = gym.make(spec.env_id, ctrl_cost_weight=0.2).unwrapped
    assert (core.obs_dim, core.act_dim) == (env.observation_space.shape[0], env.action_space.shape[0])
    obs, _ = core.reset(7)
    expected, _ = env._core.reset(7)
    np.testing.assert_array_equal(obs, expected)
    rng = np.random.default_rng(0)
    for _ in range(20):
        action = rng.uniform(-0.4, 0.4, core.act_dim).astype(np.float32)
        obs, reward, terminated, diverged, info = core.step(action)
        theirs = env._core.step(action)
        np.testing.assert_array_equal(obs, theirs[0])
        assert (reward, terminated, diverged) == theirs[1:4]
        assert info.keys() == theirs[4].keys()


def test_a_named_core_refuses_an_unknown_keyword_by_name():
    model = joltgym.load_model("half_cheetah.xml", solver=TASKS["HalfCheetah"].solver)
    with pytest.raises(TypeError, match="healthy_reward"):
        _native.HalfCheetahCore(model.native, healthy_reward=1.0)
