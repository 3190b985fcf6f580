"""Factorised control of one robot (MaMuJoCo's ``mamujoco_v1``) on joltgym's native tasks.

``FactoredEnv("HalfCheetah", "2x3")`` splits HalfCheetah's six actuators between two agents,
the back leg (``agent_0``) and the front leg; both get the single-agent reward and
termination, and each observes its joints and their neighbours (see ``factorisation``).
The world is stepped by the single-agent task itself: the same joint actions and seed give
the single-agent env's trajectory.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from joltgym import _native
from joltgym.marl import factorisation as fz
from joltgym.marl.parallel_env import JoltParallelEnv, split_rendering
from joltgym.model import SolverSettings
from joltgym.tasks import task_spec


def _name_the_scenario(owner: str | None) -> str:
    if owner in fz.ROBOTS:
        return f"it is {owner}'s model: pass scenario={owner!r}"
    return f"pass the scenario it is a model of ({', '.join(fz.ROBOTS)})"


class FactoredEnv(JoltParallelEnv):
    """One robot, several agents.

    Args:
        scenario: the robot's task ("HalfCheetah", "Ant", "Hopper", "Walker2d", "Swimmer",
            "Reacher", "Humanoid", "HumanoidStandup").
        agent_conf: the partition, as MaMuJoCo names it ("2x3", "6x1", "2x4", "2x4d", "4x2",
            "3x1", "2x1", "9|8").
        agent_obsk: how many hops of neighbouring joints an agent observes (MaMuJoCo's default 1).
        local_categories, global_categories: MaMuJoCo's observation categories (defaults:
            MaMuJoCo's per robot).
        pad_observations: every agent's observation padded to the largest (parameter sharing).
        max_cycles: truncation (default: the single-agent task's episode length).
        xml_file, solver: as the single-agent env of the scenario takes them.
        **kwargs: the rendering keywords (render_mode, width, height, camera_id, camera_name,
            default_camera_config) and the task's keyword arguments, as the single-agent env of the
            scenario takes them (its camera by default).
    """

    def __init__(
        self,
        scenario: str,
        agent_conf: str,
        agent_obsk: int = 1,
        local_categories: list[list[str]] | None = None,
        global_categories: tuple[str, ...] | None = None,
        pad_observations: bool = False,
        max_cycles: int | None = None,
        xml_file: str | None = None,
        solver: SolverSettings | str | None = None,
        **kwargs: Any,
    ):
        pickle_kwargs = dict(
            scenario=scenario, agent_conf=agent_conf, agent_obsk=agent_obsk, local_categories=local_categories,
            global_categories=global_categories, pad_observations=pad_observations, max_cycles=max_cycles,
            xml_file=xml_file, solver=solver, **kwargs,
        )
        rendering, task_kwargs = split_rendering(kwargs)
        if scenario not in fz.ROBOTS:
            raise ValueError(f"unknown scenario {scenario!r}; scenarios: {', '.join(fz.ROBOTS)}")
        robot = fz.ROBOTS[scenario]
        if agent_conf not in robot.partitions:
            raise ValueError(f"{scenario} has no agent_conf {agent_conf!r}; confs: {', '.join(robot.partitions)}")
        if isinstance(agent_obsk, bool) or not isinstance(agent_obsk, (int, np.integer)) or agent_obsk < 0:
            raise ValueError(f"agent_obsk must be an int >= 0, got {agent_obsk!r}")
        spec = task_spec(scenario)
        self.model, self.single_agent_task = spec.load(xml_file, solver, task_kwargs, _name_the_scenario)
        if (self.model.nq, self.model.nv) != (robot.nq, robot.nv):
            raise ValueError(
                f"{scenario}'s agent graph is for nq={robot.nq}, nv={robot.nv}; the model has "
                f"nq={self.model.nq}, nv={self.model.nv}"
            )
        self.scenario, self.agent_conf, self.agent_obsk = scenario, agent_conf, int(agent_obsk)
        self.local_categories = local_categories or robot.default_local_categories(self.agent_obsk)
        self.global_categories = tuple(global_categories or fz.GLOBAL_CATEGORIES)
        self.partitions = robot.partitions[agent_conf]
        state = fz.state_tokens(robot, self.single_agent_task.observation_structure)
        frames = {frame.name: i for i, frame in enumerate(self.model.native.desc.mj_body_frames)}
        self.observation_tokens = [
            fz.observation_tokens(robot, part, self.agent_obsk, self.local_categories, self.global_categories)
            for part in self.partitions
        ]
        self.agent_action_indices = [fz.action_indices(robot, part) for part in self.partitions]
        agents = [
            (actions, fz.native_sources(tokens, state, frames.get("fingertip", 0), frames.get("target", 0)))
            for actions, tokens in zip(self.agent_action_indices, self.observation_tokens)
        ]
        task = _native.FactoredTask(self.model.native, self.single_agent_task, agents)
        JoltParallelEnv.__init__(
            self,
            task,
            name=f"joltgym/Ma{scenario}-v0",
            max_cycles=spec.max_episode_steps if max_cycles is None else max_cycles,
            pad_observations=pad_observations,
            model=self.model,
            default_camera=spec.camera,
            rendering=rendering,
            pickle_kwargs=pickle_kwargs,
        )
        self.observation_factorization = _state_indices(self.possible_agents, self.observation_tokens, state)

    def map_local_actions_to_global_action(self, actions: dict[str, np.ndarray]) -> np.ndarray:
        """The robot's action from every agent's (MaMuJoCo's helper)."""
        out = np.full(self.model.nu, np.nan, np.float32)
        for agent, indices in zip(self.possible_agents, self.agent_action_indices):
            out[indices] = np.asarray(actions[agent], np.float32)
        return out

    def map_global_action_to_local_actions(self, action: np.ndarray) -> dict[str, np.ndarray]:
        action = np.asarray(action, np.float32)
        return {agent: action[indices] for agent, indices in zip(self.possible_agents, self.agent_action_indices)}

    def map_global_state_to_local_observations(self, state: np.ndarray) -> dict[str, np.ndarray]:
        """Each agent's observation from the global state; as MaMuJoCo, an unclipped joint rate
        is read from the state's clipped one. ValueError for agents that see something the
        state lacks (Reacher's fingertip height)."""
        state = np.asarray(state, np.float32)
        out = {}
        for agent, indices in self.observation_factorization.items():
            if indices is None:
                raise ValueError(f"{agent} observes elements that are not in the state")
            out[agent] = state[indices]
        return out

    def map_local_observations_to_global_state(self, observations: dict[str, np.ndarray]) -> np.ndarray:
        """The global state from the agents' observations (they must cover all of it and agree)."""
        state = np.full(self.state_space.shape[0], np.nan, np.float32)
        for agent, indices in self.observation_factorization.items():
            if indices is None:
                raise ValueError(f"{agent} observes elements that are not in the state")
            values = np.asarray(observations[agent], np.float32)[: len(indices)]
            known = ~np.isnan(state[indices])
            if not np.allclose(state[indices][known], values[known]):
                raise ValueError(f"{agent}'s observation disagrees with another agent's on a shared element")
            state[indices] = values
        if np.isnan(state).any():
            missing = np.flatnonzero(np.isnan(state)).tolist()
            raise ValueError(f"the agents' observations do not cover state elements {missing}")
        return state


def _state_indices(agents: list[str], tokens: list[list[str]], state: list[str]) -> dict[str, np.ndarray | None]:
    plain = {token.removeprefix("clip(").removesuffix(")"): i for i, token in enumerate(state)}
    out: dict[str, np.ndarray | None] = {}
    for agent, agent_tokens in zip(agents, tokens):
        indices = [plain.get(t.removeprefix("clip(").removesuffix(")")) for t in agent_tokens]
        out[agent] = None if None in indices else np.array(indices, dtype=np.int64)
    return out
