"""Gymnasium environment classes: thin wrappers that give each native task v5's signature."""

from joltgym.envs.half_cheetah import HalfCheetahEnv
from joltgym.envs.hopper import HopperEnv, Walker2dEnv
from joltgym.envs.inverted_pendulum import InvertedDoublePendulumEnv, InvertedPendulumEnv

__all__ = ["HalfCheetahEnv", "HopperEnv", "InvertedDoublePendulumEnv", "InvertedPendulumEnv", "Walker2dEnv"]
