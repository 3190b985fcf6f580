"""Saved env states (get_state / set_state): bytes per state, and the cost of saving and restoring
them against a step, for every single-agent task and multi-agent id.

Per task: a vector env of N envs on one thread, reset and stepped 20 times; then the mean time of
get_state() and set_state() over all envs, per env, against the mean time of a step per env.

    python benchmarks/state_sizes.py [--envs 64] [--rounds 20] [--tasks Hopper,Humanoid] [--no-marl]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import joltgym  # noqa: F401
from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.tasks import TASKS
from joltgym.vector import JoltVectorEnv


def _per_env_us(fn, rounds: int, n: int) -> float:
    start = time.perf_counter()
    for _ in range(rounds):
        fn()
    return (time.perf_counter() - start) / rounds / n * 1e6


def measure(env, actions: np.ndarray, rounds: int) -> tuple[int, float, float, float]:
    n = env.num_envs
    env.reset(seed=0)
    for _ in range(20):
        env.step(actions)
    states = env.get_state()
    size = max(len(s) for s in states)
    step_us = _per_env_us(lambda: env.step(actions), rounds, n)
    get_us = _per_env_us(env.get_state, rounds, n)
    set_us = _per_env_us(lambda: env.set_state(states), rounds, n)
    env.close()
    return size, get_us, set_us, step_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--tasks", default=",".join(sorted(TASKS)))
    parser.add_argument("--no-marl", action="store_true")
    args = parser.parse_args()
    n = args.envs
    print(f"{n} envs, 1 thread; times per env (µs)\n")
    print("| env | bytes per state | get_state | set_state | step |")
    print("|---|---:|---:|---:|---:|")
    for task in args.tasks.split(","):
        env = JoltVectorEnv(n, task=task, num_threads=1)
        space = env.single_action_space
        actions = np.random.default_rng(0).uniform(space.low, space.high, (n, space.shape[0])).astype(np.float32)
        size, get_us, set_us, step_us = measure(env, actions, args.rounds)
        print(f"| {task} | {size:,} | {get_us:.1f} | {set_us:.1f} | {step_us:.1f} |")
    if args.no_marl:
        return
    for spec in MULTI_AGENT_TASKS.values():
        env = MultiAgentVectorEnv(spec.env_id, n, num_threads=1)
        actions = np.zeros((n, env.task.num_agents, env.task.max_act_dim), np.float32)
        size, get_us, set_us, step_us = measure(env, actions, args.rounds)
        print(f"| {spec.env_id} | {size:,} | {get_us:.1f} | {set_us:.1f} | {step_us:.1f} |")


if __name__ == "__main__":
    main()
