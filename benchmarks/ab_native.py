"""Two builds of the native module side by side: CPU time per env step in the bare C++ loop.

    cp "$(python -c 'import joltgym._native as n; print(n.__file__)')" /tmp/before.so   # before a change
    ...rebuild...
    python benchmarks/ab_native.py /tmp/before.so [--tasks HumanoidStandup Humanoid] [--rounds 5]

Each round runs every build once per task, each in a fresh process (the build's module loaded
in place of the installed one), alternating which goes first, so drift and noisy neighbours hit
both alike; a run is ``run_bare_loop`` (envs packed as the pool packs them, random actions, no
Python) from reset for --steps steps, best of three, CPU seconds. Reports each build's median
microseconds per env step and the ratio.

Instruction counts (profile_step.py) are repeatable on a loaded machine but miss what latency
costs: walking a tree's parent links and skipping work that is cheap to count both changed
HumanoidStandup's count by under 1% while this measured it 8% faster.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

RUN = """
import importlib.util, sys, time
path, task, envs, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if path != "installed":
    spec = importlib.util.spec_from_file_location("joltgym._native", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.modules["joltgym._native"] = module
import joltgym
from joltgym import _native
from joltgym.tasks import task_spec
assert path == "installed" or _native.__file__ == path, _native.__file__
s = task_spec(task)
model = joltgym.load_model(s.xml_file, solver=s.solver)
native_task = s.make_task(model)
best = float("inf")
for _ in range(3):
    start = time.process_time()
    _native.run_bare_loop(model.native, native_task, envs, steps, max_episode_steps=1000, seed=0)
    best = min(best, time.process_time() - start)
print(best / (envs * steps) * 1e6)
"""


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("baseline", type=Path, help="the other build's _native shared library")
    p.add_argument("candidate", nargs="?", default="installed", help="a second library, or the installed module")
    p.add_argument("--tasks", nargs="+", default=["HumanoidStandup", "Humanoid", "Ant", "HalfCheetah", "Hopper"])
    p.add_argument("--envs", type=int, default=16)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--rounds", type=int, default=3)
    return p.parse_args(argv)


def time_build(path: str, task: str, envs: int, steps: int) -> float:
    out = subprocess.run([sys.executable, "-c", RUN, path, task, str(envs), str(steps)],
                         check=True, capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main(argv=None) -> None:
    args = parse_args(argv)
    if not args.baseline.is_file():
        sys.exit(f"ab_native.py: no library at {args.baseline}")
    builds = {"baseline": str(args.baseline.resolve()), "candidate": args.candidate}
    print(f"| task | baseline µs / env step | candidate | candidate / baseline |\n|---|---|---|---|")
    for task in args.tasks:
        times: dict[str, list[float]] = {name: [] for name in builds}
        for r in range(args.rounds):
            order = list(builds) if r % 2 == 0 else list(reversed(builds))
            for name in order:
                times[name].append(time_build(builds[name], task, args.envs, args.steps))
        base, cand = statistics.median(times["baseline"]), statistics.median(times["candidate"])
        print(f"| {task} | {base:.1f} | {cand:.1f} | {cand / base:.3f} |", flush=True)


if __name__ == "__main__":
    main()
