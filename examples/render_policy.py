"""Render a policy trained by examples/train_ppo.py: an mp4 through Gymnasium's RecordVideo, or a window.

    python examples/train_ppo.py --env-id joltgym/HalfCheetah-v0 --total-timesteps 300000 --save-model cheetah.pt
    python examples/render_policy.py cheetah.pt --out videos/            # videos/<id>-episode-0.mp4
    python examples/render_policy.py cheetah.pt --human                  # a window (pygame), at render_fps

The policy acts deterministically (its mean action) on observations normalised with the saved
running statistics, as it was trained. Any id works, joltgym's or MuJoCo's, with the same script.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

import joltgym  # noqa: F401

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_ppo import Agent  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("model", help="a file saved by train_ppo.py --save-model")
    p.add_argument("--env-id", default=None, help="default: the id the model was trained on")
    p.add_argument("--episodes", type=int, default=1)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default="videos", help="folder for the mp4s")
    p.add_argument("--human", action="store_true", help="show a window instead of writing videos")
    p.add_argument("--width", type=int, default=480)
    p.add_argument("--height", type=int, default=480)
    args = p.parse_args()

    saved = torch.load(args.model, weights_only=False)
    env_id = args.env_id or saved["args"]["env_id"]
    mode = "human" if args.human else "rgb_array"
    env = gym.make(env_id, render_mode=mode, width=args.width, height=args.height)
    if not args.human:
        env = gym.wrappers.RecordVideo(env, args.out, episode_trigger=lambda e: True, name_prefix=env_id.replace("/", "_"))
    agent = Agent(env.observation_space.shape[0], env.action_space.shape[0])
    agent.load_state_dict(saved["agent"])
    mean, std = np.asarray(saved["obs_mean"]), np.sqrt(np.asarray(saved["obs_var"]) + 1e-8)
    for episode in range(args.episodes):
        obs, _ = env.reset(seed=args.seed + episode)
        done, total = False, 0.0
        while not done:
            x = torch.as_tensor(np.clip((obs - mean) / std, -10, 10), dtype=torch.float32)[None]
            with torch.no_grad():
                action = agent.actor_mean(x)[0].numpy()
            obs, reward, terminated, truncated, _ = env.step(np.clip(action, env.action_space.low, env.action_space.high))
            total += float(reward)
            done = terminated or truncated
        print(f"episode {episode}: return {total:.1f}")
    env.close()
    if not args.human:
        print(f"videos in {Path(args.out).resolve()}")


if __name__ == "__main__":
    main()
