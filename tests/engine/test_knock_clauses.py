"""One test per RULES.md clause of the knock family (§3.10 Knock Rummy, §3.17 Gin Rummy,
§3.20 Oklahoma Gin, §2I), on hand-built deals played by the real kernels with audit on.

The deals are built so that the reference ``simple`` bot's choices are forced (docs/bots.md);
assertions read the event log and the hand row. Every worked example of §3.10 and §3.17 is
played here, and §3.20's first example.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.game import gin_game_bonuses
from sim.engine.knock import upcard_limit

from .helpers import compiled, deal, end_of, events_of, play_deal

pytestmark = pytest.mark.nojit

SIMPLE = L.BOT_SIMPLE

# Gin: seat 0 (the non-dealer) holds As2s3s 4h5h6h 7c8c9c and Kd. Offered 7d, the simple bot
# takes it (it could then knock), discards Kd and knocks with 7 (the 7d).
KNOCKER_7 = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"
DEFENDER_15 = "Qs Qh Qd 8d 9d Td 2c 3d 4c 6s"  # QQQ, 8-9-10d; 2+3+4+6 = 15, nothing lays off
DEFENDER_5 = "Qs Qh Qd 7d 8d 9d Td Ac 3c Ad"  # QQQ, 7-10d; A+3+A = 5 (upcard 7s then)
FAR_35 = "As 2s 3s 4h 5h 6h 7c 8c Kd Kh"  # 7 + 8 + 10 + 10: no single card lets it knock


def _scores(out) -> list[int]:
    return [int(x) for x in out.hand_scores[0]]


def _shows(out) -> dict[int, tuple[int, list[int]]]:
    return {p: (a, sorted(cards)) for p, a, _, cards in events_of(out, S.E_SHOW)}


def _gin(**overrides):
    return compiled("gin_rummy", 2, **overrides)


def _clean(out):
    assert int(out.counters[L.C_VIOLATIONS]) == 0


def test_3_17_opening_non_dealer_takes_upcard_discards_and_knocks():
    params, values = _gin()
    out = play_deal(deal([KNOCKER_7, DEFENDER_15], "7d"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("7d"))
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 7)
    _clean(out)


def test_3_17_example_knock_7_against_15_scores_8():
    params, values = _gin()
    out = play_deal(deal([KNOCKER_7, DEFENDER_15], "7d"), params, values, [SIMPLE, SIMPLE])
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [8, 0]
    assert _shows(out)[1] == (15, [])
    _clean(out)


def test_3_17_example_undercut_knock_7_against_5_defender_scores_12():
    params, values = _gin()
    out = play_deal(deal([KNOCKER_7, DEFENDER_5], "7s"), params, values, [SIMPLE, SIMPLE])
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, 7 - 5 + 10]
    _clean(out)


def test_3_17_undercut_includes_ties():
    # the defender has 7 as well: a tie is an undercut
    params, values = _gin()
    tie = "Qs Qh Qd 7d 8d 9d Td Ac 2d 4d"  # A + 2 + 4 = 7
    out = play_deal(deal([KNOCKER_7, tie], "7s"), params, values, [SIMPLE, SIMPLE])
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, 10]
    _clean(out)


def test_3_17_gin_scores_bonus_plus_deadwood_and_blocks_layoffs():
    # Tc completes 7-8-9-10c: seat 0 discards Kd with nothing left over (gin). The defender's
    # Jc could go on that run, but nobody lays off on a gin hand: 1 + 3 + 10 = 14 stays.
    params, values = _gin()
    defender = "Qs Qh Qd 7d 8d 9d Td Ac 3c Jc"
    out = play_deal(deal([KNOCKER_7, defender], "Tc"), params, values, [SIMPLE, SIMPLE])
    assert end_of(out) == ("gin", 0)
    assert events_of(out, S.E_KNOCK)[0][1] == 0
    assert _shows(out)[1] == (14, [])
    assert _scores(out) == [20 + 14, 0]
    _clean(out)


def test_3_17_example_gin_with_31_scores_51():
    params, values = _gin()
    defender = "Qs Qh Qd 7d 8d 9d Kh Js 2c 9h"  # QQQ, 7-8-9d; 10+10+2+9 = 31
    out = play_deal(deal([KNOCKER_7, defender], "Tc"), params, values, [SIMPLE, SIMPLE])
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [51, 0]
    _clean(out)


def test_3_17_defender_lays_off_through_his_own_layoffs():
    # 6c joins 7-8-9c, then 5c joins through 6c (open point 3): 2h + Kh = 12 remain.
    params, values = _gin()
    defender = "Qs Qh Qd 8d 9d Td 6c 5c 2h Kh"
    out = play_deal(deal([KNOCKER_7, defender], "7d"), params, values, [SIMPLE, SIMPLE])
    assert _shows(out)[1] == (12, sorted(parse_cards("5c 6c")))
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [12 - 7, 0]
    _clean(out)


def test_1_13_defender_keeps_a_meld_rather_than_lay_off_from_it():
    # Tc could go on 7-8-9c, but it is in the defender's Tc Th Td group: laying it off would
    # leave Th Td as deadwood. Minimum deadwood keeps the group: Qs Ks 5s 6s = 31.
    params, values = _gin()
    defender = "Tc Th Td 2d 3d 4d Qs Ks 5s 6s"
    out = play_deal(deal([KNOCKER_7, defender], "7d"), params, values, [SIMPLE, SIMPLE])
    assert _shows(out)[1] == (31, [])
    assert _scores(out) == [31 - 7, 0]
    _clean(out)


def test_3_17_knocker_never_lays_off_on_the_defender():
    # The knocker's 7d would extend the defender's 8-9-10d, but only the defender lays off:
    # the knocker keeps his 7 points.
    params, values = _gin()
    out = play_deal(deal([KNOCKER_7, DEFENDER_15], "7d"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_KNOCK)[0][1] == 7
    assert _scores(out) == [15 - 7, 0]


def test_3_17_opening_both_decline_then_non_dealer_draws_from_stock():
    # 2h fits nobody: seat 0 and the dealer let it go, seat 0 draws the stock top (Jh).
    params, values = _gin()
    out = play_deal(
        deal([FAR_35, DEFENDER_15], "2h", stock="Jh Kc"), params, values, [SIMPLE, SIMPLE]
    )
    declines = events_of(out, S.E_DECLINE_UPCARD)
    assert [(p, a) for p, a, _, _ in declines] == [(0, parse_card("2h")), (1, parse_card("2h"))]
    assert events_of(out, S.E_DRAW_STOCK)[0][:2] == (0, parse_card("Jh"))
    _clean(out)


def test_3_17_opening_dealer_takes_the_upcard_the_non_dealer_declined():
    # 5s is no use to seat 0 but completes the dealer's 5c 5d.
    params, values = _gin()
    dealer_hand = "5c 5d Jh Jd Jc 8d 9d Td 2c 3d"
    out = play_deal(deal([FAR_35, dealer_hand], "5s"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_DECLINE_UPCARD)[0][:2] == (0, parse_card("5s"))
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (1, parse_card("5s"))
    _clean(out)


def test_2I_33_deal_11_10_non_dealer_opens_by_discarding():
    params, values = _gin(gin_opening="deal_11_10")
    eleven = KNOCKER_7 + " Tc"  # 7-8-9-10c: discarding Kd is gin at once
    out = play_deal(deal([eleven, DEFENDER_15], None), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_UPCARD) == []
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [20 + 15, 0]
    _clean(out)


def test_2I_32_knock_limit_5_changes_what_the_bot_may_knock_with():
    # Offered 7d, seat 0 could knock with 7 under the gin limit of 10 (first test); at 5 it
    # cannot, so the simple bot lets 7d go, and no knock of the hand keeps more than 5.
    params, values = _gin(knock_limit=5)
    out = play_deal(
        deal([KNOCKER_7, DEFENDER_15], "7d", stock="Jh"), params, values, [SIMPLE, SIMPLE]
    )
    assert events_of(out, S.E_DECLINE_UPCARD)[0][:2] == (0, parse_card("7d"))
    knocks = events_of(out, S.E_KNOCK)
    assert all(a <= 5 for _, a, _, _ in knocks)
    _clean(out)


@pytest.mark.parametrize(
    ("card", "limit"), [("As", 0), ("2h", 2), ("6h", 6), ("9c", 9), ("Td", 10), ("Ks", 10)]
)
def test_2I_32_upcard_knock_limit(card, limit):
    assert upcard_limit(parse_card(card)) == limit


def test_3_20_example_spade_upcard_4_knock_3_against_20_scores_34():
    # Upcard 4s: limit 4, spade: doubled. Both let it go; seat 0 draws Kd (J-Q-K d) and
    # discards 9h, keeping 3c: knock with 3. Defender: QQQ 2-3-4d; A + K + 2 + 7 = 20.
    params, values = compiled("oklahoma_gin", 2)
    knocker = "3c 9h 5h 6h 7h 8c 9c Tc Jd Qd"
    defender = "Qs Qh Qc 2d 3d 4d Ac Kc 2s 7d"
    out = play_deal(deal([knocker, defender], "4s", stock="Kd"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 3)
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [(20 - 3) * 2, 0]
    _clean(out)


def test_3_20_ace_upcard_allows_only_gin():
    # The spade-upcard deal with Ah turned: seat 0 reaches 3 deadwood but may not knock.
    params, values = compiled("oklahoma_gin", 2)
    knocker = "3c 9h 5h 6h 7h 8c 9c Tc Jd Qd"
    defender = "Qs Qh Qc 2d 3d 4d Ac Kc 2s 7d"
    out = play_deal(deal([knocker, defender], "Ah", stock="Kd"), params, values, [SIMPLE, SIMPLE])
    assert all(a == 0 for _, a, _, _ in events_of(out, S.E_KNOCK))
    assert end_of(out)[0] in ("gin", "void")
    _clean(out)


def test_3_17_example_game_end_bonuses_304_and_97():
    params, _ = _gin()
    final = np.zeros(2, np.int64)
    gin_game_bonuses(params, np.array([104, 37]), np.array([5, 3]), np.zeros(2, np.int64), 0, final)
    assert final.tolist() == [104 + 100 + 5 * 20, 37 + 3 * 20]


@pytest.mark.parametrize(
    ("shutout", "expected"),
    [("game_bonus_200", 104 + 200 + 5 * 20), ("double_all", (104 + 100 + 5 * 20) * 2)],
)
def test_2I_37_shutout_forms(shutout, expected):
    params, _ = _gin(shutout=shutout)
    final = np.zeros(2, np.int64)
    gin_game_bonuses(params, np.array([104, 0]), np.array([5, 0]), np.zeros(2, np.int64), 0, final)
    assert final.tolist() == [expected, 0]


def test_2I_36_box_bonus_25():
    params, _ = _gin(box_bonus=25)
    final = np.zeros(2, np.int64)
    gin_game_bonuses(params, np.array([104, 37]), np.array([5, 3]), np.zeros(2, np.int64), 0, final)
    assert final.tolist() == [104 + 100 + 125, 37 + 75]


def test_3_18_three_player_gin_dealer_sits_out():
    params, values = compiled("gin_rummy_3p", 3)
    out = play_deal(
        deal([KNOCKER_7, DEFENDER_15, ""], "7d", dealer=2), params, values, [SIMPLE] * 3
    )
    dealt = {p: cards for p, _, _, cards in events_of(out, S.E_DEAL)}
    assert dealt[2] == [] and len(dealt[0]) == len(dealt[1]) == 10
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [8, 0, 0]
    assert 2 not in _shows(out)  # the dealer shows nothing
    _clean(out)


def test_3_18_the_non_dealers_play_in_turn_and_the_dealer_never_acts():
    params, values = compiled("gin_rummy_3p", 3)
    out = play_deal(
        deal([FAR_35, DEFENDER_15, ""], "2h", stock="Jh Kc", dealer=2),
        params,
        values,
        [SIMPLE] * 3,
    )
    actors = {p for p, _, _, _ in events_of(out, S.E_DISCARD)}
    actors |= {p for p, _, _, _ in events_of(out, S.E_DECLINE_UPCARD)}
    assert actors <= {0, 1} and actors
    _clean(out)


# ---- Knock Rummy (§3.10) -------------------------------------------------------------------
# Three players, dealer 2: seat 0 holds As2s3s 4h5h6h Kd; offered 6c it takes it (it can then
# knock within its own limit of 10), discards Kd and knocks with 6.
KR_KNOCKER = "As 2s 3s 4h 5h 6h Kd"
KR_C_20 = "Kc Kh Ks 2d 3d 5d Tc"  # KKK; 2 + 3 + 5 + 10 = 20


def _knock_rummy(b_hand: str, **overrides):
    params, values = compiled("knock_rummy", 3, **overrides)
    fixed = deal([KR_KNOCKER, b_hand, KR_C_20], "6c", dealer=2)
    return play_deal(fixed, params, values, [SIMPLE] * 3)


def test_3_10_example_knocker_6_b_9_c_20_knocker_scores_17():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 9d")
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 6)
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [(9 - 6) + (20 - 6), 0, 0]
    _clean(out)


def test_3_10_example_b_lower_than_knocker_wins_28_and_knocker_loses_10():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 4d")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [-10, (6 - 4) + (20 - 4) + 10, 0]
    _clean(out)


def test_3_10_rule_3_opponent_tying_the_knocker_wins_without_penalty():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 6d")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, (6 - 6) + (20 - 6), 0]
    _clean(out)


def test_3_10_rule_2_rum_bonus_25_from_each_opponent():
    # 6c with 4c 5c? give the knocker a hand that is all melds after taking the upcard
    params, values = compiled("knock_rummy", 3)
    knocker = "As 2s 3s 4h 5h 6h Kd"
    fixed = deal([knocker, "Qs Qh Qd 2c 3c 4c 9d", KR_C_20], "7h", dealer=2)
    out = play_deal(fixed, params, values, [SIMPLE] * 3)
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [9 + 20 + 25 * 2, 0, 0]
    _clean(out)


def test_3_10_open_point_5_no_layoff_by_default_and_layoff_toggle():
    # B's 7h could go on the knocker's 4-5-6h: only with layoff_target = "any"
    b_hand = "Qs Qh Qd 2c 3c 4c 7h"
    out = _knock_rummy(b_hand)
    assert _shows(out)[1] == (7, [])
    assert _scores(out) == [(7 - 6) + (20 - 6), 0, 0]
    out = _knock_rummy(b_hand, layoff_target="any")
    assert _shows(out)[1] == (0, [parse_card("7h")])
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [-10, 6 + 20 + 10 + 25 * 2, 0]
    _clean(out)


# ---- runs of any suits (§3.17 open point 1, [002]; §2A.6) ------------------------------------

# A-2-3, 4-5-6 and 7-8-9 in mixed suits, and Kd. Offered Th, the simple bot makes 7-8-9-10
# and goes gin under any_suit; under same_suit nothing of his melds and he lets Th go.
MIXED_SUITS = "As 2h 3d 4h 5s 6c 7c 8s 9h Kd"
MIXED_DEFENDER = "Qs Qh Qd 8d 9d Td 2c 3c 4c 6s"  # QQQ, 8-9-10d, 2-3-4c; 6 left either way


def test_3_17_open_point_1_any_suit_runs_of_mixed_suits_make_gin_where_same_suit_cannot():
    params, values = _gin(run_suit="any_suit")
    out = play_deal(deal([MIXED_SUITS, MIXED_DEFENDER], "Th"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("Th"))
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    assert end_of(out) == ("gin", 0)
    assert _shows(out)[1] == (6, [])
    assert _scores(out) == [int(params[L.P_GIN_BONUS]) + 6, 0]
    _clean(out)
    params, values = _gin()
    out = play_deal(deal([MIXED_SUITS, MIXED_DEFENDER], "Th"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_DECLINE_UPCARD)[0][:2] == (0, parse_card("Th"))
    _clean(out)


# The knocker's 3-4-5 and 4-5-6 overlap (3s 4s 5s, 4h 5h 6h); he takes 9c and knocks with 9.
# Under any_suit each run takes a card of any suit at its own ends: a 6 on 3-4-5, the 3d on
# 4-5-6 and then the 2h on the 3d (a chain). The defender keeps JJJ and 6-7-8 and shows Th.
# Under same_suit only 7h joins 4-5-6h: 6 + 6 + 3 + 2 + 8 + 10 = 35.
OVERLAPPING = "3s 4s 5s 4h 5h 6h Ks Kh Kd Qc"
LAYS_ON_BOTH = "6d 6c 3d Jd Js Jc 2h 7h 8c Th"


def test_3_17_open_point_3_any_suit_defender_lays_off_on_each_of_two_overlapping_runs():
    params, values = _gin(run_suit="any_suit")
    out = play_deal(deal([OVERLAPPING, LAYS_ON_BOTH], "9c"), params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 9)
    shown, laid = _shows(out)[1]
    assert shown == 10 and sorted(k // 4 for k in laid) == [1, 2, 5]  # a 2, a 3 and a 6
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [10 - 9, 0]
    _clean(out)
    params, values = _gin()
    out = play_deal(deal([OVERLAPPING, LAYS_ON_BOTH], "9c"), params, values, [SIMPLE, SIMPLE])
    assert _shows(out)[1] == (35, parse_cards("7h"))
    assert _scores(out) == [35 - 9, 0]
    _clean(out)
