"""solver="default" / "fast" / "mujoco": the task's measured settings, its cheaper preset or its
preset stepping as MuJoCo v5 does, by name, through the single env, the vector env and the
multi-agent envs; anything else is refused by name."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import joltgym
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv


def test_fast_halfcheetah_uses_its_preset_and_still_holds_its_joints():
    spec = task_spec("HalfCheetah")
    fast, default = spec.fast_solver, spec.solver
    assert fast is not None and fast.substeps * fast.velocity_iterations < default.substeps * default.velocity_iterations
    env = gym.make("joltgym/HalfCheetah-v0", solver="fast").unwrapped
    assert env.model.native.desc.solver.substeps == spec.fast_solver.substeps
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(1000):
        env.step(rng.uniform(-1, 1, 6).astype(np.float32))
        worst = max(worst, env._core.max_joint_anchor_error())
    assert worst < 2e-3, worst


def rollout(**kwargs) -> np.ndarray:
    env = gym.make("joltgym/HalfCheetah-v0", **kwargs)
    env.reset(seed=1)
    out = [env.step(np.full(6, 0.5, np.float32))[0] for _ in range(20)]
    env.close()
    return np.array(out)


def test_default_by_name_is_the_default_and_fast_differs():
    np.testing.assert_array_equal(rollout(solver="default"), rollout())
    assert not np.array_equal(rollout(solver="fast"), rollout())


def test_tasks_without_a_fast_preset_run_their_default():
    np.testing.assert_array_equal(
        JoltVectorEnv(2, task="Hopper", solver="fast").reset(seed=3)[0],
        JoltVectorEnv(2, task="Hopper").reset(seed=3)[0])


def test_the_vector_and_multi_agent_envs_take_the_names():
    venv = JoltVectorEnv(3, task="HalfCheetah", solver="fast")
    assert venv.model.native.desc.solver.substeps == task_spec("HalfCheetah").fast_solver.substeps
    venv.close()
    env = pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0", solver="fast")
    assert env.unwrapped.model.native.desc.solver.substeps == task_spec("HalfCheetah").fast_solver.substeps
    env.close()


def test_mujoco_halfcheetah_steps_as_mujocos_euler_integrator_and_is_its_default():
    spec = task_spec("HalfCheetah")
    assert spec.solver == spec.mujoco_solver
    np.testing.assert_array_equal(rollout(solver="mujoco"), rollout())
    solver = gym.make("joltgym/HalfCheetah-v0", solver="mujoco").unwrapped.model.native.desc.solver
    assert solver.mujoco_euler and solver.substeps == 1 == spec.mujoco_solver.substeps
    venv = JoltVectorEnv(2, task="HalfCheetah", solver="mujoco")
    assert venv.model.native.desc.solver.mujoco_euler
    venv.close()
    env = pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0", solver="mujoco")
    assert env.unwrapped.model.native.desc.solver.mujoco_euler
    env.close()


def test_a_task_without_a_mujoco_preset_refuses_it_by_name():
    with pytest.raises(ValueError, match=r"solver='mujoco' for Hopper: no such preset \(tasks with one: HalfCheetah;"):
        gym.make("joltgym/Hopper-v0", solver="mujoco")


@pytest.mark.parametrize("solver, error, match", [
    ("quick", ValueError, r"solver='quick' for HalfCheetah: expected a SolverSettings, 'default', 'fast' or 'mujoco'"),
    (3, TypeError, r"solver for HalfCheetah must be a SolverSettings, 'default', 'fast' or 'mujoco', got int"),
])
def test_other_values_are_refused_by_name(solver, error, match):
    with pytest.raises(error, match=match):
        gym.make("joltgym/HalfCheetah-v0", solver=solver)
    with pytest.raises(error, match=match):
        JoltVectorEnv(2, task="HalfCheetah", solver=solver)
