"""joltgym/SpotFlatTerrainJoystick-v0 and SpotGetup-v0 against EnvPool 1.2.5's
SpotFlatTerrainJoystick-v1 and SpotGetup-v1: the same spaces, config and info keys; the joystick's
observation (joint-error history, the feet's positions in the IMU's frame) equal to MuJoCo's sensors
in the same state; the state reward terms equal EnvPool's formulas on MuJoCo's sensors; commands,
termination and the get-up's drop; episode statistics under random actions close to EnvPool's, or
to MuJoCo's converged solve where EnvPool's one solver iteration is what differs."""

from __future__ import annotations

import gymnasium as gym
import mujoco
import numpy as np
import pytest

from joltgym.tasks import TASKS
from playground_checks import assert_spaces_config_and_info_are_envpools
from test_go1_joystick import mujoco_in, random_action_statistics, sensor

JOYSTICK, GETUP = "SpotFlatTerrainJoystick", "SpotGetup"
FEET = ["FL", "FR", "HL", "HR"]


@pytest.mark.parametrize("name", [JOYSTICK, GETUP, "SpotJoystickGaitTracking"])
def test_spaces_info_keys_and_config_are_envpools(name):
    assert_spaces_config_and_info_are_envpools(name, 12, 18, command=name != GETUP)
    obs, _ = gym.make(f"joltgym/{name}-v0").reset(seed=0)
    if name == JOYSTICK:
        assert obs["state"].shape == (81,) and obs["privileged_state"].shape == (167,)
    else:
        assert obs.shape == (30,) if name == GETUP else obs.shape == (69,)


def targets_of(m, action, base):
    return np.clip(base + action * 0.3, m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1])


def test_joystick_observation_is_mujocos_sensors_with_a_joint_error_history():
    env = gym.make(f"joltgym/{JOYSTICK}-v0", noise_level=0.0)
    m0 = env.unwrapped.model.mj_model
    home = m0.key_qpos[0][7:]
    obs, info = env.reset(seed=3)
    # At reset the targets are zero: the history's newest frame is the joints themselves.
    np.testing.assert_allclose(obs["state"][18:30], env.unwrapped.qpos[7:], atol=1e-5)
    np.testing.assert_array_equal(obs["state"][30:54], 0.0)
    np.testing.assert_allclose(obs["state"][78:81], info["command"], atol=1e-6)
    rng = np.random.default_rng(0)
    frames, actions = [obs["state"][18:30].copy()], []
    for _ in range(4):
        action = rng.uniform(-1, 1, 12).astype(np.float32)
        obs, *_ = env.step(action)
        actions.append(action)
        frames.append(obs["state"][18:30].copy())
        state, privileged = obs["state"], obs["privileged_state"]
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        np.testing.assert_array_equal(state, privileged[:81])
        np.testing.assert_allclose(state[18:30], d.qpos[7:] - targets_of(m, action, home), atol=1e-5)
        np.testing.assert_allclose(state[30:42], frames[-2], atol=1e-6)  # one step older
        feet_pos = np.concatenate([sensor(m, d, f"{f}_pos") for f in FEET])
        np.testing.assert_allclose(state[54:66], feet_pos, atol=1e-5)
        np.testing.assert_allclose(privileged[108:120], feet_pos, atol=1e-5)
        np.testing.assert_allclose(state[0:3], sensor(m, d, "gyro"), atol=1e-4)
        np.testing.assert_allclose(state[3:6], sensor(m, d, "upvector"), atol=1e-5)
        np.testing.assert_allclose(privileged[90:93], sensor(m, d, "local_linvel"), atol=1e-4)
        np.testing.assert_allclose(privileged[93:96], sensor(m, d, "global_angvel"), atol=1e-4)
        feet_vel = np.concatenate([sensor(m, d, f"{f}_global_linvel") for f in FEET])
        np.testing.assert_allclose(privileged[148:160], feet_vel, atol=1e-4)
        np.testing.assert_allclose(state[66:78], actions[-2] if len(actions) > 1 else 0.0)  # the previous action
    np.testing.assert_allclose(state[42:54], frames[-3], atol=1e-6)  # three frames, newest first


def test_joystick_reward_terms_of_a_state_are_envpools_formulas_on_mujocos_sensors():
    env = gym.make(f"joltgym/{JOYSTICK}-v0", noise_level=0.0)
    params = TASKS[JOYSTICK].native.defaults
    sigma = params["tracking_sigma"]
    _, info = env.reset(seed=5)
    rng = np.random.default_rng(2)
    last, last_last = np.zeros(12), np.zeros(12)
    home = env.unwrapped.model.mj_model.key_qpos[0][7:]
    for step in range(40):
        command = np.asarray(info["command"], np.float64)
        action = rng.uniform(-0.5, 0.5, 12).astype(np.float32)
        _, reward, terminated, truncated, info = env.step(action)
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        linvel, gyro, up = sensor(m, d, "local_linvel"), sensor(m, d, "gyro"), sensor(m, d, "upvector")
        moving = np.linalg.norm(command) >= 0.01
        posture = np.sum((d.qpos[7:] - home) ** 2)
        a = action.astype(np.float64)
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "lin_vel_z": sensor(m, d, "global_linvel")[2] ** 2 * params["lin_vel_z_scale"],
            "ang_vel_xy": np.sum(sensor(m, d, "global_angvel")[:2] ** 2) * params["ang_vel_xy_scale"],
            "orientation": np.sum(up[:2] ** 2) * params["orientation_scale"],
            "posture": np.exp((0.0 if moving else -10.0) * posture) * params["posture_scale"],
            "action_rate": (np.sum((a - last) ** 2) + np.sum((a - 2 * last + last_last) ** 2)) * params["action_rate_scale"],
            "termination": (up[2] < 0.85) * params["termination_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        total = sum(info[k] for k in info if k.startswith("reward_"))
        assert reward == pytest.approx(np.clip(total * 0.02, 0.0, 10000.0), rel=1e-5, abs=1e-7)
        last_last, last = last, a
        if terminated or truncated:
            break
    assert step > 20


def test_joystick_commands_are_drawn_as_envpools_and_redrawn_after_200_steps():
    env = gym.make(f"joltgym/{JOYSTICK}-v0")
    commands = np.array([env.reset(seed=seed)[1]["command"] for seed in range(500)])
    zero = np.all(commands == 0.0, axis=1)
    assert 0.05 < zero.mean() < 0.16  # one in ten
    bounds = np.array([1.0, 0.8, 1.0])
    assert np.all(np.abs(commands) <= bounds)
    np.testing.assert_allclose(np.abs(commands[~zero]).mean(0), bounds / 2, rtol=0.12)
    _, info = env.reset(seed=7)
    seen = [np.asarray(info["command"]).copy()]
    for _ in range(201):
        *_, info = env.step(np.zeros(12, np.float32))
        seen.append(np.asarray(info["command"]).copy())
    assert all(np.array_equal(seen[0], c) for c in seen[:201]) and not np.array_equal(seen[0], seen[201])


def test_joystick_ends_when_tilted_unless_early_termination_is_off():
    for early in (True, False):
        env = gym.make(f"joltgym/{JOYSTICK}-v0", early_termination=early).unwrapped
        env.reset(seed=0)
        qpos, qvel = env.qpos.copy(), env.qvel.copy()
        qpos[3:7] = [np.cos(0.35), np.sin(0.35), 0.0, 0.0]  # rolled 40 degrees
        qpos[2] += 0.3
        env.set_state(qpos, qvel)
        _, _, terminated, _, info = env.step(np.zeros(12, np.float32))
        assert terminated == early
        assert info["reward_termination"] == (-1.0 if early else 0.0)


def test_getup_drops_or_sets_down_the_robot_and_lets_it_settle_as_mujoco_does():
    env = gym.make(f"joltgym/{GETUP}-v0", noise_level=0.0).unwrapped
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        np.testing.assert_allclose(obs[6:18], env.qpos[7:] - env.model.mj_model.key_qpos[0][7:], atol=1e-5)
        np.testing.assert_array_equal(obs[18:30], 0.0)
    # Dropped from 1 m in random poses, then 0.5 s holding the pose: the torso's height after it
    # against MuJoCo's from the same start.
    start = gym.make(f"joltgym/{GETUP}-v0", settle_time=0.0, drop_from_height_prob=1.0).unwrapped
    settled = gym.make(f"joltgym/{GETUP}-v0", drop_from_height_prob=1.0).unwrapped
    m = start.model.mj_model
    ours, theirs = [], []
    for seed in range(12):
        start.reset(seed=seed)
        assert start.qpos[2] == pytest.approx(1.0)
        d = mujoco.MjData(m)
        d.qpos[:] = start.qpos
        d.ctrl[:] = start.qpos[7:]
        for _ in range(125):
            mujoco.mj_step(m, d)
        theirs.append(d.qpos[2])
        settled.reset(seed=seed)
        ours.append(settled.qpos[2])
    error = np.abs(np.array(ours) - np.array(theirs))
    assert len({round(float(h), 2) for h in theirs}) > 6  # random poses, not one
    assert np.median(error) < 0.015 and np.sum(error < 0.05) >= 9, error


def test_getup_reward_terms_are_envpools_formulas_and_a_joint_past_its_range_ends_it():
    env = gym.make(f"joltgym/{GETUP}-v0", noise_level=0.0, drop_from_height_prob=0.0)
    params = TASKS[GETUP].native.defaults
    env.reset(seed=2)
    m = env.unwrapped.model.mj_model
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    rng = np.random.default_rng(1)
    for step in range(30):
        action = rng.uniform(-0.2, 0.2, 12).astype(np.float32)
        obs, reward, terminated, _, info = env.step(action)
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        up = sensor(m, d, "upvector")
        error = up[0] ** 2 + up[1] ** 2 + (1 - up[2]) ** 2
        height_error = np.clip((0.46 - d.qpos[2]) / 0.46, 0, 1)
        gate = error < 0.01 and height_error < 0.005
        expected = {
            "orientation": np.exp(-2 * error) * params["orientation_scale"],
            "torso_height": (1 - height_error) * params["torso_height_scale"],
            "posture": gate * np.exp(-0.5 * np.sum((d.qpos[7:] - m.key_qpos[0][7:]) ** 2)) * params["posture_scale"],
            "stand_still": gate * np.exp(-0.5 * np.sum(action.astype(np.float64) ** 2)) * params["stand_still_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        assert terminated == bool(np.any((d.qpos[7:] < lo) | (d.qpos[7:] > hi)))
    # A knee driven past its range ends the episode.
    qpos, qvel = env.unwrapped.qpos.copy(), env.unwrapped.qvel.copy()
    qpos[9] = lo[2] - 0.05
    env.unwrapped.set_state(qpos, qvel)
    assert env.step(np.zeros(12, np.float32))[2]


def test_unused_or_fixed_config_fields_are_refused_by_name():
    with pytest.raises(ValueError, match="pert_enable=True is not supported"):
        gym.make(f"joltgym/{JOYSTICK}-v0", pert_enable=True)
    with pytest.raises(ValueError, match="history_len must be 3"):
        gym.make(f"joltgym/{JOYSTICK}-v0", history_len=4)


def mujoco_joystick_statistics(actions: np.ndarray, iterations: int = 50, name: str = JOYSTICK) -> dict[str, float]:
    """Mean episode length and reward terms of MuJoCo (converged: 50 solver iterations) on a Spot
    walking task's scene under open-loop `actions` (steps x envs x 12) from home, commands drawn as
    EnvPool draws them, episodes ending as the task's do (the up vector's z below 0.85)."""
    env = gym.make(f"joltgym/{name}-v0")
    m = env.unwrapped.model.mj_model
    m.opt.iterations, m.opt.ls_iterations = iterations, max(iterations, 5)
    p = TASKS[name].native.defaults
    rng = np.random.default_rng(3)
    bounds = np.array([[p["lin_vel_x_min"], p["lin_vel_y_min"], p["ang_vel_yaw_min"]],
                       [p["lin_vel_x_max"], p["lin_vel_y_max"], p["ang_vel_yaw_max"]]])
    sigma, imu, home = p["tracking_sigma"], m.site("imu").id, m.key_qpos[0]
    terms = {k: [] for k in ("energy", "torques", "orientation", "tracking_lin_vel", "tracking_ang_vel")}
    lengths = []
    for e in range(actions.shape[1]):
        d, length = mujoco.MjData(m), 0
        d.qpos[:] = home
        for t, action in enumerate(actions[:, e]):
            if length % 200 == 0:
                command = rng.uniform(bounds[0], bounds[1]) * (rng.uniform() >= 0.1)
            d.ctrl[:] = np.clip(home[7:] + action * p["action_scale"], m.actuator_ctrlrange[:, 0],
                                m.actuator_ctrlrange[:, 1])
            for _ in range(5):
                mujoco.mj_step(m, d)
            length += 1
            force, linvel, gyro = d.actuator_force, sensor(m, d, "local_linvel"), sensor(m, d, "gyro")
            terms["energy"].append(np.sum(np.abs(d.qvel[6:] * force)) * p["energy_scale"])
            terms["torques"].append((np.linalg.norm(force) + np.abs(force).sum()) * p["torques_scale"])
            up = d.site_xmat[imu].reshape(3, 3)[:, 2]
            terms["orientation"].append((up[0] ** 2 + up[1] ** 2) * p["orientation_scale"])
            terms["tracking_lin_vel"].append(np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma)
                                             * p["tracking_lin_vel_scale"])
            terms["tracking_ang_vel"].append(np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * p["tracking_ang_vel_scale"])
            if up[2] < 0.85:
                lengths.append(length)
                d, length = mujoco.MjData(m), 0
                d.qpos[:] = home
    return {"length": float(np.mean(lengths)) if lengths else float("nan"),
            **{f"reward_{k}": float(np.mean(v)) for k, v in terms.items()}}


def test_joystick_random_action_episodes_match_envpools():
    steps = 300
    (_, our_terms), (_, their_terms) = random_action_statistics(JOYSTICK, steps)
    converged = mujoco_joystick_statistics(np.random.default_rng(0).uniform(-1, 1, (steps, 32, 12))[:, :16])
    for key, value in their_terms.items():
        if key in converged and key != "length":
            # Against MuJoCo's converged solve: EnvPool's takes the XML's one Newton iteration, which
            # lets the joints swing faster (energy -0.44 there, -0.29 converged, -0.30 ours;
            # docs/robots.md). The tracking terms hang on ~50 command draws each.
            tolerance = 0.25 if key.startswith("reward_tracking") else 0.15
            assert our_terms[key] == pytest.approx(converged[key], rel=tolerance), key
        else:
            assert our_terms[key] == pytest.approx(value, rel=0.2, abs=0.01), key


def test_getup_random_action_episodes_match_envpools():
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics(GETUP, 300)
    # Random drops from 1 m: MuJoCo's own solve spans lengths 75 (the XML's one iteration) to 108
    # (converged) steps and orientation terms 0.104 to 0.066 (EnvPool: 66 and 0.15; ours 78, 0.089).
    assert our_length == pytest.approx(their_length, rel=0.4)
    for key, value in their_terms.items():
        tolerance = 0.5 if key == "reward_orientation" else 0.3
        assert our_terms[key] == pytest.approx(value, rel=tolerance, abs=0.01), key


def test_gait_tracking_drawn_gaits_phases_and_reward():
    name = "SpotJoystickGaitTracking"
    env = gym.make(f"joltgym/{name}-v0", noise_level=0.0)
    params = TASKS[name].native.defaults
    gaits = set()
    for seed in range(30):
        obs, _ = env.reset(seed=seed)
        gait = int(obs[67])
        gaits.add(gait)
        starts = {0: [0, np.pi, np.pi, 0], 1: [0, np.pi / 2, np.pi, 3 * np.pi / 2], 2: [0, np.pi, 0, np.pi],
                  3: [0, 0, np.pi, np.pi], 4: [0, 0, 0, 0]}[gait]
        np.testing.assert_allclose(obs[58:62], np.cos(starts), atol=1e-6)
        assert 0.5 <= obs[66] < 4.0 and 0.08 <= obs[68] < 0.4
    assert gaits == {0, 1, 2, 3, 4}
    obs, info = env.reset(seed=1)
    m = env.unwrapped.model.mj_model
    home = m.key_qpos[0][7:]
    for step in range(10):
        command = np.asarray(info["command"], np.float64)
        obs, reward, terminated, _, info = env.step(np.zeros(12, np.float32))
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        np.testing.assert_allclose(obs[6:18], d.qpos[7:], atol=1e-5)  # the joints themselves
        np.testing.assert_allclose(obs[18:30], d.qpos[7:] - home, atol=1e-5)  # the newest error frame
        contact = [sensor(m, d, f"{f}_floor_found")[0] > 0 for f in FEET]
        np.testing.assert_array_equal(obs[54:58], np.array(contact, float))
        linvel, gyro = sensor(m, d, "local_linvel"), sensor(m, d, "gyro")
        sigma = params["tracking_sigma"]
        hips = d.qpos[7:][[0, 3, 6, 9]] - home[[0, 3, 6, 9]]
        expected = {
            "tracking_lin_vel": np.exp(-np.sum((command[:2] - linvel[:2]) ** 2) / sigma) * params["tracking_lin_vel_scale"],
            "tracking_ang_vel": np.exp(-(command[2] - gyro[2]) ** 2 / sigma) * params["tracking_ang_vel_scale"],
            "ang_vel_xy": np.sum(sensor(m, d, "global_angvel")[:2] ** 2) * params["ang_vel_xy_scale"],
            "hip_splay": np.sum(hips ** 2) * params["hip_splay_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=3e-5), (step, term)
        gains = info["reward_tracking_lin_vel"] + info["reward_tracking_ang_vel"] + info["reward_feet_phase"]
        costs = info["reward_ang_vel_xy"] + info["reward_lin_vel_z"] + info["reward_hip_splay"]
        assert reward == pytest.approx(gains * np.exp(0.2 * costs) * 0.02, rel=1e-5)


def test_gait_tracking_random_action_episodes_match_envpools_and_mujocos():
    name, steps = "SpotJoystickGaitTracking", 300
    (our_length, our_terms), (_, their_terms) = random_action_statistics(name, steps, n=16)
    mujoco_length = mujoco_joystick_statistics(np.random.default_rng(0).uniform(-1, 1, (steps, 16, 12)), 50, name)["length"]
    # The same random actions topple it in 71 steps in ours, 63 in MuJoCo's converged solve of the
    # same XML, 56 with the XML's one iteration and 53 in EnvPool's.
    assert our_length == pytest.approx(mujoco_length, rel=0.2)
    for key, value in their_terms.items():
        # lin_vel_z scores only the bound and pronk gaits, a few draws among 16 envs
        assert our_terms[key] == pytest.approx(value, rel=0.2, abs=0.015 if key == "reward_lin_vel_z" else 0.005), key


@pytest.mark.parametrize("name, scale", [(JOYSTICK, 0.3), ("SpotJoystickGaitTracking", 0.6)])
def test_a_step_of_the_legs_is_mujocos_converged_step(name, scale):
    # A random jump of the PD targets from rest at home: the joints' velocities after one env step
    # against MuJoCo's (50 solver iterations). The XML's one iteration, which EnvPool's MuJoCo takes,
    # lands 0.4-2.5 rad/s away; ours within 0.06, but where a foot touches down in one engine and not
    # in the other within the step (one jump of six at the gait task's larger action scale).
    env = gym.make(f"joltgym/{name}-v0", noise_level=0.0).unwrapped
    m = env.model.mj_model
    home = m.key_qpos[0].copy()
    errors, one_iteration = [], []
    for seed in range(6):
        action = np.random.default_rng(seed).uniform(-1, 1, 12).astype(np.float32)
        env.reset(seed=seed)
        env.set_state(home.astype(np.float32), np.zeros(m.nv, np.float32))
        env.step(action)
        after = {}
        for iterations in (1, 50):
            m.opt.iterations, m.opt.ls_iterations = iterations, max(iterations, 5)
            d = mujoco.MjData(m)
            d.qpos[:] = home
            d.ctrl[:] = np.clip(home[7:] + action * scale, m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1])
            for _ in range(5):
                mujoco.mj_step(m, d)
            after[iterations] = d.qvel[6:].copy()
        assert np.abs(after[50]).max() > 2.0  # the legs swing
        errors.append(np.abs(env.qvel[6:] - after[50]).max())
        one_iteration.append(np.abs(after[1] - after[50]).max())
    assert np.sum(np.array(errors) < 0.06) >= 5, errors
    assert min(one_iteration) > 0.3, one_iteration
