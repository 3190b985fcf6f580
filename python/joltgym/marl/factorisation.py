"""Factorised control of one robot, as MaMuJoCo (Gymnasium-Robotics 1.4.2) defines it.

Each robot is a graph over its actuated joints (``Joint``), joined by hyperedges; a
partition (``agent_conf``, e.g. ``"2x3"``) gives each agent some joints, hence some
actuators. An agent observes, for the joints within ``agent_obsk`` hops of its own, the
categories of ``local_categories[k]`` (joint ``qpos``/``qvel``/``qfrc_actuator``, or the
``cinert``/``cvel``/``cfrc_ext`` rows of the bodies a joint moves, each body once), then the
``global_categories`` of the robot's root. The tables below state MaMuJoCo's partitions,
graphs and overrides for our robots; ``tests/test_marl_factorised.py`` checks the resulting
index sets against Gymnasium-Robotics itself.

An observation element is named by a token over MuJoCo's data (``"qpos[3]"``,
``"clip(qvel[3])"``, ``"cfrc_ext[2,4]"``, ``"fingertip_dist[1]"``); ``native_sources`` turns
tokens into where the native task reads them: the single-agent observation where the
token is one of its elements, else the raw coordinates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from joltgym import _native

_Kind = _native.ObservationSourceKind


@dataclass(frozen=True)
class Joint:
    """An actuated joint (MaMuJoCo's Node): its qpos/qvel indices, actuator and the bodies it moves."""

    label: str
    qpos: int | None
    qvel: int | None
    act: int | None
    bodies: tuple[int, ...] = ()
    # Category -> tokens that replace the default (an empty tuple removes the category).
    overrides: dict[str, tuple[str, ...]] = field(default_factory=dict, hash=False, compare=False)

    def __hash__(self) -> int:
        return hash(self.label)


@dataclass(frozen=True)
class Robot:
    """The agent graph of one robot and its partitions."""

    joints: dict[str, Joint]
    edges: tuple[tuple[str, ...], ...]
    globals: tuple[Joint, ...]
    partitions: dict[str, tuple[tuple[str, ...], ...]]
    local_categories: tuple[tuple[str, ...], ...]  # per depth k; the last repeats for deeper k
    nq: int
    nv: int
    clipped_qvel: bool = False  # the single-agent observation clips qvel to +-10

    def default_local_categories(self, obsk: int) -> list[list[str]]:
        base = self.local_categories
        return [list(base[min(k, len(base) - 1)]) for k in range(obsk + 1)]


GLOBAL_CATEGORIES = ("qpos", "qvel")


def _chain(*labels: str) -> tuple[tuple[str, str], ...]:
    return tuple((a, b) for a, b in zip(labels, labels[1:]))


def _planar_roots(clip: bool) -> tuple[Joint, ...]:
    qvel = (lambda i: {"qvel": (f"clip(qvel[{i}])",)}) if clip else (lambda i: {})
    return (
        Joint("root_x", 0, 0, None, overrides={"qpos": (), **qvel(0)}),
        Joint("root_z", 1, 1, None, overrides=qvel(1)),
        Joint("root_y", 2, 2, None, overrides=qvel(2)),
    )


def _free_root(qpos: bool = True) -> Joint:
    return Joint(
        "root",
        0 if qpos else None,
        0 if qpos else None,
        None,
        overrides={"qpos": tuple(f"qpos[{i}]" for i in range(2, 7)), "qvel": tuple(f"qvel[{i}]" for i in range(6))},
    )


def _half_cheetah() -> Robot:
    names = ("bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot")
    joints = {n: Joint(n, 3 + i, 3 + i, i) for i, n in enumerate(names)}
    return Robot(
        joints=joints,
        edges=_chain("bfoot", "bshin", "bthigh", "fthigh", "fshin", "ffoot"),
        globals=_planar_roots(clip=False),
        partitions={"2x3": (names[:3], names[3:]), "6x1": tuple((n,) for n in names)},
        local_categories=(("qpos", "qvel"), ("qpos",)),
        nq=9,
        nv=9,
    )


def _hopper() -> Robot:
    names = ("thigh_joint", "leg_joint", "foot_joint")
    joints = {n: Joint(n, 3 + i, 3 + i, i, overrides={"qvel": (f"clip(qvel[{3 + i}])",)}) for i, n in enumerate(names)}
    return Robot(
        joints=joints,
        edges=(("foot_joint", "leg_joint"), ("leg_joint", "thigh_joint")),
        globals=_planar_roots(clip=True),
        partitions={"3x1": tuple((n,) for n in names)},
        local_categories=(("qpos", "qvel"), ("qpos",)),
        nq=6,
        nv=6,
        clipped_qvel=True,
    )


def _walker2d() -> Robot:
    names = ("thigh_joint", "leg_joint", "foot_joint", "thigh_left_joint", "leg_left_joint", "foot_left_joint")
    joints = {n: Joint(n, 3 + i, 3 + i, i) for i, n in enumerate(names)}
    return Robot(
        joints=joints,
        edges=(
            ("foot_joint", "leg_joint"),
            ("leg_joint", "thigh_joint"),
            ("foot_left_joint", "leg_left_joint"),
            ("leg_left_joint", "thigh_left_joint"),
            ("thigh_joint", "thigh_left_joint"),
        ),
        globals=_planar_roots(clip=False),
        partitions={
            "2x3": (("foot_joint", "leg_joint", "thigh_joint"), ("foot_left_joint", "leg_left_joint", "thigh_left_joint"))
        },
        local_categories=(("qpos", "qvel"), ("qpos",)),
        nq=9,
        nv=9,
        clipped_qvel=True,
    )


def _swimmer() -> Robot:
    joints = {
        "rot2": Joint("rot2", 3, 3, 0, overrides={"qvel": ("qvel[0]", "qvel[3]")}),
        "rot3": Joint("rot3", 4, 4, 1, overrides={"qvel": ("qvel[1]", "qvel[4]")}),
    }
    return Robot(
        joints=joints,
        edges=(("rot2", "rot3"),),
        globals=(Joint("free_body_rot", 2, 2, None),),
        partitions={"2x1": (("rot2",), ("rot3",))},
        local_categories=(("qpos", "qvel"), ("qpos",)),
        nq=5,
        nv=5,
    )


def _reacher() -> Robot:
    def sin_cos(i: int) -> tuple[str, ...]:
        return (f"sin(qpos[{i}])", f"cos(qpos[{i}])")

    joints = {
        "joint0": Joint("joint0", 0, 0, 0, bodies=(1, 2), overrides={"qpos": sin_cos(0)}),
        "joint1": Joint(
            "joint1",
            1,
            1,
            1,
            bodies=(2, 3),
            overrides={"qpos": sin_cos(1), "fingertip_dist": tuple(f"fingertip_dist[{k}]" for k in range(3))},
        ),
    }
    return Robot(
        joints=joints,
        edges=(("joint0", "joint1"),),
        globals=(
            Joint("target_x", 2, 2, None, overrides={"qvel": ()}),
            Joint("target_y", 3, 3, None, overrides={"qvel": ()}),
        ),
        partitions={"2x1": (("joint0",), ("joint1",))},
        local_categories=(("qpos", "qvel", "fingertip_dist"), ("qpos",)),
        nq=4,
        nv=4,
    )


def _ant() -> Robot:
    # MuJoCo bodies: 1 torso; legs 2-4, 5-7, 8-10, 11-13 (leg, aux, ankle).
    legs = {1: (2, 3, 4), 2: (5, 6, 7), 3: (8, 9, 10), 4: (11, 12, 13)}
    actuators = {1: 2, 2: 4, 3: 6, 4: 0}  # the XML drives hip_4, ankle_4 first
    joints = {}
    for leg, (thigh, aux, ankle) in legs.items():
        hip_q = 7 + 2 * (leg - 1)
        joints[f"hip{leg}"] = Joint(f"hip{leg}", hip_q, hip_q - 1, actuators[leg], bodies=(1, thigh))
        joints[f"ankle{leg}"] = Joint(f"ankle{leg}", hip_q + 1, hip_q, actuators[leg] + 1, bodies=(thigh, aux, ankle))
    return Robot(
        joints=joints,
        edges=(("ankle4", "hip4"), ("ankle1", "hip1"), ("ankle2", "hip2"), ("ankle3", "hip3"),
               ("hip4", "hip1", "hip2", "hip3")),
        globals=(_free_root(),),
        partitions={
            "2x4": (("hip1", "ankle1", "hip2", "ankle2"), ("hip3", "ankle3", "hip4", "ankle4")),
            "2x4d": (("hip1", "ankle1", "hip4", "ankle4"), ("hip2", "ankle2", "hip3", "ankle3")),
            "4x2": (("hip1", "ankle1"), ("hip2", "ankle2"), ("hip3", "ankle3"), ("hip4", "ankle4")),
        },
        local_categories=(("qpos", "qvel", "cfrc_ext"), ("qpos",)),
        nq=15,
        nv=14,
    )


def _humanoid() -> Robot:
    torso, lwaist, pelvis, r_thigh, r_shin, r_foot, l_thigh, l_shin, l_foot = range(1, 10)
    r_upper, r_lower, l_upper, l_lower = range(10, 14)
    # (label, qpos, actuator, bodies); qvel = qpos - 1. MaMuJoCo's "abdomen_y" reads the
    # coordinates of the model's abdomen_z joint (qpos 7) with abdomen_y's motor, and the
    # other way round: kept, so that the index sets are MaMuJoCo's.
    rows = [
        ("abdomen_y", 7, 0, (torso, lwaist, pelvis)),
        ("abdomen_z", 8, 1, (torso, lwaist, pelvis)),
        ("abdomen_x", 9, 2, (pelvis, r_thigh, l_thigh)),
        ("right_hip_x", 10, 3, (r_thigh, r_shin)),
        ("right_hip_z", 11, 4, (r_thigh, r_shin)),
        ("right_hip_y", 12, 5, (r_thigh, r_shin)),
        ("right_knee", 13, 6, (r_shin, r_foot)),
        ("left_hip_x", 14, 7, (l_thigh, l_shin)),
        ("left_hip_z", 15, 8, (l_thigh, l_shin)),
        ("left_hip_y", 16, 9, (l_thigh, l_shin)),
        ("left_knee", 17, 10, (l_shin, l_foot)),
        ("right_shoulder1", 18, 11, (torso, r_upper, r_lower)),
        ("right_shoulder2", 19, 12, (torso, r_upper, r_lower)),
        ("right_elbow", 20, 13, (r_lower,)),
        ("left_shoulder1", 21, 14, (torso, l_upper, l_lower)),
        ("left_shoulder2", 22, 15, (torso, l_upper, l_lower)),
        ("left_elbow", 23, 16, (l_lower,)),
    ]
    joints = {label: Joint(label, q, q - 1, a, bodies=b) for label, q, a, b in rows}
    abdomen = ("abdomen_x", "abdomen_y", "abdomen_z")
    right_hip, left_hip = ("right_hip_x", "right_hip_y", "right_hip_z"), ("left_hip_x", "left_hip_y", "left_hip_z")
    return Robot(
        joints=joints,
        edges=(
            abdomen,
            right_hip,
            left_hip,
            ("left_elbow", "left_shoulder1", "left_shoulder2"),
            ("right_elbow", "right_shoulder1", "right_shoulder2"),
            ("left_knee", *left_hip),
            ("right_knee", *right_hip),
            ("left_shoulder1", "left_shoulder2", *abdomen),
            ("right_shoulder1", "right_shoulder2", *abdomen),
            (*abdomen, *left_hip),
            (*abdomen, *right_hip),
        ),
        globals=(_free_root(qpos=False),),
        partitions={
            "9|8": (
                (*abdomen, "right_shoulder1", "right_shoulder2", "right_elbow", "left_shoulder1", "left_shoulder2",
                 "left_elbow"),
                (*right_hip, "right_knee", *left_hip, "left_knee"),
            )
        },
        local_categories=(("qpos", "qvel", "cinert", "cvel", "qfrc_actuator", "cfrc_ext"), ("qpos",)),
        nq=24,
        nv=23,
    )


ROBOTS: dict[str, Robot] = {
    "HalfCheetah": _half_cheetah(),
    "Hopper": _hopper(),
    "Walker2d": _walker2d(),
    "Swimmer": _swimmer(),
    "Reacher": _reacher(),
    "Ant": _ant(),
    "Humanoid": _humanoid(),
    "HumanoidStandup": _humanoid(),
}

_BODY_WIDTH = {"cinert": 10, "cvel": 6, "cfrc_ext": 6}


def joints_within(robot: Robot, partition: tuple[str, ...], obsk: int) -> list[list[Joint]]:
    """The joints at each hop distance 0..obsk from the partition's, each depth sorted by label."""
    adjacent: dict[str, set[str]] = {name: set() for name in robot.joints}
    for edge in robot.edges:
        for name in edge:
            adjacent[name].update(other for other in edge if other != name)
    explored, frontier = set(partition), set(partition)
    depths = [sorted(partition)]
    for _ in range(obsk):
        frontier = set().union(*(adjacent[name] for name in frontier)) - explored
        explored |= frontier
        depths.append(sorted(frontier))
    return [[robot.joints[name] for name in depth] for depth in depths]


def _category_tokens(joint: Joint, category: str, seen: dict[str, set[int]]) -> list[str]:
    if category in joint.overrides:
        return list(joint.overrides[category])
    if category in ("qpos", "qvel"):
        index = joint.qpos if category == "qpos" else joint.qvel
        return [] if index is None else [f"{category}[{index}]"]
    if category == "qfrc_actuator":
        return [] if joint.qvel is None else [f"qfrc_actuator[{joint.qvel}]"]
    if category in _BODY_WIDTH:
        tokens = []
        for body in joint.bodies:
            if body in seen.setdefault(category, set()):
                continue
            seen[category].add(body)
            tokens += [f"{category}[{body},{k}]" for k in range(_BODY_WIDTH[category])]
        return tokens
    return []  # a category the joint has nothing for (e.g. fingertip_dist on joint0)


def observation_tokens(
    robot: Robot,
    partition: tuple[str, ...],
    obsk: int,
    local_categories: list[list[str]],
    global_categories: tuple[str, ...] = GLOBAL_CATEGORIES,
) -> list[str]:
    """One agent's observation, element by element, in MaMuJoCo's order."""
    if len(local_categories) <= obsk:
        raise ValueError(f"local_categories needs agent_obsk + 1 = {obsk + 1} entries, got {len(local_categories)}")
    tokens: list[str] = []
    seen: dict[str, set[int]] = {}
    for k, depth in enumerate(joints_within(robot, partition, obsk)):
        for joint in depth:
            for category in local_categories[k]:
                tokens += _category_tokens(joint, category, seen)
    seen = {}
    for category in global_categories:
        for joint in robot.globals:
            tokens += _category_tokens(joint, category, seen)
    return tokens


def state_tokens(robot: Robot, observation_structure: dict[str, int]) -> list[str]:
    """The single-agent observation's elements as tokens, from its native layout."""
    tokens: list[str] = []
    skip = observation_structure.get("skipped_qpos", 0)
    for part, size in observation_structure.items():
        if part == "qpos":
            tokens += [f"qpos[{skip + i}]" for i in range(size)]
        elif part == "qvel":
            tokens += [f"clip(qvel[{i}])" if robot.clipped_qvel else f"qvel[{i}]" for i in range(size)]
        elif part in _BODY_WIDTH:
            width = _BODY_WIDTH[part]
            tokens += [f"{part}[{1 + i // width},{i % width}]" for i in range(size)]
        elif part == "qfrc_actuator":
            tokens += [f"qfrc_actuator[{robot.nv - size + i}]" for i in range(size)]
        elif part in ("cos_qpos", "sin_qpos"):
            tokens += [f"{part[:3]}(qpos[{i}])" for i in range(size)]
        elif part == "target_qpos":
            tokens += [f"qpos[{robot.nq - size + i}]" for i in range(size)]
        elif part == "fingertip_minus_target":
            tokens += [f"fingertip_dist[{i}]" for i in range(size)]
        elif part != "skipped_qpos" and size:
            raise ValueError(f"no tokens for observation part {part!r}")
    return tokens


_RAW = re.compile(r"^(qpos|qvel)\[(\d+)\]$")
_FINGERTIP = re.compile(r"^fingertip_dist\[(\d)\]$")


def native_sources(tokens: list[str], state: list[str], fingertip: int, target: int) -> list[tuple]:
    """Where the native task reads each token: an element of the single-agent observation,
    else raw qpos/qvel, else the fingertip - target distance."""
    index = {token: i for i, token in enumerate(state)}
    sources = []
    for token in tokens:
        if token in index:
            sources.append((_Kind.STATE, index[token]))
        elif match := _RAW.match(token):
            sources.append((_Kind.QPOS if match[1] == "qpos" else _Kind.QVEL, int(match[2])))
        elif match := _FINGERTIP.match(token):
            sources.append((_Kind.BODY_DELTA, fingertip, target, int(match[1])))
        else:
            raise ValueError(f"observation element {token!r} is neither in the state nor a raw coordinate")
    return sources


def action_indices(robot: Robot, partition: tuple[str, ...]) -> list[int]:
    return [robot.joints[name].act for name in partition]
