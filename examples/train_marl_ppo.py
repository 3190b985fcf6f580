"""Multi-agent PPO on joltgym's native multi-agent vector env, after examples/train_ppo.py.

Two set-ups, both on ``joltgym.marl.vector.MultiAgentVectorEnv`` (many worlds stepped natively):

* Team (factorised robots, e.g. ``joltgym/MaHalfCheetah-v0``): each agent has its own actor on its
  own observation; one critic sees the global state (MAPPO). The reward is the team's.
* Self-play (``--self-play``, e.g. ``joltgym/SumoAnts-v0``): one actor-critic plays both sides on
  each agent's own observation. The shaping rewards' weight is annealed linearly from 1 to 0 over
  ``--anneal-fraction`` of training (as Bansal et al. anneal their exploration reward). With
  ``--opponent-pool-fraction f`` that fraction of the worlds puts ``agent_1`` under a frozen past
  policy instead, drawn uniformly each iteration from snapshots taken every ``--snapshot-every``
  steps, the initial policy included (Bansal et al.'s opponent sampling: against only its latest
  self a policy forgets how to beat older styles); those agents' steps are not trained on. With
  ``--ring-curriculum s`` the rings start at s times their size (the task's ``ring_radius_scale``
  knob) and widen linearly to full size over ``--curriculum-fraction`` of training: in a small
  ring a short push wins, so wins come early enough to learn from. With ``--widen-at r`` they
  widen by ``--widen-step`` instead whenever the win rate against the initial policy in the
  rings of the moment reaches r (a curriculum paced by the agent). ``--opponent-deterministic``
  has the pooled opponents play their mean action, so the initial policy in the pool stands still
  as it does when evaluated (sampled, it flails like random actions); ``--shaping-floor w`` stops
  the annealing at weight w. ``--random-opponent-fraction f`` puts ``agent_1`` of that fraction of
  the worlds under uniform random actions (a scripted member of the opponent pool; its steps are
  not trained on). ``--init-log-std`` sets the actors' initial exploration noise. Every ``--eval-every`` steps
  the deterministic policy plays ``--eval-bouts`` bouts against random actions, against the
  initial policy's mean action (it stands still) and against the initial policy sampled (as it
  played the first bouts of self-play), in full-size rings (and, during a curriculum, against the
  standing initial policy in the rings of the moment too); the win rates go to ``<out>_eval.csv``.

The PPO recipe is train_ppo.py's (CleanRL's): 2x64 tanh MLPs, GAE 0.99/0.95, lr 3e-4 annealed,
10 epochs of 32 minibatches, clip 0.2, observation and reward normalisation. NEXT_STEP autoreset rows
(``infos["_reset"]``) are not transitions and are masked out; time-limit truncations bootstrap.

    python examples/train_marl_ppo.py --env-id joltgym/MaHalfCheetah-v0 --total-timesteps 1000000
    python examples/train_marl_ppo.py --env-id joltgym/SumoAnts-v0 --self-play --total-timesteps 3000000

Episodes (global_step, wall_seconds, episode_return of agent_0, episode_length) go to a CSV as
train_ppo.py's do, so examples/plot_learning_curves.py plots both.
"""

from __future__ import annotations

import argparse
import ast
import copy
import csv
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn as nn
from torch.distributions.normal import Normal

import joltgym  # noqa: F401
from joltgym.marl.vector import MultiAgentVectorEnv

EXAMPLES_DIR = Path(__file__).resolve().parent


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--env-id", default="joltgym/MaHalfCheetah-v0")
    p.add_argument("--agent-conf", default=None, help="factorised robots: the partition (default: the id's)")
    p.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE",
                   help="a keyword argument of the env, e.g. approach_weight=1.0 (repeatable)")
    p.add_argument("--self-play", action="store_true", help="one shared actor-critic for every agent (symmetric games)")
    p.add_argument("--total-timesteps", type=int, default=1_000_000, help="env steps (all worlds)")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=256)
    p.add_argument("--env-threads", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=32)
    p.add_argument("--update-epochs", type=int, default=10)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--anneal-fraction", type=float, default=0.3, help="self-play: shaping weight 1 -> 0 over this fraction")
    p.add_argument("--opponent-pool-fraction", type=float, default=0.0,
                   help="self-play: fraction of worlds whose agent_1 is a frozen past policy (0: pure self-play)")
    p.add_argument("--snapshot-every", type=int, default=100_000, help="self-play: steps between opponent-pool snapshots")
    p.add_argument("--opponent-deterministic", action="store_true",
                   help="self-play: pooled opponents play their mean action (the initial policy then stands still, "
                        "as it does in the evaluation against it)")
    p.add_argument("--random-opponent-fraction", type=float, default=0.0,
                   help="self-play: fraction of worlds whose agent_1 plays uniform random actions (not trained on)")
    p.add_argument("--init-log-std", type=float, default=0.0,
                   help="the actors' initial log standard deviation (0: std 1, on an Ant's +-1 controls near "
                        "bang-bang flailing that turns it over)")
    p.add_argument("--shaping-floor", type=float, default=0.0,
                   help="self-play: the shaping weight is annealed from 1 down to this, not to 0")
    p.add_argument("--ring-curriculum", type=float, default=1.0, metavar="SCALE",
                   help="self-play sumo: the rings' scale at the start, widening to 1 (1: no curriculum)")
    p.add_argument("--curriculum-fraction", type=float, default=0.5, help="self-play: rings reach full size after this fraction")
    p.add_argument("--widen-at", type=float, default=None, metavar="RATE",
                   help="self-play sumo: widen the rings at evaluations where the win rate against the initial "
                        "policy in them reaches RATE (instead of on the --curriculum-fraction schedule)")
    p.add_argument("--widen-step", type=float, default=0.05, help="with --widen-at: the scale added each time")
    p.add_argument("--eval-every", type=int, default=100_000)
    p.add_argument("--eval-bouts", type=int, default=20)
    p.add_argument("--out", default=None, help="episode CSV (default: examples/results/<env>_<seed>.csv)")
    p.add_argument("--log-every", type=int, default=20_000)
    p.add_argument("--save-model", default=None, metavar="PATH",
                   help="save the final actors, critic and observation statistics here (torch.save)")
    args = p.parse_args(argv)
    args.env_kwargs = {key: ast.literal_eval(value) for key, value in (kv.split("=", 1) for kv in args.env_kwarg)}
    if not 0.0 <= args.opponent_pool_fraction < 1.0:
        p.error(f"--opponent-pool-fraction must be in [0, 1), got {args.opponent_pool_fraction}")
    if args.opponent_pool_fraction and not args.self_play:
        p.error("--opponent-pool-fraction needs --self-play")
    if not 0.0 <= args.shaping_floor <= 1.0:
        p.error(f"--shaping-floor must be in [0, 1], got {args.shaping_floor}")
    if args.ring_curriculum != 1.0 and not args.self_play:
        p.error("--ring-curriculum needs --self-play")
    if not 0.0 < args.curriculum_fraction <= 1.0:
        p.error(f"--curriculum-fraction must be in (0, 1], got {args.curriculum_fraction}")
    if args.widen_at is not None and (args.ring_curriculum == 1.0 or not 0.0 < args.widen_at <= 1.0 or args.widen_step <= 0):
        p.error("--widen-at needs --ring-curriculum < 1, a rate in (0, 1] and --widen-step > 0")
    args.batch_steps = args.num_envs * args.num_steps
    args.num_iterations = max(1, args.total_timesteps // args.batch_steps)
    if args.out is None:
        conf = f"_{args.agent_conf.replace('|', '-')}" if args.agent_conf else ""
        args.out = str(EXAMPLES_DIR / "results" / f"{args.env_id.replace('/', '_')}{conf}_{args.seed}.csv")
    return args


def layer(i: int, o: int, std: float = np.sqrt(2)) -> nn.Linear:
    linear = nn.Linear(i, o)
    nn.init.orthogonal_(linear.weight, std)
    nn.init.constant_(linear.bias, 0.0)
    return linear


def mlp(i: int, o: int, out_std: float) -> nn.Sequential:
    return nn.Sequential(layer(i, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, o, out_std))


class Actor(nn.Module):
    def __init__(self, obs_dim: int, act_dim: int, init_log_std: float = 0.0):
        super().__init__()
        self.mean = mlp(obs_dim, act_dim, 0.01)
        self.log_std = nn.Parameter(torch.full((act_dim,), init_log_std))

    def dist(self, obs: torch.Tensor) -> Normal:
        mean = self.mean(obs)
        return Normal(mean, self.log_std.expand_as(mean).exp())


class RunningNorm:
    """Running mean/std (Welford over batches) with clipping, as Gymnasium's NormalizeObservation."""

    def __init__(self, shape):
        self.mean, self.var, self.count = np.zeros(shape), np.ones(shape), 1e-4

    def update(self, x: np.ndarray) -> None:
        x = x.reshape(-1, *self.mean.shape)
        mean, var, n = x.mean(0), x.var(0), len(x)
        delta, total = mean - self.mean, self.count + n
        self.mean = self.mean + delta * n / total
        self.var = (self.var * self.count + var * n + delta**2 * self.count * n / total) / total
        self.count = total

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return np.clip((x - self.mean) / np.sqrt(self.var + 1e-8), -10, 10).astype(np.float32)


class Agents:
    """The policies: per-agent actors and a state critic (team), or one shared actor-critic (self-play)."""

    def __init__(self, env: MultiAgentVectorEnv, self_play: bool, init_log_std: float = 0.0):
        self.self_play = self_play
        self.n, act = env.task.num_agents, env.task.max_act_dim
        self.obs_dim = env.task.max_obs_dim
        self.actors = nn.ModuleList([Actor(self.obs_dim, act, init_log_std) for _ in range(1 if self_play else self.n)])
        critic_in = self.obs_dim if self_play else env.task.state_dim
        self.critic = mlp(critic_in, 1, 1.0)
        self.obs_norm = [RunningNorm(self.obs_dim) for _ in range(len(self.actors))]
        self.state_norm = RunningNorm(critic_in)
        self.parameters = list(self.actors.parameters()) + list(self.critic.parameters())

    def actor_of(self, agent: int) -> int:
        return 0 if self.self_play else agent

    def normalise(self, obs: np.ndarray, update: bool) -> np.ndarray:
        """obs [..., agents, obs_dim] normalised by each agent's actor's statistics."""
        out = np.empty_like(obs)
        for i, norm in enumerate(self.obs_norm):
            agents = slice(None) if self.self_play else slice(i, i + 1)
            if update:
                norm.update(obs[..., agents, :])
            out[..., agents, :] = norm(obs[..., agents, :])
        return out

    def critic_input(self, norm_obs: np.ndarray, state: np.ndarray, update: bool) -> np.ndarray:
        """[..., agents, critic_in]: own observation (self-play) or the global state for every agent."""
        if self.self_play:
            return norm_obs
        if update:
            self.state_norm.update(state)
        s = self.state_norm(state)
        return np.repeat(s[..., None, :], self.n, axis=-2)

    def act(self, norm_obs: torch.Tensor, deterministic: bool = False):
        actions, logps = [], []
        for a in range(self.n):
            dist = self.actors[self.actor_of(a)].dist(norm_obs[..., a, :])
            action = dist.mean if deterministic else dist.sample()
            actions.append(action)
            logps.append(dist.log_prob(action).sum(-1))
        return torch.stack(actions, -2), torch.stack(logps, -1)

    def evaluate(self, norm_obs: torch.Tensor, actions: torch.Tensor, agents: torch.Tensor):
        logp, entropy = torch.empty(len(agents)), torch.empty(len(agents))
        for a in range(self.n):
            rows = agents == a
            if rows.any():
                dist = self.actors[self.actor_of(a)].dist(norm_obs[rows])
                logp[rows] = dist.log_prob(actions[rows]).sum(-1)
                entropy[rows] = dist.entropy().sum(-1)
        return logp, entropy


def evaluate_win_rate(args, agents: Agents, initial: Agents, opponent: str, bouts: int, seed: int,
                      ring_radius_scale: float = 1.0) -> float:
    """Win rate of the deterministic policy (agent_0) against "random" actions, the "initial" policy's
    mean action or the "initial_sampled" policy."""
    kwargs = {**args.env_kwargs, "shaping_weight": 0.0}
    if ring_radius_scale != 1.0:
        kwargs["ring_radius_scale"] = ring_radius_scale
    env = MultiAgentVectorEnv(args.env_id, bouts, num_threads=args.env_threads, **kwargs)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    wins, done = np.zeros(bouts, bool), np.zeros(bouts, bool)
    low, high = env.action_spaces["agent_1"].low, env.action_spaces["agent_1"].high
    while not done.all():
        with torch.no_grad():
            mine, _ = agents.act(torch.as_tensor(agents.normalise(obs, False)), deterministic=True)
            if opponent in ("initial", "initial_sampled"):
                theirs, _ = initial.act(torch.as_tensor(initial.normalise(obs, False)),
                                        deterministic=opponent == "initial")
                theirs = theirs[:, 1].numpy()
            else:
                theirs = rng.uniform(low, high, (bouts, len(low)))
        actions = mine.numpy().copy()
        actions[:, 1] = theirs
        obs, _, terminated, truncated, infos = env.step(np.clip(actions, -1, 1).astype(np.float32))
        ended = (terminated | truncated).all(1) & ~done
        wins |= ended & (infos["winner"][:, 0] > 0)
        done |= ended
    env.close()
    return float(wins.mean())


def ring_radius_scale(args, global_step: int) -> float:
    """The curriculum's ring scale at global_step: --ring-curriculum, widening linearly to 1."""
    progress = min(1.0, global_step / (args.curriculum_fraction * args.total_timesteps))
    return args.ring_curriculum + (1.0 - args.ring_curriculum) * progress


def main(argv=None) -> None:
    args = parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    kwargs = {} if args.agent_conf is None else {"agent_conf": args.agent_conf}
    kwargs.update(args.env_kwargs)
    env = MultiAgentVectorEnv(args.env_id, args.num_envs, num_threads=args.env_threads, **kwargs)
    agents = Agents(env, args.self_play, args.init_log_std)
    initial = copy.deepcopy(agents)
    pool, next_snapshot = [initial], args.snapshot_every
    pool_rng = np.random.default_rng(args.seed)
    # Worlds [W - pooled, W) play against a frozen snapshot as agent_1, worlds [0, randomised) against random actions.
    pooled = int(round(args.opponent_pool_fraction * args.num_envs))
    randomised = int(round(args.random_opponent_fraction * args.num_envs)) if args.self_play else 0
    if pooled + randomised > args.num_envs:
        raise SystemExit("--opponent-pool-fraction and --random-opponent-fraction together exceed the worlds")
    opponent_rng = np.random.default_rng(args.seed + 1)
    optimiser = torch.optim.Adam(agents.parameters, lr=args.learning_rate, eps=1e-5)
    T, W, A, D, act_dim = args.num_steps, args.num_envs, agents.n, agents.obs_dim, env.task.max_act_dim
    low = np.stack([env.action_spaces[a].low for a in env.possible_agents])
    high = np.stack([env.action_spaces[a].high for a in env.possible_agents])

    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    # Line-buffered: a run that is stopped early keeps every row it wrote.
    episodes = csv.writer(open(args.out, "w", newline="", buffering=1))
    episodes.writerow(["global_step", "wall_seconds", "episode_return", "episode_length"])
    eval_path = args.out.replace(".csv", "_eval.csv")
    if args.self_play:
        evals = csv.writer(open(eval_path, "w", newline="", buffering=1))
        evals.writerow(["global_step", "ring_radius_scale", "win_rate_vs_random", "win_rate_vs_initial",
                        "win_rate_vs_initial_curriculum_ring", "win_rate_vs_initial_sampled"])

    obs, _ = env.reset(seed=args.seed)
    state = env.state()
    ret_norm_var, ret_running = np.ones(A), np.zeros((W, A))  # reward scaling by the discounted return's std
    episode_return, episode_length = np.zeros(W), np.zeros(W, int)
    start, global_step, next_log, next_eval = time.time(), 0, args.log_every, 0
    scale = args.ring_curriculum  # the rings' scale (the curriculum's, else 1)
    recent: list[float] = []

    for iteration in range(args.num_iterations):
        frac = 1.0 - iteration / args.num_iterations
        optimiser.param_groups[0]["lr"] = frac * args.learning_rate
        opponent = None  # a frozen snapshot playing agent_1 in the pooled worlds (self-play only)
        if args.self_play:
            annealed = max(0.0, 1.0 - global_step / (args.anneal_fraction * args.total_timesteps))
            env.shaping_weight = args.shaping_floor + (1.0 - args.shaping_floor) * annealed
            if args.widen_at is None:
                scale = ring_radius_scale(args, global_step)
            if args.ring_curriculum != 1.0:
                env.set_knob("ring_radius_scale", scale)
            if global_step >= next_eval:
                seed = 10_000 + iteration
                vs_random = evaluate_win_rate(args, agents, initial, "random", args.eval_bouts, seed)
                vs_initial = evaluate_win_rate(args, agents, initial, "initial", args.eval_bouts, seed)
                vs_initial_now = (vs_initial if scale == 1.0 else
                                  evaluate_win_rate(args, agents, initial, "initial", args.eval_bouts, seed, scale))
                vs_sampled = evaluate_win_rate(args, agents, initial, "initial_sampled", args.eval_bouts, seed)
                evals.writerow([global_step, round(scale, 4), vs_random, vs_initial, vs_initial_now, vs_sampled])
                print(f"step {global_step}: win rate vs random {vs_random:.2f}, vs initial policy {vs_initial:.2f} "
                      f"(in rings of scale {scale:.2f}: {vs_initial_now:.2f}), vs it sampled {vs_sampled:.2f}", flush=True)
                if args.widen_at is not None and vs_initial_now >= args.widen_at:
                    scale = min(1.0, round(scale + args.widen_step, 6))
                next_eval += args.eval_every
            if pooled and global_step >= next_snapshot:
                pool.append(copy.deepcopy(agents))
                next_snapshot += args.snapshot_every
            if pooled:
                opponent = pool[pool_rng.integers(len(pool))]

        b_obs = np.zeros((T, W, A, D), np.float32)
        b_critic = np.zeros((T, W, A, agents.critic[0].in_features), np.float32)
        b_act = np.zeros((T, W, A, act_dim), np.float32)
        b_logp, b_val, b_rew = (np.zeros((T, W, A), np.float32) for _ in range(3))
        b_term, b_done, b_valid = (np.zeros((T, W, A), bool) for _ in range(3))
        b_next_val = np.zeros((T, W, A), np.float32)
        for t in range(T):
            norm_obs = agents.normalise(obs, update=True)
            critic_in = agents.critic_input(norm_obs, state, update=True)
            with torch.no_grad():
                actions, logp = agents.act(torch.as_tensor(norm_obs))
                value = agents.critic(torch.as_tensor(critic_in)).squeeze(-1)
                if opponent is not None:
                    frozen = obs[W - pooled :]
                    theirs, _ = opponent.act(torch.as_tensor(opponent.normalise(frozen, False)),
                                             deterministic=args.opponent_deterministic)
                    actions[W - pooled :, 1] = theirs[:, 1]
                if randomised:
                    actions[:randomised, 1] = torch.as_tensor(
                        opponent_rng.uniform(low[1], high[1], (randomised, low.shape[1])), dtype=actions.dtype)
            b_obs[t], b_critic[t], b_act[t], b_logp[t], b_val[t] = norm_obs, critic_in, actions.numpy(), logp.numpy(), value.numpy()
            obs, rewards, terminated, truncated, infos = env.step(np.clip(actions.numpy(), low, high).astype(np.float32))
            state = env.state()
            acted = infos["acted"]
            learner = acted.copy()
            if pooled:
                learner[W - pooled :, 1] = False  # the frozen opponent's steps are not the learner's
            learner[:randomised, 1] = False  # nor the random opponent's
            global_step += W
            # reward scaling (Gymnasium's NormalizeReward, per agent)
            ret_running = ret_running * args.gamma * ~(terminated | truncated) + rewards
            ret_norm_var = 0.999 * ret_norm_var + 0.001 * (ret_running**2).mean(0)
            b_rew[t] = np.clip(rewards / np.sqrt(ret_norm_var + 1e-8), -10, 10)
            b_term[t], b_done[t], b_valid[t] = terminated, terminated | truncated, learner
            with torch.no_grad():  # value of the observation each step reached (the final one at an episode's end)
                n_obs = agents.normalise(obs, update=False)
                b_next_val[t] = agents.critic(torch.as_tensor(agents.critic_input(n_obs, state, update=False))).squeeze(-1).numpy()
            episode_return += np.where(acted[:, 0], rewards[:, 0], 0.0)
            episode_length += acted[:, 0]
            for w in np.flatnonzero(b_done[t].all(1) & acted[:, 0]):
                episodes.writerow([global_step, round(time.time() - start, 1), float(episode_return[w]), int(episode_length[w])])
                recent.append(float(episode_return[w]))
                episode_return[w], episode_length[w] = 0.0, 0

        advantages = np.zeros((T, W, A), np.float32)
        last = np.zeros((W, A), np.float32)
        for t in reversed(range(T)):
            delta = b_rew[t] + args.gamma * b_next_val[t] * ~b_term[t] - b_val[t]
            last = delta + args.gamma * args.gae_lambda * ~b_done[t] * last
            advantages[t] = last
        returns = advantages + b_val

        valid = b_valid.reshape(-1)
        agent_ids = np.broadcast_to(np.arange(A), (T, W, A)).reshape(-1)[valid]
        flat = lambda x: torch.as_tensor(x.reshape(T * W * A, *x.shape[3:])[valid])  # noqa: E731
        f_obs, f_critic, f_act, f_logp = flat(b_obs), flat(b_critic), flat(b_act), flat(b_logp)
        f_adv, f_ret, f_val, f_agent = flat(advantages), flat(returns), flat(b_val), torch.as_tensor(agent_ids)
        n = len(f_adv)
        for _ in range(args.update_epochs):
            # Equal-sized minibatches: the valid rows vary in number, and a remainder of one row
            # would give its advantages a NaN standard deviation.
            for mb in torch.randperm(n).tensor_split(min(args.num_minibatches, max(1, n // 2))):
                logp, entropy = agents.evaluate(f_obs[mb], f_act[mb], f_agent[mb])
                ratio = (logp - f_logp[mb]).exp()
                adv = (f_adv[mb] - f_adv[mb].mean()) / (f_adv[mb].std() + 1e-8)
                policy_loss = torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)).mean()
                value = agents.critic(f_critic[mb]).squeeze(-1)
                clipped = f_val[mb] + (value - f_val[mb]).clamp(-args.clip_coef, args.clip_coef)
                value_loss = 0.5 * torch.max((value - f_ret[mb]) ** 2, (clipped - f_ret[mb]) ** 2).mean()
                loss = policy_loss - args.ent_coef * entropy.mean() + args.vf_coef * value_loss
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agents.parameters, args.max_grad_norm)
                optimiser.step()

        if global_step >= next_log:
            mean = np.mean(recent[-20:]) if recent else float("nan")
            print(f"step {global_step}: mean return (last 20 episodes) {mean:.1f}, "
                  f"{global_step / (time.time() - start):.0f} steps/s", flush=True)
            next_log += args.log_every
    if args.save_model:
        torch.save({"actors": agents.actors.state_dict(), "critic": agents.critic.state_dict(),
                    "obs_norm": [(n.mean, n.var, n.count) for n in agents.obs_norm],
                    "self_play": args.self_play, "env_id": args.env_id, "env_kwargs": args.env_kwargs}, args.save_model)
    env.close()


if __name__ == "__main__":
    main()
