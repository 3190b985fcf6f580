"""Stable-Baselines3 ``VecEnv`` over a JoltVectorEnv.

SB3 does not accept Gymnasium vector envs. This adapter keeps SB3's conventions: done
envs are reset in the same step, ``infos[i]["terminal_observation"]`` holds the
observation that ended the episode and ``infos[i]["TimeLimit.truncated"]`` tells a time
limit from a real termination, so bootstrapping stays correct. With ``render_mode="rgb_array"``
(and the other rendering keywords of JoltVectorEnv) SB3's ``render()`` tiles every env's frame.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from joltgym.vector.jolt_vector_env import JoltVectorEnv


class JoltSB3VecEnv(VecEnv):
    """``JoltSB3VecEnv(num_envs, task="HalfCheetah", **JoltVectorEnv kwargs)``."""

    def __init__(self, num_envs: int, **kwargs: Any):
        if "autoreset_mode" in kwargs:
            raise TypeError("JoltSB3VecEnv always resets in the same step, as SB3 expects")
        if kwargs.get("render_mosaic"):
            raise TypeError("JoltSB3VecEnv tiles frames itself (SB3's render); leave render_mosaic off")
        self.venv = JoltVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP, **kwargs)
        self.render_mode = self.venv.render_mode
        self._actions: np.ndarray | None = None
        super().__init__(self.venv.num_envs, self.venv.single_observation_space, self.venv.single_action_space)

    def reset(self) -> np.ndarray:
        if any(s is not None for s in self._seeds):
            obs, info = self.venv.reset(seed=list(self._seeds))
        else:
            obs, info = self.venv.reset()
        self.reset_infos = _per_env(info, self.num_envs)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = terminated | truncated
        infos = _per_env({k: v for k, v in info.items() if not k.startswith(("final_", "_final_"))}, self.num_envs)
        final_obs = info.get("final_obs")
        final_info = _per_env(info["final_info"], self.num_envs) if "final_info" in info else None
        for i in np.flatnonzero(dones):
            if final_info is not None:
                infos[i] = {**final_info[i]}
            infos[i]["terminal_observation"] = final_obs[i]
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        return obs, rewards.astype(np.float32), dones, infos

    def close(self) -> None:
        self.venv.close()

    def get_images(self) -> list[np.ndarray]:
        """Each env's frame (SB3's render tiles them); render_mode must be "rgb_array"."""
        if self.render_mode != "rgb_array":
            raise ValueError(f"get_images needs render_mode='rgb_array', this env has {self.render_mode!r}")
        return list(self.venv.render())

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        value = getattr(self, attr_name) if attr_name == "render_mode" else getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"JoltSB3VecEnv's sub-environments are native; cannot set {attr_name!r}")

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        if method_name == "render":  # SB3's render() in "human" mode: one window of every env
            self.venv.render()
            return [None for _ in self._get_indices(indices)]
        raise AttributeError(f"JoltSB3VecEnv's sub-environments are native; no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]


def _per_env(info: dict[str, Any], num_envs: int) -> list[dict[str, Any]]:
    """Gymnasium's dict of arrays with ``_key`` masks → SB3's list of dicts."""
    out: list[dict[str, Any]] = [{} for _ in range(num_envs)]
    for key, values in info.items():
        if key.startswith("_"):
            continue
        mask = info.get("_" + key, np.ones(num_envs, bool))
        for i in np.flatnonzero(mask):
            out[i][key] = values[i]
    return out
