"""Every task, declared once: model file, measured solver settings, native task and limits.

The single-agent envs, the vector env and the Gymnasium registration all read this table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from joltgym import _native
from joltgym.model import JoltModel, SolverSettings

# Solver settings are chosen per task by measurement (benchmarks/measure_solver.py
# prints the table): worst hinge-anchor separation under 5000 random-action steps, and cost.
#
# HalfCheetah (dt 0.01): substeps/velocity/position iterations, baumgarte ->
#   worst separation / steps above 2 mm / CPU us per env step (2-core EPYC, shared):
#   1 / 10 / 2, 0.5: 13.1 mm / 478 / 102
#   2 /  8 / 2, 0.2:  5.1 mm / 211 / 219
#   2 /  8 / 2, 0.5:  2.0 mm /   0 / 230
#   3 /  6 / 2, 0.5:  1.0 mm /   0 / 301
#   3 /  8 / 2, 0.5:  0.9 mm /   0 / 323
#   With Jolt's own (non-speculative) hinge limits even 3 / 8 / 4 left 4 mm spikes.
# Over 10000 steps and seeds 3, 7, 11, 23, 3 / 6 / 2 at baumgarte 0.5 had one 4.9 mm step (seed 11);
# at baumgarte 1.0 the worst was 1.3 mm (2 / 8 / 2 at 1.0: up to 5.7 mm).
HALF_CHEETAH_SOLVER = SolverSettings(substeps=3, velocity_iterations=6, position_iterations=2, baumgarte=1.0)
# Hopper (dt 0.002), 3000 steps:  1 / 4 / 1: 0.6 mm | 1 / 6 / 2: 0.4 mm | 1 / 8 / 2: 0.3 mm
HOPPER_SOLVER = SolverSettings(substeps=1, velocity_iterations=6, position_iterations=2, baumgarte=0.5)
# Walker2d (dt 0.002), 3000 steps: 1 / 4 / 1: 3.1 mm | 1 / 6 / 2: 0.9 mm | 1 / 8 / 2: 1.3 mm
WALKER2D_SOLVER = SolverSettings(substeps=1, velocity_iterations=6, position_iterations=2, baumgarte=0.5)
# InvertedPendulum (dt 0.02, RK4 in MuJoCo): 1 / 8 / 2: 0.9 mm | 2 / 8 / 2: 0.3 mm | 4 / 8 / 2: 0.1 mm;
# two updates per step also halve the integration error of the fast pole.
INVERTED_PENDULUM_SOLVER = SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5)
# InvertedDoublePendulum (dt 0.01): 1 / 8 / 2: 2.6 mm | 2 / 8 / 2: 0.8 mm | 4 / 8 / 2: 0.2 mm
INVERTED_DOUBLE_PENDULUM_SOLVER = SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5)


# Ant (dt 0.01; armature 1 on links of ~1e-3 inertia), 3000 steps:
#   2 /  8 / 2, 1.0: 6.2 mm / 204 | 3 / 10 / 2, 1.0: 2.2 mm / 2 | 4 / 10 / 2, 1.0: 1.9 mm / 0
#   4 / 14 / 2, 1.0: 1.3 mm / 0   | 4 / 10 / 4, 1.0: 1.4 mm / 0 | 5 / 20 / 2, 0.5: 1.0 mm / 0 (slowest)
# With the motor torques through the armature rows (armature 120-740x the links' inertia), 3000 steps:
#   2 / 10 / 2, 1.0: 3.6 mm / 24 | 3 / 10 / 2, 1.0: 1.9 mm / 0 | 4 / 14 / 2, 1.0: 1.4 mm / 0
ANT_SOLVER = SolverSettings(substeps=4, velocity_iterations=14, position_iterations=2, baumgarte=1.0)


# Swimmer (dt 0.01, fluid, armature 0.1), 10000 steps seed 11:
#   1 / 8 / 2, 1.0: 3.6 mm / 10 | 2 / 8 / 2, 1.0: 0.9 mm / 0 (150 us) | 1 / 12 / 3, 1.0: 0.9 mm / 0 (119 us)
SWIMMER_SOLVER = SolverSettings(substeps=1, velocity_iterations=12, position_iterations=3, baumgarte=1.0)


# Humanoid (dt 0.003; gimbal constraints at abdomen, hips and shoulders), 5000 steps seed 7:
#   substeps / vel / pos, baumgarte: worst anchor separation / CPU us per env step /
#   one-step joint-acceleration error against MuJoCo from a cold start (tumbling in the air)
#   1 /  6 / 2, 0.5: 1.3 mm / 299 / 36%  | 1 / 10 / 2, 0.5: 0.8 mm / 297 / 19%
#   1 / 20 / 2, 0.5: 0.4 mm / 336 /  4%  | 1 / 30 / 2, 0.5:      -  /   - /  1%
#   2 / 10 / 2, 0.5: 0.5 mm / 481 /  -   | 1 / 10 / 2, 1.0: 0.8 mm / 293 /  -
# Joints hold at any of these; the gimbal rows converge slowly (coupled coordinates), so the
# iteration count is set by the dynamics, not by the anchors. Zero-action falls: 34 steps at
# 10, 20 or 30 iterations (MuJoCo: 40).
HUMANOID_SOLVER = SolverSettings(substeps=1, velocity_iterations=20, position_iterations=2, baumgarte=0.5)
# HumanoidStandup (same robot, lying down: long episodes of heavy floor contact), 3000 steps seed 7;
# the worst joint is the single abdomen_x hinge between the light lwaist and the pelvis:
#   1 / 20 / 2, 0.5: 3.8 mm / 91 / 365 | 1 / 40 / 2, 0.5: 2.6 mm / 6 / 428 | 1 / 20 / 8, 0.5: 3.0 mm / 15 / 587
#   2 / 10 / 2, 1.0: 2.2 mm /  2 / 557 | 3 / 10 / 2, 0.5: 1.7 mm / 0 / 787 | 2 / 20 / 2, 1.0: 1.7 mm /  0 / 783
#   (worst separation / steps above 2 mm / CPU us per env step)
HUMANOID_STANDUP_SOLVER = SolverSettings(substeps=2, velocity_iterations=20, position_iterations=2, baumgarte=1.0)


# Reacher (dt 0.01; armature 1 on links of ~1e-4 kg m^2, motor torques through the armature rows),
# 5000 steps seed 7: worst anchor separation / steps above 2 mm / CPU us per env step, and over 8
# random-action episodes from MuJoCo's reset state the mean (max) largest arm-angle gap to Reacher-v5:
#   2 / 20 / 2, 0.5: 292 mm / 30 /  71 (unstable) | 2 / 50 / 2, 0.5: 2.1 mm / 2 /  84, 0.60 (2.19) rad
#   4 / 20 / 2, 0.5: 0.7 mm /  0 / 122, 0.98 (4.36) | 4 / 50 / 2, 0.5: 0.5 mm / 0 / 137, 0.49 (2.16) rad
#   8 / 100: 0.39 (1.83) rad. MuJoCo's own RK4 against its Euler differs by 0.16 (0.68) rad there; the
#   armature rows converge slowly against the links (1-step joint acceleration within 1% of MuJoCo
#   only at 16 sub-steps x 200 iterations), hence the iterations.
REACHER_SOLVER = SolverSettings(substeps=4, velocity_iterations=50, position_iterations=2, baumgarte=0.5)


@dataclass(frozen=True)
class TaskSpec:
    name: str
    xml_file: str
    solver: SolverSettings
    native_task: type  # a _native.Task subclass
    env_entry_point: str
    max_episode_steps: int
    reward_threshold: float | None = None
    # native arguments that make the generic native task this one (not user-facing)
    preset: dict[str, Any] = field(default_factory=dict)
    # v5 keyword arguments with a different name or form on the native side
    renamed: dict[str, str] = field(default_factory=dict)
    # native arguments that depend on the model (e.g. body ids looked up by name)
    from_model: Callable[[JoltModel], dict[str, Any]] | None = None

    @property
    def env_id(self) -> str:
        return f"joltgym/{self.name}-v0"

    def make_task(self, model: JoltModel, **kwargs: Any):
        """The native task for ``model`` with the task's v5 keyword arguments."""
        arguments = dict(self.preset)
        if self.from_model is not None:
            arguments.update(self.from_model(model))
        for key, value in kwargs.items():
            arguments[self.renamed.get(key, key)] = value
        if "main_body" in arguments:
            arguments["main_body"] = model.simulated_body_index(arguments["main_body"])
        if "healthy_state_range" in kwargs:
            arguments["check_state_range"] = True
        return self.native_task(model.native, **arguments)


_PLANAR_WALKER = dict(has_health=True, uniform_velocity_noise=True, qvel_clip=10.0)

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="HalfCheetah",
            xml_file="half_cheetah.xml",
            solver=HALF_CHEETAH_SOLVER,
            native_task=_native.PlanarRunnerTask,
            env_entry_point="joltgym.envs.half_cheetah:HalfCheetahEnv",
            max_episode_steps=1000,
            reward_threshold=4800.0,
        ),
        TaskSpec(
            name="Hopper",
            xml_file="hopper.xml",
            solver=HOPPER_SOLVER,
            native_task=_native.PlanarRunnerTask,
            env_entry_point="joltgym.envs.hopper:HopperEnv",
            max_episode_steps=1000,
            reward_threshold=3800.0,
            preset=dict(
                _PLANAR_WALKER, frame_skip=4, ctrl_cost_weight=1e-3, reset_noise_scale=5e-3,
                healthy_z_range=[0.7, float("inf")], healthy_angle_range=[-0.2, 0.2],
                check_state_range=True, healthy_state_range=[-100.0, 100.0],
            ),
        ),
        TaskSpec(
            name="Walker2d",
            xml_file="walker2d.xml",
            solver=WALKER2D_SOLVER,
            native_task=_native.PlanarRunnerTask,
            env_entry_point="joltgym.envs.hopper:Walker2dEnv",
            max_episode_steps=1000,
            preset=dict(
                _PLANAR_WALKER, frame_skip=4, ctrl_cost_weight=1e-3, reset_noise_scale=5e-3,
                healthy_z_range=[0.8, 2.0], healthy_angle_range=[-1.0, 1.0],
            ),
        ),
        TaskSpec(
            name="InvertedPendulum",
            xml_file="inverted_pendulum.xml",
            solver=INVERTED_PENDULUM_SOLVER,
            native_task=_native.InvertedPendulumTask,
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedPendulumEnv",
            max_episode_steps=1000,
            reward_threshold=950.0,
        ),
        TaskSpec(
            name="InvertedDoublePendulum",
            xml_file="inverted_double_pendulum.xml",
            solver=INVERTED_DOUBLE_PENDULUM_SOLVER,
            native_task=_native.InvertedDoublePendulumTask,
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedDoublePendulumEnv",
            max_episode_steps=1000,
            reward_threshold=9100.0,
        ),
        TaskSpec(
            name="Ant",
            xml_file="ant.xml",
            solver=ANT_SOLVER,
            native_task=_native.AntTask,
            env_entry_point="joltgym.envs.ant:AntEnv",
            max_episode_steps=1000,
            reward_threshold=6000.0,
        ),
        TaskSpec(
            name="Humanoid",
            xml_file="humanoid.xml",
            solver=HUMANOID_SOLVER,
            native_task=_native.HumanoidTask,
            env_entry_point="joltgym.envs.humanoid:HumanoidEnv",
            max_episode_steps=1000,
        ),
        TaskSpec(
            name="HumanoidStandup",
            xml_file="humanoidstandup.xml",
            solver=HUMANOID_STANDUP_SOLVER,
            native_task=_native.HumanoidStandupTask,
            env_entry_point="joltgym.envs.humanoid:HumanoidStandupEnv",
            max_episode_steps=1000,
        ),
        TaskSpec(
            name="Reacher",
            xml_file="reacher.xml",
            solver=REACHER_SOLVER,
            native_task=_native.ReacherTask,
            env_entry_point="joltgym.envs.reacher:ReacherEnv",
            max_episode_steps=50,
            reward_threshold=-3.75,
            from_model=lambda model: dict(
                fingertip=model.mj_model.body("fingertip").id, target=model.mj_model.body("target").id
            ),
        ),
        TaskSpec(
            name="Swimmer",
            xml_file="swimmer.xml",
            solver=SWIMMER_SOLVER,
            native_task=_native.SwimmerTask,
            env_entry_point="joltgym.envs.swimmer:SwimmerEnv",
            max_episode_steps=1000,
            reward_threshold=360.0,
        ),
    )
}


def task_spec(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; known tasks: {', '.join(TASKS)}") from None
