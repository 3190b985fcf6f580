"""RLlib trains on joltgym envs: one small PPO iteration each, single- and multi-agent, local and
with remote env runners (separate processes, as on a cluster).

Ray 2.60 pins Gymnasium 1.2.2, older than the Gymnasium the rest of the suite runs on. These tests
run RLlib in a virtual environment of its own that sees this environment's packages (joltgym,
PyTorch, NumPy) but holds Ray's pins, so joltgym is exercised on Ray's Gymnasium too. The
environment is created once per test environment (about 30 s) and kept in joltgym's cache directory.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from side_venv import side_venv

pytestmark = pytest.mark.slow  # RLlib in a virtual environment with Ray's pins

RAY = "ray[rllib]==2.60.0"
SCRIPT = Path(__file__).resolve().parent / "rllib" / "run_rllib.py"


@pytest.fixture(scope="module")
def rllib_python() -> str:
    return side_venv("rllib-venv-2.60.0", [RAY], timeout=1200)


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
