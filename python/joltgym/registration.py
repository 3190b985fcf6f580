"""Gymnasium ids of every joltgym task, registered when joltgym is imported."""

from __future__ import annotations

from dataclasses import dataclass, field

import gymnasium


@dataclass(frozen=True)
class TaskEntry:
    id: str
    entry_point: str
    max_episode_steps: int
    reward_threshold: float | None = None
    kwargs: dict = field(default_factory=dict)


TASKS: tuple[TaskEntry, ...] = (
    TaskEntry(
        id="joltgym/HalfCheetah-v0",
        entry_point="joltgym.envs.half_cheetah:HalfCheetahEnv",
        max_episode_steps=1000,
        reward_threshold=4800.0,
    ),
)


def register_all() -> None:
    """Register every task id not registered yet (re-registering would warn)."""
    for task in TASKS:
        if task.id in gymnasium.registry:
            continue
        gymnasium.register(
            id=task.id,
            entry_point=task.entry_point,
            max_episode_steps=task.max_episode_steps,
            reward_threshold=task.reward_threshold,
            kwargs=dict(task.kwargs),
        )


def task_ids() -> list[str]:
    return [task.id for task in TASKS]
