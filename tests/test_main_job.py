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


def test_ids_whose_models_are_not_installed_are_skipped_by_name(monkeypatch, capsys):
    """`pip install .` alone has neither the robots' asset wheels nor dm_control: the main job still runs."""
    from joltgym import __main__ as main_job, robot_assets, suite_assets

    def missing(what):
        def raise_():
            raise ModuleNotFoundError(f"{what}: pip install it")
        return raise_

    monkeypatch.setattr(robot_assets, "_roots", missing("the robots"))
    monkeypatch.setattr(suite_assets, "suite_dir", missing("the suite"))
    monkeypatch.setattr(main_job.joltgym, "task_ids", lambda: ["joltgym/Hopper-v0", "joltgym/Go1Getup-v0",
                                                               "joltgym/SpotGetup-v0", "joltgym/CheetahRun-v0"])
    monkeypatch.setattr(main_job.joltgym, "multi_agent_ids", lambda: [])
    main_job.main(["--seconds", "0.02", "--envs", "4"])
    out = capsys.readouterr().out
    assert re.search(r"^joltgym/Hopper-v0\s+[\d,]+", out, re.M), out
    assert "2 ids skipped (joltgym/Go1Getup-v0 ...): the robots: pip install it" in out
    assert "1 ids skipped (joltgym/CheetahRun-v0 ...): the suite: pip install it" in out
