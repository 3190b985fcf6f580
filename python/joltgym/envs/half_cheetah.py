"""joltgym/HalfCheetah-v0: Gymnasium HalfCheetah-v5's task on Jolt Physics."""

from __future__ import annotations

from gymnasium.utils import EzPickle

from joltgym import _native
from joltgym.envs.base import JoltEnv
from joltgym.model import SolverSettings

# Chosen by measurement: 5000 random-action steps (seed 7), worst hinge-anchor
# separation, steps with a separation above 2 mm, CPU us per env step (2-core EPYC,
# shared). Joint ranges are speculative rows (JointAxisConstraint):
#   substeps/velocity/position iterations, baumgarte
#   1 / 10 / 2, 0.5: 13.1 mm / 478 / 102
#   2 /  8 / 2, 0.2:  5.1 mm / 211 / 219
#   2 /  8 / 2, 0.5:  2.0 mm /   0 / 230
#   3 /  6 / 2, 0.5:  1.0 mm /   0 / 301
#   3 /  8 / 2, 0.5:  0.9 mm /   0 / 323
# With Jolt's own (non-speculative) hinge limits even 3 / 8 / 4 left 4 mm spikes.
HALF_CHEETAH_SOLVER = SolverSettings(substeps=3, velocity_iterations=6, position_iterations=2, baumgarte=0.5)


class HalfCheetahEnv(JoltEnv, EzPickle):
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
        solver: SolverSettings = HALF_CHEETAH_SOLVER,
        render_mode: str | None = None,
    ):
        EzPickle.__init__(
            self,
            xml_file,
            frame_skip,
            default_camera_config,
            forward_reward_weight,
            ctrl_cost_weight,
            reset_noise_scale,
            exclude_current_positions_from_observation,
            solver,
            render_mode,
        )
        self._params = dict(
            forward_reward_weight=forward_reward_weight,
            ctrl_cost_weight=ctrl_cost_weight,
            reset_noise_scale=reset_noise_scale,
            exclude_current_positions_from_observation=exclude_current_positions_from_observation,
        )
        JoltEnv.__init__(self, xml_file, frame_skip, solver, render_mode)
        skip = int(exclude_current_positions_from_observation)
        self.observation_structure = {
            "skipped_qpos": skip,
            "qpos": self.model.nq - skip,
            "qvel": self.model.nv,
        }

    def _make_core(self):
        return _native.HalfCheetahCore(self.model.native, frame_skip=self.frame_skip, **self._params)
