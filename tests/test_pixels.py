"""Pixel observations (obs_type="pixels" and "pixels_state", frame_stack): their spaces against
Gymnasium's checker, the suite's cameras against MuJoCo's, frames drawn inside the pool equal to the
single env's for any thread count, packing and async order, same-step final frames, saved states,
and refused arguments named."""

from __future__ import annotations

import gymnasium as gym
import mujoco
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from joltgym import _native
from joltgym.vector.jolt_vector_env import JoltVectorEnv
from stand_ins import SUITE_STAND_IN

PIXEL_TASKS = [SUITE_STAND_IN, "HalfCheetah"]  # a Control Suite task (its camera 0) and a Gymnasium one (tracking)


def make(name: str, **kwargs):
    return gym.make(f"joltgym/{name}-v0", **kwargs)


def actions(env, steps: int, seed: int = 0) -> np.ndarray:
    space = env.single_action_space if hasattr(env, "single_action_space") else env.action_space
    rng = np.random.default_rng(seed)
    return rng.uniform(space.low, space.high, (steps, *space.shape)).astype(np.float32)


@pytest.mark.parametrize("name", PIXEL_TASKS)
@pytest.mark.parametrize("obs_type", ["pixels", "pixels_state"])
def test_pixel_observations_pass_gymnasiums_checker(name, obs_type):
    env = make(name, obs_type=obs_type, frame_stack=3)
    frames = gym.spaces.Box(0, 255, (3, 84, 84, 3), np.uint8)
    assert env.observation_space == (frames if obs_type == "pixels" else
                                     gym.spaces.Dict(pixels=frames, state=make(name).observation_space))
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("name", ["CheetahRun", "HopperStand", "SwimmerSwimmer6", "FingerSpin"])
def test_the_suite_cameras_stand_where_mujocos_do(name):
    # Camera 0 of each: tracking the centre of mass of the root's subtree (cheetah, swimmer), of the
    # whole model from the world body (hopper), fixed (finger).
    env = make(name).unwrapped
    env.reset(seed=0)
    for action in actions(env, 40):
        env.step(action)
    position, rotation, fovy = env._core.camera_pose(_native.Renderer(), {"camera_id": 0})
    m = env.model.mj_model
    d = mujoco.MjData(m)
    d.qpos[:] = env.qpos
    mujoco.mj_forward(m, d)
    np.testing.assert_allclose(position, d.cam_xpos[0], atol=1e-5)
    np.testing.assert_allclose(rotation, d.cam_xmat[0].reshape(3, 3), atol=1e-5)
    assert fovy == pytest.approx(m.cam_fovy[0])


def test_a_frame_stack_starts_full_and_shifts_by_one_frame_a_step():
    env = make(SUITE_STAND_IN, obs_type="pixels", frame_stack=3)
    first, _ = env.reset(seed=1)
    assert all(np.array_equal(first[0], frame) for frame in first)
    previous = first
    for action in actions(env, 4):
        obs, *_ = env.step(action)
        assert np.array_equal(obs[:2], previous[1:])
        assert not np.array_equal(obs[2], obs[1]), "the robot moved: the newest frame must differ"
        previous = obs
    robot_brown = (np.abs(obs[2].astype(int) - [150, 90, 50]).sum(axis=-1) < 90).sum()
    assert robot_brown > 40, "the cheetah must be in its camera's frame"


@pytest.mark.parametrize("name", PIXEL_TASKS)
def test_the_pool_draws_what_the_single_env_draws_for_any_threads_and_packing(name):
    steps = actions(make(name), 6, seed=2)
    single = make(name, obs_type="pixels_state", frame_stack=2)
    obs, _ = single.reset(seed=7)
    expected = [obs]
    for action in steps:
        expected.append(single.step(action)[0])
    for threads, per_world in ((1, 1), (2, 3)):
        envs = JoltVectorEnv(3, task=name, obs_type="pixels_state", frame_stack=2, num_threads=threads,
                             robots_per_world=per_world if name == "HalfCheetah" else None)
        obs, _ = envs.reset(seed=[7, 8, 9])
        got = [obs]
        for action in steps:
            got.append(envs.step(np.repeat(action[None], 3, axis=0))[0])
        for want, have in zip(expected, got):
            assert np.array_equal(want["pixels"], have["pixels"][0]), (threads, per_world)
            assert np.array_equal(want["state"], have["state"][0])


def test_drawing_pixels_never_changes_the_trajectory():
    steps = actions(make(SUITE_STAND_IN), 20, seed=3)
    runs = []
    for obs_type in ("state", "pixels_state"):
        envs = JoltVectorEnv(2, task=SUITE_STAND_IN, obs_type=obs_type)
        obs, _ = envs.reset(seed=0)
        trace = []
        for action in steps:
            obs, reward, *_ = envs.step(np.repeat(action[None], 2, axis=0))
            trace.append(np.append(obs if obs_type == "state" else obs["state"], reward))
        runs.append(np.concatenate(trace))
    assert np.array_equal(runs[0], runs[1])


def test_same_step_autoreset_returns_the_frames_that_ended_the_episode():
    kwargs = dict(task=SUITE_STAND_IN, obs_type="pixels_state", frame_stack=2, max_episode_steps=3)
    next_step = JoltVectorEnv(2, **kwargs)
    same_step = JoltVectorEnv(2, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
    next_step.reset(seed=5)
    same_step.reset(seed=5)
    zero = np.zeros((2, 6), np.float32)
    for _ in range(3):
        ended, *_ = next_step.step(zero)
        obs, _, _, truncated, infos = same_step.step(zero)
    assert truncated.all() and infos["_final_obs"].all()
    for i in range(2):
        assert np.array_equal(infos["final_obs"][i]["pixels"], ended["pixels"][i])
        assert np.array_equal(infos["final_obs"][i]["state"], ended["state"][i])
    assert np.array_equal(obs["pixels"][:, 0], obs["pixels"][:, 1]), "the next episode's stack starts full"


def test_async_batches_carry_their_envs_frames():
    steps = actions(make(SUITE_STAND_IN), 3, seed=4)
    sync = JoltVectorEnv(4, task=SUITE_STAND_IN, obs_type="pixels", num_threads=1)
    asynchronous = JoltVectorEnv(4, task=SUITE_STAND_IN, obs_type="pixels", num_threads=2, batch_size=2)
    sync.reset(seed=0)
    asynchronous.async_reset(seed=0)
    for _ in range(2):
        asynchronous.recv()
    for action in steps:
        want, *_ = sync.step(np.repeat(action[None], 4, axis=0))
        asynchronous.send(np.repeat(action[None], 4, axis=0), np.arange(4))
        for _ in range(2):
            have, *_, infos = asynchronous.recv()
            for k, env in enumerate(infos["env_id"]):
                assert np.array_equal(have[k], want[env])


def test_a_restored_state_draws_the_frame_it_was_saved_at():
    env = make(SUITE_STAND_IN, obs_type="pixels", frame_stack=2).unwrapped
    env.reset(seed=0)
    for action in actions(env, 5):
        saved_obs, *_ = env.step(action)
    state = env.get_state()
    for action in actions(env, 5, seed=1):
        env.step(action)
    env.set_state(state)
    envs = JoltVectorEnv(2, task=SUITE_STAND_IN, obs_type="pixels", frame_stack=2)
    envs.reset(seed=0)
    envs.set_state([state], [1])
    obs, *_ = envs.step(np.zeros((2, 6), np.float32))
    single, *_ = env.step(np.zeros(6, np.float32))
    assert np.array_equal(single, obs[1])
    assert np.array_equal(single[0], saved_obs[1]), "the restored stack starts from the saved frame"


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"obs_type": "rgb"}, "obs_type must be one of \\['state', 'pixels', 'pixels_state'\\], got 'rgb'"),
        ({"frame_stack": 3}, "frame_stack=3 stacks pixel frames: give obs_type='pixels' or 'pixels_state'"),
        ({"obs_type": "pixels", "frame_stack": 0}, "frame_stack must be an int in \\[1, 64\\], got 0"),
        ({"obs_type": "pixels", "width": 0}, "width must be an int in \\[1, 16384\\], got 0"),
    ],
)
def test_bad_pixel_arguments_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        make(SUITE_STAND_IN, **kwargs)
    with pytest.raises(ValueError, match=message):
        JoltVectorEnv(2, task=SUITE_STAND_IN, **kwargs)


def test_pixel_sizes_and_the_render_size():
    env = make("HalfCheetah", obs_type="pixels", width=64, height=48, render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (48, 64, 3) and np.array_equal(env.render(), obs)
    assert make("HalfCheetah", obs_type="pixels").observation_space.shape == (84, 84, 3)
    assert make("HalfCheetah", render_mode="rgb_array").unwrapped.renderer.settings.width == 480



# Targets dm_control moves inside its model each episode (reacher's and finger turn's also take the task's size),
# which joltgym keeps per episode: the episode's frame is the frame of a model whose target stands (and is sized)
# there. elements: the target's (kind, name)s; the axes info["target"] gives first; its size.
MOVED_TARGETS = {"ReacherHard": ([("geom", "target")], [0, 1], 0.015),
                 "SwimmerSwimmer6": ([("geom", "target")], [0, 1], None),
                 "FishSwim": ([("geom", "target")], [0, 1, 2], None),
                 "FingerTurnEasy": ([("site", "target")], [0, 2], 0.07),
                 "FingerTurnHard": ([("site", "target")], [0, 2], 0.03),
                 "ManipulatorBringBall": ([("body", "target_ball")], [0, 2], None)}


@pytest.mark.parametrize("name", MOVED_TARGETS)
def test_a_target_moved_each_episode_is_drawn_where_the_episode_put_it(name):
    import joltgym
    from joltgym.tasks import task_spec

    env = make(name, obs_type="pixels").unwrapped
    spec = task_spec(name)
    elements, axes, size = MOVED_TARGETS[name]
    moved_apart = []
    for seed in (1, 2):
        frame, info = env.reset(seed=seed)

        def place(m, target=np.asarray(info["target"], np.float64)[:len(axes)]):
            for kind, element_name in elements:
                element = getattr(m, kind)(element_name)
                getattr(m, f"{kind}_pos")[element.id, axes] = target
                if size:
                    getattr(m, f"{kind}_size")[element.id, 0] = size

        def frame_of(edit=None):
            world = _native.World(joltgym.load_model(spec.xml_file, solver=spec.solver, edit=edit).native)
            world.set_state(env.qpos.astype(np.float32), env.qvel.astype(np.float32))
            return world.render(_native.Renderer(), 84, 84, {"camera_id": 0})[0]

        assert np.array_equal(frame, frame_of(place))
        moved_apart.append(not np.array_equal(frame, frame_of()))
    assert any(moved_apart), "the target is in view and drawn elsewhere than the model has it"


@pytest.mark.parametrize("name", ["FingerSpin", "FishUpright"])
def test_a_target_the_task_hides_is_not_drawn(name):
    # dm_control's finger spin hides the target and tip sites, fish upright the target geom (alpha 0).
    import joltgym
    from joltgym.tasks import task_spec

    env = make(name, obs_type="pixels").unwrapped
    frame, _ = env.reset(seed=0)
    spec = task_spec(name)
    shown = _native.World(joltgym.load_model(spec.xml_file, solver=spec.solver).native)
    shown.set_state(env.qpos.astype(np.float32), env.qvel.astype(np.float32))
    assert not np.array_equal(frame, shown.render(_native.Renderer(), 84, 84, {"camera_id": 0})[0])
