"""Multi-agent throughput per CPU-second, side by side in one process:

  joltgym  MultiAgentVectorEnv(256 envs, 1 thread) of joltgym/Ma<Robot>-v0 (factorised robot, 8 envs per Jolt world)
  joltgym  JoltVectorEnv(256 envs, 1 thread) of the same robot's single-agent task
  MaMuJoCo gymnasium_robotics.mamujoco_v1.parallel_env(robot, conf) stepped in a Python loop

Rounds are interleaved (every contender once per round, rotating the order) and the median over
rounds is reported: env-steps and agent-steps per CPU-second, the multi-agent layer's cost over the
single-agent pool on the same robot, and the ratio to MaMuJoCo.

    python benchmarks/bench_marl.py [--rounds 3] [--steps 200] [--robots HalfCheetah:2x3,Ant:2x4,Humanoid:9|8]
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np

import joltgym  # noqa: F401
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.vector import JoltVectorEnv

WORLDS = 256


def ours_multi(robot: str, conf: str, steps: int):
    env = MultiAgentVectorEnv(f"joltgym/Ma{robot}-v0", WORLDS, num_threads=1, copy=False, agent_conf=conf)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    batches = [rng.uniform(-0.4, 0.4, (WORLDS, env.task.num_agents, env.task.max_act_dim)).astype(np.float32)
               for _ in range(4)]

    def run() -> float:
        start = time.process_time()
        for i in range(steps):
            env.step(batches[i % 4])
        return time.process_time() - start

    return run, WORLDS * steps, env.task.num_agents


def ours_single(robot: str, conf: str, steps: int):
    env = JoltVectorEnv(WORLDS, task=robot, num_threads=1, copy=False)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    batches = [rng.uniform(-0.4, 0.4, (WORLDS, env.single_action_space.shape[0])).astype(np.float32)
               for _ in range(4)]

    def run() -> float:
        start = time.process_time()
        for i in range(steps):
            env.step(batches[i % 4])
        return time.process_time() - start

    return run, WORLDS * steps, 1


def mamujoco(robot: str, conf: str, steps: int):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from gymnasium_robotics import mamujoco_v1

        env = mamujoco_v1.parallel_env(robot, conf)
    env.reset(seed=0)
    for agent in env.possible_agents:
        env.action_space(agent).seed(0)
    mj_steps = max(20, steps * WORLDS // 64)  # one env: fewer steps for a comparable duration

    def run() -> float:
        start = time.process_time()
        for _ in range(mj_steps):
            if not env.agents:
                env.reset()
            env.step({a: env.action_space(a).sample() for a in env.agents})
        return time.process_time() - start

    return run, mj_steps, len(env.possible_agents)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200, help="vector steps per round for the pools")
    parser.add_argument("--robots", default="HalfCheetah:2x3,Ant:2x4,Humanoid:9|8")
    args = parser.parse_args()
    print(f"{WORLDS} worlds, 1 thread; per CPU-second; median of {args.rounds} interleaved rounds\n")
    print(f"{'robot':<18}{'contender':<34}{'env-steps/CPU-s':>16}{'agent-steps/CPU-s':>19}")
    for item in args.robots.split(","):
        robot, conf = item.split(":")
        contenders = {
            "joltgym MultiAgentVectorEnv": ours_multi(robot, conf, args.steps),
            "joltgym JoltVectorEnv (1 agent)": ours_single(robot, conf, args.steps),
            "MaMuJoCo parallel_env": mamujoco(robot, conf, args.steps),
        }
        rates: dict[str, list[float]] = {name: [] for name in contenders}
        names = list(contenders)
        for r in range(args.rounds):
            for name in names[r % len(names):] + names[: r % len(names)]:
                run, env_steps, _ = contenders[name]
                rates[name].append(env_steps / run())
        median = {name: statistics.median(v) for name, v in rates.items()}
        for name, (_, _, agents) in contenders.items():
            print(f"{robot + ' ' + conf:<18}{name:<34}{median[name]:>16,.0f}{median[name] * agents:>19,.0f}")
        multi, single, theirs = (median[n] for n in names)
        print(f"{'':<18}multi-agent layer cost over the single-agent pool: {single / multi - 1:+.1%}"
              f" (spread over rounds {min(rates[names[1]]) / max(rates[names[0]]) - 1:+.1%} .. "
              f"{max(rates[names[1]]) / min(rates[names[0]]) - 1:+.1%})")
        print(f"{'':<18}joltgym multi-agent vs MaMuJoCo: {multi / theirs:.1f}x env-steps per CPU-second\n")


if __name__ == "__main__":
    main()
