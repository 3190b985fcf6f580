"""Exact state save and restore of the multi-agent envs: MultiAgentVectorEnv's get_state /
set_state and the PettingZoo env's, for every multi-agent id, across pools, packings, thread
counts, env kinds and pickling, through autoresets."""

from __future__ import annotations

import pickle

import numpy as np
import pettingzoo
import pytest

import joltgym  # noqa: F401
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv

IDS = [spec.env_id for spec in MULTI_AGENT_TASKS.values()]
N = 3
CYCLES = 15


def actions(env: MultiAgentVectorEnv, steps: int, seed: int) -> np.ndarray:
    shape = (steps, N, env.task.num_agents, env.task.max_act_dim)
    return np.random.default_rng(seed).uniform(-0.4, 0.4, shape).astype(np.float32)


def record(env: MultiAgentVectorEnv, table: np.ndarray) -> list[tuple]:
    out = []
    for a in table:
        obs, rewards, terminated, truncated, infos = env.step(a)
        out.append((obs.copy(), rewards.copy(), terminated.copy(), truncated.copy(), infos["_reset"].copy()))
    return out


@pytest.mark.parametrize("env_id", IDS)
def test_every_multi_agent_id_steps_on_bit_for_bit_from_a_restored_state(env_id):
    original = MultiAgentVectorEnv(env_id, N, num_threads=1, max_cycles=CYCLES)
    original.reset(seed=2)
    record(original, actions(original, 8, seed=0))
    states = pickle.loads(pickle.dumps(original.get_state()))
    later = actions(original, 14, seed=1)  # crosses every env's autoreset at 15
    reference = record(original, later)
    original.close()

    other = MultiAgentVectorEnv(env_id, N, num_threads=2, max_cycles=CYCLES)
    other.reset(seed=9)
    record(other, actions(other, 4, seed=5))
    perm = [1, 2, 1]
    other.set_state([states[r] for r in perm])
    for t, (mine, theirs) in enumerate(zip(reference, record(other, later[:, perm]))):
        for i, r in enumerate(perm):
            for name, a, b in zip(("obs", "rewards", "terminated", "truncated", "reset"), mine, theirs):
                np.testing.assert_array_equal(a[r], b[i], err_msg=f"{env_id}: env {i} (saved from {r}), step {t}, {name}")
    other.close()


@pytest.mark.parametrize("env_id", IDS)
def test_the_pettingzoo_env_restores_its_states_and_a_vector_envs(env_id):
    env = pettingzoo.make("parallel", env_id, max_cycles=CYCLES)
    env.reset(seed=4)
    rng = np.random.default_rng(0)

    def step(e):
        return e.step({a: rng.uniform(-0.4, 0.4, e.action_space(a).shape).astype(np.float32) for a in e.agents})

    for _ in range(5):
        step(env)
    state = env.get_state()
    global_state = env.state()
    rng_state = rng.bit_generator.state
    reference = [step(env) for _ in range(6)]

    twin = pettingzoo.make("parallel", env_id, max_cycles=CYCLES)
    twin.reset(seed=1)
    twin.set_state(pickle.loads(pickle.dumps(state)))
    assert twin.agents == env.possible_agents
    np.testing.assert_array_equal(twin.state(), global_state)
    rng.bit_generator.state = rng_state
    for t, ref in enumerate(reference):
        got = step(twin)
        for part, (a, b) in enumerate(zip(ref, got)):
            assert a.keys() == b.keys()
            for agent in a:
                if part == 4:
                    assert a[agent].keys() == b[agent].keys()
                    continue
                np.testing.assert_array_equal(a[agent], b[agent], err_msg=f"{env_id}: step {t}, part {part}, {agent}")

    vector = MultiAgentVectorEnv(env_id, 2, max_cycles=CYCLES)
    vector.reset(seed=0)
    vector.set_state(state, 1)
    twin.set_state(vector.get_state(1))
    np.testing.assert_array_equal(twin.state(), global_state)


def test_states_of_an_ended_episode_restore_its_agents_and_autoreset():
    env = pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0", max_cycles=3)
    env.reset(seed=0)
    for _ in range(3):
        env.step({a: np.zeros(env.action_space(a).shape, np.float32) for a in env.agents})
    assert env.agents == []
    ended = env.get_state()
    env.reset(seed=1)
    env.set_state(ended)
    assert env.agents == []
    with pytest.raises(ValueError, match="every agent is done"):
        env.step({})

    vector = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 2, max_cycles=3)
    vector.reset(seed=0)
    vector.set_state(ended, 0)
    *_, infos = vector.step(np.zeros((2, vector.task.num_agents, vector.task.max_act_dim), np.float32))
    assert infos["_reset"].tolist() == [True, False]


def test_knobs_stay_the_envs_own():
    env = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 2)
    env.reset(seed=0)
    saved = env.get_state()
    env.set_knob("shaping_weight", 0.25)
    env.set_state(saved)
    assert env.knobs["shaping_weight"] == 0.25


def test_misuse_raises_errors_that_name_it():
    ants = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 2, batch_size=1)
    ants.reset(seed=0)
    swarm = MultiAgentVectorEnv("joltgym/AntSwarm-v0", 1)
    swarm.reset(seed=0)
    with pytest.raises(ValueError, match="not of this env's"):
        swarm.set_state(ants.get_state(0), 0)
    ants.send(np.zeros((1, ants.task.num_agents, ants.task.max_act_dim), np.float32), [0])
    with pytest.raises(ValueError, match=r"env\(s\) 0 .*get_state\(\)"):
        ants.get_state(0)
    ants.get_state(1)  # its world is its own
    single = pettingzoo.make("parallel", "joltgym/SumoAnts-v0")
    with pytest.raises(ValueError, match="reset"):
        single.get_state()
    with pytest.raises(TypeError, match="bytes"):
        single.set_state("not bytes")


def test_an_arena_restores_its_robots_contacts_with_each_other():
    # Sumo's ants start close enough to push each other at once: Jolt's contacts between them
    # (and their warm starts) are in the state.
    kwargs = dict(max_cycles=CYCLES, start_distance=0.45)
    original = MultiAgentVectorEnv("joltgym/SumoAnts-v0", N, num_threads=1, **kwargs)
    original.reset(seed=0)
    record(original, actions(original, 6, seed=0))
    states = original.get_state()
    later = actions(original, 8, seed=1)
    reference = record(original, later)
    other = MultiAgentVectorEnv("joltgym/SumoAnts-v0", N, num_threads=2, **kwargs)
    other.reset(seed=3)
    other.set_state(states)
    for t, (mine, theirs) in enumerate(zip(reference, record(other, later))):
        for name, a, b in zip(("obs", "rewards", "terminated", "truncated", "reset"), mine, theirs):
            np.testing.assert_array_equal(a, b, err_msg=f"step {t}, {name}")
