"""The training scripts in examples/ run end to end (tiny budgets): a crash there is found here,
not hours into a run. What they learn is measured outside CI (README, Learning)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
import torch

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> None:
    subprocess.run([sys.executable, str(EXAMPLES / script), *args], check=True, timeout=600,
                   stdout=subprocess.DEVNULL)


def test_train_ppo_runs_and_saves_its_agent(tmp_path):
    run("train_ppo.py", "--env-id", "joltgym/Hopper-v0", "--total-timesteps", "4096", "--num-steps", "256",
        "--out", str(tmp_path / "curve.csv"), "--save-model", str(tmp_path / "agent.pt"))
    saved = torch.load(tmp_path / "agent.pt", weights_only=False)
    assert {"agent", "obs_mean", "obs_var"} <= set(saved)


@pytest.mark.parametrize("mode", ["team", "self-play with an opponent pool"])
def test_train_marl_ppo_runs(tmp_path, mode):
    out = tmp_path / "curve.csv"
    if mode == "team":
        args = ["--env-id", "joltgym/MaHalfCheetah-v0", "--total-timesteps", "4096", "--num-steps", "256"]
    else:
        args = ["--env-id", "joltgym/SumoAnts-v0", "--self-play", "--total-timesteps", "6144", "--num-steps", "64",
                "--opponent-pool-fraction", "0.5", "--snapshot-every", "1024", "--eval-every", "2048",
                "--eval-bouts", "2"]
    run("train_marl_ppo.py", *args, "--out", str(out), "--save-model", str(tmp_path / "agents.pt"))
    saved = torch.load(tmp_path / "agents.pt", weights_only=False)
    assert saved["self_play"] == (mode != "team")
    if mode != "team":
        with open(str(out).replace(".csv", "_eval.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) >= 2 and all(0.0 <= float(r["win_rate_vs_initial"]) <= 1.0 for r in rows)
