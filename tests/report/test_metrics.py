"""The aggregation against direct per-hand computations: the numpy reductions of a chunk
(sums per run of a block, histograms by bincount, each game's last hand) give what a
group_by or a join over every hand gives."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from sim.engine.layout import GAME_DEAL_STRIDE
from sim.report import chunks as C
from sim.report import open_dataset
from sim.report.metrics import aggregate


@pytest.mark.parametrize(
    "values",
    [
        [3, 3, 7, 0, 12, 7, 7, 3, 3, 1],
        [-4, 5, 5, 2, -4, 0, 0, 9, 9, 9],
        [1 << 40, 5, 5, 0, 1 << 40, 3, 3, 3, 2, 2],  # too sparse to count densely
    ],
)
def test_runs_histogram_counts_like_a_group_by(values: list[int]) -> None:
    shard = np.array([3, 3, 3, 4, 4, 4, 4, 3, 3, 4])  # the last three rows start runs again
    block = np.array([0, 0, 1, 0, 0, 1, 1, 1, 1, 1])
    runs = C.Runs(shard, block)
    assert len(runs) == 6 and runs.counts.sum() == len(values)
    got = runs.histogram_frame(np.array(values), "v", pl.Int64, pl.Int32)
    keys = ["shard", "block", "v"]
    summed = got.group_by(keys).agg(pl.col("len").sum()).sort(keys)
    frame = pl.DataFrame({"shard": shard, "block": block, "v": values})
    expected = frame.group_by(keys).len().sort(keys)
    assert summed.equals(expected.cast(summed.schema))
    assert got.schema["shard"] == pl.Int32 and got.schema["len"] == pl.UInt32


def test_runs_totals_are_exact_integer_sums() -> None:
    runs = C.Runs(np.array([0, 0, 0, 1]), np.array([5, 5, 6, 5]))
    big = np.array([(1 << 60) + 1, 1, 7, -3])  # past float64's exact integers
    assert runs.total(big).tolist() == [(1 << 60) + 2, 7, -3]
    assert runs.total(np.array([True, False, True, True])).tolist() == [1, 1, 1]
    empty = C.Runs(np.zeros(0, np.int64), np.zeros(0, np.int64))
    assert len(empty) == 0 and empty.total(np.zeros(0, np.int64)).tolist() == []


@pytest.mark.parametrize(
    "lists",
    [
        [[1, -2], [3, 4], [0, 7]],
        [[1, -2, 5, 6], [3, 4, 0, 0]],
        [[1], [3, 4, 9], [], None, [2, None]],
    ],
)
def test_list_columns_are_list_get_with_zeros(lists: list) -> None:
    series = pl.Series("scores", lists, dtype=pl.List(pl.Int32))
    for width in (2, 3, 5):
        columns, length = C.list_columns(series, width)
        assert len(columns) == width
        for s, column in enumerate(columns):
            expected = series.list.get(s, null_on_oob=True).fill_null(0).to_list()
            assert column.dtype.kind == "i" and column.tolist() == expected
        assert length.tolist() == [min(len(x or []), width) for x in lists]


def test_reason_codes_read_categorical_and_string_columns() -> None:
    known = ("went_out", "block", "stalled", "other")
    names = ["block", "went_out", "surprise", "stalled", "block"]
    for dtype in (pl.Categorical, pl.String):
        codes = C.reason_codes(pl.Series("end_reason", names, dtype=dtype), known)
        assert codes.tolist() == [1, 0, 3, 2, 1]
    with pytest.raises(C.ChunkError, match="end reason"):
        C.reason_codes(pl.Series("end_reason", ["block", None], dtype=pl.Categorical), known)


def test_last_hand_rows_finds_each_game_with_rotations_and_an_unfinished_game() -> None:
    # shard 0: rotation 0 games 0 (2 hands) and 1 (1 hand), rotation 1 game 0 (3 hands),
    # then an unfinished game 1 of rotation 1 (no game row); shard 1: game 0 (1 hand)
    hands = pl.DataFrame(
        {
            "shard": [0, 0, 0, 0, 0, 0, 0, 1],
            "rotation": [0, 0, 0, 1, 1, 1, 1, 0],
            "game": [0, 0, 1, 0, 0, 0, 1, 0],
            "hand": [0, 1, 0, 0, 1, 2, 0, 0],
        }
    )
    games = pl.DataFrame(
        {
            "shard": [0, 0, 0, 1, 2],
            "rotation": [0, 0, 1, 0, 0],
            "game": [0, 1, 0, 0, 0],
            "hands": [2, 1, 3, 1, 1],  # the last game's shard has no hands in this chunk
        }
    )
    assert C.last_hand_rows(hands, games).tolist() == [1, 2, 5, 7, -1]
    order = [5, 0, 7, 2, 1, 6, 3, 4]  # rows in any order: found by the search
    assert C.last_hand_rows(hands[order], games).tolist() == [4, 3, 0, 2, -1]


def test_game_blocks_count_every_game_once_in_a_mirrored_run(tmp_path: Path) -> None:
    """A mirrored run repeats (shard, game, hand) in every rotation: each game is still
    one game (it was counted once per rotation that reached its last hand)."""
    from sim.runner.experiment import load_experiment
    from sim.runner.run import run_experiment

    path = tmp_path / "mirror.toml"
    path.write_text(MIRRORED, encoding="utf-8")
    summary = run_experiment(load_experiment(path), tmp_path / "data", workers=1, fresh=True)
    ds = open_dataset(summary.root)
    agg = aggregate(ds)
    games = ds.games().group_by("arm").agg(pl.len(), pl.col("hands").sum()).collect()
    sums = agg.game_blocks.group_by("arm").agg(pl.col("n").sum(), pl.col("hands").sum())
    assert games.height == 1 and games["len"].item() > 100
    assert sums.sort("arm").equals(games.sort("arm").rename({"len": "n"}).cast(sums.schema))


MIRRORED = """\
name = "mirror"
seed = 11
hands = 1200
players = [3]
lineups = ["greedy"]
mirror = true
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"
"""


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
    size = pl.col("arm").replace_strict(agg.game_block, return_dtype=pl.Int64)
    games = ds.games().with_columns((pl.col("game") // size).alias("block"))
    expected = games.group_by("arm", "hands").len().sort("arm", "hands").collect()
    assert agg.hands_hist.equals(expected.cast(agg.hands_hist.schema))
    keys = ["arm", "shard", "block", "hands"]
    expected = games.group_by(keys).len().sort(keys).collect()
    assert agg.hands_blocks.equals(expected.cast(agg.hands_blocks.schema))
