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

``make_vec(env_id, num_envs, seed)`` builds Gymnasium's ``SyncVectorEnv`` (NEXT_STEP autoreset) over such
envs for an id ``dm_control/<domain>-<task>`` (e.g. ``dm_control/cheetah-run``, ``dm_control/walker-walk``).
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

    def __init__(self, domain: str, task: str, seed: int | None = None, environment_kwargs: dict | None = None):
        from dm_control import suite

        self._suite = suite
        self.domain, self.task = domain, task
        self._environment_kwargs = environment_kwargs
        self._env = self._load(seed)
        spec = self._env.action_spec()
        self.action_space = gym.spaces.Box(low=spec.minimum.astype(np.float32), high=spec.maximum.astype(np.float32),
                                           shape=spec.shape, dtype=np.float32)
        size = sum(int(np.prod(s.shape)) for s in self._env.observation_spec().values())
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32)
        self.observation_keys = tuple(self._env.observation_spec().keys())

    def _load(self, seed: int | None):
        return self._suite.load(self.domain, self.task, task_kwargs={"random": seed},
                                environment_kwargs=self._environment_kwargs)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._env.close()
            self._env = self._load(seed)
        timestep = self._env.reset()
        return flatten_observation(timestep.observation), {}

    def step(self, action):
        timestep = self._env.step(np.asarray(action, dtype=np.float64))
        reward = 0.0 if timestep.reward is None else float(timestep.reward)
        return flatten_observation(timestep.observation), reward, False, bool(timestep.last()), {}

    @property
    def physics(self):
        return self._env.physics

    def close(self):
        self._env.close()


def make_vec(env_id: str, num_envs: int) -> gym.vector.SyncVectorEnv:
    """Gymnasium's sync vector env (NEXT_STEP autoreset) over ``num_envs`` DMCEnvs; seed it with ``reset(seed=...)``."""
    domain, task = parse_id(env_id)
    return gym.vector.SyncVectorEnv([lambda: DMCEnv(domain, task) for _ in range(num_envs)])


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
