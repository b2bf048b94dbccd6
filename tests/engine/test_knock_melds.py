"""The knock family's deadwood and lay-off kernels against the brute-force oracle (RULES.md
§1.13, §3.17 open point 3): random hands of 7 to 12 cards under every ace rule the knock
family takes."""

from __future__ import annotations

import itertools
import random

import pytest

from sim.cards import parse_cards
from sim.engine import layout as L
from sim.engine.knock_melds import ANY_SUIT_RULE, arrange, arrange_spans, defend, defend_any
from tests.engine.knock_hands import (
    ACES,
    ANY_SUIT_ACES,
    cards_of,
    mask_of,
    position_of,
    random_hand,
    runs_from_spans,
    values_for,
)
from tests.oracles import deadwood as oracle


def _check_arrangement(hand, ace, values, dw, groups, runs):
    assert groups & runs == 0 and (groups | runs) & ~mask_of(hand) == 0
    ranks = {}
    for k in cards_of(groups):
        ranks.setdefault(k // 4, []).append(k)
    for cards in ranks.values():
        assert oracle.is_group(cards, False)
    by_suit = {}
    for k in cards_of(runs):
        by_suit.setdefault(k % 4, []).append(k)
    melded = cards_of(groups | runs)
    assert sum(int(values[k]) for k in hand if k not in melded) == dw
    return by_suit


@pytest.mark.parametrize("ace", ACES)
def test_1_13_arrange_is_the_oracles_minimum_deadwood(ace):
    rng = random.Random(100 + ace)
    values = values_for(ace)
    for _ in range(1500):
        hand = random_hand(rng, rng.choice([7, 10, 11, 12]))
        dw, groups, runs = arrange(mask_of(hand), values, ace)
        assert dw == oracle.min_deadwood(hand, ace, L.RUN_SAME_SUIT, False, values), hand
        _check_arrangement(hand, ace, values, dw, groups, runs)


def test_arrange_contested_ranks():
    values = values_for(L.ACE_LOW)
    # 7s 7h 7d with 8s 9s: the run 7-8-9s leaves 7h 7d (14) < group 777 leaving 8s 9s (17)
    dw, groups, runs = arrange(mask_of(parse_cards("7s 7h 7d 8s 9s")), values, L.ACE_LOW)
    assert (dw, groups, runs) == (14, 0, mask_of(parse_cards("7s 8s 9s")))
    # four 5s, 3s 4s, 6h 7h: the best keeps a group of three 5s less 5h, and 5-6-7h,
    # leaving 3s 4s (7); the whole rank as a group would leave 3+4+6+7 = 20
    hand = parse_cards("5s 5h 5d 5c 3s 4s 6h 7h")
    dw, groups, runs = arrange(mask_of(hand), values, L.ACE_LOW)
    assert dw == oracle.min_deadwood(hand, L.ACE_LOW, 0, False, values) == 3 + 4
    assert groups == mask_of(parse_cards("5s 5d 5c")) and runs == mask_of(parse_cards("5h 6h 7h"))


def _layoff_ok(meld: list[int], card: int, ace: int, suits: int = L.RUN_SAME_SUIT) -> bool:
    grown = [*meld, card]
    return oracle.is_group(grown, False) or oracle.is_run(grown, ace, suits)


def _can_lay_all(
    todo: list[int], table: list[list[int]], ace: int, suits: int = L.RUN_SAME_SUIT
) -> bool:
    """Some order and choice of melds lays off every card of ``todo`` (depth-first)."""
    if not todo:
        return True
    for card in todo:
        for i, meld in enumerate(table):
            if _layoff_ok(meld, card, ace, suits):
                grown = [*table[:i], [*meld, card], *table[i + 1 :]]
                if _can_lay_all([k for k in todo if k != card], grown, ace, suits):
                    return True
    return False


def _brute_defend(defender, melds, ace, values, suits: int = L.RUN_SAME_SUIT):
    """Least deadwood over every set of cards that some sequence of lay-offs can place."""
    best = oracle.min_deadwood(defender, ace, suits, False, values)
    # only cards that fit some meld after some other lay-offs can ever be laid off
    candidates = [
        k
        for k in defender
        if _can_lay_all([k], melds, ace, suits)
        or any(_can_lay_all([j, k], melds, ace, suits) for j in defender if j != k)
        or any(
            _can_lay_all([i, j, k], melds, ace, suits)
            for i in defender
            for j in defender
            if len({i, j, k}) == 3
        )
    ]
    for size in range(1, len(candidates) + 1):
        for laid in itertools.combinations(candidates, size):
            if not _can_lay_all(list(laid), melds, ace, suits):
                continue
            rest = [k for k in defender if k not in laid]
            best = min(best, oracle.min_deadwood(rest, ace, suits, False, values))
    return best


def _melds_of(groups: int, runs: int) -> list[list[int]]:
    melds = []
    ranks = {}
    for k in cards_of(groups):
        ranks.setdefault(k // 4, []).append(k)
    melds += list(ranks.values())
    for suit in range(4):
        cards = [k for k in cards_of(runs) if k % 4 == suit]
        # split a suit's run cards into maximal consecutive runs (ace low/high: linear)
        current: list[int] = []
        for k in cards:
            if current and k // 4 != current[-1] // 4 + 1:
                melds.append(current)
                current = []
            current.append(k)
        if current:
            melds.append(current)
    return melds


@pytest.mark.parametrize("ace", [L.ACE_LOW, L.ACE_HIGH])
def test_3_17_defend_is_the_least_deadwood_over_every_legal_layoff(ace):
    rng = random.Random(7 + ace)
    values = values_for(ace)
    checked = 0
    while checked < 400:
        cards = random_hand(rng, 20)
        knocker, defender = cards[:10], cards[10:]
        _, groups, runs = arrange(mask_of(knocker), values, ace)
        if groups | runs == 0:
            continue
        melds = _melds_of(groups, runs)
        # ace high: the ace sits above the king, which _melds_of does not split; skip those
        if ace == L.ACE_HIGH and any(k // 4 == 0 for k in cards_of(runs)):
            continue
        dw, laid = defend(mask_of(defender), groups, runs, values, ace)
        assert dw == _brute_defend(defender, melds, ace, values), (knocker, defender)
        assert laid & ~mask_of(defender) == 0
        checked += 1


# ---- runs of any suits (RULES.md §2A.6, §3.17 open point 1) ----------------------------------

ANY_SUIT_HANDS = 2000


def _check_any_suit_arrangement(hand, ace, values, arranged) -> list[list[int]]:
    """The arrangement is legal under any-suit runs: groups of 3-4 cards of one rank, runs
    of 3+ cards on consecutive positions (suits free) that match the run ends, disjoint,
    and the deadwood is the value of the rest. Returns the melds."""
    dw, groups, runs, lows, highs = arranged
    assert groups & runs == 0 and (groups | runs) & ~mask_of(hand) == 0
    ranks: dict[int, list[int]] = {}
    for k in cards_of(groups):
        ranks.setdefault(k // 4, []).append(k)
    melds = list(ranks.values())
    assert all(oracle.is_group(cards, False) for cards in melds)
    for run in runs_from_spans(runs, lows, highs, ace):
        positions = [position_of(k, ace) for k in run]
        assert len(run) >= 3 and positions == list(range(positions[0], positions[0] + len(run)))
        assert oracle.is_run(run, ace, L.RUN_ANY_SUIT)
        melds.append(run)
    melded = cards_of(groups | runs)
    assert sum(int(values[k]) for k in hand if k not in melded) == dw
    return melds


@pytest.mark.parametrize("ace", ANY_SUIT_ACES)
def test_2A_6_any_suit_arrange_is_the_oracles_minimum_deadwood_and_legal(ace):
    rng = random.Random(300 + ace)
    values = values_for(ace)
    for _ in range(ANY_SUIT_HANDS):
        hand = random_hand(rng, rng.choice([10, 11]))
        arranged = arrange_spans(mask_of(hand), values, ace)
        assert arranged[0] == oracle.min_deadwood(hand, ace, L.RUN_ANY_SUIT, False, values), hand
        _check_any_suit_arrangement(hand, ace, values, arranged)
        assert arrange(mask_of(hand), values, ace + ANY_SUIT_RULE) == arranged[:3]


def test_3_17_open_point_1_any_suit_runs_take_cards_of_any_suits_and_overlap():
    values = values_for(L.ACE_LOW)
    any_suit = L.ACE_LOW + ANY_SUIT_RULE
    # 5h 6s 7d is a run only when suits are free
    hand = mask_of(parse_cards("5h 6s 7d Kc"))
    assert arrange(hand, values, L.ACE_LOW)[0] == 5 + 6 + 7 + 10
    assert arrange(hand, values, any_suit) == (10, 0, mask_of(parse_cards("5h 6s 7d")))
    # 3 4 4 5 5 6: two overlapping runs, 3-4-5 and 4-5-6, told apart by their ends
    hand = parse_cards("3s 4s 4h 5s 5h 6h")
    dw, groups, runs, lows, highs = arrange_spans(mask_of(hand), values, L.ACE_LOW)
    assert (dw, groups, runs) == (0, 0, mask_of(hand))
    assert sorted(map(sorted, runs_from_spans(runs, lows, highs, L.ACE_LOW))) == [
        sorted(parse_cards("3s 4s 5s")),
        sorted(parse_cards("4h 5h 6h")),
    ]
    # A 2 3 4 5 with two 3s: A-2-3 and 3-4-5 meld all six (one run and a 3 left otherwise)
    hand = parse_cards("Ad 2c 3s 3h 4d 5c")
    assert arrange(mask_of(hand), values, any_suit)[0] == 0


# The knocker's runs 3-4-5 and 4-5-6 (any suits) overlap: as one union of cards they look
# like one run 3..6, which takes only a 2 or a 7. Each run takes its own next card: 6 on
# 3-4-5, 3 on 4-5-6, but not two 6s.
OVERLAP_KNOCKER = "3s 4s 5s 4h 5h 6h Ks Kh Kd 9c"
OVERLAP_DEFENDER = "6d 6c 3d 9d Jd"


def test_3_17_open_point_3_any_suit_layoffs_on_two_overlapping_runs_each_by_its_ends():
    values = values_for(L.ACE_LOW)
    knocker = mask_of(parse_cards(OVERLAP_KNOCKER))
    dw, groups, runs, lows, highs = arrange_spans(knocker, values, L.ACE_LOW)
    assert dw == 9 and groups == mask_of(parse_cards("Ks Kh Kd"))
    defender = parse_cards(OVERLAP_DEFENDER)
    d, laid, groups2, lows2, highs2 = defend_any(
        mask_of(defender), groups, lows, highs, values, L.ACE_LOW
    )
    assert (d, laid) == (6 + 9 + 10, mask_of(parse_cards("3d 6d")))
    assert groups2 == groups
    melds = [sorted(parse_cards("Ks Kh Kd"))]
    melds += runs_from_spans(runs, lows, highs, L.ACE_LOW)
    assert d == _brute_defend(defender, melds, L.ACE_LOW, values, L.RUN_ANY_SUIT)
    # both runs now span 3..6 and take a 2 or a 7 each
    grown = runs_from_spans(runs | laid, lows2, highs2, L.ACE_LOW)
    assert sorted(len(r) for r in grown) == [4, 4]
    d, laid, _, _, _ = defend_any(
        mask_of(parse_cards("7s 7c 2h")), groups, lows2, highs2, values, 0
    )
    assert (d, laid) == (0, mask_of(parse_cards("7s 7c 2h")))


def test_3_17_open_point_3_any_suit_chain_and_group_layoffs_and_a_later_defender():
    values = values_for(L.ACE_LOW)
    knocker = mask_of(parse_cards("5s 6h 7d Ks Kh Kd 2c 2d 2h Qc"))
    dw, groups, runs, lows, highs = arrange_spans(knocker, values, L.ACE_LOW)
    assert dw == 10
    # 8 and 9 of any suits chain onto 5-6-7, 4s goes below it, Kc is the kings' fourth card
    first = mask_of(parse_cards("8c 9s Kc 4s Jh Jd"))
    d, laid, groups, lows, highs = defend_any(first, groups, lows, highs, values, L.ACE_LOW)
    assert (d, laid) == (20, mask_of(parse_cards("8c 9s Kc 4s")))
    assert groups == mask_of(parse_cards("Ks Kh Kd Kc 2c 2d 2h"))
    # a later defender lays off on the cards laid before him: the run is now 4..9
    second = mask_of(parse_cards("3h Td Jc"))
    d, laid, _, _, _ = defend_any(second, groups, lows, highs, values, L.ACE_LOW)
    assert (d, laid) == (0, second)


@pytest.mark.parametrize("ace", ANY_SUIT_ACES)
def test_3_17_defend_any_suit_is_the_least_deadwood_over_every_legal_layoff(ace):
    rng = random.Random(70 + ace)
    values = values_for(ace)
    checked = 0
    while checked < 12:
        cards = random_hand(rng, 20)
        knocker, defender = cards[:10], cards[10:]
        arranged = arrange_spans(mask_of(knocker), values, ace)
        dw, groups, runs, lows, highs = arranged
        if groups | runs == 0:
            continue
        melds = _check_any_suit_arrangement(knocker, ace, values, arranged)
        d, laid, _, _, _ = defend_any(mask_of(defender), groups, lows, highs, values, ace)
        assert d == _brute_defend(defender, melds, ace, values, L.RUN_ANY_SUIT), (knocker, defender)
        assert laid & ~mask_of(defender) == 0
        assert _can_lay_all(cards_of(laid), melds, ace, L.RUN_ANY_SUIT)
        rest = [k for k in defender if k not in cards_of(laid)]
        assert d == oracle.min_deadwood(rest, ace, L.RUN_ANY_SUIT, False, values)
        checked += 1
