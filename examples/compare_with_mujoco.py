"""Run the same open-loop action sequences in MuJoCo's HalfCheetah-v5 and joltgym's.

Both envs start from init_qpos / init_qvel exactly (reset noise is overwritten), so
any difference in the tables comes from the physics, not the start state.

    python examples/compare_with_mujoco.py [--steps 1000]
"""

from __future__ import annotations

import argparse

import gymnasium
import numpy as np

import joltgym  # noqa: F401  (registers joltgym/HalfCheetah-v0)

ENGINES = {"mujoco": "HalfCheetah-v5", "jolt": "joltgym/HalfCheetah-v0"}
JOINTS = ["bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot"]
SINE_HZ = 1.5
# Both legs in phase, shin and foot lagging their thigh by 1/4 and 1/2 period: in MuJoCo
# this runs forward (~25 m in 1000 steps) without flipping, so the comparison stays upright.
SINE_PHASE = np.array([0.0, -0.5, -1.0, 0.0, -0.5, -1.0]) * np.pi


def action_sequences(steps: int, dt: float) -> dict[str, np.ndarray]:
    t = np.arange(steps)[:, None] * dt
    return {
        "zeros": np.zeros((steps, 6)),
        f"sine {SINE_HZ:g} Hz": np.sin(2 * np.pi * SINE_HZ * t + SINE_PHASE),
        "uniform random (seed 0)": np.random.default_rng(0).uniform(-1.0, 1.0, (steps, 6)),
        "constant +0.5": np.full((steps, 6), 0.5),
    }


def current_qpos(env: gymnasium.Env) -> np.ndarray:
    u = env.unwrapped
    # MujocoEnv exposes data.qpos (float64, live view); ours a float32 copy.
    return np.array(u.data.qpos if hasattr(u, "data") else u.qpos, dtype=np.float64)


def rollout(env: gymnasium.Env, actions: np.ndarray) -> dict[str, float | tuple[float, float]]:
    u = env.unwrapped
    env.reset(seed=0)
    u.set_state(u.init_qpos, u.init_qvel)
    qpos = [current_qpos(env)]
    rewards = []
    for a in actions:
        _, reward, _, _, _ = env.step(a.astype(np.float32))
        qpos.append(current_qpos(env))
        rewards.append(reward)
    q = np.array(qpos)
    stats = {
        "forward distance": q[-1, 0] - q[0, 0],
        "mean reward": float(np.mean(rewards)),
        "rootz (height)": (q[:, 1].min(), q[:, 1].max()),
        "rooty (pitch)": (q[:, 2].min(), q[:, 2].max()),
    }
    for i, name in enumerate(JOINTS):
        stats[name] = (q[:, 3 + i].min(), q[:, 3 + i].max())
    return stats


def fmt(value) -> str:
    if isinstance(value, tuple):
        return f"{value[0]:+.3f}..{value[1]:+.3f}"
    return f"{value:+.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000, help="env steps per sequence (default 1000)")
    args = parser.parse_args()

    # max_episode_steps=steps so TimeLimit never truncates mid-sequence.
    envs = {name: gymnasium.make(env_id, max_episode_steps=args.steps) for name, env_id in ENGINES.items()}
    dt = envs["mujoco"].unwrapped.dt
    assert abs(envs["jolt"].unwrapped.dt - dt) < 1e-12

    print(f"{args.steps} env steps of {dt:g} s; joint ranges are min..max of qpos in rad (rootz in m)")
    for seq_name, actions in action_sequences(args.steps, dt).items():
        results = {name: rollout(env, actions) for name, env in envs.items()}
        print(f"\n== {seq_name} ==")
        print(f"  {'':18} " + " ".join(f"{name:>16}" for name in envs))
        for key in results["mujoco"]:
            print(f"  {key:18} " + " ".join(f"{fmt(results[name][key]):>16}" for name in envs))
    for env in envs.values():
        env.close()


if __name__ == "__main__":
    main()
