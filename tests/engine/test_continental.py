"""Continental Rummy (RULES.md §3.11, toggles §2J) on the one turn loop: 2-12 players with
2-4 packs and one joker a pack, 15 cards each, going out all at once (§2D.18) with all 15
cards in exactly one of the patterns 5+4+3+3, 4+4+4+3 or 3+3+3+3+3 of same-suit runs
(``go_out_pattern = "continental"``; jokers wild, groups do not count, the ace high or low),
discarding the 16th; a dealt hand that fits goes out before drawing; zero-sum payments
(``scoring = "continental"``) from ``start_points``.

Hand-built deals: the last seat deals, so seat 0 plays first. The pattern test
(``patterns.wild_fit``) is checked against the brute force of ``tests/oracles/patterns.py``
(which imports nothing of the engine).
"""

from __future__ import annotations

import time
from collections import Counter

import numpy as np
import pytest

from sim.cards import JOKER, parse_cards
from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import compile_rules, play
from sim.engine.audit import _meld_ok
from sim.engine.go_out import quick_out, wild_out
from sim.engine.melds import n_positions, new_work
from sim.engine.patterns import (
    CONTINENTAL,
    FIT_NONE,
    FIT_WHOLE,
    T_FREE,
    T_NEED,
    W_TALLY,
    _load_hand,
    _place,
    _wild_places,
    wild_fit,
)
from sim.engine.specs import GENERIC
from sim.replay import transcript
from sim.rules import ConfigError, load_variant
from tests.oracles import patterns as oracle

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    blank_state,
    compiled,
    deal,
    end_of,
    events_of,
    no_violations,
    play_deal,
    turns_of,
)

ALTERNATIVES = [(5, 4, 3, 3), (4, 4, 4, 3), (3, 3, 3, 3, 3)]
ACE = {"low": L.ACE_LOW, "high": L.ACE_HIGH, "high_or_low": L.ACE_HIGH_OR_LOW}

# seat 0: 5+4+3+3 waiting for 4d, and 9c loose; the stock's top is 4d
WAITING = "3s 4s 5s 6s 7s 8h 9h Th Jh 2d 3d Jc Qc Kc 9c"
RUNS = "3s 4s 5s 6s 7s|8h 9h Th Jh|2d 3d 4d|Jc Qc Kc"
# a hand far from every pattern (and it takes no upcard below)
LOOSE = "As Ks 9s Kh 5h Ad Kd 8d 6c Qh Tc 6d 7h 2c 8c"
LOOSE2 = "Ac Kc 9h 4h 5c Ah 3c 8s 6h Tc Td 7c 4c Js Qs"


def _melded(out) -> list[list[int]]:
    return sorted(sorted(cards) for _, _, _, cards in events_of(out, S.E_MELD))


def _runs(text: str) -> list[list[int]]:
    return sorted(sorted(parse_cards(run)) for run in text.split("|"))


def _layers(cards: Counter) -> np.ndarray:
    layers = np.zeros(4, np.int64)
    for card, n in cards.items():
        for layer in range(n):
            layers[layer] |= np.int64(1) << card
    return layers


def _fit(text: str, ace="high_or_low", deuces=False, spare_ok=0, patterns=CONTINENTAL):
    """``wild_fit`` of a hand written as card names (``Jk``: a joker) under a pattern set
    (Continental's, or packed lengths)."""
    cards = parse_cards(text)
    naturals = Counter(c for c in cards if c != JOKER)
    values = compiled("continental")[1]
    return wild_fit(
        values, new_work(), _layers(naturals), np.int64(4), np.int64(cards.count(JOKER)),
        np.int64(ACE[ace]), np.int64(patterns), np.bool_(deuces), np.int64(spare_ok),
        np.bool_(False),
    )  # fmt: skip


def test_3_11_variant_file():
    rules = load_variant("continental")
    assert rules.players == (2, 12)
    assert {p: rules.deal_for(p) for p in (2, 5, 6, 8, 9, 12)} == {
        2: (15, 2), 5: (15, 2), 6: (15, 3), 8: (15, 3), 9: (15, 4), 12: (15, 4)
    }  # fmt: skip
    assert [rules.jokers_for(p) for p in (2, 5, 6, 8, 9, 12)] == [2, 2, 3, 3, 4, 4]
    assert rules.ace_rank == "high_or_low" and rules.meld_timing == "all_at_once"
    assert rules.go_out_pattern == "continental" and rules.must_discard_to_go_out
    assert rules.scoring == "continental" and rules.start_points == 100
    assert rules.dealer_rotation == "winner_deals" and rules.game_end == "fixed_hands:10"
    assert rules.stock_exhaustion == "turn_over" and rules.upcard
    assert not rules.deuces_wild and not rules.continental_quick_bonus
    assert not rules.continental_special_bonus


@pytest.mark.nojit
def test_3_11_goes_out_with_15_cards_in_a_pattern_discarding_the_16th():
    params, values = compiled("continental")
    out = play_deal(deal([WAITING, LOOSE], "5c", stock="4d"), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    assert events_of(out, S.E_DRAW_STOCK)[0][:2] == (0, parse_cards("4d")[0])
    assert _melded(out) == _runs(RUNS)
    assert events_of(out, S.E_DISCARD)[-1][:2] == (0, parse_cards("9c")[0])
    assert list(out.hand_scores[0]) == [1, -1]  # 1 from each opponent, no joker
    no_violations(out)


@pytest.mark.nojit
def test_3_11_jokers_are_wild_and_each_pays_2():
    hand = "3s 4s Jk 6s 7s 8h 9h Th Jh 2d 3d Jc Qc Jk 9c"  # jokers as 5s and Kc (or Jc..)
    params, values = compiled("continental", 3)
    out = play_deal(deal([hand, LOOSE, LOOSE2], "5c", stock="4d"), params, values)
    assert end_of(out) == ("went_out", 0)
    melded = events_of(out, S.E_MELD)
    assert sum(cards.count(JOKER) for _, _, _, cards in melded) == 2
    lengths = tuple(sorted((len(cards) for _, _, _, cards in melded), reverse=True))
    assert lengths in ALTERNATIVES
    # each opponent pays 1 + 2 per joker = 5; zero-sum
    assert list(out.hand_scores[0]) == [10, -5, -5]
    assert list(out.hand_totals[0]) == [110, 95, 95]  # from start_points 100
    no_violations(out)


@pytest.mark.nojit
def test_3_11_a_dealt_hand_that_fits_goes_out_before_drawing():
    # Q-K-A and A-2-3 of hearts in one hand (two packs): the ace high or low, no wrap
    fits = "Qh Kh Ah Ah 2h 3h 5s 6s 7s 8s 9s 9d Td Jd Qd"
    params, values = compiled("continental")
    out = play_deal(deal([fits, LOOSE], "5c"), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    assert not events_of(out, S.E_DRAW_STOCK) and not events_of(out, S.E_DRAW_DISCARD)
    assert not events_of(out, S.E_DISCARD)
    assert _melded(out) == _runs("Qh Kh Ah|Ah 2h 3h|5s 6s 7s 8s 9s|9d Td Jd Qd")
    assert list(out.hand_scores[0]) == [1, -1]
    no_violations(out)


@pytest.mark.nojit
def test_3_11_each_pattern_and_no_other():
    assert _fit("3s 4s 5s 6s 7s 8h 9h Th Jh 2d 3d 4d Jc Qc Kc") == FIT_WHOLE  # 5+4+3+3
    assert _fit("3s 4s 5s 6s 8h 9h Th Jh 2d 3d 4d 5d Jc Qc Kc") == FIT_WHOLE  # 4+4+4+3
    assert _fit("3s 4s 5s 8h 9h Th 2d 3d 4d Jc Qc Kc 6c 7c 8c") == FIT_WHOLE  # 3x5
    # 5+5+5 is no pattern: three runs of 5 that cannot be split otherwise
    assert _fit("3s 4s 5s 6s 7s 8h 9h Th Jh Qh 2d 3d 4d 5d 6d") == FIT_NONE
    # a run of 7 is a 4 and a 3 (runs may share a suit): 7+4+4 = 4+4+4+3
    assert _fit("3s 4s 5s 6s 7s 8s 9s 8h 9h Th Jh 2d 3d 4d 5d") == FIT_WHOLE
    # K-A-2 never forms (no wrap)
    assert _fit("Ks As 2s 8h 9h Th 2d 3d 4d Jc Qc Kc 6c 7c 8c") == FIT_NONE


@pytest.mark.nojit
def test_3_11_runs_only_groups_do_not_count():
    assert _fit("5s 5h 5d 7s 7h 7d 9s 9h 9d Js Jh Jd Ks Kh Kd") == FIT_NONE
    params, values = compiled("continental")
    groups = "5s 5h 5d 7s 7h 7d 9s 9h 9d Js Jh Jd Ks Kh Kd"
    out = play_deal(deal([groups, LOOSE], "5c", stock="4d"), params, values)
    assert events_of(out, S.E_DRAW_STOCK)[0][0] == 0  # no going out before the draw
    assert not (end_of(out) == ("went_out", 0) and turns_of(out) == 1)


@pytest.mark.nojit
def test_3_11_every_run_needs_a_natural_card():
    # two runs of 3 (a pattern of the library's, not Continental's): jokers cannot make a
    # run of their own, but they fill runs that hold a natural card
    assert _fit("5s Jk Jk Jk Jk Jk", patterns=0x33) == FIT_NONE
    assert _fit("5s 9h Jk Jk Jk Jk", patterns=0x33) == FIT_WHOLE
    # Continental: jokers stretch or split the natural runs
    assert _fit("3s 4s 5s 8h 9h Th 2d 3d 4d Jc Qc Kc Jk Jk Jk") == FIT_WHOLE


@pytest.mark.nojit
def test_2B_14_deuces_wild_in_the_meld_library():
    # 2h stands for 6h only when deuces are wild; a 2 on its own place is natural
    hand = "5h 2h 7h 3s 4s 5s 8d 9d Td Jc Qc Kc 6c 7c 8c"
    assert _fit(hand) == FIT_NONE
    assert _fit(hand, deuces=True) == FIT_WHOLE
    assert _fit("As 2s 3s 8h 9h Th 2d 3d 4d Jc Qc Kc 6c 7c 8c", deuces=True) == FIT_WHOLE
    # three 2s of different suits make a run only when two of them are wild
    three = "2h 2d 2c 3s 4s 5s 8d 9d Td Jc Qc Kc 6c 7c 8c"
    assert _fit(three) == FIT_NONE
    assert _fit(three, deuces=True) == FIT_WHOLE


def test_2B_14_deuces_wild_is_played_only_by_continental():
    assert load_variant("continental", {"deuces_wild": True}).deuces_wild
    with pytest.raises(ConfigError, match="3.11"):
        load_variant("rummy_basic", {"deuces_wild": True})
    with pytest.raises(ConfigError, match="3.11"):
        load_variant("nowrang", {"deuces_wild": True})


# seat 0's dealt 15 fit 3s 4s [5s] 6s 7s | 8h 9h Th Jh | [Jc] Qc Kc | 5d [6d] 7d only with 2
# jokers and the 2c standing as a wild card (its own place is in no run)
WILD_DEUCE = "3s 4s Jk 6s 7s 8h 9h Th Jh Jk Qc Kc 5d 2c 7d"
LOOSE3 = "Kd Ks Kh 9d 3d 5s Jc 3h Js 4d 9c 6h Qd Ad 8h"


def _wild_twos(wild: int) -> list[int]:
    """The suits of the 2s standing as wild cards in a run (``M_WILD``, an ``E_MELD``'s b)."""
    return [(wild >> (3 * q)) % 8 - 1 for q in range(13) if (wild >> (3 * q)) % 8]


@pytest.mark.nojit
def test_3_11_illustrative_example_two_jokers_and_one_wild_deuce():
    # 4 players, deuces wild; the winner used 2 jokers and 1 wild deuce: each opponent pays
    # 1 + 4 + 1 = 6, the winner +18
    params, values = compiled("continental", 4, deuces_wild=True)
    out = play_deal(deal([WILD_DEUCE, LOOSE, LOOSE2, LOOSE3], "5c"), params, values)
    assert end_of(out) == ("went_out", 0) and not events_of(out, S.E_DRAW_STOCK)
    assert list(out.hand_scores[0]) == [18, -6, -6, -6]
    melds = events_of(out, S.E_MELD)
    wild = [_wild_twos(b) for _, _, b, _ in melds if b != 0]
    assert wild == [[3]]  # one run records its wild 2, the 2c (suit 3)
    assert sum(cards.count(JOKER) for _, _, _, cards in melds) == 2
    no_violations(out)
    # deuces not wild: the 2c is a natural card with no run, the hand does not fit
    params, values = compiled("continental", 4)
    out = play_deal(deal([WILD_DEUCE, LOOSE, LOOSE2, LOOSE3], "5c", stock="9s"), params, values)
    assert events_of(out, S.E_DRAW_STOCK)  # no going out before drawing
    no_violations(out)


def _laid_wild_deuce():
    """A blank 2-player Continental table (deuces wild, audit on) on which seat 0 went out
    with ``WILD_DEUCE`` before drawing; ``(params, st, m)``, m the run holding the wild 2c."""
    params, values, st, _ = blank_state("continental", 2, audit=True, deuces_wild=True)
    hand = Counter(parse_cards(WILD_DEUCE))
    jokers = hand.pop(JOKER)
    row = S.R_SEAT + 0
    st[row, S.S_HAND : S.S_HAND + 4] = _layers(hand)
    st[row, S.S_JOKERS] = jokers
    st[row, S.S_N] = 15
    events = np.zeros((64, S.EV_COLS), np.int64)
    assert quick_out(GENERIC, params, values, st, new_work(), events, np.int64(0))
    rows = range(S.R_MELD, S.R_MELD + st[S.R_SC, S.C_N_MELDS])
    (m,) = [r - S.R_MELD for r in rows if st[r, S.M_WILD] != 0]
    return params, st, m


@pytest.mark.nojit
def test_2B_14_the_audit_accepts_a_wild_deuce_and_catches_a_wrong_one():
    params, st, m = _laid_wild_deuce()
    row = S.R_MELD + m
    assert st[S.R_SEAT, S.S_N] == 0 and st[S.R_SEAT, S.S_JOKERS] == 0
    assert _meld_ok(GENERIC, params, st, m)
    wild = int(st[row, S.M_WILD])
    assert _wild_twos(wild) == [3]  # the 2c
    assert sum(st[S.R_MELD + i, S.M_JOKERS] for i in range(st[S.R_SC, S.C_N_MELDS])) == 2
    plain, _ = compiled("continental", 2)
    assert not _meld_ok(GENERIC, plain, st, m)  # no wild 2 without deuces_wild
    place = next(q for q in range(5) if (wild >> (3 * q)) % 8)
    for bad in (0, wild << 3 if place == 0 else wild >> 3, (2 + 1) << (3 * place)):
        st[row, S.M_WILD] = bad  # unmarked, on a natural place, or the 2d it is not
        assert not _meld_ok(GENERIC, params, st, m), bad
    st[row, S.M_WILD] = wild
    assert _meld_ok(GENERIC, params, st, m)


def test_2B_14_replay_shows_the_wild_deuce():
    rules = load_variant("continental@deuces")
    fixed = deal([WILD_DEUCE, LOOSE, LOOSE2, LOOSE3], "5c")
    text = transcript(rules, 4, [GREEDY] * 4, deal=fixed)
    assert "(wild)" in text and "audit: 0 violation(s)" in text
    (line,) = [x for x in text.splitlines() if "(wild)" in x]
    assert line.rstrip().endswith("(wild)") and ("2c(wild)" in line or "2♣(wild)" in line)


@pytest.mark.nojit
def test_2B_14_going_out_keeps_a_2_that_can_stand_as_wild():
    # 15 naturals that fit, a 2c and no draw left to make: discarding the 2c (the lowest kind)
    # fits, and so does discarding 3s with the 2c standing for it, which pays 1 more
    hand = "3s 4s 5s 6s 7s 8h 9h Th Jh 5d 6d 7d Jc Qc Kc 2c"
    for wild, discard in ((False, "2c"), (True, "3s")):
        params, values, st, _ = blank_state("continental", 2, deuces_wild=wild)
        st[S.R_SEAT, S.S_HAND : S.S_HAND + 4] = _layers(Counter(parse_cards(hand)))
        st[S.R_SEAT, S.S_N] = 16
        allowed = st[S.R_SEAT, S.S_HAND]
        got = wild_out(GENERIC, params, values, st, new_work(), np.int64(0), allowed)
        assert got == parse_cards(discard)[0]


@pytest.mark.parametrize("bot", [GREEDY, CAREFUL, RANDOM])
def test_2B_14_deuces_wild_flip(bot):
    """The same deals with 2s wild: hands end sooner, and the winner is paid for wild 2s."""
    turns, pays = [], []
    for variant in ("continental", "continental@deuces"):
        params, values = compile_rules(load_variant(variant), 4, audit=True)
        out = play(params, values, np.array([bot] * 4), seed=5, hands=200)
        no_violations(out)
        rows = out.hand_rows[:200]
        turns.append(rows[:, R.H_TURNS].mean())
        pays.append(np.abs(out.hand_scores[:200]).sum() / 2 / 200)
    assert turns[1] < turns[0] and pays[1] > pays[0], (turns, pays)


@pytest.mark.nojit
def test_2J_41_special_bonus_counts_wild_deuces_not_natural_ones():
    # a 2 on its own place (Ah 2h 3h) is natural: no wild card, +10; a 2 standing for 6d is
    # wild: no +10, and it pays 1
    natural = "Qh Kh Ah Ah 2h 3h 5s 6s 7s 8s 9s 9d Td Jd Qd"
    wild = "Qh Kh Ah Ah 2c 3h 5s 6s 7s 8s 9s 9d Td Jd Qd"
    params, values = compiled("continental", deuces_wild=True, continental_special_bonus=True)
    out = play_deal(deal([natural, LOOSE], "5c"), params, values)
    assert list(out.hand_scores[0]) == [11, -11]
    out = play_deal(deal([wild, LOOSE], "5c"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [2, -2]
    no_violations(out)


@pytest.mark.nojit
def test_3_11_the_discard_is_never_the_card_just_taken():
    # the discard top 9c would leave 9c to discard; he may not, so he keeps waiting
    params, values = compiled("continental")
    hand = "3s 4s 5s 6s 7s 8h 9h Th Jh 2d 3d 4d Jc Qc 5c"  # waits for Kc (5c loose)
    out = play_deal(deal([hand, LOOSE], "Kc", stock="8c 9d"), params, values)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_cards("Kc")[0])
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    assert events_of(out, S.E_DISCARD)[-1][:2] == (0, parse_cards("5c")[0])
    no_violations(out)


# ---- the settlement and its toggles (§3.11 scoring, §2J) ----------------------------------


@pytest.mark.nojit
def test_2J_40_quick_bonus_flip():
    fits = "Qh Kh Ah Ah 2h 3h 5s 6s 7s 8s 9s 9d Td Jd Qd"
    for quick, before, after in ((False, 1, 1), (True, 11, 8)):
        params, values = compiled("continental", continental_quick_bonus=quick)
        out = play_deal(deal([fits, LOOSE], "5c"), params, values)  # out before drawing
        assert list(out.hand_scores[0]) == [before, -before]
        out = play_deal(deal([WAITING, LOOSE], "5c", stock="4d"), params, values)  # one draw
        assert end_of(out) == ("went_out", 0)
        assert list(out.hand_scores[0]) == [after, -after]
        no_violations(out)


@pytest.mark.nojit
def test_2J_41_special_bonus_flip():
    # no wild card: +10; all 15 cards of one suit (two packs): +10 more
    spades = "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js 2s 3s 4s 9c"  # waits for Qs
    for special, mixed, one_suit in ((False, 1, 1), (True, 11, 21)):
        params, values = compiled("continental", continental_special_bonus=special)
        out = play_deal(deal([WAITING, LOOSE], "5c", stock="4d"), params, values)
        assert list(out.hand_scores[0]) == [mixed, -mixed]
        out = play_deal(deal([spades, LOOSE], "5c", stock="Qs"), params, values)
        assert end_of(out) == ("went_out", 0)
        assert list(out.hand_scores[0]) == [one_suit, -one_suit]
        no_violations(out)
    params, values = compiled("continental", continental_special_bonus=True)
    joker = "3s 4s Jk 6s 7s 8h 9h Th Jh 2d 3d Jc Qc Kc 9c"  # a joker: no +10 for no wild
    out = play_deal(deal([joker, LOOSE], "5c", stock="4d"), params, values)
    assert list(out.hand_scores[0]) == [3, -3]


@pytest.mark.nojit
def test_2J_42_start_points_flip():
    for start in (100, 0, 250):
        params, values = compiled("continental", start_points=start)
        out = play_deal(deal([WAITING, LOOSE], "5c", stock="4d"), params, values)
        assert list(out.hand_totals[0]) == [start + 1, start - 1]


def test_3_11_zero_sum_over_a_game_of_10_hands_the_winner_deals():
    params, values = compiled("continental", 4)
    out = play(params, values, np.array([GREEDY, CAREFUL, GREEDY, CAREFUL]), seed=3, games=20)
    assert out.games == 20
    no_violations(out)
    assert (out.hand_scores[: out.hands].sum(axis=1) == 0).all()
    assert (out.game_scores[:20].sum(axis=1) == 400).all()  # 4 x start_points 100
    rows = out.hand_rows[: out.hands]
    hands = out.game_rows[:20, R.G_HANDS]
    assert (hands >= 10).all()  # fixed_hands:10, ties played off
    won = np.flatnonzero(rows[:-1, R.H_WINNER] >= 0)
    same_game = rows[won, R.H_GAME] == rows[won + 1, R.H_GAME]
    assert (rows[won + 1, R.H_DEALER][same_game] == rows[won, R.H_WINNER][same_game]).all()


def test_3_11_rules_model_refusals():
    with pytest.raises(ConfigError, match="go_out_pattern"):
        load_variant("rummy_basic", {"go_out_pattern": "continental"})
    with pytest.raises(ConfigError, match="scoring"):
        load_variant("full_rummy", {"scoring": "continental"})
    with pytest.raises(ConfigError, match="start_points"):
        load_variant("continental", {"scoring": "pip_to_winner", "start_points": 50})
    with pytest.raises(ConfigError, match="continental_quick_bonus"):
        load_variant("queen_city_rum", {"continental_quick_bonus": True})
    with pytest.raises(ConfigError, match="game_end"):
        load_variant("continental", {"game_end": "target:200"})
    with pytest.raises(ConfigError, match="holds 15 cards"):
        load_variant("continental", {"deal_size": 13})
    with pytest.raises(ConfigError, match="run_suit"):
        load_variant("continental", {"run_suit": "any_suit"})
    with pytest.raises(ConfigError, match="ace_rank"):
        load_variant("continental", {"ace_rank": "around_corner"})
    with pytest.raises(ConfigError, match="top_plus_one"):
        load_variant("continental", {"discard_draw": "top_plus_one"})
    load_variant("continental", {"scoring": "pip_to_winner"})  # another scoring may be played


# ---- whole hands: audit and hands without a result (docs/bots.md) --------------------------


@pytest.mark.parametrize(
    ("players", "line_up"),
    [(2, GREEDY), (2, CAREFUL), (2, RANDOM), (4, GREEDY), (4, CAREFUL), (7, GREEDY),
     (12, CAREFUL)],
)  # fmt: skip
def test_3_11_audit_and_stalls(players, line_up):
    params, values = compiled("continental", players, audit=True)
    hands = 300
    out = play(params, values, np.array([line_up] * players), seed=11, hands=hands)
    no_violations(out)
    reasons = out.hand_rows[:hands, R.H_END_REASON]
    assert set(np.unique(reasons)) <= {R.REASON_WENT_OUT, R.REASON_STALLED}
    if line_up != RANDOM:
        assert (reasons == R.REASON_STALLED).mean() <= 0.02


# ---- the pattern test against the brute force ---------------------------------------------


def _random_hands(rng, n, extra):
    """Hands of 15 + ``extra`` cards: half fit (with a loose card when ``extra``), a quarter
    with one card swapped, a quarter of random cards and jokers."""
    for t in range(n):
        ace = ("low", "high", "high_or_low")[t % 3]
        deuces = bool(t % 2)
        lengths = ALTERNATIVES[int(rng.integers(3))]
        hand, jokers = oracle.random_wild_hand(rng, lengths, ace, deuces, 2)
        if t % 4 == 1:
            c = sorted(hand.elements())[int(rng.integers(sum(hand.values())))]
            hand[c] -= 1
            hand[int(rng.integers(52))] += 1
        elif t % 4 == 3:
            hand = Counter(int(c) for c in rng.integers(52, size=15 - min(jokers, 2)))
            jokers = min(jokers, 2)
        for _ in range(extra):
            hand[int(rng.integers(52))] += 1
        if max(hand.values()) <= 2:
            yield +hand, jokers, ace, deuces


def _agrees_on(n, seed):
    rng = np.random.default_rng(seed)
    _, values = compiled("continental")
    work = new_work()
    fits = done = 0
    for hand, jokers, ace, deuces in _random_hands(rng, n, 0):
        got = wild_fit(
            values, work, _layers(hand), np.int64(2), np.int64(jokers), np.int64(ACE[ace]),
            np.int64(CONTINENTAL), np.bool_(deuces), np.int64(0), np.bool_(False),
        )  # fmt: skip
        want = oracle.fits_wild(hand, jokers, ALTERNATIVES, ace, deuces)
        assert (got == FIT_WHOLE) == want, (sorted(hand.elements()), jokers, ace, deuces)
        fits += want
        done += 1
    return fits, done


def test_3_11_pattern_test_agrees_with_the_brute_force():
    fits, done = _agrees_on(2000, 311)
    assert fits > done // 3


@pytest.mark.slow
def test_3_11_pattern_test_agrees_with_the_brute_force_on_20000_hands():
    fits, done = _agrees_on(21_000, 3110)
    assert done >= 20_000 and fits > done // 3


def test_3_11_out_discards_agree_with_the_brute_force_on_16_card_hands():
    rng = np.random.default_rng(1116)
    _, values = compiled("continental")
    work = new_work()
    outs = 0
    for hand, jokers, ace, deuces in _random_hands(rng, 300, 1):
        want = oracle.wild_out_cards(hand, jokers, ALTERNATIVES, ace, deuces)
        got = {
            c
            for c in hand
            if wild_fit(
                values, work, _layers(hand), np.int64(2), np.int64(jokers), np.int64(ACE[ace]),
                np.int64(CONTINENTAL), np.bool_(deuces), np.int64(1 << c), np.bool_(False),
            ) == c
        }  # fmt: skip
        assert got == want, (sorted(hand.elements()), jokers, ace, deuces)
        outs += bool(got)
    assert outs > 75


def test_3_11_wild_places_is_what_placing_the_run_adds_to_the_wild_cards_needed():
    """The search passes over an option whose wild places exceed its slack without placing
    it (``patterns._wild_places``): that count must be exactly what placing the run adds to
    the tally's wild cards needed less its free deuces, over runs already placed too."""
    rng = np.random.default_rng(1117)
    work = new_work()
    checked = 0
    for hand, _, ace, deuces in _random_hands(rng, 300, 1):
        layout = np.int64(ACE[ace])
        n_pos = n_positions(layout)
        _load_hand(work, _layers(hand), np.int64(2), np.bool_(deuces))
        for _ in range(6):  # runs placed one over another, each window checked first
            suit = np.int64(rng.integers(4))
            length = np.int64(rng.integers(3, 6))
            lo = np.int64(rng.integers(n_pos - length + 1))
            before = work[W_TALLY, T_NEED] - work[W_TALLY, T_FREE]
            places = _wild_places(work, suit, lo, length, layout, np.bool_(deuces))
            _place(work, suit, lo, length, layout, np.int64(1), np.bool_(deuces))
            assert work[W_TALLY, T_NEED] - work[W_TALLY, T_FREE] - before == places
            checked += 1
    assert checked > 1500


def test_3_11_pattern_test_cost_per_call():
    """The figure docs/engine.md states: one wild_fit of a 16-card hand looking for its
    discard (every natural card may be discarded), the compiled kernel."""
    rng = np.random.default_rng(5)
    _, values = compiled("continental")
    work = new_work()
    hands = [h for h in _random_hands(rng, 400, 1)]
    start = time.perf_counter()
    for hand, jokers, ace, deuces in hands:
        wild_fit(
            values, work, _layers(hand), np.int64(2), np.int64(jokers), np.int64(ACE[ace]),
            np.int64(CONTINENTAL), np.bool_(deuces), np.int64((1 << 52) - 1), np.bool_(False),
        )  # fmt: skip
    per_call = (time.perf_counter() - start) / len(hands)
    assert per_call < 0.01  # seconds (jitted: microseconds; docs/engine.md)
