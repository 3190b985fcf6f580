"""joltgym/HalfCheetah-v0: Gymnasium HalfCheetah-v5's task on Jolt Physics."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class HalfCheetahEnv(JoltEnv):
    """Run forward: reward = forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2.

    Observation (17, float32): qpos[1:] (8) then qvel (9), as HalfCheetah-v5 with
    ``exclude_current_positions_from_observation``. Action Box(-1, 1, (6,)).
    """

    def __init__(
        self,
        xml_file: str = "half_cheetah.xml",
        frame_skip: int = 5,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 0.1,
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "HalfCheetah", **call_arguments(locals()))


HalfCheetahVectorEnv = vector_env_factory("HalfCheetah")
