"""The Gymnasium spaces of a native task, shared by the single env and the vector env.

A task observes into one float32 vector. Most tasks' observation is that vector (a Box); a task
that declares observation keys (Go1's "state" and "privileged_state", as EnvPool's ports) is
observed as a Dict of views of its parts. Actions are the actuators' controls unless the task
bounds them itself (Go1's [-1, 1] offsets of its PD targets).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
from gymnasium import spaces

from joltgym import _native
from joltgym.model import JoltModel


def observation_space(task: _native.Task) -> spaces.Space:
    keys = task.observation_keys
    if not keys:
        return spaces.Box(-np.inf, np.inf, shape=(task.obs_dim,), dtype=np.float32)
    # in the task's order (Gymnasium sorts a plain dict's keys): EnvPool's and dm_control's order
    return spaces.Dict(OrderedDict((name, spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32))
                                   for name, _, size in keys))


def action_space(task: _native.Task, model: JoltModel) -> spaces.Box:
    bounds = task.action_bounds
    low, high = (model.ctrl_range if bounds is None else bounds).astype(np.float32).T
    return spaces.Box(low=low, high=high, dtype=np.float32)


class ObservationView:
    """Turns the task's observation vectors (one, or a batch along the first axis) into what its
    observation space holds: the vectors themselves, or a dict of views of their keys' parts."""

    def __init__(self, task: _native.Task):
        self._keys = [(name, slice(offset, offset + size)) for name, offset, size in task.observation_keys]

    def __call__(self, obs: np.ndarray) -> Any:
        if not self._keys:
            return obs
        return {name: obs[..., part] for name, part in self._keys}
