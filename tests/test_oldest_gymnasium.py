"""joltgym on the oldest Gymnasium it declares (pyproject: gymnasium>=1.1): the Gymnasium-facing
tests run again in a virtual environment that holds Gymnasium 1.1.1 and sees this environment's
other packages (joltgym, MuJoCo, PettingZoo, SB3). The newest Gymnasium is the main suite's; Ray's
1.2.2 is test_rllib's. Gymnasium 1.0 lacks gymnasium.vector.AutoresetMode, hence the lower bound.
The environment is made by tests/side_venv.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from side_venv import side_venv
from stand_ins import without_stood_in

pytestmark = pytest.mark.slow  # a virtual environment with the oldest Gymnasium

OLDEST = "1.1.1"
SUBSET = ["test_task_suite.py", "test_vector_env.py", "test_seeding.py", "test_bad_input.py", "test_sb3_adapter.py",
          "test_pickling.py", "test_marl_pettingzoo.py"]
# Gymnasium's API meets every task of a family alike: a few tasks stand for the rest (stand_ins.py).
KEYWORD = without_stood_in()
TESTS = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def oldest_python() -> str:
    return side_venv(f"gymnasium-{OLDEST}-venv", ["--no-deps", f"gymnasium=={OLDEST}"], timeout=600)


def test_the_venv_runs_the_oldest_gymnasium_and_this_joltgym(oldest_python):
    out = subprocess.run([oldest_python, "-c", "import gymnasium, joltgym; print(gymnasium.__version__, joltgym.__file__)"],
                         capture_output=True, text=True, check=True).stdout.split()
    import joltgym

    assert out[0] == OLDEST
    assert Path(out[1]).resolve() == Path(joltgym.__file__).resolve()


def test_the_gymnasium_facing_tests_pass_on_the_oldest_gymnasium(oldest_python):
    result = subprocess.run(
        [oldest_python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", KEYWORD, *[str(TESTS / t) for t in SUBSET]],
        capture_output=True, text=True, timeout=2400, cwd=TESTS.parent,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
