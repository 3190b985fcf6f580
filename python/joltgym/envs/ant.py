"""joltgym/Ant-v0: Gymnasium Ant-v5's task on Jolt Physics."""

from __future__ import annotations

from typing import Any

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class AntEnv(JoltEnv):
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
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Ant", **call_arguments(locals()))


AntVectorEnv = vector_env_factory("Ant")
