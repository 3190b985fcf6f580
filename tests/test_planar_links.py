"""Planar models on planar links: every link restricted to the model's plane, each hinge a point
constraint. The robots that move in a plane use them, the others do not; links never leave the
plane; the motion is that of full 3-D links with Jolt's hinges, and of MuJoCo."""

from __future__ import annotations


import numpy as np
import pytest

import joltgym
from joltgym.model import _ReferenceSolverSettings
from joltgym import _native
from joltgym.tasks import task_spec

PLANAR = ["HalfCheetah", "Hopper", "Walker2d", "Swimmer", "Reacher", "InvertedPendulum", "InvertedDoublePendulum"]


def load(task: str, **solver):
    spec = task_spec(task)
    return joltgym.load_model(spec.xml_file, solver=_ReferenceSolverSettings.of(spec.solver, **solver))


def load_3d(task: str, **solver):
    """Jolt's own 3-D hinges; a planar root's joint-space solve (and MuJoCo's Euler order on it) needs
    planar links, so it is off too."""
    return load(task, **{**solver, "planar_links": False, "articulated_joints": False, "mujoco_euler": False})


@pytest.mark.parametrize("task", PLANAR + ["Ant", "Humanoid", "HumanoidStandup"])
def test_planar_models_and_only_those_get_planar_links(task):
    assert load(task).native.planar_links == (task in PLANAR)
    assert not load_3d(task).native.planar_links


def random_run(model, steps: int, seed: int = 0):
    world = _native.World(model.native)
    rng = np.random.default_rng(seed)
    qpos, coms = [], []
    for _ in range(steps):
        world.step(rng.uniform(-1, 1, model.nu).astype(np.float32))
        qpos.append(np.array(world.qpos))
        coms.append(np.array(world.body_com()))
    return np.array(qpos), np.array(coms)


@pytest.mark.parametrize("task", ["HalfCheetah", "Walker2d"])
def test_links_never_leave_the_plane(task):
    _, coms = random_run(load(task), 300)
    _, coms_3d = random_run(load_3d(task), 300)
    assert np.abs(coms[:, :, 1]).max() < 1e-6  # exactly where they started (y = 0 here)
    assert np.abs(coms_3d[:, :, 1]).max() > np.abs(coms[:, :, 1]).max()  # full 3-D links drift


def test_a_half_cheetah_moves_as_with_jolts_hinges():
    # Random actions from rest, 60 steps: the same motion to within a few milliradians (both are
    # 0.08 rad from MuJoCo's by then, from Jolt's sub-stepping, not from the joint formulation).
    # Both joint by joint, so that only the links' formulation differs.
    settings = dict(substeps=3, velocity_iterations=8, articulated_joints=False, mujoco_euler=False)
    qpos, _ = random_run(load("HalfCheetah", **settings), 60)
    qpos_3d, _ = random_run(load_3d("HalfCheetah", **settings), 60)
    np.testing.assert_allclose(qpos, qpos_3d, atol=5e-3)
