"""MuJoCo Playground's robots and the Control Suite's tasks: joltgym's native pool against EnvPool 1.2.5's
CPU ports, side by side.

Each contender runs in a fresh process of its own (EnvPool's Go1 holds about 50 MB per env), stepping
`--envs` envs with fixed random actions in [-1, 1]: joltgym's JoltVectorEnv (with Playground's
domain randomisation drawn at every reset, and without) and EnvPool's `<Task>-v1` at batch_size =
num_envs. Rounds are interleaved, so drift and neighbours hit every contender alike; the median of
the rounds is reported, per CPU-second (process time: what the run costs) and per wall-second.

    python benchmarks/bench_playground.py [--envs 256] [--threads 1,2] [--rounds 3] [--steps 200]
                                          [--tasks A,B | --tasks all | --tasks dmc] [--json out.json]

Tasks without a Playground randomisation run without the randomised contender ("all": every
Playground id; "dmc": every Control Suite id).

EnvPool's G1 holds about 120 MB per env: 256 of them need ~30 GB.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

TASKS = ["Go1JoystickFlatTerrain", "Go1JoystickRoughTerrain", "G1JoystickFlatTerrain"]

CHILD = r"""
import json, resource, sys, time
import numpy as np
kind, task, n, threads, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
if kind == "envpool":
    import envpool
    env = envpool.make_gymnasium(f"{task}-v1", num_envs=n, batch_size=n, num_threads=threads, seed=0)
    dtype = np.float64
    env.reset()
else:
    import joltgym
    from joltgym.vector import JoltVectorEnv
    env = JoltVectorEnv(n, task=task, num_threads=threads, randomize="playground" if kind == "joltgym+dr" else None)
    dtype = np.float32
    env.reset(seed=0)
space = getattr(env, "single_action_space", env.action_space)
actions = np.random.default_rng(0).uniform(-1, 1, (8, n, space.shape[-1])).astype(dtype)
for i in range(20):
    env.step(actions[i % 8])
cpu, wall = time.process_time(), time.perf_counter()
for i in range(steps):
    env.step(actions[i % 8])
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"cpu": n * steps / cpu, "wall": n * steps / wall,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run(kind: str, task: str, n: int, threads: int, steps: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, kind, task, str(n), str(threads), str(steps)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--tasks", default=",".join(TASKS), help="comma-separated task names")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    from joltgym.tasks import TASKS as SPECS, task_names

    families = {"all": "playground", "dmc": "dmc"}
    tasks = task_names(families[args.tasks]) if args.tasks in families else args.tasks.split(",")
    threads = [int(t) for t in args.threads.split(",")]

    def kinds_of(task: str) -> list[str]:
        return (["joltgym+dr"] if "playground" in SPECS[task].randomizations else []) + ["joltgym", "envpool"]

    results: dict[str, list[dict]] = {}
    for r in range(args.rounds):
        for task in tasks:
            kinds = kinds_of(task)
            for t in threads:
                order = kinds[r % len(kinds):] + kinds[: r % len(kinds)]
                for kind in order:
                    results.setdefault(f"{task}|{t}|{kind}", []).append(run(kind, task, args.envs, t, args.steps))
    rows = {}
    print("| task | threads | joltgym (randomised) per CPU-s | joltgym per CPU-s | EnvPool per CPU-s | "
          "ratio (randomised where it is, / EnvPool) | MB joltgym / EnvPool |")
    print("|---|---|---|---|---|---|---|")
    for task in tasks:
        kinds = kinds_of(task)
        for t in threads:
            med = {k: statistics.median(x["cpu"] for x in results[f"{task}|{t}|{k}"]) for k in kinds}
            rss = {k: max(x["rss_mb"] for x in results[f"{task}|{t}|{k}"]) for k in kinds}
            rows[f"{task}|{t}"] = {"median_cpu": med, "rss_mb": rss}
            ours = "joltgym+dr" if "joltgym+dr" in med else "joltgym"
            randomised = f"{med['joltgym+dr']:,.0f}" if "joltgym+dr" in med else "-"
            print(f"| {task} | {t} | {randomised} | {med['joltgym']:,.0f} | {med['envpool']:,.0f} | "
                  f"{med[ours] / med['envpool']:.2f}x | {rss[ours]:,.0f} / {rss['envpool']:,.0f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"envs": args.envs, "rounds": args.rounds, "raw": results, "summary": rows}, f, indent=1)


if __name__ == "__main__":
    main()
