"""A task is written once: its parameters, layouts and info come from the native task, and every
registered task exists in each of the places a task lives (see docs/contributing.md, "Adding a task")."""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import joltgym
from joltgym import _native
from joltgym.model import ASSETS_DIR
from joltgym.model import resolve_model_path
from joltgym.tasks import TASKS, task_names
from joltgym.vector import JoltVectorEnv

ALL = sorted(TASKS)
V5 = task_names("gymnasium")
README = Path(__file__).resolve().parents[1] / "README.md"
# Keyword arguments the env classes take that are not task parameters; **kwargs carries MujocoEnv's
# other rendering keywords (width, height, camera_id, camera_name), as v5's **kwargs does.
ENV_LEVEL = {"xml_file", "default_camera_config", "solver", "randomize", "render_mode", "kwargs", "obs_type", "frame_stack"}


def env_class(name: str):
    module, cls = TASKS[name].env_entry_point.split(":")
    return getattr(importlib.import_module(module), cls)


def same_default(python_value, native_value) -> bool:
    """Equal in value and kind (native floats print as the shortest decimal of their float32)."""
    if isinstance(native_value, tuple):
        return isinstance(python_value, tuple) and tuple(map(float, python_value)) == native_value
    return type(python_value) is type(native_value) and python_value == native_value


def same_value(ours, theirs) -> bool:
    """Equal as values (v5 writes some float defaults as ints); a bool stays a bool."""
    if isinstance(ours, tuple) or isinstance(theirs, tuple):
        return len(ours) == len(theirs) and all(same_value(a, b) for a, b in zip(ours, theirs))
    return isinstance(ours, bool) == isinstance(theirs, bool) and ours == theirs


@pytest.mark.parametrize("name", ALL)
def test_every_task_lives_in_each_of_its_places(name):
    spec = TASKS[name]
    assert _native.task_type(name).name == name  # its C++ task registered itself
    # its asset: shipped, or a robot scene of joltgym.robot_assets
    assert (ASSETS_DIR / spec.xml_file).is_file() if name in V5 else resolve_model_path(spec.xml_file).is_file()
    cls = env_class(name)  # its thin env class, with the task's vector entry point beside it
    assert inspect.signature(cls).parameters["xml_file"].default == spec.xml_file
    module, factory = spec.vector_entry_point.split(":")
    assert isinstance(getattr(importlib.import_module(module), factory)(1), JoltVectorEnv)
    assert gym.spec(spec.env_id).vector_entry_point == spec.vector_entry_point  # registered from the table row


def test_every_native_task_has_a_table_row():
    assert sorted(t.name for t in _native.task_types()) == ALL


@pytest.mark.parametrize("name", ALL)
def test_env_signature_is_the_native_parameters_with_their_defaults(name):
    signature = inspect.signature(env_class(name)).parameters
    native = _native.task_type(name).defaults
    assert set(signature) - ENV_LEVEL == set(native), "the env class and the native Params list different kwargs"
    for key, value in native.items():
        assert same_default(signature[key].default, value), (key, signature[key].default, value)


@pytest.mark.parametrize("name", V5)
def test_defaults_equal_gymnasium_v5_where_v5_has_the_kwarg(name):
    ours = inspect.signature(env_class(name)).parameters
    module, cls = gym.spec(f"{name}-v5").entry_point.split(":")
    theirs = inspect.signature(getattr(importlib.import_module(module), cls)).parameters
    shared = set(ours) & set(theirs) - {"xml_file", "default_camera_config", "render_mode"}
    assert shared >= set(ours) - ENV_LEVEL, "every task kwarg is one of v5's"
    for key in shared:
        assert same_value(ours[key].default, theirs[key].default), (key, ours[key].default, theirs[key].default)


@pytest.mark.parametrize("name", V5)
def test_observation_structure_is_the_native_layout_and_v5s(name):
    ours = gym.make(f"joltgym/{name}-v0").unwrapped
    layout = ours.task.observation_structure
    assert ours.observation_structure == layout
    assert sum(size for key, size in layout.items() if key != "skipped_qpos") == ours.observation_space.shape[0]
    theirs = gym.make(f"{name}-v5").unwrapped
    if hasattr(theirs, "observation_structure"):
        assert layout == theirs.observation_structure


def test_unknown_keyword_names_it_and_lists_the_valid_ones():
    with pytest.raises(TypeError, match=r"ctrl_cost\b.*valid keyword arguments: forward_reward_weight, ctrl_cost_weight"):
        JoltVectorEnv(2, task="HalfCheetah", ctrl_cost=0.2)
    with pytest.raises(TypeError, match="ctrl_cost"):
        gym.make("joltgym/HalfCheetah-v0", ctrl_cost=0.2)
    with pytest.raises(TypeError, match="healthy_state_range"):  # Hopper's, not Walker2d's
        JoltVectorEnv(2, task="Walker2d", healthy_state_range=(-1, 1))


@pytest.mark.parametrize(
    "task, kwargs, message",
    [
        ("Hopper", {"healthy_z_range": "high"}, r"healthy_z_range must be a \(low, high\) pair"),
        ("Hopper", {"healthy_z_range": (0.7,)}, r"healthy_z_range must be a \(low, high\) pair"),
        ("HalfCheetah", {"frame_skip": 2.5}, "frame_skip must be an int"),
        ("HalfCheetah", {"ctrl_cost_weight": "0.1"}, "ctrl_cost_weight must be a number"),
        ("Ant", {"terminate_when_unhealthy": 1}, "terminate_when_unhealthy must be a bool"),
        ("Ant", {"main_body": 1.0}, "main_body must be a body id"),
    ],
)
def test_wrong_types_raise_type_error_naming_the_parameter(task, kwargs, message):
    with pytest.raises(TypeError, match=message):
        gym.make(f"joltgym/{task}-v0", **kwargs)
    with pytest.raises(TypeError, match=message):
        JoltVectorEnv(2, task=task, **kwargs)


@pytest.mark.parametrize(
    "task, kwargs, message",
    [
        ("HalfCheetah", {"frame_skip": 0}, "frame_skip must be >= 1"),
        ("Hopper", {"healthy_z_range": (2.0, 1.0)}, "healthy_z_range must be an ordered"),
        ("Swimmer", {"ctrl_cost_weight": float("nan")}, "ctrl_cost_weight must not be NaN"),
        ("Ant", {"main_body": "tail"}, "main_body: 'tail' is not a moving body.*'torso'"),
        ("Ant", {"main_body": 0}, "main_body: 0 is not a moving body"),
    ],
)
def test_bad_values_raise_value_error_naming_the_parameter(task, kwargs, message):
    with pytest.raises(ValueError, match=message):
        gym.make(f"joltgym/{task}-v0", **kwargs)


def test_parameters_change_the_task():
    default = gym.make("joltgym/Hopper-v0").unwrapped
    changed = gym.make("joltgym/Hopper-v0", ctrl_cost_weight=0.5, frame_skip=2).unwrapped
    assert changed.dt == pytest.approx(default.dt / 2)
    for env in (default, changed):
        env.reset(seed=0)
    action = np.full(3, 0.5, np.float32)
    assert default.step(action)[4]["reward_ctrl"] == pytest.approx(-1e-3 * 0.75)
    assert changed.step(action)[4]["reward_ctrl"] == pytest.approx(-0.5 * 0.75)
    by_name = gym.make("joltgym/Ant-v0", main_body="torso").unwrapped
    by_id = gym.make("joltgym/Ant-v0", main_body=1).unwrapped
    for env in (by_name, by_id):
        env.reset(seed=4)
    np.testing.assert_array_equal(by_name.step(np.zeros(8))[0], by_id.step(np.zeros(8))[0])


def test_humanoid_tendon_info_in_the_vector_env():
    venv = JoltVectorEnv(3, task="Humanoid")
    obs, infos = venv.reset(seed=0)
    env = gym.make("joltgym/Humanoid-v0").unwrapped
    m = env.model.mj_model
    # Fixed tendons over the joints after the free root: qpos[7:] is obs[5:5 + 17].
    coefs = np.zeros((m.ntendon, m.njnt - 1))
    for t in range(m.ntendon):
        for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t]):
            coefs[t, m.wrap_objid[w] - 1] += m.wrap_prm[w]
    for _ in range(2):
        assert infos["tendon_length"].shape == (3, 2) and infos["_tendon_length"].all()
        assert infos["tendon_velocity"].shape == (3, 2)
        np.testing.assert_allclose(infos["tendon_length"], obs[:, 5:22] @ coefs.T, rtol=1e-6, atol=1e-7)
        obs, _, _, _, infos = venv.step(np.zeros((3, 17), np.float32))


def test_readme_lists_every_registered_id():
    rows = r"^\| `(joltgym/[A-Za-z0-9]+-v\d+)` \| \d+ \| \d+ \|"  # id | obs | act
    listed = set(re.findall(rows, README.read_text(), flags=re.MULTILINE))
    registered = {spec.id for spec in gym.registry.values() if spec.id.startswith("joltgym/")}
    assert listed == registered == set(joltgym.task_ids())
