"""The aggregation against direct per-hand computations: the reductions of a chunk (sums and
histograms per run of a block, sim.dataset.summaries) give what a group_by over every hand
gives; the runner's derived columns (points, comeback) are what the score lists give."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

from sim.dataset import summaries as C
from sim.dataset.summaries import reason_codes
from sim.engine.rows import GAME_DEAL_STRIDE
from sim.report.dataset import open_dataset
from sim.report.metrics import _frame, aggregate


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
    got = _frame([("a", runs.histogram_rows(np.array(values)))], ("v", "len")).drop("arm")
    keys = ["shard", "block", "v"]
    summed = got.group_by(keys).agg(pl.col("len").sum()).sort(keys)
    frame = pl.DataFrame({"shard": shard, "block": block, "v": values})
    expected = frame.group_by(keys).len().sort(keys)
    assert summed.equals(expected.cast(summed.schema))


def test_end_reasons_read_categorical_and_string_columns() -> None:
    known = ("went_out", "block", "stalled", "other")
    names = ["block", "went_out", "surprise", "stalled", "block"]
    for column in (pa.array(names).dictionary_encode(), pa.array(names)):
        assert reason_codes(column, known).tolist() == [1, 0, 3, 2, 1]
    with pytest.raises(C.ChunkError, match="end reason"):
        reason_codes(pa.array(["block", None]).dictionary_encode(), known)


def _played(hand_scores: list[list[int]], games: list[tuple[int, int]], finals: list[list[int]]):
    """A kernel call's arrays: hands' scores, games' (hands, winner), games' final scores."""
    from sim.engine import rows as L
    from sim.engine.api import Played

    out = Played(len(hand_scores[0]), len(hand_scores), len(games), 0)
    out.hand_scores[:] = hand_scores
    row = 0
    for g, (hands, winner) in enumerate(games):
        out.game_rows[g, L.G_HANDS] = hands
        out.game_rows[g, L.G_WINNER] = winner
        out.hand_totals[row : row + hands] = np.cumsum(out.hand_scores[row : row + hands], axis=0)
        row += hands
    out.hand_totals[row:] = np.cumsum(out.hand_scores[row:], axis=0)  # a game left unfinished
    out.game_scores[:] = finals
    return out


def test_comeback_is_a_winner_who_trailed_before_the_last_hand() -> None:
    from sim.dataset.schema import comebacks, hand_points

    out = _played(
        # game 0: 2 hands, seat 1 trailed 10-0 and won 30 in the last hand; game 1: seat 0
        # led all along; game 2: nobody won; then a hand of a game left unfinished
        [[10, 0], [0, 30], [5, 0], [0, 3], [4, 0], [7, 0], [0, 9]],
        [(2, 1), (2, 0), (2, -1)],
        [[10, 30], [5, 3], [11, 0]],
    )
    assert comebacks(out).tolist() == [True, False, False]
    assert hand_points(out).tolist() == [10, 30, 5, 3, 4, 7, 9]
    # penalty scoring: points are the penalties paid; the winner trailed -8 to -2
    out = _played([[-8, 0, -2], [0, -9, -20]], [(2, 0)], [[-8, -9, -22]])
    assert comebacks(out).tolist() == [True]
    assert hand_points(out).tolist() == [10, 29]


def test_3_19_teams_score_as_two_sides() -> None:
    """Partnership gin keeps a team's score in both partners' columns (seats 0/2, 1/3): the
    points are the two teams', and team B's comeback is seen on seat 1's column."""
    from sim.dataset.schema import comebacks, hand_points

    out = _played([[20, 0, 20, 0], [0, 25, 0, 25]], [(2, 1)], [[20, 25, 20, 25]])
    assert hand_points(out, teams=True).tolist() == [20, 25]
    assert hand_points(out).tolist() == [40, 50]
    assert comebacks(out, teams=True).tolist() == [True]


def test_3_17_a_comeback_is_read_from_the_running_totals_not_the_bonuses() -> None:
    """Gin's final scores add the game and box bonuses after the last hand (§3.17): seat 0
    trailed 89-97 before the last hand and won it, so it came from behind, although its final
    score (with the bonuses) is far ahead of what it had."""
    from sim.dataset.schema import comebacks

    out = _played([[89, 0], [0, 97], [25, 0]], [(3, 0)], [[89 + 25 + 100 + 40, 97 + 20]])
    out.hand_totals[:] = [[89, 0], [89, 97], [114, 97]]
    assert comebacks(out).tolist() == [True]


def test_an_old_dataset_without_the_flat_columns_is_a_clear_error(
    small_dataset: Path, tmp_path: Path
) -> None:
    import shutil

    import pyarrow.parquet as pq

    from sim.report.dataset import DatasetError

    old = tmp_path / "old"
    shutil.copytree(small_dataset, old)
    first = sorted((old / "hands").glob("arm=*/*.parquet"))[0]
    pq.write_table(pq.read_table(first).drop_columns(["points"]), first)
    # with a manifest, the file's SHA-256 no longer matches; a dataset without one (built by
    # hand) is checked column by column
    with pytest.raises(DatasetError, match=r"SHA-256 differs"):
        open_dataset(old)
    (old / "manifest.json").unlink()
    with pytest.raises(DatasetError, match=r"no column 'points'.*schema version .*run the"):
        open_dataset(old)


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
    stored = ds.hands().select((pl.col("points").cast(pl.Int64) == points).all()).collect()
    assert stored.item(), "the runner's points column is the sum of the absolute hand scores"
    hands = ds.hands().with_columns((unit // agg.block).alias("block"))
    direct = (
        hands.group_by("arm", "shard", "block")
        .agg(
            pl.len().alias("n"),
            (pl.col("turns").cast(pl.Int64) ** 2).sum().alias("turns2"),
            (pl.col("points") ** 2).sum().alias("points2"),
            (winner == dealer).sum().alias("dealer_win"),
            (winner == (dealer + 1) % players).sum().alias("first_win"),
            (winner == 1).sum().alias("win1"),
            (pl.col("end_reason") == "stalled").sum().alias("r_stalled"),
        )
        .collect()
    )
    blocks = agg.hand_blocks.select(direct.columns)
    assert blocks.height == direct.height > 10
    assert blocks.sort("arm", "shard", "block").equals(
        direct.sort("arm", "shard", "block").cast(blocks.schema)
    )
    for hist, column in ((agg.hist["turns"], "turns"), (agg.hist["points"], "points")):
        expected = hands.group_by("arm", column).len().sort("arm", column).collect()
        assert hist.equals(expected.cast(hist.schema))
    # each game in the block of its first deal
    first = hands.filter(pl.col("hand") == 0).select("arm", "shard", "game", "block")
    games = ds.games().join(first, on=["arm", "shard", "game"], how="left")
    assert games.filter(pl.col("block").is_null()).select(pl.len()).collect().item() == 0
    expected = games.group_by("arm", "hands").len().sort("arm", "hands").collect()
    assert agg.hist["hands_hist"].equals(expected.cast(agg.hist["hands_hist"].schema))


def test_a_shard_with_impossible_values_is_named_in_a_clear_error(
    small_dataset: Path, tmp_path: Path
) -> None:
    """A hand whose dealer is no seat (a damaged file) stops the report with one line that
    names the files of its chunk, as an unreadable file does (the CLI exits with code 2)."""
    import shutil

    import pyarrow as pa
    import pyarrow.parquet as pq

    from sim.report.dataset import DatasetError

    copy = tmp_path / "copy"
    shutil.copytree(small_dataset, copy)
    first = sorted((copy / "hands").glob("arm=*/*.parquet"))[0]
    table = pq.read_table(first)
    dealer = table.column("dealer").to_numpy().copy()
    dealer[5] = 7
    table = table.set_column(
        table.schema.get_field_index("dealer"), "dealer", pa.array(dealer, pa.int8())
    )
    pq.write_table(table, first)
    # as if the runner had written it so (its digest recorded), past the manifest check
    import json

    from sim.dataset.files import file_digest

    manifest = json.loads((copy / "manifest.json").read_text())
    arm = first.parent.name.removeprefix("arm=")
    shard = int(first.stem.removeprefix("part-"))
    entry = next(e for e in manifest["shards"] if (e["arm"], e["shard"]) == (arm, shard))
    entry["hands_sha256"] = file_digest(first)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(DatasetError, match=rf"{first.name}.*dealer is not one of its seats"):
        aggregate(open_dataset(copy))


@pytest.mark.parametrize("order", ["in order", "a block in two chunks", "out of order"])
def test_aggregate_tables_sort_and_sum_like_a_group_by(order: str) -> None:
    """metrics._summed: the chunks' rows of block sums, one row per (arm, shard, block) in
    order, the columns summed over equal keys, whether the chunks come in key order, split a
    block between them, or come in any order; metrics._per_arm sums a histogram per arm."""
    from sim.dataset.summaries import Rows
    from sim.report.metrics import _per_arm, _summed

    rng = np.random.default_rng(7)
    pieces = []
    for arm in ("b-arm", "a-arm"):  # arms in the order the files came: sorted in the frame
        for shard in (0, 1):
            values = rng.integers(-3, 9, 40)
            block = np.sort(rng.integers(0, 4, 40))
            runs = C.Runs(np.full(40, shard), block)
            pieces.append((arm, runs.histogram_rows(values)))
    if order == "in order":
        pieces.sort(key=lambda p: p[0])
    elif order == "a block in two chunks":
        pieces.sort(key=lambda p: p[0])
        arm, rows = pieces[0]
        cut = len(rows) // 2
        halves = [Rows(rows.shard[s], rows.block[s], rows.columns[s]) for s in
                  (slice(0, cut), slice(cut, None))]  # fmt: skip
        # the second half's first block also appears at the end of the first half
        halves[0] = Rows(
            np.append(halves[0].shard, halves[1].shard[0]),
            np.append(halves[0].block, halves[1].block[0]),
            np.vstack([halves[0].columns, [[halves[1].columns[0, 0], 5]]]),
        )
        pieces[0:1] = [(arm, halves[0]), (arm, halves[1])]
    else:
        rng.shuffle(pieces)
    frame = _frame(pieces, ("v", "len"))  # one frame of every piece, each row its arm's
    assert frame.equals(pl.concat([_frame([piece], ("v", "len")) for piece in pieces]))
    got = _summed(frame, ("v", "len"))
    keys = ["arm", "shard", "block"]
    expected = frame.group_by(keys).agg(pl.col("v", "len").sum()).sort(keys)
    assert got.columns == [*keys, "v", "len"]
    assert got.equals(expected)
    hist = _per_arm(frame, "v")
    assert hist["arm"].unique().sort().to_list() == ["a-arm", "b-arm"]
    assert hist["len"].sum() == got["len"].sum()
