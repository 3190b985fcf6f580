"""What each task is made of: its model file, solver settings, native task class and limits.

The single-agent env, the vector env and the registration all read this table, so a task is
declared once.
"""

from __future__ import annotations

from dataclasses import dataclass

from joltgym import _native
from joltgym.envs.half_cheetah import HALF_CHEETAH_SOLVER
from joltgym.model import SolverSettings


@dataclass(frozen=True)
class TaskSpec:
    name: str
    xml_file: str
    solver: SolverSettings
    native_task: type  # a _native.Task subclass: constructed as native_task(model, **task_kwargs)
    env_entry_point: str
    max_episode_steps: int
    reward_threshold: float | None = None

    @property
    def env_id(self) -> str:
        return f"joltgym/{self.name}-v0"


TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="HalfCheetah",
            xml_file="half_cheetah.xml",
            solver=HALF_CHEETAH_SOLVER,
            native_task=_native.HalfCheetahTask,
            env_entry_point="joltgym.envs.half_cheetah:HalfCheetahEnv",
            max_episode_steps=1000,
            reward_threshold=4800.0,
        ),
    )
}


def task_spec(name: str) -> TaskSpec:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"unknown task {name!r}; known tasks: {', '.join(TASKS)}") from None
