"""joltgym/Ant-v0: Gymnasium Ant-v5's task on Jolt Physics."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class AntEnv(JoltEnv, EzPickle):
    """Run forward on four legs. Observation: qpos[2:] (13), qvel (14) and, by default, the
    clipped external contact forces cfrc_ext of the 13 bodies (78) = 105, as Ant-v5."""

    def __init__(
        self,
        xml_file: str = "ant.xml",
        frame_skip: int = 5,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.0,
        ctrl_cost_weight: float = 0.5,
        contact_cost_weight: float = 5e-4,
        healthy_reward: float = 1.0,
        main_body: int | str = 1,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (0.2, 1.0),
        contact_force_range: tuple[float, float] = (-1.0, 1.0),
        reset_noise_scale: float = 0.1,
        exclude_current_positions_from_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, forward_reward_weight, ctrl_cost_weight,
            contact_cost_weight, healthy_reward, main_body, terminate_when_unhealthy, healthy_z_range,
            contact_force_range, reset_noise_scale, exclude_current_positions_from_observation,
            include_cfrc_ext_in_observation, solver, render_mode,
        )
        JoltEnv.__init__(
            self, "Ant", xml_file, solver, render_mode,
            frame_skip=frame_skip,
            forward_reward_weight=forward_reward_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            contact_cost_weight=contact_cost_weight,
            healthy_reward=healthy_reward,
            main_body=main_body,
            terminate_when_unhealthy=terminate_when_unhealthy,
            healthy_z_range=list(healthy_z_range),
            contact_force_range=list(contact_force_range),
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
            include_cfrc_ext_in_observation=include_cfrc_ext_in_observation,
        )
        skip = 2 * int(exclude_current_positions_from_observation)
        self.observation_structure = {
            "skipped_qpos": skip,
            "qpos": self.model.nq - skip,
            "qvel": self.model.nv,
            "cfrc_ext": (self.model.mj_model.nbody - 1) * 6 * int(include_cfrc_ext_in_observation),
        }
