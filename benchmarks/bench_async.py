"""A PPO rollout loop, synchronous against asynchronous (send/recv), joltgym against EnvPool.

The loop is CleanRL's rollout phase with a real policy: a torch MLP actor-critic (64x64 tanh, a
Gaussian head) samples actions and values for the envs each call returns, and the loop stores
observations, actions, log-probabilities, values and rewards per env. Synchronously every call
steps all `--envs` envs; asynchronously (batch_size = envs/2, envs/4) the policy computes actions
for one batch while the pool's threads step the others. Each contender runs `--iterations` calls
in a fresh process; rounds are interleaved; the median over rounds is reported as env steps per
wall-second and per CPU-second of the whole loop.

    python benchmarks/bench_async.py [--tasks HalfCheetah,Ant,Humanoid] [--envs 256] [--threads 1,2]
                                     [--rounds 3] [--steps 200000] [--device cpu] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CHILD = r"""
import json, sys, time
import numpy as np, torch
kind, task, n, batch, threads, steps, device = sys.argv[1:8]
n, batch, threads, steps = int(n), int(batch), int(threads), int(steps)
torch.set_num_threads(1)
if kind == "envpool":
    import envpool
    env = envpool.make(f"{task}-v5", env_type="gymnasium", num_envs=n, batch_size=batch, num_threads=threads, seed=0)
    obs_dim, act_dim = env.observation_space.shape[0], env.action_space.shape[0]
    act_dtype = np.float64
else:
    from joltgym.vector import JoltVectorEnv
    env = JoltVectorEnv(n, task=task, batch_size=batch, num_threads=threads, copy=False)
    obs_dim, act_dim = env.single_observation_space.shape[0], env.single_action_space.shape[0]
    act_dtype = np.float32


def layer(i, o):
    return torch.nn.Linear(i, o)


actor = torch.nn.Sequential(layer(obs_dim, 64), torch.nn.Tanh(), layer(64, 64), torch.nn.Tanh(), layer(64, act_dim)).to(device)
critic = torch.nn.Sequential(layer(obs_dim, 64), torch.nn.Tanh(), layer(64, 64), torch.nn.Tanh(), layer(64, 1)).to(device)
log_std = torch.zeros(act_dim, device=device)
T = 16  # rollout slots per env, as CleanRL's num_steps
store = {k: torch.zeros((T, n) + shape, device=device) for k, shape in
         [("obs", (obs_dim,)), ("act", (act_dim,)), ("logp", ()), ("value", ()), ("reward", ()), ("done", ())]}
slot = np.zeros(n, np.int64)


@torch.no_grad()
def policy(obs, ids):
    o = torch.as_tensor(obs, dtype=torch.float32, device=device)
    mean = actor(o)
    dist = torch.distributions.Normal(mean, log_std.exp())
    a = dist.sample()
    t = torch.as_tensor(slot[ids] % T, device=device)
    i = torch.as_tensor(ids, device=device)
    store["obs"][t, i] = o
    store["act"][t, i] = a
    store["logp"][t, i] = dist.log_prob(a).sum(-1)
    store["value"][t, i] = critic(o).squeeze(-1)
    return a.clamp(-1, 1).cpu().numpy().astype(act_dtype)


def record(rewards, done, ids):
    t = torch.as_tensor(slot[ids] % T, device=device)
    i = torch.as_tensor(ids, device=device)
    store["reward"][t, i] = torch.as_tensor(rewards, dtype=torch.float32, device=device)
    store["done"][t, i] = torch.as_tensor(done, dtype=torch.float32, device=device)
    slot[ids] += 1


def run(calls):
    done = 0
    for _ in range(calls):
        obs, rewards, terminated, truncated, info = env.recv()
        ids = np.asarray(info["env_id"])
        record(rewards, terminated | truncated, ids)
        env.send(policy(obs, ids), ids)
        done += len(ids)
    return done


if kind == "envpool" or batch < n:
    if kind == "envpool":
        env.async_reset()
    else:
        env.async_reset(seed=0)
    obs, rewards, terminated, truncated, info = env.recv()
    ids = np.asarray(info["env_id"])
    env.send(policy(obs, ids), ids)
    loop = run
else:
    obs, _ = env.reset(seed=0)
    ids = np.arange(n)

    def loop(calls):
        global obs
        for _ in range(calls):
            obs, rewards, terminated, truncated, info = env.step(policy(obs, ids))
            record(rewards, terminated | truncated, ids)
        return calls * n

calls = max(1, steps // batch)
loop(max(1, calls // 10))
cpu, wall = time.process_time(), time.perf_counter()
stepped = loop(calls)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
print(json.dumps({"wall": stepped / wall, "cpu": stepped / cpu}))
"""

KINDS = ("joltgym", "envpool")


def run(kind: str, task: str, n: int, batch: int, threads: int, steps: int, device: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, kind, task, str(n), str(batch), str(threads), str(steps), device],
                         capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{kind} {task} batch {batch}, {threads} thread(s) failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="HalfCheetah,Ant,Humanoid")
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200_000, help="env steps per contender and round")
    parser.add_argument("--device", default="cpu", help="the policy's torch device (cuda where there is one)")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    n = args.envs
    batches = [n, n // 2, n // 4]
    threads = [int(t) for t in args.threads.split(",")]
    contenders = [(kind, task, b, t) for task in args.tasks.split(",") for t in threads for b in batches for kind in KINDS]
    results: dict[str, list[dict]] = {}
    for r in range(args.rounds):
        order = contenders[r % 2::2] + contenders[1 - r % 2::2]  # alternate who goes first
        for kind, task, b, t in order:
            results.setdefault(f"{task}|{t}|{b}|{kind}", []).append(run(kind, task, n, b, t, args.steps, args.device))
    print(f"PPO rollout loop, {n} envs, policy on {args.device}: env steps per wall-second (per CPU-second)\n")
    print("| task | threads | batch | joltgym | EnvPool | joltgym / EnvPool (wall) |")
    print("|---|---|---|---|---|---|")
    summary = {}
    for task in args.tasks.split(","):
        for t in threads:
            for b in batches:
                med = {k: {m: statistics.median(x[m] for x in results[f"{task}|{t}|{b}|{k}"]) for m in ("wall", "cpu")}
                       for k in KINDS}
                summary[f"{task}|{t}|{b}"] = med
                label = "sync" if b == n else f"async {b}"
                print(f"| {task} | {t} | {label} | {med['joltgym']['wall']:,.0f} ({med['joltgym']['cpu']:,.0f}) | "
                      f"{med['envpool']['wall']:,.0f} ({med['envpool']['cpu']:,.0f}) | "
                      f"{med['joltgym']['wall'] / med['envpool']['wall']:.2f}x |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"envs": n, "rounds": args.rounds, "device": args.device, "raw": results, "summary": summary},
                      f, indent=1)


if __name__ == "__main__":
    main()
