"""The hand and game sums of sim.dataset.summaries against plain numpy
on random chunks: each run's sums are what the rows give, whatever the column types, player
counts, missing winners, end reasons' dictionaries and ragged score lists. Small enough to
run without the JIT too."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from sim.dataset import summaries as C
from sim.dataset.summaries import Blocking


def _starts(rng: np.random.Generator, rows: int) -> np.ndarray:
    cuts = np.sort(rng.choice(np.arange(1, rows), size=rng.integers(1, 6), replace=False))
    return np.concatenate([[0], cuts]).astype(np.int64)


def _runs(starts: np.ndarray, rows: int) -> list[slice]:
    ends = np.append(starts[1:], rows)
    return [slice(a, b) for a, b in zip(starts, ends, strict=True)]


@pytest.mark.nojit
@pytest.mark.parametrize("seed", range(4))
def test_hand_run_sums_are_the_rows_sums(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, seats, reasons = 300, 4, 5
    players = rng.integers(2, seats + 1, rows).astype(np.int8)
    winner = np.where(rng.random(rows) < 0.2, -1, rng.integers(0, 2, rows)).astype(np.int8)
    dealer = (rng.integers(0, 100, rows) % players).astype(np.int8)
    turns = rng.integers(0, 500, rows).astype(np.int32)
    points = rng.integers(0, 300, rows).astype(np.int32)
    codes = rng.integers(0, reasons, rows)  # each hand's end reason
    starts = _starts(rng, rows)
    runs = C.Runs(
        np.zeros(rows, np.int64), np.repeat(np.arange(len(starts)), np.diff([*starts, rows]))
    )
    blocking = Blocking(block=1, stride=1, seats=seats, known=tuple("abcd") + ("other",))
    # ragged score lists, one entry per seat (a longer list's extra entries are not sides)
    lists = [rng.integers(-50, 150, int(n) + int(rng.integers(0, 2))).tolist() for n in players]
    scored = C.side_points(pa.array(lists, pa.list_(pa.int32())), dealer, players)
    out = C.hand_run_sums(runs, winner, dealer, players, turns, points, codes, blocking, scored)
    for r, run in enumerate(_runs(starts, rows)):
        w, d, n = winner[run].astype(int), dealer[run].astype(int), players[run].astype(int)
        t, p = turns[run].astype(np.int64), points[run].astype(np.int64)
        mine = lists[run]
        expected = [len(t), t.sum(), (t * t).sum(), p.sum(), (p * p).sum(), (w >= 0).sum()]
        expected += [(w == d).sum(), (w == (d + 1) % n).sum()]
        expected += [sum(x[k] for x, k in zip(mine, d, strict=True))]
        expected += [sum(sum(x[:k]) for x, k in zip(mine, n, strict=True))]
        expected += [(w == s).sum() for s in range(seats)]
        expected += [(codes[run] == i).sum() for i in range(reasons)]
        assert out[r].tolist() == [int(x) for x in expected]


@pytest.mark.nojit
def test_final_margins_are_the_winners_lead_or_the_top_two_gap() -> None:
    final = np.array([[214, 240, 0], [60, 130, 0], [90, 70, 0], [5, 9, 12]])
    winner = np.array([0, 1, -1, 0], np.int8)
    assert C.final_margins(final, winner).tolist() == [-26, 70, 20, -7]
    # a winner past the sides (a partnership's seat 2 or 3 over two teams' scores): nobody won
    assert C.final_margins(final[:, :2], np.array([0, 1, -1, 2])).tolist() == [-26, 70, 20, 4]


@pytest.mark.nojit
@pytest.mark.parametrize("seed", range(3))
def test_game_run_sums_are_the_rows_sums(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows, seats = 200, 3
    hands = rng.integers(1, 30, rows).astype(np.int32)
    margin = rng.integers(-40, 200, rows)
    comeback = rng.random(rows) < 0.3
    winner = rng.integers(-1, seats, rows).astype(np.int8)
    lead = rng.integers(0, 9, rows).astype(np.int32)
    capped = rng.random(rows) < 0.05
    starts = _starts(rng, rows)
    runs = C.Runs(np.zeros(rows), np.repeat(np.arange(len(starts)), np.diff([*starts, rows])))
    out = C.game_run_sums(runs, hands, margin, comeback, winner, lead, capped, seats)
    for r, run in enumerate(_runs(starts, rows)):
        h, m, c = hands[run].astype(np.int64), margin[run], lead[run].astype(np.int64)
        expected = [len(h), h.sum(), (h * h).sum(), m.sum(), (m * m).sum(), comeback[run].sum()]
        expected += [(winner[run] >= 0).sum(), c.sum(), (c * c).sum(), capped[run].sum()]
        expected += [(winner[run] == s).sum() for s in range(seats)]
        assert out[r].tolist() == [int(x) for x in expected]


@pytest.mark.nojit
def test_end_reasons_keep_their_dictionary_indices() -> None:
    known = ("went_out", "stalled", "block", "other")
    one = pa.DictionaryArray.from_arrays(pa.array([0, 1, 0], pa.int8()), ["stalled", "gin"])
    two = pa.DictionaryArray.from_arrays(pa.array([1, 0], pa.int8()), ["went_out", "block"])
    codes = C.reason_codes(pa.chunked_array([one, two]), known)
    assert codes.tolist() == [1, 3, 1, 2, 0]  # gin is not listed: other
    assert C.reason_codes(pa.array(["block", "went_out"]), known).tolist() == [2, 0]


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("players", "dealer", "match"),
    [(0, 0, "dealer"), (2, 2, "dealer"), (2, -1, "dealer")],
)
def test_a_chunk_with_impossible_seats_is_a_clear_error(
    players: int, dealer: int, match: str
) -> None:
    rows = 4
    reasons = pa.DictionaryArray.from_arrays(pa.array([0, 0, 1, 0], pa.int8()), ["went_out", "x"])
    table = pa.table(
        {
            "shard": pa.array([0] * rows, pa.int32()),
            "deal": pa.array(range(rows), pa.int64()),
            "winner": pa.array([0, 1, -1, 0], pa.int8()),
            "dealer": pa.array([0, 1, dealer, 1], pa.int8()),
            "players": pa.array([2, 2, players, 2], pa.int8()),
            "turns": pa.array([9, 8, 500, 12], pa.int32()),
            "points": pa.array([20, 31, 0, 7], pa.int32()),
            "game": pa.array(range(rows), pa.int64()),
            "hand": pa.array([0] * rows, pa.int32()),
            "end_reason": reasons,
        }
    )
    known = ("went_out", "other")
    blocking = Blocking(block=2, stride=1, seats=2, known=known)
    with pytest.raises(C.ChunkError, match=match):
        C.hand_tables(table, blocking, teams=False)


@pytest.mark.nojit
def test_end_reasons_outside_their_dictionary_are_a_clear_error() -> None:
    known = ("went_out", "other")
    bad = pa.DictionaryArray.from_arrays(pa.array([0, 9, 0], pa.int8()), ["went_out"], safe=False)
    with pytest.raises(C.ChunkError, match="outside"):
        C.reason_codes(bad, known)


@pytest.mark.nojit
def test_many_distinct_end_reasons_outgrow_an_int8_dictionary() -> None:
    # each file's dictionary fits int8 indices, the chunk's together do not
    files = [
        pa.DictionaryArray.from_arrays(
            pa.array(list(range(100)), pa.int8()), [f"odd{f}_{i}" for i in range(100)]
        )
        for f in range(2)
    ]
    codes = C.reason_codes(pa.chunked_array(files), ("went_out", "other"))
    assert len(codes) == 200 and set(codes.tolist()) == {1}
