"""RLlib (Ray) with joltgym ids.

Ray's env runners run in processes that never import joltgym, so a bare Gymnasium id
("joltgym/Hopper-v0") is unknown there. Either write ``"joltgym:joltgym/Hopper-v0"`` (Gymnasium
imports the part before the colon first), or call ``register_envs()`` once in the driver:
it registers every joltgym id, single- and multi-agent, in Ray's env registry, which Ray ships
to its workers, with a creator that imports joltgym where it runs::

    import joltgym.rllib
    from ray.rllib.algorithms.ppo import PPOConfig

    joltgym.rllib.register_envs()
    PPOConfig().environment("joltgym/Hopper-v0").env_runners(num_env_runners=2)   # works remotely
    PPOConfig().environment("joltgym/SumoAnts-v0", env_config={"max_cycles": 200})  # multi-agent

Single-agent ids honour ``gym_env_vectorize_mode``: "vector_entry_point" gives joltgym's native
vector env, the default ("sync") Gymnasium's sync vector env. Multi-agent ids are PettingZoo
ParallelEnvs wrapped in RLlib's ``ParallelPettingZooEnv``; ``env_config`` holds their keyword
arguments (``agent_conf``, ``pad_observations``, ...).
"""

from __future__ import annotations

from typing import Any, Callable

from joltgym.registration import multi_agent_ids, task_ids


def single_agent_creator(env_id: str) -> Callable[[dict], Any]:
    """RLlib's env creator for a joltgym Gymnasium id: a single env, or the native vector env
    when RLlib asks for ``num_envs`` (its vector_entry_point mode)."""

    def create(config: dict) -> Any:
        import gymnasium

        import joltgym  # noqa: F401  (registers the ids in this process)

        kwargs = dict(config)
        num_envs = kwargs.pop("num_envs", None)
        if num_envs is None:
            return gymnasium.make(env_id, **kwargs)
        return gymnasium.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point", **kwargs)

    return create


def multi_agent_creator(env_id: str) -> Callable[[dict], Any]:
    """RLlib's env creator for a joltgym PettingZoo id (``ParallelPettingZooEnv`` around it)."""

    def create(config: dict) -> Any:
        import pettingzoo
        from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv

        import joltgym  # noqa: F401

        return ParallelPettingZooEnv(pettingzoo.make("parallel", env_id, **dict(config)))

    return create


def register_envs() -> None:
    """Register every joltgym id in Ray's env registry (see the module's docstring)."""
    from ray.tune.registry import register_env

    for env_id in task_ids():
        register_env(env_id, single_agent_creator(env_id))
    for env_id in multi_agent_ids():
        register_env(env_id, multi_agent_creator(env_id))
