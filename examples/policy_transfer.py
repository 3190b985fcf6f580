"""Train PPO on joltgym and on Gymnasium's MuJoCo v5 tasks, then evaluate every policy on both.

For each task, engine and seed this runs ``train_ppo.py`` (same recipe and seed on both engines)
and saves the agent with its observation-normalisation statistics. Each saved policy is then
evaluated deterministically (the mean action) on both engines with the statistics it was trained
with, frozen. A policy "transfers" when it keeps its return on the other engine. Each is also
evaluated on MuJoCo's task at half its timestep: what a policy loses there, it owes to the v5
model's own time-step error.

    python examples/policy_transfer.py                               # 5 tasks x 2 engines x 3 seeds, 1M steps
    python examples/policy_transfer.py --tasks HalfCheetah --seeds 1 2 --jobs 2
    python examples/policy_transfer.py --report-only                  # tables from what is saved

Saved agents, learning curves and the evaluation CSV go to --out-dir (default
examples/results/transfer). A run whose model file exists is not trained again, so the matrix
can be filled over several sessions. The report prints two markdown tables: learning (final
return per engine, mean and spread over seeds) and transfer (each policy's return on the other
engine as a fraction of its return on its own).
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

EXAMPLES_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(EXAMPLES_DIR))
from train_ppo import Agent  # noqa: E402

TASKS = ["HalfCheetah", "Hopper", "Walker2d", "Ant", "Humanoid"]
ENGINES = {"joltgym": "joltgym/{task}-v0", "mujoco": "{task}-v5"}
# Trained on only when asked (--engines): joltgym with the task's "fast" solver preset (where it has
# one). Every policy is also evaluated on each preset asked for.
PRESETS = {"joltgym-fast": "fast"}
# Evaluated on, never trained on: MuJoCo's own task at half its timestep and twice the frame
# skip (same env step). How far a policy's return moves there measures how much it depends on
# the v5 model's time step, i.e. what no other engine can be expected to reproduce.
HALF_DT = "mujoco-half-dt"
EVAL_TARGETS = [*ENGINES, HALF_DT]


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--tasks", nargs="+", default=TASKS)
    p.add_argument("--seeds", nargs="+", type=int, default=[1, 2, 3])
    p.add_argument("--engines", nargs="+", default=list(ENGINES), choices=[*ENGINES, *PRESETS])
    p.add_argument("--total-timesteps", type=int, default=1_000_000)
    p.add_argument("--jobs", type=int, default=1, help="trainings run side by side (one core each)")
    # 50: an Ant's or Walker2d's deterministic returns spread by +-400 over episodes (falls), so
    # 10 episodes left the kept fractions +-0.25 apart between evaluations of one policy.
    p.add_argument("--eval-episodes", type=int, default=50)
    p.add_argument("--final-window", type=int, default=50, help="episodes averaged for a run's final training return")
    p.add_argument("--out-dir", type=Path, default=EXAMPLES_DIR / "results" / "transfer")
    p.add_argument("--report-only", action="store_true", help="no training or evaluation: tables from saved CSVs")
    p.add_argument("--python", default=sys.executable, help="interpreter command the trainings run with")
    return p.parse_args(argv)


def run_name(task: str, engine: str, seed: int) -> str:
    return f"{task}_{engine}_{seed}"


def train(args: argparse.Namespace, task: str, engine: str, seed: int) -> Path:
    model = args.out_dir / f"{run_name(task, engine, seed)}.pt"
    if model.exists():
        return model
    curve = args.out_dir / f"{run_name(task, engine, seed)}.csv"
    log = args.out_dir / f"{run_name(task, engine, seed)}.log"
    env_id = ENGINES["joltgym" if engine in PRESETS else engine].format(task=task)
    cmd = [*args.python.split(), str(EXAMPLES_DIR / "train_ppo.py"), "--env-id", env_id,
           "--seed", str(seed), "--total-timesteps", str(args.total_timesteps), "--out", str(curve),
           "--save-model", str(model) + ".partial",
           *(["--env-kwarg", f"solver={PRESETS[engine]}"] if engine in PRESETS else [])]
    with open(log, "w") as out:
        subprocess.run(cmd, stdout=out, stderr=subprocess.STDOUT, check=True)
    Path(str(model) + ".partial").rename(model)
    return model


def make_env(engine: str, task: str) -> gym.Env:
    if engine == HALF_DT:
        env = gym.make(ENGINES["mujoco"].format(task=task))
        env.unwrapped.model.opt.timestep /= 2
        env.unwrapped.frame_skip *= 2
        return env
    if engine == "joltgym" or engine in PRESETS:
        import joltgym  # noqa: F401  (registers the joltgym ids)
        return gym.make(ENGINES["joltgym"].format(task=task), **({"solver": PRESETS[engine]} if engine in PRESETS else {}))
    return gym.make(ENGINES[engine].format(task=task))


def evaluate(model: Path, engine: str, task: str, episodes: int) -> list[float]:
    """Deterministic returns of a saved agent on one engine, its normalisation frozen."""
    saved = torch.load(model, weights_only=False)
    env = make_env(engine, task)
    obs_dim, act_dim = env.observation_space.shape[0], env.action_space.shape[0]
    agent = Agent(obs_dim, act_dim)
    agent.load_state_dict(saved["agent"])
    mean, std = np.asarray(saved["obs_mean"]), np.sqrt(np.asarray(saved["obs_var"]) + 1e-8)
    low, high = env.action_space.low, env.action_space.high
    returns = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=10_000 + episode)
        total, done = 0.0, False
        while not done:
            x = torch.as_tensor(np.clip((obs - mean) / std, -10, 10), dtype=torch.float32)[None]
            with torch.no_grad():
                action = agent.actor_mean(x)[0].numpy()
            obs, reward, terminated, truncated, _ = env.step(np.clip(action, low, high).astype(np.float32))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    env.close()
    return returns


def final_return(curve: Path, window: int) -> float | None:
    if not curve.exists():
        return None
    with open(curve) as f:
        returns = [float(r["episode_return"]) for r in csv.DictReader(f)]
    return float(np.mean(returns[-window:])) if returns else None


def load_evaluations(path: Path) -> dict[tuple, float]:
    if not path.exists():
        return {}
    with open(path) as f:
        return {(r["task"], r["trained_on"], int(r["seed"]), r["evaluated_on"]): float(r["mean_return"])
                for r in csv.DictReader(f)}


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.0f} (n=1)"
    return f"{np.mean(values):.0f} ± {np.std(values):.0f} (n={len(values)})"


def report(args: argparse.Namespace) -> None:
    evals = load_evaluations(args.out_dir / "evaluations.csv")
    print(f"\nLearning: mean training return of the last {args.final_window} episodes at "
          f"{args.total_timesteps:,} steps, mean ± std over seeds\n")
    print("| task | MuJoCo v5 | joltgym | ratio of means |")
    print("|---|---|---|---|")
    for task in args.tasks:
        finals = {e: [v for s in args.seeds
                      if (v := final_return(args.out_dir / f"{run_name(task, e, s)}.csv", args.final_window)) is not None]
                  for e in ENGINES}
        ratio = (f"{np.mean(finals['joltgym']) / np.mean(finals['mujoco']):.2f}"
                 if finals["joltgym"] and finals["mujoco"] and np.mean(finals["mujoco"]) > 0 else "-")
        print(f"| {task} | {spread(finals['mujoco'])} | {spread(finals['joltgym'])} | {ratio} |")
    print(f"\nTransfer: deterministic return over {args.eval_episodes} episodes, on its own engine -> "
          "on the other (kept fraction), per seed\n")
    print("| task | seed | trained on joltgym: ours -> MuJoCo | kept | trained on MuJoCo: MuJoCo -> ours | kept |")
    print("|---|---|---|---|---|---|")
    for task in args.tasks:
        for seed in args.seeds:
            cells = []
            for own, other in (("joltgym", "mujoco"), ("mujoco", "joltgym")):
                a, b = evals.get((task, own, seed, own)), evals.get((task, own, seed, other))
                if a is None or b is None:
                    cells += ["-", "-"]
                else:
                    cells += [f"{a:.0f} -> {b:.0f}", f"{b / a:.2f}" if a > 0 else "-"]
            if any(c != "-" for c in cells):
                print(f"| {task} | {seed} | " + " | ".join(cells) + " |")
    print("\nThe same policies on MuJoCo's own task at half its timestep (twice the frame skip), as a fraction "
          "of their return on MuJoCo v5 as shipped\n")
    print("| task | seed | trained on joltgym | kept | trained on MuJoCo | kept |")
    print("|---|---|---|---|---|---|")
    for task in args.tasks:
        for seed in args.seeds:
            cells = []
            for own in ("joltgym", "mujoco"):
                a, b = evals.get((task, own, seed, "mujoco")), evals.get((task, own, seed, HALF_DT))
                cells += ["-", "-"] if a is None or b is None else [f"{a:.0f} -> {b:.0f}", f"{b / a:.2f}" if a > 0 else "-"]
            if any(c != "-" for c in cells):
                print(f"| {task} | {seed} | " + " | ".join(cells) + " |")
    for preset in PRESETS:
        runs = [(task, seed) for task in args.tasks for seed in args.seeds if (task, preset, seed, preset) in evals]
        if runs:
            print(f"\nTrained on joltgym's solver={PRESETS[preset]!r} preset: its return there, and on joltgym's "
                  "default, MuJoCo v5 and v5 at half its timestep (kept fraction)\n")
            print(f"| task | seed | joltgym {PRESETS[preset]} | joltgym default | MuJoCo v5 | v5 at half dt |")
            print("|---|---|---|---|---|---|")
            for task, seed in runs:
                own = evals[(task, preset, seed, preset)]
                cells = [f"{own:.0f}"]
                for target in ("joltgym", "mujoco", HALF_DT):
                    b = evals.get((task, preset, seed, target))
                    cells.append("-" if b is None else f"{b:.0f} ({b / own:.2f})" if own > 0 else f"{b:.0f}")
                print(f"| {task} | {seed} | " + " | ".join(cells) + " |")
        trained_on_mujoco = [(task, seed) for task in args.tasks for seed in args.seeds
                             if (task, "mujoco", seed, preset) in evals and (task, "mujoco", seed, "mujoco") in evals]
        if trained_on_mujoco:
            print(f"\nTrained on MuJoCo v5, evaluated on joltgym's solver={PRESETS[preset]!r} preset (kept fraction)\n")
            print("| task | seed | MuJoCo v5 | joltgym preset | kept |")
            print("|---|---|---|---|---|")
            for task, seed in trained_on_mujoco:
                a, b = evals[(task, "mujoco", seed, "mujoco")], evals[(task, "mujoco", seed, preset)]
                print(f"| {task} | {seed} | {a:.0f} | {b:.0f} | {b / a:.2f} |" if a > 0 else f"| {task} | {seed} | {a:.0f} | {b:.0f} | - |")


def train_and_evaluate(args: argparse.Namespace, task: str, engine: str, seed: int, writer, lock) -> None:
    model = train(args, task, engine, seed)
    targets = EVAL_TARGETS + [e for e in args.engines if e in PRESETS]
    for target in [engine] * (engine not in targets) + targets:
        with lock:
            if (task, engine, seed, target) in load_evaluations(args.out_dir / "evaluations.csv"):
                continue
        returns = evaluate(model, target, task, args.eval_episodes)
        with lock:
            writer(task, engine, seed, target, returns)
        print(f"{run_name(task, engine, seed)} on {target}: {np.mean(returns):.1f}", flush=True)


def main(argv=None) -> None:
    args = parse_args(argv)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    if not args.report_only:
        evals_path = args.out_dir / "evaluations.csv"
        if not evals_path.exists():
            evals_path.write_text("task,trained_on,seed,evaluated_on,mean_return,std_return,episodes\n")

        def write(task, engine, seed, target, returns):
            with open(evals_path, "a", newline="") as f:
                csv.writer(f).writerow([task, engine, seed, target, f"{np.mean(returns):.2f}",
                                        f"{np.std(returns):.2f}", len(returns)])

        # Seed by seed, so that the first seeds of every task are there before later ones.
        runs = [(task, engine, seed) for seed in args.seeds for task in args.tasks for engine in args.engines]
        lock = threading.Lock()
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for future in [pool.submit(train_and_evaluate, args, *run, write, lock) for run in runs]:
                future.result()
    report(args)


if __name__ == "__main__":
    main()
