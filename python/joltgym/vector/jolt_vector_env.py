"""JoltVectorEnv: N environments of one task stepped natively, as a Gymnasium 1.x VectorEnv.

Physics, task logic, auto-reset and truncation run in C++ (``_native.WorldPool``) on
persistent threads with the GIL released; this class only shapes the results into
Gymnasium's vector API (batched spaces, infos as dicts of arrays with ``_key`` masks).

Besides ``step``, envs step asynchronously, as EnvPool's do: ``send(actions, env_ids)`` returns
while the pool's own threads step those envs, and ``recv()`` returns the next ``batch_size`` envs
that finished, their ids in ``infos["env_id"]`` (``docs/async.md``).

Calls from several Python threads are serialised: one ``reset``/``step``/``close`` runs at
a time, and each returns the results of its own call.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
from gymnasium import error
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from joltgym import _native
from joltgym.divergence import DIVERGED_KEY, warn_diverged
from joltgym.model import SolverSettings
from joltgym.pixels import PixelSettings, render_size
from joltgym.rendering import DEFAULT_SIZE, RENDER_MODES, RenderSettings, VectorRenderer, camera_settings
from joltgym import randomization
from joltgym.randomization import PhysicsParameters
from joltgym.spaces import ObservationView, action_space, observation_space
from joltgym.tasks import TASKS, task_for_model, task_spec
from joltgym.vector.asynchronous import AsynchronousSteps, check_batch_size
from joltgym.vector.saved_states import SavedStates

_NATIVE_MODES = {
    AutoresetMode.NEXT_STEP: _native.AutoresetMode.NEXT_STEP,
    AutoresetMode.SAME_STEP: _native.AutoresetMode.SAME_STEP,
    AutoresetMode.DISABLED: _native.AutoresetMode.DISABLED,
}


def _name_the_task(owner: str | None) -> str:
    if owner is not None:
        return f"it is task {owner!r}'s model: pass task={owner!r}"
    return f"pass task= with the task it is a model of ({', '.join(TASKS)})"


class JoltVectorEnv(PhysicsParameters, AsynchronousSteps, SavedStates, VectorEnv):
    """``num_envs`` copies of a joltgym task in one native pool.

    Args:
        num_envs: number of environments (>= 1).
        model_path: MJCF file (defaults to the task's own asset); ``xml_file`` is an alias.
        task: task name, e.g. ``"Humanoid"``. ``None``: the task that ships ``model_path`` (by its
            file name: ``humanoid.xml`` is Humanoid's), else HalfCheetah. A model the task cannot
            take raises an error naming the model, the task and this keyword.
        max_episode_steps: truncation length (``None``: the task's default; 0: never).
        autoreset_mode: Gymnasium autoreset mode (NEXT_STEP default, SAME_STEP, DISABLED).
        num_threads: worker threads (default ``min(hardware threads, 16)``); results do not
            depend on it.
        robots_per_world: at most this many envs' robots share one Jolt world, so that one
            physics update advances them all (they never touch; the worlds are filled evenly).
            ``None``: for tasks whose robots touch nothing through Jolt, about 96 bodies' worth
            (32 Reachers, 13 HalfCheetahs, 8 Humanoids), fewer when that would leave threads idle,
            and a multiple of the threads in worlds; 1 for the rest. Results do not depend on it;
            the property of that name reports the largest world's.
        copy: return new arrays (default). ``False``: observations, rewards (float32) and the
            terminated/truncated flags are the env's own buffers, which the next ``step`` (or
            ``recv``: a batch's buffers) overwrites; ``torch.from_dlpack`` shares them without a copy.
        batch_size: envs each ``recv()`` returns (``None``: all of them). Below ``num_envs``,
            ``step(actions, env_ids)`` is ``send`` then ``recv``, and envs share Jolt worlds only
            in groups whose size divides it (a world steps whole).
        solver: a ``joltgym.SolverSettings``, ``None`` or "default" (the task's own), or the name of
            one of the task's presets (``TaskSpec.presets``, e.g. HalfCheetah's "fast").
        randomize: physical parameters drawn for each env at every reset (``joltgym.randomization``):
            draws ``(name, mode, low, high[, elements[, shared]])``, or a preset's name ("playground").
            ``get_physics(name)`` reads each env's values and ``set_physics(name, values)`` sets them.
        render_mode, width, height, camera_id, camera_name, default_camera_config: as the
            single env takes them; ``render()`` returns one frame per env (a tuple, as
            Gymnasium's vector envs do), or with ``render_mosaic=True`` one image of them all
            tiled (``joltgym.rendering.tile``). ``render_envs`` limits drawing to some envs.
        obs_type, frame_stack: as the single env takes them ("pixels", "pixels_state";
            ``joltgym.pixels``): the frames are drawn inside the native pool, on the threads that
            step the envs, after each step and reset.
        **task_kwargs: the task's own keyword arguments (as its single env takes them).
    """

    def __init__(
        self,
        num_envs: int,
        model_path: str | None = None,
        *,
        task: str | None = None,
        max_episode_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        num_threads: int | None = None,
        robots_per_world: int | None = None,
        copy: bool = True,
        batch_size: int | None = None,
        solver: SolverSettings | str | None = None,
        randomize: str | list | None = None,
        render_mode: str | None = None,
        xml_file: str | None = None,
        width: int | None = None,
        height: int | None = None,
        camera_id: int | None = None,
        camera_name: str | None = None,
        default_camera_config: dict | None = None,
        render_mosaic: bool = False,
        render_envs: list[int] | None = None,
        obs_type: str = "state",
        frame_stack: int = 1,
        **task_kwargs: Any,
    ):
        self._closed = False
        self._pool = None
        self._lock = threading.Lock()  # the native pool and our result buffers take one call at a time
        # Pickling rebuilds the env from these (the native pool cannot be pickled), as
        # Gymnasium's EzPickle does for the single envs: SubprocVecEnv, Ray and
        # multiprocessing ship envs this way. Episode state is not carried over: reset after.
        self._init_arguments = (
            (num_envs, model_path),
            dict(task=task, max_episode_steps=max_episode_steps, autoreset_mode=autoreset_mode,
                 num_threads=num_threads, robots_per_world=robots_per_world, copy=copy, batch_size=batch_size, solver=solver, randomize=randomize, render_mode=render_mode, xml_file=xml_file,
                 width=width, height=height, camera_id=camera_id, camera_name=camera_name,
                 default_camera_config=default_camera_config, render_mosaic=render_mosaic,
                 render_envs=render_envs, obs_type=obs_type, frame_stack=frame_stack, **task_kwargs),
        )
        self._pixels = PixelSettings.of(obs_type, width, height, frame_stack)
        width, height = render_size(self._pixels, width, height, DEFAULT_SIZE)
        spec = task_spec(task) if task is not None else task_for_model(model_path or xml_file)
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if model_path is not None and xml_file is not None:
            raise TypeError("give model_path or xml_file, not both")
        autoreset_mode = AutoresetMode(autoreset_mode)
        if max_episode_steps is None:
            max_episode_steps = spec.episode_steps(task_kwargs)
        if int(max_episode_steps) < 0:
            raise ValueError(f"max_episode_steps must be >= 0, got {max_episode_steps}")
        if num_threads is not None and int(num_threads) < 1:
            raise ValueError(f"num_threads must be >= 1, got {num_threads}")
        if robots_per_world is not None and (
            isinstance(robots_per_world, bool) or not isinstance(robots_per_world, (int, np.integer))
            or robots_per_world < 1
        ):
            raise ValueError(f"robots_per_world must be an integer >= 1 or None, got {robots_per_world!r}")
        check_batch_size(batch_size, num_envs)

        self.task_name = spec.name
        self.model, self.task = spec.load(model_path or xml_file, solver, task_kwargs, _name_the_task)
        entropy = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._pool = _native.WorldPool(
            self.model.native,
            self.task,
            int(num_envs),
            num_threads=int(num_threads or 0),
            max_episode_steps=int(max_episode_steps),
            autoreset_mode=_NATIVE_MODES[autoreset_mode],
            entropy=entropy,
            robots_per_world=int(robots_per_world or 0),
            batch_size=int(batch_size or 0),
        )
        self._pool.set_randomization(randomization.normalize(randomize, spec.randomizations, spec.name))

        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.copy = copy
        self.max_episode_steps = int(max_episode_steps)
        self.metadata = {"autoreset_mode": autoreset_mode, "render_modes": RENDER_MODES}
        self._same_step = autoreset_mode == AutoresetMode.SAME_STEP
        self.dt = self.model.timestep * self.task.frame_skip
        self.metadata["render_fps"] = int(np.round(1.0 / self.dt))
        camera = camera_settings(self.model, camera_id, camera_name, default_camera_config, default_config=spec.camera,
                                 default_camera_id=spec.camera_id)
        self._render_settings = RenderSettings(render_mode, width, height, camera, self.metadata["render_fps"], spec.env_id)
        self.render_mosaic = bool(render_mosaic)
        self.render_envs = list(range(self.num_envs)) if render_envs is None else [int(i) for i in render_envs]
        bad = [i for i in self.render_envs if not 0 <= i < self.num_envs]
        if bad or not self.render_envs:
            raise ValueError(f"render_envs must list env indices in [0, {self.num_envs}), got {render_envs!r}")
        self._renderer = VectorRenderer.of_pool(self._pool, self.render_envs, self._render_settings, self._lock,
                                                self._check_open, mosaic=self.render_mosaic)
        self.single_action_space = action_space(self.task, self.model)
        self.single_observation_space = self._pixels.observation_space(observation_space(self.task))
        self._view = ObservationView(self.task)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)

        n, obs_dim, n_info = self.num_envs, self.task.obs_dim, self.task.info_size
        # (key, slice of the info row, at reset): scalars become (n,) arrays, wider keys (n, width)
        self._info_layout = [
            (key, offset if width == 1 else slice(offset, offset + width), at_reset)
            for key, offset, width, at_reset in self.task.info_layout
        ]
        self._obs = np.zeros((n, obs_dim), np.float32)
        self._rewards = np.zeros(n, np.float32)
        self._infos = np.zeros((n, n_info), np.float64)
        self._was_reset = np.zeros(n, bool)
        self._final_obs = np.zeros((n, obs_dim), np.float32)
        self._final_infos = np.zeros((n, n_info), np.float64)
        self._diverged = np.zeros(n, bool)
        self._flags = (np.zeros(n, bool), np.zeros(n, bool))  # terminated, truncated with copy=False
        self.batch_size = self._pool.batch_size
        b = self.batch_size
        # recv's buffers, batch_size rows: (obs, rewards, infos, was_reset, final_obs, final_infos, diverged)
        self._batch = (np.zeros((b, obs_dim), np.float32), np.zeros(b, np.float32), np.zeros((b, n_info), np.float64),
                       np.zeros(b, bool), np.zeros((b, obs_dim), np.float32), np.zeros((b, n_info), np.float64),
                       np.zeros(b, bool))
        self._batch_flags = (np.zeros(b, bool), np.zeros(b, bool))
        self._last_ids = np.arange(n, dtype=np.int32)  # the envs send() steps when given no env_ids
        if self._pixels.pixels:
            self._pool.enable_frames(width, height, camera, self._pixels.frame_stack)
        # the frame stacks' buffers with copy=False, as the observations': every env's, and recv's batch
        self._frames, self._batch_frames = self._frame_buffer(n), self._frame_buffer(b)

    @property
    def num_threads(self) -> int:
        return self._pool.num_threads

    @property
    def robots_per_world(self) -> int:
        """Envs whose robots share one Jolt world: the largest world's (the others hold as many or one fewer)."""
        return self._pool.robots_per_world

    def reset(self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None):
        with self._lock:
            return self._reset(seed, options)

    def _reset(self, seed, options):
        self._check_open()
        if self.copy:  # the caller may hold the last observations returned: reset a copy (partial resets keep the rest)
            self._obs = self._obs.copy()
        mask = None
        if options is not None and "reset_mask" in options:
            mask = options["reset_mask"]
            if not (isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (self.num_envs,)):
                raise ValueError(
                    f"options['reset_mask'] must be a bool ndarray of shape ({self.num_envs},), got {mask!r}"
                )
            if not mask.any():
                raise ValueError("options['reset_mask'] must select at least one env")
        if seed is None:
            self._pool.reset_into(self._obs, self._infos, None, mask)
        else:
            seeds, seeded = self._seed_array(seed)
            wanted = np.ones(self.num_envs, bool) if mask is None else mask
            if (wanted & seeded).any():
                self._pool.reset_into(self._obs, self._infos, seeds, wanted & seeded)
            if (wanted & ~seeded).any():
                self._pool.reset_into(self._obs, self._infos, None, wanted & ~seeded)
        reset_envs = np.ones(self.num_envs, bool) if mask is None else mask
        infos = self._info_dict(self._infos, lambda at_reset: reset_envs.copy(), reset_keys_only=True)
        self._last_ids = np.arange(self.num_envs, dtype=np.int32)
        if self.batch_size < self.num_envs:
            infos["env_id"], infos["_env_id"] = self._last_ids.copy(), np.ones(self.num_envs, bool)
        return self._observe(self._obs, self._frame_stacks(buffer=self._frames)), infos

    def _frame_buffer(self, rows: int) -> np.ndarray | None:
        p = self._pixels
        return np.zeros((rows, p.frame_stack, p.height, p.width, 3), np.uint8) if p.pixels else None

    def _frame_stacks(self, env_ids=None, finals: bool = False, buffer: np.ndarray | None = None):
        """The pool's frame stacks of ``env_ids`` (None: every env), or None without pixels: into
        ``buffer`` with copy=False, else a new array; ``finals``: those that ended episodes (SAME_STEP)."""
        if not self._pixels.pixels:
            return None
        out = buffer if buffer is not None and not self.copy else self._frame_buffer(
            self.num_envs if env_ids is None else len(env_ids))
        self._pool.frames_into(out, None if env_ids is None else np.asarray(env_ids, np.int32), finals)
        return out

    def _observe(self, obs: np.ndarray, frames: np.ndarray | None):
        return self._pixels.observation(self._view(obs), frames)

    def _seed_array(self, seed) -> tuple[np.ndarray, np.ndarray]:
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            if seed < 0:
                raise ValueError(f"seed must be >= 0, got {seed}")
            return np.arange(self.num_envs, dtype=np.uint64) + np.uint64(seed), np.ones(self.num_envs, bool)
        if isinstance(seed, (list, tuple)):
            if len(seed) != self.num_envs:
                raise ValueError(f"a list of seeds must have num_envs={self.num_envs} entries, got {len(seed)}")
            seeded = np.array([s is not None for s in seed])
            values = []
            for s in seed:
                if s is not None and (isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 0):
                    raise ValueError(f"seeds must be non-negative integers or None, got {s!r}")
                values.append(0 if s is None else int(s))
            return np.array(values, dtype=np.uint64), seeded
        raise TypeError(f"seed must be None, an int or a list of ints, got {type(seed).__name__}")

    def step(self, actions, env_ids=None):
        """Steps every env (``batch_size`` = ``num_envs``), or ``send(actions, env_ids)`` then ``recv()``."""
        if self.batch_size < self.num_envs or env_ids is not None:
            self.send(actions, env_ids)
            return self.recv()
        with self._lock:
            self._check_open()
            # The native step returns Gymnasium's arrays and infos new (observations into the kept
            # buffer with copy=False), and whether any env diverged or was reset, so that the Python
            # around it stays a small part of even a light task's step.
            obs, rewards, terminated, truncated, infos, diverged, reset = self._pool.step_arrays(
                actions,
                None if self.copy else self._obs,
                self._rewards,
                self._infos,
                self._was_reset,
                self._final_obs,
                self._final_infos,
                self._diverged,
                *((None, None) if self.copy else self._flags),
            )
            self._obs = obs
            frames = self._frame_stacks(buffer=self._frames)
            if diverged or (reset and self._same_step):
                self._report_step_events(infos, diverged, reset, self._was_reset, self._final_obs,
                                         self._final_infos, self._diverged, np.arange(self.num_envs))
            return self._observe(obs, frames), rewards, terminated, truncated, infos

    def send(self, actions, env_ids=None) -> None:
        """Sends ``actions[k]`` to env ``env_ids[k]`` and returns while those envs step on the pool's
        threads. ``env_ids`` defaults to the envs the last ``recv()`` (or ``reset()``) returned. An
        env may be sent again once ``recv()`` has returned it; a Jolt world steps once all the envs
        it holds are sent (``world_sizes``)."""
        with self._lock:
            self._check_open()
            self._pool.send(actions, self._env_ids(env_ids))

    def async_reset(self, seed: int | list[int] | None = None) -> None:
        """Sends every env a reset (EnvPool's ``async_reset``): ``recv()`` returns their first
        observations, ``batch_size`` at a time, with reward 0 and ``infos`` of the reset keys.
        Ends any step in flight, as ``reset()`` does."""
        with self._lock:
            self._check_open()
            seeds = None
            if seed is not None:
                seeds, seeded = self._seed_array(seed)
                if not seeded.all():
                    raise ValueError("async_reset takes a seed for every env or none")
            self._pool.send_reset(seeds)

    def recv(self):
        """Waits for the next ``batch_size`` envs whose steps (or resets) finished and returns
        Gymnasium's ``(obs, rewards, terminated, truncated, infos)`` for them, their ids in
        ``infos["env_id"]``; an env sent a reset reports its reset (``_key`` masks of the reset
        keys). With ``copy=False`` observations, rewards and flags are buffers the next ``recv``
        overwrites."""
        with self._lock:
            self._check_open()
            b_obs, b_rewards, b_infos, b_reset, b_final_obs, b_final_infos, b_diverged = self._batch
            ids, (obs, rewards, terminated, truncated, infos, diverged, reset) = self._pool.recv_arrays(
                None if self.copy else b_obs, b_rewards, b_infos, b_reset, b_final_obs, b_final_infos, b_diverged,
                *((None, None) if self.copy else self._batch_flags),
            )
            self._last_ids = ids
            frames = self._frame_stacks(ids, buffer=self._batch_frames)
            if diverged or (reset and self._same_step):
                self._report_step_events(infos, diverged, reset, b_reset, b_final_obs, b_final_infos, b_diverged, ids,
                                         terminated | truncated)
            infos["env_id"], infos["_env_id"] = ids.copy(), np.ones(len(ids), bool)
            return self._observe(obs, frames), rewards, terminated, truncated, infos

    def _report_step_events(self, infos: dict[str, Any], diverged: bool, reset: bool, was_reset: np.ndarray,
                            final_obs_rows: np.ndarray, final_info_rows: np.ndarray, diverged_rows: np.ndarray,
                            env_ids: np.ndarray, ended: np.ndarray | None = None) -> None:
        """Adds to a step's infos what only some steps have: diverged envs (also warned of) and, in
        SAME_STEP mode, the final observations and infos of envs reset in this call (whose infos
        report their reset). The row arrays are the call's (every env's, or a batch's); ``ended``
        limits the final ones to envs whose episode ended (a recv also returns envs sent a reset)."""
        rows = len(was_reset)
        if diverged:
            infos[DIVERGED_KEY], infos["_" + DIVERGED_KEY] = diverged_rows.copy(), diverged_rows.copy()
            warn_diverged(f"{self!r}, env(s) {np.asarray(env_ids)[diverged_rows].tolist()}")
        if reset and self._same_step:
            ended = was_reset.copy() if ended is None else was_reset & ended
            final_obs = np.empty(rows, dtype=object)
            rows_ended = np.flatnonzero(ended)
            final_frames = self._frame_stacks(np.asarray(env_ids)[rows_ended], finals=True)
            for k, i in enumerate(rows_ended):
                final_obs[i] = self._observe(final_obs_rows[i].copy(), None if final_frames is None else final_frames[k])
            final_info = self._info_dict(final_info_rows, lambda at_reset: ended.copy())
            if diverged:
                final_info[DIVERGED_KEY], final_info["_" + DIVERGED_KEY] = diverged_rows.copy(), diverged_rows.copy()
            infos["final_obs"], infos["_final_obs"] = final_obs, ended
            infos["final_info"], infos["_final_info"] = final_info, ended.copy()

    def _physics_owner(self):
        return self._pool

    def set_physics(self, name: str, values) -> None:
        """Sets a physical parameter of every env (joltgym.randomization): (num_envs, size) values, or
        (size,) for all alike; they hold until set again, or until a reset draws them (``randomize=``)."""
        with self._lock:
            self._check_open()
            values = np.asarray(values, np.float32)
            size = self._pool.model_physics(name).shape[0]
            if values.shape == (size,):
                values = np.broadcast_to(values, (self.num_envs, size))
            self._pool.set_physics(name, np.ascontiguousarray(values))

    def _info_dict(self, rows: np.ndarray, mask_of, reset_keys_only: bool = False) -> dict[str, Any]:
        """Gymnasium's infos from native info rows: a copied array per key and its ``_key`` mask
        (``mask_of(at_reset)``: a new array of which envs the key is valid for)."""
        infos: dict[str, Any] = {}
        for key, columns, at_reset in self._info_layout:
            if reset_keys_only and not at_reset:
                continue
            infos[key] = rows[:, columns].copy()
            infos["_" + key] = mask_of(at_reset)
        return infos

    def render(self):
        """One frame per env of ``render_envs`` (a tuple), or their mosaic with ``render_mosaic``;
        "depth_array" frames are HxW metres; "human" shows the mosaic in a window. None without a
        render mode."""
        self._check_open()
        return self._renderer.render()

    def _check_open(self) -> None:
        if self._closed:
            raise error.ClosedEnvironmentError("this JoltVectorEnv is closed")

    def __getstate__(self) -> dict[str, Any]:
        return {"init_arguments": self._init_arguments, "closed": self._closed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        args, kwargs = state["init_arguments"]
        self.__init__(*args, **kwargs)
        if state["closed"]:
            self.close()

    def close_extras(self, **kwargs: Any) -> None:
        if getattr(self, "_renderer", None) is not None:
            self._renderer.close()
            self._renderer = None  # its frames hold the pool
        self._pool = None  # joins the worker threads
        self._closed = True

    def close(self, **kwargs: Any) -> None:
        with self._lock:
            if self._closed:
                return
            self.close_extras(**kwargs)
            self.closed = True

    def __repr__(self) -> str:
        return f"JoltVectorEnv({self.task.__class__.__name__}, num_envs={self.num_envs})"
