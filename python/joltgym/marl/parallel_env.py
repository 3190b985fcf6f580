"""The PettingZoo surface shared by every joltgym multi-agent env.

A native ``MultiAgentEnv`` steps the world and scores every agent; this class only
adapts it to PettingZoo's ParallelEnv API: dicts keyed by agent, spaces, seeding, the
global state, and agents leaving ``agents`` on the step they finish.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import ParallelEnv

from joltgym import _native
from joltgym.closing import ClosesItsRenderer
from joltgym.divergence import DIVERGED_KEY, warn_diverged
from joltgym.model import JoltModel
from joltgym.rendering import DEFAULT_SIZE, RENDER_MODES, FrameRenderer, RenderSettings, camera_settings
from joltgym.seeding import EpisodeSeeds



RENDERING_KEYWORDS = ("render_mode", "width", "height", "camera_id", "camera_name", "default_camera_config")


def split_rendering(kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An env's keyword arguments split into its rendering keywords and the rest (the task's)."""
    rendering = {k: v for k, v in kwargs.items() if k in RENDERING_KEYWORDS}
    return rendering, {k: v for k, v in kwargs.items() if k not in RENDERING_KEYWORDS}


class JoltParallelEnv(ClosesItsRenderer, ParallelEnv, EzPickle):
    """A native multi-agent task as a PettingZoo ParallelEnv.

    Subclasses build the task and pass their own constructor arguments on for pickling.
    ``pad_observations`` gives every agent an observation of the largest agent's size
    (zeros after its own), so agents can share one policy. The rendering keywords
    (``RENDERING_KEYWORDS``: ``render_mode``, ``width``, ``height``, ``camera_id``,
    ``camera_name``, ``default_camera_config``, the single-agent envs' own) draw the world as
    those envs do, seen by ``model``'s cameras (``default_camera``: the config when none is
    given), with the task's floor marks (a ring, a goal).
    """

    metadata = {"render_modes": RENDER_MODES, "is_parallelizable": True, "name": "joltgym"}

    def __init__(
        self,
        task: _native.MultiAgentTask,
        *,
        name: str,
        max_cycles: int | None,
        pad_observations: bool = False,
        model: JoltModel,
        default_camera: dict[str, Any] | None = None,
        rendering: dict[str, Any],
        pickle_kwargs: dict[str, Any],
    ):
        EzPickle.__init__(self, **pickle_kwargs)
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, (int, np.integer))):
            raise TypeError(f"max_cycles must be an int or None, got {max_cycles!r}")
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be >= 1 (or None: the task's own end), got {max_cycles}")
        self.task = task
        render_mode = rendering.get("render_mode")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.pad_observations = bool(pad_observations)
        self._env = _native.MultiAgentEnv(task, max_episode_steps=int(max_cycles or 0))
        self.metadata = {
            "render_modes": RENDER_MODES,
            "is_parallelizable": True,
            "name": name,
            "render_fps": int(np.round(1.0 / task.dt)),
        }
        native = self._env
        self.renderer = FrameRenderer(
            RenderSettings(render_mode, rendering.get("width", DEFAULT_SIZE), rendering.get("height", DEFAULT_SIZE),
                           camera_settings(model, rendering.get("camera_id"), rendering.get("camera_name"),
                                           rendering.get("default_camera_config"), default_config=default_camera),
                           self.metadata["render_fps"], name),
            native.render,
            lambda: native.floor_marks,
        )
        self.dt = task.dt
        agents = task.agents
        self.possible_agents = [a["name"] for a in agents]
        self.agents: list[str] = []
        self._index = {name: i for i, name in enumerate(self.possible_agents)}
        self._obs_dims = {a["name"]: a["obs_dim"] for a in agents}
        self._act_dims = {a["name"]: a["act_dim"] for a in agents}
        width = task.max_obs_dim
        self.observation_spaces = {
            a["name"]: spaces.Box(-np.inf, np.inf, (width if self.pad_observations else a["obs_dim"],), np.float32)
            for a in agents
        }
        self.action_spaces = {
            a["name"]: spaces.Box(np.array(a["act_low"], np.float32), np.array(a["act_high"], np.float32), dtype=np.float32)
            for a in agents
        }
        self.state_space = spaces.Box(-np.inf, np.inf, (task.state_dim,), np.float32)
        self._info_layout = task.info_layout
        self._state = np.zeros(task.state_dim, np.float32)
        self._np_random: np.random.Generator | None = None
        self._episode_seeds = EpisodeSeeds()
        self._knob_index = {knob[0]: i for i, knob in enumerate(task.knobs)}

    @property
    def knobs(self) -> dict[str, float]:
        """The task's runtime knobs and their values now (e.g. sumo's ``shaping_weight`` and
        ``ring_radius_scale``); ``set_knob`` changes one while the env runs."""
        return {name: self._env.knob(i) for name, i in self._knob_index.items()}

    def set_knob(self, name: str, value: float) -> None:
        """Sets knob `name` (see ``knobs``; bounds in ``task.knobs``); it keeps its value across resets."""
        if name not in self._knob_index:
            raise KeyError(f"{self.metadata['name']} has no knob {name!r}; knobs: {sorted(self._knob_index)}")
        self._env.set_knob(self._knob_index[name], float(value))

    def __getstate__(self) -> dict[str, Any]:
        return {**EzPickle.__getstate__(self), "knobs": self.knobs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        EzPickle.__setstate__(self, state)
        for name, value in state.get("knobs", {}).items():
            self.set_knob(name, value)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        self._check_open()
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        obs, self._state, infos = self._env.reset(self._episode_seeds.next(seed, self._np_random))
        self.agents = list(self.possible_agents)
        return self._observations(obs, self.agents), self._infos(infos, self.agents, reset=True)

    def step(self, actions: dict[str, Any]):
        self._check_open()
        playing = self.agents
        batch = self._action_batch(actions, playing)
        obs, self._state, rewards, terminated, truncated, infos, diverged = self._env.step(batch)
        rows = {agent: self._index[agent] for agent in playing}
        agent_infos = self._infos(infos, playing, reset=False)
        if diverged:
            for agent in playing:
                agent_infos[agent][DIVERGED_KEY] = True
            warn_diverged(self.metadata["name"])
        result = (
            self._observations(obs, playing),
            {agent: float(rewards[i]) for agent, i in rows.items()},
            {agent: bool(terminated[i]) for agent, i in rows.items()},
            {agent: bool(truncated[i]) for agent, i in rows.items()},
            agent_infos,
        )
        self.agents = [agent for agent, i in rows.items() if not (terminated[i] or truncated[i])]
        if self.render_mode == "human":  # PettingZoo's "human" mode draws on every step
            self.render()
        return result

    def state(self) -> np.ndarray:
        return self._state.copy()

    def get_state(self) -> bytes:
        """The env's exact state as ``bytes`` (picklable): every robot's physics and solver warm
        starts, the random stream, the task's per-episode values (a ring, a goal), which agents
        play, the step count and the episode seed stream; not the knobs, which the env keeps.
        ``set_state`` on this or any env of the same task (a MultiAgentVectorEnv's too) steps on bit
        for bit as this env does from here (``docs/state.md``)."""
        self._check_open()
        if self._episode_seeds.state is None:
            raise ValueError("get_state() needs an episode: call reset() first")
        return self._env.save_state(self._episode_seeds.state)

    def set_state(self, state: bytes) -> None:
        """Restores ``get_state()``'s bytes (ValueError for a state of another task, or damaged
        bytes); ``agents`` and ``state()`` follow. Observations are not returned: use those returned
        with the step the state was saved after."""
        self._check_open()
        if not isinstance(state, (bytes, bytearray, memoryview)):
            raise TypeError(f"set_state takes get_state()'s bytes, got {type(state).__name__}")
        self._episode_seeds.restore(self._env.restore_state(state))
        live = self._env.live
        self.agents = [agent for i, agent in enumerate(self.possible_agents) if live[i]]
        _, self._state = self._env.observe()

    def render(self, *args, **kwargs):
        """The world's frame in ``render_mode``, as the single-agent envs' ``render()``; accepts (and
        ignores) the argument RLlib's ``ParallelPettingZooEnv.render`` passes."""
        return self.renderer.render()

    @property
    def _display_name(self) -> str:
        return self.metadata.get("name", "joltgym")

    def _action_batch(self, actions: dict[str, Any], playing: list[str]) -> np.ndarray:
        if not isinstance(actions, dict):
            raise TypeError(f"actions must be a dict keyed by agent, got {type(actions).__name__}")
        if not playing:
            raise ValueError("every agent is done: call reset() before stepping again")
        for agent in actions:
            if agent not in self._index:
                raise ValueError(f"actions name an unknown agent {agent!r}; agents: {self.possible_agents}")
            if agent not in playing:
                raise ValueError(f"actions name {agent!r}, which is done; playing agents: {playing}")
        missing = [agent for agent in playing if agent not in actions]
        if missing:
            raise ValueError(f"actions are missing for playing agent(s) {missing}")
        batch = np.zeros((len(self.possible_agents), self.task.max_act_dim), np.float32)
        for agent in playing:
            try:
                action = np.asarray(actions[agent], dtype=np.float32)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"the action of {agent} must be numeric: {exc}") from None
            if action.shape != (self._act_dims[agent],):
                raise ValueError(f"the action of {agent} has shape {action.shape}, expected ({self._act_dims[agent]},)")
            batch[self._index[agent], : action.size] = action
        return batch

    def _observations(self, obs: np.ndarray, agents: list[str]) -> dict[str, np.ndarray]:
        if self.pad_observations:
            return {agent: obs[self._index[agent]].copy() for agent in agents}
        return {agent: obs[self._index[agent], : self._obs_dims[agent]].copy() for agent in agents}

    def _infos(self, rows: np.ndarray, agents: list[str], reset: bool) -> dict[str, dict]:
        infos = {}
        for agent in agents:
            row = rows[self._index[agent]]
            info = {}
            for key, offset, width, at_reset in self._info_layout:
                if reset and not at_reset:
                    continue
                info[key] = float(row[offset]) if width == 1 else row[offset : offset + width].copy()
            infos[agent] = info
        return infos
