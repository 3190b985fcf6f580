"""Plot the win rates that ``train_marl_ppo.py --self-play`` writes to ``<out>_eval.csv``.

    python examples/plot_win_rates.py examples/results/joltgym_SumoAnts-v0_1_eval.csv --out examples/results/sumoants_selfplay.png
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plot_learning_curves import plt, save  # noqa: E402


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("eval_csv")
    p.add_argument("--out", default="win_rates.png")
    p.add_argument("--title", default=None)
    args = p.parse_args(argv)
    rows = list(csv.DictReader(open(args.eval_csv)))
    steps = np.array([int(r["global_step"]) for r in rows])
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    series = (("win_rate_vs_random", "against random actions"),
              ("win_rate_vs_initial", "against the initial policy's mean action (standing)"),
              ("win_rate_vs_initial_curriculum_ring", "against the standing initial policy, in the curriculum's rings"),
              ("win_rate_vs_initial_sampled", "against the initial policy, sampled"))
    for key, label in series:
        if key not in rows[0] or (key.endswith("curriculum_ring") and all(float(r["ring_radius_scale"]) == 1.0 for r in rows)):
            continue  # older runs; runs without a ring curriculum
        rates = np.array([float(r[key]) for r in rows])
        ax.plot(steps, rates, marker="o", lw=1.5, label=label)
        print(f"{label}: {', '.join(f'{s}:{r:.2f}' for s, r in zip(steps, rates))}")
    ax.set_xlabel("environment steps (all worlds)")
    ax.set_ylabel("win rate of the deterministic policy")
    ax.set_ylim(-0.02, 1.02)
    save(fig, ax, args.title or Path(args.eval_csv).stem, args.out)


if __name__ == "__main__":
    main()
