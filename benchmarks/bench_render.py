"""Frames per second of the native renderer at 480x480 on one core, for every task.

    python benchmarks/bench_render.py [--rounds 5] [--frames 50] [--size 480]

Each round draws every task once after the robot has moved (seeded random actions), so the tasks
are measured side by side; the table gives the median over rounds and the spread. Targets (the
rendering issue): HalfCheetah >= 200 frames/s, Humanoid >= 100.
"""

from __future__ import annotations

import argparse
import time

import gymnasium as gym
import numpy as np

import joltgym  # noqa: F401
from joltgym.tasks import TASKS

TARGETS = {"HalfCheetah": 200.0, "Humanoid": 100.0}


def prepared(name: str, size: int):
    env = gym.make(f"joltgym/{name}-v0", render_mode="rgb_array", width=size, height=size).unwrapped
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(20):
        env.step(rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32))
    return env


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--frames", type=int, default=50)
    p.add_argument("--size", type=int, default=480)
    args = p.parse_args()
    envs = {name: prepared(name, args.size) for name in TASKS}
    rates: dict[str, list[float]] = {name: [] for name in envs}
    for _ in range(args.rounds):
        for name, env in envs.items():
            env.render()
            start = time.process_time()
            for _ in range(args.frames):
                env.render()
            rates[name].append(args.frames / (time.process_time() - start))
    print(f"{args.size}x{args.size} rgb frames per CPU-second, median of {args.rounds} rounds (min-max)")
    print(f"| task | frames/s | spread | target |\n|---|---|---|---|")
    for name, r in rates.items():
        target = TARGETS.get(name)
        verdict = "" if target is None else f"{target:.0f}: {'PASS' if np.median(r) >= target else 'MISS'}"
        print(f"| {name} | {np.median(r):.0f} | {min(r):.0f}-{max(r):.0f} | {verdict} |")


if __name__ == "__main__":
    main()
