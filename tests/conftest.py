from __future__ import annotations

from pathlib import Path

import pytest

import joltgym
from joltgym import _native


@pytest.fixture
def build_world(tmp_path: Path):
    """Compile an MJCF string (MuJoCo, then Jolt) into a fresh native World."""

    def build(xml: str, solver: joltgym.SolverSettings | None = None):
        path = tmp_path / "model.xml"
        path.write_text(xml)
        model = joltgym.load_model(path, solver=solver)
        return model, _native.World(model.native)

    return build
