"""The careful bot's knock-family discard (docs/bots.md "careful (a stronger knocker)"):
``completers`` and ``draw_outlook`` against brute force on random hands, and a hand-built
deal on which careful and simple discard differently."""

from __future__ import annotations

import random

import pytest

from sim.cards import parse_cards
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.bits import meldable
from sim.engine.knock_bots import draw_outlook
from sim.engine.knock_melds import (
    ANY_SUIT_RULE,
    arrange,
    completers,
    knock_meldable,
    knock_partial_melds,
)
from tests.engine.knock_hands import (
    ACES,
    ANY_SUIT_ACES,
    cards_of,
    mask_of,
    position_of,
    random_hand,
    values_for,
)
from tests.oracles import deadwood as oracle

from .helpers import compiled, deal, events_of, play_deal

HANDS = 300
ANY_SUIT_RULES = [ace + ANY_SUIT_RULE for ace in ANY_SUIT_ACES]
"""``knock_melds.meld_rule`` under run_suit = any_suit, ace low and high."""


def _after_draw(hand: int, card: int, values, ace: int) -> int:
    """``hand`` plus ``card``, arranged from scratch, less its highest card outside the
    arrangement (the discard simple would make; nothing to throw from a full gin)."""
    with_card = hand | (1 << card)
    dw, groups, runs = arrange(with_card, values, ace)
    outside = cards_of(with_card & ~(groups | runs))
    return dw - max((int(values[k]) for k in outside), default=0)


def _least_after_draw(hand: int, card: int, values, ace: int) -> int:
    """The least deadwood of ``hand`` plus ``card`` less any one card."""
    with_card = hand | (1 << card)
    return min(arrange(with_card & ~(1 << d), values, ace)[0] for d in cards_of(with_card))


@pytest.mark.parametrize("ace", ACES)
def test_completers_are_the_cards_that_would_meld(ace):
    rng = random.Random(7 + ace)
    for _ in range(3000):
        hand = mask_of(random_hand(rng, rng.randrange(1, 12)))
        expected = 0
        for u in range(52):
            if not (hand >> u) & 1 and (meldable(hand | (1 << u), ace) >> u) & 1:
                expected |= 1 << u
        assert completers(hand, ace) == expected, cards_of(hand)


@pytest.mark.parametrize("ace", ACES + ANY_SUIT_RULES)
def test_draw_outlook_sums_the_deadwood_after_each_draw_and_simples_discard(ace):
    rng = random.Random(31 + ace)
    values = values_for(ace % ANY_SUIT_RULE)
    exact = 0
    for _ in range(HANDS):
        cards = random_hand(rng, 10)
        hand = mask_of(cards)
        rest = [k for k in range(52) if k not in cards]
        unseen = mask_of(rng.sample(rest, rng.randrange(1, len(rest) + 1)))
        draws = cards_of(unseen)
        expected = sum(_after_draw(hand, u, values, ace) for u in draws)
        assert draw_outlook(hand, unseen, values, ace) == expected, cards
        least = sum(_least_after_draw(hand, u, values, ace) for u in draws)
        exact += expected == least
        assert expected >= least
    # another arrangement of equal deadwood may hold a higher card to throw: rarely
    assert exact >= 0.95 * HANDS


def _in_any_suit_meld(hand: list[int], card: int, ace: int) -> bool:
    """``card`` is in a meld of ``hand`` plus ``card`` under any-suit runs: two more of its
    rank, or cards of the other two positions of a three-position window through it."""
    if sum(k // 4 == card // 4 for k in hand if k != card) >= 2:
        return True
    held = {position_of(k, ace) for k in hand if k != card}
    pos = position_of(card, ace)
    return any(
        {first, first + 1, first + 2} - {pos} <= held
        for first in range(pos - 2, pos + 1)
        if first >= 0 and first + 2 < 13
    )


def _partial_any_suit(hand: list[int], card: int, ace: int) -> bool:
    """docs/bots.md: another card of its rank, or a card of any suit at most two run
    positions away."""
    pos = position_of(card, ace)
    return any(
        k != card and (k // 4 == card // 4 or 0 < abs(position_of(k, ace) - pos) <= 2) for k in hand
    )


@pytest.mark.parametrize("ace", ANY_SUIT_ACES)
def test_2A_6_any_suit_completers_meldable_and_partial_melds_by_the_rule(ace):
    rng = random.Random(17 + ace)
    rule = ace + ANY_SUIT_RULE
    for _ in range(1500):
        cards = random_hand(rng, rng.randrange(1, 12))
        hand = mask_of(cards)
        outside = [u for u in range(52) if u not in cards]
        expected = mask_of([u for u in outside if _in_any_suit_meld(cards, u, ace)])
        assert completers(hand, rule) == expected, cards
        melding = mask_of([k for k in cards if _in_any_suit_meld(cards, k, ace)])
        assert knock_meldable(hand, rule) == melding, cards
        partial = mask_of([k for k in cards if _partial_any_suit(cards, k, ace)])
        assert knock_partial_melds(hand, rule) == partial, cards


@pytest.mark.parametrize("ace", ANY_SUIT_ACES)
def test_2A_6_any_suit_meldable_is_the_oracles_every_card_in_some_meld(ace):
    rng = random.Random(23 + ace)
    for _ in range(200):
        cards = random_hand(rng, rng.randrange(3, 12))
        melds = oracle.all_melds(cards, ace, L.RUN_ANY_SUIT, False)
        in_some = mask_of({k for meld in melds for k in meld})
        assert knock_meldable(mask_of(cards), ace + ANY_SUIT_RULE) == in_some, cards


@pytest.mark.parametrize("rule", ANY_SUIT_RULES)
def test_any_suit_a_card_in_no_meld_leaves_the_arrangement_as_it_was(rule):
    """What ``knock_bots.arrange_kept``/``draw_outlook`` rely on: a card in no meld of the
    hand plus it adds its value to the deadwood and changes nothing else, ties included."""
    rng = random.Random(5 + rule)
    values = values_for(rule % ANY_SUIT_RULE)
    checked = 0
    while checked < 1000:
        cards = random_hand(rng, 11)
        hand, card = mask_of(cards[:10]), cards[10]
        with_card = hand | (1 << card)
        if (knock_meldable(with_card, rule) >> card) & 1:
            continue
        dw, groups, runs = arrange(hand, values, rule)
        assert arrange(with_card, values, rule) == (dw + int(values[card]), groups, runs)
        checked += 1


# Seat 0 (the non-dealer) takes the upcard 8d into 6d-7d-8d-9d and must then discard one of
# Kh Ks Jd 9s 5c 2d Ac (deadwood 47: no knock). simple throws its highest card, a king;
# careful keeps the pair of kings (two cards would make it a group) and throws Jd (one card,
# Td, would join it to the run).
CAREFUL_HAND = "9d 5c Jd 6d 7d 2d Kh Ks Ac 9s"
CAREFUL_UPCARD = "8d"
OPPONENT = "Ah 2h 4h 6h 8h Ts Js 2s 4s 6s"


def _first_discard(bot: int, hand: str, upcard: str) -> int:
    params, values = compiled("gin_rummy", 2)
    out = play_deal(deal([hand, OPPONENT], upcard), params, values, [bot, L.BOT_SIMPLE])
    assert int(out.counters[L.C_VIOLATIONS]) == 0
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_cards(upcard)[0])
    return events_of(out, S.E_DISCARD)[0][1]


@pytest.mark.nojit
def test_bots_careful_discards_for_the_best_next_draw_where_simple_throws_its_highest():
    hand, upcard = CAREFUL_HAND, CAREFUL_UPCARD
    params, values = compiled("gin_rummy", 2)
    ace = int(params[L.P_ACE_RANK])
    held = mask_of(parse_cards(hand) + parse_cards(upcard))
    unseen = ((1 << 52) - 1) & ~held  # seat 0 has seen only its own cards and the upcard
    _, groups, runs = arrange(held, values, ace)
    outside = cards_of(held & ~(groups | runs))
    outlook = {
        c: sum(_after_draw(held & ~(1 << c), u, values, ace) for u in cards_of(unseen))
        for c in outside
    }
    best = min(outlook.values())
    careful = _first_discard(L.BOT_CAREFUL, hand, upcard)
    simple = _first_discard(L.BOT_SIMPLE, hand, upcard)
    assert outlook[careful] == best
    assert simple == max(outside, key=lambda c: (int(values[c]), c))
    assert outlook[simple] > best  # the two policies differ on this deal
    assert parse_cards("Jd") == [careful]
