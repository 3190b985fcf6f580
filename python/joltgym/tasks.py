"""Every task, declared once: model file, solver settings, env class and limits.

The task's parameters, observation layout and info keys live in its native task
(``src/tasks``); the single-agent envs, the vector env and the Gymnasium registration all
read this table. Each task's solver settings were chosen by measurement; ``docs/solver.md``
lists them and the presets with their accuracy and cost.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import mujoco

from joltgym import _native
from joltgym.errors import UnsupportedFeatureError
from joltgym.model import JoltModel, SolverSettings, load_model, resolve_model_path

DEFAULT_TASK = "HalfCheetah"  # JoltVectorEnv's task when neither task= nor a shipped model names one

# Names a solver= argument no longer takes, with why.
_RETIRED_PRESETS = {
    "mujoco": "every task's default carries policies over to MuJoCo v5 (HalfCheetah's is v5's own Euler step)",
    "fast": "only tasks whose default is not already their fastest measured setting have it",
}


@dataclass(frozen=True)
class TaskSpec:
    name: str  # also the native task's name
    xml_file: str
    solver: SolverSettings  # the task's default
    env_entry_point: str
    max_episode_steps: int
    reward_threshold: float | None = None
    # Gymnasium v5's DEFAULT_CAMERA_CONFIG of the task (joltgym.rendering: tracks body 1 unless trackbodyid says not)
    camera: dict[str, Any] = field(default_factory=dict)
    # The MJCF camera the task is drawn from by default (rendering and pixel observations) instead of
    # the free camera: a Control Suite task's camera 0, as dm_control's pixel benchmarks use.
    camera_id: int | None = None
    # Named alternatives to the default (solver="fast"), only where they differ from it.
    presets: dict[str, SolverSettings] = field(default_factory=dict)
    # Sets task parameters that live in the model (gains, timestep) on the compiled MuJoCo model,
    # given the task's keyword arguments over their defaults; the native task checks they match.
    edit_model: Callable[[mujoco.MjModel, dict[str, Any]], None] | None = None
    # Named per-env randomisations (randomize="playground"; joltgym.randomization).
    randomizations: dict[str, tuple] = field(default_factory=dict)
    # Whose task it reproduces: "gymnasium" (its v5 MuJoCo env, same id without the version),
    # "playground" (MuJoCo Playground's, as EnvPool 1.2.5's <Name>-v1 ports it) or "dmc" (the DeepMind
    # Control Suite's <domain> <task>, EnvPool's <Domain><Task>-v1 without the version).
    family: str = "gymnasium"

    @property
    def solver_names(self) -> list[str]:
        """What a ``solver=`` string may be for this task."""
        return ["default", *self.presets]

    def resolve_solver(self, solver: SolverSettings | str | None) -> SolverSettings:
        """The settings a ``solver=`` argument means: a SolverSettings as given, None or "default"
        the task's own, or the name of one of its presets."""
        if solver is None or isinstance(solver, SolverSettings):
            return solver or self.solver
        valid = ", ".join(repr(name) for name in self.solver_names)
        if isinstance(solver, str):
            if solver == "default":
                return self.solver
            if solver in self.presets:
                return self.presets[solver]
            why = f" ({solver!r} was retired: {_RETIRED_PRESETS[solver]})" if solver in _RETIRED_PRESETS else ""
            raise ValueError(f"solver={solver!r} for {self.name}: no such preset; valid: {valid} or a "
                             f"joltgym.SolverSettings{why}")
        raise TypeError(f"solver for {self.name} must be a joltgym.SolverSettings or one of {valid}, "
                        f"got {type(solver).__name__}")

    def episode_steps(self, task_kwargs: dict[str, Any]) -> int:
        """Env steps per episode under these keyword arguments: a suite task's episode is
        max_episode_steps control steps (dm_control's time limit), fewer env steps when each repeats
        its action (``action_repeat``)."""
        repeat = task_kwargs.get("action_repeat", 1) if self.family == "dmc" else 1
        if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
            return self.max_episode_steps  # the native task names the bad value
        return -(-self.max_episode_steps // repeat)

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

    def load(self, xml_file: str | os.PathLike | None, solver: SolverSettings | str | None,
             task_kwargs: dict[str, Any], advice: Callable[[str | None], str]) -> tuple[JoltModel, _native.Task]:
        """The model (the task's own unless ``xml_file`` names another) and the task on it.

        A model the task cannot take (its solver or its task refuses the model itself, whatever the
        keyword arguments) raises the same error again, naming the model and the task, then
        ``advice(owner)``: how to ask for ``owner``, the task that ships a model of that file name
        (None where none does).
        """
        path = xml_file or self.xml_file
        edit = None
        if self.edit_model is not None:
            parameters = {**self.native.defaults, **task_kwargs}
            edit = lambda mj_model: self.edit_model(mj_model, parameters)  # noqa: E731
        try:
            model = load_model(path, solver=self.resolve_solver(solver), edit=edit)
        except UnsupportedFeatureError as exc:
            if xml_file is None or not str(exc).startswith("solver "):
                raise
            raise self._misfit(exc, path, advice) from exc
        try:
            return model, self.make_task(model, **task_kwargs)
        except ValueError as exc:
            # An error in a keyword argument stays as it is: the model's own shows without them.
            if xml_file is None or (task_kwargs and self._takes(model)):
                raise
            raise self._misfit(exc, path, advice) from exc

    def _takes(self, model: JoltModel) -> bool:
        try:
            self.make_task(model)
        except ValueError:
            return False
        return True

    def _misfit(self, exc: Exception, path: str | os.PathLike, advice: Callable[[str | None], str]) -> Exception:
        owner = task_for_model(path, default=None)
        return type(exc)(f"model {str(path)!r} does not fit task {self.name!r}: {exc}; "
                         f"{advice(owner.name if owner is not None and owner is not self else None)}")


def _playground_gains(mj_model: mujoco.MjModel, parameters: dict[str, Any]) -> None:
    """EnvPool's Playground ports set the timestep, the position actuators' kp and the joints'
    damping kd from their config, over the XML's."""
    mj_model.opt.timestep = parameters["sim_dt"]
    mj_model.dof_damping[6:] = parameters["kd"]
    mj_model.actuator_gainprm[:, 0] = parameters["kp"]
    mj_model.actuator_biasprm[:, 1] = -parameters["kp"]


# MuJoCo Playground's Go1 domain randomisation (go1/randomize.py) but for its centre-of-mass
# and qpos0 jitters, which joltgym's parameters do not hold yet.
_GO1_RANDOMIZATION = (
    ("floor_friction", "set", 0.4, 1.0),
    ("joint_frictionloss", "scale", 0.9, 1.1, range(1, 13)),
    ("joint_armature", "scale", 1.0, 1.05, range(1, 13)),
    ("body_mass", "scale", 0.9, 1.1),
    ("body_mass", "add", -1.0, 1.0, [0]),  # the trunk
)


def _barkour_gains(mj_model: mujoco.MjModel, parameters: dict[str, Any]) -> None:
    """EnvPool's Barkour port sets the timestep from its config and fixed gains: kp 35, kd 0.5239."""
    mj_model.opt.timestep = parameters["sim_dt"]
    mj_model.dof_damping[6:] = 0.5239
    mj_model.actuator_gainprm[:, 0] = 35.0
    mj_model.actuator_biasprm[:, 1] = -35.0


def _playground_timestep(mj_model: mujoco.MjModel, parameters: dict[str, Any]) -> None:
    """EnvPool's G1 port sets only the timestep from its config; the gains are the XML's."""
    mj_model.opt.timestep = parameters["sim_dt"]


# MuJoCo Playground's G1 domain randomisation (g1/randomize.py) but for its centre-of-mass and
# qpos0 jitters. Its floor friction, as Playground's, reaches no contact: the feet touch the floor
# through explicit pairs with their own friction.
_G1_RANDOMIZATION = (
    ("floor_friction", "set", 0.4, 1.0),
    ("joint_frictionloss", "scale", 0.5, 2.0, range(1, 30)),
    ("joint_armature", "scale", 1.0, 1.05, range(1, 30)),
    ("body_mass", "scale", 0.9, 1.1),
    ("body_mass", "add", -1.0, 1.0, [15]),  # torso_link
)


def _playground_task(name: str, robot: str, scene: str, edit: Callable[[mujoco.MjModel, dict[str, Any]], None],
                     distance: float, elevation: float = -15.0, randomization: tuple | None = None,
                     max_episode_steps: int = 1000) -> "TaskSpec":
    """A task of EnvPool's Playground ports on Playground's scene ``<robot>/<scene>``, its env class
    ``<Name>Env`` in ``joltgym.envs.<robot>``."""
    return TaskSpec(
        name=name,
        xml_file=f"{robot}/{scene}",
        solver=_articulated(1, 2),
        env_entry_point=f"joltgym.envs.{robot}:{name}Env",
        max_episode_steps=max_episode_steps,
        camera={"distance": distance, "elevation": elevation},
        edit_model=edit,
        randomizations={"playground": randomization} if randomization else {},
        family="playground",
    )


def _g1_task(name: str, scene: str) -> "TaskSpec":
    return _playground_task(name, "g1", scene, _playground_timestep, 2.5, randomization=_G1_RANDOMIZATION)


def _go1_task(name: str, scene: str, max_episode_steps: int) -> "TaskSpec":
    return _playground_task(name, "go1", scene, _playground_gains, 1.5, -20.0, _GO1_RANDOMIZATION, max_episode_steps)


def _berkeley_task(name: str, scene: str) -> "TaskSpec":
    # berkeley_humanoid/randomize.py draws Go1's ranges (12 joints, the torso's mass)
    return _playground_task(name, "berkeley_humanoid", scene, _playground_timestep, 2.0, randomization=_GO1_RANDOMIZATION)


# MuJoCo Playground's T1 domain randomisation (t1/randomize.py) but for its qpos0 jitter: the ankles'
# damping over a wider range.
_T1_RANDOMIZATION = (
    ("floor_friction", "set", 0.2, 0.6),
    ("joint_frictionloss", "scale", 0.9, 1.1, range(1, 24)),
    ("joint_armature", "scale", 1.0, 1.05, range(1, 24)),
    ("body_mass", "scale", 0.98, 1.02),
    ("body_mass", "add", -1.0, 1.0, [0]),  # Trunk
    ("actuator_kp", "scale", 0.9, 1.1),
    ("joint_damping", "scale", 0.5, 2.0, [16, 17, 22, 23]),  # the ankles
)


def _t1_task(name: str, scene: str) -> "TaskSpec":
    return _playground_task(name, "t1", scene, _playground_timestep, 2.5, randomization=_T1_RANDOMIZATION)


def _h1_task(name: str) -> "TaskSpec":
    return _playground_task(name, "h1", "scene_mjx_feetonly.xml", _playground_timestep, 3.0)


def _spot_task(name: str, scene: str, max_episode_steps: int) -> "TaskSpec":
    return _playground_task(name, "spot", scene, _playground_gains, 2.5, -20.0, max_episode_steps=max_episode_steps)


def _suite_task(name: str, model: str, solver: SolverSettings, edit_model=None, camera_id: int = 0) -> "TaskSpec":
    """A task of the DeepMind Control Suite on its own model ``dm_control/suite/<model>`` (joltgym.suite_assets:
    pip install "joltgym[dmc]"), its env class ``<Name>Env`` in ``joltgym.envs.suite``; 1000 control steps; pixels
    from the model's camera ``camera_id`` (the one pixel-based agents use: DrQ-v2's)."""
    return TaskSpec(
        edit_model=edit_model,
        name=name,
        xml_file=f"dm_control/{model}",
        solver=solver,
        env_entry_point=f"joltgym.envs.suite:{name}Env",
        max_episode_steps=1000,
        family="dmc",
        camera_id=camera_id,
    )


def _finger_spin(mj_model: mujoco.MjModel, parameters: dict[str, Any]) -> None:
    """dm_control's spin lowers the spinner's hinge damping from the model's 0.5 and hides the target and tip sites."""
    mj_model.dof_damping[mj_model.joint("hinge").dofadr[0]] = 0.03
    for site in ("target", "tip"):
        mj_model.site_rgba[mj_model.site(site).id, 3] = 0.0


def _hide_fish_target(mj_model: mujoco.MjModel, parameters: dict[str, Any]) -> None:
    """dm_control's fish upright hides the target, which the task has no use for."""
    mj_model.geom_rgba[mj_model.geom("target").id, 3] = 0.0


def _articulated(substeps: int, velocity_iterations: int, **kwargs: Any) -> SolverSettings:
    """A robot's joints (and a planar tree's floor contacts) solved in its tree's joint space."""
    return SolverSettings(substeps=substeps, velocity_iterations=velocity_iterations, position_iterations=1,
                          baumgarte=1.0, articulated_joints=True, **kwargs)


# A cart on a slide is no tree the joint-space solve takes; four updates per step stand in for the
# suite's RK4 step.
_CARTPOLE = SolverSettings(substeps=4, velocity_iterations=8, position_iterations=2, baumgarte=0.5)

_FINGER = _articulated(1, 8, mujoco_euler=True)

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="HalfCheetah",
            xml_file="half_cheetah.xml",
            # MuJoCo v5's own Euler step: v5's step is far from converged at 0.01 s, and policies
            # carry over between the engines only on the same step.
            solver=_articulated(1, 4, mujoco_euler=True),
            presets={"fast": _articulated(1, 2)},
            env_entry_point="joltgym.envs.half_cheetah:HalfCheetahEnv",
            max_episode_steps=1000,
            reward_threshold=4800.0,
            camera={"distance": 4.0},
        ),
        TaskSpec(
            name="Hopper",
            xml_file="hopper.xml",
            # dt 0.002 is small enough for one update.
            solver=_articulated(1, 2),
            env_entry_point="joltgym.envs.hopper:HopperEnv",
            max_episode_steps=1000,
            reward_threshold=3800.0,
            camera={"trackbodyid": 2, "distance": 3.0, "lookat": (0.0, 0.0, 1.15), "elevation": -20.0},
        ),
        TaskSpec(
            name="Walker2d",
            xml_file="walker2d.xml",
            # Two updates per step stand in for v5's RK4 integrator.
            solver=_articulated(2, 2),
            env_entry_point="joltgym.envs.hopper:Walker2dEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 2, "distance": 4.0, "lookat": (0.0, 0.0, 1.15), "elevation": -20.0},
        ),
        TaskSpec(
            name="InvertedPendulum",
            xml_file="inverted_pendulum.xml",
            # Joint by joint (a cart on a slide is no tree the joint-space solve takes); two updates
            # per step hold the hinge and halve the fast pole's integration error.
            solver=SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5),
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedPendulumEnv",
            max_episode_steps=1000,
            reward_threshold=950.0,
            camera={"trackbodyid": 0, "distance": 2.04},
        ),
        TaskSpec(
            name="InvertedDoublePendulum",
            xml_file="inverted_double_pendulum.xml",
            # As InvertedPendulum: one update a step leaves the hinges visibly apart.
            solver=SolverSettings(substeps=2, velocity_iterations=8, position_iterations=2, baumgarte=0.5),
            env_entry_point="joltgym.envs.inverted_pendulum:InvertedDoublePendulumEnv",
            max_episode_steps=1000,
            reward_threshold=9100.0,
            camera={"trackbodyid": 0, "distance": 4.1225, "lookat": (0.0, 0.0, 0.1225)},
        ),
        TaskSpec(
            name="Ant",
            xml_file="ant.xml",
            # Armature hundreds of times its links' inertia, which only the joint-space solve
            # converges; two updates for the contacts of four feet.
            solver=_articulated(2, 2),
            env_entry_point="joltgym.envs.ant:AntEnv",
            max_episode_steps=1000,
            reward_threshold=6000.0,
            camera={"distance": 4.0},
        ),
        TaskSpec(
            name="Humanoid",
            xml_file="humanoid.xml",
            # The gimbals' coordinates as rates of the joint-space solve; the rest of its error is
            # the time step (v5 integrates with RK4), not the iterations.
            solver=_articulated(1, 2),
            env_entry_point="joltgym.envs.humanoid:HumanoidEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 1, "distance": 4.0, "lookat": (0.0, 0.0, 2.0), "elevation": -20.0},
        ),
        TaskSpec(
            name="HumanoidStandup",
            xml_file="humanoidstandup.xml",
            # Lying on the floor, one update a step is much further from MuJoCo than two.
            solver=_articulated(2, 2),
            presets={"fast": _articulated(1, 2)},
            env_entry_point="joltgym.envs.humanoid:HumanoidStandupEnv",
            max_episode_steps=1000,
            camera={"trackbodyid": 1, "distance": 4.0, "lookat": (0.0, 0.0, 0.8925), "elevation": -20.0},
        ),
        TaskSpec(
            name="Reacher",
            xml_file="reacher.xml",
            # Nothing collides, so one iteration of the joint-space solve is exact; two updates
            # follow MuJoCo's arm.
            solver=_articulated(2, 1),
            env_entry_point="joltgym.envs.reacher:ReacherEnv",
            max_episode_steps=50,
            reward_threshold=-3.75,
            camera={"trackbodyid": 0},
        ),
        # MuJoCo Playground's Go1 (joltgym.robot_assets: pip install "joltgym[robots]"); the joint-space
        # solve holds the legs' PD actuators and the feet's soft floor rows (a height field's too). Two
        # iterations keep a landing within 0.004 rad of MuJoCo's converged solve (four: 0.0013).
        _go1_task("Go1JoystickFlatTerrain", "scene_mjx_feetonly_flat_terrain.xml", 1000),
        _go1_task("Go1JoystickRoughTerrain", "scene_mjx_feetonly_rough_terrain.xml", 1000),
        # every leg's geoms collide: a front leg's touch ends these
        _go1_task("Go1Handstand", "scene_mjx_flat_terrain.xml", 500),
        _go1_task("Go1Footstand", "scene_mjx_flat_terrain.xml", 500),
        # dropped in any pose: every geom of the robot collides, with the floor and itself
        _go1_task("Go1Getup", "scene_mjx_fullcollisions_flat_terrain.xml", 1000),
        # MuJoCo Playground's G1: only explicit pairs collide (feet with the floor, feet, hands on thighs)
        _g1_task("G1JoystickFlatTerrain", "scene_mjx_feetonly_flat_terrain.xml"),
        _g1_task("G1JoystickRoughTerrain", "scene_mjx_feetonly_rough_terrain.xml"),
        # MuJoCo Menagerie's Google Barkour vB, as Playground trains it: kicked now and then
        _playground_task("BarkourJoystick", "barkour", "scene_mjx.xml", _barkour_gains, 1.5, -20.0),
        # MuJoCo Playground's Robotis OP3: feet only collide
        _playground_task("Op3Joystick", "op3", "scene_mjx_feetonly.xml", _playground_gains, 1.2),
        # MuJoCo Playground's Boston Dynamics Spot: feet only collide when it walks, every geom when it gets up
        _spot_task("SpotFlatTerrainJoystick", "scene_mjx_feetonly_flat_terrain.xml", 1000),
        _spot_task("SpotGetup", "scene_mjx_flat_terrain.xml", 300),
        _spot_task("SpotJoystickGaitTracking", "scene_mjx_feetonly_flat_terrain.xml", 1000),
        # MuJoCo Playground's Berkeley Humanoid: its feet only collide
        _berkeley_task("BerkeleyHumanoidJoystickFlatTerrain", "scene_mjx_feetonly_flat_terrain.xml"),
        _berkeley_task("BerkeleyHumanoidJoystickRoughTerrain", "scene_mjx_feetonly_rough_terrain.xml"),
        # MuJoCo Playground's Booster T1: four spheres under each foot collide
        _t1_task("T1JoystickFlatTerrain", "scene_mjx_feetonly_flat_terrain.xml"),
        _t1_task("T1JoystickRoughTerrain", "scene_mjx_feetonly_rough_terrain.xml"),
        # MuJoCo Playground's Apptronik Apollo (implicitfast): explicit pairs collide
        _playground_task("ApolloJoystickFlatTerrain", "apollo", "scene_mjx_feetonly_flat_terrain.xml", _playground_timestep,
                         3.0),
        # MuJoCo Playground's Unitree H1: three spheres under each foot collide
        _h1_task("H1JoystickGaitTracking"),
        _h1_task("H1InplaceGaitTracking"),
        TaskSpec(
            name="Swimmer",
            xml_file="swimmer.xml",
            # No contacts: one iteration is exact, and two updates stand in for v5's RK4.
            solver=_articulated(2, 1),
            env_entry_point="joltgym.envs.swimmer:SwimmerEnv",
            max_episode_steps=1000,
            reward_threshold=360.0,
            camera={},
        ),
        # The DeepMind Control Suite on dm_control's own models. Planar trees step as MuJoCo's Euler step
        # steps them (the suite's timesteps are coarse: 0.02 s for the pendulum and the reacher), which
        # keeps their runs closest to dm_control's (tests/test_suite_tasks.py).
        _suite_task("CheetahRun", "cheetah.xml", _articulated(1, 4, mujoco_euler=True)),
        _suite_task("WalkerStand", "walker.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("WalkerWalk", "walker.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("WalkerRun", "walker.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("CartpoleBalance", "cartpole.xml", _CARTPOLE),
        _suite_task("CartpoleBalanceSparse", "cartpole.xml", _CARTPOLE),
        _suite_task("CartpoleSwingup", "cartpole.xml", _CARTPOLE),
        _suite_task("CartpoleSwingupSparse", "cartpole.xml", _CARTPOLE),
        _suite_task("PendulumSwingup", "pendulum.xml", _articulated(1, 2, mujoco_euler=True)),
        # RK4 in the suite: four updates per step
        _suite_task("AcrobotSwingup", "acrobot.xml", _articulated(4, 1)),
        _suite_task("AcrobotSwingupSparse", "acrobot.xml", _articulated(4, 1)),
        # two slides of one body (no planar tree): joint by joint, exact without contacts
        _suite_task("PointMassEasy", "point_mass.xml", _articulated(1, 1)),
        _suite_task("ReacherEasy", "reacher.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("ReacherHard", "reacher.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("HopperStand", "hopper.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("HopperHop", "hopper.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("FingerSpin", "finger.xml", _FINGER, edit_model=_finger_spin),
        _suite_task("FingerTurnEasy", "finger.xml", _FINGER),
        _suite_task("FingerTurnHard", "finger.xml", _FINGER),
        # tiny fins in a dense fluid; each fin's two hinges have anchors of their own. Nothing touches: one
        # iteration of the joint-space solve is exact (two gave the same run against MuJoCo)
        _suite_task("FishUpright", "fish.xml", _articulated(1, 1), edit_model=_hide_fish_target),
        _suite_task("FishSwim", "fish.xml", _articulated(1, 1)),
        # its ankles are two hinges about anchors of their own, which the joint-space solve holds; its joints'
        # damping taken after the constraint forces, as MuJoCo's Euler step takes it
        _suite_task("HumanoidStand", "humanoid.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("HumanoidWalk", "humanoid.xml", _articulated(1, 2, mujoco_euler=True)),
        _suite_task("HumanoidRun", "humanoid.xml", _articulated(1, 2, mujoco_euler=True)),
        # a ball tied to a cup by a string (a limited spatial tendon), their contacts MuJoCo's soft ones: joint by
        # joint, one iteration, which is MuJoCo's Euler step (the rows found first, the cup's damping implicit after)
        _suite_task("BallInCupCatch", "ball_in_cup.xml",
                    SolverSettings(velocity_iterations=1, position_iterations=1, baumgarte=1.0)),
        # dm_control builds these from swimmer.xml (joltgym.suite_assets); no contacts
        _suite_task("SwimmerSwimmer6", "swimmer6.xml", _articulated(1, 1, mujoco_euler=True)),
        _suite_task("SwimmerSwimmer15", "swimmer15.xml", _articulated(1, 1, mujoco_euler=True)),
        # built from manipulator.xml without the other props (joltgym.suite_assets); the arm in its joint space (its
        # fingers' coupling there too), its contacts with the ball row by row in Jolt's lists, which eight
        # iterations bring within 1 cm of MuJoCo's over 0.6 s of a ball bouncing off the arm (two: 0.24)
        _suite_task("ManipulatorBringBall", "manipulator_bring_ball.xml", _articulated(1, 8, mujoco_euler=True)),
        # built from quadruped.xml as its tasks build it (joltgym.suite_assets); the legs' stiff couplings
        # (tendon equalities over each hip's pitch, knee and ankle) in the tree's factor, solved exactly, the joints'
        # heavy damping after the constraint forces as MuJoCo's Euler step takes it; four iterations for the
        # toes' friction pyramids (ten control steps from dm_control's start, seeds 11-13: egocentric state at most
        # 0.084 off MuJoCo's with four, 0.059 with eight, 0.21 with one)
        _suite_task("QuadrupedWalk", "quadruped_walk.xml", _articulated(1, 4, mujoco_euler=True), camera_id=2),
        _suite_task("QuadrupedRun", "quadruped_run.xml", _articulated(1, 4, mujoco_euler=True), camera_id=2),
    )
}


def task_names(family: str) -> list[str]:
    """The tasks of one family ("gymnasium", "playground" or "dmc"), in name order."""
    return sorted(name for name, spec in TASKS.items() if spec.family == family)


def task_for_model(path: str | os.PathLike | None, default: str | None = DEFAULT_TASK) -> TaskSpec | None:
    """The task that ships a model of this file name (``humanoid.xml``: Humanoid; a robot's scene by its
    folder and name, ``g1/scene_mjx_feetonly_flat_terrain.xml``), else ``default``'s."""
    if path is not None:
        given = Path(path).resolve()
        for spec in TASKS.values():
            if len(Path(spec.xml_file).parts) > 1:  # a robot's scene, where its asset wheel has it
                try:
                    if resolve_model_path(spec.xml_file) == given:
                        return spec
                except (FileNotFoundError, ModuleNotFoundError):
                    continue
        for spec in TASKS.values():
            if len(Path(spec.xml_file).parts) == 1 and Path(spec.xml_file).name == Path(path).name:
                return spec
    return None if default is None else TASKS[default]


def task_spec(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; known tasks: {', '.join(TASKS)}") from None
