"""Multi-agent tasks in a shared world (SumoAnts, SumoHumanoids, ...): robots of one or more
models, one native task that scores every agent."""

from __future__ import annotations

from typing import Any

from joltgym import _native
from joltgym.marl.parallel_env import JoltParallelEnv, split_rendering
from joltgym.model import SolverSettings, load_model
from joltgym.tasks import task_spec


class ArenaEnv(JoltParallelEnv):
    """A native multi-agent task on the models of the given single-agent tasks.

    Args:
        task: the native multi-agent task ("SumoAnts", ...).
        models: the model file of each kind of robot the task takes, e.g. ("ant.xml",).
        solver_of: the single-agent task whose measured solver settings the world uses.
        max_cycles: truncation (None: the task ends its own episodes).
        pad_observations: see JoltParallelEnv.
        solver: a joltgym.SolverSettings, or "default" or the name of a preset of ``solver_of``'s
            (TaskSpec.resolve_solver).
        **kwargs: the rendering keywords (render_mode, width, height, camera_id, camera_name,
            default_camera_config: as the single-agent envs take them; the table row's camera sees
            the arena whole), and the task's keyword arguments
            (``_native.multi_agent_task_type(task).defaults``).
    """

    def __init__(
        self,
        task: str,
        models: tuple[str, ...],
        solver_of: str,
        max_cycles: int | None = None,
        pad_observations: bool = False,
        solver: SolverSettings | str | None = None,
        **kwargs: Any,
    ):
        pickle_kwargs = dict(task=task, models=models, solver_of=solver_of, max_cycles=max_cycles,
                             pad_observations=pad_observations, solver=solver, **kwargs)
        rendering, task_kwargs = split_rendering(kwargs)
        solver = task_spec(solver_of).resolve_solver(solver)
        self.models = [load_model(xml, solver=solver) for xml in models]
        native = _native.multi_agent_task_type(task).create([m.native for m in self.models], **task_kwargs)
        JoltParallelEnv.__init__(
            self, native, name=f"joltgym/{task}-v0", max_cycles=max_cycles, pad_observations=pad_observations,
            model=self.models[0], rendering=rendering, pickle_kwargs=pickle_kwargs,
        )

    @property
    def shaping_weight(self) -> float:
        """The weight of the shaping rewards (reward = sparse + shaping_weight * shaping); set it
        to anneal from dense to sparse rewards while training."""
        return self.knobs["shaping_weight"]

    @shaping_weight.setter
    def shaping_weight(self, value: float) -> None:
        self.set_knob("shaping_weight", value)
