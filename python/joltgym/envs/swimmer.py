"""joltgym/Swimmer-v0: Gymnasium Swimmer-v5's task on Jolt Physics (MuJoCo's inertia-box fluid model)."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class SwimmerEnv(JoltEnv, EzPickle):
    """Swim forward: reward = forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2.
    Observation: qpos[2:] (3) then qvel (5)."""

    def __init__(
        self,
        xml_file: str = "swimmer.xml",
        frame_skip: int = 4,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-4,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, forward_reward_weight, ctrl_cost_weight,
            reset_noise_scale, exclude_current_positions_from_observation, solver, render_mode,
        )
        JoltEnv.__init__(
            self, "Swimmer", xml_file, solver, render_mode,
            frame_skip=frame_skip,
            forward_reward_weight=forward_reward_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
        )
        skip = 2 * int(exclude_current_positions_from_observation)
        self.observation_structure = {"skipped_qpos": skip, "qpos": self.model.nq - skip, "qvel": self.model.nv}
