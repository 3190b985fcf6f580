"""Many copies of one multi-agent env, stepped natively on persistent threads with the GIL
released; arrays are [num_envs, agents, ...]. An env whose episode is over (every agent done)
starts a new one at its next step, as Gymnasium's NEXT_STEP autoreset: that step ignores its
actions and returns the reset observation with ``infos["_reset"]`` set for the env. Envs whose
robots touch nothing through Jolt (the factorised robots) share Jolt worlds, several to one, as
JoltVectorEnv's do; results do not depend on it. As JoltVectorEnv, it also steps
asynchronously: ``send(actions, env_ids)`` returns while the envs step, ``recv()`` returns the
next ``batch_size`` envs that finished, their ids in ``infos["env_id"]``.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np
import pettingzoo
from gymnasium.error import ClosedEnvironmentError

from joltgym import _native
from joltgym.divergence import DIVERGED_KEY, warn_diverged
from joltgym.rendering import VectorRenderer
from joltgym.vector.asynchronous import AsynchronousSteps, check_batch_size
from joltgym.vector.saved_states import SavedStates


class MultiAgentVectorEnv(AsynchronousSteps, SavedStates):
    """``num_envs`` copies of a registered multi-agent env (``"joltgym/MaHumanoid-v0"``).

    Args:
        env_id: a PettingZoo id registered by joltgym.
        num_envs: worlds (>= 1).
        num_threads: worker threads (default ``min(hardware threads, 16)``); results do not depend on it.
        copy: return copies of the result buffers (default) rather than the buffers themselves,
            which the next ``step`` (or ``recv``) overwrites.
        batch_size: envs each ``recv()`` returns (``None``: all of them); below ``num_envs``,
            ``step(actions, env_ids)`` is ``send`` then ``recv``, and envs share Jolt worlds only in
            groups whose size divides it.
        envs_per_world: at most this many envs' robots share one Jolt world, so that one physics
            update advances them all (``None``: the pool chooses as JoltVectorEnv does for the
            same robot where the task's robots touch nothing through Jolt, as the factorised
            robots' do, else 1). Results do not depend on it; more than 1 raises ValueError for a
            task whose robots touch each other (an arena).
        **kwargs: the env's own keyword arguments (``agent_conf=``, ``max_cycles=``, ``num_ants=``, ...),
            its rendering ones included: ``render()`` returns one frame per world (a tuple) in its
            ``render_mode``, drawn as the env draws its own world.

    Observations are padded to the largest agent's (``obs_dims`` gives each agent's own size).
    """

    def __init__(self, env_id: str, num_envs: int, num_threads: int | None = None, copy: bool = True,
                 envs_per_world: int | None = None, batch_size: int | None = None, **kwargs: Any):
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be an integer >= 1, got {num_envs!r}")
        if num_threads is not None and int(num_threads) < 1:
            raise ValueError(f"num_threads must be >= 1, got {num_threads}")
        if envs_per_world is not None and (
            isinstance(envs_per_world, bool) or not isinstance(envs_per_world, (int, np.integer)) or envs_per_world < 1
        ):
            raise ValueError(f"envs_per_world must be an integer >= 1 or None, got {envs_per_world!r}")
        check_batch_size(batch_size, num_envs)
        prototype = pettingzoo.make("parallel", env_id, **kwargs)  # builds and checks the task
        # Pickling rebuilds the env from these and its knobs (the native pool cannot be
        # pickled); episode state is not carried over: reset after.
        self._init_arguments = dict(env_id=env_id, num_envs=num_envs, num_threads=num_threads, copy=copy,
                                    envs_per_world=envs_per_world, batch_size=batch_size, **kwargs)
        self.env_id = env_id
        self.task = prototype.task
        self.possible_agents = list(prototype.possible_agents)
        self.observation_spaces = {a: prototype.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: prototype.action_space(a) for a in self.possible_agents}
        self.state_space = prototype.state_space
        self.obs_dims = [self.task.agents[i]["obs_dim"] for i in range(self.task.num_agents)]
        self.num_envs = int(num_envs)
        self.copy = copy
        self.max_cycles = prototype.max_cycles
        self._knobs = {knob[0]: (i, knob[1]) for i, knob in enumerate(self.task.knobs)}
        threads = int(num_threads or min(16, os.cpu_count() or 1))
        entropy = int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
        self._pool = _native.MultiAgentPool(
            self.task, self.num_envs, num_threads=threads, max_episode_steps=int(self.max_cycles or 0), entropy=entropy,
            envs_per_world=int(envs_per_world or 0), batch_size=int(batch_size or 0),
        )
        self.batch_size = self._pool.batch_size
        self._buffers = self._result_buffers(self.num_envs)
        self._batch = self._result_buffers(self.batch_size)  # recv's
        self._last_ids = np.arange(self.num_envs, dtype=np.int32)  # the envs send() steps when given no env_ids
        self._lock = threading.Lock()
        self.closed = False
        self.render_mode = prototype.render_mode
        self.metadata = dict(prototype.metadata)
        self._renderer = VectorRenderer.of_pool(self._pool, range(self.num_envs), prototype.renderer.settings,
                                                self._lock, self._check_open, marks=True)
        prototype.close()

    def render(self):
        """One frame per world in ``render_mode`` ("human": their mosaic in a window; None without a mode)."""
        self._check_open()
        return self._renderer.render()

    @property
    def num_threads(self) -> int:
        return self._pool.num_threads

    @property
    def envs_per_world(self) -> int:
        """Envs whose robots share one Jolt world: the largest world's (the others hold as many or one fewer)."""
        return self._pool.envs_per_world

    def reset(self, seed: int | None = None):
        """Reset every world; an int seed gives world w the seed stream ``seed + w``. Ends any
        asynchronous step in flight (results not received are dropped)."""
        seeds = self._seeds(seed)
        with self._lock:
            self._check_open()
            self._pool.reset_into(self._buffers, seeds)
            self._last_ids = np.arange(self.num_envs, dtype=np.int32)
            infos = self._infos(self._buffers, reset=True)
            if self.batch_size < self.num_envs:
                infos["env_id"] = self._last_ids.copy()
            return self._out(self._buffers, 0), infos

    def step(self, actions: np.ndarray, env_ids=None):
        """actions [num_envs, agents, max_act_dim] -> obs, rewards, terminations, truncations, infos
        (arrays [num_envs, agents, ...]; ``infos["_reset"]`` marks worlds that began a new episode,
        ``infos["acted"]`` the agents that played in this step; ``infos["physics_diverged"]``, only
        when a world's physics diverged, marks those worlds, whose agents were all truncated, and a
        RuntimeWarning names them). With ``batch_size`` below ``num_envs`` (or ``env_ids``):
        ``send(actions, env_ids)`` then ``recv()``."""
        if self.batch_size < self.num_envs or env_ids is not None:
            self.send(actions, env_ids)
            return self.recv()
        with self._lock:
            self._check_open()
            diverged = self._pool.step_into(actions, self._buffers)
            result = self._results(self._buffers, diverged)
        self._warn_diverged(result[4], np.arange(self.num_envs))
        return result

    def send(self, actions: np.ndarray, env_ids=None) -> None:
        """Sends ``actions[k]`` ([agents, max_act_dim]) to env ``env_ids[k]`` and returns while those
        envs step; ``env_ids`` defaults to the envs the last ``recv()`` (or ``reset()``) returned."""
        with self._lock:
            self._check_open()
            self._pool.send(actions, self._env_ids(env_ids))

    def async_reset(self, seed: int | None = None) -> None:
        """Sends every env a reset: ``recv()`` returns their first observations, ``batch_size`` at a
        time (``infos["_reset"]`` set). Ends any step in flight, as ``reset()`` does."""
        with self._lock:
            self._check_open()
            self._pool.send_reset(self._seeds(seed))

    def recv(self):
        """Waits for the next ``batch_size`` envs whose steps (or resets) finished: ``step``'s
        results for them, rows in the order of ``infos["env_id"]``."""
        with self._lock:
            self._check_open()
            ids, diverged = self._pool.recv_into(self._batch)
            self._last_ids = ids
            result = self._results(self._batch, diverged)
            result[4]["env_id"] = ids.copy()
        self._warn_diverged(result[4], ids)
        return result

    def _results(self, buffers: list[np.ndarray], diverged: bool):
        return (self._out(buffers, 0), self._out(buffers, 2), self._out(buffers, 3), self._out(buffers, 4),
                self._infos(buffers, reset=False, diverged=diverged))

    def _warn_diverged(self, infos: dict[str, np.ndarray], ids: np.ndarray) -> None:
        if DIVERGED_KEY in infos:
            warn_diverged(f"{self.env_id} in a MultiAgentVectorEnv, world(s) {ids[infos[DIVERGED_KEY]].tolist()}")

    def _seeds(self, seed: int | None) -> np.ndarray | None:
        if seed is None:
            return None
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative int, got {seed!r}")
        return np.arange(self.num_envs, dtype=np.uint64) + np.uint64(seed)

    def _result_buffers(self, rows: int) -> list[np.ndarray]:
        """The native pool's outputs for `rows` envs: obs, state, rewards, terminated, truncated, infos,
        was_reset, acted, diverged."""
        a = self.task.num_agents
        return [
            np.zeros((rows, a, self.task.max_obs_dim), np.float32),
            np.zeros((rows, self.task.state_dim), np.float32),
            np.zeros((rows, a), np.float32),
            np.zeros((rows, a), bool),
            np.zeros((rows, a), bool),
            np.zeros((rows, a, sum(width for _, _, width, _ in self.task.info_layout)), np.float64),
            np.zeros(rows, bool),
            np.zeros((rows, a), bool),
            np.zeros(rows, bool),
        ]

    def state(self) -> np.ndarray:
        """Every env's global state after the last ``reset``/``step`` (``recv``: its batch's)."""
        return self._out(self._buffers, 1)

    @property
    def shaping_weight(self) -> float:
        """The shaping rewards' weight in every world (tasks that have one, e.g. sumo)."""
        return self._knob("shaping_weight")[1]

    @shaping_weight.setter
    def shaping_weight(self, value: float) -> None:
        self.set_knob("shaping_weight", value)

    @property
    def knobs(self) -> dict[str, float]:
        """The task's runtime knobs and their values in every world (e.g. sumo's ``shaping_weight``
        and ``ring_radius_scale``)."""
        return {name: value for name, (_, value) in self._knobs.items()}

    def set_knob(self, name: str, value: float) -> None:
        """Sets knob `name` in every world (bounds in ``task.knobs``); it keeps its value across resets."""
        index, _ = self._knob(name)
        self._pool.set_knob(index, float(value))
        self._knobs[name] = (index, float(value))

    def _knob(self, name: str) -> tuple[int, float]:
        if name not in self._knobs:
            raise AttributeError(f"{self.env_id} has no knob {name!r}; knobs: {sorted(self._knobs)}")
        return self._knobs[name]

    def to_dicts(self, obs: np.ndarray, world: int) -> dict[str, np.ndarray]:
        """One world's observations as PettingZoo's dict, each agent's unpadded."""
        return {agent: obs[world, i, : self.obs_dims[i]] for i, agent in enumerate(self.possible_agents)}

    def __getstate__(self) -> dict[str, Any]:
        knobs = {name: value for name, (_, value) in self._knobs.items()}
        return {"init_arguments": self._init_arguments, "knobs": knobs, "closed": self.closed}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(**state["init_arguments"])
        for name, value in state["knobs"].items():
            self.set_knob(name, value)
        if state["closed"]:
            self.close()

    def close(self) -> None:
        with self._lock:
            if self._renderer is not None:
                self._renderer.close()
                self._renderer = None  # its frames hold the pool
            self._pool = None
            self.closed = True

    def _out(self, buffers: list[np.ndarray], index: int) -> np.ndarray:
        return buffers[index].copy() if self.copy else buffers[index]

    def _infos(self, buffers: list[np.ndarray], reset: bool, diverged: bool = False) -> dict[str, np.ndarray]:
        rows = buffers[5]
        infos: dict[str, np.ndarray] = {}
        for key, offset, width, at_reset in self.task.info_layout:
            if reset and not at_reset:
                continue
            infos[key] = rows[:, :, offset].copy() if width == 1 else rows[:, :, offset : offset + width].copy()
        infos["_reset"] = buffers[6].copy()
        infos["acted"] = buffers[7].copy()
        if diverged:
            infos[DIVERGED_KEY] = buffers[8].copy()
        return infos

    def _check_open(self) -> None:
        if self.closed:
            raise ClosedEnvironmentError("this MultiAgentVectorEnv is closed")
