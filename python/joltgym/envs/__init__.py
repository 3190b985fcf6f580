"""Gymnasium environment classes, one thin wrapper per task over native task cores."""

from joltgym.envs.half_cheetah import HalfCheetahEnv

__all__ = ["HalfCheetahEnv"]
