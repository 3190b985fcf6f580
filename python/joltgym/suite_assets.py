"""Where the DeepMind Control Suite's models come from: dm_control's own files in the registry's
``dm-control`` wheel (``dm_control/suite/*.xml`` and the ``common/`` files they include), installed by
``pip install "joltgym[dmc]"``. joltgym ships none of these files."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PREFIX = "dm_control"  # a task's xml_file "dm_control/<file>" is dm_control/suite/<file>


def suite_dir() -> Path:
    """dm_control's ``suite`` folder, found without importing dm_control (which loads MuJoCo's renderers)."""
    spec = importlib.util.find_spec("dm_control")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("the DeepMind Control Suite's models come from dm_control's wheel: "
                                  "pip install \"joltgym[dmc]\"")
    return Path(next(iter(spec.submodule_search_locations))) / "suite"


def suite_model_path(name: str) -> Path:
    """The suite's model ``name`` (``"cheetah.xml"``); FileNotFoundError lists them."""
    path = suite_dir() / name
    if not path.is_file():
        models = ", ".join(sorted(p.name for p in suite_dir().glob("*.xml")))
        raise FileNotFoundError(f"dm_control's suite has no model {name!r}; models: {models}")
    return path
