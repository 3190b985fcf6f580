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

EnvPool ids are given as ``envpool:<Id>`` (e.g. ``envpool:Go1JoystickFlatTerrain-v1``, MuJoCo
Playground's Go1 joystick task as ported by EnvPool) and made by ``envpool.make_gymnasium``
with ``--env-threads`` worker threads (default 1) and the run's seed (EnvPool seeds its envs
when it makes them, not at reset). EnvPool's Gymnasium envs autoreset in the same NEXT_STEP
convention: the step after an episode ended ignores its action and returns the new episode's
first observation with reward 0, terminated and truncated both False (and ``elapsed_step``
0), so that row is masked out exactly as above. Observations that are a ``Dict`` of boxes
(Playground's ``state`` / ``privileged_state``) feed the policy from ``--policy-obs-key`` and
the value function from ``--value-obs-key`` (an asymmetric actor-critic; the defaults are
``state`` and ``privileged_state`` when the space has those keys), each key normalised by
its own running mean / std in this script (clipped to +-10, as the Box path's wrappers do).
A ``Box`` observation keeps the Gymnasium wrappers and feeds both networks.

The network and the exploration are flags: ``--policy-hidden`` / ``--value-hidden`` (e.g.
``512,256,128``), ``--activation`` (``tanh``, or ``silu``, Brax's swish), ``--init-log-std``
and ``--tanh-squash`` (the policy's Gaussian sample goes through tanh, as Brax's policy
does; the entropy bonus is then Brax's one-sample estimate of the squashed distribution's
entropy); ``--no-norm-reward`` leaves the rewards unscaled (Brax's reward scaling 1).
MuJoCo Playground's Brax PPO recipe for Go1JoystickFlatTerrain translates to
``--policy-hidden 512,256,128 --value-hidden 512,256,128 --activation silu --tanh-squash
--gamma 0.97 --gae-lambda 0.95 --ent-coef 0.01 --clip-coef 0.3 --no-clip-vloss
--max-grad-norm 1.0 --num-steps 20 --update-epochs 4 --num-minibatches 32 --no-norm-reward
--no-anneal-lr`` with 8192 envs there. On one core the envs cost more than the update, and each
of EnvPool's Go1 envs holds about 50 MB, so a few dozen envs with a longer unroll and fewer,
larger minibatches do instead (``--num-envs 64 --num-steps 32 --num-minibatches 2``: about
3.9k env steps per second with --env-threads 1 and --torch-threads 1), with a small
``--init-log-std`` (-2): under action noise of std 0.2 Go1 falls within a few hundred steps.

dm_control's own Control Suite tasks, the baseline of joltgym's ``joltgym/CheetahRun-v0``,
``joltgym/WalkerWalk-v0``, ..., are given as ``dm_control/<domain>-<task>`` (e.g. ``dm_control/cheetah-run``)
and made by ``examples/dmc_gym.py``: a ``gymnasium.Env`` over ``dm_control.suite.load`` (observation dict
flattened in dm_control's key order, as joltgym's suite ids flatten it; reward ``timestep.reward``;
truncated after dm_control's 1000 control steps, never terminated; ``reset(seed=...)`` reloads the task
with that ``random`` seed), in Gymnasium's sync vector env.

``--save-every N`` writes a checkpoint every N env steps (and at the end) to ``--checkpoint``:
the agent, the optimiser, the observation (and reward) normaliser statistics, the global
step, the Python / NumPy / torch RNG states and the CSV's length. ``--resume PATH`` carries
on from such a checkpoint (pass the run's other flags again; a larger ``--total-timesteps``
extends it): the CSV is cut back to its length at the checkpoint and appended to, and
wall_seconds carry on from the checkpoint's. The envs cannot be saved, so they start fresh
episodes (seeded from the seed and the global step); episodes cut short by the interruption
are not recorded.

Usage (see ``--help``)::

    python examples/train_ppo.py --env-id joltgym/HalfCheetah-v0 --total-timesteps 1000000
    python examples/train_ppo.py --env-id HalfCheetah-v5 --total-timesteps 1000000
    python examples/train_ppo.py --env-id envpool:Go1JoystickFlatTerrain-v1 --num-envs 64 ... (flags above)
    python examples/train_ppo.py --env-id dm_control/cheetah-run --total-timesteps 1000000   # vs joltgym/CheetahRun-v0

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
from gymnasium.wrappers.utils import RunningMeanStd
from torch.distributions.normal import Normal

EXAMPLES_DIR = Path(__file__).resolve().parent
ENVPOOL_PREFIX = "envpool:"
DMC_PREFIX = "dm_control/"
ACTIVATIONS = {"tanh": nn.Tanh, "silu": nn.SiLU}
# Flags a resumed run must share with its checkpoint (they shape the agent, its inputs or its rewards).
RESUME_MUST_MATCH = ("env_id", "num_envs", "policy_obs_key", "value_obs_key", "policy_hidden", "value_hidden",
                     "activation", "tanh_squash", "norm_reward")


def hidden_sizes(text: str) -> tuple[int, ...]:
    """'512,256,128' -> (512, 256, 128)."""
    try:
        sizes = tuple(int(s) for s in text.split(",") if s.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated layer widths, got {text!r}") from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"expected comma-separated positive layer widths, got {text!r}")
    return sizes


def add_ppo_arguments(p: argparse.ArgumentParser, num_minibatches: int = 32, update_epochs: int = 10) -> None:
    """PPO's hyper-parameters, CleanRL's defaults (train_pixels.py takes them with fewer minibatches and epochs)."""
    p.add_argument("--learning-rate", type=float, default=3e-4)
    p.add_argument("--no-anneal-lr", dest="anneal_lr", action="store_false")
    p.add_argument("--gamma", type=float, default=0.99)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--num-minibatches", type=int, default=num_minibatches)
    p.add_argument("--update-epochs", type=int, default=update_epochs)
    p.add_argument("--clip-coef", type=float, default=0.2)
    p.add_argument("--no-clip-vloss", dest="clip_vloss", action="store_false")
    p.add_argument("--ent-coef", type=float, default=0.0)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)


def log_episodes(infos: dict, global_step: int, wall: float, writer, csv_file, recent_returns) -> int:
    """The episodes a vector step ended, into the CSV (step, wall seconds, return, length): how many."""
    if "_episode" not in infos:
        return 0
    ended = np.flatnonzero(infos["_episode"])
    for i in ended:
        ret, length = float(infos["episode"]["r"][i]), int(infos["episode"]["l"][i])
        writer.writerow([global_step, f"{wall:.3f}", f"{ret:.4f}", length])
        recent_returns.append(ret)
    csv_file.flush()
    return len(ended)


def gae(rewards, values, next_value, stop_bootstrap, dones, valid, gamma: float, gae_lambda: float):
    """GAE over a NEXT_STEP-autoreset rollout (rows (T, N)): no bootstrap past stop_bootstrap, no
    advantage carried back across dones, the autoreset rows (valid 0) restart the recursion."""
    T = rewards.shape[0]
    advantages = torch.zeros_like(rewards)
    lastgaelam = torch.zeros_like(rewards[0])
    for t in reversed(range(T)):
        nextvalues = next_value.flatten() if t == T - 1 else values[t + 1]
        delta = rewards[t] + gamma * nextvalues * (1.0 - stop_bootstrap[t]) - values[t]
        lastgaelam = (delta + gamma * gae_lambda * (1.0 - dones[t]) * lastgaelam) * valid[t]
        advantages[t] = lastgaelam
    return advantages


def report_run(elapsed: float, t_env: float, t_update: float, global_step: int, n_episodes: int, recent_returns) -> None:
    """Where a run's time went, and its last episodes' mean return."""
    mean_ret = f"{np.mean(recent_returns):.1f}" if recent_returns else "n/a (no episode finished)"
    print(f"time: {elapsed:.1f} s total = {t_env:.1f} s in envs.step ({global_step / max(t_env, 1e-9):.0f} env-only SPS) "
          f"+ {t_update:.1f} s PPO update + {elapsed - t_env - t_update:.1f} s rest (policy forward, bookkeeping)")
    print(f"done: {global_step} steps in {elapsed:.1f} s ({global_step / elapsed:.0f} SPS), {n_episodes} episodes; "
          f"mean return of the last {len(recent_returns)} episodes: {mean_ret}", flush=True)


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--env-id", default="joltgym/HalfCheetah-v0",
                   help="Gymnasium id (joltgym/... or e.g. HalfCheetah-v5), envpool:<Id> for an EnvPool task, or "
                        "dm_control/<domain>-<task> (e.g. dm_control/cheetah-run) for dm_control's own suite task")
    p.add_argument("--vectorization-mode", default=None, choices=["vector_entry_point", "sync", "async"],
                   help="make_vec mode (default: vector_entry_point for joltgym/ ids, sync otherwise; "
                        "not for envpool: ids)")
    p.add_argument("--env-threads", type=int, default=None,
                   help="worker threads of joltgym's native vector env (default: its own default) "
                        "or of EnvPool (default: 1)")
    p.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE",
                   help="a keyword argument of the env, e.g. solver=fast (a Python literal, else a string; repeatable)")
    p.add_argument("--total-timesteps", type=int, default=1_000_000)
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument("--num-steps", type=int, default=256, help="steps per env per rollout")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--out", default=None, help="episode CSV (default: examples/results/<env>_<seed>.csv)")
    p.add_argument("--save-model", default=None, metavar="PATH", help="save the final agent and normaliser stats here")
    p.add_argument("--save-every", type=int, default=None, metavar="N",
                   help="write a checkpoint (to --checkpoint) every N env steps and at the end")
    p.add_argument("--checkpoint", default=None, metavar="PATH",
                   help="checkpoint file of --save-every (default: the --resume file, else the CSV's path with "
                        "suffix .ckpt.pt)")
    p.add_argument("--resume", default=None, metavar="PATH",
                   help="continue the run saved in this checkpoint (same flags), appending to its CSV")
    p.add_argument("--log-every", type=int, default=20_000, help="print progress every this many env steps")
    # Observations and network
    p.add_argument("--policy-obs-key", default=None,
                   help="for Dict observations: the key the policy sees (default: 'state' if present)")
    p.add_argument("--value-obs-key", default=None,
                   help="for Dict observations: the key the value function sees (default: 'privileged_state' "
                        "if present, else the policy's key)")
    p.add_argument("--policy-hidden", type=hidden_sizes, default=(64, 64), metavar="W1,W2,...",
                   help="hidden layer widths of the policy MLP")
    p.add_argument("--value-hidden", type=hidden_sizes, default=(64, 64), metavar="W1,W2,...",
                   help="hidden layer widths of the value MLP")
    p.add_argument("--activation", default="tanh", choices=sorted(ACTIVATIONS), help="hidden-layer activation")
    p.add_argument("--init-log-std", type=float, default=0.0, help="initial log-std of the policy's Gaussian")
    p.add_argument("--tanh-squash", action="store_true",
                   help="squash the Gaussian sample through tanh (Brax's policy); for actions in [-1, 1]")
    add_ppo_arguments(p)
    p.add_argument("--no-norm-adv", dest="norm_adv", action="store_false")
    p.add_argument("--target-kl", type=float, default=None)
    p.add_argument("--no-norm-reward", dest="norm_reward", action="store_false",
                   help="train on the raw rewards (no NormalizeReward / ClipReward wrappers)")
    p.add_argument("--no-bootstrap-truncation", dest="bootstrap_truncation", action="store_false",
                   help="treat time-limit truncation like termination (CleanRL's behaviour)")
    args = p.parse_args(argv)
    args.batch_size = args.num_envs * args.num_steps
    args.minibatch_size = args.batch_size // args.num_minibatches
    args.num_iterations = args.total_timesteps // args.batch_size
    if args.num_iterations < 1:
        p.error(f"--total-timesteps must be at least num_envs * num_steps = {args.batch_size}")
    if args.env_id.startswith(ENVPOOL_PREFIX):
        if args.vectorization_mode is not None:
            p.error("--vectorization-mode does not apply to envpool: ids")
        args.vectorization_mode = "envpool"
        if args.env_threads is None:
            args.env_threads = 1
    if args.env_id.startswith(DMC_PREFIX):
        if args.vectorization_mode not in (None, "sync"):
            p.error("dm_control/ ids run on Gymnasium's sync vector env only")
    if args.vectorization_mode is None:
        args.vectorization_mode = "vector_entry_point" if args.env_id.startswith("joltgym/") else "sync"
    if args.save_every is not None and args.save_every < 1:
        p.error("--save-every must be positive")
    args.out_given = args.out is not None
    if args.out is None:
        args.out = str(EXAMPLES_DIR / "results" / f"{args.env_id.replace('/', '_').replace(':', '_')}_{args.seed}.csv")
    if args.checkpoint is None and args.save_every is not None:
        args.checkpoint = args.resume or str(Path(args.out).with_suffix(".ckpt.pt"))
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


def make_envs(args: argparse.Namespace, seed: int) -> gym.vector.VectorEnv:
    kwargs = dict(env_kwargs(args.env_kwarg))
    if args.env_id.startswith(ENVPOOL_PREFIX):
        import envpool

        envs = envpool.make_gymnasium(args.env_id[len(ENVPOOL_PREFIX):], num_envs=args.num_envs,
                                      num_threads=args.env_threads, seed=seed, **kwargs)
    elif args.env_id.startswith(DMC_PREFIX):
        import sys

        if str(EXAMPLES_DIR) not in sys.path:
            sys.path.insert(0, str(EXAMPLES_DIR))
        import dmc_gym  # examples/dmc_gym.py, beside this script

        if kwargs or args.env_threads is not None:
            raise SystemExit("--env-kwarg and --env-threads do not apply to dm_control/ ids")
        envs = dmc_gym.make_vec(args.env_id, args.num_envs)  # seeded by the reset(seed=...) below
    else:
        if args.env_id.startswith("joltgym/"):
            import joltgym  # noqa: F401  (registers the joltgym ids)
        if args.env_threads is not None:
            if args.vectorization_mode != "vector_entry_point":
                raise SystemExit("--env-threads only applies to joltgym's native vector env and to EnvPool")
            kwargs["num_threads"] = args.env_threads
        envs = gym.make_vec(args.env_id, num_envs=args.num_envs, vectorization_mode=args.vectorization_mode, **kwargs)
    mode = envs.metadata.get("autoreset_mode")
    if mode is not None and mode != gym.vector.AutoresetMode.NEXT_STEP:
        raise SystemExit(f"this script expects NEXT_STEP autoreset, the env uses {mode}")
    # The same wrapper stack as CleanRL, in the same order. RecordEpisodeStatistics comes first
    # so that it sees the raw rewards: the returns it reports are the task's own returns.
    envs = gym.wrappers.vector.RecordEpisodeStatistics(envs)
    envs = gym.wrappers.vector.ClipAction(envs)
    if not isinstance(envs.single_observation_space, gym.spaces.Dict):
        envs = gym.wrappers.vector.NormalizeObservation(envs)
        envs = gym.wrappers.vector.TransformObservation(envs, lambda obs: np.clip(obs, -10, 10))
    # (Dict observations are normalised key by key by ObsNormalizer in the training loop.)
    if args.norm_reward:
        # Gymnasium 1.x NormalizeReward skips the NEXT_STEP autoreset row when updating its
        # discounted-return statistics, so those are not polluted by the filler reward either.
        envs = gym.wrappers.vector.NormalizeReward(envs, gamma=args.gamma)
        envs = gym.wrappers.vector.ClipReward(envs, -10.0, 10.0)
    assert isinstance(envs.single_action_space, gym.spaces.Box), "only continuous action spaces are supported"
    return envs


class ObsNormalizer:
    """Running mean / std normalisation (clipped to +-``clip``) of some keys of Dict observations,
    each key with its own statistics, updated on every batch it normalises (as Gymnasium's
    NormalizeObservation does for a Box)."""

    def __init__(self, space: gym.spaces.Dict, keys: list[str], clip: float = 10.0, epsilon: float = 1e-8):
        self.keys, self.clip, self.epsilon = keys, clip, epsilon
        self.rms = {k: RunningMeanStd(shape=(int(np.prod(space[k].shape)),)) for k in keys}

    def __call__(self, obs: dict, update: bool = True) -> dict[str, np.ndarray]:
        out = {}
        for k in self.keys:
            x = np.asarray(obs[k], dtype=np.float64).reshape(len(obs[k]), -1)
            if update:
                self.rms[k].update(x)
            out[k] = np.clip((x - self.rms[k].mean) / np.sqrt(self.rms[k].var + self.epsilon), -self.clip, self.clip)
        return out

    def state_dict(self) -> dict:
        return {k: {"mean": r.mean, "var": r.var, "count": r.count} for k, r in self.rms.items()}

    def load_state_dict(self, state: dict) -> None:
        for k, r in self.rms.items():
            r.mean, r.var, r.count = state[k]["mean"], state[k]["var"], state[k]["count"]


def layer_init(layer: nn.Linear, std: float = np.sqrt(2), bias_const: float = 0.0) -> nn.Linear:
    torch.nn.init.orthogonal_(layer.weight, std)
    torch.nn.init.constant_(layer.bias, bias_const)
    return layer


def mlp(in_dim: int, hidden: tuple[int, ...], out_dim: int, activation: type[nn.Module], out_std: float) -> nn.Sequential:
    layers: list[nn.Module] = []
    for width in hidden:
        layers += [layer_init(nn.Linear(in_dim, width)), activation()]
        in_dim = width
    layers.append(layer_init(nn.Linear(in_dim, out_dim), std=out_std))
    return nn.Sequential(*layers)


class Agent(nn.Module):
    """Actor and critic MLPs (2x64 tanh by default, CleanRL's) and a state-independent log-std.
    The critic sees ``value_obs_dim`` inputs (default: the policy's observation)."""

    def __init__(self, obs_dim: int, act_dim: int, value_obs_dim: int | None = None,
                 policy_hidden: tuple[int, ...] = (64, 64), value_hidden: tuple[int, ...] = (64, 64),
                 activation: str = "tanh", init_log_std: float = 0.0, tanh_squash: bool = False):
        super().__init__()
        act = ACTIVATIONS[activation]
        self.tanh_squash = tanh_squash
        self.critic = mlp(obs_dim if value_obs_dim is None else value_obs_dim, tuple(value_hidden), 1, act, 1.0)
        self.actor_mean = mlp(obs_dim, tuple(policy_hidden), act_dim, act, 0.01)
        self.actor_logstd = nn.Parameter(torch.full((1, act_dim), float(init_log_std)))

    def get_value(self, x: torch.Tensor) -> torch.Tensor:
        return self.critic(x)

    def env_action(self, action: torch.Tensor) -> torch.Tensor:
        """The action sent to the env: the sample itself, or its tanh with --tanh-squash."""
        return torch.tanh(action) if self.tanh_squash else action

    def get_action_and_value(self, x: torch.Tensor, action: torch.Tensor | None = None,
                             x_value: torch.Tensor | None = None):
        """Sample (or score) the Gaussian pre-squash ``action`` for policy input ``x``; the value is
        of ``x_value`` (default ``x``). With --tanh-squash the log-prob is the Gaussian's (the tanh
        Jacobian cancels in the PPO ratio) and the entropy is Brax's estimate for the squashed
        distribution: the Gaussian's plus log|d tanh/du| at one reparameterised sample."""
        action_mean = self.actor_mean(x)
        action_std = torch.exp(self.actor_logstd.expand_as(action_mean))
        probs = Normal(action_mean, action_std)
        if action is None:
            action = probs.sample()
        entropy = probs.entropy().sum(1)
        if self.tanh_squash:
            u = probs.rsample()
            entropy = entropy + (2.0 * (np.log(2.0) - u - nn.functional.softplus(-2.0 * u))).sum(1)
        value = self.critic(x if x_value is None else x_value)
        return action, probs.log_prob(action).sum(1), entropy, value


def find_wrapper(env, cls):
    while env is not None:
        if isinstance(env, cls):
            return env
        env = getattr(env, "env", None)
    return None


def rms_state(rms) -> dict:
    return {"mean": rms.mean, "var": rms.var, "count": rms.count}


def load_rms(rms, state: dict) -> None:
    rms.mean, rms.var, rms.count = state["mean"], state["var"], state["count"]


def main(argv=None) -> None:
    args = parse_args(argv)
    ckpt = None
    if args.resume:
        ckpt = torch.load(args.resume, weights_only=False)
        saved_out = ckpt["args"]["out"]
        if args.out_given and Path(args.out).resolve() != Path(saved_out).resolve():
            raise SystemExit(f"--resume appends to the checkpoint's CSV {saved_out}, not --out {args.out}")
        args.out = saved_out
    print(f"PPO on {args.env_id} ({args.vectorization_mode}): {args.num_envs} envs x {args.num_steps} steps, "
          f"{args.num_iterations} iterations, seed {args.seed}, CSV -> {args.out}"
          + (f", resuming {args.resume} at step {ckpt['global_step']}" if ckpt else ""), flush=True)

    # Seeding: Python, NumPy and torch RNGs, the env reset seeds (env i gets seed + i) and the
    # action space. On CPU this makes a run reproducible for a fixed --torch-threads.
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.deterministic = True
    torch.set_num_threads(args.torch_threads)
    device = torch.device("cpu")

    # A resumed run's envs start over from a seed of their own (the envs' state is not saved).
    env_seed = args.seed if ckpt is None else (args.seed + ckpt["global_step"]) % 2**31
    envs = make_envs(args, env_seed)
    envs.action_space.seed(env_seed)
    act_dim = int(np.prod(envs.single_action_space.shape))
    space = envs.single_observation_space
    if isinstance(space, gym.spaces.Dict):
        if args.policy_obs_key is None:
            if "state" not in space.spaces:
                raise SystemExit(f"Dict observations without a 'state' key: pass --policy-obs-key (one of {list(space.spaces)})")
            args.policy_obs_key = "state"
        if args.value_obs_key is None:
            args.value_obs_key = "privileged_state" if "privileged_state" in space.spaces else args.policy_obs_key
        for key in (args.policy_obs_key, args.value_obs_key):
            if key not in space.spaces:
                raise SystemExit(f"observation key {key!r} is not one of {list(space.spaces)}")
        obs_norm = ObsNormalizer(space, list(dict.fromkeys([args.policy_obs_key, args.value_obs_key])))
        obs_dim = int(np.prod(space[args.policy_obs_key].shape))
        value_obs_dim = int(np.prod(space[args.value_obs_key].shape))
        print(f"observations: policy <- {args.policy_obs_key!r} ({obs_dim}), value <- {args.value_obs_key!r} "
              f"({value_obs_dim}), normalised per key", flush=True)
    else:
        if args.policy_obs_key is not None or args.value_obs_key is not None:
            raise SystemExit("--policy-obs-key / --value-obs-key apply to Dict observation spaces only")
        obs_norm = None
        obs_dim = value_obs_dim = int(np.prod(space.shape))
    asymmetric = obs_norm is not None and args.value_obs_key != args.policy_obs_key
    if ckpt is not None:
        saved_args = ckpt["args"]
        for key in RESUME_MUST_MATCH:
            if saved_args.get(key) != getattr(args, key):
                raise SystemExit(f"--resume {args.resume}: --{key.replace('_', '-')} is {getattr(args, key)!r} here "
                                 f"but {saved_args.get(key)!r} in the checkpoint")
        changed = [k for k, v in vars(args).items()
                   if k not in ("resume", "out_given", "checkpoint") and k in saved_args and saved_args[k] != v]
        if changed:
            print("resuming with changed flags: " + ", ".join(f"{k} {saved_args[k]!r} -> {getattr(args, k)!r}"
                                                             for k in changed), flush=True)

    def to_tensors(obs_np) -> tuple[torch.Tensor, torch.Tensor]:
        """(policy input, value input) of a batch of observations; the same tensor for a Box."""
        if obs_norm is None:
            x = torch.as_tensor(obs_np, dtype=torch.float32, device=device)
            return x, x
        normed = obs_norm(obs_np)
        x = torch.as_tensor(normed[args.policy_obs_key], dtype=torch.float32, device=device)
        xv = torch.as_tensor(normed[args.value_obs_key], dtype=torch.float32, device=device) if asymmetric else x
        return x, xv

    agent = Agent(obs_dim, act_dim, value_obs_dim, args.policy_hidden, args.value_hidden, args.activation,
                  args.init_log_std, args.tanh_squash).to(device)
    optimizer = optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)

    # Rollout storage. Row t holds the observation the agent acted on at step t and what the
    # env returned for that action. (obs_v, the value function's input, is obs itself unless the
    # value function sees another key of a Dict observation.)
    T, N = args.num_steps, args.num_envs
    obs = torch.zeros((T, N, obs_dim), device=device)
    obs_v = torch.zeros((T, N, value_obs_dim), device=device) if asymmetric else obs
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
    recent_returns: deque[float] = deque(maxlen=20)
    n_episodes = 0
    global_step = 0
    start_iteration = 1
    t_env = t_update = 0.0  # seconds spent inside envs.step (incl. wrappers) / in the PPO update
    wall_before = 0.0  # wall seconds of the run before this process (when resumed)
    if ckpt is None:
        csv_file = open(out_path, "w", newline="")
        writer = csv.writer(csv_file)
        writer.writerow(["global_step", "wall_seconds", "episode_return", "episode_length"])
    else:
        agent.load_state_dict(ckpt["agent"])
        optimizer.load_state_dict(ckpt["optimizer"])
        if obs_norm is not None:
            obs_norm.load_state_dict(ckpt["obs_norm"])
        else:
            load_rms(find_wrapper(envs, gym.wrappers.vector.NormalizeObservation).obs_rms, ckpt["obs_norm"])
        if args.norm_reward:
            load_rms(find_wrapper(envs, gym.wrappers.vector.NormalizeReward).return_rms, ckpt["reward_norm"])
        global_step, start_iteration = ckpt["global_step"], ckpt["iteration"] + 1
        n_episodes, t_env, t_update, wall_before = ckpt["n_episodes"], ckpt["t_env"], ckpt["t_update"], ckpt["wall_seconds"]
        recent_returns.extend(ckpt["recent_returns"])
        random.setstate(ckpt["rng"]["python"])
        np.random.set_state(ckpt["rng"]["numpy"])
        torch.set_rng_state(ckpt["rng"]["torch"])
        # Rows written after the checkpoint belong to a run that was lost: cut them off.
        csv_file = open(out_path, "r+", newline="")
        csv_file.truncate(ckpt["csv_offset"])
        csv_file.seek(ckpt["csv_offset"])
        writer = csv.writer(csv_file)

    def save_checkpoint(iteration: int) -> None:
        csv_file.flush()
        state = {
            "agent": agent.state_dict(), "optimizer": optimizer.state_dict(),
            "obs_norm": obs_norm.state_dict() if obs_norm is not None
            else rms_state(find_wrapper(envs, gym.wrappers.vector.NormalizeObservation).obs_rms),
            "reward_norm": rms_state(find_wrapper(envs, gym.wrappers.vector.NormalizeReward).return_rms)
            if args.norm_reward else None,
            "global_step": global_step, "iteration": iteration, "n_episodes": n_episodes,
            "recent_returns": list(recent_returns), "t_env": t_env, "t_update": t_update,
            "wall_seconds": time.time() - start_time, "csv_offset": csv_file.tell(),
            "rng": {"python": random.getstate(), "numpy": np.random.get_state(), "torch": torch.get_rng_state()},
            "args": vars(args),
        }
        path = Path(args.checkpoint)
        path.parent.mkdir(parents=True, exist_ok=True)
        torch.save(state, str(path) + ".tmp")
        os.replace(str(path) + ".tmp", path)  # a crash while writing leaves the previous checkpoint whole
        print(f"checkpoint at step {global_step} -> {path}", flush=True)

    start_time = time.time() - wall_before
    next_log = (global_step // args.log_every + 1) * args.log_every
    next_save = (global_step // args.save_every + 1) * args.save_every if args.save_every else None
    # EnvPool is seeded when made and warns about reset seeds.
    next_obs_np, _ = envs.reset(seed=None if args.vectorization_mode == "envpool" else env_seed)
    next_obs, next_obs_v = to_tensors(next_obs_np)
    next_done = torch.zeros(N, device=device)  # did the previous step end an episode?
    if start_iteration > args.num_iterations:
        print(f"nothing to do: the checkpoint is at iteration {start_iteration - 1} of {args.num_iterations}")

    for iteration in range(start_iteration, args.num_iterations + 1):
        if args.anneal_lr:
            frac = 1.0 - (iteration - 1.0) / args.num_iterations
            optimizer.param_groups[0]["lr"] = frac * args.learning_rate

        # ---- rollout ----
        for step in range(T):
            global_step += N
            obs[step] = next_obs
            if asymmetric:
                obs_v[step] = next_obs_v
            valid[step] = 1.0 - next_done
            with torch.no_grad():
                action, logprob, _, value = agent.get_action_and_value(next_obs, x_value=next_obs_v)
            values[step] = value.flatten()
            actions[step] = action
            logprobs[step] = logprob

            t0 = time.perf_counter()
            next_obs_np, reward, terminated, truncated, infos = envs.step(agent.env_action(action).cpu().numpy())
            t_env += time.perf_counter() - t0
            done = np.logical_or(terminated, truncated)
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32, device=device)
            terminations[step] = torch.as_tensor(terminated, dtype=torch.float32, device=device)
            dones[step] = torch.as_tensor(done, dtype=torch.float32, device=device)
            next_obs, next_obs_v = to_tensors(next_obs_np)
            next_done = dones[step].clone()

            n_episodes += log_episodes(infos, global_step, time.time() - start_time, writer, csv_file, recent_returns)

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
            next_value = agent.get_value(next_obs_v).reshape(1, -1)
            stop_bootstrap = terminations if args.bootstrap_truncation else dones
            advantages = gae(rewards, values, next_value, stop_bootstrap, dones, valid, args.gamma, args.gae_lambda)
            returns = advantages + values

        # ---- flatten, dropping the autoreset rows ----
        keep = valid.reshape(-1).bool()
        b_obs = obs.reshape(-1, obs_dim)[keep]
        b_obs_v = obs_v.reshape(-1, value_obs_dim)[keep] if asymmetric else b_obs
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
                _, newlogprob, entropy, newvalue = agent.get_action_and_value(
                    b_obs[mb_inds], b_actions[mb_inds], x_value=b_obs_v[mb_inds])
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
        if next_save is not None and (global_step >= next_save or iteration == args.num_iterations):
            while next_save <= global_step:
                next_save += args.save_every
            save_checkpoint(iteration)

    elapsed = time.time() - start_time
    csv_file.close()
    if args.save_model:
        if obs_norm is not None:
            stats = obs_norm.state_dict()
            obs_mean, obs_var = {k: s["mean"] for k, s in stats.items()}, {k: s["var"] for k, s in stats.items()}
        else:
            obs_rms = find_wrapper(envs, gym.wrappers.vector.NormalizeObservation).obs_rms
            obs_mean, obs_var = obs_rms.mean, obs_rms.var
        torch.save({"agent": agent.state_dict(), "obs_mean": obs_mean, "obs_var": obs_var,
                    "args": vars(args)}, args.save_model)
        print(f"saved model to {args.save_model}")
    envs.close()
    report_run(elapsed, t_env, t_update, global_step, n_episodes, recent_returns)


if __name__ == "__main__":
    main()
