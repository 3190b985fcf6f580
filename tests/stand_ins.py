"""Tasks that stand for others where a test runs once per task through code every task shares (the
pool's threads, packing, saved states, rendering, Gymnasium's API): Go1's and G1's flat-ground tasks
for the Playground's robots, cheetah run for the Control Suite's tasks. Each task's own code still runs
in the per-task files (test_task_suite.py, test_suite_tasks.py) of every lane."""

from __future__ import annotations

from joltgym.tasks import task_names

PLAYGROUND_STAND_INS = ("Go1JoystickFlatTerrain", "G1JoystickFlatTerrain")
SUITE_STAND_IN = "CheetahRun"
STOOD_IN_FOR = (*(name for name in task_names("playground") if name not in PLAYGROUND_STAND_INS),
                *(name for name in task_names("dmc") if name != SUITE_STAND_IN))


def without_stood_in(keep: str = "") -> str:
    """A pytest -k expression leaving out the stood-in tasks' cases (but those of files matching `keep`)."""
    left_out = f"not ({' or '.join(STOOD_IN_FOR)})"
    return f"{keep} or {left_out}" if keep else left_out
