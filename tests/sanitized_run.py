"""Runs pytest against a joltgym package in another folder (a sanitized build's), not the installed one:
python sanitized_run.py PACKAGE_PARENT pytest-args...  (test_sanitizers.py starts it under the sanitizer)."""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> int:
    parent = Path(sys.argv[1]).resolve()
    repo = Path(__file__).resolve().parent.parent
    # An editable install's finder, or the checkout itself, would load the installed module instead.
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
    sys.path[:] = [p for p in sys.path if not Path(p or ".").resolve().is_relative_to(repo / "python")]
    sys.path.insert(0, str(parent))
    import joltgym

    loaded = Path(joltgym._native.__file__).resolve()
    if not loaded.is_relative_to(parent):
        raise SystemExit(f"joltgym's native module came from {loaded}, not from {parent}")
    import pytest

    return pytest.main(sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
