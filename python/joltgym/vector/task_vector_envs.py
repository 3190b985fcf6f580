"""One vector-env factory per task: the ``vector_entry_point`` of each registered id."""

from __future__ import annotations

from joltgym.tasks import TASKS
from joltgym.vector.jolt_vector_env import JoltVectorEnv


def _factory(task: str):
    def make(num_envs: int, **kwargs) -> JoltVectorEnv:
        return JoltVectorEnv(num_envs, task=task, **kwargs)

    make.__name__ = make.__qualname__ = f"{task}VectorEnv"
    make.__doc__ = f"``JoltVectorEnv(num_envs, task={task!r}, **kwargs)``"
    return make


globals().update({f"{name}VectorEnv": _factory(name) for name in TASKS})
__all__ = [f"{name}VectorEnv" for name in TASKS]
