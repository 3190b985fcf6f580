"""Resident memory per env: joltgym's JoltVectorEnv against EnvPool, every Gymnasium task.

Each measurement is a fresh process: VmRSS after the imports, then after constructing the vector env
of N envs, resetting it and stepping it --steps times (10; 2 threads) with zero actions, or uniformly
random ones with --random-actions (robots fall, lie and touch themselves, and envs reset); the growth
over N is the memory per env (the model's share included, which is nothing at N = 4,096). EnvPool runs
its `<Task>-v5`.

    python benchmarks/memory_per_env.py [--envs 4096] [--threads 2] [--tasks HalfCheetah,Humanoid]
                                        [--steps 10] [--random-actions] [--no-envpool] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

GYMNASIUM_TASKS = ["InvertedPendulum", "InvertedDoublePendulum", "Reacher", "Swimmer", "Hopper", "Walker2d",
                   "HalfCheetah", "Ant", "Humanoid", "HumanoidStandup"]

CHILD = r"""
import sys
import numpy as np
kind, task, n, threads, steps, random = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6] == "1"
if kind == "envpool":
    import envpool
else:
    from joltgym.vector import JoltVectorEnv


def rss_kb():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))


before = rss_kb()
if kind == "envpool":
    env = envpool.make(f"{task}-v5", env_type="gymnasium", num_envs=n, batch_size=n, num_threads=threads, seed=0)
    env.reset()
    shape, dtype = (n,) + env.action_space.shape, np.float64
else:
    env = JoltVectorEnv(n, task=task, num_threads=threads)
    env.reset(seed=0)
    shape, dtype = env.action_space.shape, np.float32
low, high = np.broadcast_to(env.action_space.low, shape), np.broadcast_to(env.action_space.high, shape)
rng = np.random.default_rng(0)
actions = np.zeros(shape, dtype)
for _ in range(steps):
    if random:
        actions[...] = rng.uniform(low, high)
    env.step(actions)
print(rss_kb() - before)
"""


def growth_kb(kind: str, task: str, n: int, threads: int, steps: int, random: bool) -> int | None:
    out = subprocess.run([sys.executable, "-c", CHILD, kind, task, str(n), str(threads), str(steps), str(int(random))],
                         capture_output=True, text=True)
    if out.returncode:
        print(f"{kind} {task}: {(out.stderr.strip().splitlines() or ['?'])[-1]}", file=sys.stderr)
        return None
    return int(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=4096)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tasks", default=",".join(GYMNASIUM_TASKS))
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--random-actions", action="store_true")
    parser.add_argument("--no-envpool", action="store_true")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    kinds = ["joltgym"] + ([] if args.no_envpool else ["envpool"])
    actions = "random" if args.random_actions else "zero"
    print(f"resident memory per env at {args.envs} envs, {args.threads} threads, {args.steps} steps of {actions} actions (KB)\n")
    print("| task | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    results = {}
    for task in args.tasks.split(","):
        row = {kind: growth_kb(kind, task, args.envs, args.threads, args.steps, args.random_actions) for kind in kinds}
        results[task] = {kind: (kb / args.envs if kb is not None else None) for kind, kb in row.items()}
        cells = [f"{results[task][k]:.1f}" if results[task][k] is not None else "-" for k in kinds]
        print(f"| {task} | " + " | ".join(cells) + " |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"envs": args.envs, "threads": args.threads, "steps": args.steps, "random_actions": args.random_actions,
                       "kb_per_env": results}, f, indent=1)


if __name__ == "__main__":
    main()
