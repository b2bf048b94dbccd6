"""The knock family's deadwood and lay-off kernels against the brute-force oracle (RULES.md
§1.13, §3.17 open point 3): random hands of 7 to 12 cards under every ace rule the knock
family takes."""

from __future__ import annotations

import itertools
import random

import pytest

from sim.cards import parse_cards
from sim.engine import layout as L
from sim.engine.knock_melds import arrange, defend
from tests.engine.knock_hands import ACES, cards_of, mask_of, random_hand, values_for
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


def _layoff_ok(meld: list[int], card: int, ace: int) -> bool:
    grown = [*meld, card]
    return oracle.is_group(grown, False) or oracle.is_run(grown, ace, L.RUN_SAME_SUIT)


def _can_lay_all(todo: list[int], table: list[list[int]], ace: int) -> bool:
    """Some order and choice of melds lays off every card of ``todo`` (depth-first)."""
    if not todo:
        return True
    for card in todo:
        for i, meld in enumerate(table):
            if _layoff_ok(meld, card, ace):
                grown = [*table[:i], [*meld, card], *table[i + 1 :]]
                if _can_lay_all([k for k in todo if k != card], grown, ace):
                    return True
    return False


def _brute_defend(defender, melds, ace, values):
    """Least deadwood over every set of cards that some sequence of lay-offs can place."""
    best = oracle.min_deadwood(defender, ace, L.RUN_SAME_SUIT, False, values)
    # only cards that fit some meld after some other lay-offs can ever be laid off
    candidates = [
        k
        for k in defender
        if _can_lay_all([k], melds, ace)
        or any(_can_lay_all([j, k], melds, ace) for j in defender if j != k)
        or any(
            _can_lay_all([i, j, k], melds, ace)
            for i in defender
            for j in defender
            if len({i, j, k}) == 3
        )
    ]
    for size in range(1, len(candidates) + 1):
        for laid in itertools.combinations(candidates, size):
            if not _can_lay_all(list(laid), melds, ace):
                continue
            rest = [k for k in defender if k not in laid]
            best = min(best, oracle.min_deadwood(rest, ace, L.RUN_SAME_SUIT, False, values))
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
