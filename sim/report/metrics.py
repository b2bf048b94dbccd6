"""Per-arm aggregates of a dataset, computed by polars lazily over the Parquet files.

Nothing here collects rows: every query is a ``group_by`` aggregation run by polars'
streaming engine, so memory depends on the number of arms, blocks and distinct values, not
on the number of hands. The results are small tables:

* hand blocks: per (arm, shard, block of ``block`` consecutive deals) the sums every hand
  statistic of the report is made of (:data:`HAND_SUMS`); the paired bootstrap of
  :mod:`sim.report.stats` resamples these blocks;
* game blocks: the same for games (:data:`GAME_SUMS`), blocks of consecutive game numbers;
* histograms: turns per hand, points per hand and hands per game, per arm, from which the
  quantiles, distributions and survival curves are exact;
* skill: per arm and seating of bots, wins and points per seat (for mixed line-ups).

"Points won per hand" is the sum of the absolute values of a hand's scores: what the winner
takes under ``pip_to_winner``/``per_card`` scoring (the others score 0), and the penalties
paid in the hand under ``penalty`` scoring, so the same column measures the score swing of a
hand whatever the scoring (RULES.md §2G.29).
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from sim.report.dataset import Dataset

ENGINE = "streaming"
REASONS = (
    "went_out",
    "went_rummy",
    "block",
    "stalled",
    "exhausted",
    "knock",
    "gin",
    "undercut",
    "void",
)
"""Every end reason a variant may produce; the report shows those that occur."""


@dataclass(frozen=True)
class Aggregates:
    """The small tables a report is drawn from."""

    hand_blocks: pl.DataFrame
    game_blocks: pl.DataFrame
    turns_hist: pl.DataFrame
    points_hist: pl.DataFrame
    hands_hist: pl.DataFrame
    margin_hist: pl.DataFrame
    skill: pl.DataFrame
    seats: int
    reasons: tuple[str, ...]
    block: int
    game_block: int


def hand_sum_names(seats: int, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of a hand block, in order."""
    return (
        ("n", "turns", "turns2", "points", "points2", "decided", "dealer_win", "first_win")
        + tuple(f"win{s}" for s in range(seats))
        + tuple(f"seats{s}" for s in range(seats))
        + tuple(f"r_{r}" for r in reasons)
    )


def game_sum_names(seats: int) -> tuple[str, ...]:
    """The columns of a game block, in order."""
    return (
        "n",
        "hands",
        "hands2",
        "margin",
        "margin2",
        "comeback",
        "decided",
        "lead_changes",
        "capped",
    ) + tuple(f"gwin{s}" for s in range(seats))


def block_size(rows: int, target_blocks: int = 400, cap: int = 1000) -> int:
    """Rows per block so that the smallest arm has about ``target_blocks`` blocks."""
    return max(1, min(cap, rows // target_blocks))


def _hand_columns(seats: int, reasons: tuple[str, ...]) -> list[pl.Expr]:
    winner = pl.col("winner").cast(pl.Int32)
    players = pl.col("players").cast(pl.Int32)
    dealer = pl.col("dealer").cast(pl.Int32)
    turns = pl.col("turns").cast(pl.Int64)
    points = pl.col("hand_scores").list.eval(pl.element().abs()).list.sum().cast(pl.Int64)
    cols = [
        pl.lit(1, pl.Int64).alias("n"),
        turns.alias("turns"),
        (turns * turns).alias("turns2"),
        points.alias("points"),
        (points * points).alias("points2"),
        (winner >= 0).cast(pl.Int64).alias("decided"),
        (winner == dealer).cast(pl.Int64).alias("dealer_win"),
        (winner == (dealer + 1) % players).cast(pl.Int64).alias("first_win"),
    ]
    cols += [(winner == s).cast(pl.Int64).alias(f"win{s}") for s in range(seats)]
    cols += [(players > s).cast(pl.Int64).alias(f"seats{s}") for s in range(seats)]
    reason = pl.col("end_reason").cast(pl.String)
    cols += [(reason == r).cast(pl.Int64).alias(f"r_{r}") for r in reasons]
    return cols


def _game_frame(ds: Dataset, seats: int) -> pl.LazyFrame:
    """Games with their final margin and whether the winner trailed before the last hand."""
    last = ds.hands().select(
        "arm",
        "shard",
        "game",
        "hand",
        pl.col("total_scores").alias("t"),
        pl.col("hand_scores").alias("h"),
    )
    games = ds.games().with_columns((pl.col("hands") - 1).alias("hand"))
    joined = games.join(last, on=["arm", "shard", "game", "hand"], how="left")
    before = [
        (pl.col("t").list.get(s, null_on_oob=True) - pl.col("h").list.get(s, null_on_oob=True))
        for s in range(seats)
    ]
    winner = pl.col("winner").cast(pl.Int32)
    winner_before = pl.col("t").list.get(winner.clip(0), null_on_oob=True) - pl.col("h").list.get(
        winner.clip(0), null_on_oob=True
    )
    ranked = pl.col("final_scores").list.sort(descending=True)
    margin = (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)).cast(
        pl.Int64
    )
    hands = pl.col("hands").cast(pl.Int64)
    cols = [
        pl.lit(1, pl.Int64).alias("n"),
        hands.alias("hands"),
        (hands * hands).alias("hands2"),
        margin.alias("margin"),
        (margin * margin).alias("margin2"),
        ((winner >= 0) & (winner_before < pl.max_horizontal(before)))
        .fill_null(False)
        .cast(pl.Int64)
        .alias("comeback"),
        (winner >= 0).cast(pl.Int64).alias("decided"),
        pl.col("lead_changes").cast(pl.Int64).alias("lead_changes"),
        pl.col("capped").cast(pl.Int64).alias("capped"),
    ]
    cols += [(winner == s).cast(pl.Int64).alias(f"gwin{s}") for s in range(seats)]
    return joined.select("arm", "shard", "game", *cols)


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    hands = ds.hands()
    seats = max(a.players for a in ds.arms)
    counts = (
        hands.group_by("arm")
        .agg(pl.len().alias("rows"), pl.col("end_reason").cast(pl.String).unique().alias("r"))
        .collect(engine=ENGINE)
    )
    seen = {r for row in counts["r"].to_list() for r in row}
    reasons = tuple(r for r in REASONS if r in seen) + tuple(sorted(seen - set(REASONS)))
    block = block_size(int(counts["rows"].min()))
    games_counts = ds.games().group_by("arm").len().collect(engine=ENGINE)
    game_block = block_size(int(games_counts["len"].min()))

    names = hand_sum_names(seats, reasons)
    per_hand = hands.select(
        "arm",
        "shard",
        (pl.col("deal") // block).alias("block"),
        *_hand_columns(seats, reasons),
    )
    hand_blocks = per_hand.group_by("arm", "shard", "block").agg([pl.col(c).sum() for c in names])
    turns_hist = hands.group_by("arm", "turns").len()
    points_hist = per_hand.group_by("arm", "points").len()
    games = _game_frame(ds, seats)
    gnames = game_sum_names(seats)
    game_blocks = (
        games.with_columns((pl.col("game") // game_block).alias("block"))
        .group_by("arm", "shard", "block")
        .agg([pl.col(c).sum() for c in gnames])
    )
    hands_hist = ds.games().group_by("arm", "hands").len()
    margin_hist = games.group_by("arm", "margin").len()
    skill = (
        hands.with_columns(pl.col("bots").list.join(",").alias("seating"))
        .group_by("arm", "seating")
        .agg(
            pl.len().alias("n"),
            *[(pl.col("winner") == s).sum().alias(f"win{s}") for s in range(seats)],
            *[
                pl.col("hand_scores")
                .list.get(s, null_on_oob=True)
                .cast(pl.Int64)
                .sum()
                .alias(f"pts{s}")
                for s in range(seats)
            ],
        )
    )
    frames = pl.collect_all(
        [hand_blocks, game_blocks, turns_hist, points_hist, hands_hist, margin_hist, skill],
        engine=ENGINE,
    )
    hb, gb, th, ph, hh, mh, sk = frames
    return Aggregates(
        hand_blocks=hb.sort("arm", "shard", "block"),
        game_blocks=gb.sort("arm", "shard", "block"),
        turns_hist=th.sort("arm", "turns"),
        points_hist=ph.sort("arm", "points"),
        hands_hist=hh.sort("arm", "hands"),
        margin_hist=mh.drop_nulls().sort("arm", "margin"),
        skill=sk.sort("arm", "seating"),
        seats=seats,
        reasons=reasons,
        block=block,
        game_block=game_block,
    )
