"""A double pendulum ("arm") run side by side in MuJoCo's Euler step and joltgym's world, for the
tests of what drives or holds its joints (test_actuators.py, test_tendons.py)."""

from __future__ import annotations

import mujoco
import numpy as np

import joltgym

ARTICULATED = joltgym.SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                     articulated_joints=True, mujoco_euler=True)
JOINT_BY_JOINT = joltgym.SolverSettings(substeps=1, velocity_iterations=40, position_iterations=2, baumgarte=0.5)


def close(ours: np.ndarray, theirs: np.ndarray, fraction: float) -> bool:
    """Every value within `fraction` of the largest value MuJoCo's run reached."""
    return bool(np.abs(ours - theirs).max() <= fraction * np.abs(theirs).max())


def run(build_world, xml: str, ctrl, steps: int, solver):
    """qpos, qvel and qfrc_actuator per step, MuJoCo's (Euler) and ours, from rest at a bent pose."""
    model, world = build_world(xml, solver)
    m = model.mj_model
    m.opt.integrator = mujoco.mjtIntegrator.mjINT_EULER
    d = mujoco.MjData(m)
    d.qpos[:] = [0.4, -0.6]
    world.set_state(d.qpos.astype(np.float32), np.zeros(2, np.float32))
    ctrl = np.asarray(ctrl, np.float32)
    ours, theirs = [], []
    for _ in range(steps):
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)  # qfrc_actuator after mj_step describes the step's start, as ours does
        world.step(ctrl)
        theirs.append(np.concatenate([d.qpos, d.qvel, d.qfrc_actuator]))
        ours.append(np.concatenate([world.qpos, world.qvel, world.qfrc_actuator]))
    return np.array(ours), np.array(theirs)


def side_by_side(m: mujoco.MjModel, d: mujoco.MjData, world, controls, steps: int):
    """qpos and qvel after each step of MuJoCo's and the world's under the same controls(t): ours, theirs."""
    ours, theirs = [], []
    for t in range(steps):
        ctrl = np.asarray(controls(t), np.float32)
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        theirs.append(np.concatenate([d.qpos, d.qvel]))
        ours.append(np.concatenate([world.qpos, world.qvel]))
    return np.array(ours), np.array(theirs)
