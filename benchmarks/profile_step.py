"""Where a task's env step spends its time: instructions per env step by stage (callgrind).

    python benchmarks/profile_step.py HalfCheetah [--solver substeps=1] [--top 12]

Runs ``run_bare_loop`` (4 envs, the plain C++ loop, random actions) under valgrind's callgrind,
counting only inside ``EnvGroup``'s methods (its envs' steps and resets; start-up and Python excluded), and sums each
function's own instructions into stages by its name: our joint rows, contact detection, contact
solving, Jolt's per-Update bookkeeping, integration, the task (observation, reward, actuation),
memory. Instruction counts do not depend on the machine's load, so before/after comparisons hold
on a shared machine; they are a proxy for time (cache misses and vector width are not in them).
Needs valgrind (``apt install valgrind``). Functions of a stripped module (pybind11 strips Release
builds) count as "unnamed"; ``-Ccmake.define.CMAKE_STRIP=/bin/true`` on the pip command keeps their names.

``--json PATH`` writes the per-stage instructions per env step, the form report.py's ``--before`` reads.
A build from before ``EnvGroup`` existed counts inside its ``EnvInstance`` instead:

    PYTHONPATH=<that build> python benchmarks/profile_step.py HalfCheetah \
        --collect 'joltgym::EnvInstance::Step*' --collect 'joltgym::EnvInstance::Reset*' --json before.json
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

NUM_ENVS = 4  # the default of --envs
# The functions callgrind counts inside: the env group's steps and resets. Toggles must not nest
# (a nested match would switch collection off inside the outer one), hence only the group's.
COLLECT = [f"joltgym::EnvGroup::{m}*" for m in ("Prepare", "StepPhysics", "Finish", "Reset")]

# First match wins; matched against the demangled "file:function" callgrind reports.
STAGES = [
    ("joint rows (ours)", r"joltgym::(PlanarPointConstraint|JointAxisConstraint|OwnConstraint|FreeJoint|Gimbal|"
                          r"ArticulationConstraint|PlanarArticulationConstraint|TreeKkt|TreeConstraint|JointSpaceSystem|"
                          r"RateParents)"),
    ("joint rows (Jolt)", r"JPH::(PointConstraint|HingeConstraint|SliderConstraint|FixedConstraint|SixDOFConstraint|SwingTwist|RotationEuler|"
                          r"AxisConstraintPart|PointConstraintPart|AngleConstraintPart|DualAxisConstraintPart)"),
    ("contacts: solve", r"joltgym::(SoftContact|SelfContact|JointSpaceContacts)|"
                        r"JPH::ContactConstraintManager::(Solve|WarmStart|SetupVelocity|"
                        r"StoreApplied|sDetermineFrictionAndRestitution)"),
    ("contacts: detection", r"JPH::(NarrowPhase|CollideShape|CollisionDispatch|CollideConvex|QuadTree|BroadPhase|"
                            r"ContactConstraintManager|ConvexShape|SphereShape|CapsuleShape|BoxShape|"
                            r"RotatedTranslatedShape|CompoundShape|StaticCompoundShape|PlaneShape|GJK|EPA|"
                            r"ManifoldBetweenTwoFaces|PruneContactPoints|ClipPoly|ContactListener|"
                            r"BodyPairHandler|sCollide|ObjectLayer|CollisionGroup|GroupFilter)|"
                            r"joltgym::(WorldCollisionFilter|TouchListener|ContactReader|CollidePlane|CollidePair|"
                            r"MixContactPair)"),
    ("Jolt per-Update bookkeeping", r"JPH::(PhysicsSystem|ConstraintManager|IslandBuilder|LargeIslandSplitter|"
                                    r"TwoBodyConstraint|JobSystem|PhysicsUpdateContext|Semaphore|Barrier|"
                                    r"TempAllocator|BodyManager|Body::|MotionProperties|BodyInterface|"
                                    r"StateRecorder|Constraint::)|std::function|std::_Function"),
    ("robot: forces, bias accelerations, placement", r"joltgym::Robot::"),
    ("task: observation, reward, actuation", r"joltgym::"),
    ("memory", r"malloc|free|memcpy|memmove|memset|operator new|operator delete|_int_"),
]


# Functions callgrind cannot name: pybind11 strips Release modules of their local symbols (Jolt's
# internal helpers then land here). A build that keeps them:
#     pip install --no-build-isolation -e . -Ccmake.define.CMAKE_STRIP=/bin/true
UNNAMED = "unnamed (stripped module)"


def parse_args(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("task")
    p.add_argument("--steps", type=int, default=200, help="env steps per env")
    p.add_argument("--envs", type=int, default=NUM_ENVS,
                   help="envs in the bare loop (packed as a pool packs them: up to 8 per Jolt world)")
    p.add_argument("--solver", action="append", default=[], metavar="KEY=VALUE",
                   help="override one of the task's solver settings, e.g. substeps=1 (repeatable); "
                        "preset=fast starts from the task's fast preset")
    p.add_argument("--top", type=int, default=10, help="also list the costliest functions")
    p.add_argument("--collect", action="append", default=None, metavar="PATTERN",
                   help="count inside the functions matching this callgrind pattern instead (repeatable); "
                        f"default {' '.join(COLLECT)}")
    p.add_argument("--json", type=Path, default=None, metavar="PATH",
                   help="also write the instructions per env step by stage (and in all) here")
    return p.parse_args(argv)


LOOP = """
import ast, dataclasses, sys
import joltgym
from joltgym import _native
from joltgym.tasks import task_spec
task, steps, overrides = sys.argv[1], int(sys.argv[2]), sys.argv[4:]
s = task_spec(task)
presets = [o.split("=", 1)[1] for o in overrides if o.startswith("preset=")]
base = s.resolve_solver(presets[-1]) if presets else s.solver
overrides = [o for o in overrides if not o.startswith("preset=")]
solver = dataclasses.replace(base, **{k: ast.literal_eval(v) for k, v in (o.split("=", 1) for o in overrides)})
model = joltgym.load_model(s.xml_file, solver=solver)
_native.run_bare_loop(model.native, s.make_task(model), int(sys.argv[3]), steps, max_episode_steps=1000, seed=0)
"""


def function_costs(task: str, steps: int, overrides: list[str], envs: int = NUM_ENVS,
                   collect: list[str] | None = None) -> dict[str, int]:
    """Each function's own instructions inside the `collect` functions (default COLLECT)."""
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        sys.exit("profile_step.py needs valgrind and callgrind_annotate on PATH")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        script = Path(tmp) / "loop.py"
        script.write_text(LOOP)
        # This interpreter by the path it runs under: a venv's bin/python links to its base
        # interpreter, and only under the link's path does it find the venv's packages.
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        *[f"--toggle-collect={pattern}" for pattern in (collect or COLLECT)],
                        sys.executable, str(script), task, str(steps), str(envs), *overrides],
                       check=True, capture_output=True, text=True)
        report = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(out)],
                                check=True, capture_output=True, text=True).stdout
    costs: dict[str, int] = {}
    for line in report.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$", line)
        if m and "PROGRAM TOTALS" not in line:
            name = re.sub(r" \[[^\]]*\]$", "", m.group(2))  # drop the object file
            costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def stage_of(name: str) -> str:
    function = name.split(":", 1)[1] if name.startswith(("???:", "/", ".")) else name
    if re.fullmatch(r"0x[0-9a-f]+", function):
        return UNNAMED
    for stage, pattern in STAGES:
        if re.search(pattern, function):
            return stage
    return "other"


def stage_costs(costs: dict[str, int]) -> dict[str, int]:
    """The functions' costs summed by stage."""
    stages: dict[str, int] = {}
    for name, cost in costs.items():
        stage = stage_of(name)
        stages[stage] = stages.get(stage, 0) + cost
    return stages


def main(argv=None) -> None:
    args = parse_args(argv)
    costs = function_costs(args.task, args.steps, args.solver, args.envs, args.collect)
    env_steps = args.envs * args.steps
    total = sum(costs.values())
    if total == 0:
        sys.exit(f"no instructions counted inside {args.collect or COLLECT}: does this build have them?")
    stages = stage_costs(costs)
    if args.json:
        args.json.write_text(json.dumps({"task": args.task, "envs": args.envs, "steps": args.steps,
                                         "stages": {k: v / env_steps for k, v in stages.items()}}, indent=1))
    print(f"{args.task} {' '.join(args.solver)}: {total / env_steps:,.0f} instructions per env step "
          f"({args.envs} envs x {args.steps} steps, resets included)")
    print(f"| stage | instructions / env step | share |\n|---|---|---|")
    for stage, cost in sorted(stages.items(), key=lambda kv: -kv[1]):
        print(f"| {stage} | {cost / env_steps:,.0f} | {cost / total:.0%} |")
    if args.top:
        print(f"\ncostliest functions (own instructions per env step):")
        for name, cost in sorted(costs.items(), key=lambda kv: -kv[1])[: args.top]:
            function = name.split(":", 1)[1] if name.startswith(("???:", "/", ".")) else name
            print(f"{cost / env_steps:10,.0f}  {function[:110]}")


if __name__ == "__main__":
    main()
