"""What ``JoltVectorEnv.step`` spends in Python around its native step, call by call: the time of
each ``step`` less the time of the native ``step_arrays`` call inside it, median over the calls.

    python benchmarks/step_python_cost.py Reacher --envs 256 --threads 2

This is the pool's serial part that neither thread count nor packing shrinks, so it weighs most
where a step is cheapest (Reacher at 2 threads). Taken within each call, it does not depend on
the VM's speed from one second to the next as a ratio of two loops does. The reading includes
one Python call of the timing wrapper (a fraction of a microsecond).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from joltgym.vector import JoltVectorEnv


class _TimedPool:
    """The env's native pool, its step_arrays calls timed."""

    def __init__(self, pool):
        self._pool = pool
        self.native_ns: list[int] = []

    def __getattr__(self, name):
        return getattr(self._pool, name)

    def step_arrays(self, *args):
        start = time.perf_counter_ns()
        result = self._pool.step_arrays(*args)
        self.native_ns.append(time.perf_counter_ns() - start)
        return result


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("task")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--steps", type=int, default=3000)
    p.add_argument("--warmup", type=int, default=300, help="steps left out of the medians")
    args = p.parse_args(argv)
    if args.steps <= args.warmup:
        p.error("--steps must exceed --warmup")

    env = JoltVectorEnv(args.envs, task=args.task, num_threads=args.threads)
    env.reset(seed=0)
    space = env.action_space
    actions = np.random.default_rng(0).uniform(space.low, space.high, (8, *space.shape)).astype(np.float32)
    timed = _TimedPool(env._pool)
    env._pool = timed
    total_ns = []
    for i in range(args.steps):
        start = time.perf_counter_ns()
        env.step(actions[i % len(actions)])
        total_ns.append(time.perf_counter_ns() - start)
    env.close()
    total = np.array(total_ns[args.warmup:]) / 1e3
    native = np.array(timed.native_ns[args.warmup:]) / 1e3
    around = total - native
    print(f"{args.task}, {args.envs} envs, {args.threads} thread(s), {len(total)} steps: median µs per step call")
    print(f"  step {np.median(total):.1f}, native step_arrays {np.median(native):.1f}, "
          f"Python around it {np.median(around):.1f} ({np.median(around / total):.1%} of the step)")


if __name__ == "__main__":
    main()
