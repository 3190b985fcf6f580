"""joltgym/T1JoystickFlatTerrain-v0 and T1JoystickRoughTerrain-v0 against EnvPool 1.2.5's
T1JoystickFlatTerrain-v1 and T1JoystickRoughTerrain-v1: the same spaces, config and info keys; the
state reward terms of a state equal EnvPool's formulas on MuJoCo's sensors; the gait phase resting
under a zero command; Playground's randomisation; episode statistics under random actions close to
EnvPool's."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from playground_checks import assert_spaces_config_and_info_are_envpools
from test_go1_joystick import mujoco_in, random_action_statistics, sensor

NAME = "T1Joystick{}Terrain"
TERRAINS = ["Flat", "Rough"]
POSE_WEIGHTS = np.array([1.0, 1.0, 0.1, 1.0, 1.0, 1.0, 0.1, 1.0, 1.0, 1.0, 1.0, 0.01, 1.0, 1.0, 0.01, 1.0, 1.0, 0.01,
                         1.0, 1.0, 0.01, 1.0, 1.0])


@pytest.mark.parametrize("terrain", TERRAINS)
def test_spaces_info_keys_and_config_are_envpools(terrain):
    assert_spaces_config_and_info_are_envpools(NAME.format(terrain), 23, 25)
    obs, _ = gym.make(f"joltgym/{NAME.format(terrain)}-v0").reset(seed=0)
    assert obs["state"].shape == (85,) and obs["privileged_state"].shape == (180,)


def test_state_reward_terms_are_envpools_formulas_on_mujocos_sensors():
    name = NAME.format("Flat")
    env = gym.make(f"joltgym/{name}-v0", noise_level=0.0, push_enable=False)
    params = TASKS[name].native.defaults
    _, info = env.reset(seed=3)
    m = env.unwrapped.model.mj_model
    home = m.key_qpos[m.key("home").id][7:]
    low, high = m.jnt_range[1:, 0], m.jnt_range[1:, 1]
    centre, half = (low + high) / 2, (high - low) / 2 * params["soft_joint_pos_limit_factor"]
    knees = [m.joint(n).qposadr[0] - 7 for n in ("Left_Knee_Pitch", "Right_Knee_Pitch")]
    hips = [m.joint(n).qposadr[0] - 7 for n in ("Left_Hip_Roll", "Left_Hip_Yaw", "Right_Hip_Roll", "Right_Hip_Yaw")]
    rng = np.random.default_rng(2)
    for step in range(25):
        command = np.asarray(info["command"], np.float64)
        obs, reward, terminated, truncated, info = env.step(rng.uniform(-0.2, 0.2, 23).astype(np.float32))
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        np.testing.assert_allclose(obs["state"][0:3], sensor(m, d, "local_linvel"), atol=1e-4)
        linvel, gyro, up = sensor(m, d, "local_linvel"), sensor(m, d, "gyro"), sensor(m, d, "upvector")
        q, sigma = d.qpos[7:], params["tracking_sigma"]
        imu = m.site("imu").id
        yaw = np.arctan2(d.site_xmat[imu][3], d.site_xmat[imu][0])
        left, right = d.site_xpos[m.site("left_foot").id], d.site_xpos[m.site("right_foot").id]
        distance = abs(np.cos(yaw) * (left[1] - right[1]) - np.sin(yaw) * (left[0] - right[0]))
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "ang_vel_xy": np.sum(gyro[:2] ** 2) * params["ang_vel_xy_scale"],
            "orientation": np.sum(up[:2] ** 2) * params["orientation_scale"],
            "alive": params["alive_scale"],
            "joint_deviation_knee": np.sum(np.abs(q[knees] - home[knees])) * params["joint_deviation_knee_scale"],
            "joint_deviation_hip": (abs(command[1]) > 0.1) * np.sum(np.abs(q[hips] - home[hips]))
            * params["joint_deviation_hip_scale"],
            "dof_pos_limits": np.sum(np.maximum(centre - half - q, 0) + np.maximum(q - centre - half, 0))
            * params["dof_pos_limits_scale"],
            "pose": np.sum((q - home) ** 2 * POSE_WEIGHTS) * params["pose_scale"],
            "feet_distance": np.clip(0.2 - distance, 0.0, 0.1) * params["feet_distance_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        total = sum(info[k] for k in info if k.startswith("reward_"))
        assert reward == pytest.approx(np.clip(total * 0.02, 0.0, 10000.0), rel=1e-5, abs=1e-7)
        if terminated or truncated:
            break
    assert step > 10


def test_the_gait_phase_rests_while_the_command_is_zero():
    env = gym.make(f"joltgym/{NAME.format('Flat')}-v0", noise_level=0.0, push_enable=False, lin_vel_x_min=0.0,
                   lin_vel_x_max=0.0, lin_vel_y_min=0.0, lin_vel_y_max=0.0, ang_vel_yaw_min=0.0, ang_vel_yaw_max=0.0)
    obs, _ = env.reset(seed=1)
    np.testing.assert_allclose(obs["state"][81:85], [1.0, -1.0, 0.0, 0.0], atol=1e-6)  # phases 0 and pi
    for _ in range(3):
        obs, *_ = env.step(np.zeros(23, np.float32))
    np.testing.assert_allclose(obs["state"][81:85], [-1.0, -1.0, 0.0, 0.0], atol=1e-6)  # both held at pi
    moving = gym.make(f"joltgym/{NAME.format('Flat')}-v0", noise_level=0.0, push_enable=False, lin_vel_x_min=0.5)
    moving.reset(seed=1)
    for _ in range(3):
        obs, *_ = moving.step(np.zeros(23, np.float32))
    assert abs(obs["state"][81] - obs["state"][82]) > 0.1  # the feet half a period apart


def test_playground_randomisation_draws_t1s_ranges():
    env = gym.make(f"joltgym/{NAME.format('Flat')}-v0", randomize="playground").unwrapped
    base = env.model_physics("joint_damping")
    frictions, ankles = [], []
    for seed in range(20):
        env.reset(seed=seed)
        frictions.append(env.get_physics("floor_friction"))
        ankles.append(env.get_physics("joint_damping")[[16, 17, 22, 23]] / base[[16, 17, 22, 23]])
    assert 0.2 <= np.min(frictions) and np.max(frictions) < 0.6 and np.ptp(frictions) > 0.2
    assert 0.5 <= np.min(ankles) and np.max(ankles) < 2.0 and np.ptp(ankles) > 1.0


@pytest.mark.parametrize("terrain", TERRAINS)
def test_random_action_episodes_match_envpools(terrain):
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics(NAME.format(terrain), 300, act_dim=23)
    assert our_length == pytest.approx(their_length, rel=0.15)  # random actions topple it in about 47 steps
    for key, value in their_terms.items():
        tolerance = 0.4 if key == "reward_collision" else 0.15  # feet touch each other in 0.5% of steps
        assert our_terms[key] == pytest.approx(value, rel=tolerance, abs=0.005), key
