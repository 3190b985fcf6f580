"""Self-play on joltgym/SumoAnts-v0 with RLlib: one PPO module plays both ants.

The shaping rewards' weight is annealed linearly from 1 to 0 over the first ``--anneal-iters``
iterations (set in every env runner's envs after each iteration). Progress is printed per
iteration: env steps, mean episode return, the fraction of bouts won and drawn, and time.

    pip install ".[rllib]"
    python examples/rllib_sumo_selfplay.py --iterations 200 --env-runners 2
"""

from __future__ import annotations

import argparse
import time

import joltgym.rllib
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.callbacks.callbacks import RLlibCallback
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec

ENV_ID = "joltgym/SumoAnts-v0"


class BoutOutcomes(RLlibCallback):
    """Counts wins and draws of finished bouts (from the sumo env's info)."""

    def on_episode_end(self, *, episode, metrics_logger, **kwargs):
        infos = episode.get_infos(-1) if hasattr(episode, "get_infos") else {}
        info = infos.get("agent_0", {}) if isinstance(infos, dict) else {}
        won = any(float(i.get("winner", 0.0)) > 0 for i in infos.values()) if isinstance(infos, dict) else False
        metrics_logger.log_value("bouts_decided", float(won), reduce="mean")
        metrics_logger.log_value("bouts_drawn", float(info.get("draw", 0.0)), reduce="mean")


def set_shaping_weight(algo, weight: float) -> list:
    """Sets the weight in every env of every env runner; returns the values read back."""

    def apply(runner):
        if runner.env is None:  # the driver's runner when remote runners sample
            return []
        vector = runner.env.unwrapped  # RLlib's SyncVectorMultiAgentEnv
        weights = []
        for env in vector.envs:  # gymnasium wrappers around ParallelPettingZooEnv
            sumo = env.unwrapped.par_env
            sumo.shaping_weight = weight
            weights.append(sumo.shaping_weight)
        return weights

    return algo.env_runner_group.foreach_env_runner(apply)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--anneal-iters", type=int, default=60)
    parser.add_argument("--env-runners", type=int, default=1)
    parser.add_argument("--batch", type=int, default=4000, help="env steps per iteration")
    args = parser.parse_args()

    joltgym.rllib.register_envs()
    config = (
        PPOConfig()
        .environment(ENV_ID, env_config={"max_cycles": 500})
        .env_runners(num_env_runners=args.env_runners, rollout_fragment_length="auto")
        .multi_agent(policies={"sumo"}, policy_mapping_fn=lambda agent_id, episode, **kw: "sumo")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"sumo": RLModuleSpec(model_config={"fcnet_hiddens": [64, 64]})}))
        .training(train_batch_size_per_learner=args.batch, minibatch_size=256, num_epochs=10, lr=3e-4)
        .callbacks(BoutOutcomes)
    )
    algo = config.build_algo()
    start = time.time()
    print(f"{'iter':>5} {'env steps':>10} {'return':>9} {'decided':>8} {'drawn':>6} {'shaping':>8} {'seconds':>8}")
    for i in range(args.iterations):
        weight = max(0.0, 1.0 - i / max(1, args.anneal_iters))
        set_shaping_weight(algo, weight)
        result = algo.train()
        runners = result["env_runners"]
        print(
            f"{i + 1:>5} {int(runners.get('num_env_steps_sampled_lifetime', 0)):>10} "
            f"{runners.get('episode_return_mean', float('nan')):>9.1f} {runners.get('bouts_decided', float('nan')):>8.2f} "
            f"{runners.get('bouts_drawn', float('nan')):>6.2f} {weight:>8.2f} {time.time() - start:>8.0f}",
            flush=True,
        )
    algo.stop()


if __name__ == "__main__":
    main()
