"""Evaluate a train_ppo.py checkpoint deterministically (the mean action, observation statistics
frozen as saved) on any env id, e.g. a Go1 policy trained on one engine run on the other.

    python examples/evaluate_checkpoint.py CKPT --env-id envpool:Go1JoystickFlatTerrain-v1 [--envs 16] [--seed 123]
        [--record clip.gif --steps 250]

Prints the mean, minimum and maximum return over one episode of each env, how many fell
(terminated) rather than reaching the time limit, and, for the joystick tasks, the mean per-step
linear-velocity tracking term (1 = the commanded velocity exactly). --record draws one joltgym env
following the policy into an animated GIF instead.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
import train_ppo  # noqa: E402  (the agent and its flags are train_ppo's)


def load_agent(path: str) -> tuple[train_ppo.Agent, dict, dict]:
    """The agent of a checkpoint, its flags and its observation statistics."""
    ckpt = torch.load(path, weights_only=False)
    args = ckpt["args"]
    norm = ckpt["obs_norm"]
    policy_key, value_key = args.get("policy_obs_key") or "state", args.get("value_obs_key") or "privileged_state"
    def sizes(v):
        return train_ppo.hidden_sizes(v) if isinstance(v, str) else tuple(v)

    agent = train_ppo.Agent(len(norm[policy_key]["mean"]), ckpt["agent"]["actor_logstd"].shape[1],
                            len(norm[value_key]["mean"]), sizes(args["policy_hidden"]), sizes(args["value_hidden"]),
                            args["activation"], args["init_log_std"], args["tanh_squash"])
    agent.load_state_dict(ckpt["agent"])
    return agent, ckpt, norm[policy_key]


def policy_action(agent, stats: dict, state) -> np.ndarray:
    x = np.clip((np.asarray(state, np.float64) - stats["mean"]) / np.sqrt(stats["var"] + 1e-8), -10, 10)
    with torch.no_grad():
        return agent.env_action(agent.actor_mean(torch.tensor(x, dtype=torch.float32))).numpy()


def record(agent, stats: dict, env_id: str, seed: int, steps: int, out: str) -> None:
    """One episode of joltgym's env following the policy, every second step a frame of an animated GIF."""
    import gymnasium as gym
    from PIL import Image

    import joltgym  # noqa: F401  (registers the ids)

    env = gym.make(env_id, render_mode="rgb_array", width=320, height=240)
    obs, _ = env.reset(seed=seed)
    frames = []
    for step in range(steps):
        obs, _, terminated, truncated, _ = env.step(policy_action(agent, stats, obs["state"]).astype(np.float32))
        if step % 2 == 0:
            frames.append(Image.fromarray(env.render()))
        if terminated or truncated:
            break
    frames[0].save(out, save_all=True, append_images=frames[1:], duration=40, loop=0, optimize=True)
    print(f"{out}: {len(frames)} frames")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkpoint")
    parser.add_argument("--env-id", required=True, help="joltgym/... or envpool:<Id>, as train_ppo.py takes them")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=123)
    parser.add_argument("--record", metavar="GIF", default=None, help="draw one joltgym env into this GIF instead")
    parser.add_argument("--steps", type=int, default=250, help="steps recorded by --record")
    args = parser.parse_args()
    agent, ckpt, stats = load_agent(args.checkpoint)
    if args.record:
        record(agent, stats, args.env_id, args.seed, args.steps, args.record)
        return
    mode = "vector_entry_point" if args.env_id.startswith("joltgym/") else "sync"
    envs = train_ppo.make_envs(argparse.Namespace(**{**ckpt["args"], "env_id": args.env_id, "num_envs": args.envs,
                                                     "env_threads": 1, "vectorization_mode": mode}), args.seed)
    obs, _ = envs.reset(seed=args.seed) if not args.env_id.startswith("envpool:") else envs.reset()
    returns, running = np.zeros(args.envs), np.ones(args.envs, bool)
    fell = np.zeros(args.envs, bool)
    tracking, tracked_steps = 0.0, 0
    while running.any():
        action = policy_action(agent, stats, obs["state"])
        obs, reward, terminated, truncated, info = envs.step(action.astype(envs.action_space.dtype))
        if "reward_tracking_lin_vel" in info:
            tracking += float(np.sum(np.asarray(info["reward_tracking_lin_vel"]) * running))
            tracked_steps += int(running.sum())
        returns += reward * running
        fell |= terminated & running
        running &= ~(terminated | truncated)
    print(f"{args.env_id}: policy of step {ckpt['global_step']} on {ckpt['args']['env_id']}: return mean "
          f"{returns.mean():.1f}, min {returns.min():.1f}, max {returns.max():.1f}; fell {fell.sum()}/{args.envs}"
          + (f"; linear-velocity tracking {tracking / tracked_steps:.2f} per step" if tracked_steps else ""))


if __name__ == "__main__":
    main()
