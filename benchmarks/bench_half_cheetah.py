"""HalfCheetah speed, joltgym vs MuJoCo, measured side by side in one process.

Every case runs the same seeded random actions. Rounds are interleaved (each round
runs every case once, in rotating order) so that CPU frequency drift and noisy
neighbours hit all cases alike; best and median over rounds are reported.

    python benchmarks/bench_half_cheetah.py [--rounds 7] [--steps 2000]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Callable

import gymnasium
import mujoco
import numpy as np

import joltgym
from joltgym import _native
from joltgym.tasks import task_spec

HALF_CHEETAH_SOLVER = task_spec("HalfCheetah").solver


@dataclass
class Case:
    name: str
    run: Callable[[np.ndarray], None]  # advances len(actions) env steps
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def gym_loop(env: gymnasium.Env) -> Callable[[np.ndarray], None]:
    env.reset(seed=0)

    def run(actions: np.ndarray) -> None:
        for a in actions:
            _, _, terminated, truncated, _ = env.step(a)
            if terminated or truncated:
                env.reset()

    return run


def mujoco_loop(model: mujoco.MjModel, data: mujoco.MjData, frame_skip: int) -> Callable[[np.ndarray], None]:
    def run(actions: np.ndarray) -> None:
        mujoco.mj_resetData(model, data)
        for a in actions:
            data.ctrl[:] = a
            mujoco.mj_step(model, data, nstep=frame_skip)

    return run


def mujoco_bulk(model: mujoco.MjModel, data: mujoco.MjData, frame_skip: int) -> Callable[[np.ndarray], None]:
    def run(actions: np.ndarray) -> None:
        mujoco.mj_resetData(model, data)
        data.ctrl[:] = actions[0]
        mujoco.mj_step(model, data, nstep=frame_skip * len(actions))

    return run


def world_loop(world: _native.World, frame_skip: int) -> Callable[[np.ndarray], None]:
    def run(actions: np.ndarray) -> None:
        world.restore_initial_state()
        for a in actions:
            world.step(a, nsteps=frame_skip)

    return run


def world_bulk(world: _native.World, frame_skip: int) -> Callable[[np.ndarray], None]:
    def run(actions: np.ndarray) -> None:
        world.restore_initial_state()
        world.step(actions[0], nsteps=frame_skip * len(actions))

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds per case (default 7)")
    parser.add_argument("--steps", type=int, default=2000, help="env steps per case per round (default 2000)")
    args = parser.parse_args()

    mj_env = gymnasium.make("HalfCheetah-v5")
    jolt_env = gymnasium.make("joltgym/HalfCheetah-v0")
    frame_skip = mj_env.unwrapped.frame_skip
    assert jolt_env.unwrapped.frame_skip == frame_skip
    substeps = HALF_CHEETAH_SOLVER.substeps
    # A separate MjModel/MjData pair so the raw loops never disturb the Gymnasium env's state.
    raw_env = gymnasium.make("HalfCheetah-v5").unwrapped
    world = _native.World(joltgym.load_model("half_cheetah.xml", solver=HALF_CHEETAH_SOLVER).native)
    actions = np.random.default_rng(0).uniform(-1.0, 1.0, (args.steps, 6)).astype(np.float32)

    raw_model, raw_data = raw_env.model, raw_env.data
    cases = [
        Case("mujoco  gymnasium env.step", gym_loop(mj_env)),
        Case("jolt    gymnasium env.step", gym_loop(jolt_env)),
        Case(f"mujoco  mj_step(nstep={frame_skip})/step", mujoco_loop(raw_model, raw_data, frame_skip)),
        Case(f"jolt    World.step(nsteps={frame_skip})", world_loop(world, frame_skip)),
        Case("mujoco  one mj_step call", mujoco_bulk(raw_model, raw_data, frame_skip)),
        Case("jolt    one World.step call", world_bulk(world, frame_skip)),
    ]

    for case in cases:  # warm-up: first-touch allocations, caches, lazy imports
        case.run(actions[: min(200, args.steps)])
    for r in range(args.rounds):
        for case in cases[r % len(cases) :] + cases[: r % len(cases)]:
            w0, c0 = time.perf_counter(), time.process_time()
            case.run(actions)
            case.cpu.append(time.process_time() - c0)
            case.wall.append(time.perf_counter() - w0)

    print(f"machine: {cpu_model()} | processor={platform.processor() or '?'} | cpu_count={os.cpu_count()}")
    print(f"python {platform.python_version()}, mujoco {mujoco.__version__}, joltgym {joltgym.__version__}")
    print(f"{args.rounds} interleaved rounds x {args.steps} env steps of random actions")
    print(
        f"1 env step = {frame_skip} model timesteps = {frame_skip} MuJoCo updates"
        f" = {frame_skip * substeps} Jolt updates ({substeps} substeps per timestep)"
    )
    print("'one ... call' rows hold ctrl constant for the whole round (physics only, no per-step Python)")
    print()
    header = (
        f"{'case':31} {'env-steps/s':>11} {'(median)':>9} {'us/env-step':>11}"
        f" {'us/timestep':>11} {'us/update':>9} {'cpu/wall':>8}"
    )
    print(header)
    print("-" * len(header))
    for case in cases:
        t_best, t_med = min(case.wall), statistics.median(case.wall)
        updates = frame_skip * (substeps if case.name.startswith("jolt") else 1)
        us_step = 1e6 * t_best / args.steps
        cpu_ratio = statistics.median(c / w for c, w in zip(case.cpu, case.wall))
        print(
            f"{case.name:31} {args.steps / t_best:11.0f} {args.steps / t_med:9.0f} {us_step:11.1f}"
            f" {us_step / frame_skip:11.2f} {us_step / updates:9.2f} {cpu_ratio:8.2f}"
        )
    print()
    print("time ratio jolt/mujoco (>1 means joltgym is slower):   best   median")
    labels = ["gymnasium env loop", "per-env-step physics loop", "physics only, one call"]
    for (mj, jolt), label in zip([(0, 1), (2, 3), (4, 5)], labels):
        best = min(cases[jolt].wall) / min(cases[mj].wall)
        median = statistics.median(cases[jolt].wall) / statistics.median(cases[mj].wall)
        print(f"  {label:50} {best:6.2f}x {median:7.2f}x")

    mj_env.close()
    jolt_env.close()


if __name__ == "__main__":
    main()
