"""Every task, declared once: model file, measured solver settings, env class and limits.

The task's parameters, observation layout and info keys live in its native task
(``src/tasks``); the single-agent envs, the vector env and the Gymnasium registration all
read this table. Solver settings are chosen per task by measurement
(``benchmarks/measure_solver.py``); the measurements are in ``benchmarks/solver_measurements.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from joltgym import _native
from joltgym.model import JoltModel, SolverSettings


@dataclass(frozen=True)
class TaskSpec:
    name: str  # also the native task's name
    xml_file: str
    solver: SolverSettings
    env_entry_point: str
    max_episode_steps: int
    reward_threshold: float | None = None
    # Gymnasium v5's DEFAULT_CAMERA_CONFIG of the task (joltgym.rendering: tracks body 1 unless trackbodyid says not)
    camera: dict[str, Any] = field(default_factory=dict)
    # solver="fast": fewer sub-steps for users who trade accuracy for speed, with its measured cost
    # and accuracy beside it; None where the default already is the fast setting.
    fast_solver: SolverSettings | None = None
    # solver="mujoco": MuJoCo v5's own step where it is far from converged (HalfCheetah's Euler
    # step at 0.01 s, which is also its default); None elsewhere.
    mujoco_solver: SolverSettings | None = None

    def resolve_solver(self, solver: SolverSettings | str | None) -> SolverSettings:
        """The settings a ``solver=`` argument means: SolverSettings as given, None or "default" the
        task's measured settings, "fast" its fast preset (the default where it has none), "mujoco"
        its preset stepping as MuJoCo v5 does (only where it has one)."""
        if solver is None or isinstance(solver, SolverSettings):
            return solver or self.solver
        if isinstance(solver, str):
            if solver == "default":
                return self.solver
            if solver == "fast":
                return self.fast_solver or self.solver
            if solver == "mujoco":
                if self.mujoco_solver is None:
                    have = ", ".join(s.name for s in TASKS.values() if s.mujoco_solver is not None)
                    raise ValueError(f"solver='mujoco' for {self.name}: no such preset (tasks with one: {have}; "
                                     "the others' default steps already carry policies over to MuJoCo v5)")
                return self.mujoco_solver
            raise ValueError(f"solver={solver!r} for {self.name}: expected a SolverSettings, 'default', 'fast' or "
                             "'mujoco'")
        raise TypeError(f"solver for {self.name} must be a SolverSettings, 'default', 'fast' or 'mujoco', "
                        f"got {type(solver).__name__}")

    @property
    def env_id(self) -> str:
        return f"joltgym/{self.name}-v0"

    @property
    def vector_entry_point(self) -> str:
        """``<Name>VectorEnv``, defined beside the env class."""
        module = self.env_entry_point.split(":")[0]
        return f"{module}:{self.name}VectorEnv"

    @property
    def native(self) -> _native.TaskType:
        return _native.task_type(self.name)

    def make_task(self, model: JoltModel, **kwargs: Any) -> _native.Task:
        """The native task for ``model`` with the task's keyword arguments over its defaults."""
        return self.native.create(model.native, **kwargs)


_HALF_CHEETAH_V5_STEP = SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                       articulated_joints=True, mujoco_euler=True)

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="HalfCheetah",
            xml_file="half_cheetah.xml",
            # MuJoCo v5's Euler step itself (mujoco_euler): one update per 0.01 s, planar links, joints and
            # foot contacts solved in joint space, velocity products explicit, limit and contact forces
            # found before the damping is taken implicitly, the root moved as MuJoCo's coordinates move.
            # v5's step is far from converged at 0.01 s, and a task on a closer step is another task:
            # policies trained on 2 sub-steps x 1 iteration (step_fidelity 3.01 against the converged
            # step, v5's own 6.49) kept only 0.26-0.37 of their return on v5, where policies trained on
            # this step keep 0.85-1.01 and MuJoCo's keep 0.92-1.08 on it, and PPO learns it as MuJoCo's
            # (0.94x its mean return over 5 seeds; README, "Policy transfer").
            # One env step from the v5 states of a MuJoCo-trained policy lands 0.168 (summed |qvel|)
            # from v5's own at 4 iterations (0.031 at 10: the rest is the contacts' convergence),
            # against 3.84 for 2 sub-steps x 1 (benchmarks/step_fidelity.py --frames 1 --policy
            # examples/results/transfer/HalfCheetah_mujoco_1.pt, "joltgym against MuJoCo v5"), for
            # 0.237 M instructions per env step against 0.271 M (benchmarks/profile_step.py). Each further
            # iteration costs ~22 k: at 4 the open-loop gait of compare_with_mujoco.py runs 21.8 m against
            # v5's 25.4 m, at 8 (0.32 M) 25.5 m; the transfer runs were made at 4.
            solver=_HALF_CHEETAH_V5_STEP,
            # One sub-step, implicit velocity products: 0.143 M instructions per step, joints closed,
            # step_fidelity 7.21 against the converged step (solver_measurements.md).
            fast_solver=SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                       articulated_joints=True),
            mujoco_solver=_HALF_CHEETAH_V5_STEP,
            env_entry_point="joltgym.envs.half_cheetah:HalfCheetahEnv",
            max_episode_steps=1000,
            reward_threshold=4800.0,
            camera={"distance": 4.0},
        ),
        TaskSpec(
            name="Hopper",
            xml_file="hopper.xml",
            # dt 0.002 is small enough for one update. Joints and foot contacts solved in joint space,
            # the tree placed on its hinges (articulated_joints): step_fidelity 0.093 on the states a
            # MuJoCo policy visits against 0.46 for joint-by-joint rows at 1 x 6 (v5's own 0.024),
            # joints closed, for 0.120 M instructions per step instead of 0.135 M (one iteration:
            # 0.095; solver_measurements.md).
            solver=SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            env_entry_point="joltgym.envs.hopper:HopperEnv",
            max_episode_steps=1000,
            reward_threshold=3800.0,
            camera={"trackbodyid": 2, "distance": 3.0, "lookat": (0.0, 0.0, 1.15), "elevation": -20.0},
        ),
        TaskSpec(
            name="Walker2d",
            xml_file="walker2d.xml",
            # Two updates per step: Walker2d-v5 integrates with RK4 (with joint-by-joint rows a
            # MuJoCo-trained policy kept 0.47 of its return at 1 x 6 iterations, 0.91 at 2 x 3). Joints
            # and foot contacts solved in joint space, the tree placed on its hinges
            # (articulated_joints): step_fidelity 0.46 on the states a MuJoCo policy visits against
            # 0.68 for joint-by-joint rows at 2 x 3 (v5's own 0.21), joints closed, for 0.241 M
            # instructions per step against 0.244 M (one iteration: 0.58; one sub-step: 0.90;
            # solver_measurements.md).
            solver=SolverSettings(substeps=2, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            env_entry_point="joltgym.envs.hopper:Walker2dEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 2, "distance": 4.0, "lookat": (0.0, 0.0, 1.15), "elevation": -20.0},
        ),
        TaskSpec(
            name="InvertedPendulum",
            xml_file="inverted_pendulum.xml",
            # Two updates per step: 0.3 mm, and half the integration error of the fast pole.
            solver=SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5),
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedPendulumEnv",
            max_episode_steps=1000,
            reward_threshold=950.0,
            camera={"trackbodyid": 0, "distance": 2.04},
        ),
        TaskSpec(
            name="InvertedDoublePendulum",
            xml_file="inverted_double_pendulum.xml",
            # One update leaves 2.6 mm, two hold 0.8 mm.
            solver=SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5),
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedDoublePendulumEnv",
            max_episode_steps=1000,
            reward_threshold=9100.0,
            camera={"trackbodyid": 0, "distance": 4.1225, "lookat": (0.0, 0.0, 0.1225)},
        ),
        TaskSpec(
            name="Ant",
            xml_file="ant.xml",
            # Heavy armature (190-1000x its links' inertia) that joint-by-joint iterations never
            # converged (4 sub-steps x 20: step_fidelity 3.21, v5's own 0.62; a resting Ant stood
            # 15 cm above MuJoCo's). Joints and floor contacts solved in joint space, the tree placed
            # on its hinges at each update (articulated_joints): 2 sub-steps x 2 iterations give
            # step_fidelity 0.82 on the states a MuJoCo policy visits (contacts as Jolt rows at 2 x 8:
            # 1.62 on another policy's), joints closed (0.0 mm), for 0.50 M instructions per step
            # (1.02 M at 2 x 8; one iteration: 0.91). solver_measurements.md.
            solver=SolverSettings(substeps=2, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                  joint_rows_last=False, articulated_joints=True),
            env_entry_point="joltgym.envs.ant:AntEnv",
            max_episode_steps=1000,
            reward_threshold=6000.0,
            camera={"distance": 4.0},
        ),
        TaskSpec(
            name="Humanoid",
            xml_file="humanoid.xml",
            # Solved in joint space, the gimbals' coordinates as rates (articulated_joints): one
            # update of 2 iterations, joints closed (0.0 mm), step_fidelity 4.67 against 4.37 for
            # 1 x 20 x 2 joint by joint (3.54 against 3.69 over one frame), 0.58 M instructions
            # per step instead of 0.89 M. Its remaining error is the time step (4 sub-steps: 2.36;
            # Humanoid-v5 integrates with RK4).
            solver=SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            env_entry_point="joltgym.envs.humanoid:HumanoidEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 1, "distance": 4.0, "lookat": (0.0, 0.0, 2.0), "elevation": -20.0},
        ),
        TaskSpec(
            name="HumanoidStandup",
            xml_file="humanoidstandup.xml",
            # Humanoid's joint-space solve at two updates (lying on the floor, one update is 1.7x
            # further from MuJoCo): step_fidelity 2.64 against 2.77 for 2 x 20 x 2 joint by joint,
            # joints closed, 1.51 M instructions per step instead of 2.01 M.
            solver=SolverSettings(substeps=2, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            # One update: 0.77 M instructions per step (2.6x fewer than joint by joint), joints
            # closed, but step_fidelity 4.54.
            fast_solver=SolverSettings(substeps=1, velocity_iterations=2, position_iterations=1, baumgarte=1.0,
                                       articulated_joints=True),
            env_entry_point="joltgym.envs.humanoid:HumanoidStandupEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 1, "distance": 4.0, "lookat": (0.0, 0.0, 0.8925), "elevation": -20.0},
        ),
        TaskSpec(
            name="Reacher",
            xml_file="reacher.xml",
            # Armature 7800x the links, which joint-by-joint iterations needed 4 sub-steps x 30 for;
            # nothing collides, so one iteration of the joint-space solve (articulated_joints) is
            # exact, and the tree is placed on its hinges at each update: 2 sub-steps x 1 keep the
            # joints closed and follow MuJoCo closer than 4 x 30 did (step_fidelity 0.016 against
            # 0.026) for 3.6x fewer instructions.
            solver=SolverSettings(substeps=2, velocity_iterations=1, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            env_entry_point="joltgym.envs.reacher:ReacherEnv",
            max_episode_steps=50,
            reward_threshold=-3.75,
            camera={"trackbodyid": 0},
        ),
        TaskSpec(
            name="Swimmer",
            xml_file="swimmer.xml",
            # Swimmer-v5 integrates with RK4. Joints solved in joint space, the tree placed on its hinges
            # (articulated_joints): one iteration is exact (no contacts), so the sub-steps buy what RK4
            # does: step_fidelity (random actions) 0.047 at 2 sub-steps against 0.113 for joint-by-joint
            # rows at 1 x 12 (v5's own 0.004; 4 sub-steps: 0.022), joints closed, 0.108 M instructions
            # per step against 0.088 M (solver_measurements.md).
            solver=SolverSettings(substeps=2, velocity_iterations=1, position_iterations=1, baumgarte=1.0,
                                  articulated_joints=True),
            env_entry_point="joltgym.envs.swimmer:SwimmerEnv",
            max_episode_steps=1000,
            reward_threshold=360.0,
            camera={},
        ),
    )
}


def task_spec(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; known tasks: {', '.join(TASKS)}") from None
