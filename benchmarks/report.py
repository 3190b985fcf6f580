"""The performance report: every task against EnvPool, MuJoCo's C rollout and Gymnasium's
AsyncVectorEnv, side by side in one run, with each task's accuracy beside its speed.

    python benchmarks/report.py                         # every task, ~25 min on 2 cores; writes benchmarks/report.md
    python benchmarks/report.py --tasks HalfCheetah Ant --rounds 5 --out /tmp/report.md
    python benchmarks/report.py --profile               # also where the time goes (needs valgrind)
    python benchmarks/report.py --solver fast --out benchmarks/report_fast.md   # the fast presets

Run it on an idle machine: it reports the load average before and after. For each task it runs
``bench_vector.py --task <Task> --sizes 16,256 --threads 1,2 --json ...`` in a fresh process
(contenders interleaved round by round), then measures accuracy in this process: the worst
joint-anchor separation over random actions (``measure_solver.py``) and zero-action episode
lengths against MuJoCo's from the same reset states (10 seeds). ``--profile`` adds
``profile_step.py``'s instructions per env step by stage.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import joltgym  # noqa: E402
from joltgym.tasks import TASKS, task_spec  # noqa: E402

SIZE, ASYNC_SIZE = 256, 16


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=list(TASKS), choices=list(TASKS))
    p.add_argument("--rounds", type=int, default=7, help="interleaved rounds per size")
    p.add_argument("--round-seconds", type=float, default=0.3)
    p.add_argument("--anchor-steps", type=int, default=5000, help="random-action steps for the anchor check")
    p.add_argument("--profile", action="store_true", help="instructions per env step by stage (valgrind)")
    p.add_argument("--solver", default="default", choices=["default", "fast"],
                   help="joltgym's solver preset (tasks without a fast one run their default)")
    p.add_argument("--out", type=Path, default=HERE / "report.md")
    return p.parse_args(argv)


# ---------------------------------------------------------------- speed
def bench(task: str, args) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.json"
        cmd = [sys.executable, str(HERE / "bench_vector.py"), "--task", task, "--sizes", f"{ASYNC_SIZE},{SIZE}",
               "--threads", "1,2", "--rounds", str(args.rounds), "--round-seconds", str(args.round_seconds),
               "--async-max", str(ASYNC_SIZE), "--mem-sizes", "", "--json", str(path), "--solver", args.solver]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return json.loads(path.read_text())


def rows(result: dict, n: int, kind: str, threads: int | None = None) -> list[dict]:
    return [c for c in result["sizes"][str(n)] if c["kind"] == kind and (threads is None or c["threads"] == threads)]


def median_rate(result: dict, n: int, kind: str, threads: int | None = None, cpu: bool = False) -> float | None:
    """The best contender of a kind (at a thread count), by its median round."""
    key = "cpu_rates" if cpu else "wall_rates"
    rates = [statistics.median(c[key]) for c in rows(result, n, kind, threads)]
    return max(rates) if rates else None


def per_round(result: dict, n: int, a: tuple, b: tuple, rates: str = "wall_rates") -> list[float]:
    """Round-by-round ratios of contender a over contender b (the same interleaved round)."""
    ra, rb = rows(result, n, *a), rows(result, n, *b)
    if not ra or not rb:
        return []
    return [x / y for x, y in zip(ra[0][rates], rb[0][rates])]


def round_median(ratios: list[float], scale: float = 1.0) -> float | None:
    return statistics.median(ratios) / scale if ratios else None


def ratio(x: float | None, y: float | None) -> float | None:
    return x / y if x and y else None


def speed_row(result: dict) -> dict:
    jolt1 = median_rate(result, SIZE, "jolt", 1, cpu=True)
    jolt2 = median_rate(result, SIZE, "jolt", 2, cpu=True)
    scaling = per_round(result, SIZE, ("jolt", 2), ("jolt", 1))
    # Efficiency round by round: the pool against the bare loop of the same round, a few tenths of a
    # second apart. The ratio of the two medians mixed moments minutes apart on a shared VM (this
    # EPYC's 1-thread efficiency moved 80-133% between two reports with nothing changed). One thread:
    # CPU time, as the speed columns (the pool steps inline on the calling thread, so its wall-clock
    # differs from its CPU time only by the moments this VM took the core away: HalfCheetah's wall
    # ratio read 91% in two reports where its CPU ratio measured 0.97-1.02). Two threads: wall-clock
    # against twice the bare loop, which is what a second thread should buy.
    return {
        "jolt_cpu": jolt1,
        "envpool_1": ratio(jolt1, median_rate(result, SIZE, "envpool", 1, cpu=True)),
        "envpool_2": ratio(jolt2, median_rate(result, SIZE, "envpool", 2, cpu=True)),
        "rollout": ratio(max(filter(None, [jolt1, jolt2]), default=None), median_rate(result, SIZE, "rollout", cpu=True)),
        "async": ratio(median_rate(result, ASYNC_SIZE, "jolt"), median_rate(result, ASYNC_SIZE, "async")),
        "eff_1": round_median(per_round(result, SIZE, ("jolt", 1), ("bare", 1), "cpu_rates")),
        "eff_2": round_median(per_round(result, SIZE, ("jolt", 2), ("bare", 1)), 2.0),
        "scaling": (statistics.median(scaling), min(scaling), max(scaling)) if scaling else None,
    }


# ---------------------------------------------------------------- accuracy
def worst_anchor_mm(task: str, steps: int, solver: str) -> float:
    from measure_solver import measure

    worst, _, _ = measure(task, task_spec(task).resolve_solver(solver), steps, seed=7)
    return worst * 1000


def zero_action_lengths(task: str, solver: str, seeds: int = 10, limit: int = 1000) -> tuple[float, float] | None:
    """Mean zero-action episode length, ours and MuJoCo's, ours started from MuJoCo's reset state
    of each seed (None if neither ever ends: the task has no termination)."""
    import gymnasium as gym

    def length(env) -> int:
        zero = np.zeros(env.action_space.shape, np.float32)
        for n in range(1, limit + 1):
            if env.step(zero)[2]:
                return n
        return limit

    theirs, ours = gym.make(f"{task}-v5").unwrapped, gym.make(task_spec(task).env_id, solver=solver).unwrapped
    lengths = np.zeros((seeds, 2))
    for seed in range(seeds):
        theirs.reset(seed=seed)
        qpos, qvel = theirs.data.qpos.copy(), theirs.data.qvel.copy()
        ours.reset(seed=seed)
        ours.set_state(qpos, qvel)
        lengths[seed] = length(ours), length(theirs)
    theirs.close()
    ours.close()
    return None if (lengths == limit).all() else tuple(lengths.mean(0))


def profile(task: str, solver: str) -> dict[str, int] | None:
    import profile_step

    stages = profile_step.stage_costs(profile_step.function_costs(task, 60, [f"preset={solver}"]))
    return {stage: cost // (profile_step.NUM_ENVS * 60) for stage, cost in stages.items()}


# ---------------------------------------------------------------- markdown
def fx(value: float | None, goal: float | None = None) -> str:
    if value is None:
        return "–"
    mark = "" if goal is None else (" ✓" if value >= goal else "")
    return f"{value:.2f}x{mark}"


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def write(args, results: dict[str, dict], header: dict) -> str:
    lines = [
        "# joltgym performance report",
        "",
        f"Generated by `python benchmarks/report.py{' --profile' if args.profile else ''}"
        f"{' --solver ' + args.solver if args.solver != 'default' else ''}` on {header['date']}: "
        f"{header['cpu']}, {header['cpu_count']} CPUs; load average {header['load_before']} before, "
        f"{header['load_after']} after; joltgym {header['versions']['joltgym']}, MuJoCo {header['versions']['mujoco']}, "
        f"EnvPool {header['versions']['envpool'] or 'not installed'}, Gymnasium {header['versions']['gymnasium']}; "
        f"{args.rounds} interleaved rounds of ~{args.round_seconds} s per contender, medians.",
        "",
        f"Speed at {SIZE} envs, per CPU-second (joltgym's `JoltVectorEnv` over the peer at the same thread count; "
        f"MuJoCo's C rollout is raw physics without task logic, each side at its best thread count). "
        f"AsyncVectorEnv: wall-clock at {ASYNC_SIZE} envs. Pool efficiency: the pool's rate over the bare C++ "
        f"loop's, per CPU-second at 1 thread and wall-clock against twice the loop at 2, the median of the rounds' ratios. Scaling: 2 threads over 1, wall-clock, median [min–max] over rounds. ✓ marks a met target.",
        "",
        "| task | env-steps / CPU-s | vs EnvPool, 1 thread (≥ 1) | 2 threads (≥ 1) | vs MuJoCo rollout | "
        "vs AsyncVectorEnv (≥ 5) | pool efficiency 1 / 2 threads (≥ 95%) | 2-thread scaling (≥ 1.85) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for task, r in results.items():
        s = r["speed"]
        scaling = "–" if not s["scaling"] else (
            f"{s['scaling'][0]:.2f}x{' ✓' if s['scaling'][0] >= 1.85 else ''} [{s['scaling'][1]:.2f}–{s['scaling'][2]:.2f}]")
        lines.append(
            f"| {task} | {s['jolt_cpu']:,.0f} | {fx(s['envpool_1'], 1.0)} | {fx(s['envpool_2'], 1.0)} | {fx(s['rollout'])} | "
            f"{fx(s['async'], 5.0)} | {pct(s['eff_1'])} / {pct(s['eff_2'])} | {scaling} |")
    lines += [
        "",
        f"Accuracy, same run: worst separation of a joint's two anchor copies over {args.anchor_steps} random-action "
        "steps (seed 7; goal < 2 mm), and the mean zero-action episode length from the same 10 reset states as "
        "MuJoCo's (goal within 10%; – where neither engine ends the episode).",
        "",
        f"| task | {args.solver} solver (sub-steps / velocity / position iterations) | worst anchor separation | "
        "zero-action length, ours / MuJoCo |",
        "|---|---|---|---|",
    ]
    for task, r in results.items():
        sol = task_spec(task).resolve_solver(args.solver)
        z = r["zero_action"]
        zero = "–" if z is None else f"{z[0]:.0f} / {z[1]:.0f} ({z[0] / z[1]:.2f})"
        how = ", articulated" if sol.articulated_joints else ""
        lines.append(f"| {task} | {sol.substeps} / {sol.velocity_iterations} / {sol.position_iterations}{how} | "
                     f"{r['anchor_mm']:.1f} mm | {zero} |")
    if args.profile:
        stages = sorted({stage for r in results.values() for stage in r["profile"]})
        lines += ["", "Where the time goes: instructions per env step by stage (`python benchmarks/profile_step.py <Task>`, "
                  "callgrind, 4 envs x 60 steps in the bare C++ loop).", "",
                  "| task | total | " + " | ".join(stages) + " |", "|---|---|" + "---|" * len(stages)]
        for task, r in results.items():
            total = sum(r["profile"].values())
            cells = " | ".join(f"{r['profile'].get(stage, 0) / total:.0%}" for stage in stages)
            lines.append(f"| {task} | {total / 1e6:.2f} M | {cells} |")
    lines.append("")
    return "\n".join(lines)


def main(argv=None) -> None:
    args = parse_args(argv)
    load = lambda: ", ".join(f"{x:.2f}" for x in os.getloadavg())  # noqa: E731
    header = {"date": date.today().isoformat(), "load_before": load()}
    results: dict[str, dict] = {}
    for task in args.tasks:
        start = time.perf_counter()
        result = bench(task, args)
        header.update(cpu=result["machine"]["cpu"], cpu_count=result["machine"]["cpu_count"], versions=result["versions"])
        results[task] = {"speed": speed_row(result), "anchor_mm": worst_anchor_mm(task, args.anchor_steps, args.solver),
                         "zero_action": zero_action_lengths(task, args.solver)}
        if args.profile:
            results[task]["profile"] = profile(task, args.solver)
        s = results[task]["speed"]
        print(f"{task}: vs EnvPool {fx(s['envpool_1'])} (1 thread) {fx(s['envpool_2'])} (2), "
              f"vs rollout {fx(s['rollout'])}, vs AsyncVectorEnv {fx(s['async'])}, "
              f"anchors {results[task]['anchor_mm']:.1f} mm ({time.perf_counter() - start:.0f} s)", flush=True)
    header["load_after"] = load()
    text = write(args, results, header)
    args.out.write_text(text)
    print(f"\nwrote {args.out}\n\n{text}")


if __name__ == "__main__":
    main()
