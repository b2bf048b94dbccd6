"""One test per RULES.md clause of the knock family (§3.10 Knock Rummy, §3.17 Gin Rummy,
§3.18, §3.20 Oklahoma Gin, §2I), on hand-built deals played by the engine
(sim/engine) with audit on: ported from the old engine's test_knock_clauses.py.

The deals are built so that the reference ``simple`` bot's choices are forced (docs/bots.md;
``sim.engine.knock_policy``); assertions read the event log and the hand row. Every worked
example of §3.10 and §3.17 is played here, and §3.20's first example. The scoring and bonus
kernels on hand-built states are in tests/engine/test_knock.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import state as S
from sim.engine.game import gin_game_bonuses
from sim.engine.go_out import upcard_limit
from sim.engine.specs import GENERIC

from .helpers import SIMPLE, compiled, deal, end_of, events_of, no_violations, play_deal

pytestmark = pytest.mark.nojit

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


def _play_gin(hands: list[str], upcard: str | None, stock: str = "", **overrides):
    params, values = _gin(**overrides)
    out = play_deal(deal(hands, upcard, stock), params, values, [SIMPLE, SIMPLE])
    no_violations(out)
    return out


def test_3_17_opening_non_dealer_takes_upcard_discards_and_knocks():
    out = _play_gin([KNOCKER_7, DEFENDER_15], "7d")
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("7d"))
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 7)


def test_3_17_example_knock_7_against_15_scores_8():
    out = _play_gin([KNOCKER_7, DEFENDER_15], "7d")
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [8, 0]
    assert _shows(out)[1] == (15, [])
    assert {p: (a, b) for p, a, b, _ in events_of(out, S.E_SCORE)} == {0: (8, 7), 1: (0, 15)}


def test_3_17_example_undercut_knock_7_against_5_defender_scores_12():
    out = _play_gin([KNOCKER_7, DEFENDER_5], "7s")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, 7 - 5 + 10]


def test_3_17_undercut_includes_ties():
    # the defender has 7 as well: a tie is an undercut
    tie = "Qs Qh Qd 7d 8d 9d Td Ac 2d 4d"  # A + 2 + 4 = 7
    out = _play_gin([KNOCKER_7, tie], "7s")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, 10]


def test_3_17_gin_scores_bonus_plus_deadwood_and_blocks_layoffs():
    # Tc completes 7-8-9-10c: seat 0 discards Kd with nothing left over (gin). The defender's
    # Jc could go on that run, but nobody lays off on a gin hand: 1 + 3 + 10 = 14 stays.
    defender = "Qs Qh Qd 7d 8d 9d Td Ac 3c Jc"
    out = _play_gin([KNOCKER_7, defender], "Tc")
    assert end_of(out) == ("gin", 0)
    assert events_of(out, S.E_KNOCK)[0][1] == 0
    assert _shows(out)[1] == (14, [])
    assert _scores(out) == [20 + 14, 0]


def test_3_17_example_gin_with_31_scores_51():
    defender = "Qs Qh Qd 7d 8d 9d Kh Js 2c 9h"  # QQQ, 7-8-9d; 10+10+2+9 = 31
    out = _play_gin([KNOCKER_7, defender], "Tc")
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [51, 0]


def test_3_17_defender_lays_off_through_his_own_layoffs():
    # 6c joins 7-8-9c, then 5c joins through 6c (open point 3): 2h + Kh = 12 remain.
    defender = "Qs Qh Qd 8d 9d Td 6c 5c 2h Kh"
    out = _play_gin([KNOCKER_7, defender], "7d")
    assert _shows(out)[1] == (12, sorted(parse_cards("5c 6c")))
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [12 - 7, 0]


def test_1_13_defender_keeps_a_meld_rather_than_lay_off_from_it():
    # Tc could go on 7-8-9c, but it is in the defender's Tc Th Td group: laying it off would
    # leave Th Td as deadwood. Minimum deadwood keeps the group: Qs Ks 5s 6s = 31.
    defender = "Tc Th Td 2d 3d 4d Qs Ks 5s 6s"
    out = _play_gin([KNOCKER_7, defender], "7d")
    assert _shows(out)[1] == (31, [])
    assert _scores(out) == [31 - 7, 0]


def test_3_17_knocker_never_lays_off_on_the_defender():
    # The knocker's 7d would extend the defender's 8-9-10d, but only the defender lays off:
    # the knocker keeps his 7 points.
    out = _play_gin([KNOCKER_7, DEFENDER_15], "7d")
    assert events_of(out, S.E_KNOCK)[0][1] == 7
    assert _shows(out)[0][1] == []
    assert _scores(out) == [15 - 7, 0]


def test_3_17_opening_both_decline_then_non_dealer_draws_from_stock():
    # 2h fits nobody: seat 0 and the dealer let it go, seat 0 draws the stock top (Jh).
    out = _play_gin([FAR_35, DEFENDER_15], "2h", stock="Jh Kc")
    declines = events_of(out, S.E_DECLINE_UPCARD)
    assert [(p, a) for p, a, _, _ in declines[:2]] == [
        (0, parse_card("2h")),
        (1, parse_card("2h")),
    ]
    assert events_of(out, S.E_DRAW_STOCK)[0][:2] == (0, parse_card("Jh"))


def test_3_17_opening_dealer_takes_the_upcard_the_non_dealer_declined():
    # 5s is no use to seat 0 but completes the dealer's 5c 5d.
    dealer_hand = "5c 5d Jh Jd Jc 8d 9d Td 2c 3d"
    out = _play_gin([FAR_35, dealer_hand], "5s")
    assert events_of(out, S.E_DECLINE_UPCARD)[0][:2] == (0, parse_card("5s"))
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (1, parse_card("5s"))


def test_2I_33_deal_11_10_non_dealer_opens_by_discarding():
    eleven = KNOCKER_7 + " Tc"  # 7-8-9-10c: discarding Kd is gin at once
    out = _play_gin([eleven, DEFENDER_15], None, gin_opening="deal_11_10")
    assert events_of(out, S.E_UPCARD) == []
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [20 + 15, 0]


def test_2I_32_knock_limit_5_changes_what_the_bot_may_knock_with():
    # Offered 7d, seat 0 could knock with 7 under the gin limit of 10 (first test); at 5 it
    # cannot, so the simple bot lets 7d go, and no knock of the hand keeps more than 5.
    out = _play_gin([KNOCKER_7, DEFENDER_15], "7d", stock="Jh", knock_limit=5)
    assert events_of(out, S.E_DECLINE_UPCARD)[0][:2] == (0, parse_card("7d"))
    assert all(a <= 5 for _, a, _, _ in events_of(out, S.E_KNOCK))


@pytest.mark.parametrize(
    ("card", "limit"), [("As", 0), ("2h", 2), ("6h", 6), ("9c", 9), ("Td", 10), ("Ks", 10)]
)
def test_2I_32_upcard_knock_limit(card, limit):
    assert upcard_limit(parse_card(card)) == limit


OKLAHOMA_KNOCKER = "3c 9h 5h 6h 7h 8c 9c Tc Jd Qd"
OKLAHOMA_DEFENDER = "Qs Qh Qc 2d 3d 4d Ac Kc 2s 7d"


def test_3_20_example_spade_upcard_4_knock_3_against_20_scores_34():
    # Upcard 4s: limit 4, spade: doubled. Both let it go; seat 0 draws Kd (J-Q-K d) and
    # discards 9h, keeping 3c: knock with 3. Defender: QQQ 2-3-4d; A + K + 2 + 7 = 20.
    params, values = compiled("oklahoma_gin", 2)
    fixed = deal([OKLAHOMA_KNOCKER, OKLAHOMA_DEFENDER], "4s", stock="Kd")
    out = play_deal(fixed, params, values, [SIMPLE, SIMPLE])
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 3)
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [(20 - 3) * 2, 0]
    no_violations(out)


def test_3_20_ace_upcard_allows_only_gin():
    # The spade-upcard deal with Ah turned: seat 0 reaches 3 deadwood but may not knock.
    params, values = compiled("oklahoma_gin", 2)
    fixed = deal([OKLAHOMA_KNOCKER, OKLAHOMA_DEFENDER], "Ah", stock="Kd")
    out = play_deal(fixed, params, values, [SIMPLE, SIMPLE])
    assert all(a == 0 for _, a, _, _ in events_of(out, S.E_KNOCK))
    assert end_of(out)[0] in ("gin", "void")
    no_violations(out)


def _bonuses(params, totals, won):
    final = np.zeros(2, np.int64)
    side = np.zeros(2, np.int64)
    gin_game_bonuses(GENERIC, params, np.array(totals, np.int64), np.array(won, np.int64),
                     side, 0, 2, final)  # fmt: skip
    return final.tolist()


@pytest.mark.parametrize(
    ("shutout", "expected"),
    [("game_bonus_200", 104 + 200 + 5 * 20), ("double_all", (104 + 100 + 5 * 20) * 2)],
)
def test_2I_37_shutout_forms(shutout, expected):
    params, _ = _gin(shutout=shutout)
    assert _bonuses(params, [104, 0], [5, 0]) == [expected, 0]


def test_2I_36_box_bonus_25():
    params, _ = _gin(box_bonus=25)
    assert _bonuses(params, [104, 37], [5, 3]) == [104 + 100 + 125, 37 + 75]


def test_3_18_three_player_gin_dealer_sits_out():
    params, values = compiled("gin_rummy_3p", 3)
    fixed = deal([KNOCKER_7, DEFENDER_15, ""], "7d", dealer=2)
    out = play_deal(fixed, params, values, [SIMPLE] * 3)
    dealt = {p: cards for p, _, _, cards in events_of(out, S.E_DEAL)}
    assert dealt.get(2, []) == [] and len(dealt[0]) == len(dealt[1]) == 10
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [8, 0, 0]
    assert 2 not in _shows(out)  # the dealer shows nothing
    no_violations(out)


def test_3_18_the_non_dealers_play_in_turn_and_the_dealer_never_acts():
    params, values = compiled("gin_rummy_3p", 3)
    fixed = deal([FAR_35, DEFENDER_15, ""], "2h", stock="Jh Kc", dealer=2)
    out = play_deal(fixed, params, values, [SIMPLE] * 3)
    actors = {p for p, _, _, _ in events_of(out, S.E_DISCARD)}
    actors |= {p for p, _, _, _ in events_of(out, S.E_DECLINE_UPCARD)}
    actors |= {p for p, _, _, _ in events_of(out, S.E_DRAW_STOCK)}
    assert actors == {0, 1}
    no_violations(out)


# ---- Knock Rummy (§3.10) -------------------------------------------------------------------
# Three players, dealer 2: seat 0 holds As2s3s 4h5h6h Kd; offered 6c it takes it (it can then
# knock within its own limit of 10), discards Kd and knocks with 6.
KR_KNOCKER = "As 2s 3s 4h 5h 6h Kd"
KR_C_20 = "Kc Kh Ks 2d 3d 5d Tc"  # KKK; 2 + 3 + 5 + 10 = 20


def _knock_rummy(b_hand: str, upcard: str = "6c", **overrides):
    params, values = compiled("knock_rummy", 3, **overrides)
    fixed = deal([KR_KNOCKER, b_hand, KR_C_20], upcard, dealer=2)
    out = play_deal(fixed, params, values, [SIMPLE] * 3)
    no_violations(out)
    return out


def test_3_10_example_knocker_6_b_9_c_20_knocker_scores_17():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 9d")
    assert events_of(out, S.E_KNOCK)[0][:2] == (0, 6)
    assert end_of(out) == ("knock", 0)
    assert _scores(out) == [(9 - 6) + (20 - 6), 0, 0]


def test_3_10_example_b_lower_than_knocker_wins_28_and_knocker_loses_10():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 4d")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [-10, (6 - 4) + (20 - 4) + 10, 0]


def test_3_10_rule_3_opponent_tying_the_knocker_wins_without_penalty():
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 6d")
    assert end_of(out) == ("undercut", 1)
    assert _scores(out) == [0, (6 - 6) + (20 - 6), 0]


def test_3_10_rule_2_rum_bonus_25_from_each_opponent():
    # 7h completes 4-5-6-7h: the knocker discards Kd with nothing left (rum)
    out = _knock_rummy("Qs Qh Qd 2c 3c 4c 9d", upcard="7h")
    assert end_of(out) == ("gin", 0)
    assert _scores(out) == [9 + 20 + 25 * 2, 0, 0]


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
