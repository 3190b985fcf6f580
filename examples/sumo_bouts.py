"""How a saved sumo self-play policy's bouts end: who lost, how (fell or pushed out), and whether the
robots touched. A win rate alone does not say why a policy loses; this does.

    python examples/train_marl_ppo.py --env-id joltgym/SumoAnts-v0 --self-play --save-model sumo.pt ...
    python examples/sumo_bouts.py sumo.pt --opponent standing --bouts 100

The policy plays agent_0 deterministically (its mean action), as in train_marl_ppo.py's evaluation;
agent_1 stands (zero action, what the initial policy's mean action amounts to), plays uniform random
actions, or is the policy itself. The env takes the run's own keywords (ring size, shaping) with the
shaping off; ``--env-kwarg`` overrides one.
"""

from __future__ import annotations

import argparse
import ast
import collections

import numpy as np
import torch

from joltgym.marl.vector import MultiAgentVectorEnv
from train_marl_ppo import Agents


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("model", help="a file written by train_marl_ppo.py --self-play --save-model")
    p.add_argument("--opponent", default="standing", choices=["standing", "random", "self"])
    p.add_argument("--bouts", type=int, default=100)
    p.add_argument("--seed", type=int, default=20_000)
    p.add_argument("--env-kwarg", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args(argv)
    if args.bouts < 1:
        p.error(f"--bouts must be at least 1, got {args.bouts}")
    return args


def load_policy(saved: dict, env: MultiAgentVectorEnv) -> Agents:
    """The self-play policy and its observation normalisation from a file train_marl_ppo.py saved."""
    agents = Agents(env, self_play=True)
    agents.actors.load_state_dict(saved["actors"])
    for norm, (mean, var, count) in zip(agents.obs_norm, saved["obs_norm"]):
        norm.mean, norm.var, norm.count = mean, var, count
    return agents


def play(args: argparse.Namespace) -> list[tuple[str, str, bool, int]]:
    """(result for agent_0, how the bout ended, touched, length) per bout."""
    saved = torch.load(args.model, weights_only=False)
    if not saved.get("self_play"):
        raise SystemExit(f"{args.model} is not a self-play policy (train_marl_ppo.py --self-play --save-model)")
    kwargs = {**saved["env_kwargs"], "shaping_weight": 0.0}
    kwargs.update({k: ast.literal_eval(v) for k, v in (kv.split("=", 1) for kv in args.env_kwarg)})
    env = MultiAgentVectorEnv(saved["env_id"], args.bouts, **kwargs)
    agents = load_policy(saved, env)
    obs, _ = env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    low, high = env.action_spaces["agent_1"].low, env.action_spaces["agent_1"].high
    done = np.zeros(args.bouts, bool)
    outcomes: list = [None] * args.bouts
    step = 0
    while not done.all():
        with torch.no_grad():
            actions, _ = agents.act(torch.as_tensor(agents.normalise(obs, False)), deterministic=True)
        actions = actions.numpy().copy()
        if args.opponent == "standing":
            actions[:, 1] = 0.0
        elif args.opponent == "random":
            actions[:, 1] = rng.uniform(low, high, (args.bouts, len(low)))
        obs, _, terminated, truncated, infos = env.step(np.clip(actions, -1, 1).astype(np.float32))
        step += 1
        ended = (terminated | truncated).all(1) & ~done
        for w in np.flatnonzero(ended):
            how = [f"{who} {'out' if infos['distance_to_edge'][w, k] < 0 else 'fell'}"
                   for k, who in enumerate(("it", "opponent")) if infos["lost"][w, k] > 0]
            if infos["winner"][w, 0] > 0:
                result = "win"
            elif infos["winner"][w, 1] > 0:
                result = "loss"
            elif infos["draw"][w, 0] > 0:
                result = "draw"
            else:
                result = "no winner"  # a robot went down before the two touched
            outcomes[w] = (result, " and ".join(how) or "time limit", bool(infos["touched"][w, 0] > 0), step)
        done |= ended
    env.close()
    return outcomes


def main(argv=None) -> None:
    args = parse_args(argv)
    outcomes = play(args)
    wins = sum(o[0] == "win" for o in outcomes) / len(outcomes)
    print(f"{args.model} against {args.opponent}: {len(outcomes)} bouts, win rate {wins:.2f}, "
          f"touched in {np.mean([o[2] for o in outcomes]):.2f}, mean length {np.mean([o[3] for o in outcomes]):.0f} steps")
    print("| bouts | result | how | touched |\n|---|---|---|---|")
    for (result, how, touched), n in collections.Counter(o[:3] for o in outcomes).most_common():
        print(f"| {n} | {result} | {how} | {'yes' if touched else 'no'} |")


if __name__ == "__main__":
    main()
