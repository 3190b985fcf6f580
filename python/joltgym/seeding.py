"""Episode seeds, shared by every env kind.

Each pooled env draws its episodes' seeds from its own stream (``src/pool/seed_stream.h``): a reset
with seed ``s`` restarts the stream at ``s``, every later reset draws the next seed. Single envs and
PettingZoo envs draw from the same stream, so that ``env.reset(seed=s)`` and then plain resets give
exactly the episodes of the vector env's env that was reset with seed ``s`` (as Gymnasium's sync
vector env gives env ``i`` the single env's ``reset(seed=seed + i)``).
"""

from __future__ import annotations

import numpy as np

from joltgym import _native

_UNSEEDED_BOUND = 2**63


class EpisodeSeeds:
    """One env's stream of native episode seeds."""

    def __init__(self) -> None:
        self._state: int | None = None

    def next(self, seed: int | None, np_random: np.random.Generator) -> int:
        """The native seed of the episode a reset starts: restarts the stream at ``seed`` if given;
        an env never seeded starts it from ``np_random`` (itself seeded from OS entropy)."""
        if seed is not None:
            self._state = int(seed)
        elif self._state is None:
            self._state = int(np_random.integers(0, _UNSEEDED_BOUND))
        episode_seed, self._state = _native.next_seed(self._state)
        return int(episode_seed)

    @property
    def state(self) -> int | None:
        """Where the stream stands (None: never seeded), for a saved env state."""
        return self._state

    def restore(self, state: int) -> None:
        self._state = int(state)
