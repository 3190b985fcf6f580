"""Exceptions joltgym raises for bad models and bad input."""

from joltgym._native import UnsupportedFeatureError


class ModelLoadError(ValueError):
    """An MJCF file MuJoCo's compiler rejected (the message carries its file and line)."""


__all__ = ["ModelLoadError", "UnsupportedFeatureError"]
