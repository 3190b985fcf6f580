"""solver="default" or the name of a preset: a task's own settings, or a named alternative that exists
only where it differs from them, through the single env, the vector env and the multi-agent envs;
anything else, retired names included, is refused with the valid names."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import joltgym
from joltgym.tasks import TASKS, task_spec
from joltgym.vector import JoltVectorEnv


def test_fast_halfcheetah_uses_its_preset_and_still_holds_its_joints():
    spec = task_spec("HalfCheetah")
    fast, default = spec.presets["fast"], spec.solver
    assert fast.substeps * fast.velocity_iterations < default.substeps * default.velocity_iterations
    env = gym.make("joltgym/HalfCheetah-v0", solver="fast").unwrapped
    assert env.model.native.desc.solver.velocity_iterations == fast.velocity_iterations
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


@pytest.mark.parametrize("name", sorted(TASKS))
def test_every_preset_differs_from_its_tasks_default(name):
    spec = TASKS[name]
    for preset, settings in spec.presets.items():
        assert settings != spec.solver, (name, preset)
    assert spec.solver_names == ["default", *spec.presets]


def test_halfcheetahs_default_is_mujocos_euler_step():
    solver = gym.make("joltgym/HalfCheetah-v0").unwrapped.model.native.desc.solver
    assert solver.mujoco_euler and solver.substeps == 1


def test_the_vector_and_multi_agent_envs_take_the_names():
    fast = task_spec("HalfCheetah").presets["fast"]
    venv = JoltVectorEnv(3, task="HalfCheetah", solver="fast")
    assert venv.model.native.desc.solver.velocity_iterations == fast.velocity_iterations
    venv.close()
    env = pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0", solver="fast")
    assert env.unwrapped.model.native.desc.solver.velocity_iterations == fast.velocity_iterations
    env.close()


@pytest.mark.parametrize("make", [
    lambda solver: gym.make("joltgym/Hopper-v0", solver=solver),
    lambda solver: JoltVectorEnv(2, task="Hopper", solver=solver),
    lambda solver: pettingzoo.make("parallel", "joltgym/MaHopper-v0", solver=solver),
], ids=["single", "vector", "multi-agent"])
def test_a_task_without_a_fast_preset_refuses_it_and_lists_what_it_takes(make):
    with pytest.raises(ValueError, match=r"solver='fast' for Hopper: no such preset; valid: 'default' or a "
                                         r"joltgym.SolverSettings \('fast' was retired: only tasks whose default"):
        make("fast")


def test_the_retired_mujoco_preset_is_refused_with_the_valid_names():
    with pytest.raises(ValueError, match=r"solver='mujoco' for HalfCheetah: no such preset; valid: 'default', 'fast' "
                                         r"or a joltgym.SolverSettings \('mujoco' was retired: .*HalfCheetah's is v5's own"):
        gym.make("joltgym/HalfCheetah-v0", solver="mujoco")


def test_an_arena_takes_the_presets_of_the_task_it_borrows_its_solver_from():
    with pytest.raises(ValueError, match=r"solver='fast' for Ant: no such preset; valid: 'default' or"):
        pettingzoo.make("parallel", "joltgym/SumoAnts-v0", solver="fast")


@pytest.mark.parametrize("solver, error, match", [
    ("quick", ValueError, r"solver='quick' for HalfCheetah: no such preset; valid: 'default', 'fast' or a "
                          r"joltgym.SolverSettings$"),
    (3, TypeError, r"solver for HalfCheetah must be a joltgym.SolverSettings or one of 'default', 'fast', got int"),
])
def test_other_values_are_refused_by_name(solver, error, match):
    with pytest.raises(error, match=match):
        gym.make("joltgym/HalfCheetah-v0", solver=solver)
    with pytest.raises(error, match=match):
        JoltVectorEnv(2, task="HalfCheetah", solver=solver)


def test_reference_switches_are_not_public_settings():
    public = set(joltgym.SolverSettings.__dataclass_fields__)
    assert not public & {"soft_limits", "soft_contacts", "planar_links", "joint_rows_last"}
    with pytest.raises(TypeError):
        joltgym.SolverSettings(soft_contacts=False)
