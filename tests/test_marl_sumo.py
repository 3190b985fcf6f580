"""Sumo's rules, rewards and observations, driven by placing the robots where a rule must fire."""

from __future__ import annotations

import numpy as np
import pettingzoo
import pytest

import joltgym  # noqa: F401
from joltgym.marl.arena import ArenaEnv

ZERO = np.zeros(8, np.float32)


def sumo_ants(**kwargs) -> ArenaEnv:
    return ArenaEnv("SumoAnts", ("ant.xml",), "Ant", **kwargs)


def place(env: ArenaEnv, agent: int, xyz, upside_down: bool = False) -> None:
    """Put an ant's torso at xyz (arena frame), at rest in its rest pose."""
    robot = env._env.robots[agent]
    qpos = env.models[0].init_qpos.astype(np.float32)
    qpos[:3] = xyz
    if upside_down:
        qpos[3:7] = (0.0, 1.0, 0.0, 0.0)
    robot.set_state(qpos, np.zeros(env.models[0].nv, np.float32))


def step_zero(env, steps=1):
    for _ in range(steps):
        out = env.step({a: ZERO for a in env.agents})
        if not env.agents:
            return out
    return out


def test_leaving_the_ring_loses_and_the_other_wins_only_after_contact():
    env = sumo_ants(ring_radius_range=(3.0, 3.0))
    env.reset(seed=0)
    place(env, 0, (0.0, 0.0, 0.75))
    place(env, 1, (3.5, 0.0, 0.75))  # outside the ring, never touched
    _, rewards, terminated, _, infos = step_zero(env)
    assert terminated == {"agent_0": True, "agent_1": True} and env.agents == []
    assert infos["agent_1"]["lost"] == 1 and infos["agent_0"]["winner"] == 0 and infos["agent_0"]["touched"] == 0
    assert infos["agent_1"]["reward_sparse"] == -1000 and infos["agent_0"]["reward_sparse"] == 0

    env.reset(seed=0)
    place(env, 0, (0.0, 0.0, 0.75))
    place(env, 1, (0.0, 0.0, 1.5))  # dropped onto the other: they touch
    step_zero(env, 10)
    assert env.agents, "nobody lost yet"
    place(env, 1, (3.5, 0.0, 0.75))
    _, rewards, _, _, infos = step_zero(env)
    assert infos["agent_0"]["touched"] == 1 and infos["agent_0"]["winner"] == 1
    assert infos["agent_0"]["reward_sparse"] == 1000 and infos["agent_1"]["reward_sparse"] == -1000


def test_a_fallen_robot_loses_and_the_win_can_skip_contact():
    env = sumo_ants(win_needs_contact=False)
    env.reset(seed=1)
    place(env, 0, (-1.0, 0.0, 0.75))
    place(env, 1, (1.0, 0.0, 0.4), upside_down=True)
    _, _, _, _, infos = step_zero(env, 40)
    assert infos["agent_1"]["lost"] == 1 and infos["agent_0"]["winner"] == 1 and infos["agent_0"]["touched"] == 0


def test_the_time_limit_is_a_draw():
    env = sumo_ants(max_steps=5, draw_reward=-7.0)
    env.reset(seed=2)
    for step in range(5):
        _, rewards, terminated, truncated, infos = env.step({a: ZERO for a in env.agents})
        assert all(terminated.values()) == (step == 4) and not any(truncated.values())
    assert all(infos[a]["draw"] == 1 and infos[a]["reward_sparse"] == -7 for a in infos)


def test_reward_is_sparse_plus_weighted_shaping_and_the_weight_anneals():
    env = sumo_ants(shaping_weight=0.5)
    assert env.shaping_weight == 0.5
    env.reset(seed=3)
    action = {a: np.full(8, 0.5, np.float32) for a in env.agents}
    _, rewards, _, _, infos = env.step(action)
    for agent, info in infos.items():
        assert rewards[agent] == pytest.approx(info["reward_sparse"] + 0.5 * info["reward_shaping"], rel=1e-6)
        parts = info["reward_center"] + info["reward_survive"] + info["reward_ctrl"] + info["reward_contact"]
        parts += info["reward_approach"] + info["reward_push"]
        assert info["reward_shaping"] == pytest.approx(parts, rel=1e-6)
        assert info["reward_ctrl"] == pytest.approx(-0.1 * 8 * 0.25)
        assert info["reward_survive"] == 5.0
    env.shaping_weight = 0.0
    env.reset(seed=3)  # the weight outlives resets
    _, rewards, _, _, infos = env.step(action)
    assert env.shaping_weight == 0.0 and all(rewards[a] == infos[a]["reward_sparse"] for a in rewards)


def test_starts_face_each_other_across_a_random_diameter_of_a_random_ring():
    env = sumo_ants(start_distance=1.15)
    radii, headings = [], []
    for seed in range(8):
        obs, infos = env.reset(seed=seed)
        state = env.state()
        a, b = state[:2], state[29:31]  # each ant's qpos[0:2]
        assert np.linalg.norm(a - b) == pytest.approx(2.3, abs=0.3)
        assert np.linalg.norm(a + b) < 0.3  # opposite ends of a diameter
        for agent, o in obs.items():
            rel_pos = o[105 + 2 : 105 + 5]
            # Straight ahead, up to the yaw that Ant-v5's reset noise gives each torso.
            assert rel_pos[0] > 1.9 and abs(np.arctan2(rel_pos[1], rel_pos[0])) < np.radians(25)
            assert o[105 + 14] == infos[agent]["ring_radius"]
        radii.append(infos["agent_0"]["ring_radius"])
        headings.append(np.arctan2(*(b - a)[::-1]))
    assert 2.5 <= min(radii) and max(radii) <= 4.5 and np.ptp(radii) > 0.5
    assert np.ptp(headings) > 1.0


def test_the_robots_collide():
    env = sumo_ants()
    env.reset(seed=4)
    place(env, 0, (0.0, 0.0, 0.75))
    place(env, 1, (0.0, 0.0, 1.5))
    step_zero(env, 30)
    lower, upper = env.state()[2], env.state()[29 + 2]
    # Torsos are spheres of radius 0.25: resting on the lower ant keeps the upper one's torso
    # well above it, where an ant on the floor rests at about 0.36 m.
    assert upper - lower > 0.4, "the upper ant rests on the lower one"


def test_sumo_humanoids_rules_and_sizes():
    env = pettingzoo.make("parallel", "joltgym/SumoHumanoids-v0")
    obs, infos = env.reset(seed=0)
    assert obs["agent_0"].shape == (348 + 18,) and env.state_space.shape == (2 * (24 + 23) + 3,)
    assert 1.5 <= infos["agent_0"]["ring_radius"] <= 3.5
    for _ in range(200):  # limp humanoids fall within a few dozen steps
        _, _, terminated, _, infos = env.step({a: np.zeros(17, np.float32) for a in env.agents})
        if all(terminated.values()):
            break
    assert any(infos[a]["lost"] for a in infos)


def test_bad_sumo_arguments():
    with pytest.raises(ValueError, match="ring_radius_range must start beyond start_distance"):
        sumo_ants(ring_radius_range=(1.0, 2.0), start_distance=1.5)
    with pytest.raises(ValueError, match="ring_radius_range must be an ordered"):
        sumo_ants(ring_radius_range=(4.0, 3.0))
    with pytest.raises(TypeError, match="valid keyword arguments: ring_radius_range"):
        sumo_ants(ring_size=3.0)


def test_approach_and_push_shaping_are_off_by_default_and_measure_the_torsos():
    env = sumo_ants()
    env.reset(seed=5)
    _, _, _, _, infos = env.step({a: np.zeros(8, np.float32) for a in env.agents})
    assert all(infos[a]["reward_approach"] == 0.0 and infos[a]["reward_push"] == 0.0 for a in infos)
    env = sumo_ants(approach_weight=2.0, push_weight=3.0)
    env.reset(seed=5)
    _, _, _, _, infos = env.step({a: np.zeros(8, np.float32) for a in env.agents})
    torso = [env.state()[0:2], env.state()[29:31]]  # each robot's qpos starts with its torso's x, y
    gap = np.linalg.norm(torso[0] - torso[1])
    for i, agent in enumerate(("agent_0", "agent_1")):
        assert infos[agent]["reward_approach"] == pytest.approx(-2.0 * gap, rel=1e-4)
        assert infos[agent]["reward_push"] == pytest.approx(3.0 * np.linalg.norm(torso[1 - i]), rel=1e-4)


def test_the_ring_radius_scale_knob_scales_the_rings_of_later_resets_within_its_bounds():
    env = sumo_ants()
    assert env.knobs == {"shaping_weight": 1.0, "ring_radius_scale": 1.0}
    env.set_knob("ring_radius_scale", 0.5)  # a curriculum's small first rings
    radii = [env.reset(seed=seed)[1]["agent_0"]["ring_radius"] for seed in range(8)]
    assert 1.25 <= min(radii) and max(radii) <= 2.25 and np.ptp(radii) > 0.25
    obs, infos = env.reset(seed=0)
    assert obs["agent_0"][105 + 14] == infos["agent_0"]["ring_radius"]  # observed as drawn
    # A robot 1.15 m from the centre is outside a ring of 2.5 * 0.45: the bound keeps starts inside.
    (name, initial, low, high), = [k for k in env.task.knobs if k[0] == "ring_radius_scale"]
    assert initial == 1.0 and low == pytest.approx(1.15 / 2.5) and high == np.inf
    with pytest.raises(ValueError, match=r"ring_radius_scale must be a finite value in \[0.46"):
        env.set_knob("ring_radius_scale", 0.45)
    with pytest.raises(ValueError, match="ring_radius_scale must be a finite value"):
        env.set_knob("ring_radius_scale", float("nan"))
    with pytest.raises(KeyError, match="has no knob 'ring_size'"):
        env.set_knob("ring_size", 1.0)
    with pytest.raises(ValueError, match="ring_radius_scale must be a finite value"):
        sumo_ants(ring_radius_scale=0.1)
    assert env.knobs["ring_radius_scale"] == 0.5  # a refused value changes nothing
