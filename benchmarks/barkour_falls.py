"""Barkour's joystick under uniform random actions: how often the robot falls (terminates) in joltgym,
in EnvPool's BarkourJoystick-v1 and in MuJoCo on the same XML (EnvPool's gains, bounds, kicks and
termination), over the same actions. Counts over many env steps, not the mean of the few episodes that
end in a short run: random kicks make those few noisy.

    python benchmarks/barkour_falls.py [--envs 64] [--steps 1000]
"""

from __future__ import annotations

import argparse

import envpool
import gymnasium as gym
import mujoco
import numpy as np

import joltgym  # noqa: F401

LOWER, UPPER = np.tile([-0.7, -1.0, 0.05], 4), np.tile([0.52, 2.1, 2.1], 4)


def falls(env, actions: np.ndarray, **reset) -> int:
    env.reset(**reset)
    return int(sum(np.count_nonzero(env.step(a)[2]) for a in actions))


def mujoco_falls(actions: np.ndarray, seed: int = 1) -> int:
    """MuJoCo on joltgym's copy of the model (EnvPool's kp, kd and timestep set), open loop, with
    EnvPool's kicks drawn from a stream of its own."""
    m = gym.make("joltgym/BarkourJoystick-v0").unwrapped.model.mj_model
    home, imu, mass = m.key_qpos[m.key("home").id], m.site("imu_frame").id, m.body_mass.sum()
    substeps, rng, count = int(round(0.02 / m.opt.timestep)), np.random.default_rng(seed), 0
    for e in range(actions.shape[1]):
        d, step = None, 0
        for a in actions[:, e]:
            if d is None:
                d, step, last = mujoco.MjData(m), 0, -1
                d.qpos[:] = home
                wait, duration, speed = rng.integers(50, 150), rng.integers(1, 10), rng.uniform(0.1, 1.0)
            if step and step % wait == 0:
                angle, last = rng.uniform(0, 2 * np.pi), step
                direction = np.array([np.cos(angle), np.sin(angle)])
            force = np.zeros(3)
            if last >= 0 and step - last < duration:
                force[:2] = 0.5 * np.sin(np.pi * (step - last) / duration) * mass * speed / (duration * 0.02) * direction
            d.xfrc_applied[1, :3] = force
            d.ctrl[:] = np.clip(home[7:] + a * 0.3, LOWER, UPPER)
            for _ in range(substeps):
                mujoco.mj_step(m, d)
            step += 1
            q = d.qpos[7:]
            if d.site_xmat[imu][8] < 0 or np.any((q < LOWER) | (q > UPPER)) or d.qpos[2] < 0.18:
                count, d = count + 1, None
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--steps", type=int, default=1000)
    args = parser.parse_args()
    actions = np.random.default_rng(0).uniform(-1, 1, (args.steps, args.envs, 12))
    ours = gym.make_vec("joltgym/BarkourJoystick-v0", num_envs=args.envs, vectorization_mode="vector_entry_point")
    theirs = envpool.make_gymnasium("BarkourJoystick-v1", num_envs=args.envs, seed=0)
    print(f"falls over {args.envs} envs x {args.steps} steps of uniform random actions\n")
    print("| engine | falls |\n|---|---:|")
    print(f"| joltgym | {falls(ours, actions.astype(np.float32), seed=0)} |")
    print(f"| EnvPool | {falls(theirs, actions)} |")
    print(f"| MuJoCo, same XML | {mujoco_falls(actions)} |")


if __name__ == "__main__":
    main()
