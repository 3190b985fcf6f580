"""Plot episode return against environment steps from ``train_ppo.py`` episode CSVs.

Each curve is one or more CSVs (columns global_step, wall_seconds, episode_return,
episode_length) under a label; several CSVs for one label (e.g. seeds) are joined with
commas and drawn in the same colour. Raw episode returns are drawn as faint points, with a
rolling mean over the last ``--window`` episodes (per CSV) as a line.

    python examples/plot_learning_curves.py \\
        --curve "joltgym HalfCheetah-v0=examples/results/joltgym_HalfCheetah-v0_1.csv" \\
        --curve "MuJoCo HalfCheetah-v5=examples/results/HalfCheetah-v5_1.csv" \\
        --out examples/results/halfcheetah.png

A bare path (no ``label=``) is labelled with its file name.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:  # pragma: no cover
    sys.exit("matplotlib is required for plotting: pip install matplotlib")


def read_episodes(path: Path, x_column: str = "global_step") -> tuple[np.ndarray, np.ndarray]:
    xs, returns = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            xs.append(float(row[x_column]))
            returns.append(float(row["episode_return"]))
    order = np.argsort(xs, kind="stable")
    return np.asarray(xs)[order], np.asarray(returns)[order]


def save(fig, ax, title: str | None, out: str) -> None:
    """Title, grid and legend, then the PNG (its folder made if needed)."""
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="best")
    fig.tight_layout()
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out)
    print(f"wrote {out}")


def last_per_x(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep the last value at each distinct x (several envs often finish on the same step)."""
    keep = np.append(x[1:] != x[:-1], True)
    return x[keep], y[keep]


def rolling_mean(x: np.ndarray, window: int) -> np.ndarray:
    """Mean of the last ``window`` values at each index (fewer at the start)."""
    c = np.cumsum(np.insert(x, 0, 0.0))
    idx = np.arange(1, len(x) + 1)
    lo = np.maximum(idx - window, 0)
    return (c[idx] - c[lo]) / (idx - lo)


def parse_curve(spec: str) -> tuple[str, list[Path]]:
    if "=" in spec:
        label, paths = spec.rsplit("=", 1)
    else:
        label, paths = Path(spec).stem, spec
    return label.strip(), [Path(p.strip()) for p in paths.split(",") if p.strip()]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--curve", action="append", required=True, metavar="LABEL=CSV[,CSV...]",
                   help="a labelled curve; repeat for several")
    p.add_argument("--out", default="learning_curves.png", help="PNG to write")
    p.add_argument("--window", type=int, default=20, help="rolling-mean window in episodes")
    p.add_argument("--title", default=None)
    p.add_argument("--wall-time", action="store_true", help="x axis: wall-clock seconds instead of env steps")
    args = p.parse_args(argv)

    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, spec in enumerate(args.curve):
        label, paths = parse_curve(spec)
        color = colors[k % len(colors)]
        for j, path in enumerate(paths):
            x, y = read_episodes(path, "wall_seconds" if args.wall_time else "global_step")
            if len(x) == 0:
                print(f"warning: {path} has no episodes", file=sys.stderr)
                continue
            ax.scatter(x, y, s=6, alpha=0.25, color=color, linewidths=0)
            ax.plot(*last_per_x(x, rolling_mean(y, args.window)), color=color, lw=1.8,
                    label=label if j == 0 else None)
            tail = y[-args.window:]
            print(f"{label} [{path}]: {len(y)} episodes, last step {x[-1]:g}, "
                  f"mean return of the last {len(tail)}: {tail.mean():.1f}")
    ax.set_xlabel("wall-clock seconds" if args.wall_time else "environment steps")
    ax.set_ylabel(f"episode return (rolling mean of {args.window})")
    save(fig, ax, args.title, args.out)


if __name__ == "__main__":
    main()
