"""Knock-family behaviour that shows over many hands on the engine (RULES.md
§3.17, §3.18, §3.19, §2I): void hands, game ends with bonuses, and every §2I toggle changing
the game: ported from the old engine's test_knock_games.py."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play

from .helpers import CAREFUL, GREEDY, SIMPLE, compiled, events_of, no_violations


def _gin(**overrides):
    return compiled("gin_rummy", 2, **overrides)


def test_3_17_void_when_two_stock_cards_are_left_and_same_dealer_deals_again():
    params, values = _gin()
    out = play(params, values, np.array([SIMPLE, CAREFUL]), seed=2, hands=4000)
    no_violations(out)
    rows = out.hand_rows
    void = np.flatnonzero(rows[:, R.H_END_REASON] == R.REASON_VOID)
    assert void.size > 0
    # 52 - 21 dealt and turned = 31 stock cards; void at 2 left: 29 drawn
    assert (rows[void, R.H_DRAWS_STOCK] == 29).all()
    assert (out.hand_scores[void] == 0).all()
    assert (rows[void, R.H_WINNER] == -1).all()
    for i in void:
        if i + 1 < len(rows) and rows[i + 1, R.H_GAME] == rows[i, R.H_GAME]:
            assert rows[i + 1, R.H_DEALER] == rows[i, R.H_DEALER]
    # nothing else reaches 2 stock cards without a knock
    assert (rows[:, R.H_DRAWS_STOCK] <= 29).all()


def test_3_17_games_end_at_100_with_bonuses_in_final_scores():
    params, values = _gin()
    out = play(params, values, np.array([SIMPLE, SIMPLE]), seed=4, games=50)
    no_violations(out)
    rows, hands = out.game_rows, out.hand_rows
    assert out.games == 50
    for g in range(out.games):
        in_game = hands[:, R.H_GAME] == rows[g, R.G_GAME]
        totals = out.hand_totals[in_game][-1]
        winner = rows[g, R.G_WINNER]
        assert totals[winner] >= 100 and totals[1 - winner] < 100
        winners = hands[in_game, R.H_WINNER]
        won = np.bincount(winners[winners >= 0], minlength=2)
        bonus = 200 if totals[1 - winner] == 0 else 100
        expected = totals + won * 20
        expected[winner] += bonus
        assert out.game_scores[g].tolist() == expected.tolist()


def _pair(variant: str, change: dict, seats=(SIMPLE, SIMPLE), hands: int | None = 3000, **kw):
    """The same deals played under the variant and under ``change``."""
    a = play(*compiled(variant, 2), np.array(seats), seed=31, hands=hands, **kw)
    b = play(*compiled(variant, 2, **change), np.array(seats), seed=31, hands=hands, **kw)
    no_violations(a)
    no_violations(b)
    return a, b


def _hand_points(out):
    return out.hand_scores.sum(axis=1)


def test_2I_34_gin_bonus_25_adds_5_to_every_gin_hand():
    a, b = _pair("gin_rummy", {"gin_bonus": 25})
    reasons = a.hand_rows[:, R.H_END_REASON]
    gin = reasons == R.REASON_GIN
    assert gin.any() and (b.hand_rows[:, R.H_END_REASON] == reasons).all()
    assert (_hand_points(b)[gin] - _hand_points(a)[gin] == 5).all()
    assert (_hand_points(b)[~gin] == _hand_points(a)[~gin]).all()


def test_2I_35_undercut_bonus_25_adds_15_to_every_undercut():
    a, b = _pair("gin_rummy", {"undercut_bonus": 25})
    under = a.hand_rows[:, R.H_END_REASON] == R.REASON_UNDERCUT
    assert under.any()
    assert (_hand_points(b)[under] - _hand_points(a)[under] == 15).all()
    assert (_hand_points(b)[~under] == _hand_points(a)[~under]).all()


def test_2I_32_a_lower_knock_limit_makes_longer_hands():
    a, b = _pair("gin_rummy", {"knock_limit": 5})
    assert b.hand_rows[:, R.H_TURNS].mean() > a.hand_rows[:, R.H_TURNS].mean() + 1


@pytest.mark.parametrize("limit", [0, 3, 7])
def test_2I_32_an_extension_knock_limit_bounds_every_knock(limit):
    """knock_limit N (0..10, the simulator extension ``rummysim tune`` turns): no knock of
    any hand keeps more than N, and the game differs from the default limit of 10."""
    a, b = _pair("gin_rummy", {"knock_limit": limit}, hands=300, events=200_000)
    knocks = events_of(b, S.E_KNOCK)
    assert knocks and all(deadwood <= limit for _, deadwood, _, _ in knocks)
    assert max(deadwood for _, deadwood, _, _ in events_of(a, S.E_KNOCK)) > limit
    assert b.hand_rows[:, R.H_TURNS].mean() > a.hand_rows[:, R.H_TURNS].mean()
    if limit == 0:  # out with no deadwood is gin, never a knock
        assert not (b.hand_rows[:, R.H_END_REASON] == R.REASON_KNOCK).any()


def test_2I_34_an_extension_gin_bonus_of_40_adds_20_to_every_gin_hand():
    a, b = _pair("gin_rummy", {"gin_bonus": 40})
    gin = a.hand_rows[:, R.H_END_REASON] == R.REASON_GIN
    assert gin.any() and (_hand_points(b)[gin] - _hand_points(a)[gin] == 20).all()
    assert (_hand_points(b)[~gin] == _hand_points(a)[~gin]).all()


def test_2I_35_an_extension_undercut_bonus_of_0_takes_10_from_every_undercut():
    a, b = _pair("gin_rummy", {"undercut_bonus": 0})
    under = a.hand_rows[:, R.H_END_REASON] == R.REASON_UNDERCUT
    assert under.any()
    assert (_hand_points(a)[under] - _hand_points(b)[under] == 10).all()
    assert (_hand_points(b)[~under] == _hand_points(a)[~under]).all()


def test_2I_36_box_bonus_25_adds_5_per_hand_won_to_final_scores():
    a, b = _pair("gin_rummy", {"box_bonus": 25}, hands=None, games=300)
    assert (a.hand_scores == b.hand_scores).all()
    for g in range(a.games):
        in_game = a.hand_rows[:, R.H_GAME] == a.game_rows[g, R.G_GAME]
        winners = a.hand_rows[in_game, R.H_WINNER]
        won = np.bincount(winners[winners >= 0], minlength=2)
        assert (b.game_scores[g] - a.game_scores[g]).tolist() == (won * 5).tolist()


def test_2I_38_spade_double_doubles_some_hands_and_only_doubles():
    a, b = _pair("oklahoma_gin", {"spade_double": False})
    doubled = _hand_points(a) == 2 * _hand_points(b)
    same = _hand_points(a) == _hand_points(b)
    assert (doubled | same).all()
    assert (doubled & (_hand_points(b) > 0)).mean() > 0.15  # about a quarter of upcards


def test_2I_39_oklahoma_side_bonuses_reach_only_the_final_scores():
    a, b = _pair("oklahoma_gin", {"oklahoma_extra_bonus": False}, hands=None, games=300)
    assert (a.hand_scores == b.hand_scores).all()
    extra = a.game_scores - b.game_scores
    assert (extra >= 0).all() and (extra % 20 == 0).all() and extra.sum() > 0
    # the hands table's side_scores (hand_side) give them hand by hand, to the hand's winner
    assert (b.hand_side == 0).all() and (a.hand_side != 0).any()
    for g in range(a.games):
        in_game = a.hand_rows[:, R.H_GAME] == a.game_rows[g, R.G_GAME]
        assert a.hand_side[in_game].sum(axis=0).tolist() == extra[g].tolist()
    earned = np.nonzero(a.hand_side != 0)
    assert (earned[1] == a.hand_rows[:, R.H_WINNER][earned[0]]).all()


def test_2H_31_winner_deals_in_two_player_gin():
    # §3.17 open point 2 ("many published rules have the hand winner deal"); 4-player gin
    # refuses it in the rules model (§3.19)
    params, values = _gin(dealer_rotation="winner_deals")
    out = play(params, values, np.array([SIMPLE, CAREFUL]), seed=6, games=100)
    no_violations(out)
    rows = out.hand_rows
    dealer_won = 0
    for prev, row in zip(rows[:-1], rows[1:], strict=True):
        if row[R.H_GAME] != prev[R.H_GAME]:
            continue
        if prev[R.H_END_REASON] == R.REASON_VOID:
            assert row[R.H_DEALER] == prev[R.H_DEALER]  # the same dealer deals again
        elif prev[R.H_WINNER] >= 0:
            assert row[R.H_DEALER] == prev[R.H_WINNER]
            dealer_won += prev[R.H_WINNER] == prev[R.H_DEALER]
        else:
            assert row[R.H_DEALER] == 1 - prev[R.H_DEALER]
    assert dealer_won > 0  # hands where the deal did not alternate


def test_3_18_the_loser_deals_next_and_sits_out_and_bonuses_follow():
    params, values = compiled("gin_rummy_3p", 3)
    bots = np.array([SIMPLE, CAREFUL, SIMPLE])
    out = play(params, values, bots, seed=8, games=200)
    no_violations(out)
    rows = out.hand_rows
    for i in range(len(rows) - 1):
        dealer, winner = rows[i, R.H_DEALER], rows[i, R.H_WINNER]
        assert out.hand_scores[i, dealer] == 0  # the dealer sat out
        if rows[i + 1, R.H_GAME] != rows[i, R.H_GAME]:
            continue
        if rows[i, R.H_END_REASON] == R.REASON_VOID:
            assert rows[i + 1, R.H_DEALER] == dealer
        elif winner >= 0:
            assert rows[i + 1, R.H_DEALER] == 3 - winner - dealer  # the loser deals
    for g in range(out.games):
        in_game = rows[:, R.H_GAME] == out.game_rows[g, R.G_GAME]
        totals = out.hand_totals[in_game][-1]
        winners = rows[in_game, R.H_WINNER]
        won = np.bincount(winners[winners >= 0], minlength=3)
        winner = out.game_rows[g, R.G_WINNER]
        others = [p for p in range(3) if p != winner]
        expected = totals + won * 20
        expected[winner] += 200 if all(totals[p] == 0 for p in others) else 100
        assert out.game_scores[g].tolist() == expected.tolist()


# ---- 4-player partnership gin (§3.19) ------------------------------------------------------


@pytest.mark.nojit
def test_3_19_partners_switch_opponents_every_hand():
    from sim.engine.partnership import table_seats

    assert [tuple(table_seats(0, t)) for t in (0, 1)] == [(0, 1), (2, 3)]
    assert [tuple(table_seats(1, t)) for t in (0, 1)] == [(0, 3), (2, 1)]
    assert [tuple(table_seats(2, t)) for t in (0, 1)] == [(0, 1), (2, 3)]


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("points", "expected", "team"),
    [
        ((30, 0), [30, 0, 30, 0], 0),  # one table won by A, the other void
        ((45, 0), [45, 0, 45, 0], 0),  # both partners won: the sum
        ((12, 30), [0, 18, 0, 18], 1),  # one winner each: the larger records the difference
        ((20, 20), [0, 0, 0, 0], -1),  # equal: nothing (default)
        ((0, 0), [0, 0, 0, 0], -1),
    ],
)
def test_3_19_team_score_of_a_hand(points, expected, team):
    from sim.engine.partnership import team_result

    scores = np.zeros(4, np.int64)
    assert team_result(points[0], points[1], scores) == team
    assert scores.tolist() == expected


def test_3_19_partnership_games_to_125_with_team_bonuses():
    params, values = compiled("gin_rummy_4p", 4)
    bots = np.array([SIMPLE, CAREFUL, SIMPLE, GREEDY])
    out = play(params, values, bots, seed=6, games=100)
    no_violations(out)
    rows, totals = out.hand_rows, out.hand_totals
    assert (out.hand_scores[:, 0] == out.hand_scores[:, 2]).all()
    assert (out.hand_scores[:, 1] == out.hand_scores[:, 3]).all()
    assert not ((out.hand_scores[:, 0] > 0) & (out.hand_scores[:, 1] > 0)).any()
    # the deal passes left every hand, voids included
    same_game = rows[1:, R.H_GAME] == rows[:-1, R.H_GAME]
    assert ((rows[1:, R.H_DEALER] - rows[:-1, R.H_DEALER]) % 4 == 1)[same_game].all()
    for g in range(out.games):
        in_game = rows[:, R.H_GAME] == out.game_rows[g, R.G_GAME]
        last = totals[in_game][-1]
        team = out.game_rows[g, R.G_WINNER]
        assert team in (0, 1) and last[team] >= 125 > last[1 - team]
        scored = np.stack([out.hand_scores[in_game, t] > 0 for t in (0, 1)])
        expected = last[:2] + scored.sum(axis=1) * 20
        expected[team] += 200 if last[1 - team] == 0 else 100
        assert out.game_scores[g].tolist() == [*expected, *expected]


@pytest.mark.parametrize(("variant", "size"), [("rummy_basic", 7), ("gin_rummy", 7),
                                               ("full_rummy", 8)])  # fmt: skip
def test_1_4_deal_size_deals_that_many_and_changes_the_game(variant, size):
    """``deal_size`` (a simulator extension for rummysim tune): every seat is dealt ``size``
    cards (the first event of each hand's deal), the game differs from the variant's deal,
    and the audit finds nothing."""
    seats = (SIMPLE, SIMPLE) if variant == "gin_rummy" else (GREEDY, GREEDY)
    a, b = _pair(variant, {"deal_size": size}, seats=seats, hands=200, events=100_000)
    dealt = events_of(b, S.E_DEAL)
    assert dealt and all(len(cards) == size for _, _, _, cards in dealt[:2])
    assert all(len(cards) != size for _, _, _, cards in events_of(a, S.E_DEAL)[:2])
    assert (a.hand_rows[:, R.H_TURNS] != b.hand_rows[:, R.H_TURNS]).any()
