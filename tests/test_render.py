"""Rendering: frames of every env kind, Gymnasium's camera conventions, pixels where the bodies
are, depth against the known distance to the floor, and physics untouched by drawing."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pettingzoo
import pytest

import joltgym
from joltgym import _native
from joltgym.rendering import tile
from joltgym.tasks import TASKS

SINGLE = sorted(TASKS)
MULTI = joltgym.multi_agent_ids()


def make(name: str, **kwargs):
    return gym.make(f"joltgym/{name}-v0", **kwargs).unwrapped


@pytest.mark.parametrize("name", SINGLE)
def test_every_mode_gives_frames_of_the_asked_size(name):
    env = make(name, render_mode="rgbd_tuple", width=64, height=48)
    env.reset(seed=0)
    rgb, depth = env.render()
    assert rgb.shape == (48, 64, 3) and rgb.dtype == np.uint8
    assert depth.shape == (48, 64) and depth.dtype == np.float32 and np.all(depth > 0)
    assert env.metadata["render_fps"] == int(np.round(1.0 / env.dt))
    for mode, check in (("rgb_array", lambda f: f.shape == (48, 64, 3)), ("depth_array", lambda f: f.shape == (48, 64))):
        other = make(name, render_mode=mode, width=64, height=48)
        other.reset(seed=0)
        assert check(other.render())


@pytest.mark.parametrize("name", SINGLE)
def test_frames_follow_the_state(name):
    # The suite's arenas are decimetres across (point_mass's ball is 2 cm): its own cameras frame them.
    camera = {} if TASKS[name].family == "dmc" else {"default_camera_config": {"trackbodyid": 0, "distance": 4.0, "lookat": (0, 0, 0.5)}}
    env = make(name, render_mode="rgb_array", width=96, height=96, **camera)
    env.reset(seed=0)
    qpos, qvel = env.qpos, env.qvel
    first = env.render()
    env.set_state(qpos, qvel)
    assert np.array_equal(env.render(), first), "the same state must draw the same frame"
    moved = qpos.copy()
    moved[: min(3, len(moved))] += 0.3
    env.set_state(moved, qvel)
    assert not np.array_equal(env.render(), first), "a moved robot must change the frame"


def test_the_tracking_camera_keeps_the_robot_in_view():
    env = make("HalfCheetah", render_mode="rgb_array", width=120, height=90)
    env.reset(seed=0)
    qpos, qvel = env.qpos, env.qvel
    start = env.render()
    qpos[0] += 8.0  # an even number of checker squares: the floor looks the same
    env.set_state(qpos, qvel)
    tracked = env.render()
    assert np.mean(np.any(tracked != start, axis=-1)) < 0.01
    fixed = make("HalfCheetah", render_mode="rgb_array", width=120, height=90, default_camera_config={"trackbodyid": -1, "lookat": (0, 0, 0.5), "distance": 4.0})
    fixed.reset(seed=0)
    fixed.set_state(qpos, qvel)
    cheetah = np.array([200, 140, 90])  # the torso's orange is nowhere once it has run out of view
    assert not np.any(np.all(np.abs(fixed.render().astype(int) - cheetah) < 40, axis=-1))


def looking_down(height: float):
    # 89 degrees, not 90: straight down, "right" is not defined by the azimuth (nor in MuJoCo).
    return {"trackbodyid": -1, "lookat": (0.0, 0.0, 0.0), "distance": height, "elevation": -89.0, "azimuth": 90.0, "fovy": 45.0}


def test_a_body_appears_where_it_is_and_at_its_depth():
    # Camera 3 m above the floor looking (almost) straight down (image right = +x, up = +y). The cheetah's
    # torso (a capsule of radius 0.046 along x at z = 0.7) lies under the centre, then 0.5 m to the right.
    w = h = 101
    env = make("HalfCheetah", render_mode="depth_array", width=w, height=h, default_camera_config=looking_down(3.0))
    env.reset(seed=0)
    qpos, qvel = np.zeros(env.model.nq), np.zeros(env.model.nv)
    env.set_state(qpos, qvel)
    top_of_torso = 0.7 + 0.046
    depth = env.render()
    assert depth[h // 2, w // 2] == pytest.approx(3.0 - top_of_torso, abs=3e-3)
    qpos[0] = 0.5
    env.set_state(qpos, qvel)
    depth = env.render()
    focal = 0.5 * h / math.tan(math.radians(45.0) / 2)
    column = int(round(w / 2 - 0.5 + focal * 0.5 / (3.0 - top_of_torso)))
    assert depth[h // 2, column] == pytest.approx(3.0 - top_of_torso, abs=3e-3)
    assert depth[h // 2, w // 2 - 30] == pytest.approx(3.0, abs=1e-3), "left of the torso lies the bare floor"


def test_depth_is_the_distance_to_the_floor_plane():
    # A camera looking down at 30 degrees at a floor point 6 m away, far from the robot: every pixel
    # below the horizon sees the plane z = 0 at the depth its ray meets it.
    w, h, distance, el = 80, 60, 6.0, math.radians(-30.0)
    config = {"trackbodyid": -1, "lookat": (40.0, 40.0, 0.0), "distance": distance, "elevation": -30.0, "azimuth": 90.0, "fovy": 45.0}
    env = make("Hopper", render_mode="depth_array", width=w, height=h, default_camera_config=config)
    env.reset(seed=0)
    depth = env.render()
    forward = np.array([0.0, math.cos(el), math.sin(el)])
    right = np.array([1.0, 0.0, 0.0])
    up = np.cross(right, forward)
    eye_z = -distance * forward[2]
    focal = 0.5 * h / math.tan(math.radians(45.0) / 2)
    u = (np.arange(w) + 0.5 - w / 2) / focal
    v = (h / 2 - (np.arange(h) + 0.5)) / focal
    rays = forward + u[None, :, None] * right + v[:, None, None] * up  # view-axis component 1
    below = rays[..., 2] < -1e-3
    expected = np.where(below, -eye_z / np.where(below, rays[..., 2], -1.0), np.inf)
    assert np.allclose(depth[below], expected[below], rtol=1e-3)
    assert np.all(depth[~below] >= joltgym._native.Renderer.far_depth)


def test_model_cameras_by_id_and_name():
    by_name = make("HalfCheetah", render_mode="rgb_array", width=64, height=64, camera_name="track")
    by_id = make("HalfCheetah", render_mode="rgb_array", width=64, height=64, camera_id=0)
    free = make("HalfCheetah", render_mode="rgb_array", width=64, height=64)
    for env in (by_name, by_id, free):
        env.reset(seed=3)
    assert np.array_equal(by_name.render(), by_id.render())
    assert not np.array_equal(by_name.render(), free.render())


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"camera_name": "nope"}, "camera_name 'nope' is not a camera of half_cheetah.xml; its cameras: \\['track'\\]"),
        ({"camera_id": 5}, "camera_id 5 is out of range"),
        ({"camera_id": 0, "camera_name": "track"}, "Both `camera_id` and `camera_name`"),
        ({"default_camera_config": {"zoom": 2}}, "unknown key\\(s\\) \\['zoom'\\]"),
        ({"default_camera_config": {"distance": -1}}, "distance"),
        ({"default_camera_config": {"lookat": (0, 0)}}, "lookat"),
        ({"default_camera_config": {"trackbodyid": 99}}, "trackbodyid 99"),
        ({"render_mode": "rgb"}, "render_mode 'rgb' is not one of"),
        ({"render_mode": "rgb_array", "width": 0}, "width must be"),
    ],
)
def test_bad_render_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make("HalfCheetah", **kwargs)


def test_render_without_a_mode_warns_and_returns_none():
    env = make("Hopper")
    env.reset(seed=0)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None


@pytest.mark.parametrize("name", ["HalfCheetah", "Humanoid"])
def test_rendering_never_changes_the_trajectory(name):
    def run(render: bool):
        env = make(name, render_mode="rgb_array", width=32, height=32)
        obs, _ = env.reset(seed=4)
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(30):
            if render:
                env.render()
            obs, reward, *_ = env.step(rng.uniform(-0.4, 0.4, env.action_space.shape).astype(np.float32))
            out.append(np.append(obs, reward))
        return np.concatenate(out)

    assert np.array_equal(run(False), run(True))


def test_rendering_never_changes_a_vector_env_or_a_multi_agent_env():
    def vector(render: bool):
        envs = gym.make_vec("joltgym/Ant-v0", num_envs=2, render_mode="rgb_array", width=24, height=24)
        out = [envs.reset(seed=1)[0]]
        rng = np.random.default_rng(1)
        for _ in range(15):
            if render:
                envs.render()
            out.append(envs.step(rng.uniform(-1, 1, envs.action_space.shape).astype(np.float32))[0])
        return np.stack(out)

    def sumo(render: bool):
        env = pettingzoo.make("parallel", "joltgym/SumoAnts-v0", render_mode="rgb_array", width=24, height=24)
        obs, _ = env.reset(seed=2)
        rng = np.random.default_rng(2)
        out = [obs["agent_0"]]
        for _ in range(15):
            if render:
                env.render()
            obs, *_ = env.step({a: rng.uniform(-1, 1, 8).astype(np.float32) for a in env.agents})
            out.append(obs["agent_0"])
        return np.stack(out)

    assert np.array_equal(vector(False), vector(True))
    assert np.array_equal(sumo(False), sumo(True))


def test_vector_env_renders_each_env_and_a_mosaic():
    envs = gym.make_vec("joltgym/Hopper-v0", num_envs=3, render_mode="rgb_array", width=40, height=30)
    envs.reset(seed=0)
    for _ in range(5):
        envs.step(envs.action_space.sample())
    frames = envs.render()
    assert isinstance(frames, tuple) and len(frames) == 3 and all(f.shape == (30, 40, 3) for f in frames)
    assert not np.array_equal(frames[0], frames[1]), "envs in different states draw different frames"
    mosaic = gym.make_vec("joltgym/Hopper-v0", num_envs=3, render_mode="rgb_array", width=40, height=30, render_mosaic=True)
    mosaic.reset(seed=0)
    assert mosaic.render().shape == (60, 80, 3)
    some = gym.make_vec("joltgym/Hopper-v0", num_envs=3, render_mode="depth_array", width=40, height=30, render_envs=[2])
    some.reset(seed=0)
    (depth,) = some.render()
    assert depth.shape == (30, 40)
    with pytest.raises(ValueError, match="render_envs"):
        gym.make_vec("joltgym/Hopper-v0", num_envs=3, render_mode="rgb_array", render_envs=[3])
    envs.close()
    with pytest.raises(gym.error.ClosedEnvironmentError):
        envs.render()


def test_tile_lays_frames_out_in_rows():
    frames = [np.full((2, 3, 3), i, np.uint8) for i in range(5)]
    out = tile(frames)
    assert out.shape == (4, 9, 3)
    assert out[0, 3, 0] == 1 and out[2, 0, 0] == 3 and out[3, 8, 0] == 0


@pytest.mark.parametrize("env_id", [f"joltgym/{n}-v0" for n in SINGLE])
def test_sb3_make_vec_env_works_and_renders(env_id):
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env(env_id, n_envs=2, seed=0, env_kwargs={"width": 32, "height": 32})
    venv.reset()
    venv.step(np.stack([venv.action_space.sample() for _ in range(2)]))
    assert venv.render_mode == "rgb_array"
    image = venv.render()
    assert image.ndim == 3 and image.shape[2] == 3
    venv.close()


@pytest.mark.parametrize("name", SINGLE)
def test_record_video_writes_an_mp4(name, tmp_path):
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gym.make(f"joltgym/{name}-v0", render_mode="rgb_array", width=64, height=64), str(tmp_path),
                      episode_trigger=lambda e: True, disable_logger=True)
    env.reset(seed=0)
    for _ in range(8):
        env.step(env.action_space.sample())
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 1000


@pytest.mark.parametrize("env_id", MULTI)
def test_pettingzoo_render_test(env_id, monkeypatch):
    from pettingzoo.test import render_test
    from pettingzoo.utils.conversions import parallel_to_aec

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # "human" opens a real pygame window, off screen
    kwargs = {"num_ants": 2} if "AntSwarm" in env_id else {}
    render_test(lambda render_mode=None: parallel_to_aec(pettingzoo.make("parallel", env_id, render_mode=render_mode, width=48, height=48, **kwargs)))


@pytest.mark.parametrize("env_id", ["joltgym/SumoAnts-v0", "joltgym/AntSwarm-v0"])
def test_arena_marks_are_drawn(env_id):
    env = pettingzoo.make("parallel", env_id, render_mode="rgb_array", width=120, height=90)
    env.reset(seed=1)
    assert env._env.floor_marks, "the arena's task reports its ring or goal"
    plain = env.renderer._draw(env.renderer._native, 120, 90, env.renderer.settings.camera, [], True, False)[0]
    assert not np.array_equal(env.render(), plain)


def test_multi_agent_vector_env_renders_each_world():
    from joltgym.marl.vector import MultiAgentVectorEnv

    envs = MultiAgentVectorEnv("joltgym/SumoAnts-v0", 2, num_threads=1, render_mode="rgb_array", width=40, height=30)
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 2 and frames[0].shape == (30, 40, 3)
    assert not np.array_equal(frames[0], frames[1]), "worlds in different states draw different frames"
    envs.close()


def test_human_mode_opens_a_window_and_paces_frames(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    env = make("InvertedPendulum", render_mode="human", width=64, height=64)
    env.reset(seed=0)
    assert env.render() is None
    assert env.renderer._viewer is not None and env.renderer._viewer.open
    env.close()
    assert env.renderer._viewer is None


def test_vector_envs_show_one_window_of_all_their_worlds(monkeypatch):
    from joltgym.marl.vector import MultiAgentVectorEnv

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    envs = gym.make_vec("joltgym/Hopper-v0", num_envs=3, render_mode="human", width=40, height=30)
    envs.reset(seed=0)
    assert envs.render() is None
    viewer = envs.unwrapped._renderer._viewer
    assert viewer.open and viewer._screen.get_size() == (80, 60)  # a 2 x 2 mosaic
    envs.close()
    assert not viewer.open
    worlds = MultiAgentVectorEnv("joltgym/MaHopper-v0", 2, num_threads=1, render_mode="human", width=40, height=30)
    worlds.reset(seed=0)
    assert worlds.render() is None and worlds._renderer._viewer._screen.get_size() == (80, 30)
    worlds.close()


def test_human_mode_without_a_display_says_what_to_do():
    # "human" draws at reset already, so that is where the missing display shows.
    code = (
        "import gymnasium as gym, joltgym\n"
        "env = gym.make('joltgym/InvertedPendulum-v0', render_mode='human')\n"
        "try:\n    env.reset(seed=0)\nexcept RuntimeError as e:\n    print('ERROR', e)\n"
    )
    environ = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    environ["SDL_VIDEODRIVER"] = "x11"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120)
    assert "ERROR render_mode=\"human\" needs a display" in out.stdout, out.stdout + out.stderr


def test_the_rendering_doc_shows_a_still_of_every_id():
    from pathlib import Path

    from joltgym.recording import file_stem

    docs = Path(__file__).resolve().parents[1] / "docs"
    gallery = (docs / "rendering.md").read_text()  # its Gallery; the README links to it
    for env_id in joltgym.task_ids() + MULTI:
        still = f"images/{file_stem(env_id)}.png"
        assert (docs / still).is_file() and f"]({still})" in gallery, env_id


def test_the_sb3_adapter_renders_every_env_tiled():
    from joltgym.vector.sb3 import JoltSB3VecEnv

    venv = JoltSB3VecEnv(3, task="Hopper", render_mode="rgb_array", width=32, height=24)
    venv.reset()
    images = venv.get_images()
    assert len(images) == 3 and images[0].shape == (24, 32, 3)
    assert venv.render().shape == (48, 64, 3)  # SB3 tiles 3 frames 2 x 2
    with pytest.raises(TypeError, match="render_mosaic"):
        JoltSB3VecEnv(2, task="Hopper", render_mode="rgb_array", render_mosaic=True)
    venv.close()


# A body drawn by a visual mesh (an octagonal prism given by its vertices) and, beside it at the
# same height, by the same shape as a cylinder primitive: both silhouettes must match.
MESH_SCENE = """
<mujoco>
  <asset><mesh name="prism" vertex="{vertices}"/></asset>
  <worldbody>
    <geom type="plane" size="2 2 0.1"/>
    <body name="meshed" pos="-0.3 0 0.3"><freejoint/>
      <geom type="mesh" mesh="prism" contype="0" conaffinity="0" rgba="0.8 0.2 0.2 1" mass="1"/></body>
    <body name="primitive" pos="0.3 0 0.3"><freejoint/>
      <geom type="cylinder" size="0.1 0.1" contype="0" conaffinity="0" rgba="0.8 0.2 0.2 1" mass="1"/></body>
  </worldbody>
</mujoco>
"""


def test_a_visual_mesh_is_drawn_as_its_triangles(tmp_path):
    angles = np.arange(64) * 2 * np.pi / 64
    ring = [f"{0.1 * np.cos(a):.5f} {0.1 * np.sin(a):.5f} {z}" for z in (-0.1, 0.1) for a in angles]
    path = tmp_path / "mesh.xml"
    path.write_text(MESH_SCENE.format(vertices=" ".join(ring)))
    model = joltgym.load_model(path)
    assert len(model.native.desc.meshes[0].faces) == 3 * model.mj_model.mesh_facenum[0]  # fine enough: none merged
    world = _native.World(model.native)
    renderer = _native.Renderer()
    rgb, _ = world.render(renderer, 320, 160, {"distance": 1.2, "elevation": -30.0, "azimuth": 90.0,
                                             "lookat": [0.0, 0.0, 0.3]})
    red = rgb[..., 0].astype(int) - rgb[..., 1] > 40  # shaded red, not the grey floor
    left, right = red[:, :160], red[:, 160:]
    assert left.sum() > 500  # the mesh is drawn, not a stand-in sphere
    # Mirror images about the middle: the camera looks along y at x = 0.
    overlap = (left & right[:, ::-1]).sum() / max((left | right[:, ::-1]).sum(), 1)
    assert overlap > 0.9, overlap


# A string (a spatial tendon between two sites) drawn red, 1 cm thick, from a hook to a bob whose sphere is
# not drawn: the frame shows it only where the tendon runs, following the bob.
STRING_SCENE = """
<mujoco>
  <worldbody>
    <site name="hook" pos="0 0 1"/>
    <body name="bob" pos="0.2 0 0.9">
      <joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 0 1"/>
      <geom type="sphere" size="0.02" mass="0.1" rgba="0 0 0 0"/><site name="knot"/>
    </body>
  </worldbody>
  <tendon>
    <spatial limited="true" range="0 0.3" width="0.01" rgba="0.9 0.1 0.1 {alpha}"><site site="hook"/><site site="knot"/></spatial>
  </tendon>
</mujoco>
"""


@pytest.mark.parametrize("alpha", [1, 0])
def test_a_spatial_tendon_is_drawn_between_its_sites(tmp_path, alpha):
    path = tmp_path / "string.xml"
    path.write_text(STRING_SCENE.format(alpha=alpha))
    world = _native.World(joltgym.load_model(path).native)
    renderer = _native.Renderer()
    camera = {"distance": 1.0, "elevation": 0.0, "azimuth": 90.0, "lookat": [0.1, 0.0, 0.95]}

    def red_columns(bob_x: float) -> np.ndarray:
        world.set_state(np.array([bob_x, 0.0], np.float32), np.zeros(2, np.float32))
        rgb, _ = world.render(renderer, 200, 200, camera)
        red = rgb[..., 0].astype(int) - rgb[..., 1] > 60
        return np.flatnonzero(red.any(axis=0))

    columns = red_columns(0.0)
    if alpha == 0:
        assert columns.size == 0, "an invisible tendon is not drawn"
        return
    # from the hook (x = 0, the image's left of centre) to the bob (x = 0.2): 0.2 m at 1 m, about 48 px
    assert 35 < columns.max() - columns.min() < 60, columns
    assert red_columns(-0.15).max() < columns.max() - 25, "the drawn string follows the bob"
