"""``render_mode="human"``: a window that shows each frame, paced at the env's ``render_fps``.

pygame (``pip install pygame``, or ``pip install "joltgym[render]"``) is imported only here, when
a human viewer is first shown, so nothing else in joltgym needs it or a display.
"""

from __future__ import annotations

import numpy as np
from gymnasium.error import DependencyNotInstalled


class Viewer:
    def __init__(self, width: int, height: int, fps: int, title: str = "joltgym"):
        try:
            import pygame
        except ImportError as exc:
            raise DependencyNotInstalled(
                'render_mode="human" needs pygame: pip install pygame (or pip install "joltgym[render]")'
            ) from exc
        self._pygame = pygame
        try:
            pygame.display.init()
            self._screen = pygame.display.set_mode((width, height))
        except pygame.error as exc:
            pygame.display.quit()
            raise RuntimeError(
                f'render_mode="human" needs a display, and pygame found none ({exc}). On a machine without one, '
                'use render_mode="rgb_array" (e.g. with gymnasium.wrappers.RecordVideo), or run under Xvfb.'
            ) from None
        pygame.display.set_caption(title)
        self._clock = pygame.time.Clock()
        self._fps = fps
        self.open = True

    def show(self, frame: np.ndarray) -> None:
        """Draws an HxWx3 frame and waits out the rest of the frame's 1/fps."""
        if not self.open:
            return
        pygame = self._pygame
        for event in pygame.event.get():
            if event.type == pygame.QUIT:  # the window was closed: stop showing, keep the env running
                self.close()
                return
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(frame.transpose(1, 0, 2)))
        if surface.get_size() != self._screen.get_size():
            surface = pygame.transform.scale(surface, self._screen.get_size())
        self._screen.blit(surface, (0, 0))
        pygame.display.flip()
        self._clock.tick(self._fps)

    def close(self) -> None:
        if self.open:
            self._pygame.display.quit()
            self.open = False
