"""What joltgym is, measured on this machine: ``python -m joltgym [--seconds S] [--envs N] [--task ID]``.

Every single-agent id steps as one Gymnasium env and as the native vector env (``--envs``, default
256), and every multi-agent id as one PettingZoo env, under random actions; rates are of steady
stepping, measured after construction and a warm-up. ``--stills DIR`` writes a picture of every id
instead, ``--record DIR`` a short clip of each (needs moviepy).
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Callable

import gymnasium
import numpy as np
import pettingzoo

import joltgym

WARM_UP_STEPS = 20


def rate(step: Callable[[], None], seconds: float) -> tuple[float, float]:
    """Calls per second of ``step`` over about ``seconds``, by the wall clock and per CPU-second."""
    for _ in range(WARM_UP_STEPS):
        step()
    calls, wall0, cpu0 = 0, time.perf_counter(), time.process_time()
    while True:
        step()
        calls += 1
        wall = time.perf_counter() - wall0
        if wall >= seconds:
            return calls / wall, calls / max(time.process_time() - cpu0, 1e-9)


def single_env_rate(env_id: str, seconds: float) -> float:
    env = gymnasium.make(env_id)
    env.reset(seed=0)
    env.action_space.seed(0)

    def step() -> None:
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()

    wall, _ = rate(step, seconds)
    env.close()
    return wall


def vector_env_rates(env_id: str, num_envs: int, seconds: float) -> tuple[float, float, int]:
    envs = gymnasium.make_vec(env_id, num_envs=num_envs)  # the native JoltVectorEnv; it resets done envs itself
    envs.reset(seed=0)
    actions = np.random.default_rng(0).uniform(-1, 1, (64, *envs.action_space.shape)).astype(np.float32)
    turn = iter(range(1 << 62))
    wall, cpu = rate(lambda: envs.step(actions[next(turn) % len(actions)]), seconds)
    threads = envs.num_threads
    envs.close()
    return wall * num_envs, cpu * num_envs, threads


def multi_agent_rate(env_id: str, seconds: float) -> tuple[int, float]:
    env = pettingzoo.make("parallel", env_id)
    env.reset(seed=0)
    agents = len(env.possible_agents)

    def step() -> None:
        if not env.agents:
            env.reset()
        env.step({agent: env.action_space(agent).sample() for agent in env.agents})

    wall, _ = rate(step, seconds)
    env.close()
    return agents, wall


def show(args: argparse.Namespace) -> None:
    print(f"joltgym {joltgym.__version__}: MuJoCo's v5 tasks and multi-agent robots on Jolt Physics "
          f"({os.cpu_count()} hardware threads here)")
    single = [args.task] if args.task in joltgym.task_ids() else [] if args.task else joltgym.task_ids()
    multi = [args.task] if args.task in joltgym.multi_agent_ids() else [] if args.task else joltgym.multi_agent_ids()
    if single:
        print(f"\nSingle-agent ids, env-steps per second under random actions (steady state, {args.seconds:g} s each):")
        print(f"{'id':<36}{'gym.make':>10}{f'make_vec, {args.envs} envs':>26}{'make_vec per CPU-s':>20}")
        skipped: dict[str, list[str]] = {}
        for env_id in single:
            try:
                one = single_env_rate(env_id, args.seconds)
            except ModuleNotFoundError as exc:  # its models' package (the robots', dm_control's) is not installed
                skipped.setdefault(str(exc), []).append(env_id)
                continue
            wall, cpu, threads = vector_env_rates(env_id, args.envs, args.seconds)
            print(f"{env_id:<36}{one:>10,.0f}{f'{wall:,.0f} on {threads} threads':>26}{cpu:>20,.0f}", flush=True)
        for message, ids in skipped.items():
            print(f"{len(ids)} ids skipped ({ids[0]} ...): {message}")
    if multi:
        print("\nMulti-agent ids (PettingZoo parallel envs; joltgym.marl.vector.MultiAgentVectorEnv steps many worlds):")
        print(f"{'id':<36}{'agents':>8}{'env-steps per second':>24}")
        for env_id in multi:
            agents, wall = multi_agent_rate(env_id, args.seconds)
            print(f"{env_id:<36}{agents:>8}{wall:>24,.0f}", flush=True)
    print("\nPictures: python -m joltgym --stills DIR draws every id with joltgym's own software renderer "
          "(the repository's docs/images); --record DIR writes a clip of each (pip install 'joltgym[render]').")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m joltgym", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.4, help="time each measurement runs (default 0.4)")
    parser.add_argument("--envs", type=int, default=256, help="the vector env's size (default 256)")
    parser.add_argument("--task", choices=joltgym.task_ids() + joltgym.multi_agent_ids(), help="only this id")
    parser.add_argument("--stills", metavar="DIR", help="write a picture of each id into DIR (docs/images)")
    parser.add_argument("--record", metavar="DIR", help="write a short clip of each id into DIR")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.envs < 1:
        parser.error("--seconds must be > 0 and --envs >= 1")

    if args.stills or args.record:
        from joltgym import recording

        for env_id in [args.task] if args.task else joltgym.task_ids() + joltgym.multi_agent_ids():
            path = recording.write_still(env_id, args.stills) if args.stills else recording.write_clip(env_id, args.record)
            print(f"{env_id:<34} {path}")
        return
    show(args)


if __name__ == "__main__":
    main()
