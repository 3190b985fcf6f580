"""joltgym/InvertedPendulum-v0 and joltgym/InvertedDoublePendulum-v0 (Gymnasium v5 conventions)."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class InvertedPendulumEnv(JoltEnv):
    """Reward 1 per step while |pole angle| <= 0.2 rad. Observation (qpos, qvel), action Box(-3, 3, (1,))."""

    def __init__(
        self,
        xml_file: str = "inverted_pendulum.xml",
        frame_skip: int = 2,
        default_camera_config: dict | None = None,
        reset_noise_scale: float = 0.01,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "InvertedPendulum", **call_arguments(locals()))


InvertedPendulumVectorEnv = vector_env_factory("InvertedPendulum")


class InvertedDoublePendulumEnv(JoltEnv):
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
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "InvertedDoublePendulum", **call_arguments(locals()))


InvertedDoublePendulumVectorEnv = vector_env_factory("InvertedDoublePendulum")
