"""A cached virtual environment beside the test environment: its own pins first (Ray's, an older
Gymnasium), then this environment's packages (joltgym, MuJoCo, PyTorch, ...). Created once per
test environment and kept in joltgym's cache directory."""

from __future__ import annotations

import hashlib
import os
import site
import subprocess
import sys
import venv
from pathlib import Path


def cache_dir() -> Path:
    explicit = os.environ.get("JOLTGYM_CACHE_DIR")
    return Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "joltgym"


def side_venv(name: str, pip_args: list[str], timeout: float) -> str:
    """The interpreter of the venv `name`, with `pip install <pip_args>` done in it."""
    # One venv per environment running the tests (a venv's packages are not its base interpreter's).
    parents = [p for p in site.getsitepackages() if Path(p).is_dir()]
    key = hashlib.sha256("\n".join([sys.prefix, *parents]).encode()).hexdigest()[:10]
    root = cache_dir() / f"{name}-{key}"
    python = root / "bin" / "python"
    ready = root / ".joltgym-ready"
    if not ready.is_file():
        venv.EnvBuilder(system_site_packages=False, with_pip=True, clear=True).create(root)
        own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        # After the venv's own packages; addsitedir, not plain paths, so that the parent's own .pth
        # files (an editable install's) run too.
        lines = [f"import site; site.addsitedir({p!r})" for p in parents]
        (Path(own) / "joltgym-parent-env.pth").write_text("\n".join(lines) + "\n")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *pip_args], check=True, timeout=timeout)
        ready.write_text(" ".join(pip_args) + "\n")
    return str(python)
