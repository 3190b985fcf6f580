"""The pool's cost over the bare C++ loop, directly: ``JoltVectorEnv.step`` against ``BareLoop.run``
on the same task, envs, seed, actions and thread count, alternating. The two run the same
trajectories (the same episodes, resets included), so each round compares the same work.

    python benchmarks/pool_vs_bare.py HumanoidStandup --envs 16 --steps 300 --rounds 5
    python benchmarks/pool_vs_bare.py Reacher --threads 2 --steps 200 --rounds 9

One thread compares CPU time (the pool steps inline on the calling thread). More compare wall-clock,
as report.py does: the bare loop's threads wait at a barrier after every step, as a synchronous
vector step must, and the pool's serial part (Python, the binding, handing out the step) shows as
the difference.

Prints each round's microseconds per env step of both and their ratio (bare / pool: the pool's
efficiency). report.py's column takes the same ratio from its interleaved 0.3 s rounds.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import joltgym
from joltgym import _native
from joltgym.tasks import task_spec
from joltgym.vector import JoltVectorEnv


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("task")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--steps", type=int, default=60, help="env steps per env per round")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--threads", type=int, default=1, help="both sides' threads (1: CPU time, more: wall-clock)")
    p.add_argument("--batches", type=int, default=8,
                   help="random action batches both cycle through (0: zero actions); a Humanoid's cost depends on them")
    args = p.parse_args(argv)

    if args.threads < 1:
        p.error(f"--threads must be >= 1, got {args.threads}")
    env = JoltVectorEnv(args.envs, task=args.task, num_threads=args.threads)
    env.reset(seed=0)
    space = env.action_space
    rng = np.random.default_rng(0)
    actions = (rng.uniform(space.low, space.high, (args.batches, *space.shape)).astype(np.float32)
               if args.batches > 0 else np.zeros((1, *space.shape), np.float32))
    spec = task_spec(args.task)
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    loop = _native.BareLoop(model.native, spec.make_task(model), args.envs,
                            max_episode_steps=spec.max_episode_steps, seed=0, worlds=len(env._pool.world_sizes))
    per_step = 1e6 / (args.envs * args.steps)

    clock, which = (time.process_time, 1) if args.threads == 1 else (time.perf_counter, 0)

    last = {}

    def pool() -> float:
        start = clock()
        for i in range(args.steps):
            last["obs"] = env.step(actions[i % len(actions)])[0]
        return clock() - start

    def bare() -> float:
        return loop.run(actions, args.steps, num_threads=args.threads)[which]

    kind = "CPU" if args.threads == 1 else "wall-clock"
    print(f"{args.task}, {args.envs} envs x {args.steps} steps, {args.threads} thread(s): {kind} µs per env step, "
          "pool / bare loop, efficiency")
    ratios = []
    for _ in range(args.rounds):
        p_s, b_s = pool(), bare()
        ratios.append(b_s / p_s)
        print(f"  {p_s * per_step:8.2f} {b_s * per_step:8.2f}  {b_s / p_s:.3f}")
    print(f"median efficiency {np.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]")
    # Both must have stepped the same trajectories, or the ratios compare different work.
    same = np.array_equal(last["obs"], loop.observations)
    print(f"same trajectories: {'yes' if same else 'NO'}")
    if not same:
        raise SystemExit("the pool and the bare loop ended on different observations")
    env.close()


if __name__ == "__main__":
    main()
