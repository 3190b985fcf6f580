"""Per-env physical parameters: read and set them on any env, and draw them at every reset.

Each env's robot holds its own values of these parameters (the compiled model stays shared):

==================== ============== =======================================================
name                 one value per  what it sets
==================== ============== =======================================================
floor_friction       (1)            sliding friction of the robot's contacts with the floor
body_mass            simulated body mass (kg); inertia and centre of mass stay the model's
joint_frictionloss   joint          MuJoCo's dof_frictionloss
joint_armature       joint          dof_armature
joint_damping        joint          dof_damping
actuator_kp          actuator       a position actuator's kp (gain, and minus its bias on q)
==================== ============== =======================================================

``randomize=`` on an env takes draws made at every reset from a stream of the episode's seed of
their own (the task's own draws stay as they are): ``(name, mode, low, high)`` with mode ``"set"``,
``"scale"`` or ``"add"`` and the value uniform in [low, high), optionally ``elements`` (which
indices; default all) and ``shared`` (one draw for all of them; default one each). Each parameter
starts from the model's values and takes its draws in order. ``randomize="playground"`` is the
task's MuJoCo Playground randomisation where it has one.
"""

from __future__ import annotations

from typing import Any, Sequence

PARAMETERS = ("floor_friction", "body_mass", "joint_frictionloss", "joint_armature", "joint_damping", "actuator_kp")
_MODES = ("set", "scale", "add")


def normalize(draws: Sequence[Any], presets: dict[str, tuple], task: str) -> list[tuple] | None:
    """The native form of ``randomize=``: None, a preset's name, or a sequence of draws."""
    if draws is None:
        return None
    if isinstance(draws, str):
        if draws not in presets:
            valid = ", ".join(repr(name) for name in presets) or "none"
            raise ValueError(f"randomize={draws!r} for {task}: no such preset; {task}'s presets: {valid}")
        draws = presets[draws]
    out = []
    for draw in draws:
        if not isinstance(draw, (tuple, list)) or not 4 <= len(draw) <= 6:
            raise ValueError(f"a draw of randomize= is (name, mode, low, high[, elements[, shared]]), got {draw!r}")
        name, mode, low, high, *rest = draw
        if name not in PARAMETERS:
            raise ValueError(f"randomize: unknown physics parameter {name!r}; parameters: {', '.join(PARAMETERS)}")
        if mode not in _MODES:
            raise ValueError(f"randomize: the mode of {name} must be one of {', '.join(_MODES)}, got {mode!r}")
        elements = None if not rest or rest[0] is None else [int(k) for k in rest[0]]
        shared = bool(rest[1]) if len(rest) > 1 else False
        out.append((name, mode, float(low), float(high), elements, shared))
    return out


class PhysicsParameters:
    """``get_physics``, ``set_physics`` and ``model_physics`` of an env over its native core or pool."""

    def _physics_owner(self):  # the native TaskCore or WorldPool
        raise NotImplementedError

    def get_physics(self, name: str):
        """The parameter's current values: (size,) for a single env, (num_envs, size) for a vector env."""
        return self._physics_owner().get_physics(name)

    def model_physics(self, name: str):
        """The parameter's values in the compiled model, (size,)."""
        return self._physics_owner().model_physics(name)
