"""Several Python threads on joltgym envs: never a crash, and each env's results as if called in turn.

Native steps release the GIL, so two threads can enter one env at once; every native env
serialises its calls with a lock of its own. With zero actions the order of the calls does
not matter, so N concurrent steps must leave an env exactly where N steps in a row leave it.
"""

from __future__ import annotations

import threading

import gymnasium as gym
import numpy as np

import joltgym  # noqa: F401  (registers the ids)
from joltgym import _native
from joltgym.model import load_model


def run_in_threads(*jobs) -> None:
    errors: list[BaseException] = []

    def guarded(job):
        try:
            job()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=guarded, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_one_vector_env_stepped_from_two_threads_is_serialised():
    def make():
        env = gym.make_vec("joltgym/Hopper-v0", num_envs=32, num_threads=2)
        env.reset(seed=0)
        return env

    zeros = np.zeros((32, 3), np.float32)
    shared = make()
    results = []
    run_in_threads(*[lambda: results.extend(shared.step(zeros)[0] for _ in range(200))] * 2)
    alone = make()
    for _ in range(400):
        expected = alone.step(zeros)[0]
    np.testing.assert_array_equal(shared.step(zeros)[0], alone.step(zeros)[0])
    assert len(results) == 400 and all(r.shape == expected.shape for r in results)
    shared.close()
    alone.close()


def test_one_single_env_stepped_from_two_threads_is_serialised():
    zeros = np.zeros(3, np.float32)
    shared = gym.make("joltgym/Hopper-v0").unwrapped
    shared.reset(seed=0)
    run_in_threads(*[lambda: [shared.step(zeros) for _ in range(2000)]] * 2)
    alone = gym.make("joltgym/Hopper-v0").unwrapped
    alone.reset(seed=0)
    for _ in range(4000):
        alone.step(zeros)
    np.testing.assert_array_equal(shared.qpos, alone.qpos)
    np.testing.assert_array_equal(shared.qvel, alone.qvel)


def test_reads_and_close_during_steps_on_other_threads():
    env = gym.make_vec("joltgym/Walker2d-v0", num_envs=8, num_threads=2)
    env.reset(seed=1)
    single = gym.make("joltgym/Walker2d-v0").unwrapped
    single.reset(seed=1)
    world = _native.World(load_model("walker2d.xml").native)
    zeros = np.zeros(6, np.float32)

    def step_all():
        for _ in range(300):
            env.step(np.zeros((8, 6), np.float32))
            single.step(zeros)
        world.step(zeros, 50)

    def read_all():
        for _ in range(300):
            assert np.isfinite(single.qpos).all() and np.isfinite(world.qvel).all()
            single.unwrapped._core.observe()
            world.cinert()

    run_in_threads(step_all, read_all, step_all)
    run_in_threads(lambda: env.close(), lambda: env.close())
    assert env.closed


def test_two_envs_in_two_threads_match_each_stepped_alone():
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (300, 16, 6)).astype(np.float32)

    def trajectory(env):
        env.reset(seed=5)
        return [env.step(a)[0] for a in actions]

    alone = [trajectory(gym.make_vec("joltgym/HalfCheetah-v0", num_envs=16, num_threads=1)) for _ in range(2)]
    together: dict[int, list] = {}
    envs = [gym.make_vec("joltgym/HalfCheetah-v0", num_envs=16, num_threads=1) for _ in range(2)]
    run_in_threads(*[lambda i=i: together.__setitem__(i, trajectory(envs[i])) for i in range(2)])
    for i in range(2):
        np.testing.assert_array_equal(np.array(together[i]), np.array(alone[i]))
