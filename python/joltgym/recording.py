"""Pictures and clips of joltgym's tasks, drawn by the native renderer.

``python -m joltgym --stills DIR`` writes one picture per registered id (docs/rendering.md's gallery), and
``python -m joltgym --record DIR`` a short clip per id. Both drive the env with seeded random
actions, so the same command draws the same pictures. Clips are written by moviepy, as
Gymnasium's ``RecordVideo`` writes them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

import joltgym


def make(env_id: str, **kwargs: Any):
    """A Gymnasium env for a single-agent id, a PettingZoo ParallelEnv for a multi-agent one."""
    if env_id in joltgym.multi_agent_ids():
        import pettingzoo

        return pettingzoo.make("parallel", env_id, **kwargs)
    return gymnasium.make(env_id, **kwargs)


def frames(
    env_id: str, steps: int, seed: int = 0, width: int = 320, height: int = 240, every: int = 1
) -> tuple[list[np.ndarray], int]:
    """The frames of `steps` steps of seeded random actions (one every `every` steps, the first
    included), and the env's render_fps."""
    env = make(env_id, render_mode="rgb_array", width=width, height=height)
    fps = env.metadata["render_fps"]
    rng = np.random.default_rng(seed)
    out = []
    try:
        multi = env_id in joltgym.multi_agent_ids()
        env.reset(seed=seed)
        for t in range(steps):
            if t % every == 0:
                out.append(env.render())
            if multi:
                if not env.agents:
                    env.reset()
                    continue
                spaces = {a: env.action_space(a) for a in env.agents}
                _, _, terminated, truncated, _ = env.step({a: _sample(s, rng) for a, s in spaces.items()})
            else:
                _, _, terminated, truncated, _ = env.step(_sample(env.action_space, rng))
                if terminated or truncated:
                    env.reset()
    finally:
        env.close()
    return out, fps


def _sample(space: gymnasium.spaces.Box, rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(space.low, space.high).astype(space.dtype)


def file_stem(env_id: str) -> str:
    return env_id.split("/")[-1].removesuffix("-v0")


def write_still(env_id: str, directory: str | Path, steps: int = 25, **kwargs: Any) -> Path:
    """A picture of `env_id` after `steps` seeded random steps, as DIR/<Name>.png."""
    from PIL import Image

    path = Path(directory) / f"{file_stem(env_id)}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(frames(env_id, steps + 1, every=steps, **kwargs)[0][-1]).save(path, optimize=True)
    return path


def write_clip(env_id: str, directory: str | Path, steps: int = 100, **kwargs: Any) -> Path:
    """A clip of `steps` seeded random steps of `env_id` at its render_fps, as DIR/<Name>.mp4."""
    try:
        from moviepy import ImageSequenceClip
    except ImportError:
        try:
            from moviepy.video.io.ImageSequenceClip import ImageSequenceClip  # moviepy 1.x
        except ImportError as exc:
            raise gymnasium.error.DependencyNotInstalled('writing clips needs moviepy: pip install moviepy') from exc
    path = Path(directory) / f"{file_stem(env_id)}.mp4"
    path.parent.mkdir(parents=True, exist_ok=True)
    images, fps = frames(env_id, steps, **kwargs)
    clip = ImageSequenceClip(images, fps=fps)
    clip.write_videofile(str(path), logger=None)
    clip.close()
    return path
