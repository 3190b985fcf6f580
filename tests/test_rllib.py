"""RLlib trains on joltgym envs: one small PPO iteration each, single- and multi-agent, local and
with remote env runners (separate processes, as on a cluster).

Ray 2.60 pins Gymnasium 1.2.2, older than the Gymnasium the rest of the suite runs on. These tests
run RLlib in a virtual environment of its own that sees this environment's packages (joltgym,
PyTorch, NumPy) but holds Ray's pins, so joltgym is exercised on Ray's Gymnasium too. The
environment is created once per test environment (about 30 s) and kept in joltgym's cache directory.
"""

from __future__ import annotations

import hashlib
import json
import os
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

RAY = "ray[rllib]==2.60.0"
SCRIPT = Path(__file__).resolve().parent / "rllib" / "run_rllib.py"


def cache_dir() -> Path:
    explicit = os.environ.get("JOLTGYM_CACHE_DIR")
    base = Path(explicit) if explicit else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "joltgym"
    return base


@pytest.fixture(scope="module")
def rllib_python() -> str:
    # One environment per environment running the tests (a venv's packages are not its base
    # interpreter's): it sees this one's site-packages through a .pth file, after its own (Ray's pins).
    parents = [p for p in site.getsitepackages() if Path(p).is_dir()]
    key = hashlib.sha256("\n".join([sys.prefix, *parents]).encode()).hexdigest()[:10]
    root = cache_dir() / f"rllib-venv-2.60.0-{key}"
    python = root / "bin" / "python"
    ready = root / ".joltgym-ready"
    if not ready.is_file():
        venv.EnvBuilder(system_site_packages=False, with_pip=True, clear=True).create(root)
        own = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
        # addsitedir, not plain paths: the parent's own .pth files (an editable install's) must run too.
        lines = [f"import site; site.addsitedir({p!r})" for p in parents]
        (Path(own) / "joltgym-parent-env.pth").write_text("\n".join(lines) + "\n")
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", RAY], check=True, timeout=1200)
        ready.write_text(RAY + "\n")
    return str(python)


def run(python: str, *args: str) -> dict:
    result = subprocess.run(
        [python, str(SCRIPT), *args], capture_output=True, text=True, timeout=900, cwd=Path(SCRIPT).parent,
        env={**os.environ, "RAY_DEDUP_LOGS": "0", "PYTHONWARNINGS": "ignore"},
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_rllib_sees_rays_gymnasium_and_this_joltgym(rllib_python):
    out = subprocess.run(
        [rllib_python, "-c", "import gymnasium, joltgym, ray; print(gymnasium.__version__, ray.__version__, joltgym.__file__)"],
        capture_output=True, text=True, check=True,
    ).stdout.split()
    assert out[0] == "1.2.2" and out[1] == "2.60.0"
    import joltgym

    assert Path(out[2]).resolve() == Path(joltgym.__file__).resolve()


@pytest.mark.parametrize("mode, env_type", [("default", "SyncVectorEnv"), ("vector_entry_point", "JoltVectorEnv")])
def test_single_agent_by_id(rllib_python, mode, env_type):
    out = run(rllib_python, "single", "joltgym/HalfCheetah-v0", mode, "0")
    assert out["iteration"] == 1 and out["sampled"] >= 128 and out["finite"]
    assert out["env_types"] == [env_type]


@pytest.mark.parametrize("env_id", ["joltgym:joltgym/HalfCheetah-v0", "joltgym/Hopper-v0"])
def test_single_agent_on_remote_env_runners(rllib_python, env_id):
    # The bare id works remotely through joltgym.rllib.register_envs(), which the script calls.
    out = run(rllib_python, "single", env_id, "vector_entry_point", "2")
    assert out["iteration"] == 1 and out["sampled"] >= 128 and out["finite"]


@pytest.mark.parametrize(
    "env_id, sharing",
    [
        ("joltgym/MaHalfCheetah-v0", "per_agent"),
        ("joltgym/MaHopper-v0", "shared"),  # observations 8, 9, 8: padded to share one module
        ("joltgym/SumoAnts-v0", "per_agent"),
        ("joltgym/SumoAnts-v0", "shared"),
    ],
)
def test_multi_agent(rllib_python, env_id, sharing):
    out = run(rllib_python, "multi", env_id, sharing, "0")
    assert out["iteration"] == 1 and out["sampled"] >= 128 and out["finite"]
    assert len(out["losses"]) == (1 if sharing == "shared" else {"joltgym/MaHopper-v0": 3}.get(env_id, 2))


def test_multi_agent_on_remote_env_runners(rllib_python):
    out = run(rllib_python, "multi", "joltgym/SumoAnts-v0", "shared", "2")
    assert out["iteration"] == 1 and out["finite"]
