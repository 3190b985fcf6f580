"""Gymnasium ids of every joltgym task, registered when joltgym is imported."""

from __future__ import annotations

import gymnasium

from joltgym.tasks import TASKS


def register_all() -> None:
    """Register every task id not registered yet (re-registering would warn)."""
    for spec in TASKS.values():
        if spec.env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=spec.env_id,
            entry_point=spec.env_entry_point,
            vector_entry_point=spec.vector_entry_point,
            max_episode_steps=spec.max_episode_steps,
            reward_threshold=spec.reward_threshold,
        )


def task_ids() -> list[str]:
    return [spec.env_id for spec in TASKS.values()]
