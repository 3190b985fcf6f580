"""joltgym/BerkeleyHumanoidJoystickFlatTerrain-v0 and ...RoughTerrain-v0 against EnvPool 1.2.5's
BerkeleyHumanoidJoystickFlatTerrain-v1 and ...RoughTerrain-v1: the same spaces, config and info keys;
the privileged state's sensors and the state reward terms of a state equal MuJoCo's sensors and
EnvPool's formulas on them; pushes; episode statistics under random actions close to EnvPool's."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from playground_checks import assert_spaces_config_and_info_are_envpools
from test_go1_joystick import mujoco_in, random_action_statistics, sensor

NAME = "BerkeleyHumanoidJoystick{}Terrain"
TERRAINS = ["Flat", "Rough"]


@pytest.mark.parametrize("terrain", TERRAINS)
def test_spaces_info_keys_and_config_are_envpools(terrain):
    assert_spaces_config_and_info_are_envpools(NAME.format(terrain), 12, 21)
    obs, _ = gym.make(f"joltgym/{NAME.format(terrain)}-v0").reset(seed=0)
    assert obs["state"].shape == (52,) and obs["privileged_state"].shape == (114,)


def test_observation_and_state_reward_terms_are_mujocos_sensors_and_envpools_formulas():
    name = NAME.format("Flat")
    env = gym.make(f"joltgym/{name}-v0", noise_level=0.0, push_enable=False)
    params = TASKS[name].native.defaults
    obs, info = env.reset(seed=3)
    m = env.unwrapped.model.mj_model
    home = m.key_qpos[m.key("home").id][7:]
    low, high = m.jnt_range[1:, 0], m.jnt_range[1:, 1]
    centre, half = (low + high) / 2, (high - low) / 2 * params["soft_joint_pos_limit_factor"]
    weights = np.tile([1.0, 1.0, 0.01, 0.01, 1.0, 1.0], 2)
    knees = [m.joint(n).qposadr[0] - 7 for n in ("LL_KFE", "LR_KFE")]
    hips = [m.joint(n).qposadr[0] - 7 for n in ("LL_HR", "LL_HAA", "LR_HR", "LR_HAA")]
    rng = np.random.default_rng(2)
    last = np.zeros(12)
    for step in range(25):
        command = np.asarray(info["command"], np.float64)  # a step is scored with the command it began with
        action = rng.uniform(-0.2, 0.2, 12).astype(np.float32)
        obs, reward, terminated, truncated, info = env.step(action)
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        state, privileged = obs["state"], obs["privileged_state"]
        np.testing.assert_array_equal(state, privileged[:52])
        np.testing.assert_allclose(state[0:3], sensor(m, d, "local_linvel"), atol=1e-4)
        np.testing.assert_allclose(state[3:6], sensor(m, d, "gyro"), atol=1e-4)
        np.testing.assert_allclose(state[6:9], -d.site_xmat[m.site("imu").id].reshape(3, 3)[2], atol=1e-5)
        np.testing.assert_allclose(state[36:48], last, atol=1e-6)  # the previous action
        feet_vel = np.concatenate([sensor(m, d, f"{f}_global_linvel") for f in ("l_foot", "r_foot")])
        np.testing.assert_allclose(privileged[106:112], feet_vel, atol=1e-4)
        np.testing.assert_allclose(privileged[91], d.qpos[2], atol=1e-6)
        linvel, gyro, up = sensor(m, d, "local_linvel"), sensor(m, d, "gyro"), sensor(m, d, "upvector")
        q, sigma = d.qpos[7:], params["tracking_sigma"]
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "ang_vel_xy": np.sum(sensor(m, d, "global_angvel")[:2] ** 2) * params["ang_vel_xy_scale"],
            "orientation": np.sum(up[:2] ** 2) * params["orientation_scale"],
            "action_rate": np.sum((action - last) ** 2) * params["action_rate_scale"],
            "joint_deviation_knee": np.sum(np.abs(q[knees] - home[knees])) * params["joint_deviation_knee_scale"],
            "joint_deviation_hip": (abs(command[1]) > 0.1) * np.sum(np.abs(q[hips] - home[hips]))
            * params["joint_deviation_hip_scale"],
            "dof_pos_limits": np.sum(np.maximum(centre - half - q, 0) + np.maximum(q - centre - half, 0))
            * params["dof_pos_limits_scale"],
            "pose": np.sum((q - home) ** 2 * weights) * params["pose_scale"],
            "termination": (up[2] < 0) * params["termination_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        total = sum(info[k] for k in info if k.startswith("reward_"))
        assert reward == pytest.approx(np.clip(total * 0.02, 0.0, 10000.0), rel=1e-5, abs=1e-7)
        last = action.astype(np.float64)
        if terminated or truncated:
            break
    assert step > 10


def test_the_base_is_pushed_when_scheduled():
    def run(push):
        env = gym.make(f"joltgym/{NAME.format('Flat')}-v0", noise_level=0.0, push_enable=push, push_interval_min=0.2,
                       push_interval_max=0.2, push_magnitude_min=1.0, push_magnitude_max=1.0)
        env.reset(seed=4)
        out = []
        for _ in range(10):
            env.step(np.zeros(12, np.float32))
            out.append(env.unwrapped.qvel[:2].copy())
        return np.array(out)

    pushed, calm = run(True), run(False)
    np.testing.assert_array_equal(pushed[:9], calm[:9])  # the push comes before the 10th step's physics
    assert np.linalg.norm(pushed[9] - calm[9]) > 0.5


@pytest.mark.parametrize("terrain", TERRAINS)
def test_random_action_episodes_match_envpools(terrain):
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics(NAME.format(terrain), 300)
    assert our_length == pytest.approx(their_length, rel=0.15)  # random actions topple it in about 40 steps
    for key, value in their_terms.items():
        tolerance = 0.3 if key == "reward_dof_pos_limits" else 0.15
        assert our_terms[key] == pytest.approx(value, rel=tolerance, abs=0.005), key
