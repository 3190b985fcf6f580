"""Batched native environments: JoltVectorEnv (Gymnasium VectorEnv) over the C++ WorldPool."""

from joltgym.vector import task_vector_envs
from joltgym.vector.jolt_vector_env import JoltVectorEnv

globals().update({name: getattr(task_vector_envs, name) for name in task_vector_envs.__all__})
__all__ = ["JoltVectorEnv", *task_vector_envs.__all__]
