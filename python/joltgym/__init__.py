"""joltgym: reinforcement-learning locomotion environments on the Jolt Physics engine.

Importing joltgym registers its Gymnasium ids (``joltgym/HalfCheetah-v0``, ...) and its
PettingZoo ids (``joltgym/MaHalfCheetah-v0``, ...).
"""

from joltgym._native import __version__
from joltgym.errors import ModelLoadError, UnsupportedFeatureError
from joltgym.model import JoltModel, SolverSettings, load_model
from joltgym.registration import multi_agent_ids, register_all, task_ids

register_all()

__all__ = [
    "JoltModel",
    "ModelLoadError",
    "SolverSettings",
    "UnsupportedFeatureError",
    "__version__",
    "load_model",
    "multi_agent_ids",
    "task_ids",
]
