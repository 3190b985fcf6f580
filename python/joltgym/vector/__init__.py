"""Batched native environments: JoltVectorEnv (Gymnasium VectorEnv) over the C++ WorldPool.

Each task's ``vector_entry_point`` (``HalfCheetahVectorEnv``, ...) sits beside its env class
in ``joltgym.envs``.
"""

from joltgym.vector.jolt_vector_env import JoltVectorEnv

__all__ = ["JoltVectorEnv"]
