"""From a ladder's games to win rates, ratings and how much luck decides (docs/ladder.md).

Read per table (rule set and player count), from every arm whose line-up holds exactly two
bots (``sim.ladder.plan``; line-ups of one bot are not a match and are left out):

* **Credit.** A game someone won is a win of the bot at the winning seat (at a partnership
  table, of the winning team's bot). A bot holding ``m`` of the ``K`` seats is credited
  ``K / (2 m)`` per game it wins, so two equal bots share the credit evenly whatever the
  seating (at even tables, and summed over an odd table's two line-ups, it is 1).
* **Win rate of a against b**: a's share of the pair's credited wins, with a 95% interval
  whose standard error treats each deal (a game number of a shard, played once per seat
  rotation and line-up) as one cluster: the rotations of a deal share its cards, so they are
  not independent games.
* **Rating**: a Bradley–Terry model, ``P(i beats j) = s_i / (s_i + s_j)``, fitted to the
  credited wins of every pair by maximum likelihood (Hunter's MM iteration, 2004) after
  adding half a win each way to every pair played, so that a bot that never lost still has a
  finite rating; shown on the Elo scale ``1500 + 400 log10(s_i / g)``, ``g`` the geometric
  mean of the strengths. Its 95% interval: the 2.5 and 97.5 percentiles over refits to the
  pairs' deals resampled with replacement (each pair on its own, ``RESAMPLES`` times).
* **Luck against skill**: in each pair, the lower-rated bot's share of the credited wins
  (how often the weaker bot still wins: 0.5 when luck decides everything, near 0 when skill
  does), averaged over the pairs and over every credited win; and the spread of the
  ratings (highest minus lowest Elo).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from sim.engine.rows import BOT_NAMES

Z95 = 1.959963984540054
RESAMPLES = 200
PRIOR = 0.5
"""Wins added each way to every pair played before the rating is fitted."""


@dataclass(frozen=True)
class Pair:
    """One pair of bots at one table."""

    a: str
    b: str
    games: int  # games played, every rotation and line-up
    decided: int  # games someone won
    a_wins: float  # credited wins
    b_wins: float
    share: float  # a's share of the credited wins
    low: float
    high: float
    clusters: np.ndarray  # (deals, 2): each deal's credited wins of a and of b

    def share_of(self, bot: str) -> float:
        """``bot``'s share of the pair's credited wins."""
        return self.share if bot == self.a else 1.0 - self.share


@dataclass(frozen=True)
class Rating:
    """A bot's Bradley–Terry rating on the Elo scale with its 95% bootstrap interval."""

    bot: str
    elo: float
    low: float
    high: float
    wins: float  # credited wins over every pair (0: its rating is the prior's alone)


@dataclass(frozen=True)
class Table:
    """The ladder of one rule set at one player count."""

    ruleset: str
    variant: str
    players: int
    pairs: tuple[Pair, ...]
    ratings: tuple[Rating, ...]  # best first
    upset_mean: float  # the weaker bot's share of the credited wins, mean over the pairs
    upset_overall: float  # the same over every credited win
    spread: float  # highest minus lowest Elo
    connected: bool  # every bot is linked to every other through pairs played

    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(r.bot for r in self.ratings)


def read_games(root: Path) -> pl.DataFrame:
    """The columns of a dataset's games a ladder reads, with the arm."""
    folder = root / "games"
    return (
        pl.scan_parquet(
            str(folder / "arm=*" / "*.parquet"),
            hive_partitioning=True,
            hive_schema={"arm": pl.String},
        )
        .select(
            "arm",
            "ruleset",
            "variant",
            "players",
            "seed",
            "shard",
            "rotation",
            "game",
            "bots",
            "winner",
        )
        .collect()
    )


def ladder_tables(games: pl.DataFrame, *, resamples: int = RESAMPLES, seed: int = 0) -> list[Table]:
    """Every table's ladder (module docstring) from :func:`read_games`' frame; tables without
    a two-bot line-up are left out."""
    out = []
    for (ruleset, players), rows in games.group_by("ruleset", "players", maintain_order=True):
        pairs = _pairs(rows, int(players))
        if pairs:
            variant = str(rows["variant"][0])
            out.append(_table(str(ruleset), variant, int(players), pairs, resamples, seed))
    return sorted(out, key=lambda t: (t.ruleset, t.players))


def _order(bot: str) -> tuple[int, str]:
    return (BOT_NAMES.index(bot) if bot in BOT_NAMES else len(BOT_NAMES), bot)


def credited_games(rows: pl.DataFrame, players: int) -> pl.DataFrame | None:
    """One table's games of two-bot line-ups (:func:`read_games`' rows), one row a game:
    its pair (``a`` before ``b`` in ``BOT_NAMES`` order), where it was played (``seed``,
    ``shard``, ``rotation``, ``game``), whether someone won (``won``) and each bot's credited
    win (``x_a``, ``x_b``: module docstring); ``None`` when no line-up has two bots."""
    credited = []
    for _arm, games in rows.group_by("arm", maintain_order=True):
        seats = list(games["bots"][0])
        bots = sorted(set(seats), key=_order)
        if len(bots) != 2:
            continue
        held = {bot: seats.count(bot) for bot in bots}
        winner = games["winner"].to_numpy().astype(np.int64)
        won = (winner >= 0) & (winner < len(seats))
        seat_bot = np.array([bots.index(s) for s in seats])
        at = np.where(won, seat_bot[np.clip(winner, 0, len(seats) - 1)], -1)
        credit = np.array([players / (2 * held[b]) for b in bots])
        credited.append(
            pl.DataFrame(
                {
                    "a": [bots[0]] * games.height,
                    "b": [bots[1]] * games.height,
                    "seed": games["seed"],
                    "shard": games["shard"],
                    "rotation": games["rotation"],
                    "game": games["game"],
                    "won": won,
                    "x_a": np.where(at == 0, credit[0], 0.0),
                    "x_b": np.where(at == 1, credit[1], 0.0),
                }
            )  # fmt: skip
        )
    return pl.concat(credited) if credited else None


def _pairs(rows: pl.DataFrame, players: int) -> list[Pair]:
    """The pairs of one table's games (two-bot line-ups only), each with its deals' credits."""
    frame = credited_games(rows, players)
    if frame is None:
        return []
    out = []
    for (a, b), g in frame.group_by("a", "b", maintain_order=True):
        deals = g.group_by("shard", "game").agg(pl.col("x_a").sum(), pl.col("x_b").sum())
        clusters = deals.sort("shard", "game").select("x_a", "x_b").to_numpy()
        share, low, high = cluster_share(clusters)
        a_wins, b_wins = clusters.sum(axis=0)
        decided = int(g["won"].sum())
        out.append(Pair(a, b, g.height, decided, a_wins, b_wins, share, low, high, clusters))
    return out


def cluster_share(clusters: np.ndarray) -> tuple[float, float, float]:
    """a's share of the credited wins of (deals, 2) ``clusters`` and its 95% interval
    (:func:`cluster_ratio`, ``n`` a deal's credited wins), clipped to [0, 1]."""
    share, low, high = cluster_ratio(clusters[:, 0], clusters.sum(axis=1))
    if math.isnan(low):
        return share, low, high
    return share, max(0.0, low), min(1.0, high)


def cluster_ratio(x: np.ndarray, n: np.ndarray) -> tuple[float, float, float]:
    """``sum(x) / sum(n)`` over clusters (deals) and its 95% interval, the standard error
    of a ratio over clusters: ``sqrt(C / (C - 1) * sum((x - r n)^2)) / sum(n)`` (NaN without
    a total, and the interval NaN with fewer than two clusters)."""
    total = n.sum()
    if total <= 0:
        return math.nan, math.nan, math.nan
    ratio = float(x.sum() / total)
    c = len(n)
    if c < 2:
        return ratio, math.nan, math.nan
    se = math.sqrt(c / (c - 1) * float(((x - ratio * n) ** 2).sum())) / total
    return ratio, ratio - Z95 * se, ratio + Z95 * se


def bradley_terry(wins: np.ndarray, played: np.ndarray, tol: float = 1e-10) -> np.ndarray:
    """Bradley–Terry strengths (geometric mean 1) from ``wins[i, j]`` (i's wins against j)
    with :data:`PRIOR` added each way where ``played[i, j]``: Hunter's MM iteration."""
    w = wins + PRIOR * played
    n = w + w.T
    total = w.sum(axis=1)
    s = np.ones(len(w))
    for _ in range(10_000):
        denom = (n / (s[:, None] + s[None, :])).sum(axis=1)
        new = np.where(denom > 0, total / np.where(denom > 0, denom, 1.0), 1.0)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(new - s)) < tol * np.max(new):
            return new
        s = new
    return s


def elo(strengths: np.ndarray) -> np.ndarray:
    """Strengths (geometric mean 1) on the Elo scale: ``1500 + 400 log10(s)``."""
    return 1500.0 + 400.0 * np.log10(strengths)


def _table(ruleset, variant, players, pairs: list[Pair], resamples: int, seed: int) -> Table:
    bots = sorted({p.a for p in pairs} | {p.b for p in pairs}, key=_order)
    k = len(bots)
    index = {b: i for i, b in enumerate(bots)}
    played = np.zeros((k, k))
    for p in pairs:
        played[index[p.a], index[p.b]] = played[index[p.b], index[p.a]] = 1.0

    def fitted(credits: list[tuple[float, float]]) -> np.ndarray:
        wins = np.zeros((k, k))
        for p, (x_a, x_b) in zip(pairs, credits, strict=True):
            wins[index[p.a], index[p.b]] += x_a
            wins[index[p.b], index[p.a]] += x_b
        return elo(bradley_terry(wins, played))

    point = fitted([(p.a_wins, p.b_wins) for p in pairs])
    rng = np.random.default_rng(seed)
    draws = np.empty((resamples, k))
    for r in range(resamples):
        credits = []
        for p in pairs:
            picks = np.bincount(rng.integers(0, len(p.clusters), len(p.clusters)),
                                minlength=len(p.clusters))  # fmt: skip
            credits.append(tuple(picks @ p.clusters))
        draws[r] = fitted(credits)
    low, high = np.percentile(draws, [2.5, 97.5], axis=0) if resamples else (point, point)
    wins = dict.fromkeys(bots, 0.0)
    for p in pairs:
        wins[p.a] += p.a_wins
        wins[p.b] += p.b_wins
    ratings = sorted(
        (Rating(b, float(point[i]), float(low[i]), float(high[i]), wins[b])
         for i, b in enumerate(bots)),
        key=lambda r: -r.elo,
    )  # fmt: skip
    rating = {r.bot: r.elo for r in ratings}
    weaker = [(p.a if rating[p.a] < rating[p.b] else p.b) for p in pairs]
    upsets = [p.share_of(w) for p, w in zip(pairs, weaker, strict=True)]
    credited = [p.a_wins + p.b_wins for p in pairs]
    overall = sum(u * c for u, c in zip(upsets, credited, strict=True)) / max(sum(credited), 1e-12)
    return Table(
        ruleset, variant, players, tuple(pairs), tuple(ratings), float(np.nanmean(upsets)),
        float(overall), float(point.max() - point.min()), _connected(played),
    )  # fmt: skip


def _connected(played: np.ndarray) -> bool:
    """Whether the graph of pairs played links every bot to every other."""
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.flatnonzero(played[i]):
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == len(played)
