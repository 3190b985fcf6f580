"""PPO from pixels on Control Suite tasks: joltgym's suite ids against dm_control's own tasks on MuJoCo.

The pixel counterpart of ``train_ppo.py`` (whose helpers it imports, and whose rollout bookkeeping it
follows: NEXT_STEP autoreset rows masked out of the losses, time-limit truncations bootstrapped, raw
episode returns written to a CSV, reward normalisation by Gymnasium's wrappers). What changes is the
observation and the network:

* observations are the last ``--frame-stack`` (3) 84x84 RGB frames of the task's camera 0 (DrQ's), uint8,
  laid out ``(k, 84, 84, 3)`` oldest first on both engines: joltgym's ``obs_type="pixels", frame_stack=k``
  (drawn inside its native vector env) and ``examples/dmc_gym.py``'s ``DMCEnv(..., obs_type="pixels",
  frame_stack=k)`` (``physics.render(84, 84, camera_id=0)``, MuJoCo's EGL, in Gymnasium's sync vector env);
  ``--action-repeat`` applies each action for k control steps on both (DrQ / PlaNet: 4 for cheetah, 8 for
  cartpole, 2 for walker) and sums their rewards;
* no observation normalisation: the frames are scaled by 1/255 inside the network;
* one Nature-CNN encoder (conv 32x8/4, 64x4/2, 64x3/1, dense 512, ReLU; CleanRL's ``ppo_atari``) shared by a
  linear Gaussian policy head (state-independent log-std) and a linear value head;
* DrQ's random shift (``--random-shift 4``: pad 4 pixels by replication, crop 84x84 at a random offset
  per sample) on the minibatches of the PPO update (RAD-style; the rollout acts on the unshifted frames).
  ``--random-shift 0`` turns it off.

``--input-norm`` (off in the recipe; a diagnostic) standardises each input channel by the mean and std of the
first observations (the reset frames of all envs), held fixed for the run, instead of only scaling by 1/255:
it takes out the difference in overall brightness between the two engines' pictures.

``--total-timesteps`` counts agent steps (env steps of the action-repeated env, i.e. frames drawn);
the task's control steps are ``--action-repeat`` times as many. Example (one engine each)::

    python examples/train_pixels.py --env-id joltgym/CheetahRun-v0 --action-repeat 4 --total-timesteps 32768
    python examples/train_pixels.py --env-id dm_control/cheetah-run --action-repeat 4 --total-timesteps 32768

dm_control renders through ``MUJOCO_GL`` (set to ``egl`` here unless given) with Mesa's software rasteriser
on one thread (``LP_NUM_THREADS=1`` unless given).
"""

from __future__ import annotations

import os

os.environ.setdefault("MUJOCO_GL", "egl")
os.environ.setdefault("LP_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import deque  # noqa: E402
from pathlib import Path  # noqa: E402

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import torch.optim as optim  # noqa: E402
from torch.distributions.normal import Normal  # noqa: E402

EXAMPLES_DIR = Path(__file__).resolve().parent
if str(EXAMPLES_DIR) not in sys.path:
    sys.path.insert(0, str(EXAMPLES_DIR))
from train_ppo import DMC_PREFIX, add_ppo_arguments, env_kwargs, gae, layer_init, log_episodes, report_run  # noqa: E402


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--env-id", default="joltgym/CheetahRun-v0",
                   help="a joltgym suite id (joltgym/CheetahRun-v0, ...) or dm_control/<domain>-<task>")
    p.add_argument("--action-repeat", type=int, default=4, help="control steps per agent step (reward summed)")
    p.add_argument("--frame-stack", type=int, default=3)
    p.add_argument("--size", type=int, default=84, help="frame width and height")
    p.add_argument("--camera-id", type=int, default=0)
    p.add_argument("--env-threads", type=int, default=1, help="worker threads of joltgym's native vector env")
    p.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE",
                   help="another keyword argument of a joltgym env (a Python literal, else a string; repeatable)")
    p.add_argument("--total-timesteps", type=int, default=32_768, help="agent steps (frames), all envs together")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=64, help="steps per env per rollout")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--out", default=None, help="episode CSV (default: examples/results/<env>_pixels_<seed>.csv)")
    p.add_argument("--save-model", default=None, metavar="PATH", help="save the final agent here")
    p.add_argument("--log-every", type=int, default=5_000, help="print progress every this many agent steps")
    p.add_argument("--random-shift", type=int, default=4, metavar="PAD",
                   help="DrQ's random shift on the update's minibatches (pad, then crop back); 0: none")
    p.add_argument("--input-norm", action="store_true",
                   help="standardise each input channel by the reset frames' mean / std (fixed for the run)")
    add_ppo_arguments(p, num_minibatches=4, update_epochs=4)
    p.add_argument("--init-log-std", type=float, default=0.0)
    p.add_argument("--no-norm-reward", dest="norm_reward", action="store_false")
    args = p.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.num_iterations = args.total_timesteps // args.batch_size
    if args.num_iterations < 1:
        p.error(f"--total-timesteps must be at least num_envs * num_steps = {args.batch_size}")
    if not (args.env_id.startswith("joltgym/") or args.env_id.startswith(DMC_PREFIX)):
        p.error("--env-id must be a joltgym/ suite id or dm_control/<domain>-<task>")
    if args.out is None:
        args.out = str(EXAMPLES_DIR / "results" / f"{args.env_id.replace('/', '_')}_pixels_{args.seed}.csv")
    return args


def make_envs(args: argparse.Namespace) -> gym.vector.VectorEnv:
    """The same observation layout, action repeat and wrappers on both engines."""
    common = dict(frame_stack=args.frame_stack, action_repeat=args.action_repeat, width=args.size,
                  height=args.size, camera_id=args.camera_id)
    if args.env_id.startswith(DMC_PREFIX):
        import dmc_gym  # examples/dmc_gym.py

        if args.env_kwarg:
            raise SystemExit("--env-kwarg does not apply to dm_control/ ids")
        envs = dmc_gym.make_vec(args.env_id, args.num_envs, obs_type="pixels", **common)
    else:
        import joltgym  # noqa: F401  (registers the joltgym ids)

        envs = gym.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode="vector_entry_point",
                            obs_type="pixels", num_threads=args.env_threads, **common, **env_kwargs(args.env_kwarg))
    mode = envs.metadata.get("autoreset_mode")
    if mode is not None and mode != gym.vector.AutoresetMode.NEXT_STEP:
        raise SystemExit(f"this script expects NEXT_STEP autoreset, the env uses {mode}")
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    envs = gym.wrappers.vector.ClipAction(envs)
    if args.norm_reward:
        envs = gym.wrappers.vector.NormalizeReward(envs, gamma=args.gamma)
        envs = gym.wrappers.vector.ClipReward(envs, -10.0, 10.0)
    return envs


def to_channels(obs: torch.Tensor) -> torch.Tensor:
    """(B, [k,] H, W, 3) uint8 -> (B, 3k, H, W) uint8, frames oldest first."""
    if obs.dim() == 4:
        return obs.permute(0, 3, 1, 2)
    b, k, h, w, c = obs.shape
    return obs.permute(0, 1, 4, 2, 3).reshape(b, k * c, h, w)


def random_shift(x: torch.Tensor, pad: int) -> torch.Tensor:
    """DrQ's augmentation: replicate-pad by ``pad`` and crop back to the input size at a random integer
    offset per sample. ``x``: (B, C, H, W) float."""
    if pad <= 0:
        return x
    b, c, h, w = x.shape
    padded = F.pad(x, (pad, pad, pad, pad), mode="replicate")
    oy = torch.randint(0, 2 * pad + 1, (b,))
    ox = torch.randint(0, 2 * pad + 1, (b,))
    rows = (oy[:, None] + torch.arange(h)[None, :])[:, None, :, None]
    cols = (ox[:, None] + torch.arange(w)[None, :])[:, None, None, :]
    return padded[torch.arange(b)[:, None, None, None], torch.arange(c)[None, :, None, None], rows, cols]


class PixelAgent(nn.Module):
    """Nature-CNN encoder shared by a Gaussian policy head and a value head (CleanRL's ppo_atari layout)."""

    def __init__(self, in_channels: int, size: int, act_dim: int, init_log_std: float = 0.0):
        super().__init__()
        self.encoder = nn.Sequential(
            layer_init(nn.Conv2d(in_channels, 32, 8, stride=4)), nn.ReLU(),
            layer_init(nn.Conv2d(32, 64, 4, stride=2)), nn.ReLU(),
            layer_init(nn.Conv2d(64, 64, 3, stride=1)), nn.ReLU(), nn.Flatten())
        with torch.no_grad():
            n_flat = self.encoder(torch.zeros(1, in_channels, size, size)).shape[1]
        self.encoder.append(layer_init(nn.Linear(n_flat, 512)))
        self.encoder.append(nn.ReLU())
        self.actor_mean = layer_init(nn.Linear(512, act_dim), std=0.01)
        self.actor_logstd = nn.Parameter(torch.full((1, act_dim), float(init_log_std)))
        self.critic = layer_init(nn.Linear(512, 1), std=1.0)
        # Input scaling: (x / 255 - offset) / scale per channel; 0 and 1 unless --input-norm sets them.
        self.register_buffer("offset", torch.zeros(1, in_channels, 1, 1))
        self.register_buffer("scale", torch.ones(1, in_channels, 1, 1))

    def set_input_norm(self, x: torch.Tensor) -> None:
        """Per-channel mean and std of a batch of (B, C, H, W) uint8 frames, fixed from now on."""
        x = x.float() / 255.0
        self.offset.copy_(x.mean(dim=(0, 2, 3), keepdim=True))
        self.scale.copy_(x.std(dim=(0, 2, 3), keepdim=True).clamp_min(1e-3))

    def features(self, x: torch.Tensor, shift: int = 0) -> torch.Tensor:
        """``x``: (B, C, H, W) uint8."""
        return self.encoder(random_shift((x.float() / 255.0 - self.offset) / self.scale, shift))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(self.features(x))

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None, shift: int = 0):
        h = self.features(x, shift)
        mean = self.actor_mean(h)
        probs = Normal(mean, torch.exp(self.actor_logstd.expand_as(mean)))
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(h)


def main(argv=None) -> None:
    args = parse_args(argv)
    print(f"PPO from pixels on {args.env_id}: {args.num_envs} envs x {args.num_steps} steps, action repeat "
          f"{args.action_repeat}, {args.frame_stack} frames of {args.size}x{args.size}, {args.num_iterations} "
          f"iterations, seed {args.seed}, CSV -> {args.out}", flush=True)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)

    envs = make_envs(args)
    envs.action_space.seed(args.seed)
    space = envs.single_observation_space
    assert space.dtype == np.uint8, space
    act_dim = int(np.prod(envs.single_action_space.shape))
    obs_shape = to_channels(torch.zeros((1,) + space.shape, dtype=torch.uint8)).shape[1:]  # (3k, H, W)
    print(f"observation {space.shape} uint8 -> network input {tuple(obs_shape)}", flush=True)

    agent = PixelAgent(obs_shape[0], args.size, act_dim, args.init_log_std)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    T, N = args.num_steps, args.num_envs
    obs = torch.zeros((T, N) + tuple(obs_shape), dtype=torch.uint8)
    actions = torch.zeros((T, N, act_dim))
    logprobs, rewards, terminations, dones, values, valid = (torch.zeros((T, N)) for _ in range(6))

    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    csv_file = open(out_path, "w", newline="")
    writer = csv.writer(csv_file)
    writer.writerow(["global_step", "wall_seconds", "episode_return", "episode_length"])
    recent_returns: deque[float] = deque(maxlen=20)
    n_episodes = global_step = 0
    t_env = t_update = 0.0
    next_log = args.log_every

    start_time = time.time()
    t0 = time.perf_counter()
    next_obs_np, _ = envs.reset(seed=args.seed)
    t_env += time.perf_counter() - t0
    next_obs = to_channels(torch.as_tensor(next_obs_np))
    next_done = torch.zeros(N)
    if args.input_norm:
        agent.set_input_norm(next_obs)
        print(f"input norm: channel means {agent.offset.flatten()[:3].numpy().round(3)}, stds "
              f"{agent.scale.flatten()[:3].numpy().round(3)} (first frame's RGB)", flush=True)

    for iteration in range(1, args.num_iterations + 1):
        if args.anneal_lr:
            optimizer.param_groups[0]["lr"] = (1.0 - (iteration - 1.0) / args.num_iterations) * args.learning_rate

        for step in range(T):  # rollout; see train_ppo.py for the NEXT_STEP bookkeeping
            global_step += N
            obs[step] = next_obs
            valid[step] = 1.0 - next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob
            t0 = time.perf_counter()
            next_obs_np, reward, terminated, truncated, infos = envs.step(action.numpy())
            t_env += time.perf_counter() - t0
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            terminations[step] = torch.as_tensor(terminated, dtype=torch.float32)
            dones[step] = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            next_obs = to_channels(torch.as_tensor(next_obs_np))
            next_done = dones[step].clone()
            n_episodes += log_episodes(infos, global_step, time.time() - start_time, writer, csv_file, recent_returns)

        t_update_start = time.perf_counter()
        with torch.no_grad():  # GAE, as train_ppo.py (truncations bootstrapped from the final frames' value)
            next_value = agent.get_value(next_obs).reshape(1, -1)
            advantages = gae(rewards, values, next_value, terminations, dones, valid, args.gamma, args.gae_lambda)
            returns = advantages + values

        keep = valid.reshape(-1).bool()
        b_obs = obs.reshape((-1,) + tuple(obs_shape))[keep]
        b_logprobs, b_actions = logprobs.reshape(-1)[keep], actions.reshape(-1, act_dim)[keep]
        b_advantages, b_returns, b_values = (x.reshape(-1)[keep] for x in (advantages, returns, values))
        n_valid = b_obs.shape[0]
        clipfracs = []
        for epoch in range(args.update_epochs):
            for mb in torch.tensor_split(torch.randperm(n_valid), max(1, min(args.num_minibatches, n_valid))):
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb], b_actions[mb],
                                                                              shift=args.random_shift)
                logratio = newlogprob - b_logprobs[mb]
                ratio = logratio.exp()
                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())
                mb_adv = b_advantages[mb]
                if len(mb) > 1:
                    mb_adv = (mb_adv - mb_adv.mean()) / (mb_adv.std() + 1e-8)
                pg_loss = torch.max(-mb_adv * ratio,
                                    -mb_adv * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)).mean()
                newvalue = newvalue.view(-1)
                if args.clip_vloss:
                    v_clipped = b_values[mb] + torch.clamp(newvalue - b_values[mb], -args.clip_coef, args.clip_coef)
                    v_loss = 0.5 * torch.max((newvalue - b_returns[mb]) ** 2, (v_clipped - b_returns[mb]) ** 2).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        t_update += time.perf_counter() - t_update_start

        if global_step >= next_log or iteration == args.num_iterations:
            while next_log <= global_step:
                next_log += args.log_every
            mean_ret = f"{np.mean(recent_returns):8.1f}" if recent_returns else "     n/a"
            print(f"step {global_step:>8d}  SPS {global_step / (time.time() - start_time):6.1f} (env-only "
                  f"{global_step / max(t_env, 1e-9):7.1f})  episodes {n_episodes:>4d}  mean return (last "
                  f"{len(recent_returns)}) {mean_ret}  v_loss {v_loss.item():.3f}  approx_kl {approx_kl.item():.4f}  "
                  f"clipfrac {np.mean(clipfracs):.3f}  std {agent.actor_logstd.exp().mean().item():.3f}", flush=True)

    elapsed = time.time() - start_time
    csv_file.close()
    if args.save_model:
        torch.save({"agent": agent.state_dict(), "args": vars(args)}, args.save_model)
        print(f"saved model to {args.save_model}")
    envs.close()
    report_run(elapsed, t_env, t_update, global_step, n_episodes, recent_returns)


if __name__ == "__main__":
    main()
