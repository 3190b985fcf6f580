"""joltgym/Humanoid-v0 and HumanoidStandup-v0: Gymnasium's v5 tasks of the same names on Jolt Physics."""

from __future__ import annotations

import mujoco
import numpy as np
from gymnasium.utils import EzPickle

from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings


class _HumanoidBodyEnv(JoltEnv):
    """What Humanoid and HumanoidStandup share on the Python side: v5's observation_structure and
    the tendon entries of info (the native task reports scalars only)."""

    def __init__(self, task_name: str, xml_file: str, solver: SolverSettings | None, render_mode: str | None, *,
                 exclude_current_positions_from_observation: bool, include_cinert_in_observation: bool,
                 include_cvel_in_observation: bool, include_qfrc_actuator_in_observation: bool,
                 include_cfrc_ext_in_observation: bool, **task_kwargs):
        JoltEnv.__init__(
            self, task_name, xml_file, solver, render_mode,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
            include_cinert_in_observation=include_cinert_in_observation,
            include_cvel_in_observation=include_cvel_in_observation,
            include_qfrc_actuator_in_observation=include_qfrc_actuator_in_observation,
            include_cfrc_ext_in_observation=include_cfrc_ext_in_observation,
            **task_kwargs,
        )
        skip = 2 * int(exclude_current_positions_from_observation)
        moving_bodies = self.model.mj_model.nbody - 1
        self.observation_structure = {
            "skipped_qpos": skip,
            "qpos": self.model.nq - skip,
            "qvel": self.model.nv,
            "cinert": 10 * moving_bodies * int(include_cinert_in_observation),
            "cvel": 6 * moving_bodies * int(include_cvel_in_observation),
            "qfrc_actuator": (self.model.nv - 6) * int(include_qfrc_actuator_in_observation),
            "cfrc_ext": 6 * moving_bodies * int(include_cfrc_ext_in_observation),
            "ten_length": 0,
            "ten_velocity": 0,
        }
        self._tendon_matrix = _fixed_tendon_matrix(self.model.mj_model)

    def reset(self, *, seed=None, options=None):
        obs, info = super().reset(seed=seed, options=options)
        return obs, self._with_tendons(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, truncated, self._with_tendons(info)

    def _with_tendons(self, info: dict) -> dict:
        """v5's tendon_length / tendon_velocity (the model's passive fixed tendons)."""
        info["tendon_length"] = self._tendon_matrix @ self.qpos[self.model.mj_model.jnt_qposadr[1:]]
        info["tendon_velocity"] = self._tendon_matrix @ self.qvel[self.model.mj_model.jnt_dofadr[1:]]
        return info


class HumanoidEnv(_HumanoidBodyEnv, EzPickle):
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
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, forward_reward_weight, ctrl_cost_weight,
            contact_cost_weight, contact_cost_range, healthy_reward, terminate_when_unhealthy, healthy_z_range,
            reset_noise_scale, exclude_current_positions_from_observation, include_cinert_in_observation,
            include_cvel_in_observation, include_qfrc_actuator_in_observation, include_cfrc_ext_in_observation,
            solver, render_mode,
        )
        _HumanoidBodyEnv.__init__(
            self, "Humanoid", xml_file, solver, render_mode,
            frame_skip=frame_skip,
            forward_reward_weight=forward_reward_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            contact_cost_weight=contact_cost_weight,
            contact_cost_range=list(contact_cost_range),
            healthy_reward=healthy_reward,
            terminate_when_unhealthy=terminate_when_unhealthy,
            healthy_z_range=list(healthy_z_range),
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
            include_cinert_in_observation=include_cinert_in_observation,
            include_cvel_in_observation=include_cvel_in_observation,
            include_qfrc_actuator_in_observation=include_qfrc_actuator_in_observation,
            include_cfrc_ext_in_observation=include_cfrc_ext_in_observation,
        )


class HumanoidStandupEnv(_HumanoidBodyEnv, EzPickle):
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
    ):
        EzPickle.__init__(
            self, xml_file, frame_skip, default_camera_config, uph_cost_weight, ctrl_cost_weight,
            impact_cost_weight, impact_cost_range, reset_noise_scale, exclude_current_positions_from_observation,
            include_cinert_in_observation, include_cvel_in_observation, include_qfrc_actuator_in_observation,
            include_cfrc_ext_in_observation, solver, render_mode,
        )
        _HumanoidBodyEnv.__init__(
            self, "HumanoidStandup", xml_file, solver, render_mode,
            frame_skip=frame_skip,
            uph_cost_weight=uph_cost_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            impact_cost_weight=impact_cost_weight,
            impact_cost_range=list(impact_cost_range),
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
            include_cinert_in_observation=include_cinert_in_observation,
            include_cvel_in_observation=include_cvel_in_observation,
            include_qfrc_actuator_in_observation=include_qfrc_actuator_in_observation,
            include_cfrc_ext_in_observation=include_cfrc_ext_in_observation,
        )


def _fixed_tendon_matrix(m: mujoco.MjModel) -> np.ndarray:
    """Coefficients of each fixed tendon over the scalar joints after the root (length = C @ q)."""
    matrix = np.zeros((m.ntendon, m.njnt - 1))
    for t in range(m.ntendon):
        for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t]):
            if m.wrap_type[w] != mujoco.mjtWrap.mjWRAP_JOINT:
                raise ValueError(f"tendon {t} is not a fixed tendon")
            matrix[t, m.wrap_objid[w] - 1] += m.wrap_prm[w]
    return matrix
