"""Every multi-agent env, declared once: id, env class and arguments, episode length, module.

PettingZoo's registry (``pettingzoo.make("parallel", "joltgym/MaHalfCheetah-v0")``) and the
module convention (``joltgym.marl.ma_half_cheetah_v0.parallel_env()``) both read this table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from joltgym.tasks import task_spec


@dataclass(frozen=True)
class MultiAgentSpec:
    name: str
    entry_point: str
    max_cycles: int
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def env_id(self) -> str:
        return f"joltgym/{self.name}-v0"

    @property
    def module(self) -> str:
        """``joltgym.marl.<module>`` has ``parallel_env``, ``env`` and ``raw_env``."""
        snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in self.name).lstrip("_")
        return f"{snake.replace('2_d', '2d')}_v0"


def _factored(scenario: str, conf: str) -> MultiAgentSpec:
    return MultiAgentSpec(
        name=f"Ma{scenario}",
        entry_point="joltgym.marl.factored:FactoredEnv",
        max_cycles=task_spec(scenario).max_episode_steps,
        kwargs={"scenario": scenario, "agent_conf": conf},
    )


MULTI_AGENT_TASKS: dict[str, MultiAgentSpec] = {
    spec.name: spec
    for spec in (
        _factored("HalfCheetah", "2x3"),
        _factored("Ant", "2x4"),
        _factored("Hopper", "3x1"),
        _factored("Walker2d", "2x3"),
        _factored("Swimmer", "2x1"),
        _factored("Reacher", "2x1"),
        _factored("Humanoid", "9|8"),
        _factored("HumanoidStandup", "9|8"),
        MultiAgentSpec(
            name="SumoAnts",
            entry_point="joltgym.marl.arena:ArenaEnv",
            max_cycles=500,
            kwargs={"task": "SumoAnts", "models": ("ant.xml",), "solver_of": "Ant",
                    "default_camera_config": {"trackbodyid": 0, "lookat": (0.0, 0.0, 0.3), "distance": 11.0, "elevation": -35.0}},
        ),
        MultiAgentSpec(
            name="SumoHumanoids",
            entry_point="joltgym.marl.arena:ArenaEnv",
            max_cycles=500,
            kwargs={"task": "SumoHumanoids", "models": ("humanoid.xml",), "solver_of": "Humanoid",
                    "default_camera_config": {"trackbodyid": 0, "lookat": (0.0, 0.0, 0.8), "distance": 9.0, "elevation": -30.0}},
        ),
        MultiAgentSpec(
            name="AntSwarm",
            entry_point="joltgym.marl.arena:ArenaEnv",
            max_cycles=1000,
            kwargs={"task": "AntSwarm", "models": ("ant.xml", "swarm_box.xml"), "solver_of": "Ant",
                    "default_camera_config": {"trackbodyid": 0, "lookat": (0.0, 0.0, 0.0), "distance": 16.0, "elevation": -60.0}},
        ),
    )
}


def multi_agent_spec(name: str) -> MultiAgentSpec:
    try:
        return MULTI_AGENT_TASKS[name]
    except KeyError:
        raise ValueError(f"unknown multi-agent task {name!r}; known: {', '.join(MULTI_AGENT_TASKS)}") from None
