"""``rummysim ladder-diff``: two ladders played on the same deals, compared game by game.

The question it answers: did a change (to a bot, a rule or the engine) move a pair's
results? Both datasets are ladders (``rummysim ladder``; any dataset of two-bot line-ups)
played with the same seeds and game counts, so that each game of one has its twin in the
other: the same table, pair, seed, shard, seat rotation and game number, hence the same
deal. For each pair of each table, a's *win rate* is its credited wins per game played
(``sim.ladder.fit``: at even tables a game a wins counts 1; a game nobody won counts 0),
before and after, and the change is the mean over games of a's credited win after less
before. Its 95% interval treats each deal (seed, shard and game number, every rotation of
it together) as one cluster: ``sqrt(C / (C - 1) * sum(d_c^2)) / n`` around the mean,
``d_c`` a deal's summed change less its share of the mean, ``n`` the games.

Paired on the same deals, most of the luck cancels: a change of 1 point over 1,600 gin
games has an interval of about ±1 to ±2.5 points here, where the two ladders' own intervals
are ±2.2 points each (docs/ladder.md, "Comparing two ladders").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.ladder.fit import Z95, credited_games, read_games
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
        n = len(x0)
        mean = float((x1 - x0).mean())
        deals = (
            g.with_columns((pl.col("x_a_after") - pl.col("x_a")).alias("d"), pl.lit(1).alias("k"))
            .group_by("seed", "shard", "game")
            .agg(pl.col("d").sum(), pl.col("k").sum())
        )
        d, k = deals["d"].to_numpy(), deals["k"].to_numpy()
        c = len(d)
        if c >= 2:
            se = math.sqrt(c / (c - 1) * float(((d - mean * k) ** 2).sum())) / n
            low, high = mean - Z95 * se, mean + Z95 * se
        else:
            low = high = math.nan
        out.append(
            PairChange(
                str(ruleset),
                int(players),
                str(a),
                str(b),
                n,
                float(x0.mean()),
                float(x1.mean()),
                mean,
                low,
                high,
                int(np.count_nonzero(x0 != x1)),
            )  # fmt: skip
        )
    return sorted(out, key=lambda p: (p.ruleset, p.players, p.a, p.b))
