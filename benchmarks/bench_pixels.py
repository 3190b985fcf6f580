"""Pixel observations per CPU-second: joltgym's pool drawing 84x84 frames beside its states-only
rate, the single env through gym.make, and dm_control's own pixels on MuJoCo's renderer.

    python benchmarks/bench_pixels.py [--tasks CheetahRun WalkerWalk] [--envs 256] [--threads 1 2]
                                      [--rounds 3] [--seconds 3] [--size 84] [--no-dm-control]

Each round runs every contender once, side by side, for `--seconds` of CPU time; the table gives
the median over rounds and the spread. Pool rates count env steps (one frame drawn per env step) per
CPU-second of the whole process, all threads included; "drawing" is the frames per CPU-second of the
drawing alone, from the per-step difference between the pixel and the states-only pool. dm_control
draws through MUJOCO_GL=egl (on a machine without a GPU, Mesa's software EGL) in a child process,
its camera 0 as joltgym's, one env stepped and drawn per step.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

import joltgym  # noqa: F401
from joltgym.tasks import TASKS
from joltgym.vector.jolt_vector_env import JoltVectorEnv

DM_CONTROL = {"CheetahRun": ("cheetah", "run"), "WalkerWalk": ("walker", "walk"), "HopperStand": ("hopper", "stand"),
              "FingerSpin": ("finger", "spin"), "CartpoleSwingup": ("cartpole", "swingup")}

DM_CONTROL_RATE = """
import sys, time
import numpy as np
from dm_control import suite
domain, task, size, seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
env = suite.load(domain, task, task_kwargs={"random": 0})
env.reset()
action = np.zeros(env.action_spec().shape)
env.physics.render(size, size, camera_id=0)
start, steps = time.process_time(), 0
while time.process_time() - start < seconds:
    if env.step(action).last():
        env.reset()
    env.physics.render(size, size, camera_id=0)
    steps += 1
print(steps / (time.process_time() - start))
"""


def pool_rate(task: str, envs: int, threads: int, size: int, seconds: float, obs_type: str) -> float:
    env = JoltVectorEnv(envs, task=task, num_threads=threads, obs_type=obs_type, width=size, height=size)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    space = env.single_action_space
    actions = [rng.uniform(space.low, space.high, (envs, *space.shape)).astype(np.float32) for _ in range(8)]
    env.step(actions[0])
    start, steps = time.process_time(), 0
    while time.process_time() - start < seconds:
        env.step(actions[steps % len(actions)])
        steps += 1
    rate = envs * steps / (time.process_time() - start)
    env.close()
    return rate


def single_rate(task: str, size: int, seconds: float) -> float:
    import gymnasium as gym

    env = gym.make(f"joltgym/{task}-v0", obs_type="pixels", width=size, height=size)
    env.reset(seed=0)
    start, steps = time.process_time(), 0
    while time.process_time() - start < seconds:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
        steps += 1
    return steps / (time.process_time() - start)


def dm_control_rate(task: str, size: int, seconds: float) -> float | None:
    if task not in DM_CONTROL:
        return None
    out = subprocess.run([sys.executable, "-c", DM_CONTROL_RATE, *DM_CONTROL[task], str(size), str(seconds)],
                         capture_output=True, text=True, env={**os.environ, "MUJOCO_GL": "egl"})
    if out.returncode != 0:
        raise RuntimeError(f"dm_control's pixels failed: {out.stderr.strip().splitlines()[-1:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tasks", nargs="+", default=["CheetahRun", "WalkerWalk"], choices=sorted(TASKS))
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seconds", type=float, default=3.0)
    p.add_argument("--size", type=int, default=84)
    p.add_argument("--no-dm-control", action="store_true", help="leave out dm_control's pixels")
    p.add_argument("--json", help="also write the rates to this file")
    args = p.parse_args()
    rates: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for task in args.tasks:
            for threads in args.threads:
                for obs_type in ("pixels", "state"):
                    key = f"{task} pool {obs_type} {threads}t"
                    rates.setdefault(key, []).append(pool_rate(task, args.envs, threads, args.size, args.seconds, obs_type))
            rates.setdefault(f"{task} single pixels", []).append(single_rate(task, args.size, args.seconds))
            if not args.no_dm_control and task in DM_CONTROL:
                rates.setdefault(f"{task} dm_control pixels", []).append(dm_control_rate(task, args.size, args.seconds))

    def median(key: str) -> float:
        return float(np.median(rates[key]))

    def spread(key: str) -> str:
        return f"{min(rates[key]):.0f}-{max(rates[key]):.0f}"

    print(f"{args.size}x{args.size} frames, {args.envs} envs in the pool; env steps per CPU-second, median of "
          f"{args.rounds} rounds (min-max)\n")
    print("| task | contender | steps/CPU-s | spread | frames drawn/CPU-s |\n|---|---|---|---|---|")
    for task in args.tasks:
        for threads in args.threads:
            pixels, state = f"{task} pool pixels {threads}t", f"{task} pool state {threads}t"
            drawing = 1.0 / max(1.0 / median(pixels) - 1.0 / median(state), 1e-12)
            print(f"| {task} | pool, pixels, {threads} thread(s) | {median(pixels):.0f} | {spread(pixels)} | {drawing:.0f} |")
            print(f"| {task} | pool, states only, {threads} thread(s) | {median(state):.0f} | {spread(state)} | |")
        print(f"| {task} | single env (gym.make), pixels | {median(f'{task} single pixels'):.0f} | "
              f"{spread(f'{task} single pixels')} | |")
        key = f"{task} dm_control pixels"
        if key in rates:
            print(f"| {task} | dm_control, MuJoCo EGL pixels | {median(key):.1f} | {spread(key)} | |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"size": args.size, "envs": args.envs, "rates": rates}, f, indent=1)


if __name__ == "__main__":
    main()
