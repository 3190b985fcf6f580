"""joltgym on the oldest Gymnasium it declares (pyproject: gymnasium>=1.1): the Gymnasium-facing
tests run again in a virtual environment that holds Gymnasium 1.1.1 and sees this environment's
other packages (joltgym, MuJoCo, PettingZoo, SB3). The newest Gymnasium is the main suite's; Ray's
1.2.2 is test_rllib's. Gymnasium 1.0 lacks gymnasium.vector.AutoresetMode, hence the lower bound.
The environment is created once per test environment and kept in joltgym's cache directory."""

from __future__ import annotations

import hashlib
import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

OLDEST = "1.1.1"
SUBSET = ["test_task_suite.py", "test_vector_env.py", "test_seeding.py", "test_bad_input.py", "test_sb3_adapter.py",
          "test_pickling.py", "test_marl_pettingzoo.py"]
TESTS = Path(__file__).resolve().parent


def cache_dir() -> Path:
    explicit = os.environ.get("JOLTGYM_CACHE_DIR")
    return Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "joltgym"


@pytest.fixture(scope="module")
def oldest_python() -> str:
    parents = [p for p in site.getsitepackages() if Path(p).is_dir()]
    key = hashlib.sha256("\n".join([sys.prefix, *parents]).encode()).hexdigest()[:10]
    root = cache_dir() / f"gymnasium-{OLDEST}-venv-{key}"
    python = root / "bin" / "python"
    ready = root / ".joltgym-ready"
    if not ready.is_file():
        venv.EnvBuilder(system_site_packages=False, with_pip=True, clear=True).create(root)
        own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        # After the venv's own Gymnasium; addsitedir so that an editable install's .pth runs too.
        lines = [f"import site; site.addsitedir({p!r})" for p in parents]
        (Path(own) / "joltgym-parent-env.pth").write_text("\n".join(lines) + "\n")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", f"gymnasium=={OLDEST}"],
                       check=True, timeout=600)
        ready.write_text(OLDEST + "\n")
    return str(python)


def test_the_venv_runs_the_oldest_gymnasium_and_this_joltgym(oldest_python):
    out = subprocess.run([oldest_python, "-c", "import gymnasium, joltgym; print(gymnasium.__version__, joltgym.__file__)"],
                         capture_output=True, text=True, check=True).stdout.split()
    import joltgym

    assert out[0] == OLDEST
    assert Path(out[1]).resolve() == Path(joltgym.__file__).resolve()


def test_the_gymnasium_facing_tests_pass_on_the_oldest_gymnasium(oldest_python):
    result = subprocess.run(
        [oldest_python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *[str(TESTS / t) for t in SUBSET]],
        capture_output=True, text=True, timeout=2400, cwd=TESTS.parent,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
