"""joltgym/Reacher-v0: Gymnasium Reacher-v5's task on Jolt Physics."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class ReacherEnv(JoltEnv, EzPickle):
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
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, reward_dist_weight, reward_control_weight,
            solver, render_mode,
        )
        JoltEnv.__init__(
            self, "Reacher", xml_file, solver, render_mode,
            frame_skip=frame_skip,
            reward_dist_weight=reward_dist_weight,
            reward_control_weight=reward_control_weight,
        )
