"""joltgym/Go1Handstand-v0 and Go1Footstand-v0 against EnvPool 1.2.5's Go1Handstand-v1 and
Go1Footstand-v1: the same spaces, config and info keys; the state-dependent reward terms of a state
equal EnvPool's formulas on MuJoCo's sensors in that state; episode statistics under random actions
close to EnvPool's."""

from __future__ import annotations

import envpool
import gymnasium as gym
import numpy as np
import pytest

from joltgym.tasks import TASKS
from test_go1_joystick import POOL_FIELDS, mujoco_in, random_action_statistics

TASK_NAMES = ["Go1Handstand", "Go1Footstand"]


@pytest.mark.parametrize("name", TASK_NAMES)
def test_spaces_info_keys_and_config_are_envpools(name):
    ours = gym.make(f"joltgym/{name}-v0")
    theirs = envpool.make_gymnasium(f"{name}-v1", num_envs=2, seed=0)
    for key in ("state", "privileged_state"):
        assert ours.observation_space[key].shape == theirs.observation_space[key].shape
    assert ours.action_space.shape == theirs.action_space.shape == (12,)
    assert ours.spec.max_episode_steps == 500
    config = envpool.make_spec(f"{name}-v1").config
    expected = {k: getattr(config, k) for k in config._fields if k not in POOL_FIELDS}
    defaults = TASKS[name].native.defaults
    assert set(defaults) == set(expected)
    for key, value in expected.items():
        assert defaults[key] == pytest.approx(value, rel=1e-6), key
    ours.reset(seed=0)
    theirs.reset()
    *_, their_info = theirs.step(np.zeros((2, 12)))
    *_, our_info = ours.step(np.zeros(12, np.float32))
    assert {k for k in their_info if k.startswith("reward_")} == {k for k in our_info if k.startswith("reward_")}


@pytest.mark.parametrize("name", TASK_NAMES)
def test_state_reward_terms_are_envpools_formulas_on_mujocos_sensors(name):
    env = gym.make(f"joltgym/{name}-v0", noise_level=0.0)
    params = TASKS[name].native.defaults
    footstand = name == "Go1Footstand"
    env.reset(seed=2)
    rng = np.random.default_rng(1)
    for step in range(40):
        _, _, terminated, truncated, info = env.step(rng.uniform(-1, 1, 12).astype(np.float32))
        m, d = mujoco_in(env, env.unwrapped.qpos.astype(np.float64), env.unwrapped.qvel.astype(np.float64))
        imu = m.site("imu").id
        z_des = 0.53 if footstand else 0.55
        height = d.site_xpos[imu][2]
        forward = d.site_xmat[imu].reshape(3, 3)[:, 0]
        cos = forward @ np.array([0, 0, 1.0 if footstand else -1.0])
        low, high = m.jnt_range[1:, 0], m.jnt_range[1:, 1]
        centre, half = (low + high) / 2, (high - low) / 2 * params["soft_joint_pos_limit_factor"]
        q = d.qpos[7:]
        posed = slice(0, 6) if footstand else slice(6, 12)
        expected = {
            "height": np.exp(-(z_des - min(height, z_des))) * params["height_scale"],
            "orientation": (0.5 * cos + 0.5) ** 2 * params["orientation_scale"],
            "dof_pos_limits": np.sum(np.maximum(centre - half - q, 0) + np.maximum(q - centre - half, 0)) * params["dof_pos_limits_scale"],
            "pose": np.sum((q[posed] - m.key_qpos[0][7:][posed]) ** 2) * params["pose_scale"],
        }
        for term, value in expected.items():
            assert info[f"reward_{term}"] == pytest.approx(value, rel=2e-4, abs=2e-5), (step, term)
        if terminated or truncated:
            break


@pytest.mark.parametrize("name", TASK_NAMES)
def test_random_action_episodes_match_envpools(name):
    (our_length, our_terms), (their_length, their_terms) = random_action_statistics(name, 300)
    assert our_length == pytest.approx(their_length, rel=0.2)
    for key, value in their_terms.items():
        assert our_terms[key] == pytest.approx(value, rel=0.25, abs=0.01), key


def test_a_nonzero_dof_acc_scale_is_refused_by_name():
    with pytest.raises(ValueError, match=r"dof_acc_scale must be 0: joltgym does not keep the joints' accelerations"):
        gym.make("joltgym/Go1Handstand-v0", dof_acc_scale=-1e-6)
