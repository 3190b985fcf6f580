"""Measure a task's Jolt solver settings: joint-anchor accuracy under random actions, and cost.

    python benchmarks/measure_solver.py Hopper --settings 1,8,2,0.5 2,8,2,0.5

Each setting is substeps,velocity_iterations,position_iterations,baumgarte. For each it runs
--steps random-action steps (resetting when an episode ends) and prints the worst separation
of a joint's two anchor copies, how many steps exceeded --threshold, and CPU microseconds per
env step. The tables behind each task's settings in joltgym/tasks.py are in
benchmarks/solver_measurements.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import gymnasium as gym
import numpy as np

import joltgym
from joltgym import SolverSettings
from joltgym.tasks import task_spec


def measure(task: str, solver: SolverSettings, steps: int, seed: int) -> tuple[float, np.ndarray, float]:
    env = gym.make(task_spec(task).env_id, solver=solver)
    env.reset(seed=seed)
    core = env.unwrapped._core
    rng = np.random.default_rng(seed)
    low, high = env.action_space.low, env.action_space.high
    errors = np.empty(steps)
    start = time.process_time()
    for t in range(steps):
        _, _, terminated, truncated, _ = env.step(rng.uniform(low, high).astype(np.float32))
        errors[t] = core.max_joint_anchor_error()
        if terminated or truncated:
            env.reset()
    cpu = time.process_time() - start
    return float(errors.max()), errors, cpu / steps * 1e6


def parse(setting: str, base: SolverSettings) -> SolverSettings:
    """substeps,vel,pos,baumgarte[,field=value...] over the task's own settings (its other fields
    kept), e.g. ``4,20,1,1.0,block_hinges=False``."""
    sub, vel, pos, baumgarte, *extra = setting.split(",")
    fields = {}
    for item in extra:
        key, _, value = item.partition("=")
        if key not in SolverSettings.__dataclass_fields__ or not value:
            raise SystemExit(f"{setting!r}: {item!r} is not field=value of SolverSettings")
        kind = type(getattr(base, key))
        fields[key] = value == "True" if kind is bool else kind(value)
    return dataclasses.replace(base, substeps=int(sub), velocity_iterations=int(vel), position_iterations=int(pos),
                               baumgarte=float(baumgarte), **fields)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("task", choices=list(joltgym.tasks.TASKS))
    parser.add_argument("--settings", nargs="+", default=None, help="substeps,vel,pos,baumgarte[,field=value...] ...")
    parser.add_argument("--steps", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threshold", type=float, default=2e-3, help="anchor separation that counts (m)")
    args = parser.parse_args()
    base = task_spec(args.task).solver
    settings = [parse(s, base) for s in args.settings] if args.settings else [base]
    print(f"{args.task}: {args.steps} random-action steps, seed {args.seed}")
    print("substeps/vel/pos, baumgarte: worst anchor separation / steps above threshold / CPU us per env step")
    for solver in settings:
        worst, errors, us = measure(args.task, solver, args.steps, args.seed)
        print(f"  {solver.substeps} / {solver.velocity_iterations:2d} / {solver.position_iterations}, "
              f"{solver.baumgarte}: {worst * 1e3:5.1f} mm / {int((errors > args.threshold).sum()):4d} / {us:5.0f}")


if __name__ == "__main__":
    main()
