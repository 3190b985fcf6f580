"""Robots per Jolt world against speed: one ``JoltVectorEnv`` per packing, the same envs, seeds and
actions, stepped in turn a few steps at a time, each packing's time per step over the first's.

    python benchmarks/robots_per_world.py Reacher --sizes 8,16,32,64 --threads 1
    python benchmarks/robots_per_world.py Hopper --sizes 8,auto --threads 2

A bigger world shares Jolt's fixed cost per update among more robots, until the world's own size
costs more; the automatic choice (``src/pool/packing.h``) follows where that turns. Turns of a few
steps keep each comparison within the same moments of this VM, whose speed moves by tens of
percent from one second to the next. Results do not depend on the packing (tests check it), so
every env runs the same trajectories.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from joltgym.vector import JoltVectorEnv


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("task")
    p.add_argument("--sizes", default="8,16,32",
                   help="robots per world, comma-separated (auto: the pool's choice); the first is the reference")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--turns", type=int, default=120)
    p.add_argument("--steps", type=int, default=5, help="steps per turn")
    args = p.parse_args(argv)
    sizes = [None if s == "auto" else int(s) for s in args.sizes.split(",")]
    if args.turns < 2 or args.steps < 1:
        p.error("--turns must be >= 2 and --steps >= 1")

    envs = [JoltVectorEnv(args.envs, task=args.task, num_threads=args.threads, robots_per_world=k) for k in sizes]
    for env in envs:
        env.reset(seed=0)
    space = envs[0].action_space
    actions = np.random.default_rng(0).uniform(space.low, space.high, (8, *space.shape)).astype(np.float32)
    seconds = np.zeros((len(envs), args.turns))
    for turn in range(args.turns):
        for k, env in enumerate(envs):
            start = time.perf_counter()
            for s in range(args.steps):
                env.step(actions[(turn * args.steps + s) % len(actions)])
            seconds[k, turn] = time.perf_counter() - start
    last = [env.step(actions[0])[0] for env in envs]
    labels = [str(size) if size is not None else f"auto ({env.robots_per_world})" for size, env in zip(sizes, envs)]
    for env in envs:
        env.close()
    if not all(np.array_equal(last[0], obs) for obs in last[1:]):
        raise SystemExit("the packings ended on different observations")
    kept = seconds[:, args.turns // 10:]  # the first turns warm the caches
    print(f"{args.task}, {args.envs} envs, {args.threads} thread(s), {kept.shape[1]} turns of {args.steps} steps: "
          "robots per world, µs per step (median), time over the first's (median of turns)")
    for k, label in enumerate(labels):
        print(f"  {label:>9} {np.median(kept[k]) / args.steps * 1e6:10.0f} {np.median(kept[k] / kept[0]):8.3f}")


if __name__ == "__main__":
    main()
