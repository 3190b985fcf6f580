"""Observations of any task as arrays, for tests that compare runs: a Dict observation (Go1's
"state" and "privileged_state") becomes its keys' arrays joined along the last axis."""

from __future__ import annotations

import numpy as np


def flat(obs) -> np.ndarray:
    """The observation (or a batch of them) as one array; a copy."""
    if isinstance(obs, dict):
        return np.concatenate([np.asarray(obs[key]) for key in sorted(obs)], axis=-1)
    return np.array(obs)


def row(obs, i: int):
    """Env i's observation out of a batch, of the same kind."""
    if isinstance(obs, dict):
        return {key: value[i] for key, value in obs.items()}
    return obs[i]
