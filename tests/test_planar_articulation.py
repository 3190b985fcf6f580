"""The planar articulated solve (SolverSettings(articulated_joints=True) on a planar model): each
iteration projects a planar tree's velocities onto its joint-space motions, armature/damping
drives and limits included, exactly, and solves the tree's plane contacts in the same joint space.
It must give in a couple of iterations what joint-by-joint iterations converge to, in the air and
on the ground, solve a contact-free arm in one, keep the joints together, give the same
results for any packing and thread count, and refuse the trees it does not solve by name."""

from __future__ import annotations

import dataclasses

import gymnasium as gym
import mujoco
import numpy as np
import pytest

import joltgym
from joltgym.model import compile_mjcf
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv

CHEETAH = task_spec("HalfCheetah")
# The joint-space solve in Jolt's own order (velocity products carried by the projection, damping
# solved with the constraints), at 2 sub-steps x 1 iteration: what the iteration tests below compare
# against joint-by-joint rows, which cannot take MuJoCo's Euler order.
CHEETAH_JOLT_ORDER = dataclasses.replace(CHEETAH.solver, substeps=2, velocity_iterations=1, mujoco_euler=False)
REACHER = task_spec("Reacher")


def cheetah_airborne_qvels(solver, count: int = 10, frames: int = 3) -> np.ndarray:
    """qvel after `frames` env steps from random HalfCheetah states 3 m up (no contact), each
    under a constant random action."""
    env = gym.make("joltgym/HalfCheetah-v0", solver=solver).unwrapped
    rng = np.random.default_rng(11)
    lo, hi = env.model.mj_model.jnt_range[3:, 0], env.model.mj_model.jnt_range[3:, 1]
    out = []
    for _ in range(count):
        env.reset(seed=0)
        qpos = env.init_qpos.copy()
        qpos[1] = 3.0
        qpos[2] = rng.uniform(-0.5, 0.5)
        qpos[3:] = rng.uniform(lo + 0.05, hi - 0.05)
        qvel = np.concatenate([rng.normal(0, 1, 3), rng.normal(0, 5, env.model.nv - 3)])
        env.set_state(qpos, qvel)
        action = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        for _ in range(frames):
            env.step(action)
        out.append(env.qvel.copy())
    env.close()
    return np.array(out)


def cheetah_grounded_qvels(solver, frames: int = 1) -> np.ndarray:
    """qvel after `frames` env steps from ten states of a cheetah flailing on the ground (random
    actions from rest on the converged solve), each under a random action."""
    converged = dataclasses.replace(CHEETAH_JOLT_ORDER, articulated_joints=False, velocity_iterations=400)
    reference = gym.make("joltgym/HalfCheetah-v0", solver=converged).unwrapped
    env = gym.make("joltgym/HalfCheetah-v0", solver=solver).unwrapped
    rng = np.random.default_rng(5)
    reference.reset(seed=1)
    states = []
    for t in range(200):
        reference.step(rng.uniform(-1, 1, 6).astype(np.float32))
        if t % 20 == 19:
            assert reference.qpos[1] < 0.1  # the torso no higher than at rest + 0.23 m: feet on the floor
            states.append((reference.qpos.copy(), reference.qvel.copy()))
    out = []
    for qpos, qvel in states:
        env.reset(seed=0)
        env.set_state(qpos, qvel)
        action = rng.uniform(-1, 1, 6).astype(np.float32)
        for _ in range(frames):
            env.step(action)
        out.append(env.qvel.copy())
    return np.array(out)


# (states, the iterated solve's least distance from its converged solve, the articulated
# solve's largest fraction of it). Each solve is measured against its own converged solve: the
# two place the bodies differently (point rows iterated against the tree placed on its hinges),
# so their converged steps differ too. Airborne, one joint-space iteration is exact (1e-5
# against 0.80). On the ground the foot contacts meet the whole tree's effective mass in joint
# space: 0.14 off at one iteration, 0.03 at two, against 0.88 for 8 joint-by-joint iterations
# (as Jolt rows iterated around the projection the contacts were as far off as those).
CHEETAH_STATES = {"airborne": (cheetah_airborne_qvels, 0.05, 0.01), "grounded": (cheetah_grounded_qvels, 0.3, 0.25)}


@pytest.mark.parametrize("where", CHEETAH_STATES)
def test_a_cheetah_gets_in_its_iterations_what_joint_by_joint_iterations_converge_to(where):
    qvels, least, fraction = CHEETAH_STATES[where]
    off = lambda q, converged: float(np.abs(q - converged).sum(axis=1).mean())  # noqa: E731

    def solve(articulated: bool, iterations: int) -> np.ndarray:
        return qvels(dataclasses.replace(CHEETAH_JOLT_ORDER, articulated_joints=articulated,
                                         velocity_iterations=iterations))

    iterated = off(solve(False, 8), solve(False, 400))
    assert iterated > least, iterated  # the comparison means something
    articulated = off(solve(True, CHEETAH_JOLT_ORDER.velocity_iterations), solve(True, 400))
    assert articulated < fraction * iterated, (articulated, iterated)


def reacher_qvels(solver, steps: int = 20) -> np.ndarray:
    env = gym.make("joltgym/Reacher-v0", solver=solver).unwrapped
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    out = []
    for _ in range(steps):
        env.step(rng.uniform(-1, 1, 2).astype(np.float32))
        out.append(env.qvel[:2].copy())
    env.close()
    return np.array(out)


def test_a_contact_free_arm_is_solved_exactly_in_one_iteration():
    # Nothing in Reacher collides, so one articulated iteration is the converged solve.
    base = dataclasses.replace(REACHER.solver, substeps=2, position_iterations=2, baumgarte=1.0)
    converged = reacher_qvels(dataclasses.replace(base, articulated_joints=False, velocity_iterations=2000))
    once = reacher_qvels(dataclasses.replace(base, articulated_joints=True, velocity_iterations=1))
    few = reacher_qvels(dataclasses.replace(base, articulated_joints=False, velocity_iterations=30))
    scale = np.abs(converged).max()
    assert np.abs(once - converged).max() < 0.002 * scale, np.abs(once - converged).max()
    assert np.abs(few - converged).max() > 5 * np.abs(once - converged).max()


@pytest.mark.parametrize("task", ["HalfCheetah", "Reacher", "Hopper", "Walker2d", "Swimmer"])
def test_the_joints_hold_under_random_actions(task):
    solver = dataclasses.replace(task_spec(task).solver, articulated_joints=True)
    env = gym.make(f"joltgym/{task}-v0", solver=solver).unwrapped
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(1000):
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
        worst = max(worst, env._core.max_joint_anchor_error())
        assert np.isfinite(env.qvel).all()
        if terminated or truncated:
            env.reset()
    env.close()
    assert worst < 2e-3, worst


def test_a_joint_driven_into_its_limit_stops_there_and_lets_go_as_mujocos_does():
    # The Reacher's elbow (range +-3 rad) under full torque from rest: the limit row holds it,
    # lets go when the torque reverses (a limit that would pull is released), and the elbow
    # swings across to the other limit at 43 rad/s. Oracle: MuJoCo on the same XML at dt/8.
    def actions():
        return (np.array([0.0, 1.0 if t < 80 else -1.0], np.float32) for t in range(120))

    model = compile_mjcf(REACHER.xml_file)
    model.opt.timestep /= 8
    data = mujoco.MjData(model)
    reference = []
    for action in actions():
        data.ctrl[:] = action
        for _ in range(2 * 8):  # the task's frame skip, at dt/8
            mujoco.mj_step(model, data)
        reference.append(data.qpos[:2].copy())

    def joints(articulated: bool) -> np.ndarray:
        solver = dataclasses.replace(REACHER.solver, articulated_joints=articulated,
                                     velocity_iterations=REACHER.solver.velocity_iterations if articulated else 400)
        env = gym.make("joltgym/Reacher-v0", solver=solver).unwrapped
        env.reset(seed=0)
        env.set_state(model.qpos0.copy(), np.zeros(model.nv))
        out = []
        for action in actions():
            env.step(action)
            out.append(env.qpos[:2].copy())
        env.close()
        return np.array(out)

    reference = np.array(reference)
    assert reference[70, 1] > 2.9 and reference[-1, 1] < -2.9  # it got there and across
    articulated = joints(True)
    # Elbow within 0.13 rad of MuJoCo's (measured 0.11, the swing's phase); the shoulder stays
    # where MuJoCo's does (0.000). Point rows iterated joint by joint close the elbow's anchor
    # by turning both links, and the shoulder drifts 0.12 rad off although its rate stays near 0.
    np.testing.assert_allclose(articulated[:, 1], reference[:, 1], atol=0.13)
    np.testing.assert_allclose(articulated[:, 0], reference[:, 0], atol=0.005)
    assert np.abs(joints(False)[:, 0] - reference[:, 0]).max() > 0.05


def trajectory(task: str, robots_per_world: int, threads: int, **solver) -> list[np.ndarray]:
    spec = task_spec(task)
    venv = JoltVectorEnv(5, task=task, solver=dataclasses.replace(spec.solver, articulated_joints=True, **solver),
                         num_threads=threads, robots_per_world=robots_per_world, max_episode_steps=30)
    obs, _ = venv.reset(seed=3)
    out = [obs]
    rng = np.random.default_rng(1)
    for _ in range(70):
        obs, reward, terminated, truncated, _ = venv.step(
            rng.uniform(-1, 1, (5,) + venv.single_action_space.shape).astype(np.float32))
        out += [obs, reward, terminated, truncated]
    venv.close()
    return out


@pytest.mark.parametrize("task, solver", [("HalfCheetah", {}), ("Reacher", {}), ("HalfCheetah", {"mujoco_euler": True}),
                                          ("Reacher", {"mujoco_euler": True})])
def test_results_do_not_depend_on_the_packing_or_the_thread_count(task, solver):
    alone = trajectory(task, 1, 1, **solver)
    for robots_per_world, threads in ((5, 1), (2, 2)):
        for a, b in zip(alone, trajectory(task, robots_per_world, threads, **solver)):
            np.testing.assert_array_equal(a, b)


def test_a_tree_it_does_not_solve_is_refused_by_name():
    solver = dataclasses.replace(task_spec("InvertedPendulum").solver, articulated_joints=True)
    with pytest.raises(joltgym.UnsupportedFeatureError,
                       match=r"articulated_joints: body 'cart' is a planar link neither free in its plane"):
        gym.make("joltgym/InvertedPendulum-v0", solver=solver)


def one_update_off_mujocos_euler_step(solver, joint_speed: float, at_limits: bool = False, past_limits: float = 0.0,
                                      count: int = 40) -> tuple[float, float, float]:
    """Mean summed |qvel - MuJoCo's| and |qpos - MuJoCo's|, and the worst qvel's, after one 0.01 s
    update from random HalfCheetah states 1 m up (no contact), both engines on the same XML: every
    joint 0.05 rad inside its range; or (at_limits) within 0.02 rad of one end of it, either side,
    turning towards it; or 0 to past_limits rad past one end, turning on."""
    env = gym.make("joltgym/HalfCheetah-v0", solver=solver, frame_skip=1).unwrapped
    model = env.model.mj_model
    data = mujoco.MjData(model)
    lo, hi = model.jnt_range[3:, 0], model.jnt_range[3:, 1]
    rng = np.random.default_rng(3)
    errors = []
    for _ in range(count):
        qpos = model.qpos0.copy()
        qpos[1] = 1.0
        qpos[2] = rng.uniform(-0.5, 0.5)
        if past_limits:
            upper = rng.random(len(lo)) < 0.5
            qpos[3:] = np.where(upper, hi, lo) + np.where(upper, 1, -1) * rng.uniform(0, past_limits, len(lo))
            qvel = rng.normal(0, joint_speed, model.nv)
            qvel[3:] = np.where(upper, 1, -1) * np.abs(qvel[3:])
        else:
            qpos[3:] = rng.uniform(lo + 0.05, hi - 0.05)
            qvel = rng.normal(0, joint_speed, model.nv)
            if at_limits:
                upper = rng.random(len(lo)) < 0.5
                qpos[3:] = np.where(upper, hi, lo) + rng.uniform(-0.02, 0.02, len(lo))
                qvel[3:] = np.where(upper, 1, -1) * np.abs(qvel[3:])
        action = rng.uniform(-1, 1, model.nu)
        data.qpos[:], data.qvel[:], data.ctrl[:] = qpos, qvel, action
        mujoco.mj_step(model, data)
        env.set_state(qpos, qvel)
        env.step(action.astype(np.float32))
        errors.append((np.abs(env.qvel - data.qvel).sum(), np.abs(env.qpos - data.qpos).sum()))
    env.close()
    errors = np.array(errors)
    return float(errors[:, 0].mean()), float(errors[:, 1].mean()), float(errors[:, 0].max())


def test_mujoco_euler_takes_one_update_as_mujocos_euler_step():
    # MuJoCo's Euler step takes the velocity-product forces at the step's start; the projection
    # onto the tree's new pose takes them implicitly, O(h v^2) apart: at 3 rad/s per joint, 0.52
    # (rad/s summed over the 9 rates; MuJoCo's own change in the step: 12.9) against 4e-6. MuJoCo
    # moves the root's joints' anchor by h times its velocity, Jolt the torso's centre of mass:
    # 5.1 mm summed over qpos, against 0.8 um with the root placed as MuJoCo's coordinates go.
    one_update = dataclasses.replace(CHEETAH.presets["fast"], substeps=1)
    implicit = one_update_off_mujocos_euler_step(one_update, 3.0)
    explicit = one_update_off_mujocos_euler_step(dataclasses.replace(one_update, mujoco_euler=True), 3.0)
    assert explicit[0] < 0.05 and explicit[0] < 0.1 * implicit[0], (explicit, implicit)
    assert explicit[1] < 1e-5 and explicit[1] < 0.01 * implicit[1], (explicit, implicit)


@pytest.mark.parametrize("task", ["Ant", "HalfCheetah"])
def test_mujoco_euler_is_refused_where_no_articulated_tree_takes_it(task):
    solver = dataclasses.replace(task_spec(task).solver, mujoco_euler=True, articulated_joints=False)
    with pytest.raises(joltgym.UnsupportedFeatureError, match=r"solver mujoco_euler: needs an articulated tree"):
        gym.make(f"joltgym/{task}-v0", solver=solver)


def test_mujoco_euler_meets_a_limit_as_mujocos_euler_step_does():
    # MuJoCo finds the limit force against M with the damping explicit, then takes the damping
    # implicitly with that force held. Solved together with the implicit damping, the limit gets
    # another force: with only the velocity products explicit, one update in a policy's gait was
    # 0.39 off MuJoCo's in the air, 0.02 in MuJoCo's order (0.63 and 7e-6 here, 40 states).
    one_update = dataclasses.replace(CHEETAH.presets["fast"], substeps=1)
    together = one_update_off_mujocos_euler_step(one_update, 3.0, at_limits=True)
    mujoco_order = one_update_off_mujocos_euler_step(dataclasses.replace(one_update, mujoco_euler=True), 3.0, at_limits=True)
    assert mujoco_order[0] < 0.05 and mujoco_order[0] < 0.1 * together[0], (mujoco_order, together)


def test_several_limits_at_once_meet_mujocos_exact_complementarity():
    # MuJoCo solves its limits' complementarity exactly; releasing each limit that pulls, and never
    # taking one back once another's release makes it push again, left 5 of these 200 states
    # 0.1-1.0 rad/s off MuJoCo's step (every joint 0-0.045 rad past an end of its range, turning on).
    solver = dataclasses.replace(CHEETAH.presets["fast"], substeps=1, velocity_iterations=4, mujoco_euler=True)
    worst = one_update_off_mujocos_euler_step(solver, 10.0, past_limits=0.045, count=200)[2]
    assert worst < 1e-3, worst
