"""Single-file PPO for continuous control, after CleanRL's ``ppo_continuous_action.py``.

The recipe is CleanRL's: separate 2x64 tanh MLPs for actor and critic (orthogonal init),
a state-independent log-std, GAE (gamma 0.99, lambda 0.95), Adam lr 3e-4 annealed linearly
to 0, 10 epochs of 32 minibatches per rollout, clip 0.2 (policy and value), entropy
coefficient 0, value coefficient 0.5, max grad norm 0.5, per-minibatch advantage
normalisation, and observation / reward normalisation and clipping via Gymnasium wrappers.

What differs from CleanRL's script is only what Gymnasium 1.x vector environments require:

* The envs are one Gymnasium 1.x ``VectorEnv`` made by ``gymnasium.make_vec`` (joltgym's
  native ``JoltVectorEnv`` for ``joltgym/...`` ids, a ``SyncVectorEnv`` otherwise) wrapped
  with the ``gymnasium.wrappers.vector`` wrappers.
* Those envs autoreset in ``NEXT_STEP`` mode: the ``step`` call after an episode ended
  ignores its action and returns the first observation of a new episode with reward 0.
  That row of the rollout is not a transition of the task and is masked out of the losses
  (see ``valid`` below). Because this mode hands over the episode's final observation as
  the next observation, a truncated (time-limit) episode is bootstrapped from the value of
  its real final observation; ``--no-bootstrap-truncation`` treats truncation as
  termination instead, as CleanRL does.

Usage (see ``--help``)::

    python examples/train_ppo.py --env-id joltgym/HalfCheetah-v0 --total-timesteps 1000000
    python examples/train_ppo.py --env-id HalfCheetah-v5 --total-timesteps 1000000

Every finished episode is appended to a CSV (global_step, wall_seconds, episode_return,
episode_length); episode returns are the raw task returns (recorded before any
normalisation wrapper).
"""

from __future__ import annotations

import argparse
import ast
import csv
import os
import random
import time
from collections import deque
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.distributions.normal import Normal

EXAMPLES_DIR = Path(__file__).resolve().parent


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--env-id", default="joltgym/HalfCheetah-v0", help="Gymnasium id (joltgym/... or e.g. HalfCheetah-v5)")
    p.add_argument("--vectorization-mode", default=None, choices=["vector_entry_point", "sync", "async"],
                   help="make_vec mode (default: vector_entry_point for joltgym/ ids, sync otherwise)")
    p.add_argument("--env-threads", type=int, default=None,
                   help="worker threads of joltgym's native vector env (default: its own default)")
    p.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE",
                   help="a keyword argument of the env, e.g. solver=fast (a Python literal, else a string; repeatable)")
    p.add_argument("--total-timesteps", type=int, default=1_000_000)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=256, help="steps per env per rollout")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--out", default=None, help="episode CSV (default: examples/results/<env>_<seed>.csv)")
    p.add_argument("--save-model", default=None, metavar="PATH", help="save the final agent and normaliser stats here")
    p.add_argument("--log-every", type=int, default=20_000, help="print progress every this many env steps")
    # PPO hyper-parameters (CleanRL defaults)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=32)
    p.add_argument("--update-epochs", type=int, default=10)
    p.add_argument("--no-norm-adv", dest="norm_adv", action="store_false")
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--no-clip-vloss", dest="clip_vloss", action="store_false")
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--target-kl", type=float, default=None)
    p.add_argument("--no-bootstrap-truncation", dest="bootstrap_truncation", action="store_false",
                   help="treat time-limit truncation like termination (CleanRL's behaviour)")
    args = p.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    args.num_iterations = args.total_timesteps // args.batch_size
    if args.num_iterations < 1:
        p.error(f"--total-timesteps must be at least num_envs * num_steps = {args.batch_size}")
    if args.vectorization_mode is None:
        args.vectorization_mode = "vector_entry_point" if args.env_id.startswith("joltgym/") else "sync"
    if args.out is None:
        args.out = str(EXAMPLES_DIR / "results" / f"{args.env_id.replace('/', '_')}_{args.seed}.csv")
    return args


def env_kwargs(items: list[str]) -> dict:
    """--env-kwarg KEY=VALUE items: each value a Python literal where it parses as one, else a string."""
    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--env-kwarg {item!r}: expected KEY=VALUE")
        try:
            out[key] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            out[key] = value
    return out


def make_envs(args: argparse.Namespace) -> gym.vector.VectorEnv:
    if args.env_id.startswith("joltgym/"):
        import joltgym  # noqa: F401  (registers the joltgym ids)
    kwargs = dict(env_kwargs(args.env_kwarg))
    if args.env_threads is not None:
        if args.vectorization_mode != "vector_entry_point":
            raise SystemExit("--env-threads only applies to joltgym's native vector env")
        kwargs["num_threads"] = args.env_threads
    envs = gym.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode=args.vectorization_mode, **kwargs)
    mode = envs.metadata.get("autoreset_mode")
    if mode is not None and mode != gym.vector.AutoresetMode.NEXT_STEP:
        raise SystemExit(f"this script expects NEXT_STEP autoreset, the env uses {mode}")
    # The same wrapper stack as CleanRL, in the same order. RecordEpisodeStatistics comes first
    # so that it sees the raw rewards: the returns it reports are the task's own returns.
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    envs = gym.wrappers.vector.ClipAction(envs)
    envs = gym.wrappers.vector.NormalizeObservation(envs)
    envs = gym.wrappers.vector.TransformObservation(envs, lambda obs: np.clip(obs, -10, 10))
    # Gymnasium 1.x NormalizeReward skips the NEXT_STEP autoreset row when updating its
    # discounted-return statistics, so those are not polluted by the filler reward either.
    envs = gym.wrappers.vector.NormalizeReward(envs, gamma=args.gamma)
    envs = gym.wrappers.vector.ClipReward(envs, -10.0, 10.0)
    assert isinstance(envs.single_action_space, gym.spaces.Box), "only continuous action spaces are supported"
    return envs


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


class Agent(nn.Module):
    def __init__(self, obs_dim: int, act_dim: int):
        super().__init__()
        self.critic = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 1), std=1.0),
        )
        self.actor_mean = nn.Sequential(
            layer_init(nn.Linear(obs_dim, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, 64)), nn.Tanh(),
            layer_init(nn.Linear(64, act_dim), std=0.01),
        )
        self.actor_logstd = nn.Parameter(torch.zeros(1, act_dim))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None):
        action_mean = self.actor_mean(x)
        action_std = torch.exp(self.actor_logstd.expand_as(action_mean))
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        return action, probs.log_prob(action).sum(1), probs.entropy().sum(1), self.critic(x)


def find_wrapper(env, cls):
    while env is not None:
        if isinstance(env, cls):
            return env
        env = getattr(env, "env", None)
    return None


def main(argv=None) -> None:
    args = parse_args(argv)
    print(f"PPO on {args.env_id} ({args.vectorization_mode}): {args.num_envs} envs x {args.num_steps} steps, "
          f"{args.num_iterations} iterations, seed {args.seed}, CSV -> {args.out}", flush=True)

    # Seeding: Python, NumPy and torch RNGs, the env reset seeds (env i gets seed + i) and the
    # action space. On CPU this makes a run reproducible for a fixed --torch-threads.
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = True
    torch.set_num_threads(args.torch_threads)
    device = torch.device("cpu")

    envs = make_envs(args)
    envs.action_space.seed(args.seed)
    obs_dim = int(np.prod(envs.single_observation_space.shape))
    act_dim = int(np.prod(envs.single_action_space.shape))

    agent = Agent(obs_dim, act_dim).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # Rollout storage. Row t holds the observation the agent acted on at step t and what the
    # env returned for that action.
    T, N = args.num_steps, args.num_envs
    obs = torch.zeros((T, N, obs_dim), device=device)
    actions = torch.zeros((T, N, act_dim), device=device)
    logprobs = torch.zeros((T, N), device=device)
    rewards = torch.zeros((T, N), device=device)
    terminations = torch.zeros((T, N), device=device)
    dones = torch.zeros((T, N), device=device)  # terminated or truncated
    values = torch.zeros((T, N), device=device)
    # valid[t, i] is 0 for the NEXT_STEP autoreset row: the env ended an episode at step t-1,
    # so at step t it ignores the action, resets, and returns the new episode's first
    # observation with a filler reward of 0. obs[t, i] is the previous episode's final
    # observation, and (obs[t], actions[t], rewards[t]) is not a transition of the task: it
    # must contribute neither to the policy/value losses nor to advantage normalisation.
    valid = torch.zeros((T, N), device=device)

    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    csv_file = open(out_path, "w", newline="")
    writer = csv.writer(csv_file)
    writer.writerow(["global_step", "wall_seconds", "episode_return", "episode_length"])
    recent_returns: deque[float] = deque(maxlen=20)
    n_episodes = 0

    global_step = 0
    t_env = t_update = 0.0  # seconds spent inside envs.step (incl. wrappers) / in the PPO update
    start_time = time.time()
    next_log = args.log_every
    next_obs_np, _ = envs.reset(seed=args.seed)
    next_obs = torch.as_tensor(next_obs_np, dtype=torch.float32, device=device)
    next_done = torch.zeros(N, device=device)  # did the previous step end an episode?

    for iteration in range(1, args.num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        # ---- rollout ----
        for step in range(T):
            global_step += N
            obs[step] = next_obs
            valid[step] = 1.0 - next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob

            t0 = time.perf_counter()
            next_obs_np, reward, terminated, truncated, infos = envs.step(action.cpu().numpy())
            t_env += time.perf_counter() - t0
            done = np.logical_or(terminated, truncated)
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
            terminations[step] = torch.as_tensor(terminated, dtype=torch.float32, device=device)
            dones[step] = torch.as_tensor(done, dtype=torch.float32, device=device)
            next_obs = torch.as_tensor(next_obs_np, dtype=torch.float32, device=device)
            next_done = dones[step].clone()

            if "_episode" in infos:
                wall = time.time() - start_time
                for i in np.flatnonzero(infos["_episode"]):
                    ret, length = float(infos["episode"]["r"][i]), int(infos["episode"]["l"][i])
                    writer.writerow([global_step, f"{wall:.3f}", f"{ret:.4f}", length])
                    recent_returns.append(ret)
                    n_episodes += 1
                csv_file.flush()

        t_update_start = time.perf_counter()
        # ---- advantages (GAE) ----
        # Row t's successor is row t+1 (or next_obs after the last row). When step t ended an
        # episode, row t+1 is the autoreset row whose obs is the episode's final observation:
        #  * terminated: no bootstrap (next_nonterminal = 0);
        #  * truncated: bootstrap from V(final obs) = values[t+1] (unless
        #    --no-bootstrap-truncation, then like termination);
        # and in both cases the recursion must not carry the next episode's advantage back
        # across the boundary (next_continue = 0). The autoreset row itself gets advantage 0
        # and restarts the recursion; it is masked out of the losses below.
        with torch.no_grad():
            next_value = agent.get_value(next_obs).reshape(1, -1)
            stop_bootstrap = terminations if args.bootstrap_truncation else dones
            advantages = torch.zeros_like(rewards)
            lastgaelam = torch.zeros(N, device=device)
            for t in reversed(range(T)):
                nextvalues = next_value.flatten() if t == T - 1 else values[t + 1]
                next_nonterminal = 1.0 - stop_bootstrap[t]
                next_continue = 1.0 - dones[t]
                delta = rewards[t] + args.gamma * nextvalues * next_nonterminal - values[t]
                lastgaelam = delta + args.gamma * args.gae_lambda * next_continue * lastgaelam
                lastgaelam = lastgaelam * valid[t]
                advantages[t] = lastgaelam
            returns = advantages + values

        # ---- flatten, dropping the autoreset rows ----
        keep = valid.reshape(-1).bool()
        b_obs = obs.reshape(-1, obs_dim)[keep]
        b_logprobs = logprobs.reshape(-1)[keep]
        b_actions = actions.reshape(-1, act_dim)[keep]
        b_advantages = advantages.reshape(-1)[keep]
        b_returns = returns.reshape(-1)[keep]
        b_values = values.reshape(-1)[keep]
        n_valid = b_obs.shape[0]
        # Same number of minibatches as CleanRL; they are a few samples smaller when some rows
        # were dropped (one row per finished episode per env).
        n_minibatches = max(1, min(args.num_minibatches, n_valid))

        # ---- optimise ----
        clipfracs = []
        for epoch in range(args.update_epochs):
            b_inds = torch.randperm(n_valid, device=device)
            for mb_inds in torch.tensor_split(b_inds, n_minibatches):
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = logratio.exp()

                with torch.no_grad():
                    approx_kl = ((ratio - 1) - logratio).mean()
                    clipfracs.append(((ratio - 1.0).abs() > args.clip_coef).float().mean().item())

                mb_advantages = b_advantages[mb_inds]
                if args.norm_adv and len(mb_inds) > 1:
                    mb_advantages = (mb_advantages - mb_advantages.mean()) / (mb_advantages.std() + 1e-8)

                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * torch.clamp(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(pg_loss1, pg_loss2).mean()

                newvalue = newvalue.view(-1)
                if args.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                    v_clipped = b_values[mb_inds] + torch.clamp(
                        newvalue - b_values[mb_inds], -args.clip_coef, args.clip_coef
                    )
                    v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                    v_loss = 0.5 * torch.max(v_loss_unclipped, v_loss_clipped).mean()
                else:
                    v_loss = 0.5 * ((newvalue - b_returns[mb_inds]) ** 2).mean()

                entropy_loss = entropy.mean()
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef

                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()

            if args.target_kl is not None and approx_kl > args.target_kl:
                break
        t_update += time.perf_counter() - t_update_start

        if global_step >= next_log or iteration == args.num_iterations:
            while next_log <= global_step:
                next_log += args.log_every
            sps = int(global_step / (time.time() - start_time))
            mean_ret = f"{np.mean(recent_returns):9.1f}" if recent_returns else "      n/a"
            print(f"step {global_step:>9d}  SPS {sps:>6d} (env-only {global_step / max(t_env, 1e-9):>7.0f})  "
                  f"episodes {n_episodes:>5d}  "
                  f"mean return (last {len(recent_returns)}) {mean_ret}  "
                  f"v_loss {v_loss.item():.3f}  approx_kl {approx_kl.item():.4f}  "
                  f"clipfrac {np.mean(clipfracs):.3f}  std {agent.actor_logstd.exp().mean().item():.3f}",
                  flush=True)

    elapsed = time.time() - start_time
    csv_file.close()
    if args.save_model:
        obs_rms = find_wrapper(envs, gym.wrappers.vector.NormalizeObservation).obs_rms
        torch.save({"agent": agent.state_dict(), "obs_mean": obs_rms.mean, "obs_var": obs_rms.var,
                    "args": vars(args)}, args.save_model)
        print(f"saved model to {args.save_model}")
    envs.close()
    mean_ret = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a (no episode finished)"
    print(f"time: {elapsed:.1f} s total = {t_env:.1f} s in envs.step ({global_step / max(t_env, 1e-9):.0f} env-only SPS) "
          f"+ {t_update:.1f} s PPO update + {elapsed - t_env - t_update:.1f} s rest (policy forward, bookkeeping)")
    print(f"done: {global_step} steps in {elapsed:.1f} s ({global_step / elapsed:.0f} SPS), {n_episodes} episodes; "
          f"mean return of the last {len(recent_returns)} episodes: {mean_ret}", flush=True)


if __name__ == "__main__":
    main()
