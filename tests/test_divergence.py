"""A robot whose physics diverges (an unstable model or action scale) is reported, not passed on
silently: its episode is truncated, info["physics_diverged"] says so, and a RuntimeWarning names
the env. A healthy task never trips it."""

from __future__ import annotations

import re
import warnings

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest
from gymnasium.vector import AutoresetMode

import joltgym  # noqa: F401  (registers the ids)
from joltgym.divergence import DIVERGED_KEY
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.model import resolve_model_path
from joltgym.tasks import TASKS, task_spec
from joltgym.vector import JoltVectorEnv


@pytest.fixture(scope="module")
def runaway_cheetah(tmp_path_factory):
    """HalfCheetah with gears of 1e9 instead of 60-120: full actions spin its links up without bound."""
    xml = resolve_model_path(task_spec("HalfCheetah").xml_file).read_text()
    xml, count = re.subn(r'gear="[^"]*"', 'gear="1e9"', xml)
    assert count == 6
    path = tmp_path_factory.mktemp("runaway") / "half_cheetah_runaway.xml"
    path.write_text(xml)
    return str(path)


def test_a_diverging_single_env_truncates_flags_and_warns(runaway_cheetah):
    env = gym.make("joltgym/HalfCheetah-v0", xml_file=runaway_cheetah)
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="physics diverged"):
        for step in range(1, 6):
            _, _, terminated, truncated, info = env.step(np.ones(6, np.float32))
            if truncated:
                break
    assert truncated and not terminated and info[DIVERGED_KEY] is True
    assert step <= 3, step
    obs, info = env.reset(seed=1)  # the next episode starts clean
    assert np.isfinite(obs).all() and DIVERGED_KEY not in info


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_a_diverging_env_of_a_vector_env_is_flagged_and_truncated_alone(runaway_cheetah, mode):
    venv = JoltVectorEnv(3, xml_file=runaway_cheetah, autoreset_mode=mode)
    venv.reset(seed=0)
    actions = np.zeros((3, 6), np.float32)
    actions[1] = 1.0  # zero actions apply no torque: envs 0 and 2 stay sane
    with pytest.warns(RuntimeWarning, match=r"env\(s\) \[1\]"):
        for _ in range(5):
            obs, _, terminated, truncated, info = venv.step(actions)
            if truncated.any():
                break
    assert truncated.tolist() == [False, True, False] and not terminated.any()
    assert info[DIVERGED_KEY].tolist() == [False, True, False] and info["_" + DIVERGED_KEY].tolist() == [False, True, False]
    if mode == AutoresetMode.SAME_STEP:
        assert info["final_info"][DIVERGED_KEY].tolist() == [False, True, False]
        assert np.isfinite(obs).all()  # env 1 already restarted
    else:
        obs, *_ = venv.step(np.zeros((3, 6), np.float32))  # env 1's reset step
        assert np.isfinite(obs).all()


@pytest.mark.parametrize("task", sorted(TASKS))
def test_healthy_tasks_never_report_divergence_under_full_random_actions(task):
    venv = JoltVectorEnv(4, task=task, max_episode_steps=100)
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    low, high = venv.single_action_space.low, venv.single_action_space.high
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for _ in range(250):
            # Bang-bang actions at the control limits: the hardest a policy can push the model.
            actions = np.where(rng.random(venv.action_space.shape) < 0.5, low, high).astype(np.float32)
            *_, info = venv.step(actions)
            assert DIVERGED_KEY not in info


def test_a_diverging_multi_agent_world_truncates_every_agent_flags_and_warns(runaway_cheetah):
    # MaHalfCheetah runs on the native MultiAgentEnv, as every multi-agent env does: its robot's
    # divergence ends the episode of both agents (the world's state means nothing to either).
    env = pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0", agent_conf="2x3", xml_file=runaway_cheetah)
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="physics diverged"):
        for step in range(1, 6):
            _, _, terminated, truncated, infos = env.step({a: np.ones(3, np.float32) for a in env.agents})
            if any(truncated.values()):
                break
    assert step <= 3, step
    assert truncated == {"agent_0": True, "agent_1": True} and not any(terminated.values())
    assert all(infos[a][DIVERGED_KEY] is True for a in ("agent_0", "agent_1"))
    assert env.agents == []
    obs, infos = env.reset(seed=1)
    assert all(np.isfinite(o).all() for o in obs.values()) and not any(DIVERGED_KEY in i for i in infos.values())


def test_a_diverging_world_of_a_multi_agent_vector_env_is_flagged_and_truncated_alone(runaway_cheetah):
    venv = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 3, num_threads=2, agent_conf="2x3", xml_file=runaway_cheetah)
    venv.reset(seed=0)
    actions = np.zeros((3, 2, 3), np.float32)
    actions[1] = 1.0  # zero actions apply no torque: worlds 0 and 2 stay sane
    with pytest.warns(RuntimeWarning, match=r"world\(s\) \[1\]"):
        for _ in range(5):
            obs, _, terminated, truncated, infos = venv.step(actions)
            if truncated.any():
                break
    assert truncated.tolist() == [[False, False], [True, True], [False, False]] and not terminated.any()
    assert infos[DIVERGED_KEY].tolist() == [False, True, False]
    obs, *_, infos = venv.step(np.zeros((3, 2, 3), np.float32))  # world 1's reset step
    assert np.isfinite(obs).all() and infos["_reset"].tolist() == [False, True, False] and DIVERGED_KEY not in infos


@pytest.mark.parametrize("env_id", ["joltgym/SumoAnts-v0", "joltgym/SumoHumanoids-v0", "joltgym/AntSwarm-v0"])
def test_shared_worlds_never_report_divergence_under_bang_bang_actions(env_id):
    venv = MultiAgentVectorEnv(env_id, 2, num_threads=1, max_cycles=100)
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    low = np.zeros((venv.task.num_agents, venv.task.max_act_dim), np.float32)
    high = low.copy()
    for i, agent in enumerate(venv.possible_agents):  # each agent's control limits, padded with zeros
        space = venv.action_spaces[agent]
        low[i, : space.shape[0]], high[i, : space.shape[0]] = space.low, space.high
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        for _ in range(150):
            actions = np.where(rng.random((2, *low.shape)) < 0.5, low, high).astype(np.float32)
            *_, infos = venv.step(actions)
            assert DIVERGED_KEY not in infos


def _trajectories(make, actions_of, steps: int = 30) -> list[np.ndarray]:
    env = make()
    env.reset(seed=0)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the diverging env's, checked above
        for i in range(steps):
            obs, _, _, truncated, _ = env.step(actions_of(i))
            out += [obs.copy(), truncated.copy()]
    env.close()
    return out


def test_a_diverging_robot_leaves_the_others_of_its_shared_world_as_if_alone(runaway_cheetah):
    # Env 1 diverges three times over (full actions for 10 steps) in a world it shares with envs 0
    # and 2: their trajectories, and its own resets, must match three worlds of one robot bit for bit.
    def single(i: int) -> np.ndarray:
        actions = np.zeros((3, 6), np.float32)
        actions[1] = 1.0 if i < 10 else 0.0
        return actions

    def multi(i: int) -> np.ndarray:
        return single(i).reshape(3, 2, 3)

    runs = {
        packing: _trajectories(lambda: JoltVectorEnv(3, xml_file=runaway_cheetah, num_threads=1, robots_per_world=packing),
                               single)
        for packing in (1, 3)
    }
    assert sum(t.any() for t in runs[3][1::2]) >= 2  # env 1 diverged and restarted more than once
    for alone, packed in zip(runs[1], runs[3]):
        np.testing.assert_array_equal(alone, packed)
    runs = {
        packing: _trajectories(lambda: MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 3, num_threads=1, agent_conf="2x3",
                                                           xml_file=runaway_cheetah, envs_per_world=packing), multi)
        for packing in (1, 3)
    }
    assert sum(t.any() for t in runs[3][1::2]) >= 2
    for alone, packed in zip(runs[1], runs[3]):
        np.testing.assert_array_equal(alone, packed)
