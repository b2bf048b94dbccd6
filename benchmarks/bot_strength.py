"""Each line-up's game win rate in 2-player gin on mirrored deals (docs/bots.md, "Restricted
play"): runs ``configs/experiments/restricted-bots.toml`` (or the experiment named) and
prints, per arm, the first bot's share of the games won, with a 95% interval over the
mirrored game pairs (both rotations of a game count as one draw: the pair is what is
independent), and its points per hand.

    python -m benchmarks.bot_strength [EXPERIMENT] [--out DIR] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from pathlib import Path

import polars as pl

from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment

Z95 = 1.96


def strengths(root: Path) -> list[dict]:
    """One row per arm: the first bot of its line-up against the second."""
    games = pl.scan_parquet(root / "games", hive_partitioning=True).collect()
    hands = pl.scan_parquet(root / "hands", hive_partitioning=True).collect()
    rows = []
    for arm in sorted(games["arm"].unique()):
        g = games.filter(pl.col("arm") == arm)
        bot = g["bots"][0][0]
        other = g["bots"][0][1]
        won = g.with_columns(
            (pl.col("winner") >= 0).alias("decided"),
            (pl.col("bots").list.get(pl.col("winner").clip(0)) == bot)
            .and_(pl.col("winner") >= 0)
            .cast(pl.Float64)
            .alias("won"),
        )
        # a mirrored pair: the same game number and shard in both rotations
        pairs = won.group_by(["shard", "game"]).agg(pl.col("won").mean())["won"]
        n = pairs.len()
        mean = float(pairs.mean())
        half = Z95 * float(pairs.std()) / math.sqrt(n)
        h = hands.filter(pl.col("arm") == arm)
        seat = pl.col("bots").list.eval(pl.element() == bot).list.arg_max()
        points = h.select(
            pl.col("hand_scores").list.get(seat) - pl.col("hand_scores").list.get(1 - seat)
        )
        rows.append(
            {
                "arm": arm,
                "bot": bot,
                "against": other,
                "games": won.height,
                "pairs": n,
                "win_pct": round(100 * mean, 2),
                "ci95_pct": round(100 * half, 2),
                "net_points_per_hand": round(float(points.to_series().mean()), 3),
                "hands": h.height,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment", nargs="?", default="restricted-bots")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    experiment = load_experiment(args.experiment)
    out = args.out or Path(tempfile.mkdtemp(prefix="bot-strength-"))
    summary = run_experiment(experiment, out, workers=args.workers, fresh=True)
    for row in strengths(summary.root):
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
