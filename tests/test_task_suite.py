"""Every registered task: API contract, parity with Gymnasium's XML and v5 layouts, stability."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import joltgym
from joltgym.model import compile_mjcf, describe
from joltgym.tasks import TASKS, task_names
from observations import flat
from test_model_loading import GYMNASIUM_ASSETS, flatten

GYMNASIUM_XML = {
    "Ant": "ant.xml",
    "HalfCheetah": "half_cheetah.xml",
    "Hopper": "hopper.xml",
    "Humanoid": "humanoid.xml",
    "HumanoidStandup": "humanoidstandup.xml",
    "Walker2d": "walker2d_v5.xml",
    "InvertedPendulum": "inverted_pendulum.xml",
    "InvertedDoublePendulum": "inverted_double_pendulum.xml",
    "Reacher": "reacher.xml",
    "Swimmer": "swimmer.xml",
}
# (obs dim, act dim, frame_skip, dt) of the Gymnasium v5 task of the same name
V5_SHAPES = {
    "Ant": (105, 8, 5, 0.05),
    "HalfCheetah": (17, 6, 5, 0.05),
    "Hopper": (11, 3, 4, 0.008),
    "Humanoid": (348, 17, 5, 0.015),
    "HumanoidStandup": (348, 17, 5, 0.015),
    "Walker2d": (17, 6, 4, 0.008),
    "InvertedPendulum": (4, 1, 2, 0.04),
    "InvertedDoublePendulum": (9, 1, 5, 0.05),
    "Reacher": (10, 2, 2, 0.02),
    "Swimmer": (8, 2, 4, 0.04),
}
ALL = sorted(TASKS)
V5 = task_names("gymnasium")  # the tasks that reproduce a Gymnasium v5 env


def test_every_task_is_registered_with_its_vector_entry_point():
    assert sorted(GYMNASIUM_XML) == V5
    for name in ALL:
        spec = gym.spec(f"joltgym/{name}-v0")
        if name in V5:
            assert spec.max_episode_steps == gym.spec(f"{name}-v5").max_episode_steps
        assert spec.vector_entry_point is not None


@pytest.mark.parametrize("name", ALL)
def test_check_env(name):
    check_env(gym.make(f"joltgym/{name}-v0").unwrapped, skip_render_check=True)


@pytest.mark.parametrize("name", ALL)
def test_sb3_check_env(name):
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(gym.make(f"joltgym/{name}-v0"), warn=False)


@pytest.mark.parametrize("name", V5)
def test_shapes_and_info_keys_match_v5(name):
    ours = gym.make(f"joltgym/{name}-v0")
    theirs = gym.make(f"{name}-v5")
    obs_dim, act_dim, frame_skip, dt = V5_SHAPES[name]
    assert ours.observation_space.shape == theirs.observation_space.shape == (obs_dim,)
    np.testing.assert_allclose(ours.action_space.low, theirs.action_space.low)
    np.testing.assert_allclose(ours.action_space.high, theirs.action_space.high)
    assert ours.unwrapped.frame_skip == frame_skip and ours.unwrapped.dt == pytest.approx(dt)
    _, our_reset_info = ours.reset(seed=0)
    _, their_reset_info = theirs.reset(seed=0)
    assert set(our_reset_info) == set(their_reset_info)
    action = theirs.action_space.sample()
    *_, our_info = ours.step(action.astype(np.float32))
    *_, their_info = theirs.step(action)
    assert set(our_info) == set(their_info)


@pytest.mark.parametrize("name", V5)
def test_our_model_compiles_to_gymnasiums(name):
    ours = flatten(describe(compile_mjcf(TASKS[name].xml_file)))
    theirs = flatten(describe(compile_mjcf(GYMNASIUM_ASSETS / GYMNASIUM_XML[name])))
    assert ours.keys() == theirs.keys()
    for key in ours:
        np.testing.assert_allclose(ours[key], theirs[key], rtol=1e-5, atol=1e-6, err_msg=key)


@pytest.mark.parametrize("name", V5)
def test_runs_from_gymnasiums_own_xml(name):
    env = gym.make(f"joltgym/{name}-v0", xml_file=str(GYMNASIUM_ASSETS / GYMNASIUM_XML[name]))
    env.reset(seed=0)
    obs, *_ = env.step(env.action_space.sample())
    assert np.isfinite(obs).all()


def mujoco_state_obs(name: str, qpos: np.ndarray, qvel: np.ndarray) -> np.ndarray:
    env = gym.make(f"{name}-v5").unwrapped
    env.reset(seed=0)
    env.set_state(qpos.astype(np.float64), qvel.astype(np.float64))
    return env._get_obs()


@pytest.mark.parametrize("name", V5)
def test_observation_terms_equal_v5_for_the_same_state(name):
    """Put both engines in one generalized state: every observation element must agree."""
    ours = gym.make(f"joltgym/{name}-v0").unwrapped
    ours.reset(seed=3)
    rng = np.random.default_rng(3)
    qpos = ours.init_qpos + rng.uniform(-0.1, 0.1, ours.model.nq)
    qvel = rng.uniform(-12, 12, ours.model.nv)  # beyond the +-10 clip of some tasks
    for j in range(ours.model.mj_model.njnt):
        if ours.model.mj_model.jnt_type[j] == 0:  # free joint: we report unit quaternions (MuJoCo
            adr = ours.model.mj_model.jnt_qposadr[j] + 3  # normalises them at its first step)
            qpos[adr : adr + 4] /= np.linalg.norm(qpos[adr : adr + 4])
    ours.set_state(qpos, qvel)
    expected = mujoco_state_obs(name, qpos, qvel)
    np.testing.assert_allclose(ours._core.observe(), expected, rtol=1e-4, atol=2e-4)


@pytest.mark.parametrize("name", ALL)
def test_zero_action_is_stable(name):
    env = gym.make(f"joltgym/{name}-v0", max_episode_steps=None).unwrapped
    env.reset(seed=0)
    zeros = np.zeros(env.action_space.shape, np.float32)
    for _ in range(1000):
        obs, reward, terminated, _, _ = env.step(zeros)
        assert np.isfinite(flat(obs)).all() and np.isfinite(reward)
        speeds = np.abs(env._core.body_velocity())
        assert speeds.max() < 50.0  # no explosion
        if terminated:  # pendulums fall and walkers topple with zero action, as in MuJoCo
            break
    assert env._core.max_joint_anchor_error() < 2e-3


@pytest.mark.parametrize("name", ALL)
def test_random_actions_hold_joints(name):
    env = gym.make(f"joltgym/{name}-v0")
    env.reset(seed=11)
    core = env.unwrapped._core
    rng = np.random.default_rng(11)
    low, high = env.action_space.low, env.action_space.high
    worst = 0.0
    for _ in range(10_000):
        obs, reward, terminated, truncated, _ = env.step(rng.uniform(low, high).astype(np.float32))
        assert np.isfinite(flat(obs)).all() and np.isfinite(reward)
        worst = max(worst, core.max_joint_anchor_error())
        if terminated or truncated:
            env.reset()
    assert worst < 2e-3
    assert core.update_errors == 0


def zero_action_length(env, qpos=None, qvel=None) -> int:
    """Steps until a zero-action episode ends (at most 1000), from the env's reset state or the one given."""
    if qpos is not None:
        env.set_state(qpos, qvel)
    zeros = np.zeros(env.action_space.shape, np.float32)
    for n in range(1, 1001):
        *_, terminated, truncated, _ = env.step(zeros)
        if terminated or truncated:
            return n
    return 1000


@pytest.mark.parametrize("name", ["Hopper", "Walker2d", "Humanoid", "InvertedDoublePendulum"])
def test_zero_action_episode_length_is_mujocos(name):
    """Falling robots fall as MuJoCo's do: from MuJoCo's reset states of 10 seeds, the mean
    zero-action episode length is within 10% of MuJoCo's (soft joint limits; hard ones fall
    about 20% sooner for the runners and the humanoid)."""
    ours, theirs = [], []
    for seed in range(10):
        mj = gym.make(f"{name}-v5").unwrapped
        mj.reset(seed=seed)
        qpos, qvel = mj.data.qpos.copy(), mj.data.qvel.copy()
        theirs.append(zero_action_length(mj))
        env = gym.make(f"joltgym/{name}-v0").unwrapped
        env.reset(seed=seed)
        ours.append(zero_action_length(env, qpos, qvel))
    assert np.mean(ours) == pytest.approx(np.mean(theirs), rel=0.1), (ours, theirs)


def test_zero_action_episode_length_of_the_inverted_pendulum_is_like_mujocos():
    """Same seeds, each engine's own reset: mean length within 2x."""
    lengths = {}
    for env_id in ("joltgym/InvertedPendulum-v0", "InvertedPendulum-v5"):
        runs = []
        for seed in range(5):
            env = gym.make(env_id)
            env.reset(seed=seed)
            runs.append(zero_action_length(env))
        lengths[env_id] = np.mean(runs)
    ours, theirs = lengths.values()
    assert 0.5 * theirs <= ours <= 2.0 * theirs, (ours, theirs)


def test_hopper_health_and_termination():
    env = gym.make("joltgym/Hopper-v0").unwrapped
    env.reset(seed=0)
    qpos, qvel = env.init_qpos.copy(), np.zeros(env.model.nv)
    qpos[2] = 0.5  # torso pitched beyond healthy_angle_range
    env.set_state(qpos, qvel)
    _, reward, terminated, _, info = env.step(np.zeros(3, np.float32))
    assert terminated and info["reward_survive"] == 0.0
    env2 = gym.make("joltgym/Hopper-v0", terminate_when_unhealthy=False).unwrapped
    env2.reset(seed=0)
    env2.set_state(qpos, qvel)
    *_, terminated, _, info = env2.step(np.zeros(3, np.float32))
    assert not terminated and info["reward_survive"] == 0.0


def test_inverted_double_pendulum_tip_and_reward():
    env = gym.make("joltgym/InvertedDoublePendulum-v0").unwrapped
    env.reset(seed=0)
    env.set_state(np.zeros(3), np.zeros(3))
    np.testing.assert_allclose(env._core.site_pos()[0], [0, 0, 1.2], atol=1e-5)
    _, reward, terminated, _, info = env.step(np.zeros(1, np.float32))
    assert not terminated
    # tip at ~1.2: distance penalty (1.2 - 2)^2
    assert info["distance_penalty"] == pytest.approx(-0.64, abs=0.01)
    assert reward == pytest.approx(10 + info["distance_penalty"] + info["velocity_penalty"], abs=1e-5)


def test_swimmer_matches_mujoco_open_loop():
    """Fluid forces (MuJoCo's inertia-box model): the same stroke moves both swimmers alike."""
    results = {}
    for env_id in ("Swimmer-v5", "joltgym/Swimmer-v0"):
        env = gym.make(env_id).unwrapped
        env.reset(seed=0)
        env.set_state(env.init_qpos.copy(), np.zeros(env.model.nv))
        for t in range(300):
            *_, info = env.step(np.array([np.sin(0.3 * t), np.cos(0.3 * t)], np.float32))
        results[env_id] = info["x_position"]
    assert results["Swimmer-v5"] > 0.2  # the stroke really swims
    assert results["joltgym/Swimmer-v0"] == pytest.approx(results["Swimmer-v5"], rel=0.05)


FLUID_BOX = """
<mujoco>
  <option timestep="0.002" density="1000" viscosity="0.5" gravity="0 0 0"/>
  <worldbody>
    <body name="b" pos="0 0 1" euler="10 20 30">
      <freejoint/>
      <geom type="box" size="0.2 0.1 0.05" mass="2" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_fluid_drag_on_a_tumbling_box_matches_mujoco(tmp_path):
    import mujoco

    path = tmp_path / "fluid.xml"
    path.write_text(FLUID_BOX)
    model = joltgym.load_model(path)
    world = joltgym._native.World(model.native)
    data = mujoco.MjData(model.mj_model)
    qvel = np.array([1.0, -0.5, 0.3, 2.0, -1.0, 3.0])
    data.qpos[:], data.qvel[:] = model.init_qpos, qvel
    world.set_state(model.init_qpos, qvel)
    for _ in range(100):
        mujoco.mj_step(model.mj_model, data)
        world.step(np.zeros(0, np.float32))
    np.testing.assert_allclose(world.qvel, data.qvel, rtol=2e-3, atol=2e-3)
    assert np.abs(data.qvel).max() < 0.6 * np.abs(qvel).max()  # drag really slowed it


def test_reacher_follows_mujoco_through_an_episode():
    """Armature 1 on links of ~1e-4 kg m^2: the arm must track MuJoCo's, not diverge (it did while
    motor torques went onto the light links instead of through the armature rows)."""
    errors, travel = [], []
    for seed in range(4):
        ours = gym.make("joltgym/Reacher-v0").unwrapped
        theirs = gym.make("Reacher-v5").unwrapped
        theirs.reset(seed=seed)
        ours.reset(seed=seed)
        ours.set_state(theirs.data.qpos.copy(), theirs.data.qvel.copy())
        start = theirs.data.qpos[:2].copy()
        rng = np.random.default_rng(seed)
        worst = 0.0
        for _ in range(50):
            action = rng.uniform(-1, 1, 2)
            obs, *_ = ours.step(action.astype(np.float32))
            theirs.step(action)
            assert np.isfinite(obs).all()
            worst = max(worst, np.abs(ours.qpos[:2] - theirs.data.qpos[:2]).max())
        errors.append(worst)
        travel.append(np.abs(theirs.data.qpos[:2] - start).max())
    assert np.mean(errors) < 1.0, errors  # MuJoCo's own RK4 vs Euler: ~0.16 rad here
    assert np.mean(travel) > 1.5  # the arm really swung (2.3 rad on average)


def test_reacher_reset_and_reward():
    env = gym.make("joltgym/Reacher-v0").unwrapped
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        assert info == {}
        goal = env.qpos[2:]
        assert np.hypot(*goal) < 0.2 and np.all(env.qvel[2:] == 0)
        np.testing.assert_allclose(obs[4:6], goal, atol=1e-6)
    action = np.array([0.3, -0.5], np.float32)
    obs, reward, terminated, truncated, info = env.step(action)
    assert not terminated
    assert info["reward_dist"] == pytest.approx(-np.hypot(*obs[8:10]), rel=1e-5, abs=1e-6)
    assert info["reward_ctrl"] == pytest.approx(-np.sum(action**2), rel=1e-6)
    assert reward == pytest.approx(info["reward_dist"] + info["reward_ctrl"], rel=1e-6)
