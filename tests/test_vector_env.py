"""JoltVectorEnv: Gymnasium 1.x vector contract, autoreset modes, seeding, determinism, errors."""

from __future__ import annotations

import copy

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

import joltgym
from joltgym import _native
from joltgym.tasks import TASKS, task_spec
from joltgym.vector import JoltVectorEnv
from observations import flat

ENV_ID = "joltgym/HalfCheetah-v0"


def actions_for(seed: int, steps: int, num_envs: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-1, 1, (steps, num_envs, 6)).astype(np.float32)


def run(venv, actions, seed=0):
    obs, _ = venv.reset(seed=seed)
    out = [obs]
    for a in actions:
        obs, rew, term, trunc, _ = venv.step(a)
        out += [obs, rew[:, None], term[:, None], trunc[:, None]]
    return np.concatenate([flat(x).astype(np.float64).reshape(len(rew), -1) for x in out], axis=1)


def test_make_vec_returns_native_vector_env_with_batched_spaces():
    venv = gym.make_vec(ENV_ID, num_envs=8)
    assert isinstance(venv, JoltVectorEnv)
    assert venv.num_envs == 8
    assert venv.single_observation_space.shape == (17,)
    assert venv.observation_space.shape == (8, 17) and venv.action_space.shape == (8, 6)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert venv.spec is not None and venv.spec.id == ENV_ID  # make_vec could write it
    obs, info = venv.reset(seed=1)
    assert obs.shape == (8, 17) and obs.dtype == np.float32
    obs, rew, term, trunc, info = venv.step(venv.action_space.sample())
    assert rew.shape == (8,) and term.dtype == np.bool_ and trunc.dtype == np.bool_
    for key in ("x_position", "x_velocity", "reward_forward", "reward_ctrl"):
        assert info[key].shape == (8,) and info["_" + key].all()
    venv.close()


def test_make_vec_passes_task_kwargs_and_max_episode_steps():
    venv = gym.make_vec(ENV_ID, num_envs=3, max_episode_steps=7, ctrl_cost_weight=0.0, reset_noise_scale=0.0)
    venv.reset(seed=0)
    for step in range(1, 8):
        _, rew, term, trunc, info = venv.step(np.ones((3, 6), np.float32))
        assert (info["reward_ctrl"] == 0.0).all()
        assert trunc.all() == (step == 7)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_python_vectorization_modes_still_work(mode):
    venv = gym.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode)
    venv.reset(seed=0)
    obs, *_ = venv.step(np.zeros((2, 6), np.float32))
    assert obs.shape == (2, 17)
    venv.close()


@pytest.mark.parametrize("threads", [2, 3])
def test_results_identical_for_any_thread_count(threads):
    actions = actions_for(0, 150, 5)
    one = run(JoltVectorEnv(5, num_threads=1, max_episode_steps=60), actions, seed=3)
    many = run(JoltVectorEnv(5, num_threads=threads, max_episode_steps=60), actions, seed=3)
    np.testing.assert_array_equal(one, many)


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_gives_the_same_episodes_for_any_thread_count_and_on_a_second_reset(task):
    # Through autoresets (30-step episodes) and random actions over each task's whole action range.
    space = JoltVectorEnv(1, task=task).single_action_space
    actions = np.random.default_rng(1).uniform(space.low, space.high, (70, 4, space.shape[0])).astype(np.float32)
    runs = []
    for threads in (1, 2, 3):
        venv = JoltVectorEnv(4, task=task, num_threads=threads, max_episode_steps=30)
        runs.append(run(venv, actions, seed=7))
        if threads == 1:
            runs.append(run(venv, actions, seed=7))  # the same env reset again
        venv.close()
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0], other)


def test_pool_runs_the_single_env_task_logic():
    """Same task code: with no reset noise the pool and the single env agree bit for bit."""
    actions = actions_for(1, 40, 2)
    venv = JoltVectorEnv(2, reset_noise_scale=0.0)
    single = gym.make(ENV_ID, reset_noise_scale=0.0).unwrapped
    vobs, _ = venv.reset(seed=0)
    sobs, _ = single.reset(seed=0)
    np.testing.assert_array_equal(vobs[1], sobs)
    for a in actions:
        vobs, vrew, *_ , vinfo = venv.step(a)
        sobs, srew, *_, sinfo = single.step(a[1])
        np.testing.assert_array_equal(vobs[1], sobs)
        assert vrew[1] == pytest.approx(srew, rel=1e-6, abs=1e-7)
        assert vinfo["x_position"][1] == pytest.approx(sinfo["x_position"], rel=1e-6)


def test_seed_int_gives_env_i_seed_plus_i():
    venv = JoltVectorEnv(4)
    obs_int, _ = venv.reset(seed=10)
    obs_list, _ = venv.reset(seed=[11, 12, 13, 10])
    np.testing.assert_array_equal(obs_list[:3], obs_int[1:])
    np.testing.assert_array_equal(obs_list[3], obs_int[0])


def test_unseeded_resets_continue_each_stream_deterministically():
    a, b = JoltVectorEnv(3), JoltVectorEnv(3)
    a.reset(seed=5)
    b.reset(seed=5)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    assert not np.array_equal(a.reset()[0], a.reset(seed=5)[0])


def test_seed_list_of_wrong_length_and_bad_seeds():
    venv = JoltVectorEnv(3)
    with pytest.raises(ValueError, match="3 entries"):
        venv.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="non-negative"):
        venv.reset(seed=[1, -2, 3])
    with pytest.raises(TypeError, match="seed"):
        venv.reset(seed="0")


def test_next_step_autoreset_semantics():
    venv = JoltVectorEnv(2, max_episode_steps=5)
    venv.reset(seed=0)
    a = np.zeros((2, 6), np.float32)
    for _ in range(5):
        obs, rew, term, trunc, info = venv.step(a)
    assert trunc.all() and not term.any()
    obs, rew, term, trunc, info = venv.step(np.ones((2, 6), np.float32))  # this action is ignored
    np.testing.assert_array_equal(rew, 0.0)
    assert not term.any() and not trunc.any()
    assert info["_x_position"].all() and not info["_x_velocity"].any()  # reset info only
    # the reset obs is a proper initial state: near qpos0, velocities small
    assert np.abs(obs[:, :8]).max() < 0.11 + 1e-6
    for _ in range(5):
        obs, *_ = venv.step(a)
    assert not np.isnan(obs).any()


def test_same_step_autoreset_provides_final_obs():
    venv = JoltVectorEnv(3, max_episode_steps=4, autoreset_mode=AutoresetMode.SAME_STEP)
    assert venv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    venv.reset(seed=0)
    a = np.zeros((3, 6), np.float32)
    for _ in range(3):
        obs_before, *_ = venv.step(a)
        assert "final_obs" not in _[-1]
    obs, rew, term, trunc, info = venv.step(a)
    assert trunc.all()
    assert info["_final_obs"].all() and info["_final_info"].all()
    for i in range(3):
        assert info["final_obs"][i].shape == (17,)
        assert not np.array_equal(info["final_obs"][i], obs[i])  # obs is already the reset obs
    assert set(info["final_info"]) >= {"x_velocity", "_x_velocity"}
    assert not info["_x_velocity"].any()  # the step's info moved to final_info


def test_disabled_autoreset_requires_masked_reset():
    venv = JoltVectorEnv(3, max_episode_steps=2, autoreset_mode=AutoresetMode.DISABLED)
    venv.reset(seed=0)
    a = np.zeros((3, 6), np.float32)
    venv.step(a)
    *_, trunc, _ = venv.step(a)
    assert trunc.all()
    with pytest.raises(ValueError, match=r"env\(s\) 0, 1, 2 .*reset_mask"):
        venv.step(a)
    mask = np.array([True, False, True])
    options = {"reset_mask": mask}
    obs, info = venv.reset(options=options)
    assert options == {"reset_mask": mask}  # caller's options untouched
    np.testing.assert_array_equal(info["_x_position"], mask)
    with pytest.raises(ValueError, match=r"env\(s\) 1 "):
        venv.step(a)
    venv.reset(options={"reset_mask": np.array([False, True, False])})
    venv.step(a)


@pytest.mark.parametrize("mask", [np.array([1, 0, 1]), np.array([True, False]), np.zeros(3, bool), [True] * 3])
def test_bad_reset_masks(mask):
    with pytest.raises(ValueError, match="reset_mask"):
        JoltVectorEnv(3).reset(options={"reset_mask": mask})


def test_action_errors_name_the_problem():
    venv = JoltVectorEnv(4)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions has shape \(4, 5\), expected \(4, 6\)"):
        venv.step(np.zeros((4, 5), np.float32))
    with pytest.raises(TypeError, match="actions"):
        venv.step(np.full((4, 6), "a"))
    bad = np.zeros((4, 6), np.float32)
    bad[1, 2] = np.nan
    bad[3, 0] = np.inf
    with pytest.raises(ValueError, match=r"env\(s\) 1, 3"):
        venv.step(bad)
    obs, *_ = venv.step(np.zeros((4, 6), np.float64))  # other float dtypes convert
    assert obs.dtype == np.float32


@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_bad_num_envs(n):
    with pytest.raises(ValueError, match="num_envs"):
        JoltVectorEnv(n)


def test_close_is_idempotent_and_step_after_close_fails():
    venv = JoltVectorEnv(2)
    venv.reset(seed=0)
    venv.close()
    venv.close()
    assert venv.closed
    with pytest.raises(gym.error.ClosedEnvironmentError):
        venv.step(np.zeros((2, 6), np.float32))


def test_returned_observations_are_copies_unless_asked():
    venv = JoltVectorEnv(2)
    first, _ = venv.reset(seed=0)
    second, *_ = venv.step(np.zeros((2, 6), np.float32))
    assert not np.shares_memory(first, second)
    fast = JoltVectorEnv(2, copy=False)
    a, _ = fast.reset(seed=0)
    b, *_ = fast.step(np.zeros((2, 6), np.float32))
    assert np.shares_memory(a, b)


def test_returned_arrays_stay_the_callers_through_later_steps_and_resets():
    """Each step's observations, rewards, flags and info arrays are new: later steps, autoresets
    and a partial reset leave the ones a caller kept (e.g. in a rollout buffer) as they were."""
    venv = JoltVectorEnv(3, task="Hopper", max_episode_steps=20)
    obs, _ = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    kept = []
    for step in range(45):  # through two truncations, each followed by a NextStep reset
        out = venv.step(rng.uniform(-1, 1, (3, 3)).astype(np.float32))
        kept.append((out, copy.deepcopy(out)))
        if step == 30:
            obs, _ = venv.reset(options={"reset_mask": np.array([True, False, False])})
            assert not np.shares_memory(obs, out[0])
    assert any(out[3].any() for out, _ in kept)  # a truncation
    assert any(not out[4]["_reward_forward"].all() for out, _ in kept)  # a step that reset an env
    for (obs, rewards, terminated, truncated, infos), (obs0, rewards0, terminated0, truncated0, infos0) in kept:
        np.testing.assert_array_equal(obs, obs0)
        assert rewards.dtype == np.float64 and rewards.shape == (3,)
        np.testing.assert_array_equal(rewards, rewards0)
        np.testing.assert_array_equal(terminated, terminated0)
        np.testing.assert_array_equal(truncated, truncated0)
        assert infos.keys() == infos0.keys()
        for key in infos:
            np.testing.assert_array_equal(infos[key], infos0[key])
    masks = [infos[k] for (_, _, _, _, infos), _ in kept for k in infos if k.startswith("_")]
    assert len({id(m) for m in masks}) == len(masks)  # every mask its own array


def test_stock_vector_wrappers_work():
    venv = gym.wrappers.vector.NormalizeObservation(JoltVectorEnv(4))
    venv.reset(seed=0)
    for _ in range(10):
        obs, *_ = venv.step(np.zeros((4, 6), np.float32))
    assert np.isfinite(obs).all()


def test_bare_loop_reference_runs():
    spec = task_spec("HalfCheetah")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    wall, cpu = _native.run_bare_loop(model.native, spec.make_task(model), 2, 5)
    assert wall > 0 and cpu > 0


@pytest.mark.parametrize("task, threads", [("Hopper", 1), ("Humanoid", 1), ("Hopper", 2)])
def test_bare_loop_runs_the_pools_trajectories(task, threads):
    """The pool-efficiency reference does the pool's work: with the same seed and actions its
    envs end where JoltVectorEnv's do, through terminations, truncations and NextStep resets,
    with the action batches cycled across calls."""
    n, steps, limit = 10, 90, 25  # 10 envs: a world of 8 and one of 2; Hopper falls, Humanoid is truncated
    env = JoltVectorEnv(n, task=task, num_threads=1, max_episode_steps=limit)
    env.reset(seed=3)
    space = env.single_action_space
    actions = np.random.default_rng(0).uniform(space.low, space.high, (4, n, space.shape[0])).astype(np.float32)
    ends = 0
    for s in range(steps):
        obs, _, terminated, truncated, _ = env.step(actions[s % 4])
        ends += int(terminated.sum() + truncated.sum())
    env.close()
    assert ends > n  # several episodes ended and were reset along the way
    spec = task_spec(task)
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    loop = _native.BareLoop(model.native, spec.make_task(model), n, max_episode_steps=limit, seed=3)
    loop.run(actions, 42, num_threads=threads)
    loop.run(np.roll(actions, -42, axis=0), steps - 42, num_threads=threads)  # step 42 continues with batch 42 % 4
    np.testing.assert_array_equal(loop.observations, obs)


def test_bare_loop_refuses_bad_actions():
    spec = task_spec("HalfCheetah")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    loop = _native.BareLoop(model.native, spec.make_task(model), 2)
    actions = np.zeros((3, 2, 6), np.float32)
    actions[1, 0, 4] = np.nan
    with pytest.raises(ValueError, match=r"non-finite value .* flat index 16"):
        loop.run(actions, 5)
    with pytest.raises(ValueError, match=r"actions has shape \(2, 5\), expected \(2, 6\)"):
        loop.run(np.zeros((2, 5), np.float32), 1)
    with pytest.raises(ValueError, match="steps must be >= 0"):
        loop.run(np.zeros((2, 6), np.float32), -1)
    with pytest.raises(ValueError, match="num_threads must be >= 1"):
        loop.run(np.zeros((2, 6), np.float32), 1, num_threads=0)
    with pytest.raises(ValueError, match="num_envs must be >= 1"):
        _native.BareLoop(model.native, spec.make_task(model), 0)


def test_native_pool_conveniences():
    spec = task_spec("HalfCheetah")
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    pool = _native.WorldPool(model.native, spec.make_task(model), 3, num_threads=2, max_episode_steps=1000)
    obs = pool.reset_all(seed=4)
    assert obs.shape == (3, 17)
    np.testing.assert_array_equal(pool.reset_one(0, seed=5), obs[1])  # env 1 had seed 4 + 1
    obs, rewards, terminated, truncated = pool.step_all(np.zeros((3, 6), np.float32))
    assert obs.shape == (3, 17) and rewards.shape == (3,) and not terminated.any() and not truncated.any()
    with pytest.raises(IndexError):
        pool.reset_one(3)
