"""Pixel observations: ``obs_type="pixels"`` (uint8 frames of the env's camera) and
``obs_type="pixels_state"`` (a dict of the frames and the state observation), for the single env
and the vector env alike.

Frames are ``height x width x 3`` uint8 from the env's render camera (a Control Suite task's is its
model's camera 0, as DrQ and dm_control's pixel benchmarks use; a Gymnasium task's its tracking
camera), 84 x 84 unless ``width``/``height`` say otherwise. ``frame_stack=k`` observes the last k
frames, oldest first, as ``(k, height, width, 3)`` (Gymnasium's FrameStackObservation layout); a reset
fills the stack with the first frame. The vector env draws them inside its native pool, on the
threads that step the envs, with the GIL released.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces

OBS_TYPES = ("state", "pixels", "pixels_state")
PIXELS_SIZE = 84  # the frames' default width and height
MAX_FRAME_STACK = 64


@dataclass(frozen=True)
class PixelSettings:
    obs_type: str = "state"
    width: int = PIXELS_SIZE
    height: int = PIXELS_SIZE
    frame_stack: int = 1

    @classmethod
    def of(cls, obs_type: str, width: int | None, height: int | None, frame_stack: int) -> PixelSettings:
        """Checked settings; ``width``/``height`` None: 84 (the render size then too)."""
        if obs_type not in OBS_TYPES:
            raise ValueError(f"obs_type must be one of {list(OBS_TYPES)}, got {obs_type!r}")
        if isinstance(frame_stack, bool) or not isinstance(frame_stack, (int, np.integer)) \
                or not 1 <= frame_stack <= MAX_FRAME_STACK:
            raise ValueError(f"frame_stack must be an int in [1, {MAX_FRAME_STACK}], got {frame_stack!r}")
        if obs_type == "state" and frame_stack != 1:
            raise ValueError(f"frame_stack={frame_stack} stacks pixel frames: give obs_type='pixels' or 'pixels_state'")
        return cls(obs_type, PIXELS_SIZE if width is None else width, PIXELS_SIZE if height is None else height,
                   int(frame_stack))

    @property
    def pixels(self) -> bool:
        return self.obs_type != "state"

    @property
    def frame_shape(self) -> tuple[int, ...]:
        """One env's pixel observation: (height, width, 3), or (k, height, width, 3) with frame_stack=k > 1."""
        frame = (self.height, self.width, 3)
        return frame if self.frame_stack == 1 else (self.frame_stack, *frame)

    def observation_space(self, state_space: spaces.Space) -> spaces.Space:
        if not self.pixels:
            return state_space
        frames = spaces.Box(0, 255, self.frame_shape, np.uint8)
        if self.obs_type == "pixels":
            return frames
        return spaces.Dict(OrderedDict(pixels=frames, state=state_space))

    def observation(self, state: Any, frames: np.ndarray | None) -> Any:
        """What the observation space holds, from the state observation and the frame stacks
        (``[..., k, height, width, 3]``, for one env or a batch)."""
        if not self.pixels:
            return state
        frames = frames.reshape(frames.shape[: frames.ndim - 4] + self.frame_shape)
        if self.obs_type == "pixels":
            return frames
        return {"pixels": frames, "state": state}


def render_size(pixels: PixelSettings, width: int | None, height: int | None, default: int) -> tuple[int, int]:
    """The env's render size: the pixel observations' with pixels, else as given (``default`` for None)."""
    if pixels.pixels:
        return pixels.width, pixels.height
    return (default if width is None else width), (default if height is None else height)
