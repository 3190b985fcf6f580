"""How far a few frames of joltgym are from converged MuJoCo, on the states a policy visits.

    python benchmarks/step_fidelity.py Walker2d --policy examples/results/transfer/Walker2d_mujoco_1.pt
    python benchmarks/step_fidelity.py Hopper --frames 1 5 --solver substeps=4

Runs one episode of Gymnasium's ``<Task>-v5`` (the saved policy's mean action, or seeded random
actions without --policy) and records its states and actions. From every third state it replays the
next K actions in three ways: MuJoCo at the v5 timestep (what users train on), MuJoCo with the
timestep divided by --reference-substeps (the reference: close to the continuous dynamics), and
joltgym. It prints the mean summed |qvel - reference| (rad/s, m/s) of MuJoCo v5 and of joltgym (per
degree of freedom, and split by whether MuJoCo had contacts), and joltgym's distance to MuJoCo v5
itself (what a transferred policy meets; for HalfCheetah, whose v5 Euler step is far from converged,
the number that matters). Ours above MuJoCo's own at every
sub-step count is a model difference; ours falling with --solver substeps=N is discretisation.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import sys
from pathlib import Path

import gymnasium as gym
import mujoco
import numpy as np

import joltgym  # noqa: F401  (registers the ids)
from joltgym.tasks import task_spec


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("task", choices=list(joltgym.tasks.TASKS))
    p.add_argument("--policy", type=Path, default=None, help="a model saved by examples/train_ppo.py --save-model")
    p.add_argument("--frames", type=int, nargs="+", default=[1, 5], help="frames replayed from each state (K)")
    p.add_argument("--reference-substeps", type=int, default=8)
    p.add_argument("--solver", action="append", default=[], metavar="KEY=VALUE",
                   help="override one of the task's solver settings, e.g. substeps=4 (repeatable)")
    p.add_argument("--xml-file", default=None, help="an MJCF both engines load instead of the task's")
    p.add_argument("--seed", type=int, default=10_000)
    p.add_argument("--steps", type=int, default=1000, help="longest episode recorded")
    return p.parse_args(argv)


def policy_from(path: Path | None, env: gym.Env, seed: int):
    if path is None:
        rng = np.random.default_rng(seed)
        return lambda obs: rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32)
    import torch

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
    from train_ppo import Agent

    saved = torch.load(path, weights_only=False)
    agent = Agent(env.observation_space.shape[0], env.action_space.shape[0])
    agent.load_state_dict(saved["agent"])
    mean, std = np.asarray(saved["obs_mean"]), np.sqrt(np.asarray(saved["obs_var"]) + 1e-8)

    def act(obs):
        x = torch.as_tensor(np.clip((obs - mean) / std, -10, 10), dtype=torch.float32)[None]
        with torch.no_grad():
            action = agent.actor_mean(x)[0].numpy()
        return np.clip(action, env.action_space.low, env.action_space.high).astype(np.float32)

    return act


def main(argv=None) -> None:
    args = parse_args(argv)
    xml = {"xml_file": args.xml_file} if args.xml_file else {}
    overrides = {k: ast.literal_eval(v) for k, v in (kv.split("=", 1) for kv in args.solver)}
    solver = dataclasses.replace(task_spec(args.task).solver, **overrides)
    theirs = gym.make(f"{args.task}-v5", **xml)
    ours = gym.make(f"joltgym/{args.task}-v0", solver=solver, **xml).unwrapped
    mj = theirs.unwrapped
    ref_model = mujoco.MjModel.from_xml_path(mj.fullpath)
    ref_model.opt.timestep = mj.model.opt.timestep / args.reference_substeps
    ref = mujoco.MjData(ref_model)
    act = policy_from(args.policy, theirs, args.seed)

    obs, _ = theirs.reset(seed=args.seed)
    states, actions, contact = [], [], []
    for _ in range(args.steps):
        action = act(obs)
        states.append((mj.data.qpos.copy(), mj.data.qvel.copy()))
        actions.append(action)
        contact.append(mj.data.ncon > 0)
        obs, _, terminated, truncated, _ = theirs.step(action)
        if terminated or truncated:
            break
    states.append((mj.data.qpos.copy(), mj.data.qvel.copy()))
    print(f"{args.task}: {len(actions)} steps recorded ({'policy ' + str(args.policy) if args.policy else 'random actions'}),"
          f" solver {solver}, reference = MuJoCo at dt/{args.reference_substeps}")

    for k in args.frames:
        mine, own, direct, dofs, touching = [], [], [], [], []
        for t in range(0, len(actions) - k + 1, 3):
            qpos, qvel = states[t]
            ref.qpos[:], ref.qvel[:] = qpos, qvel
            ref.act[:] = 0
            ours.set_state(qpos, qvel)
            for i in range(k):
                ref.ctrl[:] = actions[t + i]
                for _ in range(mj.frame_skip * args.reference_substeps):
                    mujoco.mj_step(ref_model, ref)
                ours.step(actions[t + i])
            error = np.abs(np.asarray(ours.qvel) - ref.qvel)
            mine.append(error.sum())
            dofs.append(error)
            own.append(np.abs(states[t + k][1] - ref.qvel).sum())
            direct.append(np.abs(np.asarray(ours.qvel) - states[t + k][1]).sum())
            touching.append(contact[t])
        mine, own, touching = np.array(mine), np.array(own), np.array(touching)
        print(f"  K={k}: against the reference: MuJoCo v5 {own.mean():.3f}, joltgym {mine.mean():.3f}"
              f" (in contact {mine[touching].mean() if touching.any() else float('nan'):.3f},"
              f" airborne {mine[~touching].mean() if (~touching).any() else float('nan'):.3f}; {len(mine)} starts);"
              f" joltgym against MuJoCo v5 {np.mean(direct):.3f}")
        print(f"        joltgym per dof: {np.round(np.mean(dofs, 0), 3)}")


if __name__ == "__main__":
    main()
