"""joltgym/Reacher-v0: Gymnasium Reacher-v5's task on Jolt Physics."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class ReacherEnv(JoltEnv):
    """Bring the fingertip of a two-link arm to a random target: reward = -|fingertip - target|
    * reward_dist_weight - |a|^2 * reward_control_weight. Observation (10): cos and sin of the arm
    angles, target position, arm joint rates, fingertip - target in the plane."""

    def __init__(
        self,
        xml_file: str = "reacher.xml",
        frame_skip: int = 2,
        default_camera_config: dict | None = None,
        reward_dist_weight: float = 1.0,
        reward_control_weight: float = 1.0,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Reacher", **call_arguments(locals()))


ReacherVectorEnv = vector_env_factory("Reacher")
