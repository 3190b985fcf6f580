"""copy=False: observations, rewards and flags are the pools' own buffers, which torch shares
through DLPack without a copy, and which the next step (or recv) overwrites."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.vector import JoltVectorEnv


def shares(tensor: torch.Tensor, array: np.ndarray) -> bool:
    return tensor.data_ptr() == array.__array_interface__["data"][0]


def zero_copy_tensors(result) -> list[tuple[torch.Tensor, np.ndarray]]:
    obs, rewards, terminated, truncated, _ = result
    arrays = list(obs.values()) if isinstance(obs, dict) else [obs]
    arrays += [rewards, terminated, truncated]
    return [(torch.from_dlpack(a), a) for a in arrays]


@pytest.mark.parametrize("task", ["HalfCheetah", "Go1JoystickFlatTerrain"])
@pytest.mark.parametrize("batch_size", [None, 2])
def test_outputs_reach_torch_without_a_copy_and_the_next_call_overwrites_them(task, batch_size):
    env = JoltVectorEnv(4, task=task, copy=False, batch_size=batch_size, max_episode_steps=5)
    act = env.single_action_space.shape[0]
    env.reset(seed=0)
    rows = batch_size or 4
    first = env.step(np.full((4, act), 0.3, np.float32))
    tensors = zero_copy_tensors(first)
    assert first[1].dtype == np.float32
    for tensor, array in tensors:
        assert shares(tensor, array)
    before = [tensor.clone() for tensor, _ in tensors]
    assert not before[-1].any()
    for _ in range(4 if batch_size is None else 9):  # to the episodes' end (step 5): the flags change too
        later = env.step(np.full((rows, act), -0.3, np.float32))
        for (tensor, array), (_, new_array) in zip(tensors, zero_copy_tensors(later)):
            assert shares(tensor, new_array)  # the same buffer, again
        if later[3].all():
            break
    assert tensors[-1][0].all()  # the truncation flags held since the first step now read the last call's
    assert not torch.equal(before[0], tensors[0][0])  # the observations too
    env.close()


def test_default_copies_stay_the_callers():
    env = JoltVectorEnv(2, task="HalfCheetah")
    env.reset(seed=0)
    obs, rewards, terminated, *_ = env.step(np.ones((2, 6), np.float32))
    held = torch.from_dlpack(obs).clone(), torch.from_dlpack(rewards).clone()
    later = env.step(-np.ones((2, 6), np.float32))
    assert torch.equal(held[0], torch.from_dlpack(obs)) and torch.equal(held[1], torch.from_dlpack(rewards))
    assert not np.shares_memory(obs, later[0]) and rewards.dtype == np.float64


def test_dict_observations_are_views_of_one_buffer():
    env = JoltVectorEnv(2, task="Go1JoystickFlatTerrain", copy=False)
    obs, _ = env.reset(seed=0)
    obs, *_ = env.step(np.zeros((2, 12), np.float32))
    state, privileged = torch.from_dlpack(obs["state"]), torch.from_dlpack(obs["privileged_state"])
    assert state.shape == (2, 48) and privileged.shape == (2, 123)
    offsets = {name: offset for name, offset, _ in env.task.observation_keys}
    assert privileged.data_ptr() - state.data_ptr() == 4 * (offsets["privileged_state"] - offsets["state"])
    assert state.stride() == privileged.stride() == (171, 1)  # rows of the one [envs, 171] buffer


def test_multi_agent_pool_outputs_reach_torch_without_a_copy():
    env = MultiAgentVectorEnv("joltgym/MaHalfCheetah-v0", 4, copy=False, agent_conf="2x3", batch_size=2)
    env.reset(seed=0)
    first = env.step(np.zeros((4, 2, 3), np.float32))
    tensors = zero_copy_tensors(first)
    held = [t.clone() for t, _ in tensors]
    second = env.step(np.ones((2, 2, 3), np.float32))
    for (tensor, _), (_, array) in zip(tensors, zero_copy_tensors(second)):
        assert shares(tensor, array)
    assert not torch.equal(held[0], tensors[0][0])
