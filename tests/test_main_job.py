"""The main job, `python -m joltgym`: every id with steady-state rates of the single env and the
native vector env, the multi-agent ids, and where the pictures are."""

from __future__ import annotations

import re
import subprocess
import sys

import joltgym


def test_the_main_job_shows_every_id_with_its_rates():
    out = subprocess.run([sys.executable, "-m", "joltgym", "--seconds", "0.02", "--envs", "8"],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    for env_id in joltgym.task_ids():
        row = re.search(rf"^{re.escape(env_id)}\s+([\d,]+)\s+([\d,]+) on (\d+) threads\s+([\d,]+)$", out, re.M)
        assert row, (env_id, out)
        assert all(int(x.replace(",", "")) > 0 for x in row.groups())
    for env_id in joltgym.multi_agent_ids():
        assert re.search(rf"^{re.escape(env_id)}\s+\d+\s+[\d,]+$", out, re.M), (env_id, out)
    assert "--stills DIR" in out


def test_bad_arguments_are_refused():
    result = subprocess.run([sys.executable, "-m", "joltgym", "--envs", "0"], capture_output=True, text=True)
    assert result.returncode == 2 and "--envs" in result.stderr
