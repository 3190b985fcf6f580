"""JoltVectorEnv(num_envs, model_path=...) runs the task that ships that model, and a model a task
cannot take is refused with an error naming the model, the task and how to name the right one."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
import pytest

import joltgym
from joltgym.model import ASSETS_DIR, resolve_model_path
from joltgym.tasks import TASKS
from joltgym.vector import JoltVectorEnv

GYMNASIUM_ASSETS = Path(gym.__file__).parent / "envs" / "mujoco" / "assets"


@pytest.mark.parametrize("name", sorted(TASKS))
def test_a_shipped_model_picks_its_task(name):
    spec = TASKS[name]
    # ours and Gymnasium's file of the same name, or the robot's scene in its asset wheel
    paths = ([folder / spec.xml_file for folder in (ASSETS_DIR, GYMNASIUM_ASSETS)] if spec.family == "gymnasium"
             else [resolve_model_path(spec.xml_file)])
    # a file two tasks share (Go1Handstand's and Go1Footstand's scene) picks the first in the table
    sharing = [t for t, s in TASKS.items() if s.xml_file == spec.xml_file]
    for path in paths:
        envs = JoltVectorEnv(2, model_path=str(path))
        assert envs.task_name == sharing[0] and name in sharing
        assert gym.spaces.flatdim(envs.single_observation_space) == envs.task.obs_dim
        assert envs.max_episode_steps == spec.max_episode_steps
        envs.close()


def test_the_seeds_constructor_form_runs_a_humanoid():
    envs = JoltVectorEnv(num_envs=8, model_path=str(ASSETS_DIR / "humanoid.xml"))
    assert envs.task_name == "Humanoid"
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (8, 348)
    envs.close()


def test_no_model_and_no_task_is_halfcheetah():
    envs = JoltVectorEnv(2)
    assert envs.task_name == "HalfCheetah" and envs.model.path.name == "half_cheetah.xml"
    envs.close()


def test_a_model_of_another_task_names_the_model_the_task_and_the_keyword():
    with pytest.raises(ValueError,
                       match=r"model '.*humanoid.xml' does not fit task 'HalfCheetah': HalfCheetah: a planar runner .*; "
                             r"it is task 'Humanoid''s model: pass task='Humanoid'"):
        JoltVectorEnv(2, model_path=str(ASSETS_DIR / "humanoid.xml"), task="HalfCheetah")
    with pytest.raises(ValueError, match=r"model '.*ant.xml' does not fit task 'Reacher': Reacher: .*fingertip.*; "
                                         r"it is task 'Ant''s model: pass task='Ant'"):
        JoltVectorEnv(2, model_path=str(ASSETS_DIR / "ant.xml"), task="Reacher")


def test_an_unknown_model_that_does_not_fit_the_default_task_lists_the_tasks(tmp_path):
    path = tmp_path / "my_robot.xml"
    path.write_text((ASSETS_DIR / "ant.xml").read_text())
    with pytest.raises(ValueError,
                       match=r"model '.*my_robot.xml' does not fit task 'HalfCheetah': .*; pass task= with the "
                             r"task it is a model of \(HalfCheetah, Hopper"):
        JoltVectorEnv(2, model_path=str(path))
    envs = JoltVectorEnv(2, model_path=str(path), task="Ant")
    assert envs.task_name == "Ant" and envs.single_observation_space.shape == (105,)
    envs.close()


def test_a_bad_keyword_argument_is_reported_as_itself_not_as_a_misfit():
    with pytest.raises(ValueError, match=r"^HalfCheetah: .*frame_skip") as raised:
        JoltVectorEnv(2, model_path=str(ASSETS_DIR / "half_cheetah.xml"), frame_skip=0)
    assert "does not fit" not in str(raised.value)


def test_the_single_env_names_the_id_to_make():
    with pytest.raises(ValueError,
                       match=r"model 'humanoid.xml' does not fit task 'HalfCheetah': .*; it is joltgym/Humanoid-v0's "
                             r"model: make that id"):
        gym.make("joltgym/HalfCheetah-v0", xml_file="humanoid.xml")
