"""``rummysim ladder-diff``: two ladders played on the same deals, compared game by game.

The question it answers: did a change (to a bot, a rule or the engine) move a pair's
results? Both datasets are ladders (``rummysim ladder``; any dataset of two-bot line-ups)
played with the same seeds and game counts, so that each game of one has its twin in the
other: the same table, pair, seed, shard, seat rotation and game number, hence the same
deal. For each pair of each table, a's *win rate* is its credited wins per game played
(``sim.ladder.fit``: at even tables a game a wins counts 1; a game nobody won counts 0),
before and after, and the change is the mean over games of a's credited win after less
before. Its 95% interval treats each deal (seed, shard and game number, every rotation of
it together) as one cluster: the change is the ratio of the deals' summed changes to their
games, with the ladder's ratio-over-clusters standard error (``fit.cluster_ratio``).

Paired on the same deals, most of the luck cancels: over 1,600 gin games the interval was
±0.75 points for a change that altered 37 games and ±2.1 for one that altered 285, where
each ladder's own interval is about ±2.2 (docs/ladder.md, "Comparing two ladders").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.ladder.fit import cluster_ratio, credited_games, read_games
from sim.rules import ConfigError

KEYS = ("ruleset", "players", "a", "b", "seed", "shard", "rotation", "game")
"""What makes a game the same game in both ladders."""


@dataclass(frozen=True)
class PairChange:
    """One pair of one table: a's win rate before and after, and the paired change."""

    ruleset: str
    players: int
    a: str
    b: str
    games: int
    before: float  # a's credited wins per game
    after: float
    change: float  # after less before, the mean over the paired games
    low: float
    high: float
    changed: int  # games whose winner differs


def _games(root: Path) -> pl.DataFrame:
    """Every two-bot game of the dataset at ``root``, one row a game (``KEYS`` and a's
    credited win ``x_a``)."""
    if not (root / "games").is_dir():
        raise ConfigError(f"{root}: not a dataset folder (no games/ in it)")
    games = read_games(root)
    frames = []
    for (ruleset, players), rows in games.group_by("ruleset", "players", maintain_order=True):
        credited = credited_games(rows, int(players))
        if credited is not None:
            frames.append(
                credited.with_columns(
                    pl.lit(str(ruleset)).alias("ruleset"), pl.lit(int(players)).alias("players")
                ).select(*KEYS, "x_a")
            )
    if not frames:
        raise ConfigError(f"{root}: no line-up of two bots to compare")
    return pl.concat(frames)


def compare(before: Path, after: Path) -> list[PairChange]:
    """Each pair's change from the ladder at ``before`` to the one at ``after`` (module
    docstring). A game of either without its twin in the other is a ``ConfigError``: the
    ladders were not played on the same deals."""
    old, new = _games(before), _games(after)
    joined = old.join(new, on=list(KEYS), how="full", suffix="_after", coalesce=True)
    missing = joined.filter(pl.col("x_a").is_null() | pl.col("x_a_after").is_null())
    if missing.height:
        only_old = int(missing["x_a_after"].is_null().sum())
        raise ConfigError(
            f"{before} and {after} were not played on the same deals: {only_old} games of the "
            f"first and {missing.height - only_old} of the second have no twin (same table, "
            "pair, seed, shard, rotation and game); play both with the same --seed and --games"
        )
    out = []
    for (ruleset, players, a, b), g in joined.group_by(
        "ruleset", "players", "a", "b", maintain_order=True
    ):
        x0 = g["x_a"].to_numpy()
        x1 = g["x_a_after"].to_numpy()
        deals = (
            g.with_columns((pl.col("x_a_after") - pl.col("x_a")).alias("d"), pl.lit(1).alias("k"))
            .group_by("seed", "shard", "game")
            .agg(pl.col("d").sum(), pl.col("k").sum())
        )
        change, low, high = cluster_ratio(deals["d"].to_numpy(), deals["k"].to_numpy())
        out.append(
            PairChange(
                str(ruleset),
                int(players),
                str(a),
                str(b),
                len(x0),
                float(x0.mean()),
                float(x1.mean()),
                change,
                low,
                high,
                int(np.count_nonzero(x0 != x1)),
            )
        )
    return sorted(out, key=lambda p: (p.ruleset, p.players, p.a, p.b))
