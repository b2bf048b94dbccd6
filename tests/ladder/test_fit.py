"""The ladder's statistics (sim/ladder/fit.py) on games whose answer is known."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest

from sim.ladder.fit import (
    PRIOR,
    bradley_terry,
    cluster_share,
    elo,
    ladder_tables,
)

pytestmark = pytest.mark.nojit


def test_bradley_terry_recovers_known_strengths_from_their_expected_wins() -> None:
    truth = np.array([1.0, 2.0, 4.0, 0.5])
    n = 1e7  # games per pair: the prior's half win is negligible
    wins = n * truth[:, None] / (truth[:, None] + truth[None, :])
    np.fill_diagonal(wins, 0.0)
    played = 1.0 - np.eye(4)
    got = bradley_terry(wins, played)
    want = truth / math.exp(np.log(truth).mean())
    assert np.allclose(got, want, rtol=1e-5)
    assert math.exp(np.log(got).mean()) == pytest.approx(1.0)
    # on the Elo scale a strength ratio of 10 is 400 points
    assert elo(np.array([10.0, 1.0])) @ np.array([1.0, -1.0]) == pytest.approx(400.0)


def test_a_bot_that_never_loses_gets_a_finite_rating_from_the_prior() -> None:
    wins = np.array([[0.0, 50.0], [0.0, 0.0]])
    s = bradley_terry(wins, 1.0 - np.eye(2))
    assert np.all(np.isfinite(s))
    # with half a win added each way the MLE share is (50 + 0.5) / 51
    assert s[0] / (s[0] + s[1]) == pytest.approx((50 + PRIOR) / (50 + 2 * PRIOR))


def test_cluster_share_is_the_ratio_with_a_cluster_standard_error() -> None:
    clusters = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 0.0]])
    share, low, high = cluster_share(clusters)
    assert share == pytest.approx(4 / 6)
    n = clusters.sum(axis=1)
    se = math.sqrt(4 / 3 * ((clusters[:, 0] - share * n) ** 2).sum()) / 6
    z = 1.959963984540054
    assert (low, high) == pytest.approx((max(0.0, share - z * se), min(1.0, share + z * se)))
    assert all(math.isnan(x) for x in cluster_share(np.zeros((3, 2))))


def _games(rows: list[tuple[str, list[str], int, int, int]], players: int) -> pl.DataFrame:
    """(arm, bots by seat, shard, game, winner) rows as read_games gives them."""
    return pl.DataFrame(
        {
            "arm": [r[0] for r in rows],
            "ruleset": ["rs"] * len(rows),
            "variant": ["v"] * len(rows),
            "players": [players] * len(rows),
            "seed": [1] * len(rows),
            "shard": [r[2] for r in rows],
            "rotation": [0] * len(rows),
            "game": [r[3] for r in rows],
            "bots": [r[1] for r in rows],
            "winner": [r[4] for r in rows],
        }
    )


def test_an_odd_table_credits_wins_per_seat_held_so_equal_bots_share_evenly() -> None:
    """Odd tables are played as [a, b, a] and [b, a, b]: a bot holding m of K seats is
    credited K / (2m) per win, so a seat-for-seat even result is 50%."""
    aba, bab = ["x", "y", "x"], ["y", "x", "y"]
    rows = []
    for game in range(30):  # every seat wins once per three games, in both line-ups
        rows.append(("p1", aba, 0, game, game % 3))
        rows.append(("p2", bab, 0, game, game % 3))
    (table,) = ladder_tables(_games(rows, 3), resamples=20)
    (pair,) = table.pairs
    assert (pair.a, pair.b) == ("x", "y") or (pair.a, pair.b) == ("y", "x")
    assert pair.share == pytest.approx(0.5)
    assert pair.a_wins == pytest.approx(pair.b_wins)
    assert pair.games == 60 and pair.decided == 60


def test_a_seat_advantage_cancels_over_the_rotations_of_a_deal() -> None:
    """Seat 0 wins 3 deals in 4 in both rotations of each deal (the cards, not the bot,
    decide): over the rotations the bots are even. An undecided game is played, not won; a
    line-up of one bot is no match and is left out."""
    rows = []
    for game in range(200):
        rows.append(("sw", ["first", "second"], 0, game, 0 if game % 4 else 1))
        rows.append(("sw", ["first", "second"], 0, game, 1 if game % 4 else 0))  # rotated
    rows.append(("sw", ["first", "second"], 1, 0, -1))
    rows.append(("one", ["first", "first"], 0, 0, 0))
    (table,) = ladder_tables(_games(rows, 2), resamples=50)
    (pair,) = table.pairs
    assert pair.games == 401 and pair.decided == 400
    assert pair.share_of("second") == pytest.approx(0.5)
    assert table.upset_mean == pytest.approx(0.5) and table.spread == pytest.approx(0.0, abs=1e-6)
    assert table.connected and {r.bot for r in table.ratings} == {"first", "second"}


def test_a_lopsided_pair_gives_a_rating_gap_inside_its_interval() -> None:
    rows = [("ab", ["a", "b"], 0, g, 0 if g % 4 else 1) for g in range(400)]
    (table,) = ladder_tables(_games(rows, 2), resamples=100)
    a, b = table.ratings
    assert a.bot == "a" and b.bot == "b"
    # 300 to 100 (+ half a win each): P = 300.5 / 401, Elo gap 400 log10(300.5 / 100.5)
    assert a.elo - b.elo == pytest.approx(400 * math.log10(300.5 / 100.5), rel=1e-6)
    assert a.low <= a.elo <= a.high and b.low <= b.elo <= b.high
    assert table.upset_overall == pytest.approx(0.25)


def test_pairs_that_do_not_link_every_bot_are_flagged() -> None:
    rows = [("ab", ["a", "b"], 0, g, g % 2) for g in range(10)]
    rows += [("cd", ["c", "d"], 0, g, g % 2) for g in range(10)]
    (table,) = ladder_tables(_games(rows, 2), resamples=10)
    assert not table.connected and len(table.pairs) == 2
