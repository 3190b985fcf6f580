"""The joint-space solve of multi-hinge bodies (Humanoid's abdomen, hips and shoulders: two or
three hinges about one anchor, gimbal.h), the default of Humanoid and HumanoidStandup. Each hinge
is a rate; its world axis is the one the coordinates before it leave. It must be exact where
joint-by-joint iterations are not, keep every body where its coordinates put it (a two-hinge
body's third rotation stays zero), keep the joints closed whatever Jolt's contacts push, and
give the same results for any thread count."""

from __future__ import annotations

import dataclasses

import gymnasium as gym
import mujoco
import numpy as np
import pytest

import joltgym  # noqa: F401  (registers the ids)
from airborne_states import airborne_states
from joltgym.model import resolve_model_path
from joltgym.tasks import task_spec

HUMANOID = task_spec("Humanoid")
ARTICULATED = HUMANOID.solver
JOINT_BY_JOINT = dataclasses.replace(HUMANOID.solver, articulated_joints=False, velocity_iterations=20,
                                     position_iterations=2, baumgarte=0.5)  # Humanoid's setting before
FRAMES = 3


def test_humanoid_and_standup_solve_in_joint_space():
    assert ARTICULATED.articulated_joints and task_spec("HumanoidStandup").solver.articulated_joints


def final_qvels(solver) -> np.ndarray:
    model = mujoco.MjModel.from_xml_path(str(resolve_model_path(HUMANOID.xml_file)))
    env = gym.make("joltgym/Humanoid-v0", solver=solver, terminate_when_unhealthy=False).unwrapped
    out = []
    for qpos, qvel, action in airborne_states(model, 8, seed=3, height=5.0, joint_speed=3.0, action_bound=0.4):
        env.reset(seed=0)
        env.set_state(qpos, qvel)
        for _ in range(FRAMES):
            env.step(action)
        out.append(env.qvel.copy())
    env.close()
    return np.array(out)


def test_an_airborne_humanoid_is_solved_exactly_in_two_iterations():
    # Only joint rows act in the air. Two joint-space iterations are converged: 0.0016 off their
    # 8-iteration solve (summed |qvel| over 23 dofs, float rounding that grows with the iterations
    # compared: 0.006 at 40, 0.06 at 400); 20 joint-by-joint iterations are 0.11 off their 400.
    off = lambda a, b: float(np.abs(a - b).sum(axis=1).mean())  # noqa: E731
    articulated = off(final_qvels(ARTICULATED), final_qvels(dataclasses.replace(ARTICULATED, velocity_iterations=8)))
    iterated = off(final_qvels(JOINT_BY_JOINT), final_qvels(dataclasses.replace(JOINT_BY_JOINT, velocity_iterations=400)))
    assert articulated < 0.05 * iterated, (articulated, iterated)


def rotation_between(q: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Angle (rad) of each rotation q^-1 p, quaternions (w, x, y, z) per row: from the vector part
    of the product, which float32 keeps to ~1e-7 where the dot product's arccos would not."""
    q, p = q.astype(np.float64), p.astype(np.float64)
    w1, v1, w2, v2 = q[:, :1], q[:, 1:], p[:, :1], p[:, 1:]
    vector = w1 * v2 - w2 * v1 - np.cross(v1, v2)
    return 2.0 * np.arcsin(np.clip(np.linalg.norm(vector, axis=1), 0.0, 1.0))


def pose_off_its_coordinates(solver, task: str = "Humanoid", steps: int = 300) -> float:
    """After random actions, how far the bodies are (m, or rad of rotation) from where their own
    qpos puts them (forward kinematics of a second env): a two-hinge body's third rotation or an
    open anchor shows here."""
    env = gym.make(f"joltgym/{task}-v0", solver=solver).unwrapped
    placed = gym.make(f"joltgym/{task}-v0", solver=solver).unwrapped
    env.reset(seed=4)
    placed.reset(seed=4)
    rng = np.random.default_rng(4)
    worst = 0.0
    for _ in range(steps):
        _, _, terminated, _, _ = env.step(rng.uniform(-0.4, 0.4, env.action_space.shape).astype(np.float32))
        placed.set_state(env.qpos, env.qvel)
        turn = rotation_between(env._core.body_quat(), placed._core.body_quat())
        worst = max(worst, float(turn.max()), float(np.abs(env._core.body_com() - placed._core.body_com()).max()))
        if terminated:
            env.reset()
    return worst


def test_every_body_stays_where_its_coordinates_put_it():
    # Measured: 3.7e-6 (float rounding; the shoulders are two-hinge bodies); joint by joint,
    # whose rows only approach the lock and the anchors, 4.1e-3.
    ours = pose_off_its_coordinates(ARTICULATED)
    assert ours < 1e-4, ours
    assert pose_off_its_coordinates(JOINT_BY_JOINT) > 10 * ours


def test_joints_stay_closed_where_jolts_contacts_push_the_tree():
    # HumanoidStandup starts with its hands 10-16 mm inside its hips; Jolt's contacts push them out
    # after the articulation has placed the tree, so the tree is placed once more after each
    # update in which a body moved after the placement (without it the anchors stood 2-5 mm apart
    # after each reset step).
    env = gym.make("joltgym/HumanoidStandup-v0").unwrapped
    rng = np.random.default_rng(7)
    worst = 0.0
    for episode in range(3):
        env.reset(seed=episode)
        for _ in range(40):
            env.step(rng.uniform(-0.4, 0.4, env.action_space.shape).astype(np.float32))
            worst = max(worst, env._core.max_joint_anchor_error())
    assert worst < 1e-5, worst


@pytest.mark.parametrize("task", ["Humanoid", "HumanoidStandup"])
def test_results_do_not_depend_on_the_thread_count(task):
    def run(threads):
        venv = gym.make_vec(f"joltgym/{task}-v0", num_envs=4, num_threads=threads)
        obs, _ = venv.reset(seed=2)
        out = [obs]
        rng = np.random.default_rng(2)
        for _ in range(40):
            out.append(venv.step(rng.uniform(-0.4, 0.4, (4, 17)).astype(np.float32))[0])
        venv.close()
        return out

    for a, b in zip(run(1), run(2)):
        np.testing.assert_array_equal(a, b)
