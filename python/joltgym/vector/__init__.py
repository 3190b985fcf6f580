"""Batched native environments: JoltVectorEnv (Gymnasium VectorEnv) over the C++ WorldPool."""

from joltgym.vector.jolt_vector_env import JoltVectorEnv
from joltgym.vector.task_vector_envs import HalfCheetahVectorEnv

__all__ = ["HalfCheetahVectorEnv", "JoltVectorEnv"]
