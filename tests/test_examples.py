"""The training scripts in examples/ run end to end (tiny budgets): a crash there is found here,
not hours into a run. What they learn is measured outside CI (docs/results.md)."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest
import torch

pytestmark = pytest.mark.slow  # the examples train PPO

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(script: str, *args: str) -> None:
    subprocess.run([sys.executable, str(EXAMPLES / script), *args], check=True, timeout=600,
                   stdout=subprocess.DEVNULL)


def test_train_ppo_runs_and_saves_its_agent(tmp_path):
    run("train_ppo.py", "--env-id", "joltgym/Hopper-v0", "--total-timesteps", "4096", "--num-steps", "256",
        "--out", str(tmp_path / "curve.csv"), "--save-model", str(tmp_path / "agent.pt"))
    saved = torch.load(tmp_path / "agent.pt", weights_only=False)
    assert {"agent", "obs_mean", "obs_var"} <= set(saved)


@pytest.mark.parametrize("env_id", ["joltgym/CheetahRun-v0", "dm_control/cheetah-run"])
def test_train_pixels_runs_on_both_engines(tmp_path, env_id):
    # Frames stacked, action repeat 4 (250 agent steps an episode): two envs of 256 steps end two episodes each.
    out = tmp_path / "curve.csv"
    run("train_pixels.py", "--env-id", env_id, "--total-timesteps", "1024", "--num-envs", "2", "--num-steps", "256",
        "--input-norm", "--out", str(out), "--save-model", str(tmp_path / "agent.pt"))
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 4 and all(int(r["episode_length"]) == 250 for r in rows), rows


def test_a_go1_checkpoint_trains_on_one_engine_and_runs_on_the_other(tmp_path):
    # Dict observations, the asymmetric critic and checkpoints; then evaluate_checkpoint.py on both engines.
    ckpt = tmp_path / "ckpt.pt"
    run("train_ppo.py", "--env-id", "joltgym/Go1JoystickFlatTerrain-v0", "--total-timesteps", "2048", "--num-envs", "8",
        "--num-steps", "128", "--policy-hidden", "32,32", "--value-hidden", "32,32", "--tanh-squash",
        "--init-log-std", "-2.0", "--save-every", "1024", "--checkpoint", str(ckpt), "--out", str(tmp_path / "c.csv"))
    for env_id in ("joltgym/Go1JoystickFlatTerrain-v0", "envpool:Go1JoystickFlatTerrain-v1"):
        out = subprocess.run([sys.executable, str(EXAMPLES / "evaluate_checkpoint.py"), str(ckpt), "--env-id", env_id,
                              "--envs", "2"], check=True, timeout=600, capture_output=True, text=True).stdout
        assert out.startswith(f"{env_id}: policy of step ") and "fell" in out, out


@pytest.mark.parametrize("mode", ["team", "self-play with an opponent pool", "self-play with a paced ring curriculum",
                                  "self-play against random opponents too"])
def test_train_marl_ppo_runs(tmp_path, mode):
    out = tmp_path / "curve.csv"
    if mode == "team":
        args = ["--env-id", "joltgym/MaHalfCheetah-v0", "--total-timesteps", "4096", "--num-steps", "256"]
    elif mode == "self-play with an opponent pool":
        args = ["--env-id", "joltgym/SumoAnts-v0", "--self-play", "--total-timesteps", "6144", "--num-steps", "64",
                "--opponent-pool-fraction", "0.5", "--snapshot-every", "1024", "--eval-every", "2048",
                "--eval-bouts", "2", "--ring-curriculum", "0.6", "--curriculum-fraction", "0.5"]
    elif mode == "self-play with a paced ring curriculum":
        args = ["--env-id", "joltgym/SumoAnts-v0", "--self-play", "--total-timesteps", "4096", "--num-steps", "64",
                "--eval-every", "1024", "--eval-bouts", "4", "--ring-curriculum", "0.5", "--widen-at", "0.25",
                "--widen-step", "0.1"]
    else:
        args = ["--env-id", "joltgym/SumoAnts-v0", "--self-play", "--total-timesteps", "4096", "--num-steps", "64",
                "--random-opponent-fraction", "0.5", "--opponent-pool-fraction", "0.25", "--snapshot-every", "1024",
                "--eval-every", "2048", "--eval-bouts", "2", "--env-kwarg", "approach_weight=1.0",
                "--init-log-std", "-1.0"]
    run("train_marl_ppo.py", *args, "--out", str(out), "--save-model", str(tmp_path / "agents.pt"))
    saved = torch.load(tmp_path / "agents.pt", weights_only=False)
    assert saved["self_play"] == (mode != "team")
    if mode != "team":
        with open(str(out).replace(".csv", "_eval.csv")) as f:
            rows = list(csv.DictReader(f))
        assert len(rows) >= 2 and all(0.0 <= float(r["win_rate_vs_initial"]) <= 1.0 for r in rows)
        assert all(0.0 <= float(r["win_rate_vs_initial_sampled"]) <= 1.0 for r in rows)
        scales = [float(r["ring_radius_scale"]) for r in rows]
        if mode == "self-play against random opponents too":
            assert scales == [1.0] * len(rows)
            # Started at -1 and moved by a few small updates, not from 0.
            assert saved["actors"]["0.log_std"].max() < -0.8
        elif mode == "self-play with an opponent pool":
            # The rings widen from 0.6 of their size to full size over the first half of training.
            assert scales[0] == 0.6 and scales == sorted(scales) and scales[-1] == 1.0
        else:
            # They widen by 0.1 after each evaluation won at least once in four bouts in them, else stay.
            rates = [float(r["win_rate_vs_initial_curriculum_ring"]) for r in rows]
            assert scales[0] == 0.5
            for before, after, rate in zip(scales, scales[1:], rates):
                assert after == pytest.approx(before + 0.1 if rate >= 0.25 else before)


def test_sumo_bouts_tabulates_every_bout_of_a_saved_policy(tmp_path):
    model = tmp_path / "agents.pt"
    run("train_marl_ppo.py", "--env-id", "joltgym/SumoAnts-v0", "--self-play", "--total-timesteps", "2048",
        "--num-steps", "64", "--eval-every", "100000", "--eval-bouts", "2", "--env-kwarg", "ring_radius_range=(1.5, 2.0)",
        "--out", str(tmp_path / "curve.csv"), "--save-model", str(model))
    for opponent in ("standing", "random", "self"):
        out = subprocess.run([sys.executable, str(EXAMPLES / "sumo_bouts.py"), str(model), "--opponent", opponent,
                              "--bouts", "6"], check=True, timeout=600, capture_output=True, text=True).stdout
        header, table = out.splitlines()[0], out.splitlines()[3:]
        rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table]  # bouts, result, how, touched
        assert sum(int(r[0]) for r in rows) == 6, out
        wins = sum(int(r[0]) for r in rows if r[1] == "win")
        assert f"win rate {wins / 6:.2f}" in header, out
        # The task's rules: a win needs a touch and a lost opponent; a draw is the time limit.
        for bouts, result, how, touched in rows:
            assert result in {"win", "loss", "draw", "no winner"}, out
            assert result != "win" or (touched == "yes" and "opponent" in how), out
            assert (result == "draw") == (how == "time limit"), out


def test_sumo_bouts_refuses_a_team_policy(tmp_path):
    model = tmp_path / "team.pt"
    run("train_marl_ppo.py", "--env-id", "joltgym/MaHalfCheetah-v0", "--total-timesteps", "2048", "--num-steps", "256",
        "--out", str(tmp_path / "curve.csv"), "--save-model", str(model))
    done = subprocess.run([sys.executable, str(EXAMPLES / "sumo_bouts.py"), str(model)], timeout=600,
                          capture_output=True, text=True)
    assert done.returncode != 0 and "is not a self-play policy" in done.stderr


def test_robot_scenes_tabulates_every_scene():
    out = subprocess.run([sys.executable, str(EXAMPLES / "robot_scenes.py"), "--steps", "5", "--markdown"],
                         check=True, timeout=600, capture_output=True, text=True).stdout
    rows = [line for line in out.splitlines() if line.startswith("| ") and "/scene" in line]
    assert len(rows) == 20
    assert all("| yes |" in row for row in rows)  # every scene loads
    assert all(len(row.strip("|").split("|")) == 8 for row in rows)  # and fills every column
