"""Knock-family behaviour that shows over many hands (RULES.md §3.17, §2I): void hands, game
ends with bonuses, and every §2I toggle changing the game. Compiled kernels only."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.api import play

from .helpers import compiled

SIMPLE = L.BOT_SIMPLE


def _gin(**overrides):
    return compiled("gin_rummy", 2, **overrides)


def _clean(out):
    assert int(out.counters[L.C_VIOLATIONS]) == 0


def test_3_17_void_when_two_stock_cards_are_left_and_same_dealer_deals_again():
    params, values = _gin()
    out = play(params, values, np.array([SIMPLE, L.BOT_CAREFUL]), seed=2, hands=4000)
    rows = out.hand_rows
    void = np.flatnonzero(rows[:, L.H_END_REASON] == L.REASON_VOID)
    assert void.size > 0
    # 52 - 21 dealt and turned = 31 stock cards; void at 2 left: 29 drawn
    assert (rows[void, L.H_DRAWS_STOCK] == 29).all()
    assert (out.hand_scores[void] == 0).all()
    for i in void:
        if i + 1 < len(rows) and rows[i + 1, L.H_GAME] == rows[i, L.H_GAME]:
            assert rows[i + 1, L.H_DEALER] == rows[i, L.H_DEALER]
    # nothing else reaches 2 stock cards without a knock
    other = rows[:, L.H_END_REASON] != L.REASON_VOID
    assert (rows[other, L.H_DRAWS_STOCK] <= 29).all()
    _clean(out)


def test_3_17_games_end_at_100_with_bonuses_in_final_scores():
    params, values = _gin()
    out = play(params, values, np.array([SIMPLE, SIMPLE]), seed=4, games=50)
    rows, hands = out.game_rows, out.hand_rows
    assert out.games == 50
    for g in range(out.games):
        in_game = hands[:, L.H_GAME] == rows[g, L.G_GAME]
        totals = out.hand_totals[in_game][-1]
        winner = rows[g, L.G_WINNER]
        assert totals[winner] >= 100 and totals[1 - winner] < 100
        won = np.bincount(hands[in_game, L.H_WINNER][hands[in_game, L.H_WINNER] >= 0], minlength=2)
        bonus = 200 if totals[1 - winner] == 0 else 100
        expected = totals + won * 20
        expected[winner] += bonus
        assert out.game_scores[g].tolist() == expected.tolist()


AUDIT_HANDS = 100_000  # issue #4: audit mode over 100,000 hands of each variant and player count
KNOCK_CASES = [("gin_rummy", 2), ("oklahoma_gin", 2), ("gin_rummy_3p", 3), ("gin_rummy_4p", 4)] + [
    ("knock_rummy", p) for p in (2, 3, 4, 5)
]
ALL_BOTS = [L.BOT_SIMPLE, L.BOT_CAREFUL, L.BOT_GREEDY, L.BOT_RANDOM]


@pytest.mark.parametrize(("variant", "players"), KNOCK_CASES)
def test_audit_100k_hands_of_every_knock_variant_and_player_count(variant, players):
    params, values = compiled(variant, players)
    played = 0
    for start, first in enumerate(range(0, AUDIT_HANDS, 25_000)):
        seats = [ALL_BOTS[(start + i) % len(ALL_BOTS)] for i in range(players)]
        out = play(params, values, np.array(seats), seed=17, first_deal=first, hands=25_000)
        _clean(out)
        assert (out.hand_rows[:, L.H_TURNS] <= params[L.P_TURN_CAP]).all()
        stalled = out.hand_rows[:, L.H_END_REASON] == L.REASON_STALLED
        assert (out.hand_scores[stalled] == 0).all()
        played += out.hands
    assert played == AUDIT_HANDS


def _pair(variant: str, change: dict, seats=(SIMPLE, SIMPLE), hands: int = 3000, **kw):
    """The same deals played under the variant and under ``change``."""
    a = play(*compiled(variant, 2), np.array(seats), seed=31, hands=hands, **kw)
    b = play(*compiled(variant, 2, **change), np.array(seats), seed=31, hands=hands, **kw)
    _clean(a)
    _clean(b)
    return a, b


def _hand_points(out):
    return out.hand_scores.sum(axis=1)


def test_2I_34_gin_bonus_25_adds_5_to_every_gin_hand():
    a, b = _pair("gin_rummy", {"gin_bonus": 25})
    reasons = a.hand_rows[:, L.H_END_REASON]
    gin = reasons == L.REASON_GIN
    assert gin.any() and (b.hand_rows[:, L.H_END_REASON] == reasons).all()
    assert (_hand_points(b)[gin] - _hand_points(a)[gin] == 5).all()
    assert (_hand_points(b)[~gin] == _hand_points(a)[~gin]).all()


def test_2I_35_undercut_bonus_25_adds_15_to_every_undercut():
    a, b = _pair("gin_rummy", {"undercut_bonus": 25})
    under = a.hand_rows[:, L.H_END_REASON] == L.REASON_UNDERCUT
    assert under.any()
    assert (_hand_points(b)[under] - _hand_points(a)[under] == 15).all()
    assert (_hand_points(b)[~under] == _hand_points(a)[~under]).all()


def test_2I_32_a_lower_knock_limit_makes_longer_hands():
    a, b = _pair("gin_rummy", {"knock_limit": 5})
    assert b.hand_rows[:, L.H_TURNS].mean() > a.hand_rows[:, L.H_TURNS].mean() + 1


def test_2I_36_box_bonus_25_adds_5_per_hand_won_to_final_scores():
    a, b = _pair("gin_rummy", {"box_bonus": 25}, hands=None, games=300)
    assert (a.hand_scores == b.hand_scores).all()
    for g in range(a.games):
        in_game = a.hand_rows[:, L.H_GAME] == a.game_rows[g, L.G_GAME]
        winners = a.hand_rows[in_game, L.H_WINNER]
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
        in_game = a.hand_rows[:, L.H_GAME] == a.game_rows[g, L.G_GAME]
        assert a.hand_side[in_game].sum(axis=0).tolist() == extra[g].tolist()
    earned = a.hand_side != 0
    assert (np.nonzero(earned)[1] == a.hand_rows[:, L.H_WINNER][np.nonzero(earned)[0]]).all()


def test_2H_31_winner_deals_in_two_player_gin():
    # §3.17 open point 2 ("many published rules have the hand winner deal"); 4-player gin
    # refuses it in the rules model (§3.19)
    params, values = _gin(dealer_rotation="winner_deals")
    out = play(params, values, np.array([SIMPLE, L.BOT_CAREFUL]), seed=6, games=100)
    _clean(out)
    rows = out.hand_rows
    dealer_won = 0
    for prev, row in zip(rows[:-1], rows[1:], strict=True):
        if row[L.H_GAME] != prev[L.H_GAME]:
            continue
        if prev[L.H_END_REASON] == L.REASON_VOID:
            assert row[L.H_DEALER] == prev[L.H_DEALER]  # the same dealer deals again
        elif prev[L.H_WINNER] >= 0:
            assert row[L.H_DEALER] == prev[L.H_WINNER]
            dealer_won += prev[L.H_WINNER] == prev[L.H_DEALER]
        else:
            assert row[L.H_DEALER] == 1 - prev[L.H_DEALER]
    assert dealer_won > 0  # hands where the deal did not alternate


def test_3_18_the_loser_deals_next_and_sits_out_and_bonuses_follow():
    params, values = compiled("gin_rummy_3p", 3)
    bots = np.array([SIMPLE, L.BOT_CAREFUL, SIMPLE])
    out = play(params, values, bots, seed=8, games=200)
    _clean(out)
    rows = out.hand_rows
    for i in range(len(rows) - 1):
        dealer, winner = rows[i, L.H_DEALER], rows[i, L.H_WINNER]
        assert out.hand_scores[i, dealer] == 0  # the dealer sat out
        if rows[i + 1, L.H_GAME] != rows[i, L.H_GAME]:
            continue
        if rows[i, L.H_END_REASON] == L.REASON_VOID:
            assert rows[i + 1, L.H_DEALER] == dealer
        elif winner >= 0:
            assert rows[i + 1, L.H_DEALER] == 3 - winner - dealer  # the loser deals
    for g in range(out.games):
        in_game = rows[:, L.H_GAME] == out.game_rows[g, L.G_GAME]
        totals = out.hand_totals[in_game][-1]
        winners = rows[in_game, L.H_WINNER]
        won = np.bincount(winners[winners >= 0], minlength=3)
        winner = out.game_rows[g, L.G_WINNER]
        others = [p for p in range(3) if p != winner]
        expected = totals + won * 20
        expected[winner] += 200 if all(totals[p] == 0 for p in others) else 100
        assert out.game_scores[g].tolist() == expected.tolist()


# ---- 4-player partnership gin (§3.19) ------------------------------------------------------


def test_3_19_partners_switch_opponents_every_hand():
    from sim.engine.partnership import table_seats

    assert [table_seats(0, t) for t in (0, 1)] == [(0, 1), (2, 3)]
    assert [table_seats(1, t) for t in (0, 1)] == [(0, 3), (2, 1)]
    assert [table_seats(2, t) for t in (0, 1)] == [(0, 1), (2, 3)]


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
    bots = np.array([SIMPLE, L.BOT_CAREFUL, SIMPLE, L.BOT_GREEDY])
    out = play(params, values, bots, seed=6, games=100)
    _clean(out)
    rows, totals = out.hand_rows, out.hand_totals
    assert (out.hand_scores[:, 0] == out.hand_scores[:, 2]).all()
    assert (out.hand_scores[:, 1] == out.hand_scores[:, 3]).all()
    assert not ((out.hand_scores[:, 0] > 0) & (out.hand_scores[:, 1] > 0)).any()
    # the deal passes left every hand, voids included
    same_game = rows[1:, L.H_GAME] == rows[:-1, L.H_GAME]
    assert ((rows[1:, L.H_DEALER] - rows[:-1, L.H_DEALER]) % 4 == 1)[same_game].all()
    for g in range(out.games):
        in_game = rows[:, L.H_GAME] == out.game_rows[g, L.G_GAME]
        last = totals[in_game][-1]
        team = out.game_rows[g, L.G_WINNER]
        assert team in (0, 1) and last[team] >= 125 > last[1 - team]
        scored = np.stack([out.hand_scores[in_game, t] > 0 for t in (0, 1)])
        expected = last[:2] + scored.sum(axis=1) * 20
        expected[team] += 200 if last[1 - team] == 0 else 100
        assert out.game_scores[g].tolist() == [*expected, *expected]


# ---- runs of any suits (§2A.6, §3.17 open point 1) -------------------------------------------


def test_2A_6_run_suit_any_suit_changes_gin_results():
    a, b = _pair("gin_rummy", {"run_suit": "any_suit"})
    assert (a.hand_rows != b.hand_rows).any()
    gin_a = (a.hand_rows[:, L.H_END_REASON] == L.REASON_GIN).mean()
    gin_b = (b.hand_rows[:, L.H_END_REASON] == L.REASON_GIN).mean()
    assert gin_b > gin_a  # more melds: more gin hands, and sooner knocks
    assert b.hand_rows[:, L.H_TURNS].mean() < a.hand_rows[:, L.H_TURNS].mean()


ANY_SUIT_AUDIT_HANDS = 40_000
ANY_SUIT_CASES = [
    ("gin_rummy", 2, {}),
    ("gin_rummy", 2, {"ace_rank": "high", "gin_opening": "deal_11_10"}),
    ("oklahoma_gin", 2, {}),
    ("gin_rummy_3p", 3, {}),
    ("gin_rummy_4p", 4, {}),
    ("knock_rummy", 2, {}),
    ("knock_rummy", 3, {"layoff_target": "any"}),
    ("knock_rummy", 5, {"layoff_target": "any", "ace_rank": "high"}),
]


@pytest.mark.parametrize(("variant", "players", "overrides"), ANY_SUIT_CASES)
def test_2A_6_audit_any_suit_runs_in_every_knock_variant(variant, players, overrides):
    params, values = compiled(variant, players, run_suit="any_suit", **overrides)
    for start in range(len(ALL_BOTS)):
        seats = [ALL_BOTS[(start + i) % len(ALL_BOTS)] for i in range(players)]
        hands = ANY_SUIT_AUDIT_HANDS // len(ALL_BOTS)
        out = play(params, values, np.array(seats), seed=23, first_deal=start * hands, hands=hands)
        _clean(out)
        assert (out.hand_rows[:, L.H_END_REASON] != L.REASON_STALLED).all()
        assert (out.hand_rows[:, L.H_END_REASON] == L.REASON_KNOCK).any()
