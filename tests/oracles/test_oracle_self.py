"""Self-tests of the deadwood oracle (tests/oracles/deadwood.py) against examples worked
out by hand, and against brute forces on small hands. Test names carry the RULES.md
section they check."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from sim.cards import JOKER, parse_cards
from tests.oracles.deadwood import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    ACE_LOW,
    RUN_ANY_SUIT,
    RUN_SAME_SUIT,
    all_melds,
    baseline_values,
    deadwood_of,
    is_group,
    is_meld,
    is_run,
    min_deadwood,
    min_deadwood_arrangement,
    random_hand,
    shoe,
)

ACES = [ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER]
VALUES = baseline_values()  # A 1, 2..10 pip, J/Q/K 10, joker 15


def meld(text: str, ace=ACE_LOW, suit=RUN_SAME_SUIT, dup=False) -> bool:
    return is_meld(parse_cards(text), ace, suit, dup)


def dw(text: str, ace=ACE_LOW, suit=RUN_SAME_SUIT, dup=False, values=VALUES, max_melds=0) -> int:
    return min_deadwood(parse_cards(text), ace, suit, dup, values, max_melds)


# ---- §1.3 melds --------------------------------------------------------------------------


def test_1_3_meld_needs_three_cards():
    assert not meld("7s 7h")
    assert not meld("7s 8s")
    assert meld("7s 7h 7d")
    assert meld("7s 8s 9s")


def test_1_3_group_of_three_and_four():
    assert meld("7s 7h 7d")
    assert meld("7s 7h 7d 7c")
    assert not meld("7s 7h 8d")


def test_1_3_run_same_suit_consecutive():
    assert meld("4h 5h 6h 7h")
    assert not meld("4h 5h 7h")  # gap
    assert not meld("4h 5h 6s")  # mixed suits
    assert not meld("4h 5h 5h 6h", dup=True)  # one card per position


def test_1_3_run_up_to_13_cards():
    assert meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    assert meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Jk")
    # 14 cards would need a rank twice (or the ace at both ends)
    for ace in ACES:
        assert not meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Jk", ace)
        assert not meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", ace)


def test_1_3_joker_fills_a_run_gap():
    assert meld("4s Jk 6s")
    assert meld("4s 6s Jk")  # order in the list does not matter
    assert meld("4s 5s Jk")  # at an end
    assert not meld("4s 7s Jk")  # gap of two, one joker
    assert meld("4s 7s Jk Jk")
    assert dw("4s 6s Jk 9h") == 9


def test_1_3_joker_takes_missing_suit_in_group():
    assert meld("7s 7h 7d Jk")
    assert meld("7s Jk Jk")
    assert meld("7s 7h Jk Jk")
    assert not meld("7s 7h 7d 7c Jk")  # no fifth suit without duplicates
    assert not meld("7s 7h 7d Jk Jk")


def test_1_3_meld_needs_a_natural_card():
    assert not meld("Jk Jk Jk")
    assert not meld("Jk Jk Jk Jk")
    assert dw("Jk Jk Jk") == 45


def test_1_3_jokers_unused_count_their_value():
    assert dw("Jk Jk") == 30
    assert dw("Jk 2h 9c") == 15 + 2 + 9  # no two cards go with the joker
    assert dw("Ks Jk Jk") == 0  # K + two jokers is a group
    assert dw("Ks Kh Kd Jk") == 0  # joker as the fourth king
    values = baseline_values(joker=25)
    assert dw("Jk 2h 9c", values=values) == 25 + 2 + 9


def test_1_3_joker_unused_when_no_suit_is_missing():
    # Without duplicates a group holds at most 4 cards, and two groups need 6 cards:
    # Ks Kh Kd Kc leaves the joker (15), Ks Kh Kd Jk leaves a king (10),
    # Ks Kh Jk leaves two kings (20). Best: 10. With duplicates all five are one group.
    assert dw("Ks Kh Kd Kc Jk", dup=False) == 10
    assert dw("Ks Kh Kd Kc Jk", dup=True) == 0  # one group of five


def test_1_3_overlapping_group_and_run():
    # run 5-6-7 (leaves 7h 7d = 14) or group 7-7-7 (leaves 5s 6s = 11)
    assert dw("5s 6s 7s 7h 7d") == 11
    # add 8s: run 5-6-7-8 leaves 14; group leaves 5+6+8 = 19
    assert dw("5s 6s 7s 8s 7h 7d") == 14
    # add 9s Ts: group 7-7-7 + run 8-9-T leaves 5+6 = 11; run 5..T leaves 14
    assert dw("5s 6s 7s 8s 9s Ts 7h 7d") == 11


def test_1_13_arrangement_matches_value():
    hand = parse_cards("5s 6s 7s 8s 9s Ts 7h 7d Jk 2c")
    value, melds = min_deadwood_arrangement(hand, ACE_LOW, RUN_SAME_SUIT, False, VALUES)
    # 7s 7h 7d + 8s 9s Ts + 5s 6s Jk (or 5s..Ts + 7h 7d Jk): only 2c is left
    assert value == 2
    assert all(is_meld(m, ACE_LOW, RUN_SAME_SUIT, False) for m in melds)
    assert deadwood_of(hand, melds, VALUES) == value


# ---- §2A.4 ace_rank -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ace, a23, qka, ka2",
    [
        (ACE_LOW, True, False, False),
        (ACE_HIGH, False, True, False),
        (ACE_HIGH_OR_LOW, True, True, False),
        (ACE_AROUND_CORNER, True, True, True),
    ],
)
def test_2A_4_ace_rank_runs(ace, a23, qka, ka2):
    assert meld("As 2s 3s", ace) == a23
    assert meld("Qs Ks As", ace) == qka
    assert meld("Ks As 2s", ace) == ka2
    assert meld("Ks As 2s 3s", ace) == ka2
    assert meld("Js Qs Ks As 2s", ace) == ka2
    assert dw("As 2s 3s", ace) == (0 if a23 else 6)
    assert dw("Qs Ks As", ace) == (0 if qka else 21)
    assert dw("Ks As 2s", ace) == (0 if ka2 else 13)


def test_2A_4_ace_low_allows_A23():
    assert meld("As 2s 3s", ACE_LOW)
    assert not meld("Qs Ks As", ACE_LOW)


def test_2A_4_ace_high_allows_QKA():
    assert meld("Qs Ks As", ACE_HIGH)
    assert meld("Jh Qh Kh Ah", ACE_HIGH)
    assert not meld("As 2s 3s", ACE_HIGH)
    assert meld("2s 3s 4s", ACE_HIGH)


def test_2A_4_ace_high_or_low_never_both_ends():
    assert meld("As 2s 3s", ACE_HIGH_OR_LOW)
    assert meld("Qs Ks As", ACE_HIGH_OR_LOW)
    assert not meld("Ks As 2s", ACE_HIGH_OR_LOW)
    assert meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", ACE_HIGH_OR_LOW)
    assert meld("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As", ACE_HIGH_OR_LOW)
    # a joker cannot add the second ace: 14 positions
    assert not meld("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks Jk", ACE_HIGH_OR_LOW)
    # a joker standing for the ace at the other end: Jk 2 .. K A is 13 positions? No:
    # Jk(A) 2..K A would be 14; Jk as the ace with 2..K is the low or high 13-card run
    assert meld("Jk 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", ACE_HIGH_OR_LOW)


def test_2A_4_ace_high_or_low_two_aces_in_two_runs():
    # two packs: As 2s 3s and 4s .. Ks As (the second ace high)
    hand = "As As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"
    assert dw(hand, ACE_HIGH_OR_LOW) == 0
    assert dw(hand, ACE_AROUND_CORNER) == 0
    assert dw(hand, ACE_LOW) == 1  # the second ace stays
    assert dw(hand, ACE_HIGH) == 1
    values = baseline_values(ace=15)
    assert dw(hand, ACE_HIGH, values=values) == 15


def test_2A_4_around_corner_cyclic():
    assert meld("Ks As 2s", ACE_AROUND_CORNER)
    assert meld("Qd Kd Ad 2d 3d", ACE_AROUND_CORNER)
    assert meld("Ks Jk 2s", ACE_AROUND_CORNER)  # joker as the ace
    assert not meld("Ks Jk 2s", ACE_HIGH_OR_LOW)
    # all 13 ranks from any start; 14 would repeat a rank
    assert meld("8c 9c Tc Jc Qc Kc Ac 2c 3c 4c 5c 6c 7c", ACE_AROUND_CORNER)
    assert not meld("Kc Ac 2c Kc", ACE_AROUND_CORNER, dup=True)


def test_2A_4_around_corner_ace_value_counts():
    values = baseline_values(ace=11)
    assert dw("Ks As 2s 9h", ACE_AROUND_CORNER, values=values) == 9
    assert dw("Ks As 2s 9h", ACE_LOW, values=values) == 10 + 11 + 2 + 9


# ---- §2A.6 run_suit -----------------------------------------------------------------------


def test_2A_6_any_suit_runs():
    assert not meld("4s 5h 6d", suit=RUN_SAME_SUIT)
    assert meld("4s 5h 6d", suit=RUN_ANY_SUIT)
    assert meld("Qs Kh Ad", ACE_HIGH, RUN_ANY_SUIT)
    assert not meld("4s 5h 5d", suit=RUN_ANY_SUIT)  # still one card per rank
    assert dw("4s 5h 6d", suit=RUN_ANY_SUIT) == 0
    assert dw("4s 5h 6d", suit=RUN_SAME_SUIT) == 15


# ---- §2B.9 group_duplicates -----------------------------------------------------------------


def test_2B_9_group_duplicates():
    assert not meld("7s 7s 7h", dup=False)
    assert meld("7s 7s 7h", dup=True)
    assert meld("7s 7s 7s", dup=True)
    assert meld("7s 7s 7h 7h 7d 7c", dup=True)  # more than four
    assert meld("7s 7s Jk Jk Jk", dup=True)
    assert not meld("7s 7s Jk", dup=False)
    assert dw("7s 7s 7h", dup=False) == 21
    assert dw("7s 7s 7h", dup=True) == 0


def test_2B_9_duplicates_in_two_runs():
    for dup in (False, True):
        assert dw("4s 5s 6s 4s 5s 6s", dup=dup) == 0


def test_2B_9_eight_of_a_rank():
    hand = "7s 7s 7h 7h 7d 7d 7c 7c"
    assert dw(hand, dup=True) == 0
    assert dw(hand, dup=False) == 0  # two groups 7s 7h 7d 7c


# ---- §2D.19 melds_per_turn (max_melds) ---------------------------------------------------------


def test_2D_19_one_meld_takes_most_valuable():
    hand = "Ks Kh Kd 2c 3c 4c"
    assert dw(hand) == 0
    assert dw(hand, max_melds=1) == 9  # the kings (30) rather than 2-3-4 (9)
    assert dw(hand, max_melds=2) == 0


def test_2D_19_one_meld_may_be_longest():
    # one meld: 5..T of spades (45) beats 7-7-7 (21); unlimited splits 777 + 8-9-T
    hand = "5s 6s 7s 8s 9s Ts 7h 7d"
    assert dw(hand) == 11
    assert dw(hand, max_melds=1) == 14
    assert dw(hand, max_melds=0) == 11


def test_2D_19_max_melds_counts_melds():
    assert dw("Jk Jk", max_melds=1) == 30
    assert dw("As 2s 3s 4d 5d 6d", max_melds=1) == 6
    assert dw("As 2s 3s 4d 5d 6d", max_melds=2) == 0


# ---- the generator and the search against brute forces --------------------------------------


def brute_melds(hand, ace, suit, dup):
    """Every sub-multiset of the hand that is_meld accepts (no pruning at all)."""
    count = Counter(hand)
    kinds = sorted(count)
    found = set()
    for picks in itertools.product(*(range(count[k] + 1) for k in kinds)):
        cand = tuple(k for k, c in zip(kinds, picks, strict=True) for _ in range(c))
        if is_meld(cand, ace, suit, dup):
            found.add(cand)
    return found


def brute_min_deadwood(hand, ace, suit, dup, values, max_melds=0):
    """Try every collection of disjoint melds (no memo, no smallest-card rule)."""
    melds = sorted(brute_melds(hand, ace, suit, dup))
    total = sum(values[k] for k in hand)
    best = total

    def go(i, left: Counter, saved, used):
        nonlocal best
        best = min(best, total - saved)
        if max_melds and used == max_melds:
            return
        for j in range(i, len(melds)):
            need = Counter(melds[j])
            if all(left[k] >= c for k, c in need.items()):
                go(j, left - need, saved + sum(values[k] for k in melds[j]), used + 1)

    go(0, Counter(hand), 0, 0)
    return best


CONFIGS = [
    (ace, suit, dup, decks, jokers)
    for ace in ACES
    for suit in (RUN_SAME_SUIT, RUN_ANY_SUIT)
    for dup, decks, jokers in ((False, 1, 0), (False, 1, 2), (False, 2, 3), (True, 2, 3))
]


@pytest.mark.parametrize("ace, suit, dup, decks, jokers", CONFIGS)
def test_1_3_all_melds_equals_brute_force(ace, suit, dup, decks, jokers):
    rng = random.Random(hash((ace, suit, dup, decks, jokers)) & 0xFFFF)
    # dense hands: cards from a few ranks so that many melds exist
    for _ in range(60):
        ranks = rng.sample(range(13), 5) if rng.random() < 0.5 else list(range(13))
        pool = [k for k in shoe(decks, jokers) if k == JOKER or k // 4 in ranks]
        hand = sorted(rng.sample(pool, 8))
        assert all_melds(hand, ace, suit, dup) == brute_melds(hand, ace, suit, dup), hand


@pytest.mark.parametrize("ace, suit, dup, decks, jokers", CONFIGS)
def test_1_13_search_equals_brute_force(ace, suit, dup, decks, jokers):
    rng = random.Random(hash((ace, suit, dup, decks, jokers, 1)) & 0xFFFF)
    for i in range(45):
        ranks = rng.sample(range(13), 5)
        pool = [k for k in shoe(decks, jokers) if k == JOKER or k // 4 in ranks]
        hand = sorted(rng.sample(pool, 9))
        values = baseline_values(ace=rng.choice([1, 11, 15]), joker=rng.choice([15, 25]))
        max_melds = i % 3  # 0 (unlimited), 1, 2
        got, melds = min_deadwood_arrangement(hand, ace, suit, dup, values, max_melds)
        assert got == brute_min_deadwood(hand, ace, suit, dup, values, max_melds), hand
        assert deadwood_of(hand, melds, values) == got
        assert all(is_meld(m, ace, suit, dup) for m in melds)
        assert not max_melds or len(melds) <= max_melds


def test_1_1_random_hand_draws_from_the_shoe():
    rng = random.Random(5)
    for decks, jokers in ((1, 0), (1, 2), (2, 4)):
        available = Counter(shoe(decks, jokers))
        for _ in range(200):
            hand = random_hand(rng, 11, decks, jokers)
            assert len(hand) == 11
            assert all(c <= available[k] for k, c in Counter(hand).items())
    assert sorted(random_hand(random.Random(1), 54, 1, 2)) == shoe(1, 2)


def test_predicates_agree_with_is_meld():
    assert is_group(parse_cards("7s 7h Jk"), False)
    assert not is_run(parse_cards("7s 7h Jk"), ACE_LOW, RUN_SAME_SUIT)
    assert is_run(parse_cards("7s 8s Jk"), ACE_LOW, RUN_SAME_SUIT)
    assert not is_group(parse_cards("7s 8s Jk"), True)
