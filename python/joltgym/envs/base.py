"""The Gymnasium surface shared by every single-agent joltgym task.

Physics, observation, reward, termination and reset noise live in the native task;
this class only adapts it to Gymnasium's API (spaces, seeding, info dicts).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from joltgym import _native
from joltgym.model import JoltModel, SolverSettings, load_model

_SEED_BOUND = 2**63


class JoltEnv(gym.Env):
    """A task from ``joltgym.tasks`` as a Gymnasium env; subclasses give it v5's signature."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        task_name: str,
        xml_file: str | None,
        solver: SolverSettings | None,
        render_mode: str | None = None,
        **task_kwargs: Any,
    ):
        from joltgym.tasks import task_spec  # the task table imports the env classes

        if render_mode is not None:
            raise ValueError(f"render_mode {render_mode!r} is not supported yet; use render_mode=None")
        spec = task_spec(task_name)
        self.render_mode = render_mode
        self.model: JoltModel = load_model(xml_file or spec.xml_file, solver=solver or spec.solver)
        self.task = spec.make_task(self.model, **task_kwargs)
        self._core = _native.TaskCore(self.model.native, self.task)
        self.frame_skip = self.task.frame_skip
        self.dt = self.model.timestep * self.frame_skip
        self.metadata = {"render_modes": [], "render_fps": int(np.round(1.0 / self.dt))}
        low, high = self.model.ctrl_range.astype(np.float32).T
        self.action_space = spaces.Box(low=low, high=high, dtype=np.float32)
        self.observation_space = spaces.Box(-np.inf, np.inf, shape=(self.task.obs_dim,), dtype=np.float32)
        self.init_qpos = self.model.init_qpos.copy()
        self.init_qvel = self.model.init_qvel.copy()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        native_seed = int(self.np_random.integers(0, _SEED_BOUND))
        return self._core.reset(native_seed)

    def step(self, action):
        obs, reward, terminated, info = self._core.step(action)
        return obs, reward, terminated, False, info

    @property
    def qpos(self) -> np.ndarray:
        """MuJoCo-ordered generalized coordinates of the robot (float32 copy)."""
        return self._core.qpos

    @property
    def qvel(self) -> np.ndarray:
        return self._core.qvel

    def set_state(self, qpos, qvel) -> None:
        """Place the robot at generalized coordinates, as MujocoEnv.set_state."""
        self._core.set_state(qpos, qvel)

    def close(self) -> None:
        pass
