"""One small RLlib PPO iteration on a joltgym env; prints a JSON line with the results.

Run by tests/test_rllib.py in a virtual environment that holds Ray's own pins (Gymnasium 1.2.2):

    python tests/rllib/run_rllib.py single   ENV_ID MODE RUNNERS    # MODE: default | vector_entry_point
    python tests/rllib/run_rllib.py multi    ENV_ID SHARED RUNNERS  # SHARED: shared | per_agent
"""

from __future__ import annotations

import json
import math
import sys

import joltgym
import joltgym.rllib
from ray.rllib.algorithms.ppo import PPOConfig


def small(config: PPOConfig, runners: int) -> PPOConfig:
    return (
        config.env_runners(num_env_runners=runners, num_envs_per_env_runner=2, rollout_fragment_length="auto")
        .training(train_batch_size_per_learner=128, minibatch_size=64, num_epochs=1)
        .debugging(seed=7)
    )


def single(env_id: str, mode: str, runners: int) -> PPOConfig:
    config = PPOConfig().environment(env_id).rl_module(model_config={"fcnet_hiddens": [16]})
    if mode != "default":
        config = config.env_runners(gym_env_vectorize_mode=mode)
    return small(config, runners)


def multi(env_id: str, sharing: str, runners: int) -> PPOConfig:
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    import pettingzoo

    agents = pettingzoo.make("parallel", env_id).possible_agents
    env_config = {"max_cycles": 100}
    if sharing == "shared":
        env_config["pad_observations"] = True  # one module needs one observation space
        modules = {"shared": RLModuleSpec(model_config={"fcnet_hiddens": [16]})}
        mapping = lambda agent_id, episode, **kwargs: "shared"  # noqa: E731
    else:
        modules = {agent: RLModuleSpec(model_config={"fcnet_hiddens": [16]}) for agent in agents}
        mapping = lambda agent_id, episode, **kwargs: agent_id  # noqa: E731
    config = (
        PPOConfig()
        .environment(env_id, env_config=env_config)
        .multi_agent(policies=set(modules), policy_mapping_fn=mapping)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=modules))
    )
    return small(config, runners)


def main() -> None:
    kind, env_id, option, runners = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    joltgym.rllib.register_envs()
    config = single(env_id, option, runners) if kind == "single" else multi(env_id, option, runners)
    algo = config.build_algo()
    result = algo.train()
    sampled = int(result["env_runners"]["num_env_steps_sampled"])
    losses = [
        float(stats["total_loss"])
        for module, stats in result["learners"].items()
        if isinstance(stats, dict) and "total_loss" in stats
    ]
    env_types = []
    if kind == "single":
        env_types = [type(env.unwrapped).__name__] if (env := getattr(algo.env_runner, "env", None)) else []
    algo.stop()
    print(json.dumps({
        "iteration": int(result["training_iteration"]),
        "sampled": sampled,
        "losses": losses,
        "finite": bool(losses) and all(math.isfinite(x) for x in losses),
        "env_types": env_types,
    }))


if __name__ == "__main__":
    main()
