"""Every registered multi-agent env against PettingZoo's own API, seed, max_cycles and state tests,
in its parallel and AEC forms; registry, module convention and bad input."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, state_test

import joltgym
from joltgym.marl import FactoredEnv
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from test_marl_factored import SCENARIOS

IDS = [spec.env_id for spec in MULTI_AGENT_TASKS.values()]
README = Path(__file__).resolve().parents[1] / "README.md"


def module_of(env_id: str):
    name = env_id.removeprefix("joltgym/").removesuffix("-v0")
    return importlib.import_module(f"joltgym.marl.{MULTI_AGENT_TASKS[name].module}")


@pytest.mark.parametrize("env_id", IDS)
def test_parallel_api(env_id):
    parallel_api_test(pettingzoo.make("parallel", env_id, max_cycles=60), num_cycles=200)


@pytest.mark.parametrize("scenario, conf", SCENARIOS)
def test_parallel_api_for_every_conf(scenario, conf):
    parallel_api_test(FactoredEnv(scenario, conf, max_cycles=30), num_cycles=60)


@pytest.mark.parametrize("env_id", IDS)
def test_aec_api_and_state(env_id):
    module = module_of(env_id)
    api_test(module.env(max_cycles=40), num_cycles=80)
    state_test(module.env(max_cycles=20), module.parallel_env(max_cycles=20))


@pytest.mark.parametrize("env_id", IDS)
def test_max_cycles(env_id):
    max_cycles_test(module_of(env_id))


@pytest.mark.parametrize("env_id", IDS)
def test_seeds(env_id):
    parallel_seed_test(lambda: pettingzoo.make("parallel", env_id), num_cycles=20)


def rollout(env, seed: int, steps: int) -> list:
    """Observations, rewards and infos of a seeded episode with seeded random actions."""
    record = [env.reset(seed=seed)]
    for agent in env.possible_agents:
        env.action_space(agent).seed(seed)
    for _ in range(steps):
        if not env.agents:
            break
        record.append(env.step({agent: env.action_space(agent).sample() for agent in env.agents}))
    return record


def assert_same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            assert_same(a[key], b[key])
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("env_id", IDS)
def test_same_seed_same_episode_over_many_steps(env_id):
    """PettingZoo 1.27.0's parallel_seed_test stops after its first step; this one does not."""
    first = rollout(pettingzoo.make("parallel", env_id), seed=3, steps=120)
    again = rollout(pettingzoo.make("parallel", env_id), seed=3, steps=120)
    assert len(first) > 5
    assert_same(first, again)
    other = rollout(pettingzoo.make("parallel", env_id), seed=4, steps=5)
    assert not np.array_equal(other[0][0]["agent_0"], first[0][0]["agent_0"])


def test_registry_and_module_convention():
    assert set(joltgym.multi_agent_ids()) == set(IDS)
    for env_id in IDS:
        assert env_id in pettingzoo.parallel_registry and env_id in pettingzoo.aec_registry
        assert pettingzoo.spec("parallel", env_id).max_cycles == MULTI_AGENT_TASKS[
            env_id.removeprefix("joltgym/").removesuffix("-v0")
        ].max_cycles
        module = module_of(env_id)
        assert {"parallel_env", "env", "raw_env"} <= set(vars(module))
    env = pettingzoo.make("parallel", "joltgym/MaAnt-v0", agent_conf="4x2", max_cycles=-1)
    assert env.possible_agents == ["agent_0", "agent_1", "agent_2", "agent_3"] and env.max_cycles == 1000
    assert pettingzoo.make("parallel", "joltgym/MaAnt-v0", max_cycles=7).max_cycles == 7


def test_readme_lists_every_multi_agent_id():
    listed = set(re.findall(r"^\| `(joltgym/[A-Za-z0-9]+-v\d+)` \| [0-9]+ agents", README.read_text(), flags=re.MULTILINE))
    assert listed == set(IDS)


def test_finished_agents_leave_with_their_last_step():
    env = FactoredEnv("Hopper", "3x1")
    env.reset(seed=0)
    for _ in range(1000):
        obs, rewards, terminated, truncated, infos = env.step({a: np.zeros(1, np.float32) for a in env.agents})
        assert obs.keys() == rewards.keys() == terminated.keys() == set(env.possible_agents)
        if any(terminated.values()):
            break
    assert all(terminated.values()) and env.agents == []
    with pytest.raises(ValueError, match="every agent is done: call reset"):
        env.step({})


@pytest.mark.parametrize(
    "actions, error, message",
    [
        ({"agent_0": np.zeros(3)}, ValueError, r"missing for playing agent\(s\) \['agent_1'\]"),
        ({"agent_0": np.zeros(3), "agent_1": np.zeros(3), "agent_7": np.zeros(3)}, ValueError, "unknown agent 'agent_7'"),
        ({"agent_0": np.zeros(3), "agent_1": np.zeros(4)}, ValueError, r"action of agent_1 has shape \(4,\), expected \(3,\)"),
        ({"agent_0": np.zeros(3), "agent_1": ["a", "b", "c"]}, TypeError, "action of agent_1 must be numeric"),
        ({"agent_0": np.zeros(3), "agent_1": [0, np.nan, 0]}, ValueError, "action of agent_1 contains a non-finite value"),
        ([np.zeros(3), np.zeros(3)], TypeError, "actions must be a dict"),
    ],
)
def test_bad_actions_name_the_agent(actions, error, message):
    env = FactoredEnv("HalfCheetah", "2x3")
    env.reset(seed=0)
    state = env.state()
    with pytest.raises(error, match=message):
        env.step(actions)
    np.testing.assert_array_equal(env.state(), state)  # nothing was stepped


def test_actions_for_a_finished_agent_are_refused():
    env = FactoredEnv("Hopper", "3x1", max_cycles=1)
    env.reset(seed=0)
    env.step({a: np.zeros(1) for a in env.agents})
    env.reset(seed=0)
    env.agents = ["agent_0", "agent_1"]  # as if agent_2 had finished
    with pytest.raises(ValueError, match="name 'agent_2', which is done"):
        env.step({a: np.zeros(1) for a in env.possible_agents})


def test_bad_max_cycles():
    with pytest.raises(ValueError, match="max_cycles must be >= 1"):
        FactoredEnv("HalfCheetah", "2x3", max_cycles=0)
    with pytest.raises(TypeError, match="max_cycles must be an int"):
        FactoredEnv("HalfCheetah", "2x3", max_cycles=2.5)


def test_render_takes_rllibs_argument_and_observation_spaces_are_stable():
    env = FactoredEnv("Swimmer", "2x1")
    env.reset(seed=0)
    assert env.render() is None and env.render("rgb_array") is None
    assert env.observation_space("agent_0") is env.observation_space("agent_0")
