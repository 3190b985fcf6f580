"""joltgym/Hopper-v0 and joltgym/Walker2d-v0: Gymnasium v5's planar walkers on Jolt Physics.

reward = healthy_reward (while healthy) + forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2;
the episode ends when the walker is unhealthy. Observation: qpos[1:] then qvel clipped to +-10.
"""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class HopperEnv(JoltEnv):
    """Hop forward on one leg (Hopper-v5): observation 11, action Box(-1, 1, (3,))."""

    def __init__(
        self,
        xml_file: str = "hopper.xml",
        frame_skip: int = 4,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_state_range: tuple[float, float] = (-100.0, 100.0),
        healthy_z_range: tuple[float, float] = (0.7, float("inf")),
        healthy_angle_range: tuple[float, float] = (-0.2, 0.2),
        reset_noise_scale: float = 5e-3,
        exclude_current_positions_from_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Hopper", **call_arguments(locals()))


HopperVectorEnv = vector_env_factory("Hopper")


class Walker2dEnv(JoltEnv):
    """Walk forward on two legs (Walker2d-v5, feet friction 1.9): observation 17, action Box(-1, 1, (6,))."""

    def __init__(
        self,
        xml_file: str = "walker2d.xml",
        frame_skip: int = 4,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 1e-3,
        healthy_reward: float = 1.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.8, 2.0),
        healthy_angle_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 5e-3,
        exclude_current_positions_from_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Walker2d", **call_arguments(locals()))


Walker2dVectorEnv = vector_env_factory("Walker2d")
