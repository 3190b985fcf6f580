"""Run the same open-loop action sequences in Gymnasium's MuJoCo v5 tasks and joltgym's, side by side.

Both envs of a task start from its init_qpos / init_qvel exactly (reset noise is overwritten),
so any difference comes from the physics, not the start state. An episode that terminates
(a fallen hopper) stops its sequence; the step counts say where.

    python examples/compare_with_mujoco.py                       # every task, a table each
    python examples/compare_with_mujoco.py --task HalfCheetah --steps 1000
    python examples/compare_with_mujoco.py --markdown            # one summary table (docs/results.md's)
"""

from __future__ import annotations

import argparse

import gymnasium
import mujoco
import numpy as np

import joltgym  # noqa: F401  (registers the joltgym ids)
from joltgym.tasks import TASKS

SINE_HZ = 1.5


# HalfCheetah's legs in phase, shin and foot lagging their thigh by 1/4 and 1/2 period: in MuJoCo
# this runs forward (about 25 m in 1000 steps) without flipping, so the comparison stays upright.
CHEETAH_GAIT = np.array([0.0, -0.5, -1.0, 0.0, -0.5, -1.0]) * np.pi


def action_sequences(task: str, steps: int, dt: float, low: np.ndarray, high: np.ndarray) -> dict[str, np.ndarray]:
    """Each within the action box: zeros, a travelling sine (each actuator a quarter period behind
    the one before; HalfCheetah also its gait), uniform random (seed 0), half the upper bound."""
    t = np.arange(steps)[:, None] * dt
    phase = -0.5 * np.pi * np.arange(len(low))
    mid, half = (high + low) / 2, (high - low) / 2
    sequences = {
        "zeros": np.zeros((steps, len(low))),
        f"sine {SINE_HZ:g} Hz": mid + half * np.sin(2 * np.pi * SINE_HZ * t + phase),
        "random (seed 0)": np.random.default_rng(0).uniform(low, high, (steps, len(low))),
        "constant +0.5": np.tile(mid + 0.5 * half, (steps, 1)),
    }
    if task == "HalfCheetah":
        sequences["gait 1.5 Hz"] = np.sin(2 * np.pi * SINE_HZ * t + CHEETAH_GAIT)
    return sequences


def layout(m: mujoco.MjModel) -> tuple[int | None, int | None, dict[str, int]]:
    """qpos indices of the forward coordinate and the height (None if the robot has none) and of
    every other scalar joint, by name."""
    forward = height = None
    joints = {}
    for j in range(m.njnt):
        adr, kind = int(m.jnt_qposadr[j]), mujoco.mjtJoint(int(m.jnt_type[j]))
        name = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_JOINT, j)
        if kind == mujoco.mjtJoint.mjJNT_FREE:
            forward, height = adr, adr + 2
        elif j == 0 and kind == mujoco.mjtJoint.mjJNT_SLIDE and abs(m.jnt_axis[j][0]) == 1:
            forward = adr  # planar root x, or a cart's rail
        elif j == 1 and forward == 0 and kind == mujoco.mjtJoint.mjJNT_SLIDE and abs(m.jnt_axis[j][2]) == 1:
            height = adr
        elif kind in (mujoco.mjtJoint.mjJNT_HINGE, mujoco.mjtJoint.mjJNT_SLIDE) and not (j < 3 and name.startswith("root")):
            joints[name] = adr
    return forward, height, joints


def qpos_of(env: gymnasium.Env) -> np.ndarray:
    u = env.unwrapped
    return np.array(u.data.qpos if hasattr(u, "data") else u.qpos, dtype=np.float64)


def rollout(env: gymnasium.Env, actions: np.ndarray, forward, height, joints) -> dict:
    u = env.unwrapped
    env.reset(seed=0)
    u.set_state(u.init_qpos, u.init_qvel)
    q = [qpos_of(env)]
    for a in actions:
        _, _, terminated, _, _ = env.step(a.astype(np.float32))
        q.append(qpos_of(env))
        if terminated:
            break
    q = np.array(q)
    stats: dict = {"steps": len(q) - 1}
    if forward is not None:
        stats["forward distance"] = q[-1, forward] - q[0, forward]
    if height is not None:
        stats["height"] = (q[:, height].min(), q[:, height].max())
    for name, adr in joints.items():
        stats[name] = (q[:, adr].min(), q[:, adr].max())
    return stats


def compare(task: str, steps: int, solver: str = "default") -> dict[str, dict[str, dict]]:
    envs = {
        "MuJoCo": gymnasium.make(f"{task}-v5", max_episode_steps=steps),
        "joltgym": gymnasium.make(f"joltgym/{task}-v0", max_episode_steps=steps, solver=solver),
    }
    m = envs["MuJoCo"].unwrapped.model
    dt = envs["MuJoCo"].unwrapped.dt
    assert abs(envs["joltgym"].unwrapped.dt - dt) < 1e-6  # ours is float32
    space = envs["joltgym"].action_space
    where = layout(m)
    out: dict[str, dict[str, dict]] = {}
    for seq, actions in action_sequences(task, steps, dt, space.low.astype(float), space.high.astype(float)).items():
        out[seq] = {name: rollout(env, actions, *where) for name, env in envs.items()}
    for env in envs.values():
        env.close()
    return out


def fmt(value) -> str:
    if isinstance(value, tuple):
        return f"{value[0]:+.3f}..{value[1]:+.3f}"
    if isinstance(value, int):
        return str(value)
    return f"{value:+.3f}"


def joint_gap(a: dict, b: dict) -> float:
    """The largest difference between the two engines' joint ranges (min or max), rad or m."""
    gaps = [max(abs(a[k][0] - b[k][0]), abs(a[k][1] - b[k][1])) for k in a if k not in ("steps", "forward distance", "height")]
    return max(gaps) if gaps else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=sorted(TASKS), action="append", help="this task (repeatable; default: all)")
    parser.add_argument("--steps", type=int, default=1000, help="env steps per sequence (default 1000)")
    parser.add_argument("--markdown", action="store_true", help="one summary table instead of a table per task")
    parser.add_argument("--solver", default="default",
                        help="joltgym's solver preset, e.g. 'fast' (a task without it refuses it, listing its presets)")
    args = parser.parse_args()
    tasks = args.task or list(TASKS)
    if args.markdown:
        print("| task | actions | steps (MuJoCo / ours) | forward distance, m | height range, m | worst joint-range gap |")
        print("|---|---|---|---|---|---|")
    for task in tasks:
        results = compare(task, args.steps, args.solver)
        if args.markdown:
            for seq, r in results.items():
                mj, us = r["MuJoCo"], r["joltgym"]
                fwd = f"{mj['forward distance']:+.2f} / {us['forward distance']:+.2f}" if "forward distance" in mj else "-"
                hgt = f"{fmt(mj['height'])} / {fmt(us['height'])}" if "height" in mj else "-"
                print(f"| {task} | {seq} | {mj['steps']} / {us['steps']} | {fwd} | {hgt} | {joint_gap(mj, us):.3f} |")
            continue
        print(f"\n=== {task}: {args.steps} steps at most; ranges are min..max of qpos (rad, m) ===")
        for seq, r in results.items():
            print(f"\n== {seq} ==")
            print(f"  {'':20} {'MuJoCo':>16} {'joltgym':>16}")
            for key in r["MuJoCo"]:
                print(f"  {key:20} {fmt(r['MuJoCo'][key]):>16} {fmt(r['joltgym'][key]):>16}")


if __name__ == "__main__":
    main()
