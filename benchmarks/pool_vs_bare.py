"""The pool's cost over the bare C++ loop, directly: CPU time of ``JoltVectorEnv.step`` (one thread,
so the pool steps inline on the calling thread) against ``BareLoop.run`` on the same task, envs, seed
and actions, alternating. The two run the same trajectories (the same episodes, resets included), so
each round compares the same work.

    python benchmarks/pool_vs_bare.py HumanoidStandup --envs 16 --steps 300 --rounds 5

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
    p.add_argument("--batches", type=int, default=8,
                   help="random action batches both cycle through (0: zero actions); a Humanoid's cost depends on them")
    args = p.parse_args(argv)

    env = JoltVectorEnv(args.envs, task=args.task, num_threads=1)
    env.reset(seed=0)
    space = env.action_space
    rng = np.random.default_rng(0)
    actions = (rng.uniform(space.low, space.high, (args.batches, *space.shape)).astype(np.float32)
               if args.batches > 0 else np.zeros((1, *space.shape), np.float32))
    spec = task_spec(args.task)
    model = joltgym.load_model(spec.xml_file, solver=spec.solver)
    loop = _native.BareLoop(model.native, spec.make_task(model), args.envs,
                            max_episode_steps=spec.max_episode_steps, seed=0)
    per_step = 1e6 / (args.envs * args.steps)

    def pool() -> float:
        start = time.process_time()
        for i in range(args.steps):
            env.step(actions[i % len(actions)])
        return time.process_time() - start

    def bare() -> float:
        return loop.run(actions, args.steps)[1]

    print(f"{args.task}, {args.envs} envs x {args.steps} steps: µs per env step, pool / bare loop, efficiency")
    for _ in range(args.rounds):
        p_s, b_s = pool(), bare()
        print(f"  {p_s * per_step:8.2f} {b_s * per_step:8.2f}  {b_s / p_s:.3f}")
    env.close()


if __name__ == "__main__":
    main()
