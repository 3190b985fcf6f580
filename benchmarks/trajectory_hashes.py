"""A fingerprint of every env's trajectories, to show that a change moves none of them.

    python benchmarks/trajectory_hashes.py [--steps 200] [--only NAME ...] [--out hashes.json] [--against hashes.json]

For every single-agent task and each of its solver presets it steps the native vector env (16 envs,
packed into shared worlds as the pool packs them, two threads) and a single env, and for every
multi-agent id a MultiAgentVectorEnv and a PettingZoo env, from fixed seeds under seeded uniform
random actions. The solver's reference switches (hard limits, hard contacts, 3-D links), which only
tests use, are hashed on the tasks they apply to. Each line is the SHA-256 (first 16 hex digits) of
every observation, reward and flag of one run. Hashes hold for one build on one CPU (a build tuned
for another CPU rounds differently): compare runs of the same machine, before and after a change.
"""

from __future__ import annotations

import argparse
import hashlib
import json

import gymnasium as gym
import numpy as np
import pettingzoo

import joltgym
from joltgym.marl.vector import MultiAgentVectorEnv
from joltgym.tasks import TASKS
from joltgym.vector import JoltVectorEnv


def digest(arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        # A Dict observation by its arrays, key by key (an object array's bytes are its addresses).
        for part in ([a[k] for k in sorted(a)] if isinstance(a, dict) else [a]):
            h.update(np.ascontiguousarray(part).tobytes())
    return h.hexdigest()[:16]


def vector_run(task: str, steps: int, **kwargs) -> str:
    venv = JoltVectorEnv(16, task=task, num_threads=2, **kwargs)
    rng = np.random.default_rng(1)
    out = [venv.reset(seed=5)[0]]
    low, high = venv.single_action_space.low, venv.single_action_space.high
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = venv.step(rng.uniform(low, high, venv.action_space.shape).astype(np.float32))
        out += [obs, reward, terminated, truncated]
    venv.close()
    return digest(out)


def single_run(task: str, steps: int, **kwargs) -> str:
    env = gym.make(f"joltgym/{task}-v0", **kwargs)
    rng = np.random.default_rng(2)
    out = [env.reset(seed=9)[0]]
    low, high = env.action_space.low, env.action_space.high
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(rng.uniform(low, high).astype(np.float32))
        out += [obs, np.float64(reward), np.bool_(terminated), np.bool_(truncated)]
        if terminated or truncated:
            out.append(env.reset()[0])
    env.close()
    return digest(out)


def multi_agent_vector_run(env_id: str, steps: int) -> str:
    venv = MultiAgentVectorEnv(env_id, 4, num_threads=2)
    rng = np.random.default_rng(3)
    out = list(venv.reset(seed=11)[:1])
    act_dim = max(venv.action_spaces[a].shape[0] for a in venv.possible_agents)
    for _ in range(steps):
        result = venv.step(rng.uniform(-1, 1, (4, len(venv.possible_agents), act_dim)).astype(np.float32))
        out += [np.asarray(x) for x in result[:4]]
    venv.close()
    return digest(out)


def parallel_run(env_id: str, steps: int) -> str:
    env = pettingzoo.make("parallel", env_id)
    out = []
    obs, _ = env.reset(seed=13)
    out += [obs[a] for a in sorted(obs)]
    for a in env.possible_agents:
        env.action_space(a).seed(17)
    for _ in range(steps):
        if not env.agents:
            break
        obs, rewards, terms, truncs, _ = env.step({a: env.action_space(a).sample() for a in env.agents})
        out += [obs[a] for a in sorted(obs)] + [np.float64(rewards[a]) for a in sorted(rewards)]
        out += [np.bool_(terms[a]) for a in sorted(terms)] + [np.bool_(truncs[a]) for a in sorted(truncs)]
    env.close()
    return digest(out)


def presets(spec) -> dict[str, object]:
    """The task's solver presets by name, under this build's vocabulary."""
    if hasattr(spec, "presets"):
        return {"default": None, **{name: name for name in spec.presets}}
    return {"default": None, **({"fast": "fast"} if spec.fast_solver is not None else {})}


def reference_switches(spec) -> dict[str, object]:
    """Settings with one of the reference switches off, in whichever form this build takes them."""
    try:
        from joltgym.model import _ReferenceSolverSettings

        with_switches = _ReferenceSolverSettings.of
    except ImportError:
        import dataclasses

        with_switches = dataclasses.replace
    out = {}
    for switch in ("soft_limits", "soft_contacts", "planar_links"):
        settings = {switch: False}
        if switch == "planar_links":
            settings.update(articulated_joints=False, mujoco_euler=False)
        out[f"{switch}=False"] = with_switches(spec.solver, **settings)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--out", help="write the hashes here (JSON)")
    parser.add_argument("--against", help="compare with hashes written before; exit 1 on any difference")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="hash only these tasks or multi-agent ids")
    args = parser.parse_args()
    wanted = (lambda name: name in args.only) if args.only else (lambda name: True)

    hashes: dict[str, str] = {}

    def record(key: str, value: str) -> None:
        hashes[key] = value
        print(f"{key:<58} {value}", flush=True)

    for name, spec in TASKS.items():
        if not wanted(name):
            continue
        for preset, solver in presets(spec).items():
            record(f"{name} vector {preset}", vector_run(name, args.steps, solver=solver))
            record(f"{name} single {preset}", single_run(name, args.steps, solver=solver))
    for name in filter(wanted, ("Hopper", "HalfCheetah", "Humanoid", "InvertedPendulum")):
        for label, solver in reference_switches(TASKS[name]).items():
            record(f"{name} vector {label}", vector_run(name, args.steps // 4, solver=solver))
    for env_id in filter(wanted, joltgym.multi_agent_ids()):
        record(f"{env_id} vector", multi_agent_vector_run(env_id, args.steps // 2))
        record(f"{env_id} parallel", parallel_run(env_id, args.steps // 2))

    if args.out:
        with open(args.out, "w") as f:
            json.dump(hashes, f, indent=1)
    if args.against:
        with open(args.against) as f:
            before = json.load(f)
        changed = sorted(k for k in before.keys() & hashes.keys() if before[k] != hashes[k])
        missing = sorted(before.keys() - hashes.keys())
        print(f"{len(before.keys() & hashes.keys())} compared, {len(changed)} differ, {len(missing)} not run now")
        for k in changed + missing:
            print("  ", k, before.get(k), hashes.get(k))
        raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
