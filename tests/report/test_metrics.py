"""The aggregation against direct per-hand computations: cells summed into blocks, and
histograms counted by bincount, give what a group_by over every hand gives."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim.engine.layout import GAME_DEAL_STRIDE
from sim.report import open_dataset
from sim.report.metrics import aggregate, block_histogram


@pytest.mark.parametrize(
    "values",
    [
        pl.Series("turns", [3, 3, 7, 0, 12, 7, 7], dtype=pl.Int32),
        pl.Series("points", [5, None, 5, 2], dtype=pl.Int64),
        pl.Series("points", [-4, 5, 5, 2], dtype=pl.Int64),
        pl.Series("points", [1 << 40, 5], dtype=pl.Int64),
        pl.Series("turns", [], dtype=pl.Int32),
    ],
)
def test_block_histogram_counts_like_a_group_by(values: pl.Series) -> None:
    n = len(values)
    shard = pl.Series("shard", [i % 2 + 3 for i in range(n)], dtype=pl.Int32)
    block = pl.Series("deal", [i // 3 for i in range(n)], dtype=pl.Int64)
    frame = pl.DataFrame([shard, block.alias("block"), values]).drop_nulls()
    keys = ["shard", "block", values.name]
    expected = frame.group_by(keys).len().sort(keys)
    got = block_histogram(shard, block, values).sort(keys)
    assert got.schema == expected.schema
    assert got.equals(expected)


def test_hand_blocks_and_histograms_match_a_group_by_over_every_hand(
    small_dataset: Path,
) -> None:
    ds = open_dataset(small_dataset)
    agg = aggregate(ds)
    unit = pl.col("deal") // GAME_DEAL_STRIDE if agg.per_game_deals else pl.col("deal")
    scores = [
        pl.col("hand_scores").list.get(s, null_on_oob=True).fill_null(0) for s in range(agg.seats)
    ]
    points = pl.sum_horizontal(s.abs() for s in scores).cast(pl.Int64)
    winner, dealer, players = pl.col("winner"), pl.col("dealer"), pl.col("players")
    hands = ds.hands().with_columns((unit // agg.block).alias("block"), points.alias("points"))
    direct = (
        hands.group_by("arm", "shard", "block")
        .agg(
            pl.len().alias("n"),
            (pl.col("turns").cast(pl.Int64) ** 2).sum().alias("turns2"),
            (pl.col("points") ** 2).sum().alias("points2"),
            (winner == dealer).sum().alias("dealer_win"),
            (winner == (dealer + 1) % players).sum().alias("first_win"),
            (winner == 1).sum().alias("win1"),
            (players > 2).sum().alias("seats2"),
            scores[1].sum().alias("pts1"),
            (pl.col("end_reason") == "stalled").sum().alias("r_stalled"),
        )
        .collect()
    )
    blocks = agg.hand_blocks.select(direct.columns)
    assert blocks.height == direct.height > 10
    assert blocks.sort("arm", "shard", "block").equals(
        direct.sort("arm", "shard", "block").cast(blocks.schema)
    )
    for hist, column in ((agg.turns_hist, "turns"), (agg.points_hist, "points")):
        expected = hands.group_by("arm", column).len().sort("arm", column).collect()
        assert hist.equals(expected.cast(hist.schema))
    # per block: the same counts, and blocks that are the hand blocks' blocks
    for blocks, column in ((agg.turns_blocks, "turns"), (agg.points_blocks, "points")):
        keys = ["arm", "shard", "block", column]
        expected = hands.group_by(keys).len().sort(keys).collect()
        assert blocks.equals(expected.cast(blocks.schema))
    games = ds.games().with_columns((pl.col("game") // agg.game_block).alias("block"))
    expected = games.group_by("arm", "hands").len().sort("arm", "hands").collect()
    assert agg.hands_hist.equals(expected.cast(agg.hands_hist.schema))
    keys = ["arm", "shard", "block", "hands"]
    expected = games.group_by(keys).len().sort(keys).collect()
    assert agg.hands_blocks.equals(expected.cast(agg.hands_blocks.schema))
