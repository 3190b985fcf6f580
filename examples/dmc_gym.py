"""A Gymnasium adapter over dm_control's own Control Suite tasks (MuJoCo), the baseline for joltgym's
``joltgym/CheetahRun-v0``, ``joltgym/WalkerWalk-v0``, ... in ``examples/train_ppo.py``.

``DMCEnv("cheetah", "run")`` is a ``gymnasium.Env`` over ``dm_control.suite.load(domain, task,
task_kwargs={"random": seed})``:

* observation: dm_control's observation dict flattened in its own (ordered) key order, each array
  raveled, concatenated as float32 (a ``Box`` of -inf..inf);
* action: a ``Box`` with the bounds of ``action_spec()`` (float32);
* reward: ``timestep.reward``; never terminated; truncated when dm_control's episode ends
  (``timestep.last()``, after its 1000 control steps);
* ``reset(seed=s)`` reloads the task with ``random=s`` (a fresh environment, as ``suite.load`` seeds the
  task's RandomState only when it is made); ``reset()`` without a seed continues the current stream.

``make_vec(env_id, num_envs, **kwargs)`` builds Gymnasium's ``SyncVectorEnv`` (NEXT_STEP autoreset) over such
envs for an id ``dm_control/<domain>-<task>`` (e.g. ``dm_control/cheetah-run``, ``dm_control/walker-walk``).

Pixels, laid out as joltgym's ``obs_type="pixels"`` (``examples/train_pixels.py``'s baseline):
``DMCEnv("cheetah", "run", obs_type="pixels", frame_stack=3, action_repeat=4)`` observes
``physics.render(height, width, camera_id)`` (84 x 84, camera 0: DrQ's convention) as ``(height, width, 3)`` uint8,
or with ``frame_stack=k > 1`` the last k frames, oldest first, as ``(k, height, width, 3)``, a reset filling the
stack with its first frame. ``action_repeat=k`` applies each action for k control steps and sums their rewards
(DrQ's and PlaNet's wrappers); the episode still ends after dm_control's 1000 control steps (1000 / k env steps).
Rendering needs ``MUJOCO_GL`` set before dm_control is imported (``egl`` here; ``LP_NUM_THREADS=1`` keeps Mesa's
software rasteriser on one thread).
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

PREFIX = "dm_control/"


def parse_id(env_id: str) -> tuple[str, str]:
    """'dm_control/cheetah-run' -> ('cheetah', 'run'); 'dm_control/ball_in_cup-catch' -> ('ball_in_cup', 'catch')."""
    if not env_id.startswith(PREFIX):
        raise ValueError(f"not a dm_control id: {env_id!r}")
    domain, sep, task = env_id[len(PREFIX):].partition("-")
    if not sep or not domain or not task:
        raise ValueError(f"expected dm_control/<domain>-<task>, got {env_id!r}")
    return domain, task


def flatten_observation(obs: dict) -> np.ndarray:
    """dm_control's observation dict, in its own key order, as one float32 vector."""
    return np.concatenate([np.asarray(v, dtype=np.float64).ravel() for v in obs.values()]).astype(np.float32)


class DMCEnv(gym.Env):
    metadata = {"render_modes": []}

    def __init__(self, domain: str, task: str, seed: int | None = None, environment_kwargs: dict | None = None,
                 obs_type: str = "state", frame_stack: int = 1, action_repeat: int = 1, width: int = 84,
                 height: int = 84, camera_id: int = 0):
        from dm_control import suite

        if obs_type not in ("state", "pixels"):
            raise ValueError(f"obs_type must be 'state' or 'pixels', got {obs_type!r}")
        if action_repeat < 1 or frame_stack < 1:
            raise ValueError("action_repeat and frame_stack must be positive")
        if obs_type == "state" and frame_stack != 1:
            raise ValueError("frame_stack applies to pixels only")
        self._suite = suite
        self.domain, self.task = domain, task
        self._environment_kwargs = environment_kwargs
        self.obs_type, self.frame_stack, self.action_repeat = obs_type, frame_stack, action_repeat
        self.width, self.height, self.camera_id = width, height, camera_id
        self._frames: list[np.ndarray] = []
        self._env = self._load(seed)
        spec = self._env.action_spec()
        self.action_space = gym.spaces.Box(low=spec.minimum.astype(np.float32), high=spec.maximum.astype(np.float32),
                                           shape=spec.shape, dtype=np.float32)
        self.observation_keys = tuple(self._env.observation_spec().keys())
        if obs_type == "pixels":
            shape = (height, width, 3) if frame_stack == 1 else (frame_stack, height, width, 3)
            self.observation_space = gym.spaces.Box(0, 255, shape=shape, dtype=np.uint8)
        else:
            size = sum(int(np.prod(s.shape)) for s in self._env.observation_spec().values())
            self.observation_space = gym.spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32)

    def _load(self, seed: int | None):
        return self._suite.load(self.domain, self.task, task_kwargs={"random": seed},
                                environment_kwargs=self._environment_kwargs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._env.close()
            self._env = self._load(seed)
        timestep = self._env.reset()
        if self.obs_type == "pixels":
            self._frames = [self._render()] * self.frame_stack
        return self._observation(timestep), {}

    def _render(self) -> np.ndarray:
        return self._env.physics.render(self.height, self.width, camera_id=self.camera_id)

    def _observation(self, timestep) -> np.ndarray:
        if self.obs_type == "state":
            return flatten_observation(timestep.observation)
        return self._frames[-1].copy() if self.frame_stack == 1 else np.stack(self._frames)

    def step(self, action):
        action = np.asarray(action, dtype=np.float64)
        reward = 0.0
        for _ in range(self.action_repeat):
            timestep = self._env.step(action)
            reward += 0.0 if timestep.reward is None else float(timestep.reward)
            if timestep.last():
                break
        if self.obs_type == "pixels":
            self._frames = self._frames[1:] + [self._render()]
        return self._observation(timestep), reward, False, bool(timestep.last()), {}

    @property
    def physics(self):
        return self._env.physics

    def close(self):
        self._env.close()


def make_vec(env_id: str, num_envs: int, **kwargs) -> gym.vector.SyncVectorEnv:
    """Gymnasium's sync vector env (NEXT_STEP autoreset) over ``num_envs`` DMCEnvs (``kwargs``: DMCEnv's
    ``obs_type``, ``frame_stack``, ``action_repeat``, ...); seed it with ``reset(seed=...)``."""
    domain, task = parse_id(env_id)
    return gym.vector.SyncVectorEnv([lambda: DMCEnv(domain, task, **kwargs) for _ in range(num_envs)])


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser(description="print a dm_control task's flattened layout beside joltgym's")
    p.add_argument("--env-id", default="dm_control/cheetah-run")
    p.add_argument("--joltgym-id", default=None, help="e.g. joltgym/CheetahRun-v0")
    a = p.parse_args()
    env = DMCEnv(*parse_id(a.env_id))
    print(a.env_id, "keys", env.observation_keys, "obs", env.observation_space.shape,
          "action", env.action_space.low, env.action_space.high)
    if a.joltgym_id:
        import joltgym  # noqa: F401

        j = gym.make(a.joltgym_id)
        print(a.joltgym_id, "obs", j.observation_space.shape, "action", j.action_space.low, j.action_space.high)
