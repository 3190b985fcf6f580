"""MJCF → joltgym model description, through MuJoCo's own compiler.

``mujoco.MjModel`` resolves defaults, classes, units, euler sequences, fromto,
inertia-from-geoms and total-mass scaling exactly as MuJoCo means them; this module
is the only place that reads MuJoCo's arrays. It merges every jointless body into
the body it is welded to, expresses geoms, mass and joints in the frames of the
simulated bodies at qpos0, and hands the result to the native compiler.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import mujoco
import numpy as np

from joltgym import _native
from joltgym.errors import ModelLoadError, ModelRangeError, UnsupportedFeatureError

ASSETS_DIR = Path(__file__).resolve().parent / "assets"

_GEOM_TYPES = {
    int(mujoco.mjtGeom.mjGEOM_PLANE): _native.GeomType.PLANE,
    int(mujoco.mjtGeom.mjGEOM_SPHERE): _native.GeomType.SPHERE,
    int(mujoco.mjtGeom.mjGEOM_CAPSULE): _native.GeomType.CAPSULE,
    int(mujoco.mjtGeom.mjGEOM_ELLIPSOID): _native.GeomType.ELLIPSOID,
    int(mujoco.mjtGeom.mjGEOM_CYLINDER): _native.GeomType.CYLINDER,
    int(mujoco.mjtGeom.mjGEOM_BOX): _native.GeomType.BOX,
    int(mujoco.mjtGeom.mjGEOM_HFIELD): _native.GeomType.HEIGHT_FIELD,  # in the scene only (_check_supported)
}
_SITE_TYPES = {
    int(mujoco.mjtGeom.mjGEOM_SPHERE): _native.SiteType.SPHERE,
    int(mujoco.mjtGeom.mjGEOM_CAPSULE): _native.SiteType.CAPSULE,
    int(mujoco.mjtGeom.mjGEOM_ELLIPSOID): _native.SiteType.ELLIPSOID,
    int(mujoco.mjtGeom.mjGEOM_CYLINDER): _native.SiteType.CYLINDER,
    int(mujoco.mjtGeom.mjGEOM_BOX): _native.SiteType.BOX,
}
_JOINT_TYPES = {
    int(mujoco.mjtJoint.mjJNT_FREE): _native.JointType.FREE,
    int(mujoco.mjtJoint.mjJNT_BALL): _native.JointType.BALL,
    int(mujoco.mjtJoint.mjJNT_SLIDE): _native.JointType.SLIDE,
    int(mujoco.mjtJoint.mjJNT_HINGE): _native.JointType.HINGE,
}


@dataclass(frozen=True)
class SolverSettings:
    """How a model is mapped onto Jolt's solver (SolverDesc in src/model/model_desc.h).

    Each task ships its own settings, chosen by measurement (``docs/solver.md``); these fields are
    what a ``solver=`` argument may change.
    """

    substeps: int = 1  # Jolt updates per MuJoCo timestep
    velocity_iterations: int = 10
    position_iterations: int = 2
    penetration_slop: float = 0.005
    speculative_distance: float = 0.01
    baumgarte: float = 0.2
    # Every joint row of a robot solved exactly at each iteration in its tree's joint space, because
    # joint-by-joint iterations converge slowly where armature dwarfs the links. Needs a free or
    # world-hinged root with hinges below it (one per body, or two or three on one body) or
    # planar links; other models raise UnsupportedFeatureError naming the body.
    articulated_joints: bool = False
    # An articulated robot stepped as MuJoCo's Euler integrator steps it: its joints' damping implicit
    # after the constraint forces, and on a planar model its velocity products explicit too, so that
    # with one sub-step it takes MuJoCo's own step. Needs articulated_joints.
    mujoco_euler: bool = False

    def to_native(self) -> _native.SolverDesc:
        if self.substeps < 1 or self.velocity_iterations < 1 or self.position_iterations < 0:
            raise ValueError(f"invalid solver settings: {self}")
        desc = _native.SolverDesc()
        for name in self.__dataclass_fields__:
            setattr(desc, name, getattr(self, name))
        return desc


@dataclass(frozen=True)
class _ReferenceSolverSettings(SolverSettings):
    """Internal: settings with one of MuJoCo's soft models, or another choice every task makes,
    switched, so that tests and benchmarks can show what each buys. No task uses them."""

    soft_limits: bool = True  # False: hard limits that stop a joint exactly at its range
    soft_contacts: bool = True  # False: Jolt's hard contacts for planes and a tree's self-contacts
    planar_links: bool = True  # False: a planar model keeps full 3-D links and Jolt hinges
    joint_rows_last: bool = True  # False: joint-by-joint armature, damping and limit rows before the joints

    @classmethod
    def of(cls, base: SolverSettings, **switches: bool) -> _ReferenceSolverSettings:
        """``base`` with the given switches (and any other field) replaced."""
        fields = {name: getattr(base, name) for name in base.__dataclass_fields__}
        return cls(**{**fields, **switches})


@dataclass
class JoltModel:
    """A compiled model: the immutable native model plus what Python needs to know of it."""

    path: Path
    native: _native.Model
    mj_model: mujoco.MjModel = field(repr=False)
    init_qpos: np.ndarray
    init_qvel: np.ndarray
    ctrl_range: np.ndarray

    @property
    def nq(self) -> int:
        return self.native.nq

    @property
    def nv(self) -> int:
        return self.native.nv

    @property
    def nu(self) -> int:
        return self.native.nu

    @property
    def timestep(self) -> float:
        return float(self.mj_model.opt.timestep)


def resolve_model_path(path: str | os.PathLike) -> Path:
    """An absolute path, a file name looked up in joltgym's assets, a robot scene ``<robot>/<file>`` of
    ``joltgym.robot_assets`` (e.g. ``go1/scene_mjx_feetonly_flat_terrain.xml``), or a Control Suite model
    ``dm_control/<file>`` of ``joltgym.suite_assets`` (e.g. ``dm_control/cheetah.xml``)."""
    candidate = Path(path)
    if candidate.is_file():
        return candidate.resolve()
    if not candidate.is_absolute() and (ASSETS_DIR / candidate).is_file():
        return ASSETS_DIR / candidate
    if not candidate.is_absolute() and len(candidate.parts) == 2:
        from joltgym import robot_assets, suite_assets

        if candidate.parts[0] in robot_assets.ROBOTS:
            return robot_assets.scene_path(candidate.as_posix())
        if candidate.parts[0] == suite_assets.PREFIX:
            return suite_assets.suite_model_path(candidate.parts[1])
    raise FileNotFoundError(f"model file not found: {path}")


def compile_mjcf(path: str | os.PathLike) -> mujoco.MjModel:
    resolved = resolve_model_path(path)
    try:
        return mujoco.MjModel.from_xml_path(str(resolved))
    except ValueError as exc:  # MuJoCo reports parse/compile errors as ValueError
        raise ModelLoadError(f"MuJoCo could not compile {resolved}: {exc}") from exc


def default_solver(mj_model: mujoco.MjModel) -> SolverSettings:
    """``load_model``'s solver when none is given: joint by joint, but where a body's hinges have
    anchors of their own (dm_control's humanoid's ankles), which only the joint-space solve holds."""
    hinge = int(mujoco.mjtJoint.mjJNT_HINGE)
    for body in range(mj_model.nbody):
        joints = [j for j in range(mj_model.njnt) if mj_model.jnt_bodyid[j] == body and mj_model.jnt_type[j] == hinge]
        if any(np.abs(mj_model.jnt_pos[j] - mj_model.jnt_pos[joints[0]]).max() > 1e-5 for j in joints[1:]):
            return SolverSettings(position_iterations=1, baumgarte=1.0, articulated_joints=True)
    return SolverSettings()


def load_model(path: str | os.PathLike, solver: SolverSettings | None = None,
               edit: Callable[[mujoco.MjModel], None] | None = None) -> JoltModel:
    """Compile an MJCF file with MuJoCo, then for Jolt; ``edit`` may change the compiled MuJoCo
    model first (a task setting its gains and timestep, as EnvPool's ports do)."""
    mj_model = compile_mjcf(path)
    if edit is not None:
        edit(mj_model)
    desc = describe(mj_model)
    desc.solver = (solver or default_solver(mj_model)).to_native()
    native = _native.Model(desc)
    return JoltModel(
        path=resolve_model_path(path),
        native=native,
        mj_model=mj_model,
        init_qpos=mj_model.qpos0.copy(),
        init_qvel=np.zeros(mj_model.nv),
        ctrl_range=mj_model.actuator_ctrlrange.copy(),
    )


def _name(m: mujoco.MjModel, kind: str, index: int) -> str:
    name = getattr(m, kind)(index).name
    return name or f"<{kind} {index}>"


_DYNAMICS = {  # MuJoCo's activation dynamics joltgym follows (ActuatorDesc::Dynamics)
    int(mujoco.mjtDyn.mjDYN_NONE): _native.ActuatorDynamics.NONE,
    int(mujoco.mjtDyn.mjDYN_INTEGRATOR): _native.ActuatorDynamics.INTEGRATOR,
    int(mujoco.mjtDyn.mjDYN_FILTER): _native.ActuatorDynamics.FILTER,
    int(mujoco.mjtDyn.mjDYN_FILTEREXACT): _native.ActuatorDynamics.FILTER_EXACT,
}


def _disabled(m: mujoco.MjModel, flag: str) -> bool:
    return bool(int(m.opt.disableflags) & int(getattr(mujoco.mjtDisableBit, f"mjDSBL_{flag.upper()}")))


def _contacts_on(m: mujoco.MjModel) -> bool:
    """`<flag contact="disable"/>` (or constraint): no geom collides, explicit pairs included."""
    return not _disabled(m, "contact") and not _disabled(m, "constraint")


# `<option><flag .../>` switches joltgym follows (contact, gravity, frictionloss, eulerdamp), ignores
# because they change no result it computes (solver and collision internals, sensors, the reset on
# NaN), or refuses by name when the model has what they switch off.
_IGNORED_FLAGS = ("warmstart", "sensor", "midphase", "autoreset", "nativeccd", "island", "multiccd")


def _check_flags(m: mujoco.MjModel, fail) -> None:
    has = {
        "constraint": lambda: bool(np.any(m.jnt_limited)) or bool(np.any(m.dof_frictionloss)),
        "equality": lambda: m.neq > 0,
        "limit": lambda: bool(np.any(m.jnt_limited)),
        "spring": lambda: bool(np.any(m.jnt_stiffness)) or bool(np.any(m.tendon_stiffness)),
        "damper": lambda: bool(np.any(m.dof_damping)) or bool(np.any(m.tendon_damping)),
        "clampctrl": lambda: bool(np.any(m.actuator_ctrllimited)),
        "actuation": lambda: m.nu > 0,
        "filterparent": lambda: True,
        "refsafe": lambda: True,
    }
    for flag, present in has.items():
        if _disabled(m, flag) and present():
            fail(f'<option><flag {flag}="disable"/>', f"switching off {flag}")
    known = {"contact", "gravity", "frictionloss", "eulerdamp", *has, *_IGNORED_FLAGS}
    for name, bit in mujoco.mjtDisableBit.__members__.items():
        flag = name.removeprefix("mjDSBL_").lower()
        if name != "mjNDISABLE" and flag not in known and int(m.opt.disableflags) & int(bit):
            fail(f'<option><flag {flag}="disable"/>', f"switching off {flag}")
    if int(m.opt.enableflags) & int(mujoco.mjtEnableBit.mjENBL_OVERRIDE):
        fail('<option><flag override="enable"/>', "overriding contact parameters (o_margin, o_solref, o_solimp)")


def _check_supported(m: mujoco.MjModel) -> None:
    def fail(element: str, feature: str) -> None:
        raise UnsupportedFeatureError(f"{element}: {feature} is not supported by joltgym")

    _check_flags(m, fail)

    fixed = _fixed_tendon_ids(m)
    for e in range(m.neq):
        label = f"equality '{_name(m, 'eq', e)}'"
        kind = mujoco.mjtEq(m.eq_type[e]).name.removeprefix("mjEQ_").lower()
        if int(m.eq_type[e]) != int(mujoco.mjtEq.mjEQ_TENDON):
            fail(label, f"{kind} equality constraints (tendon equalities are supported)")
        if m.eq_obj2id[e] >= 0:
            fail(label, "tendon equalities between two tendons")
        if int(m.eq_obj1id[e]) not in fixed:
            fail(label, "tendon equalities on spatial tendons")
    for p in range(m.npair):
        label = f"<contact><pair> '{_name(m, 'pair', p)}'"
        if np.any(m.pair_solreffriction[p] != 0):
            fail(label, "solreffriction (friction rows with their own solref)")
        if int(m.pair_dim[p]) not in (1, 3):
            fail(label, f"condim {int(m.pair_dim[p])} (torsional or rolling friction)")
    if m.nmocap:
        fail("mocap body", "mocap bodies")
    if np.any(m.opt.wind != 0):
        fail("<option>", "wind")
    # <option cone="elliptic"> is solved as MuJoCo's default pyramid, as docs/physics.md says (measured
    # on dm_control's finger in docs/control_suite.md).
    if int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_IMPLICIT):
        fail("<option integrator>", "the implicit integrator (implicitfast is supported)")
    if int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST) and (m.opt.density > 0 or m.opt.viscosity > 0):
        fail("<option integrator>", "the implicitfast integrator with fluid forces (their derivatives)")
    if hasattr(m, "geom_fluid") and np.any(m.geom_fluid[:, 0] != 0):
        fail("geom fluidshape", "the ellipsoid fluid model (the inertia-box model is supported)")
    for t in range(m.ntendon):
        label = f"tendon '{_name(m, 'tendon', t)}'"
        acted_on = np.any((m.actuator_trntype == mujoco.mjtTrn.mjTRN_TENDON) & (m.actuator_trnid[:, 0] == t))
        if t not in fixed:
            if acted_on or m.tendon_stiffness[t] != 0 or m.tendon_damping[t] != 0:
                fail(label, "spatial tendons driven by actuators, springs or dampers (their length limits are supported)")
            if m.tendon_limited[t] and not _straight_between_two_sites(m, t):
                fail(label, "spatial tendons through more than two sites, around geoms or over pulleys")
        elif m.tendon_limited[t]:
            fail(label, "fixed tendon limits")
        for array, what in (("tendon_frictionloss", "tendon frictionloss"), ("tendon_armature", "tendon armature")):
            if hasattr(m, array) and np.any(getattr(m, array)[t] != 0):
                fail(label, what)
    for a in range(m.nu):
        label = f"actuator '{_name(m, 'actuator', a)}'"
        if int(m.actuator_trntype[a]) not in (int(mujoco.mjtTrn.mjTRN_JOINT), int(mujoco.mjtTrn.mjTRN_TENDON)):
            kind = mujoco.mjtTrn(m.actuator_trntype[a]).name.removeprefix("mjTRN_").lower()
            fail(label, f"{kind} transmission (joints and fixed tendons are supported)")
        if int(m.actuator_dyntype[a]) not in _DYNAMICS:
            fail(label, f"{mujoco.mjtDyn(m.actuator_dyntype[a]).name.removeprefix('mjDYN_').lower()} activation dynamics")
        if int(m.actuator_gaintype[a]) not in (int(mujoco.mjtGain.mjGAIN_FIXED), int(mujoco.mjtGain.mjGAIN_AFFINE)):
            fail(label, f"{mujoco.mjtGain(m.actuator_gaintype[a]).name.removeprefix('mjGAIN_').lower()} gains")
        if int(m.actuator_biastype[a]) not in (int(mujoco.mjtBias.mjBIAS_NONE), int(mujoco.mjtBias.mjBIAS_AFFINE)):
            fail(label, f"{mujoco.mjtBias(m.actuator_biastype[a]).name.removeprefix('mjBIAS_').lower()} biases")
        for array, what in (("actuator_damping", "actuator damping"), ("actuator_armature", "actuator armature"),
                            ("actuator_delay", "actuator delays")):
            if hasattr(m, array) and np.any(getattr(m, array)[a] != 0):
                fail(label, what)
        if getattr(m, "actuator_ctrlnum", np.ones(m.nu))[a] != 1:
            fail(label, "actuators with several inputs")
    if hasattr(m, "jnt_actgravcomp") and np.any(m.jnt_actgravcomp):
        fail(f"joint '{_name(m, 'joint', int(np.flatnonzero(m.jnt_actgravcomp)[0]))}'", "gravity compensation (actuatorgravcomp)")
    for g in range(m.ngeom):
        collides = _contacts_on(m) and (m.geom_contype[g] != 0 or m.geom_conaffinity[g] != 0)
        if collides and int(m.geom_type[g]) == int(mujoco.mjtGeom.mjGEOM_HFIELD) and m.body_weldid[m.geom_bodyid[g]] != 0:
            fail(f"geom '{_name(m, 'geom', g)}'", "height fields on moving bodies")
        if collides and int(m.geom_type[g]) not in _GEOM_TYPES:
            kind = mujoco.mjtGeom(m.geom_type[g]).name.removeprefix("mjGEOM_").lower()
            fail(f"geom '{_name(m, 'geom', g)}'", f"colliding {kind} geoms")


# Compiled values Jolt receives: (MuJoCo array, element kind, what the message calls it). Per-dof
# arrays are named by their joint.
_RANGE_CHECKED = [
    ("body_mass", "body", "mass"), ("body_inertia", "body", "inertia"), ("body_pos", "body", "position"),
    ("body_ipos", "body", "centre of mass"), ("geom_size", "geom", "size"), ("geom_pos", "geom", "position"),
    ("geom_rbound", "geom", "bounding radius"), ("jnt_range", "joint", "range"), ("jnt_stiffness", "joint", "stiffness"),
    ("dof_armature", "dof", "armature"), ("dof_damping", "dof", "damping"), ("dof_frictionloss", "dof", "frictionloss"),
    ("actuator_gear", "actuator", "gear"), ("actuator_ctrlrange", "actuator", "ctrlrange"),
    ("actuator_gainprm", "actuator", "gain"), ("actuator_biasprm", "actuator", "bias"),
    ("actuator_forcerange", "actuator", "forcerange"), ("jnt_actfrcrange", "joint", "actuatorfrcrange"),
    ("pair_friction", "pair", "friction"), ("pair_solref", "pair", "solref"), ("pair_solimp", "pair", "solimp"),
    ("pair_margin", "pair", "margin"),
]
_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _check_representable(m: mujoco.MjModel) -> None:
    """The engine computes in float32: a compiled value beyond it (a 1e30 m capsule's inertia, say)
    would reach the simulation as inf and every observation as NaN."""
    def fail(element: str, what: str, value: float) -> None:
        raise ModelRangeError(f"{element}: {what} {value:g} is not finite in float32, the engine's precision")

    for field, kind, what in _RANGE_CHECKED:
        values = np.asarray(getattr(m, field), np.float64)
        bad = ~(np.abs(values) <= _FLOAT32_MAX)
        if bad.any():
            row = int(np.argwhere(bad)[0][0])
            if kind == "dof":
                kind, row = "joint", int(m.dof_jntid[row])
            fail(f"{kind} '{_name(m, kind, row)}'", what, float(values[bad][0]))
    for value, what in ((m.opt.timestep, "timestep"), *((g, "gravity") for g in m.opt.gravity)):
        if not abs(value) <= _FLOAT32_MAX:
            fail("<option>", what, float(value))


def _quat_of(mat: np.ndarray) -> list[float]:
    q = np.zeros(4)
    mujoco.mju_mat2Quat(q, np.ascontiguousarray(mat, dtype=np.float64).reshape(9))
    return [float(x) for x in q]


def _geom_desc(m: mujoco.MjModel, d: mujoco.MjData, g: int, frame_pos, frame_rot) -> _native.GeomDesc:
    geom = _native.GeomDesc()
    geom.name = m.geom(g).name
    geom.type = _GEOM_TYPES.get(int(m.geom_type[g]), _native.GeomType.SPHERE)
    geom.size = [float(x) for x in m.geom_size[g]]
    geom.pos = [float(x) for x in frame_rot.T @ (d.geom_xpos[g] - frame_pos)]
    geom.quat = _quat_of(frame_rot.T @ d.geom_xmat[g].reshape(3, 3))
    geom.contype = int(m.geom_contype[g]) if _contacts_on(m) else 0
    geom.conaffinity = int(m.geom_conaffinity[g]) if _contacts_on(m) else 0
    geom.friction = float(m.geom_friction[g][0])
    geom.condim = int(m.geom_condim[g])
    geom.mj_body = int(m.geom_bodyid[g])
    geom.rgba = _drawn_rgba(m, m.geom_rgba[g], int(m.geom_matid[g]))
    geom.group = int(m.geom_group[g])
    geom.solref = [float(x) for x in m.geom_solref[g]]
    geom.solimp = [float(x) for x in m.geom_solimp[g]]
    geom.solmix = float(m.geom_solmix[g])
    geom.priority = int(m.geom_priority[g])
    geom.margin = float(m.geom_margin[g])
    geom.gap = float(m.geom_gap[g])
    geom.invweight = float(m.body_invweight0[m.geom_bodyid[g]][0])
    if int(m.geom_type[g]) == int(mujoco.mjtGeom.mjGEOM_HFIELD):
        geom.height_field = int(m.geom_dataid[g])
    if int(m.geom_type[g]) == int(mujoco.mjtGeom.mjGEOM_MESH) and m.geom_dataid[g] >= 0:
        geom.mesh = int(m.geom_dataid[g])
    return geom


def describe(m: mujoco.MjModel) -> _native.ModelDesc:
    """The native model description of a compiled MuJoCo model, frames at qpos0."""
    _check_supported(m)
    _check_representable(m)
    d = mujoco.MjData(m)
    mujoco.mj_kinematics(m, d)
    mujoco.mj_comPos(m, d)
    mujoco.mj_camlight(m, d)  # camera frames

    simulated = [b for b in range(1, m.nbody) if m.body_weldid[b] == b]
    index_of = {b: i for i, b in enumerate(simulated)}

    def sim_index(mj_body: int) -> int:
        weld = int(m.body_weldid[mj_body])
        return index_of[weld] if weld != 0 else -1

    desc = _native.ModelDesc()
    desc.name = m.names[: m.names.index(b"\0")].decode() if m.names else ""
    desc.timestep = float(m.opt.timestep)
    desc.gravity = [0.0, 0.0, 0.0] if _disabled(m, "gravity") else [float(x) for x in m.opt.gravity]
    desc.density = float(m.opt.density)
    # MuJoCo's Euler step takes the joint damping implicitly unless eulerdamp is disabled; RK4,
    # which joltgym steps with sub-steps instead, keeps the implicit damping.
    desc.implicit_damping = not (int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_EULER)
                                 and m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_EULERDAMP)
    desc.viscosity = float(m.opt.viscosity)
    desc.implicit_actuator_velocity = int(m.opt.integrator) == int(mujoco.mjtIntegrator.mjINT_IMPLICITFAST)
    desc.nq, desc.nv = int(m.nq), int(m.nv)
    desc.mj_nbody = int(m.nbody)

    bodies = []
    for b in simulated:
        body = _native.BodyDesc()
        body.name = _name(m, "body", b)
        body.parent = sim_index(int(m.body_parentid[b]))
        frame_pos = d.xpos[b].copy()
        frame_rot = d.xmat[b].reshape(3, 3).copy()
        body.pos = [float(x) for x in frame_pos]
        body.quat = [float(x) for x in d.xquat[b]]
        members = [c for c in range(1, m.nbody) if m.body_weldid[c] == b]
        body.mj_bodies = members
        mass = float(sum(m.body_mass[c] for c in members))
        com = sum(m.body_mass[c] * d.xipos[c] for c in members) / mass if mass > 0 else frame_pos
        inertia = np.zeros((3, 3))
        for c in members:
            rot = d.ximat[c].reshape(3, 3)
            r = d.xipos[c] - com
            inertia += rot @ np.diag(m.body_inertia[c]) @ rot.T
            inertia += m.body_mass[c] * (np.dot(r, r) * np.eye(3) - np.outer(r, r))
        body.mass = mass
        body.com = [float(x) for x in frame_rot.T @ (com - frame_pos)]
        body.inertia = [float(x) for x in (frame_rot.T @ inertia @ frame_rot).reshape(9)]
        body.geoms = [
            _geom_desc(m, d, g, frame_pos, frame_rot) for g in range(m.ngeom) if int(m.geom_bodyid[g]) in members
        ]
        bodies.append(body)
    desc.bodies = bodies
    desc.world_geoms = [
        _geom_desc(m, d, g, np.zeros(3), np.eye(3)) for g in range(m.ngeom) if m.body_weldid[m.geom_bodyid[g]] == 0
    ]

    # <flag frictionloss="disable"/> drops every dry-friction row, as in MuJoCo.
    frictionloss_on = not m.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_FRICTIONLOSS
    joints = []
    for j in range(m.njnt):
        joint = _native.JointDesc()
        joint.name = m.joint(j).name
        joint.type = _JOINT_TYPES[int(m.jnt_type[j])]
        joint.body = index_of[int(m.jnt_bodyid[j])]
        joint.pos = [float(x) for x in m.jnt_pos[j]]
        joint.axis = [float(x) for x in m.jnt_axis[j]]
        joint.limited = bool(m.jnt_limited[j])
        joint.range = [float(x) for x in m.jnt_range[j]]
        joint.qposadr = int(m.jnt_qposadr[j])
        joint.dofadr = int(m.jnt_dofadr[j])
        width = {_native.JointType.FREE: 7, _native.JointType.BALL: 4}.get(joint.type, 1)
        joint.qpos0 = [float(x) for x in m.qpos0[joint.qposadr : joint.qposadr + width]]
        joint.armature = float(m.dof_armature[joint.dofadr])
        joint.damping = float(m.dof_damping[joint.dofadr])
        joint.solref = [float(x) for x in m.jnt_solref[j]]
        joint.solimp = [float(x) for x in m.jnt_solimp[j]]
        joint.margin = float(m.jnt_margin[j])
        joint.invweight = float(m.dof_invweight0[joint.dofadr])
        if frictionloss_on:
            joint.frictionloss = float(m.dof_frictionloss[joint.dofadr])
            joint.solref_friction = [float(x) for x in m.dof_solref[joint.dofadr]]
            joint.solimp_friction = [float(x) for x in m.dof_solimp[joint.dofadr]]
        joint.actfrclimited = bool(m.jnt_actfrclimited[j])
        joint.actfrcrange = [float(x) for x in m.jnt_actfrcrange[j]]
        joint.stiffness = float(m.jnt_stiffness[j])
        joint.springref = float(m.qpos_spring[joint.qposadr]) if width == 1 else 0.0
        joints.append(joint)
    desc.joints = joints

    actuators = []
    fixed_tendons = _fixed_tendon_ids(m)
    for a in range(m.nu):
        act = _native.ActuatorDesc()
        act.name = m.actuator(a).name
        if int(m.actuator_trntype[a]) == int(mujoco.mjtTrn.mjTRN_TENDON):
            act.tendon = fixed_tendons.index(int(m.actuator_trnid[a][0]))
        else:
            act.joint = int(m.actuator_trnid[a][0])
        act.gear = float(m.actuator_gear[a][0])
        affine_gain = int(m.actuator_gaintype[a]) == int(mujoco.mjtGain.mjGAIN_AFFINE)
        act.gainprm = [float(x) for x in m.actuator_gainprm[a][:3]] if affine_gain else [float(m.actuator_gainprm[a][0]), 0.0, 0.0]
        act.biasprm = ([float(x) for x in m.actuator_biasprm[a][:3]]
                       if int(m.actuator_biastype[a]) == int(mujoco.mjtBias.mjBIAS_AFFINE) else [0.0, 0.0, 0.0])
        act.ctrllimited = bool(m.actuator_ctrllimited[a])
        act.ctrlrange = [float(x) for x in m.actuator_ctrlrange[a]]
        act.forcelimited = bool(m.actuator_forcelimited[a])
        act.forcerange = [float(x) for x in m.actuator_forcerange[a]]
        act.dynamics = _DYNAMICS[int(m.actuator_dyntype[a])]
        act.tau = float(m.actuator_dynprm[a][0])
        act.actlimited = bool(m.actuator_actlimited[a])
        act.actrange = [float(x) for x in m.actuator_actrange[a]]
        act.actearly = bool(m.actuator_actearly[a])
        actuators.append(act)
    desc.actuators = actuators

    def weld_frame(owner: int) -> tuple[np.ndarray, np.ndarray]:
        """World origin and rotation of the simulated body MuJoCo body `owner` is welded to."""
        body = sim_index(owner)
        if body < 0:
            return np.zeros(3), np.eye(3)
        weld = simulated[body]
        return d.xpos[weld], d.xmat[weld].reshape(3, 3)

    def place(point_desc, owner: int, world_pos: np.ndarray):
        """Express a world point of MuJoCo body `owner` on the simulated body it is welded to."""
        point_desc.body = sim_index(owner)
        origin, rot = weld_frame(owner)
        point_desc.pos = [float(x) for x in rot.T @ (world_pos - origin)]
        return point_desc

    sites = []
    for i in range(m.nsite):
        site = _native.SiteDesc()
        site.name = m.site(i).name
        site.mj_body = int(m.site_bodyid[i])
        site.type = _SITE_TYPES[int(m.site_type[i])]
        place(site, int(m.site_bodyid[i]), d.site_xpos[i])
        _, rot = weld_frame(int(m.site_bodyid[i]))
        site.quat = _quat_of(rot.T @ d.site_xmat[i].reshape(3, 3))
        site.size = [float(x) for x in m.site_size[i]]
        site.rgba = _drawn_rgba(m, m.site_rgba[i], int(m.site_matid[i]))
        site.group = int(m.site_group[i])
        sites.append(site)
    desc.sites = sites
    height_fields = []
    for h in range(m.nhfield):
        grid = _native.HeightFieldDesc()
        grid.name = _name(m, "hfield", h)
        grid.nrow, grid.ncol = int(m.hfield_nrow[h]), int(m.hfield_ncol[h])
        grid.size = [float(x) for x in m.hfield_size[h]]
        start = int(m.hfield_adr[h])
        grid.data = [float(x) for x in m.hfield_data[start : start + grid.nrow * grid.ncol]]
        height_fields.append(grid)
    desc.height_fields = height_fields
    desc.meshes = [_mesh_desc(m, k) for k in range(m.nmesh)]
    keyframes = []
    for k in range(m.nkey):
        key = _native.KeyframeDesc()
        key.name = m.key(k).name
        key.qpos = [float(x) for x in m.key_qpos[k]]
        key.ctrl = [float(x) for x in m.key_ctrl[k]]
        keyframes.append(key)
    desc.keyframes = keyframes
    desc.tendons = _fixed_tendons(m)
    desc.spatial_tendons = _spatial_tendons(m)
    desc.tendon_equalities = _tendon_equalities(m)
    cameras = []
    for c in range(m.ncam):
        camera = _native.CameraDesc()
        camera.name = _name(m, "camera", c)
        camera.mode = int(m.cam_mode[c])
        owner = int(m.cam_bodyid[c])
        place(camera, owner, d.cam_xpos[c])
        _, rot = weld_frame(owner)
        camera.quat = _quat_of(rot.T @ d.cam_xmat[c].reshape(3, 3))
        camera.world_pos0 = [float(x) for x in d.cam_xpos[c]]
        camera.world_quat0 = _quat_of(d.cam_xmat[c].reshape(3, 3))
        camera.fovy = float(m.cam_fovy[c])
        cameras.append(camera)
    desc.cameras = cameras
    frames = []
    for b in range(m.nbody):
        frame = _native.BodyFrameDesc()
        frame.name = m.body(b).name
        if b > 0:
            frame.parent = int(m.body_parentid[b])
            place(frame, b, d.xpos[b])
            origin, rot = weld_frame(b)
            frame.quat = _quat_of(rot.T @ d.xmat[b].reshape(3, 3))
            frame.ipos = [float(x) for x in rot.T @ (d.xipos[b] - origin)]
            frame.iquat = _quat_of(rot.T @ d.ximat[b].reshape(3, 3))
            frame.mass = float(m.body_mass[b])
            frame.inertia = [float(x) for x in m.body_inertia[b]]
        frames.append(frame)
    desc.mj_body_frames = frames

    pairs = set()
    for signature in m.exclude_signature[: m.nexclude]:
        b1, b2 = sim_index(int(signature) >> 16), sim_index(int(signature) & 0xFFFF)
        if b1 != b2:
            pairs.add((min(b1, b2), max(b1, b2)))
    desc.excluded_pairs = [list(p) for p in sorted(pairs)]
    desc.contact_pairs = _contact_pairs(m, sim_index) if _contacts_on(m) else []
    return desc


def _contact_pairs(m: mujoco.MjModel, sim_index: Callable[[int], int]) -> list:
    """MuJoCo's explicit pairs, each geom named by its simulated body and its index among that
    body's geoms (describe() lists a body's geoms, and the world's, in MuJoCo's geom order)."""
    refs = {}
    counts: dict[int, int] = {}
    for g in range(m.ngeom):
        body = sim_index(int(m.geom_bodyid[g]))
        refs[g] = _native.GeomRef(body, counts.get(body, 0))
        counts[body] = counts.get(body, 0) + 1
    pairs = []
    for p in range(m.npair):
        pair = _native.ContactPairDesc()
        pair.name = _name(m, "pair", p)
        pair.geom1 = refs[int(m.pair_geom1[p])]
        pair.geom2 = refs[int(m.pair_geom2[p])]
        pair.condim = int(m.pair_dim[p])
        pair.friction = float(m.pair_friction[p][0])
        pair.solref = [float(x) for x in m.pair_solref[p]]
        pair.solimp = [float(x) for x in m.pair_solimp[p]]
        pair.margin = float(m.pair_margin[p])
        pair.gap = float(m.pair_gap[p])
        pairs.append(pair)
    return pairs


# Meshes are drawn thinned to at most about this many cells along their longest side: Go1's visual
# meshes alone hold 206k triangles, more than a software rasteriser should draw per frame.
_MESH_CELLS = 24


def _mesh_desc(m: mujoco.MjModel, k: int) -> _native.MeshDesc:
    """Mesh k in its geom's frame, its vertices merged per cell of a grid (vertex clustering)."""
    mesh = _native.MeshDesc()
    mesh.name = _name(m, "mesh", k)
    verts = m.mesh_vert[m.mesh_vertadr[k] : m.mesh_vertadr[k] + m.mesh_vertnum[k]].astype(np.float64)
    faces = m.mesh_face[m.mesh_faceadr[k] : m.mesh_faceadr[k] + m.mesh_facenum[k]].astype(np.int64)
    if len(verts) == 0 or len(faces) == 0:
        return mesh
    low = verts.min(axis=0)
    cell = max(float((verts.max(axis=0) - low).max()) / _MESH_CELLS, 1e-9)
    _, cluster = np.unique(np.floor((verts - low) / cell).astype(np.int64), axis=0, return_inverse=True)
    cluster = cluster.reshape(-1)
    merged = np.zeros((cluster.max() + 1, 3))
    np.add.at(merged, cluster, verts)
    merged /= np.bincount(cluster)[:, None]
    tri = cluster[faces]
    tri = tri[(tri[:, 0] != tri[:, 1]) & (tri[:, 1] != tri[:, 2]) & (tri[:, 0] != tri[:, 2])]
    if len(tri):
        _, first = np.unique(np.sort(tri, axis=1), axis=0, return_index=True)
        tri = tri[np.sort(first)]
    mesh.vertices = [float(x) for x in merged.reshape(-1)]
    mesh.faces = [int(x) for x in tri.reshape(-1)]
    return mesh


def _fixed_tendon_ids(m: mujoco.MjModel) -> list[int]:
    """MuJoCo's ids of the fixed tendons (every wrap a joint), in order: ModelDesc::tendons' entries."""
    return [t for t in range(m.ntendon)
            if all(m.wrap_type[w] == mujoco.mjtWrap.mjWRAP_JOINT for w in range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t]))]


def _drawn_rgba(m: mujoco.MjModel, rgba: np.ndarray, material: int) -> list[float]:
    """The colour MuJoCo draws an element in: its material's unless its own rgba was changed from the default
    (0.5, 0.5, 0.5, 1), as a task hiding a target with alpha 0 changes it (mjv's setMaterial)."""
    own = [float(x) for x in rgba]
    return [float(x) for x in m.mat_rgba[material]] if material >= 0 and own == [0.5, 0.5, 0.5, 1.0] else own


def _tendon_equalities(m: mujoco.MjModel) -> list:
    """Each active tendon equality of one fixed tendon (_check_supported refuses others): its tendon held at
    tendon_length0 plus the polynomial's constant term (MuJoCo's mjEQ_TENDON without tendon2)."""
    fixed = _fixed_tendon_ids(m)
    equalities = []
    for e in range(m.neq):
        if not m.eq_active0[e]:
            continue
        t = int(m.eq_obj1id[e])
        equality = _native.TendonEqualityDesc()
        equality.name = _name(m, "eq", e)
        equality.tendon = fixed.index(t)
        equality.length = float(m.tendon_length0[t] + m.eq_data[e][0])
        equality.solref = [float(x) for x in m.eq_solref[e]]
        equality.solimp = [float(x) for x in m.eq_solimp[e]]
        equality.invweight = float(m.tendon_invweight0[t])
        equalities.append(equality)
    return equalities


def _straight_between_two_sites(m: mujoco.MjModel, t: int) -> bool:
    """Whether tendon t is a spatial tendon of exactly two sites (no wrapping geom, no pulley)."""
    wraps = range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t])
    return len(wraps) == 2 and all(m.wrap_type[w] == mujoco.mjtWrap.mjWRAP_SITE for w in wraps)


def _spatial_tendons(m: mujoco.MjModel) -> list:
    """The spatial tendons straight between two sites (drawn; their limits act). _check_supported refuses a
    limited one of any other path; an unlimited one, which exerts nothing, is left out (and not drawn)."""
    tendons = []
    for t in range(m.ntendon):
        if not _straight_between_two_sites(m, t):
            continue
        tendon = _native.SpatialTendonDesc()
        tendon.name = _name(m, "tendon", t)
        tendon.site1, tendon.site2 = (int(m.wrap_objid[w]) for w in (m.tendon_adr[t], m.tendon_adr[t] + 1))
        tendon.width = float(m.tendon_width[t])
        tendon.rgba = _drawn_rgba(m, m.tendon_rgba[t], int(m.tendon_matid[t]))
        tendon.group = int(m.tendon_group[t])
        tendon.limited = bool(m.tendon_limited[t])
        tendon.range = [float(x) for x in m.tendon_range[t]]
        tendon.solref = [float(x) for x in m.tendon_solref_lim[t]]
        tendon.solimp = [float(x) for x in m.tendon_solimp_lim[t]]
        tendon.margin = float(m.tendon_margin[t])
        tendon.invweight = float(m.tendon_invweight0[t])
        tendons.append(tendon)
    return tendons


def _fixed_tendons(m: mujoco.MjModel) -> list:
    """Fixed tendons as joint coefficients (length = sum coef * q)."""
    tendons = []
    for t in _fixed_tendon_ids(m):
        wraps = range(m.tendon_adr[t], m.tendon_adr[t] + m.tendon_num[t])
        tendon = _native.TendonDesc()
        tendon.name = _name(m, "tendon", t)
        tendon.joints = [int(m.wrap_objid[w]) for w in wraps]
        tendon.coefs = [float(m.wrap_prm[w]) for w in wraps]
        tendon.stiffness = float(m.tendon_stiffness[t])
        tendon.damping = float(m.tendon_damping[t])
        tendon.lengthspring = [float(x) for x in np.reshape(m.tendon_lengthspring[t], -1)[:2]]
        tendons.append(tendon)
    return tendons
