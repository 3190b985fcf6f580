"""joltgym/Swimmer-v0: Gymnasium Swimmer-v5's task on Jolt Physics (MuJoCo's inertia-box fluid model)."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class SwimmerEnv(JoltEnv):
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
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Swimmer", **call_arguments(locals()))


SwimmerVectorEnv = vector_env_factory("Swimmer")
