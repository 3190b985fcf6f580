"""joltgym/Hopper-v0 and joltgym/Walker2d-v0: Gymnasium v5's planar walkers on Jolt Physics."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class _PlanarWalkerEnv(JoltEnv):
    """reward = healthy_reward (while healthy) + forward_reward_weight * dx/dt - ctrl_cost_weight * |a|^2;
    terminates when unhealthy. Observation: qpos[1:] then qvel clipped to +-10."""

    TASK = ""

    def __init__(self, xml_file, frame_skip, forward_reward_weight, ctrl_cost_weight, healthy_reward,
                 terminate_when_unhealthy, healthy_z_range, healthy_angle_range, reset_noise_scale,
                 exclude_current_positions_from_observation, solver, render_mode, **extra):
        JoltEnv.__init__(
            self, self.TASK, xml_file, solver, render_mode,
            frame_skip=frame_skip,
            forward_reward_weight=forward_reward_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            healthy_reward=healthy_reward,
            terminate_when_unhealthy=terminate_when_unhealthy,
            healthy_z_range=list(healthy_z_range),
            healthy_angle_range=list(healthy_angle_range),
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
            **extra,
        )
        skip = int(exclude_current_positions_from_observation)
        self.observation_structure = {"skipped_qpos": skip, "qpos": self.model.nq - skip, "qvel": self.model.nv}


class HopperEnv(_PlanarWalkerEnv, EzPickle):
    TASK = "Hopper"

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
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, forward_reward_weight, ctrl_cost_weight,
            healthy_reward, terminate_when_unhealthy, healthy_state_range, healthy_z_range, healthy_angle_range,
            reset_noise_scale, exclude_current_positions_from_observation, solver, render_mode,
        )
        super().__init__(
            xml_file, frame_skip, forward_reward_weight, ctrl_cost_weight, healthy_reward,
            terminate_when_unhealthy, healthy_z_range, healthy_angle_range, reset_noise_scale,
            exclude_current_positions_from_observation, solver, render_mode,
            healthy_state_range=list(healthy_state_range),
        )


class Walker2dEnv(_PlanarWalkerEnv, EzPickle):
    TASK = "Walker2d"

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
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, forward_reward_weight, ctrl_cost_weight,
            healthy_reward, terminate_when_unhealthy, healthy_z_range, healthy_angle_range, reset_noise_scale,
            exclude_current_positions_from_observation, solver, render_mode,
        )
        super().__init__(
            xml_file, frame_skip, forward_reward_weight, ctrl_cost_weight, healthy_reward,
            terminate_when_unhealthy, healthy_z_range, healthy_angle_range, reset_noise_scale,
            exclude_current_positions_from_observation, solver, render_mode,
        )
