"""Learning curves from train_ppo.py's episode CSVs: the mean episode return per bin of env steps,
as a markdown table and a plot.

    python examples/learning_curves.py LABEL=runs.csv [LABEL=other.csv ...] [--bin 2000000] [--png out.png]
        [--summary out.csv]

--summary writes the binned table as a small CSV (the per-episode files run to megabytes).
"""

from __future__ import annotations

import argparse
import csv

import numpy as np


def binned(path: str, width: float) -> dict[int, tuple[float, int]]:
    """Per bin of env steps (its index): the mean return of the episodes that ended in it, and how many."""
    with open(path) as f:
        rows = [(float(r["global_step"]), float(r["episode_return"])) for r in csv.DictReader(f)]
    steps = np.array([s for s, _ in rows])
    returns = np.array([r for _, r in rows])
    out = {}
    for b in np.unique((steps // width).astype(int)):
        inside = (steps // width).astype(int) == b
        out[int(b)] = (float(returns[inside].mean()), int(inside.sum()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", metavar="LABEL=CSV")
    parser.add_argument("--bin", type=float, default=2e6)
    parser.add_argument("--png", default=None)
    parser.add_argument("--summary", default=None)
    args = parser.parse_args()
    curves = {label: binned(path, args.bin) for label, path in (r.split("=", 1) for r in args.runs)}
    bins = sorted({b for c in curves.values() for b in c})
    print("| env steps | " + " | ".join(curves) + " |")
    print("|---|" + "---|" * len(curves))
    for b in bins:
        cells = [f"{c[b][0]:.1f}" if b in c else "" for c in curves.values()]
        print(f"| {b * args.bin / 1e6:.0f}-{(b + 1) * args.bin / 1e6:.0f}M | " + " | ".join(cells) + " |")
    if args.summary:
        with open(args.summary, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["run", "steps_from", "steps_to", "mean_return", "episodes"])
            for label, c in curves.items():
                for b, (mean, n) in sorted(c.items()):
                    w.writerow([label, int(b * args.bin), int((b + 1) * args.bin), f"{mean:.3f}", n])
    if args.png:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 3.5))
        for label, c in curves.items():
            xs = sorted(c)
            ax.plot([(b + 0.5) * args.bin / 1e6 for b in xs], [c[b][0] for b in xs], marker="o", ms=3, label=label)
        ax.set_xlabel("env steps (millions)")
        ax.set_ylabel("mean episode return")
        ax.grid(alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.png, dpi=100)


if __name__ == "__main__":
    main()
