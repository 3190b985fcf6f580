"""Random states of a free-rooted robot high in the air, for solves compared without contacts."""

from __future__ import annotations

import mujoco
import numpy as np


def airborne_states(model: mujoco.MjModel, count: int, seed: int, height: float, joint_speed: float,
                    action_bound: float):
    """(qpos, qvel, action) triples: the root `height` m up at a random orientation, every joint
    0.05 rad inside its range and turning at ~joint_speed rad/s, a constant random action."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        qpos = model.qpos0.copy()
        qpos[2] = height
        quat = rng.normal(size=4)
        qpos[3:7] = quat / np.linalg.norm(quat)
        lo, hi = model.jnt_range[1:, 0], model.jnt_range[1:, 1]
        qpos[7:] = rng.uniform(lo + 0.05, hi - 0.05)
        qvel = np.concatenate([rng.normal(0, 1, 6), rng.normal(0, joint_speed, model.nv - 6)])
        yield qpos, qvel, rng.uniform(-action_bound, action_bound, model.nu).astype(np.float32)
