"""A policy's inference overlapped with stepping: JoltVectorEnv's send/recv.

With batch_size = num_envs / 2, the pool's threads step one half of the envs while the policy
computes actions for the other half; each env's trajectory is the same as in synchronous steps
(only the order in which envs come back changes). The script runs the same rollout both ways
and prints env steps per second of the whole loop.

    python examples/async_rollout.py [--task Ant] [--envs 256] [--threads 1] [--steps 100000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from joltgym.vector import JoltVectorEnv

WIDTH = 1024  # hidden units: inference about as costly as a light task's physics


def make_policy(obs_dim: int, act_dim: int) -> torch.nn.Module:
    return torch.nn.Sequential(torch.nn.Linear(obs_dim, WIDTH), torch.nn.Tanh(), torch.nn.Linear(WIDTH, WIDTH),
                               torch.nn.Tanh(), torch.nn.Linear(WIDTH, act_dim), torch.nn.Tanh())


@torch.no_grad()
def act(policy: torch.nn.Module, obs: np.ndarray) -> np.ndarray:
    return policy(torch.from_dlpack(obs)).numpy()  # copy=False: the pool's buffer, no copy


def synchronous(env: JoltVectorEnv, policy: torch.nn.Module, steps: int) -> float:
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    for _ in range(steps // env.num_envs):
        obs, rewards, terminated, truncated, infos = env.step(act(policy, obs))
    return (steps // env.num_envs) * env.num_envs / (time.perf_counter() - start)


def asynchronous(env: JoltVectorEnv, policy: torch.nn.Module, steps: int) -> float:
    env.async_reset(seed=0)  # every env resets on the pool's threads
    start = time.perf_counter()
    for _ in range(steps // env.batch_size):
        obs, rewards, terminated, truncated, infos = env.recv()  # the next batch_size envs that finished
        env.send(act(policy, obs), infos["env_id"])  # while the other envs keep stepping
    return (steps // env.batch_size) * env.batch_size / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="Ant")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--steps", type=int, default=100_000)
    args = parser.parse_args()
    torch.set_num_threads(1)
    for batch_size in (args.envs, args.envs // 2):
        env = JoltVectorEnv(args.envs, task=args.task, num_threads=args.threads, batch_size=batch_size, copy=False)
        policy = make_policy(env.single_observation_space.shape[0], env.single_action_space.shape[0])
        run = synchronous if batch_size == args.envs else asynchronous
        rate = run(env, policy, args.steps)
        print(f"{run.__name__:>12} (batch_size {batch_size:4d}): {rate:10,.0f} env steps per second")
        env.close()


if __name__ == "__main__":
    main()
