"""Exact state save and restore for the native vector envs (JoltVectorEnv, MultiAgentVectorEnv):
``get_state(env_ids)`` and ``set_state(states, env_ids)`` over the native pool's. A state is
``bytes``: picklable, restorable into any env of the same task and model (the same env, another
env, another pool or process, the single env), after which that env steps on bit for bit as the
env it was saved from did (``docs/state.md``)."""

from __future__ import annotations

from typing import Any

import numpy as np


def _state_ids(env_ids: Any, num_envs: int) -> tuple[np.ndarray, bool]:
    """The env ids as the pool takes them, and whether one id was given as a plain integer."""
    if env_ids is None:
        return np.arange(num_envs, dtype=np.int32), False
    if isinstance(env_ids, (int, np.integer)) and not isinstance(env_ids, bool):
        return np.array([env_ids], dtype=np.int32), True
    ids = np.asarray(env_ids)
    if ids.ndim != 1 or not (ids.dtype.kind in "iu" or ids.size == 0):
        raise ValueError(f"env_ids must be an env id or a 1-D array of env ids, got {env_ids!r}")
    return ids.astype(np.int32, copy=False), False


class SavedStates:
    """``get_state`` and ``set_state`` of a vector env with a native pool, a lock and ``_check_open``."""

    _pool: Any
    num_envs: int

    def get_state(self, env_ids=None):
        """The exact state of each env in ``env_ids`` (all when None) as ``bytes``: a list, or one
        ``bytes`` for a single integer id. Everything the env's next steps depend on is in it
        (physics, solver warm starts, random stream, the task's command or goal, the episode's step
        count and seed stream, randomised physics); an env sent actions that ``recv()`` has not
        returned raises ValueError."""
        ids, single = _state_ids(env_ids, self.num_envs)
        with self._lock:
            self._check_open()
            states = self._pool.get_state(ids)
        return states[0] if single else states

    def set_state(self, states, env_ids=None) -> None:
        """Restores ``get_state``'s bytes: ``states[k]`` into env ``env_ids[k]`` (all envs when None;
        one ``bytes`` for a single integer id). Stepping the env on then gives, bit for bit, what
        the env it was saved from gave. The observation is not recomputed: use the one returned
        with the step the state was saved after. Raises ValueError for a state of another task or
        model (naming both), damaged bytes, or an env in flight."""
        ids, single = _state_ids(env_ids, self.num_envs)
        if single:
            states = [states]
        elif isinstance(states, (bytes, bytearray, memoryview)):
            raise TypeError("set_state takes a list of states, one per env id (a single state goes with a single "
                            "integer env id)")
        with self._lock:
            self._check_open()
            self._pool.set_state(list(states), ids)
