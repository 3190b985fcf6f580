"""Every env kind pickles and cloudpickles (SubprocVecEnv, Ray and multiprocessing ship envs so):
the copy is rebuilt from the constructor arguments (and knobs), and from the same seeds and
actions it runs the same trajectory as the original, bit for bit, in this process or another."""

from __future__ import annotations

import multiprocessing
import pickle

import cloudpickle
import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import joltgym  # noqa: F401  (registers the ids)
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.tasks import TASKS
from observations import flat

DUMPS = {"pickle": pickle.dumps, "cloudpickle": cloudpickle.dumps}


def vector_rollout(env, seed: int, steps: int = 40) -> np.ndarray:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = [obs]
    for _ in range(steps):
        obs, *_ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        out.append(obs)
    return np.array(out)


@pytest.mark.parametrize("dumps", list(DUMPS))
@pytest.mark.parametrize("task", ["Hopper", "Ant"])
def test_single_env_round_trip_runs_the_same_episode(task, dumps):
    env = gym.make(f"joltgym/{task}-v0", ctrl_cost_weight=0.2)
    copy = pickle.loads(DUMPS[dumps](env))
    default = gym.make(f"joltgym/{task}-v0")  # shows that the copy kept the constructor's kwarg
    runs = []
    for e in (env, copy, default):
        e.reset(seed=5)
        rng = np.random.default_rng(0)
        steps = [e.step(rng.uniform(-1, 1, e.action_space.shape).astype(np.float32))[:2] for _ in range(40)]
        runs.append((np.array([o for o, _ in steps]), np.array([r for _, r in steps])))
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])
    assert not np.array_equal(runs[0][1], runs[2][1])


@pytest.mark.parametrize("dumps", list(DUMPS))
def test_vector_env_round_trip_runs_the_same_episodes(dumps):
    env = gym.make_vec("joltgym/Walker2d-v0", num_envs=4, num_threads=2, max_episode_steps=25)
    copy = pickle.loads(DUMPS[dumps](env))
    assert (copy.num_envs, copy.max_episode_steps, copy.num_threads) == (4, 25, 2)
    np.testing.assert_array_equal(vector_rollout(env, 3), vector_rollout(copy, 3))  # through an autoreset
    env.close()
    copy.close()


def test_a_closed_vector_env_stays_closed_when_unpickled():
    env = gym.make_vec("joltgym/Hopper-v0", num_envs=2)
    env.close()
    copy = pickle.loads(pickle.dumps(env))
    with pytest.raises(gym.error.ClosedEnvironmentError):
        copy.step(np.zeros((2, 3), np.float32))


def _rollout_in_child(payload: bytes, queue) -> None:
    queue.put(vector_rollout(pickle.loads(payload), 8))


def test_vector_env_unpickled_in_another_process_runs_the_same_episodes():
    env = gym.make_vec("joltgym/HalfCheetah-v0", num_envs=3)
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter, as on a cluster
    queue = ctx.Queue()
    child = ctx.Process(target=_rollout_in_child, args=(pickle.dumps(env), queue))
    child.start()
    theirs = queue.get(timeout=120)
    child.join(timeout=60)
    assert child.exitcode == 0
    np.testing.assert_array_equal(theirs, vector_rollout(env, 8))


@pytest.mark.parametrize("task", sorted(TASKS))
def test_every_task_runs_the_same_episode_after_a_round_trip(task):
    env = gym.make(f"joltgym/{task}-v0")
    copy = pickle.loads(pickle.dumps(env))
    runs = []
    for e in (env, copy):
        obs, _ = e.reset(seed=11)
        rng = np.random.default_rng(2)
        out = [obs]
        for _ in range(30):
            obs, reward, *_ = e.step(rng.uniform(e.action_space.low, e.action_space.high).astype(np.float32))
            out += [obs, [reward]]
        runs.append(np.concatenate([flat(x).astype(np.float64).ravel() for x in out]))
    np.testing.assert_array_equal(runs[0], runs[1])


@pytest.mark.parametrize("env_id", [spec.env_id for spec in MULTI_AGENT_TASKS.values()])
def test_parallel_env_round_trip_runs_the_same_episode(env_id):
    env = pettingzoo.make("parallel", env_id, max_cycles=30)
    copy = cloudpickle.loads(cloudpickle.dumps(env))
    a, _ = env.reset(seed=2)
    b, _ = copy.reset(seed=2)
    rng = np.random.default_rng(0)
    while env.agents:
        actions = {agent: rng.uniform(-1, 1, env.action_space(agent).shape).astype(np.float32) for agent in env.agents}
        a, ra, *_ = env.step(actions)
        b, rb, *_ = copy.step(actions)
        assert a.keys() == b.keys() and ra == rb
        for agent in a:
            np.testing.assert_array_equal(a[agent], b[agent])
    assert not copy.agents


@pytest.mark.parametrize("dumps", list(DUMPS))
def test_parallel_env_round_trip_keeps_its_knobs(dumps):
    env = pettingzoo.make("parallel", "joltgym/SumoAnts-v0").unwrapped
    env.shaping_weight = 0.25
    env.set_knob("ring_radius_scale", 0.75)
    copy = pickle.loads(DUMPS[dumps](env))
    assert copy.knobs == {"shaping_weight": 0.25, "ring_radius_scale": 0.75}
    assert copy.reset(seed=3)[1]["agent_0"]["ring_radius"] == env.reset(seed=3)[1]["agent_0"]["ring_radius"]


def test_multi_agent_vector_env_round_trip_keeps_its_knobs_and_episodes():
    env = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 2, num_threads=1)
    env.shaping_weight = 0.25  # annealed by a training loop: part of what a copy must carry
    env.set_knob("ring_radius_scale", 0.75)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.knobs == {"shaping_weight": 0.25, "ring_radius_scale": 0.75}
    a, _ = env.reset(seed=1)
    b, _ = copy.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = rng.uniform(-1, 1, (2, 2, env.task.max_act_dim)).astype(np.float32)
        a, ra, *_ = env.step(actions)
        b, rb, *_ = copy.step(actions)
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(ra, rb)
