"""Each line-up's game win rate in 2-player gin on mirrored deals (docs/bots.md, "Restricted
play"): runs ``configs/experiments/restricted-bots.toml`` (or the experiment named) and
prints, per arm, the first bot's share of the games won with its 95% interval (the
ladder's, ``rummysim ladder restricted-bots``: clustered on the mirrored deals), its share
of the hands won and its net points per hand.

    python -m benchmarks.bot_strength [EXPERIMENT] [--out DIR] [--workers N]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

import polars as pl

from sim.ladder.fit import ladder_tables, read_games
from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment


def strengths(root: Path) -> list[dict]:
    """One row per arm: the first bot of its line-up against the second; the game win rate
    and its interval are the ladder's (``sim.ladder.fit``: credited wins, an interval
    clustered on the mirrored deals), the hands won and net points per hand from the
    hands."""
    tables = ladder_tables(read_games(root), resamples=0)
    pairs = {frozenset((p.a, p.b)): p for t in tables for p in t.pairs}
    hands = pl.scan_parquet(root / "hands", hive_partitioning=True).collect()
    rows = []
    for arm in sorted(hands["arm"].unique()):
        h = hands.filter(pl.col("arm") == arm)
        bot, other = h["bots"][0][0], h["bots"][0][1]
        pair = pairs[frozenset((bot, other))]
        seat = pl.col("bots").list.eval(pl.element() == bot).list.arg_max()
        points = h.select(
            pl.col("hand_scores").list.get(seat) - pl.col("hand_scores").list.get(1 - seat)
        )
        won = h.filter(pl.col("winner") >= 0).select(
            (pl.col("bots").list.get(pl.col("winner")) == bot).mean()
        )
        rows.append(
            {
                "arm": arm,
                "bot": bot,
                "against": other,
                "games": pair.games,
                "win_pct": round(100 * pair.share_of(bot), 2),
                "ci95_pct": [round(100 * x, 2) for x in _interval(pair, bot)],
                "hands_won_pct": round(100 * float(won.item()), 2),
                "net_points_per_hand": round(float(points.to_series().mean()), 3),
                "hands": h.height,
            }
        )
    return rows


def _interval(pair, bot: str) -> tuple[float, float]:
    return (pair.low, pair.high) if bot == pair.a else (1 - pair.high, 1 - pair.low)


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
