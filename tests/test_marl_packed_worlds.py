"""Multi-agent envs packed into shared Jolt worlds (envs_per_world), as the single-agent pool packs
robots (test_packed_worlds.py): the factorised robots touch nothing through Jolt, so several envs'
robots share one world and one physics update. Packing is an implementation detail: every result
must be bit-identical for any packing and thread count, resets included, and a packed env renders
as if alone. Arenas, whose robots touch each other, keep a world per env."""

from __future__ import annotations

import numpy as np
import pytest

import joltgym  # noqa: F401
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv

NUM_ENVS = 7
# Short episodes: every env resets several times, the falling robots at different steps in different worlds.
CYCLES = 23
FACTORED = [spec.env_id for spec in MULTI_AGENT_TASKS.values() if spec.entry_point.endswith("FactoredEnv")]
ARENAS = [spec.env_id for spec in MULTI_AGENT_TASKS.values() if not spec.entry_point.endswith("FactoredEnv")]


def trajectory(env_id: str, envs_per_world: int, threads: int) -> list[np.ndarray]:
    env = MultiAgentVectorEnv(env_id, NUM_ENVS, num_threads=threads, envs_per_world=envs_per_world, max_cycles=CYCLES)
    assert env.envs_per_world == envs_per_world
    obs, infos = env.reset(seed=3)
    out = [obs, env.state()]
    rng = np.random.default_rng(1)
    for _ in range(60):
        actions = rng.uniform(-1.0, 1.0, (NUM_ENVS, env.task.num_agents, env.task.max_act_dim)).astype(np.float32)
        obs, rewards, terminated, truncated, infos = env.step(actions)
        out += [obs, env.state(), rewards, terminated, truncated, infos["_reset"], infos["acted"]]
        out += [np.asarray(v) for k, v in sorted(infos.items()) if not k.startswith("_") and k != "acted"]
    env.close()
    return out


@pytest.mark.parametrize("env_id", FACTORED)
def test_results_do_not_depend_on_the_packing_or_the_thread_count(env_id):
    alone = trajectory(env_id, 1, 1)
    for envs_per_world, threads in ((3, 1), (4, 2), (NUM_ENVS, 1)):
        packed = trajectory(env_id, envs_per_world, threads)
        assert len(packed) == len(alone)
        for a, b in zip(alone, packed):
            np.testing.assert_array_equal(a, b, err_msg=f"{env_id}: {envs_per_world} envs per world")


def test_episodes_end_and_restart_inside_shared_worlds():
    # The trajectories above must cover resets of one env while the others of its world play on.
    env = MultiAgentVectorEnv("joltgym/MaHopper-v0", NUM_ENVS, num_threads=1, envs_per_world=NUM_ENVS, max_cycles=CYCLES)
    env.reset(seed=3)
    rng = np.random.default_rng(1)
    resets = []
    for _ in range(60):
        actions = rng.uniform(-1.0, 1.0, (NUM_ENVS, 3, 1)).astype(np.float32)
        resets.append(env.step(actions)[4]["_reset"].copy())
    resets = np.array(resets)
    assert resets.any() and any(0 < row.sum() < NUM_ENVS for row in resets)


def test_the_pool_packs_the_factorised_robots_by_itself_and_keeps_every_thread_busy():
    from joltgym.vector import JoltVectorEnv

    for env_id in FACTORED:  # as many as the single-agent pool packs of the same robot (13 HalfCheetahs, 8 Humanoids)
        robot = env_id.removeprefix("joltgym/Ma").removesuffix("-v0")
        single = JoltVectorEnv(256, task=robot, num_threads=2).robots_per_world
        assert MultiAgentVectorEnv(env_id, 256, num_threads=2).envs_per_world == single > 1, env_id
    assert MultiAgentVectorEnv("joltgym/MaAnt-v0", 6, num_threads=2).envs_per_world == 3  # two worlds, two threads
    assert MultiAgentVectorEnv("joltgym/MaAnt-v0", 1).envs_per_world == 1
    assert MultiAgentVectorEnv("joltgym/MaAnt-v0", 5, envs_per_world=16).envs_per_world == 5
    for env_id in ARENAS:
        assert MultiAgentVectorEnv(env_id, 256, num_threads=2).envs_per_world == 1, env_id


@pytest.mark.parametrize("env_id", ARENAS)
def test_arenas_whose_robots_touch_cannot_be_packed(env_id):
    with pytest.raises(ValueError, match="envs_per_world=2: this task's robots touch bodies through Jolt"):
        MultiAgentVectorEnv(env_id, 4, envs_per_world=2)


def test_bad_envs_per_world_is_named():
    for bad in (0, -1, 2.5, True, "8"):
        with pytest.raises(ValueError, match="envs_per_world must be an integer >= 1 or None"):
            MultiAgentVectorEnv("joltgym/MaAnt-v0", 4, envs_per_world=bad)


def test_a_packed_env_renders_as_if_alone_in_its_world():
    frames = {}
    for envs_per_world in (1, 4):
        env = MultiAgentVectorEnv("joltgym/MaAnt-v0", 4, envs_per_world=envs_per_world, render_mode="rgb_array",
                                  width=96, height=72)
        env.reset(seed=2)
        rng = np.random.default_rng(0)
        for _ in range(5):
            env.step(rng.uniform(-1, 1, (4, 2, 4)).astype(np.float32))
        frames[envs_per_world] = env.render()
        env.close()
    for alone, packed in zip(frames[1], frames[4]):
        np.testing.assert_array_equal(alone, packed)
    assert not np.array_equal(frames[4][0], frames[4][1])  # each env draws its own robot
