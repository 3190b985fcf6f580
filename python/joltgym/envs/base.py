"""The Gymnasium surface shared by every single-agent joltgym task.

Physics, observation, reward, termination, reset noise, the observation layout and the
info keys live in the native task; this class only adapts it to Gymnasium's API (spaces,
seeding, info dicts). Each task's env class is made by ``task_env``, which gives it Gymnasium
v5's signature from the native task's keyword arguments and defaults, their one source.
"""

from __future__ import annotations

import inspect
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.utils import EzPickle

from joltgym import _native
from joltgym.closing import ClosesItsRenderer
from joltgym.divergence import DIVERGED_KEY, warn_diverged
from joltgym.model import JoltModel, SolverSettings
from joltgym.pixels import PixelSettings, render_size
from joltgym.rendering import DEFAULT_SIZE, RENDER_MODES, FrameRenderer, RenderSettings, camera_settings
from joltgym import randomization
from joltgym.randomization import PhysicsParameters
from joltgym.seeding import EpisodeSeeds
from joltgym.spaces import ObservationView, action_space, observation_space
from joltgym.tasks import task_spec

_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _annotation(default: Any) -> str:
    if isinstance(default, tuple):
        return f"tuple[{', '.join(type(v).__name__ for v in default)}]"
    return type(default).__name__


def env_signature(task_name: str) -> inspect.Signature:
    """Gymnasium v5's signature of a task's env: ``xml_file``, ``frame_skip``,
    ``default_camera_config``, the native task's other keyword arguments with their defaults in
    declaration order, then ``solver``, ``randomize``, ``render_mode``, ``obs_type``, ``frame_stack`` and
    ``**kwargs`` (the rendering keywords)."""
    spec = task_spec(task_name)
    native = spec.native.defaults
    task_parameters = [inspect.Parameter(name, _POSITIONAL, default=value, annotation=_annotation(value))
                       for name, value in native.items() if name != "frame_skip"]
    # Tasks with EnvPool's conventions step ctrl_dt / sim_dt physics steps and take no frame_skip.
    frame_skip = ([inspect.Parameter("frame_skip", _POSITIONAL, default=native["frame_skip"], annotation="int")]
                  if "frame_skip" in native else [])
    return inspect.Signature([
        inspect.Parameter("self", _POSITIONAL),
        inspect.Parameter("xml_file", _POSITIONAL, default=spec.xml_file, annotation="str"),
        *frame_skip,
        inspect.Parameter("default_camera_config", _POSITIONAL, default=None, annotation="dict | None"),
        *task_parameters,
        inspect.Parameter("solver", _POSITIONAL, default=None, annotation="SolverSettings | str | None"),
        inspect.Parameter("randomize", _POSITIONAL, default=None, annotation="str | list | None"),
        inspect.Parameter("render_mode", _POSITIONAL, default=None, annotation="str | None"),
        inspect.Parameter("obs_type", _POSITIONAL, default="state", annotation="str"),
        inspect.Parameter("frame_stack", _POSITIONAL, default=1, annotation="int"),
        inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD, annotation="Any"),
    ])


def task_env(task_name: str, module: str, doc: str, base: type[JoltEnv] | None = None) -> type[JoltEnv]:
    """The env class of a task, ``<Name>Env`` in ``module`` (a ``base``, by default JoltEnv), with v5's
    signature (``env_signature``)."""
    signature = env_signature(task_name)
    base = base or JoltEnv

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        del arguments["self"]
        rendering = arguments.pop("kwargs")
        base.__init__(self, task_name, **arguments, **rendering)

    __init__.__signature__ = signature
    name = f"{task_name}Env"
    __init__.__qualname__ = f"{name}.__init__"
    return type(name, (base,), {"__init__": __init__, "__doc__": inspect.cleandoc(doc), "__module__": module})


def vector_env_factory(task_name: str):
    """The ``vector_entry_point`` of a task: ``JoltVectorEnv(num_envs, task=task_name, **kwargs)``."""

    def make(num_envs: int, **kwargs: Any):
        from joltgym.vector.jolt_vector_env import JoltVectorEnv

        return JoltVectorEnv(num_envs, task=task_name, **kwargs)

    make.__name__ = make.__qualname__ = f"{task_name}VectorEnv"
    make.__doc__ = f"``JoltVectorEnv(num_envs, task={task_name!r}, **kwargs)``: {task_name}'s native vector env."
    return make


def _use_the_tasks_own_id(owner: str | None) -> str:
    if owner is not None:
        return f"it is joltgym/{owner}-v0's model: make that id"
    return "make the id of the task it is a model of"


class JoltEnv(ClosesItsRenderer, PhysicsParameters, gym.Env, EzPickle):
    """A task from ``joltgym.tasks`` as a Gymnasium env; subclasses give it v5's signature.

    Rendering takes MujocoEnv's keywords: ``render_mode`` ("human", "rgb_array", "depth_array",
    "rgbd_tuple"), ``width`` and ``height`` (480), ``camera_id`` or ``camera_name`` (a camera of
    the MJCF; default: the task's camera, else the tracking free camera), ``default_camera_config``
    (default: the task's, v5's); see ``joltgym.rendering``. Drawing reads the world and never changes it.

    ``obs_type="pixels"`` observes that camera's frames (84 x 84 by default), ``"pixels_state"`` a dict of
    them and the state observation, ``frame_stack=k`` the last k frames (``joltgym.pixels``).
    """

    metadata = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        task_name: str,
        *,
        xml_file: str | None = None,
        solver: SolverSettings | str | None = None,
        randomize: str | list | None = None,
        render_mode: str | None = None,
        default_camera_config: dict | None = None,
        width: int | None = None,
        height: int | None = None,
        camera_id: int | None = None,
        camera_name: str | None = None,
        obs_type: str = "state",
        frame_stack: int = 1,
        **task_kwargs: Any,
    ):
        EzPickle.__init__(
            self,
            xml_file=xml_file,
            solver=solver,
            randomize=randomize,
            render_mode=render_mode,
            default_camera_config=default_camera_config,
            width=width,
            height=height,
            camera_id=camera_id,
            camera_name=camera_name,
            obs_type=obs_type,
            frame_stack=frame_stack,
            **task_kwargs,
        )
        spec = task_spec(task_name)
        self._pixels = PixelSettings.of(obs_type, width, height, frame_stack)
        width, height = render_size(self._pixels, width, height, DEFAULT_SIZE)
        self.render_mode = render_mode
        self.model: JoltModel
        self.model, self.task = spec.load(xml_file, solver, task_kwargs, _use_the_tasks_own_id)
        self._core = _native.TaskCore(self.model.native, self.task)
        self._core.set_randomization(randomization.normalize(randomize, spec.randomizations, task_name))
        self._episode_seeds = EpisodeSeeds()
        self.frame_skip = self.task.frame_skip
        self.dt = self.task.dt
        self.metadata = {"render_modes": RENDER_MODES, "render_fps": int(np.round(1.0 / self.dt))}
        camera = camera_settings(self.model, camera_id, camera_name, default_camera_config, default_config=spec.camera,
                                 default_camera_id=spec.camera_id)
        self.width, self.height, self.camera_id, self.camera_name = width, height, camera_id, camera_name
        self.renderer = FrameRenderer(
            RenderSettings(render_mode, width, height, camera, self.metadata["render_fps"], spec.env_id),
            self._core.render,
        )
        self.observation_structure = self.task.observation_structure
        self.action_space = action_space(self.task, self.model)
        self.observation_space = self._pixels.observation_space(observation_space(self.task))
        self._view = ObservationView(self.task)
        # the last frame_stack frames, oldest first (pixel observations)
        self._frames = np.zeros((self._pixels.frame_stack, height, width, 3), np.uint8) if self._pixels.pixels else None
        self.init_qpos = self.model.init_qpos.copy()
        self.init_qvel = self.model.init_qvel.copy()
        self._elapsed_steps = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        self._check_open()
        super().reset(seed=seed)
        obs, info = self._core.reset(self._episode_seeds.next(seed, self.np_random))
        self._elapsed_steps = 0
        if self.render_mode == "human":  # Gymnasium's "human" mode draws on every reset and step
            self.render()
        return self._observe(obs, fresh=True), info

    def step(self, action):
        self._check_open()
        obs, reward, terminated, diverged, info = self._core.step(action)
        self._elapsed_steps += 1
        if diverged:
            info[DIVERGED_KEY] = True
            warn_diverged(self.spec.id if self.spec else type(self).__name__)
        if self.render_mode == "human":
            self.render()
        return self._observe(obs), reward, terminated, diverged and not terminated, info

    def _observe(self, obs: np.ndarray, fresh: bool = False):
        """The observation space's value of the state observation ``obs`` (with pixels: drawn now; a
        ``fresh`` frame fills the stack)."""
        if self._frames is None:
            return self._view(obs)
        frame = self.renderer.frame()[0]
        if fresh:
            self._frames[:] = frame
        else:
            self._frames[:-1] = self._frames[1:]
            self._frames[-1] = frame
        return self._pixels.observation(self._view(obs), self._frames.copy())

    def _physics_owner(self):
        return self._core

    def set_physics(self, name: str, values) -> None:
        """Sets a physical parameter of the robot (joltgym.randomization), (size,) values; it holds until
        set again, or until a reset draws it (``randomize=``)."""
        self._check_open()
        self._core.set_physics(name, values)

    @property
    def qpos(self) -> np.ndarray:
        """MuJoCo-ordered generalized coordinates of the robot (float32 copy)."""
        return self._core.qpos

    @property
    def qvel(self) -> np.ndarray:
        return self._core.qvel

    @property
    def elapsed_steps(self) -> int:
        """Steps since the last reset (what Gymnasium's TimeLimit counts too)."""
        return self._elapsed_steps

    def get_state(self) -> bytes:
        """The env's exact state as ``bytes`` (picklable): physics, solver warm starts, random
        stream, the task's command or goal, randomised physics, the step count and the episode seed
        stream. ``set_state(state)`` on this or any env of the same task and model (a vector env's
        too) steps on bit for bit as this env does from here (``docs/state.md``)."""
        self._check_open()
        if self._episode_seeds.state is None:
            raise gym.error.ResetNeeded("get_state() needs an episode: call reset() first")
        return self._core.save_state(self._episode_seeds.state, self._elapsed_steps)

    def set_state(self, qpos, qvel=None) -> None:
        """``set_state(state)``: restores ``get_state()``'s bytes exactly (ValueError for a state of
        another task or model, or damaged bytes). ``set_state(qpos, qvel)``: places the robot at
        generalized coordinates, as MujocoEnv.set_state. Wrappers keep their own counters: after
        restoring through ``gym.make``'s TimeLimit, ``env.set_wrapper_attr("_elapsed_steps",
        env.unwrapped.elapsed_steps)``."""
        self._check_open()
        if qvel is None:
            if not isinstance(qpos, (bytes, bytearray, memoryview)):
                raise TypeError("set_state takes get_state()'s bytes, or qpos and qvel; got "
                                f"{type(qpos).__name__} alone")
            seed_state, elapsed, _ = self._core.restore_state(qpos)
            self._episode_seeds.restore(seed_state)
            self._elapsed_steps = int(elapsed)
        else:
            self._core.set_state(qpos, qvel)
        if self._frames is not None:  # a restored env's frame stack restarts, as the vector env's
            self._frames[:] = self.renderer.frame()[0]

    def render(self):
        """The current frame in ``render_mode``: HxWx3 uint8 ("rgb_array"), HxW float32 metres along
        the view axis ("depth_array"), both ("rgbd_tuple"), or None after drawing a window ("human")."""
        return self.renderer.render()

    @property
    def _display_name(self) -> str:
        return self.spec.id if self.spec else "joltgym"
