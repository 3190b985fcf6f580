"""Frames of joltgym worlds with Gymnasium's render modes and MuJoCo's camera conventions.

The native software renderer (``src/render``) draws the robots' geoms with their MJCF colours,
the floor as a checkerboard with the robots' shadows, and the depth of every pixel; it needs no
GPU, no OpenGL and no display. Only ``render_mode="human"`` opens a window (``joltgym.viewer``).

Cameras follow Gymnasium's MuJoCo envs: ``camera_id``/``camera_name`` pick a camera of the MJCF,
otherwise the free camera orbits a look-at point as ``default_camera_config`` says (``distance``,
``azimuth``, ``elevation`` in degrees, ``lookat``, ``fovy``). Unlike MuJoCo's free camera it
tracks a body by default (``trackbodyid``, default 1: the robot's root), so a running robot stays
in view: the look-at point's x and y follow the body (``lookat``'s x and y are offsets), and its
height follows the body unless ``lookat`` is given, which keeps the horizon steady for runners.
``trackbodyid`` 0 or -1 leaves the camera where ``lookat`` puts it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gymnasium
import numpy as np

from joltgym import _native
from joltgym.model import JoltModel

RENDER_MODES = ["human", "rgb_array", "depth_array", "rgbd_tuple"]
DEFAULT_SIZE = 480
CAMERA_KEYS = ("distance", "azimuth", "elevation", "lookat", "trackbodyid", "fovy")

# draw(renderer, width, height, camera, circles, rgb, depth) -> (rgb or None, depth or None):
# the native owner's render method.
Draw = Callable[..., tuple]


def camera_settings(
    model: JoltModel,
    camera_id: int | None = None,
    camera_name: str | None = None,
    config: dict[str, Any] | None = None,
    track_robot: int = 0,
    default_config: dict[str, Any] | None = None,
    default_camera_id: int | None = None,
) -> dict[str, Any]:
    """The native renderer's camera for Gymnasium's camera arguments on ``model`` (robot 0's model);
    ``config`` None takes ``default_config`` (a task's v5 DEFAULT_CAMERA_CONFIG), or the model's camera
    ``default_camera_id`` when given no camera argument at all (a Control Suite task's camera 0)."""
    if camera_id is not None and camera_name is not None:
        raise ValueError("Both `camera_id` and `camera_name` cannot be specified at the same time.")
    if camera_id is None and camera_name is None and config is None and default_camera_id is not None:
        camera_id = default_camera_id
    names = [c.name for c in model.native.desc.cameras]
    if camera_name is not None:
        if camera_name not in names:
            raise ValueError(f"camera_name {camera_name!r} is not a camera of {model.path.name}; its cameras: {names}")
        camera_id = names.index(camera_name)
    if camera_id is not None and camera_id != -1:
        if isinstance(camera_id, bool) or not isinstance(camera_id, (int, np.integer)):
            raise TypeError(f"camera_id must be an int, got {camera_id!r}")
        if not 0 <= camera_id < len(names):
            raise ValueError(f"camera_id {camera_id} is out of range: {model.path.name} has {len(names)} camera(s) {names}")
        return {"camera_id": int(camera_id)}
    config = dict((default_config if config is None else config) or {})
    unknown = sorted(set(config) - set(CAMERA_KEYS))
    if unknown:
        raise ValueError(f"default_camera_config has unknown key(s) {unknown}; known: {list(CAMERA_KEYS)}")
    settings: dict[str, Any] = {}
    for key in ("distance", "azimuth", "elevation", "fovy"):
        if key in config:
            value = float(config[key])
            if not np.isfinite(value) or (key in ("distance", "fovy") and value <= 0):
                raise ValueError(f"default_camera_config[{key!r}] must be finite{' and > 0' if key in ('distance', 'fovy') else ''}, got {config[key]!r}")
            settings[key] = value
    if "lookat" in config:
        lookat = np.asarray(config["lookat"], dtype=float)
        if lookat.shape != (3,) or not np.all(np.isfinite(lookat)):
            raise ValueError(f"default_camera_config['lookat'] must be 3 finite numbers, got {config['lookat']!r}")
        settings["lookat"] = [float(x) for x in lookat]
    body = int(config.get("trackbodyid", 1))
    if body >= model.mj_model.nbody:
        raise ValueError(f"trackbodyid {body} is out of range: {model.path.name} has {model.mj_model.nbody} bodies")
    if body >= 1:
        settings.update(track_robot=int(track_robot), track_body=body, keep_lookat_z="lookat" in settings)
    elif "lookat" not in settings:  # MuJoCo's free camera: the middle of the geoms at qpos0
        settings["lookat"] = [float(x) for x in model_centre(model)]
    settings.setdefault("distance", float(model.mj_model.stat.extent))
    return settings


def model_centre(model: JoltModel) -> np.ndarray:
    import mujoco

    data = mujoco.MjData(model.mj_model)
    mujoco.mj_kinematics(model.mj_model, data)
    return np.median(data.geom_xpos, axis=0)


@dataclass
class RenderSettings:
    """What an env was asked to draw: the mode, the frame size, the camera and the pace."""

    render_mode: str | None
    width: int = DEFAULT_SIZE
    height: int = DEFAULT_SIZE
    camera: dict[str, Any] = field(default_factory=dict)
    fps: int = 30
    title: str = "joltgym"

    def __post_init__(self) -> None:
        if self.render_mode is not None and self.render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {self.render_mode!r} is not one of {RENDER_MODES} (or None)")
        for key in ("width", "height"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= 16384:
                raise ValueError(f"{key} must be an int in [1, 16384], got {value!r}")


class FrameRenderer:
    """Draws one world (through ``draw``, its native owner's render method) in an env's render mode."""

    def __init__(self, settings: RenderSettings, draw: Draw, marks: Callable[[], list] | None = None):
        self.settings = settings
        self._draw = draw
        self._marks = marks or list
        self._native = _native.Renderer()
        self._viewer = None

    def frame(self, rgb: bool = True, depth: bool = False, camera: dict | None = None):
        s = self.settings
        return self._draw(self._native, s.width, s.height, camera or s.camera, self._marks(), rgb, depth)

    def render(self):
        """What ``Env.render()`` returns in the settings' mode (None for "human" and for no mode)."""
        mode = self.settings.render_mode
        if mode is None:
            gymnasium.logger.warn(
                "You are calling render method without specifying any render mode. "
                'You can specify the render_mode at initialization, e.g. gym.make(id, render_mode="rgb_array")'
            )
            return None
        if mode == "rgb_array":
            return self.frame()[0]
        if mode == "depth_array":
            return self.frame(rgb=False, depth=True)[1]
        if mode == "rgbd_tuple":
            return self.frame(rgb=True, depth=True)
        if self._viewer is None:
            from joltgym.viewer import Viewer

            self._viewer = Viewer(self.settings.width, self.settings.height, self.settings.fps, self.settings.title)
        self._viewer.show(self.frame()[0])
        return None

    def close(self) -> None:
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None


class VectorRenderer:
    """Several worlds' frames in their common mode: a tuple of frames (as Gymnasium's vector envs
    return), their mosaic with ``mosaic``, or for "human" one window showing the mosaic."""

    def __init__(self, frames: list[FrameRenderer], mosaic: bool = False):
        self.frames = frames
        self.mosaic = mosaic
        self._viewer = None

    @classmethod
    def of_pool(cls, pool, indices: Sequence[int], settings: RenderSettings, lock, check_open: Callable[[], None],
                marks: bool = False, mosaic: bool = False) -> VectorRenderer:
        """The frames of worlds ``indices`` of a native pool (``pool.render(i, ...)``, and
        ``pool.floor_marks(i)`` with ``marks``), each drawn under the vector env's lock once
        ``check_open`` has passed."""

        def locked(call, i):
            def run(*args):
                with lock:
                    check_open()
                    return call(i, *args)

            return run

        return cls([FrameRenderer(settings, locked(pool.render, i), locked(pool.floor_marks, i) if marks else None)
                    for i in indices], mosaic)

    def render(self):
        settings = self.frames[0].settings
        if settings.render_mode is None:
            return self.frames[0].render()  # warns, as a single env does
        if settings.render_mode == "human":
            if self._viewer is None:
                from joltgym.viewer import Viewer

                columns, rows = _grid(len(self.frames))
                self._viewer = Viewer(columns * settings.width, rows * settings.height, settings.fps, settings.title)
            self._viewer.show(tile([f.frame()[0] for f in self.frames]))
            return None
        frames = tuple(f.render() for f in self.frames)
        if not self.mosaic:
            return frames
        if settings.render_mode == "rgbd_tuple":
            return tile([f[0] for f in frames]), tile([f[1] for f in frames])
        return tile(frames)

    def close(self) -> None:
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None
        for frames in self.frames:
            frames.close()


def _grid(n: int, columns: int | None = None) -> tuple[int, int]:
    columns = int(columns or int(np.ceil(np.sqrt(n))))
    return columns, int(np.ceil(n / columns))


def tile(frames: Sequence[np.ndarray], columns: int | None = None) -> np.ndarray:
    """Frames of one shape in a grid (row-major, ``columns`` wide, default about square); gaps are black."""
    if len(frames) == 0:
        raise ValueError("tile() needs at least one frame")
    first = np.asarray(frames[0])
    columns, rows = _grid(len(frames), columns)
    h, w = first.shape[:2]
    out = np.zeros((rows * h, columns * w) + first.shape[2:], first.dtype)
    for i, f in enumerate(frames):
        r, c = divmod(i, columns)
        out[r * h : (r + 1) * h, c * w : (c + 1) * w] = f
    return out
