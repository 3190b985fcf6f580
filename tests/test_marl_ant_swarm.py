"""AntSwarm: many ants and a box in one world; the team's reward follows the box to the goal."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

import joltgym
from joltgym import _native
from joltgym.marl.arena import ArenaEnv
from joltgym.tasks import task_spec


def swarm(**kwargs) -> ArenaEnv:
    return ArenaEnv("AntSwarm", ("ant.xml", "swarm_box.xml"), "Ant", **kwargs)


def place_box(env: ArenaEnv, xy) -> None:
    box = env._env.robots[-1]
    box.set_state(np.array([xy[0], xy[1], 0.3, 1, 0, 0, 0], np.float32), np.zeros(6, np.float32))


def goal_of(env: ArenaEnv) -> np.ndarray:
    return env.state()[13:15]


@pytest.mark.parametrize("num_ants", [2, 16])
def test_ants_start_apart_around_the_box(num_ants):
    env = swarm(num_ants=num_ants)
    obs, infos = env.reset(seed=0)
    assert len(env.agents) == num_ants and obs["agent_0"].shape == (105 + 16,)
    ants = env.state()[15:].reshape(num_ants, 29)[:, :2]
    gaps = np.linalg.norm(ants[:, None] - ants[None], axis=-1) + np.eye(num_ants) * 99
    assert gaps.min() > 1.7, "no two ants' legs overlap at the start"
    assert infos["agent_0"]["box_distance"] == pytest.approx(5.0, abs=0.01)
    assert np.linalg.norm(goal_of(env)) == pytest.approx(5.0)


def test_the_team_is_paid_for_the_box_moving_to_the_goal_and_for_reaching_it():
    env = swarm(num_ants=3)
    env.reset(seed=1)
    zero = {a: np.zeros(8, np.float32) for a in env.agents}
    goal = goal_of(env)
    place_box(env, 0.4 * goal)  # 2 m closer to the goal, between two steps
    _, rewards, terminated, _, infos = env.step(zero)
    assert infos["agent_0"]["reward_progress"] == pytest.approx(2.0 / 0.05, rel=0.02)
    assert len(set(rewards.values())) == 1 and not any(terminated.values())
    place_box(env, goal + 0.2)
    _, rewards, terminated, _, infos = env.step(zero)
    assert all(terminated.values()) and infos["agent_2"]["success"] == 1
    assert rewards["agent_0"] == pytest.approx(100 + infos["agent_0"]["reward_progress"] + infos["agent_0"]["reward_ctrl"])


def test_ants_and_the_box_collide():
    env = swarm(num_ants=2)
    env.reset(seed=2)
    ant = env._env.robots[0]
    qpos = env.models[0].init_qpos.astype(np.float32)
    qpos[:3] = (0.0, 0.0, 1.3)  # dropped onto the box (0.6 m high)
    ant.set_state(qpos, np.zeros(14, np.float32))
    for _ in range(20):
        env.step({a: np.zeros(8, np.float32) for a in env.agents})
    assert ant.qpos[2] > 0.75, "the ant stands on the box (on the floor its torso rests near 0.56)"


def test_sixteen_ants_in_one_world_step_without_running_out_of_scratch():
    spec = task_spec("Ant")
    ant = joltgym.load_model(spec.xml_file, solver=spec.solver).native
    grid = [(2.0 * (i % 4), 2.0 * (i // 4), 0.0) for i in range(16)]  # leg tips 0.1 m apart: they meet
    world = _native.World([ant] * 16, origins=grid, contacts="always")
    rng = np.random.default_rng(0)
    for _ in range(20):
        world.step(list(rng.uniform(-1, 1, (16, 8)).astype(np.float32)), 5)
    assert all(np.isfinite(r.qpos).all() for r in world.robots)


def test_bad_swarm_arguments():
    with pytest.raises(ValueError, match=r"num_ants must be in \[1, 16\], got 17"):
        swarm(num_ants=17)
    with pytest.raises(ValueError, match="goal_distance must exceed goal_radius"):
        swarm(goal_distance=0.2)
    env = pettingzoo.make("parallel", "joltgym/AntSwarm-v0", num_ants=5)
    assert len(env.possible_agents) == 5
