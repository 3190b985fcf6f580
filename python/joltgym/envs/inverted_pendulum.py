"""joltgym/InvertedPendulum-v0 and joltgym/InvertedDoublePendulum-v0 (Gymnasium v5 conventions)."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class InvertedPendulumEnv(JoltEnv, EzPickle):
    """Reward 1 per step while |pole angle| <= 0.2 rad. Observation (qpos, qvel), action Box(-3, 3, (1,))."""

    def __init__(
        self,
        xml_file: str = "inverted_pendulum.xml",
        frame_skip: int = 2,
        default_camera_config: dict | None = None,
        reset_noise_scale: float = 0.01,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(self, xml_file, frame_skip, default_camera_config, reset_noise_scale, solver, render_mode)
        JoltEnv.__init__(
            self, "InvertedPendulum", xml_file, solver, render_mode,
            frame_skip=frame_skip, reset_noise_scale=reset_noise_scale,
        )
        self.observation_structure = {"qpos": self.model.nq, "qvel": self.model.nv}


class InvertedDoublePendulumEnv(JoltEnv, EzPickle):
    """Keep the tip high: reward = healthy_reward - 0.01 x^2 - (y - 2)^2 - velocity penalty; ends when y <= 1."""

    def __init__(
        self,
        xml_file: str = "inverted_double_pendulum.xml",
        frame_skip: int = 5,
        default_camera_config: dict | None = None,
        healthy_reward: float = 10.0,
        reset_noise_scale: float = 0.1,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, healthy_reward, reset_noise_scale, solver, render_mode
        )
        JoltEnv.__init__(
            self, "InvertedDoublePendulum", xml_file, solver, render_mode,
            frame_skip=frame_skip, healthy_reward=healthy_reward, reset_noise_scale=reset_noise_scale,
        )
        self.observation_structure = {"qpos_cart": 1, "sin_qpos_poles": 2, "cos_qpos_poles": 2, "qvel": 3,
                                      "qfrc_constraint_cart": 1}
