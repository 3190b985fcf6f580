"""Factorised robots against Gymnasium-Robotics' MaMuJoCo itself: the same agents, actuators and
observation elements for every scenario and conf; and the same trajectory as the single-agent env."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest

import joltgym  # noqa: F401
from joltgym.marl import FactoredEnv

SCENARIOS = [
    ("HalfCheetah", "2x3"),
    ("HalfCheetah", "6x1"),
    ("Ant", "2x4"),
    ("Ant", "2x4d"),
    ("Ant", "4x2"),
    ("Hopper", "3x1"),
    ("Walker2d", "2x3"),
    ("Swimmer", "2x1"),
    ("Reacher", "2x1"),
    ("Humanoid", "9|8"),
    ("HumanoidStandup", "9|8"),
]


class Token:
    """A symbolic element of MuJoCo's data: MaMuJoCo's own code, run on these, says which
    element each entry of its observations is."""

    def __init__(self, name: str):
        self.name = name

    def sin(self):
        return Token(f"sin({self.name})")

    def cos(self):
        return Token(f"cos({self.name})")

    def __sub__(self, other):
        return Token(f"{self.name}-{other.name}")

    # np.clip on tokens keeps the token (clipping is compared separately)
    def __lt__(self, other):
        return False

    __gt__ = __lt__

    def __le__(self, other):
        return True

    __ge__ = __le__


def token_array(name: str, shape) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        out[index] = Token(f"{name}[{','.join(map(str, index))}]")
    return out


class SymbolicData:
    def __init__(self, real):
        for field in ("qpos", "qvel", "qfrc_actuator", "cinert", "cvel", "cfrc_ext"):
            setattr(self, field, token_array(field, np.shape(getattr(real, field))))

    def body(self, name):
        class Body:
            xpos = token_array(f"xpos[{name}]", (3,))

        return Body


def ours_as_theirs(token: str) -> str:
    token = token.removeprefix("clip(").removesuffix(")") if token.startswith("clip(") else token
    if token.startswith("fingertip_dist["):
        k = token[len("fingertip_dist[") : -1]
        return f"xpos[fingertip][{k}]-xpos[target][{k}]"
    return token


@pytest.fixture(scope="module")
def mamujoco():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from gymnasium_robotics import mamujoco_v1
        from gymnasium_robotics.envs.multiagent_mujoco.obsk import build_obs
    return mamujoco_v1, build_obs


@pytest.mark.parametrize("scenario, conf", SCENARIOS)
def test_agents_actuators_and_observation_elements_are_mamujocos(mamujoco, scenario, conf):
    mamujoco_v1, build_obs = mamujoco
    theirs = mamujoco_v1.parallel_env(scenario, conf)
    ours = FactoredEnv(scenario, conf)
    assert ours.possible_agents == theirs.possible_agents
    symbolic = SymbolicData(theirs.single_agent_env.unwrapped.data)
    for i, agent in enumerate(theirs.possible_agents):
        assert ours.agent_action_indices[i] == [int(n.act_ids) for n in theirs.agent_action_partitions[i]]
        expected = [
            t.name
            for t in build_obs(symbolic, theirs.k_dicts[i], theirs.local_categories, theirs.mujoco_globals,
                               theirs.global_categories)
        ]
        assert [ours_as_theirs(t) for t in ours.observation_tokens[i]] == expected, agent
        assert ours.observation_space(agent).shape == theirs.observation_space(agent).shape
        np.testing.assert_array_equal(ours.action_space(agent).low, theirs.action_space(agent).low)
        np.testing.assert_array_equal(ours.action_space(agent).high, theirs.action_space(agent).high)
    if theirs.observation_factorization is not None:
        for agent in theirs.possible_agents:
            np.testing.assert_array_equal(ours.observation_factorization[agent], theirs.observation_factorization[agent])


@pytest.mark.parametrize("obsk", [0, 2])
def test_other_neighbourhood_depths_are_mamujocos(mamujoco, obsk):
    mamujoco_v1, _ = mamujoco
    for scenario, conf in [("HalfCheetah", "6x1"), ("Ant", "4x2"), ("Humanoid", "9|8")]:
        theirs = mamujoco_v1.parallel_env(scenario, conf, agent_obsk=obsk)
        ours = FactoredEnv(scenario, conf, agent_obsk=obsk)
        for agent in ours.possible_agents:
            assert ours.observation_space(agent).shape == theirs.observation_space(agent).shape


@pytest.mark.parametrize("scenario, conf", SCENARIOS)
def test_same_joint_actions_and_seed_give_the_single_agent_trajectory(scenario, conf):
    multi = FactoredEnv(scenario, conf)
    single = gym.make(f"joltgym/{scenario}-v0").unwrapped
    obs, info = multi.reset(seed=11)
    single_obs, single_info = single.reset(seed=11)
    np.testing.assert_array_equal(multi.state(), single_obs)
    assert info[multi.possible_agents[0]].keys() == single_info.keys()
    rng = np.random.default_rng(0)
    for _ in range(30):
        action = rng.uniform(single.action_space.low, single.action_space.high).astype(np.float32)
        actions = multi.map_global_action_to_local_actions(action)
        np.testing.assert_array_equal(multi.map_local_actions_to_global_action(actions), action)
        obs, rewards, terminated, truncated, infos = multi.step(actions)
        single_obs, reward, single_terminated, _, single_info = single.step(action)
        np.testing.assert_array_equal(multi.state(), single_obs)
        for agent in obs:
            assert rewards[agent] == np.float32(reward)
            assert terminated[agent] == single_terminated and not truncated[agent]
            assert infos[agent].keys() == single_info.keys()
        if single_terminated:
            assert multi.agents == []
            break
        if all(f is not None for f in multi.observation_factorization.values()):
            local = multi.map_global_state_to_local_observations(single_obs)
            for agent, values in obs.items():
                unclipped = np.abs(values) < 10  # MaMuJoCo's map reads a clipped rate for an unclipped one
                np.testing.assert_array_equal(values[unclipped], local[agent][unclipped])


def test_state_round_trips_through_the_agents_observations():
    env = FactoredEnv("HalfCheetah", "6x1", agent_obsk=2)
    obs, _ = env.reset(seed=0)
    state = env.state()
    local = env.map_global_state_to_local_observations(state)
    np.testing.assert_array_equal(env.map_local_observations_to_global_state(local), state)
    local["agent_3"][-1] += 1.0  # a global element every agent sees
    with pytest.raises(ValueError, match="disagrees"):
        env.map_local_observations_to_global_state(local)
    with pytest.raises(ValueError, match="agent_1 observes elements that are not in the state"):
        FactoredEnv("Reacher", "2x1").map_global_state_to_local_observations(np.zeros(10))


def test_padded_observations_share_one_space():
    env = FactoredEnv("Humanoid", "9|8", pad_observations=True)
    obs, _ = env.reset(seed=1)
    assert {env.observation_space(a).shape for a in env.possible_agents} == {(242,)}
    assert obs["agent_1"].shape == (242,) and not obs["agent_1"][170:].any()
    unpadded = FactoredEnv("Humanoid", "9|8")
    np.testing.assert_array_equal(unpadded.reset(seed=1)[0]["agent_1"], obs["agent_1"][:170])


def test_bad_configuration():
    with pytest.raises(ValueError, match="unknown scenario 'Pendulum'"):
        FactoredEnv("Pendulum", "2x1")
    with pytest.raises(ValueError, match="HalfCheetah has no agent_conf '3x2'; confs: 2x3, 6x1"):
        FactoredEnv("HalfCheetah", "3x2")
    with pytest.raises(ValueError, match="agent_obsk"):
        FactoredEnv("HalfCheetah", "2x3", agent_obsk=-1)
    with pytest.raises(ValueError, match="local_categories needs agent_obsk \\+ 1 = 3 entries"):
        FactoredEnv("HalfCheetah", "2x3", agent_obsk=2, local_categories=[["qpos"]])
    with pytest.raises(TypeError, match="ctrl_cost"):
        FactoredEnv("HalfCheetah", "2x3", ctrl_cost=1.0)
