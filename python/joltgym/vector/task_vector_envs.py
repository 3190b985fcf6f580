"""One vector-env factory per task: the ``vector_entry_point`` of each registered id."""

from __future__ import annotations

from joltgym.vector.jolt_vector_env import JoltVectorEnv


def HalfCheetahVectorEnv(num_envs: int, **kwargs) -> JoltVectorEnv:  # noqa: N802 (reads like a class)
    return JoltVectorEnv(num_envs, task="HalfCheetah", **kwargs)
