"""What the envs report when a robot's physics diverges (``Robot::Diverged`` in C++: a body's
pose or velocity not finite, or faster than 1e4 m/s or rad/s). Such a state means nothing, so
the episode is truncated, its info says so under ``DIVERGED_KEY`` (a key that appears only
then, as Gymnasium's MuJoCo envs have no such key), and a ``RuntimeWarning`` names the env.
In a multi-agent world the robots interact, so one robot's divergence ends the episode for
every agent still playing: each is truncated with the key in its info.
MuJoCo warns too ("the simulation is unstable") and restarts from its initial state silently."""

from __future__ import annotations

import warnings

DIVERGED_KEY = "physics_diverged"


def warn_diverged(who: str) -> None:
    warnings.warn(
        f"{who}: the physics diverged (non-finite or runaway body state; an unstable model or action "
        f"scale?); the episode is truncated and info['{DIVERGED_KEY}'] is True",
        RuntimeWarning,
        stacklevel=3,
    )
