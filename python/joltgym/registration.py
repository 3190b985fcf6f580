"""Ids of every joltgym env, registered when joltgym is imported: single-agent tasks with
Gymnasium, multi-agent ones with PettingZoo's registry (both parallel and AEC)."""

from __future__ import annotations

import gymnasium
import pettingzoo

from joltgym.marl.tasks import MULTI_AGENT_TASKS
from joltgym.tasks import TASKS


def register_all() -> None:
    """Register every id not registered yet (re-registering would warn)."""
    for spec in TASKS.values():
        if spec.env_id in gymnasium.registry:
            continue
        gymnasium.register(
            id=spec.env_id,
            entry_point=spec.env_entry_point,
            vector_entry_point=spec.vector_entry_point,
            # A suite task's env ends its own episodes: their length depends on its action_repeat.
            max_episode_steps=None if spec.family == "dmc" else spec.max_episode_steps,
            reward_threshold=spec.reward_threshold,
        )
    for spec in MULTI_AGENT_TASKS.values():
        for kind, registry, function in (
            ("parallel", pettingzoo.parallel_registry, "parallel_env"),
            ("aec", pettingzoo.aec_registry, "env"),
        ):
            if spec.env_id not in registry:
                pettingzoo.register(
                    kind, spec.env_id, entry_point=f"joltgym.marl.{spec.module}:{function}", max_cycles=spec.max_cycles
                )


def task_ids() -> list[str]:
    return [spec.env_id for spec in TASKS.values()]


def multi_agent_ids() -> list[str]:
    return [spec.env_id for spec in MULTI_AGENT_TASKS.values()]
