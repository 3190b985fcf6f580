"""joltgym/Humanoid-v0 and HumanoidStandup-v0: Gymnasium's v5 tasks of the same names on Jolt Physics.

Both report v5's ``tendon_length`` and ``tendon_velocity`` in info (the model's fixed tendons).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from joltgym.envs.base import JoltEnv, call_arguments, vector_env_factory
from joltgym.model import SolverSettings


class HumanoidEnv(JoltEnv):
    """Walk forward without falling. Observation as Humanoid-v5 (348 by default): qpos[2:] (22),
    qvel (23), cinert (130), cvel (78), qfrc_actuator[6:] (17), cfrc_ext (78) of the 13 bodies,
    each in MuJoCo's frames (world axes about the robot's centre of mass)."""

    def __init__(
        self,
        xml_file: str = "humanoid.xml",
        frame_skip: int = 5,
        default_camera_config: dict | None = None,
        forward_reward_weight: float = 1.25,
        ctrl_cost_weight: float = 0.1,
        contact_cost_weight: float = 5e-7,
        contact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        healthy_reward: float = 5.0,
        terminate_when_unhealthy: bool = True,
        healthy_z_range: tuple[float, float] = (1.0, 2.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        include_cinert_in_observation: bool = True,
        include_cvel_in_observation: bool = True,
        include_qfrc_actuator_in_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "Humanoid", **call_arguments(locals()))


HumanoidVectorEnv = vector_env_factory("Humanoid")


class HumanoidStandupEnv(JoltEnv):
    """Stand up from lying on the back. Observation as Humanoid (348 by default); reward: root height
    / model timestep - control cost - impact cost + 1, as HumanoidStandup-v5; never terminates.
    HumanoidStandup-v5 ignores ``uph_cost_weight``; here it scales the height term (default 1)."""

    def __init__(
        self,
        xml_file: str = "humanoidstandup.xml",
        frame_skip: int = 5,
        default_camera_config: dict | None = None,
        uph_cost_weight: float = 1.0,
        ctrl_cost_weight: float = 0.1,
        impact_cost_weight: float = 0.5e-6,
        impact_cost_range: tuple[float, float] = (-np.inf, 10.0),
        reset_noise_scale: float = 1e-2,
        exclude_current_positions_from_observation: bool = True,
        include_cinert_in_observation: bool = True,
        include_cvel_in_observation: bool = True,
        include_qfrc_actuator_in_observation: bool = True,
        include_cfrc_ext_in_observation: bool = True,
        solver: SolverSettings | None = None,
        render_mode: str | None = None,
        **kwargs: Any,
    ):
        JoltEnv.__init__(self, "HumanoidStandup", **call_arguments(locals()))


HumanoidStandupVectorEnv = vector_env_factory("HumanoidStandup")
