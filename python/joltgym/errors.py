"""Exceptions joltgym raises for bad models and bad input."""

from joltgym._native import UnsupportedFeatureError


class ModelLoadError(ValueError):
    """An MJCF file MuJoCo's compiler rejected (the message carries its file and line)."""


class ModelRangeError(ValueError):
    """A compiled model value the engine cannot represent (beyond float32, or not finite)."""


__all__ = ["ModelLoadError", "ModelRangeError", "UnsupportedFeatureError"]
