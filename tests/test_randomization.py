"""Per-env physical parameters (joltgym.randomization): a value set on one env's robot acts as the
same value compiled into the model would; draws at reset are the seed's alone, whatever the
thread count or packing, and leave the task's own draws as they are."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.tasks import TASKS
from joltgym.vector import JoltVectorEnv
from observations import flat

GO1 = "Go1JoystickFlatTerrain"


def core_of(task: str, edit=None, **task_kwargs):
    spec = TASKS[task]

    def edit_all(m):
        if spec.edit_model is not None:
            spec.edit_model(m, {**spec.native.defaults, **task_kwargs})
        if edit is not None:
            edit(m)

    model = joltgym.load_model(spec.xml_file, solver=spec.solver, edit=edit_all)
    return _native.TaskCore(model.native, spec.make_task(model, **task_kwargs)), model.nu


def run(made, steps: int, seed: int = 3) -> np.ndarray:
    core, nu = made
    core.reset(seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        core.step(rng.uniform(-1, 1, nu).astype(np.float32))
        out.append(np.concatenate([core.qpos, core.qvel]))
    return np.array(out)


def floor(m) -> int:
    return int(np.flatnonzero(m.geom_bodyid == 0)[0])


# (task, parameter, a change of the MuJoCo model, or task keywords that make it)
CASES = [
    (GO1, "floor_friction", lambda m: m.geom_friction.__setitem__((floor(m), 0), 0.3)),
    (GO1, "body_mass", lambda m: m.body_mass.__setitem__(slice(1, None), m.body_mass[1:] * np.linspace(0.8, 1.2, m.nbody - 1))),
    (GO1, "joint_frictionloss", lambda m: m.dof_frictionloss.__setitem__(slice(None), m.dof_frictionloss * 1.8)),
    (GO1, "joint_armature", lambda m: m.dof_armature.__setitem__(slice(6, None), m.dof_armature[6:] * 3.0)),
    (GO1, "joint_damping", {"kd": 1.0}),  # Go1's kd is its joints' damping
    (GO1, "actuator_kp", {"kp": 50.0}),
    ("HalfCheetah", "floor_friction", lambda m: m.geom_friction.__setitem__((floor(m), 0), 1.5)),
    ("HalfCheetah", "body_mass", lambda m: m.body_mass.__setitem__(slice(1, None), m.body_mass[1:] * 1.3)),
    ("HalfCheetah", "joint_damping", lambda m: m.dof_damping.__setitem__(slice(None), m.dof_damping * 0.5)),
]


@pytest.mark.parametrize("task, name, edit", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_value_set_on_the_robot_acts_as_the_same_value_in_the_model(task, name, edit):
    compiled = core_of(task, **edit) if isinstance(edit, dict) else core_of(task, edit)
    ours = core_of(task)
    ours[0].set_physics(name, compiled[0].model_physics(name))  # the edited model's values, to the last bit
    unchanged = core_of(task)
    a, b, c = run(ours, 60), run(compiled, 60), run(unchanged, 60)
    np.testing.assert_allclose(a, b, atol=1e-5)
    assert np.abs(a - c).max() > 1e-2  # and it changed something


def test_draws_at_reset_follow_the_seed_and_stay_in_range():
    env = gym.make(f"joltgym/{GO1}-v0", randomize="playground").unwrapped
    model_mass = env.model_physics("body_mass")
    draws = {}
    for seed in (0, 1, 0):
        env.reset(seed=seed)
        values = (env.get_physics("floor_friction")[0], env.get_physics("body_mass"), env.get_physics("joint_armature"))
        if seed in draws:
            for x, y in zip(values, draws[seed]):
                np.testing.assert_array_equal(x, y)
        draws[seed] = values
    friction, mass, armature = draws[1]
    assert 0.4 <= friction < 1.0 and friction != draws[0][0]
    assert np.all((mass[1:] >= 0.9 * model_mass[1:] - 1e-6) & (mass[1:] <= 1.1 * model_mass[1:] + 1e-6))
    assert 0.9 * model_mass[0] - 1 <= mass[0] <= 1.1 * model_mass[0] + 1
    assert np.all((armature[1:] >= 0.005 - 1e-9) & (armature[1:] <= 0.005 * 1.05 + 1e-9)) and armature[0] == 0


def test_draws_leave_the_tasks_own_draws_alone():
    plain = gym.make(f"joltgym/{GO1}-v0").unwrapped
    randomized = gym.make(f"joltgym/{GO1}-v0", randomize="playground").unwrapped
    a, info_a = plain.reset(seed=5)
    b, info_b = randomized.reset(seed=5)
    np.testing.assert_array_equal(plain.qpos, randomized.qpos)
    np.testing.assert_array_equal(info_a["command"], info_b["command"])


def trajectory(threads: int, robots_per_world: int, task: str = GO1):
    venv = JoltVectorEnv(6, task=task, num_threads=threads, robots_per_world=robots_per_world, randomize="playground",
                         max_episode_steps=25)
    nu = venv.single_action_space.shape[0]
    obs, _ = venv.reset(seed=2)
    out = [flat(obs)]
    rng = np.random.default_rng(0)
    for _ in range(60):  # through two autoresets, each drawing anew
        obs, reward, *_ = venv.step(rng.uniform(-1, 1, (6, nu)).astype(np.float32))
        out += [flat(obs), reward[:, None], venv.get_physics("body_mass"), venv.get_physics("floor_friction")]
        if task != GO1:
            out += [venv.get_physics("actuator_kp"), venv.get_physics("joint_damping")]
    venv.close()
    return np.concatenate(out, axis=1)


@pytest.mark.parametrize("task", [GO1, "T1JoystickFlatTerrain"])  # T1's also draw kp and the ankles' damping
def test_randomized_episodes_do_not_depend_on_threads_or_packing(task):
    alone = trajectory(1, 1, task)
    for threads, robots_per_world in ((2, 1), (1, 3), (2, 6)):
        np.testing.assert_array_equal(alone, trajectory(threads, robots_per_world, task))


def test_set_physics_takes_one_row_for_all_envs_or_a_row_each():
    venv = JoltVectorEnv(3, task="HalfCheetah")
    venv.set_physics("floor_friction", [0.7])
    np.testing.assert_allclose(venv.get_physics("floor_friction"), 0.7)
    venv.set_physics("floor_friction", [[0.1], [0.2], [0.3]])
    np.testing.assert_allclose(venv.get_physics("floor_friction").ravel(), [0.1, 0.2, 0.3])
    venv.reset(seed=0)  # a reset without randomize= keeps them
    np.testing.assert_allclose(venv.get_physics("floor_friction").ravel(), [0.1, 0.2, 0.3])


def test_bad_parameters_and_draws_are_named():
    env = gym.make(f"joltgym/{GO1}-v0").unwrapped
    with pytest.raises(ValueError, match=r"unknown physics parameter 'mass'; parameters: floor_friction"):
        env.get_physics("mass")
    with pytest.raises(ValueError, match=r"body_mass: body 'trunk' takes values > 0, got -1"):
        env.set_physics("body_mass", -np.ones(13))
    with pytest.raises(ValueError, match=r"joint_frictionloss: joint 0 has no rows for it"):
        env.set_physics("joint_frictionloss", np.ones(13))
    with pytest.raises(ValueError, match=r"has shape \(12,\), expected \(13,\)"):
        env.set_physics("body_mass", np.ones(12))
    with pytest.raises(ValueError, match=r"randomization of body_mass: element 40 is out of range"):
        gym.make(f"joltgym/{GO1}-v0", randomize=[("body_mass", "scale", 0.9, 1.1, [40])])
    with pytest.raises(ValueError, match=r"the mode of body_mass must be one of set, scale, add"):
        gym.make(f"joltgym/{GO1}-v0", randomize=[("body_mass", "times", 0.9, 1.1)])
    with pytest.raises(ValueError, match=r"randomize='fancy' for HalfCheetah: no such preset; HalfCheetah's presets: none"):
        gym.make("joltgym/HalfCheetah-v0", randomize="fancy")
    with pytest.raises(ValueError, match=r"actuator_kp: actuator 'bthigh' is not a position actuator"):
        gym.make("joltgym/HalfCheetah-v0").unwrapped.set_physics("actuator_kp", np.full(6, 2.0))


@pytest.mark.parametrize("task", sorted(name for name, spec in TASKS.items() if "playground" in spec.randomizations))
def test_playgrounds_qpos0_jitter_would_change_nothing(task):
    # Playground also jitters qpos0, which MuJoCo reads only for joint stiffness, tendons, equality
    # constraints and mj_resetData; these models have none of the first three and every reset sets
    # qpos itself, so joltgym's "playground" draws leave it out.
    import mujoco

    from joltgym.model import resolve_model_path

    m = mujoco.MjModel.from_xml_path(str(resolve_model_path(TASKS[task].xml_file)))
    assert np.all(m.jnt_stiffness == 0.0) and m.ntendon == 0 and m.neq == 0
