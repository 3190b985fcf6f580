"""``close()`` and the closed-env check shared by the envs that draw their own world (the
single-agent envs and the PettingZoo envs)."""

from __future__ import annotations

from gymnasium.error import ClosedEnvironmentError


class ClosesItsRenderer:
    """``close()`` closes ``self.renderer``; afterwards ``_check_open()`` raises Gymnasium's
    ClosedEnvironmentError naming the env by ``_display_name``."""

    @property
    def _display_name(self) -> str:
        return "joltgym"

    def close(self) -> None:
        """Closes the window or renderer; closing twice is fine, stepping a closed env raises."""
        self.renderer.close()
        self._closed = True

    def _check_open(self) -> None:
        if getattr(self, "_closed", False):
            raise ClosedEnvironmentError(f"this {self._display_name} env is closed")
