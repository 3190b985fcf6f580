"""The C++ core's layers include only downwards: src/ areas in the order data flows (model →
physics → tasks → … → bindings), and src/physics's rooms by concept (core below joints and
contacts, below the compiled model and the articulation, below the world). docs/physics.md
explains every room."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PHYSICS_DOC = Path(__file__).resolve().parents[1] / "docs" / "physics.md"

AREAS = ["model", "physics", "tasks", "render", "envs", "marl", "pool", "bindings"]  # each includes only earlier ones
ROOMS = {"core": 0, "joints": 1, "contacts": 1, "model": 2, "articulation": 2, "world": 3}  # rooms include lower ranks
INCLUDE = re.compile(r'^#include "([a-z_]+)/([a-z_/]+\.h)"', re.M)


def sources(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".h", ".cpp"))


def includes(path: Path) -> list[tuple[str, str]]:
    return INCLUDE.findall(path.read_text())


@pytest.mark.parametrize("area", AREAS)
def test_an_area_includes_only_the_areas_before_it(area):
    allowed = set(AREAS[: AREAS.index(area) + 1])
    wrong = [(p.relative_to(SRC).as_posix(), f"{a}/{rest}") for p in sources(SRC / area)
             for a, rest in includes(p) if a not in allowed]
    assert not wrong, f"{area} may include only {sorted(allowed)}: {wrong}"


def test_every_area_is_known():
    assert sorted(p.name for p in SRC.iterdir() if p.is_dir()) == sorted(AREAS)


def test_every_physics_file_is_in_a_room():
    physics = SRC / "physics"
    assert sorted(p.name for p in physics.iterdir()) == sorted(ROOMS)
    loose = [p.name for p in physics.iterdir() if p.is_file()]
    assert not loose


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_includes_only_itself_and_lower_rooms(room):
    wrong = []
    for path in sources(SRC / "physics" / room):
        for area, rest in includes(path):
            if area != "physics":
                continue
            other = rest.split("/")[0]
            if other != room and ROOMS[other] >= ROOMS[room]:
                wrong.append((path.name, f"physics/{rest}"))
    assert not wrong, f"physics/{room} (rank {ROOMS[room]}) includes a room of its rank or above: {wrong}"


@pytest.mark.parametrize("room", ROOMS)
def test_docs_physics_explains_every_room(room):
    assert f"`src/physics/{room}/`" in PHYSICS_DOC.read_text()
