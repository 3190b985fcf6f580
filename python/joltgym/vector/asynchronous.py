"""The asynchronous half of the native vector envs (JoltVectorEnv, MultiAgentVectorEnv), EnvPool's
send/recv: what both share over their native pool's ``send``, ``in_flight``, ``ready`` and
``world_sizes``. The env classes write ``send``, ``recv`` and ``async_reset`` for their own arrays."""

from __future__ import annotations

from typing import Any

import numpy as np


def check_batch_size(batch_size: Any, num_envs: int) -> None:
    if batch_size is not None and (
        isinstance(batch_size, bool) or not isinstance(batch_size, (int, np.integer)) or not 1 <= batch_size <= num_envs
    ):
        raise ValueError(f"batch_size must be an integer in [1, num_envs={num_envs}] or None, got {batch_size!r}")


class AsynchronousSteps:
    """``step_async``/``step_wait``, the pool's counters, and ``env_ids`` as ``send`` takes them."""

    _pool: Any
    _last_ids: np.ndarray

    @property
    def in_flight(self) -> int:
        """Envs sent actions (or a reset) that ``recv()`` has not returned yet."""
        return self._pool.in_flight

    @property
    def ready(self) -> int:
        """Envs whose steps finished that ``recv()`` has not returned yet: a ``recv()`` returns at
        once when this reaches ``batch_size``."""
        return self._pool.ready

    @property
    def world_sizes(self) -> list[int]:
        """Envs in each Jolt world, consecutive envs together; a world steps once all are sent."""
        return self._pool.world_sizes

    def step_async(self, actions) -> None:
        """Gymnasium's half step: ``send(actions)`` to the envs last returned."""
        self.send(actions)

    def step_wait(self):
        """Gymnasium's other half: ``recv()``."""
        return self.recv()

    def _env_ids(self, env_ids) -> np.ndarray:
        """``send``'s env ids as the pool takes them: the envs last returned when None."""
        ids = self._last_ids if env_ids is None else np.asarray(env_ids)
        if ids.ndim != 1 or not (ids.dtype.kind in "iu" or ids.size == 0):
            raise ValueError(f"env_ids must be a 1-D array of integer env ids, got {env_ids!r}")
        return ids.astype(np.int32, copy=False)
