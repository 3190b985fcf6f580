"""Smoke-run every registered joltgym task: ``python -m joltgym [--steps N] [--task ID]``.

``--stills DIR`` writes a picture of every registered id (single- and multi-agent) instead,
``--record DIR`` a short clip of each (needs moviepy).
"""

from __future__ import annotations

import argparse
import time

import gymnasium

import joltgym


def run(task_id: str, steps: int, seed: int = 0) -> tuple[int, float]:
    env = gymnasium.make(task_id)
    env.action_space.seed(seed)
    env.reset(seed=seed)
    start = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    elapsed = time.perf_counter() - start
    env.close()
    return steps, elapsed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m joltgym", description="Run each registered joltgym task briefly with random actions."
    )
    parser.add_argument("--steps", type=int, default=2000, help="env steps per task (default 2000)")
    parser.add_argument("--task", choices=joltgym.task_ids() + joltgym.multi_agent_ids(), help="only this id")
    parser.add_argument("--stills", metavar="DIR", help="write a picture of each id into DIR (the README's)")
    parser.add_argument("--record", metavar="DIR", help="write a short clip of each id into DIR")
    args = parser.parse_args(argv)

    if args.stills or args.record:
        from joltgym import recording

        for env_id in [args.task] if args.task else joltgym.task_ids() + joltgym.multi_agent_ids():
            path = recording.write_still(env_id, args.stills) if args.stills else recording.write_clip(env_id, args.record)
            print(f"{env_id:<34} {path}")
        return

    print(f"joltgym {joltgym.__version__}")
    for task_id in [args.task] if args.task else joltgym.task_ids():
        steps, elapsed = run(task_id, args.steps)
        print(f"{task_id:<34} {steps:>7d} steps  {elapsed:7.3f} s  {steps / elapsed:10.0f} steps/s")


if __name__ == "__main__":
    main()
