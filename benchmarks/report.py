"""The performance report: every task against EnvPool, MuJoCo's C rollout and Gymnasium's
AsyncVectorEnv, side by side in one run, with each task's accuracy beside its speed.

    python benchmarks/report.py                         # every task, ~25 min on 2 cores; writes benchmarks/report.md
    python benchmarks/report.py --tasks HalfCheetah Ant --rounds 5 --out /tmp/report.md
    python benchmarks/report.py --profile               # also where the time goes (needs valgrind)
    python benchmarks/report.py --solver fast --out benchmarks/report_fast.md   # the fast presets

The "before" columns come from ``report_before.json``, written by this script run on the build that
issue 12 started from (a570cb7, 2026-12-01), without the speed part, which needs today's benchmark
contenders (that build's speed is the issue's own table, quoted):

    PYTHONPATH=<that build> python benchmarks/report.py --no-speed --profile --collect-env-instance \
        --json benchmarks/report_before.json

Run it on an idle machine: it reports the load average before and after. For each task it runs
``bench_vector.py --task <Task> --sizes 16,256 --threads 1,2 --json ...`` in a fresh process
(contenders interleaved round by round), then measures accuracy in this process: the worst
joint-anchor separation over random actions (``measure_solver.py``) and zero-action episode
lengths against MuJoCo's from the same reset states (10 seeds), and the open-loop comparison
with MuJoCo (``examples/compare_with_mujoco.py``). ``--profile`` adds ``profile_step.py``'s
instructions per env step by stage.
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
sys.path.insert(0, str(HERE.parent / "examples"))

import joltgym  # noqa: E402
from joltgym.tasks import TASKS, task_spec  # noqa: E402

SIZE, ASYNC_SIZE = 256, 16
BEFORE = HERE / "report_before.json"
# Issue 12's table, measured when it was filed on the build report_before.json describes: one thread,
# 256 envs, per CPU-second, against EnvPool 1.2.5 and MuJoCo's C rollout.
SPEED_AT_ISSUE_START = {
    "HalfCheetah": ("0.29–0.31x", "0.19–0.26x"), "Ant": ("0.48–0.65x", "0.47–0.51x"),
    "Reacher": ("0.26–0.35x", "0.30x"), "InvertedDoublePendulum": ("0.16–0.31x", "0.33x"),
    "InvertedPendulum": ("0.75–0.86x", "1.26x"), "HumanoidStandup": ("1.1–1.4x", "1.09x"),
    "Swimmer": ("1.6–2.0x", "1.3–1.5x"), "Humanoid": ("1.7–1.9x", "2.3–2.4x"),
    "Walker2d": ("2.0–2.4x", "2.0–2.3x"), "Hopper": ("2.4–2.6x", "2.6–3.1x"),
}


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=list(TASKS), choices=list(TASKS))
    p.add_argument("--rounds", type=int, default=7, help="interleaved rounds per size")
    p.add_argument("--round-seconds", type=float, default=0.3)
    p.add_argument("--anchor-steps", type=int, default=5000, help="random-action steps for the anchor check")
    p.add_argument("--profile", action="store_true", help="instructions per env step by stage (valgrind)")
    p.add_argument("--solver", default="default", choices=["default", "fast"],
                   help="joltgym's solver preset (only the tasks that have it run)")
    p.add_argument("--out", type=Path, default=HERE / "report.md")
    p.add_argument("--no-speed", action="store_true", help="accuracy (and --profile) only: for a build from before "
                   "the speed contenders existed, recorded with --json")
    p.add_argument("--collect-env-instance", action="store_true",
                   help="--profile counts inside EnvInstance::Step/Reset (builds from before EnvGroup)")
    p.add_argument("--json", type=Path, default=None, help="also write the measurements here")
    p.add_argument("--label", default=None, help="what build this is, for --json (default: its git commit)")
    p.add_argument("--before", type=Path, default=BEFORE if BEFORE.exists() else None,
                   help="measurements of the build before (--json of that build) for the before columns")
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
    # The same work as two processes, one after the other and then at once, in the same rounds: the
    # scaling this VM's two cores give with nothing shared (no memory, lock or barrier), the reference
    # for a pool in one process: one that shares too much falls below it by more than the rounds'
    # noise. On this Xeon VM, 1-thread rates alone move by tens of percent from round to round, and
    # the two cores' shared caches and host cost more when both are busy.
    machine = per_round(result, SIZE, ("machine", 2), ("machine", 1))
    # Efficiency round by round: the pool against the bare loop of the same round, a few tenths of a
    # second apart. The ratio of the two medians mixed moments minutes apart on a shared VM (this
    # EPYC's 1-thread efficiency moved 80-133% between two reports with nothing changed). One thread:
    # CPU time, as the speed columns (the pool steps inline on the calling thread, so its wall-clock
    # differs from its CPU time only by the moments this VM took the core away: HalfCheetah's wall
    # ratio read 91% in two reports where its CPU ratio measured 0.97-1.02). Two threads: wall-clock
    # against the bare loop on two threads, a barrier after every step: the pool's own cost, without
    # the machine's (the scaling column has both).
    return {
        "jolt_cpu": jolt1,
        "envpool_1": ratio(jolt1, median_rate(result, SIZE, "envpool", 1, cpu=True)),
        "envpool_2": ratio(jolt2, median_rate(result, SIZE, "envpool", 2, cpu=True)),
        "rollout": ratio(max(filter(None, [jolt1, jolt2]), default=None), median_rate(result, SIZE, "rollout", cpu=True)),
        "async": ratio(median_rate(result, ASYNC_SIZE, "jolt"), median_rate(result, ASYNC_SIZE, "async")),
        "eff_1": round_median(per_round(result, SIZE, ("jolt", 1), ("bare", 1), "cpu_rates")),
        "eff_2": round_median(per_round(result, SIZE, ("jolt", 2), ("bare", 2))),
        "scaling": (statistics.median(scaling), min(scaling), max(scaling)) if scaling else None,
        "machine_scaling": (statistics.median(machine), min(machine), max(machine)) if machine else None,
    }


# ---------------------------------------------------------------- accuracy
def worst_anchor_mm(task: str, steps: int, solver: str) -> float:
    from measure_solver import measure

    worst, _, _ = measure(task, solver_of(task, solver), steps, seed=7)
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

    kwargs = {} if solver == "default" else {"solver": solver}
    theirs, ours = gym.make(f"{task}-v5").unwrapped, gym.make(task_spec(task).env_id, **kwargs).unwrapped
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


def open_loop(task: str, steps: int = 1000) -> dict:
    """compare_with_mujoco's sequences from init_qpos in both engines: how many end within 10% of
    MuJoCo's episode length, and the worst joint-range gap (rad or m), median and max over them."""
    from compare_with_mujoco import compare, joint_gap

    results = compare(task, steps)
    gaps = [joint_gap(r["MuJoCo"], r["joltgym"]) for r in results.values()]
    agree = sum(abs(r["joltgym"]["steps"] - r["MuJoCo"]["steps"]) <= 0.1 * r["MuJoCo"]["steps"] for r in results.values())
    return {"sequences": len(results), "lengths_agree": agree, "gap_median": statistics.median(gaps), "gap_max": max(gaps)}


def profile(task: str, solver: str, collect: list[str] | None) -> dict[str, float]:
    """Instructions per env step by stage."""
    import profile_step

    steps = 60
    overrides = [] if solver == "default" else [f"preset={solver}"]
    costs = profile_step.function_costs(task, steps, overrides, collect=collect)
    return {stage: cost / (profile_step.NUM_ENVS * steps) for stage, cost in profile_step.stage_costs(costs).items()}


# ---------------------------------------------------------------- markdown
def fx(value: float | None, goal: float | None = None) -> str:
    if value is None:
        return "–"
    mark = "" if goal is None else (" ✓" if value >= goal else "")
    return f"{value:.2f}x{mark}"


def pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def solver_of(task: str, solver: str):
    return task_spec(task).resolve_solver(solver)


def speed_table(results: dict[str, dict]) -> list[str]:
    lines = [
        "| task | env-steps / CPU-s | vs EnvPool, 1 thread (≥ 1) | 2 threads (≥ 1) | vs MuJoCo rollout | "
        "vs AsyncVectorEnv (≥ 5) | pool efficiency 1 / 2 threads (≥ 95%) | 2-thread scaling (≥ 1.85) | "
        "the machine's: two processes | at the issue's start: vs EnvPool, 1 thread / vs MuJoCo rollout |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for task, r in results.items():
        s = r["speed"]
        scaling = "–" if not s["scaling"] else (
            f"{s['scaling'][0]:.2f}x{' ✓' if s['scaling'][0] >= 1.85 else ''} [{s['scaling'][1]:.2f}–{s['scaling'][2]:.2f}]")
        machine = s.get("machine_scaling")
        machine = "–" if not machine else f"{machine[0]:.2f}x [{machine[1]:.2f}–{machine[2]:.2f}]"
        eff = " / ".join(f"{pct(e)}{' ✓' if e is not None and e >= 0.95 else ''}" for e in (s["eff_1"], s["eff_2"]))
        start = " / ".join(SPEED_AT_ISSUE_START.get(task, ("–", "–")))
        lines.append(
            f"| {task} | {s['jolt_cpu']:,.0f} | {fx(s['envpool_1'], 1.0)} | {fx(s['envpool_2'], 1.0)} | {fx(s['rollout'])} | "
            f"{fx(s['async'], 5.0)} | {eff} | {scaling} | {machine} | {start} |")
    return lines


def accuracy_table(args, results: dict[str, dict], before: dict | None) -> list[str]:
    def zero(z) -> str:
        return "–" if z is None else f"{z[0]:.0f} / {z[1]:.0f} ({z[0] / z[1]:.2f})"

    def loop(o) -> str:
        return "–" if o is None else f"{o['lengths_agree']} of {o['sequences']}; {o['gap_median']:.3f} [{o['gap_max']:.3f}]"

    def was(task: str, key: str, show) -> str:
        old = (before or {}).get("results", {}).get(task)
        return "" if before is None else f" (before: {show(old[key]) if old and key in old else '–'})"

    return [
        f"| task | {args.solver} solver (sub-steps / velocity / position iterations) | worst anchor separation | "
        "zero-action length, ours / MuJoCo | open loop: lengths within 10% of MuJoCo's; joint-range gap, median [max] |",
        "|---|---|---|---|---|",
    ] + [
        f"| {task} | {sol.substeps} / {sol.velocity_iterations} / {sol.position_iterations}"
        f"{', articulated' if sol.articulated_joints else ''}{', mujoco_euler' if sol.mujoco_euler else ''} | "
        f"{r['anchor_mm']:.1f} mm{was(task, 'anchor_mm', lambda v: f'{v:.1f} mm')} | "
        f"{zero(r['zero_action'])}{was(task, 'zero_action', zero)} | "
        f"{loop(r['open_loop'])}{was(task, 'open_loop', loop)} |"
        for task, r in results.items() for sol in [solver_of(task, args.solver)]
    ]


def profile_table(results: dict[str, dict], before: dict | None) -> list[str]:
    """Instructions per env step by stage, thousands; the build before on the line above each task's."""
    rows = []
    for task, r in results.items():
        old = (before or {}).get("results", {}).get(task, {}).get("profile")
        if old:
            rows.append((task, "before", old))
        rows.append((task, "now", r["profile"]))
    stages = sorted({stage for _, _, prof in rows for stage in prof}, key=lambda st: (st == "other", st))
    lines = ["| task | build | total | " + " | ".join(stages) + " |", "|---|---|---|" + "---|" * len(stages)]
    for task, build, prof in rows:
        cells = " | ".join(f"{prof.get(stage, 0) / 1e3:,.0f} k" for stage in stages)
        lines.append(f"| {task} | {build} | {sum(prof.values()) / 1e6:.2f} M | {cells} |")
    return lines


def write(args, results: dict[str, dict], header: dict, before: dict | None) -> str:
    before_label = "" if before is None else (
        f" In brackets and on the \"before\" lines: {before['header']['build']}, "
        f"measured by `report.py --no-speed` on {before['header']['date']} (`{args.before.name}`).")
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
        f"MuJoCo's C rollout is raw physics without task logic, each side at its best thread count); every contender's "
        f"actions uniform over the action space. AsyncVectorEnv: wall-clock at {ASYNC_SIZE} envs. Pool efficiency: the "
        f"pool's rate over `BareLoop`'s (the same envs, seeds, actions and episodes in plain C++ loops, in the same "
        f"calls: round by round the same steps of the same trajectories, so the same work), per CPU-second at 1 thread, "
        f"and at 2 wall-clock against `BareLoop` on 2 threads (a fixed half of the worlds each, a barrier after every "
        f"step), the median of the rounds' ratios. Scaling: 2 threads over 1, wall-clock, median [min–max] over rounds. "
        f"The machine's: the same work (the pool's envs, actions and episodes) as two processes, a `BareLoop` of half "
        f"the envs each, run at once over run in turn, in the same rounds: what this VM's two cores give with nothing "
        f"shared, the reference for a pool in one process (which reads above it only by the rounds' noise). ✓ marks a met target. The last column is the issue's own table, measured when it was filed.",
        "",
        *speed_table(results),
        "",
        f"Accuracy, same run: worst separation of a joint's two anchor copies over {args.anchor_steps} random-action "
        "steps (seed 7; goal < 2 mm); the mean zero-action episode length from the same 10 reset states as "
        "MuJoCo's (goal within 10%; – where neither engine ends the episode); `examples/compare_with_mujoco.py`'s "
        "open-loop sequences from init_qpos in both engines (zeros, a travelling sine, random, constant; HalfCheetah "
        "also its gait; 1000 steps at most): how many end within 10% of MuJoCo's episode length, and the largest "
        f"difference of any joint's min or max between the engines (rad or m), median [max] over the sequences.{before_label}",
        "",
        *accuracy_table(args, results, before),
    ]
    if args.profile:
        lines += ["", "Where the time goes: instructions per env step by stage, thousands (`python benchmarks/profile_step.py "
                  "<Task>`, callgrind, 4 envs x 60 steps in the bare C++ loop, resets included)"
                  + (", the build before on the line above each task's." if before else "."), "",
                  *profile_table(results, before)]
    lines.append("")
    return "\n".join(lines)


def measure(task: str, args) -> dict:
    """One task's measurements: speed (unless --no-speed), accuracy, profile (--profile)."""
    out: dict = {}
    if not args.no_speed:
        result = bench(task, args)
        out["speed"] = speed_row(result)
        out["machine"], out["versions"] = result["machine"], result["versions"]
    out["anchor_mm"] = worst_anchor_mm(task, args.anchor_steps, args.solver)
    out["zero_action"] = zero_action_lengths(task, args.solver)
    out["open_loop"] = open_loop(task)
    if args.profile:
        collect = ["joltgym::EnvInstance::Step*", "joltgym::EnvInstance::Reset*"] if args.collect_env_instance else None
        out["profile"] = profile(task, args.solver, collect)
    return out


def build_label() -> str:
    try:
        commit = subprocess.run(["git", "-C", str(Path(joltgym.__file__).resolve().parent), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown commit"
    return f"joltgym {joltgym.__version__} at {commit}, imported from {Path(joltgym.__file__).parent}"


def main(argv=None) -> None:
    args = parse_args(argv)
    load = lambda: ", ".join(f"{x:.2f}" for x in os.getloadavg())  # noqa: E731
    header = {"date": date.today().isoformat(), "load_before": load(), "build": args.label or build_label()}
    before = json.loads(args.before.read_text()) if args.before and not args.no_speed else None
    results: dict[str, dict] = {}
    for task in [t for t in args.tasks if args.solver in task_spec(t).solver_names]:
        start = time.perf_counter()
        results[task] = r = measure(task, args)
        line = f"{task}: anchors {r['anchor_mm']:.1f} mm, zero-action {r['zero_action']}, open loop {r['open_loop']}"
        if "speed" in r:
            machine = r.pop("machine")
            header.update(cpu=machine["cpu"], cpu_count=machine["cpu_count"], versions=r.pop("versions"))
            s = r["speed"]
            line += (f", vs EnvPool {fx(s['envpool_1'])} (1 thread) {fx(s['envpool_2'])} (2), vs rollout "
                     f"{fx(s['rollout'])}, vs AsyncVectorEnv {fx(s['async'])}")
        print(f"{line} ({time.perf_counter() - start:.0f} s)", flush=True)
    header["load_after"] = load()
    if args.json:
        args.json.write_text(json.dumps({"header": header, "results": results}, indent=1))
        print(f"wrote {args.json}")
    if args.no_speed:
        return
    text = write(args, results, header, before)
    args.out.write_text(text)
    print(f"\nwrote {args.out}\n\n{text}")


if __name__ == "__main__":
    main()
