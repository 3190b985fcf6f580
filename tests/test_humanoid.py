"""Humanoid-v0: each observation term against its meaning, reward terms, falls like MuJoCo's."""

from __future__ import annotations

import gymnasium as gym
import mujoco
import numpy as np
import pytest

import joltgym
from joltgym import _native

ENV_ID = "joltgym/Humanoid-v0"
# Humanoid-v5's observation: qpos[2:], qvel, cinert, cvel, qfrc_actuator, cfrc_ext of 13 bodies
SLICES = {
    "qpos": slice(0, 22),
    "qvel": slice(22, 45),
    "cinert": slice(45, 175),
    "cvel": slice(175, 253),
    "qfrc_actuator": slice(253, 270),
    "cfrc_ext": slice(270, 348),
}

RESTING_BOX = """
<mujoco>
  <worldbody>
    <body name="box" pos="0.3 -0.2 1" euler="20 -35 50">
      <freejoint/>
      <geom type="box" size="0.3 0.2 0.1" mass="3" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_cinert_of_a_single_body_is_its_mass_and_rotated_inertia(build_world):
    model, world = build_world(RESTING_BOX)
    m, box = 3.0, np.array([0.6, 0.4, 0.2])
    principal = m / 12 * np.array([box[1] ** 2 + box[2] ** 2, box[0] ** 2 + box[2] ** 2, box[0] ** 2 + box[1] ** 2])
    data = mujoco.MjData(model.mj_model)
    mujoco.mj_kinematics(model.mj_model, data)
    rot = data.xmat[1].reshape(3, 3)
    inertia = rot @ np.diag(principal) @ rot.T
    expected = [*np.diag(inertia), inertia[0, 1], inertia[0, 2], inertia[1, 2], 0, 0, 0, m]
    cinert = world.cinert()
    np.testing.assert_allclose(cinert[1], expected, atol=1e-6)
    np.testing.assert_array_equal(cinert[0], 0)  # the world


def test_cvel_is_the_body_motion_seen_at_the_centre_of_mass(build_world):
    model, world = build_world(RESTING_BOX)
    qpos = model.mj_model.qpos0.copy()
    qvel = np.array([0.3, -0.2, 0.5, 1.0, -2.0, 0.7])  # linear (world), angular (body frame)
    world.set_state(qpos, qvel)
    rot = np.array(world.body_quat()[0])
    w_world = np.zeros(3)
    mujoco.mju_rotVecQuat(w_world, qvel[3:], rot.astype(np.float64))
    np.testing.assert_allclose(world.cvel()[1], [*w_world, *qvel[:3]], atol=1e-5)


def humanoid_world():
    model = joltgym.load_model("humanoid.xml")
    return model, _native.World(model.native)


def test_humanoid_com_terms_equal_mujocos_for_a_moving_state():
    model, world = humanoid_world()
    m = model.mj_model
    rng = np.random.default_rng(7)
    qpos = m.qpos0.copy()
    qpos[7:] = rng.uniform(m.jnt_range[1:, 0], m.jnt_range[1:, 1])
    qpos[3:7] = [0.8, 0.3, -0.4, 0.2]
    qpos[3:7] /= np.linalg.norm(qpos[3:7])
    qvel = rng.normal(scale=2.0, size=m.nv)
    world.set_state(qpos, qvel)
    data = mujoco.MjData(m)
    data.qpos[:], data.qvel[:] = qpos, qvel
    mujoco.mj_forward(m, data)
    np.testing.assert_allclose(world.cinert(), data.cinert, rtol=1e-4, atol=1e-5, err_msg="cinert")
    np.testing.assert_allclose(world.cvel(), data.cvel, rtol=1e-4, atol=2e-4, err_msg="cvel")


def test_qfrc_actuator_term_is_gear_times_clipped_ctrl():
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=0)
    action = np.linspace(-0.5, 0.5, 17).astype(np.float32)  # the ends lie outside ctrlrange
    obs, *_ = env.step(action)
    gear = env.model.mj_model.actuator_gear[:, 0]
    dof = env.model.mj_model.jnt_dofadr[env.model.mj_model.actuator_trnid[:, 0]]
    expected = np.zeros(env.model.nv)
    expected[dof] = gear * np.clip(action, -0.4, 0.4)
    np.testing.assert_allclose(obs[SLICES["qfrc_actuator"]], expected[6:], rtol=1e-6)


def test_cfrc_ext_of_the_fallen_humanoid_carries_its_weight():
    env = gym.make(ENV_ID, terminate_when_unhealthy=False, max_episode_steps=None).unwrapped
    env.reset(seed=0)
    zeros = np.zeros(17, np.float32)
    for _ in range(600):
        obs, *_ = env.step(zeros)
    assert np.abs(env._core.body_velocity()).max() < 0.05  # lying still
    cfrc = obs[SLICES["cfrc_ext"]].reshape(13, 6)
    weight = env.model.mj_model.body_mass.sum() * 9.81
    np.testing.assert_allclose(cfrc[:, 3:].sum(axis=0), [0, 0, weight], rtol=1e-3, atol=0.05 * weight)
    assert cfrc[:, 5].sum() == pytest.approx(weight, rel=0.01)
    # gravity acts at the centre of mass, about which cfrc_ext's torques are taken
    assert np.abs(cfrc[:, :3].sum(axis=0)).max() < 0.02 * weight
    assert (cfrc[:, 5] > 1.0).sum() >= 3  # several bodies lie on the floor


def test_reward_terms_and_health():
    env = gym.make(ENV_ID).unwrapped
    env.reset(seed=1)
    action = np.full(17, 0.3, np.float32)
    _, reward, terminated, _, info = env.step(action)
    assert info["reward_survive"] == 5.0 and not terminated
    assert info["reward_ctrl"] == pytest.approx(-0.1 * np.sum(action**2), rel=1e-5)
    parts = info["reward_forward"] + info["reward_survive"] + info["reward_ctrl"] + info["reward_contact"]
    assert reward == pytest.approx(parts, rel=1e-5)
    assert info["reward_forward"] == pytest.approx(1.25 * info["x_velocity"], rel=1e-5)

    # the contact cost saturates at the top of contact_cost_range
    env = gym.make(ENV_ID, contact_cost_weight=1.0).unwrapped
    env.reset(seed=1)
    for _ in range(15):  # the feet land
        *_, info = env.step(np.zeros(17, np.float32))
    assert info["reward_contact"] == pytest.approx(-10.0)

    # healthy only strictly inside healthy_z_range
    env = gym.make(ENV_ID, healthy_z_range=(1.0, 1.2)).unwrapped
    env.reset(seed=1)
    *_, terminated, _, info = env.step(np.zeros(17, np.float32))
    assert terminated and info["reward_survive"] == 0.0


@pytest.mark.parametrize(
    "switches",
    [
        dict(include_cinert_in_observation=False),
        dict(include_cvel_in_observation=False, include_cfrc_ext_in_observation=False),
        dict(include_qfrc_actuator_in_observation=False, exclude_current_positions_from_observation=False),
    ],
)
def test_observation_switches_give_v5_layouts(switches):
    ours = gym.make(ENV_ID, **switches)
    theirs = gym.make("Humanoid-v5", **switches)
    assert ours.observation_space.shape == theirs.observation_space.shape
    assert ours.unwrapped.observation_structure == theirs.unwrapped.observation_structure
    obs, _ = ours.reset(seed=0)
    assert obs.shape == ours.observation_space.shape


def test_tendon_info_is_the_fixed_tendons_of_the_model():
    env = gym.make(ENV_ID).unwrapped
    _, info = env.reset(seed=2)
    q = env.qpos
    names = [env.model.mj_model.joint(i).name for i in range(env.model.mj_model.njnt)]
    adr = {n: env.model.mj_model.jnt_qposadr[i] for i, n in enumerate(names)}
    expected = [q[adr["left_knee"]] - q[adr["left_hip_y"]], q[adr["right_knee"]] - q[adr["right_hip_y"]]]
    np.testing.assert_allclose(info["tendon_length"], expected, rtol=1e-5, atol=1e-7)
    assert info["tendon_velocity"].shape == (2,)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_zero_action_fall_ends_within_2x_of_mujocos_step(seed):
    def termination_step(env_id):
        env = gym.make(env_id)
        env.reset(seed=seed)
        for n in range(1, 1001):
            *_, terminated, truncated, _ = env.step(np.zeros(17, np.float32))
            if terminated or truncated:
                return n
        return 1000

    ours, theirs = termination_step(ENV_ID), termination_step("Humanoid-v5")
    assert 0.5 * theirs <= ours <= 2.0 * theirs, (ours, theirs)
    assert ours > 10  # it falls, not collapses at once


def test_vector_env_runs_the_same_task_as_the_single_env():
    venv = gym.make_vec(ENV_ID, num_envs=2, reset_noise_scale=0.0)
    single = gym.make(ENV_ID, reset_noise_scale=0.0).unwrapped
    vobs, _ = venv.reset(seed=0)
    sobs, _ = single.reset(seed=0)
    np.testing.assert_array_equal(vobs[0], sobs)
    rng = np.random.default_rng(0)
    for _ in range(200):
        action = rng.uniform(-0.4, 0.4, (2, 17)).astype(np.float32)
        vobs, vrew, vterm, *_ = venv.step(action)
        sobs, srew, sterm, *_ = single.step(action[0])
        np.testing.assert_array_equal(vobs[0], sobs)
        assert vrew[0] == srew and vterm[0] == sterm
        if sterm:
            break
    assert sterm  # random actions topple it
    venv.close()


def test_standup_reward_is_height_over_timestep_and_never_ends():
    env = gym.make("joltgym/HumanoidStandup-v0", max_episode_steps=None).unwrapped
    _, info = env.reset(seed=0)
    assert abs(info["z_distance_from_origin"]) < 0.02  # lying where the model starts
    action = np.full(17, 0.2, np.float32)
    for _ in range(300):
        _, reward, terminated, truncated, info = env.step(action)
        assert not terminated and not truncated
    z = env.qpos[2]
    assert info["reward_linup"] == pytest.approx(z / 0.003, rel=1e-5)
    assert info["z_distance_from_origin"] == pytest.approx(z - env.init_qpos[2], abs=1e-6)
    assert info["reward_quadctrl"] == pytest.approx(-0.1 * np.sum(action**2), rel=1e-5)
    assert -10.0 <= info["reward_impact"] <= 0.0
    parts = info["reward_linup"] + info["reward_quadctrl"] + info["reward_impact"] + 1.0
    assert reward == pytest.approx(parts, rel=1e-5)
    # lying on the floor: roughly MuJoCo's starting height term of 0.105 / 0.003 = 35
    assert 20.0 < info["reward_linup"] < 60.0
