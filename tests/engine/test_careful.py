"""The careful bot's stated policy (docs/bots.md, "careful"), on the engine: in
standard rummy, hand-built deals where it parts from greedy (draw, table, discard) and its
extra take of a low connector; in the knock family, ``draw_outlook`` against a brute force
and a deal on which careful and simple discard differently. The port of
tests/engine/test_careful_bot.py and test_knock_bots.py.

Careful counts outs: cards it has not seen (not in its hand, the discard pile or the table)
that would meld with its hand (``sim.engine.careful``, ``sim.engine.knock_policy``).
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import melds as M
from sim.engine import state as S
from sim.engine.api import kernel_bots
from sim.engine.bots import wants_discard
from sim.engine.knock_policy import (
    DANGER_POINTS,
    KEEP_EARLY,
    KEEP_FADE,
    draw_outlook,
    meld_danger,
    outlook_choice,
)
from sim.engine.layoffs import arrange_mask, cannot_meld
from sim.engine.specs import GENERIC

from .helpers import (
    CAREFUL,
    GREEDY,
    SIMPLE,
    cards_of,
    compiled,
    deal,
    events_of,
    mask_of,
    no_violations,
    play_deal,
)


def _first(out, etype, seat):
    """The ``a`` of ``seat``'s first event of ``etype`` (a card for draws and discards)."""
    return next(a for who, a, _b, _cards in events_of(out, etype) if who == seat)


def _first_turn(out, seat):
    """``seat``'s events of his first turn, up to his first discard: (type, a, cards)."""
    turn = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if who != seat or etype in (S.E_DEAL, S.E_UPCARD):
            continue
        n = int(row[S.EV_N])
        turn.append((etype, int(row[S.EV_A]), [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + n]]))
        if etype == S.E_DISCARD:
            return turn
    raise AssertionError("no discard")


# Seat 1 (greedy, first to play) lays down 8h 8d 8c and Jh Jd Jc and discards Ks. Seat 0
# draws 6s. 9h Th are a partial meld for greedy, so it throws 7c, its only loose card; for
# careful the only cards that would meld with 9h Th (8h and Jh) are on the table: Th gives
# up no out and is worth the most.
_DEAD_PARTIAL = deal(
    ["9h Th 7c 2s 2d 3c 4c 5s 5d Ac", "Jh Jd Jc 8h 8d 8c Ks 2h 4h 6d"],
    "Qs",
    "9c 6s 7d 7s Kc Kh",
    dealer=0,
)


@pytest.mark.nojit
@pytest.mark.parametrize(("bot", "discard"), [(GREEDY, "7c"), (CAREFUL, "Th")])
def test_careful_throws_a_partial_meld_whose_outs_are_on_the_table(bot, discard):
    params, values = compiled()
    out = play_deal(_DEAD_PARTIAL, params, values, bots=[bot, GREEDY])
    melds = [sorted(e[3]) for e in events_of(out, S.E_MELD) if e[0] == 1][:2]
    assert sorted(melds) == sorted(
        [sorted(parse_cards("8h 8d 8c")), sorted(parse_cards("Jh Jd Jc"))]
    )
    assert _first(out, S.E_DISCARD, 1) == parse_card("Ks")
    assert _first(out, S.E_DRAW_STOCK, 0) == parse_card("6s")
    assert _first(out, S.E_DISCARD, 0) == parse_card(discard)
    no_violations(out)


# Seat 0 plays first; the upcard 4h melds with nothing, but beside 3h it brings two outs
# (2h and 5h, both unseen) and is worth 4 points: careful takes it, greedy draws the stock.
_LOW_CONNECTOR = deal(
    ["3h Kc Qd 9s 7c Jd 2s 6d 8h Tc", "Ah As Ad 5c 5s Js Qh Ks 9d 7d"],
    "4h",
    "Kd 2c 3c 3d 4s 6c",
    dealer=1,
)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("bot", "draw"), [(GREEDY, (S.E_DRAW_STOCK, "Kd")), (CAREFUL, (S.E_DRAW_DISCARD, "4h"))]
)
def test_careful_takes_a_low_discard_that_adds_two_outs(bot, draw):
    params, values = compiled()
    out = play_deal(_LOW_CONNECTOR, params, values, bots=[bot, GREEDY])
    assert _first_turn(out, 0)[0][:2] == (draw[0], parse_card(draw[1]))
    no_violations(out)


# Under going rummy (@004) careful holds its melds early in the hand (docs/bots.md). Seat 0
# draws 2c and holds 5h 6h 7h. By value and outs alone 7h would go (7 points less 4 for the
# out 8h: 3), above every card outside the run (Ks, Kd, Tc, 2c: 2; each pair gives up two
# outs); a card of a held meld goes only when nothing else may, so careful discards Kd (the
# higher kind of the ties). Greedy lays the run down.
_HELD_RUN = deal(
    ["5h 6h 7h 9d 9s Tc Ts Ks Kd As", "Kc Qd Qh Jc Js 8s 8d 2h 4h 3c"],
    "Qc",
    "2c 6c 5c 2d 6d 7d",
    dealer=1,
)


@pytest.mark.nojit
def test_careful_holding_for_a_rummy_keeps_its_held_melds_in_hand():
    params, values = compiled("rummy_basic@004")
    greedy = _first_turn(play_deal(_HELD_RUN, params, values, bots=[GREEDY, GREEDY]), 0)
    assert [e[0] for e in greedy] == [S.E_DRAW_STOCK, S.E_MELD, S.E_DISCARD]
    out = play_deal(_HELD_RUN, params, values, bots=[CAREFUL, GREEDY])
    careful = _first_turn(out, 0)
    assert [e[0] for e in careful] == [S.E_DRAW_STOCK, S.E_DISCARD]
    assert careful[-1][1] == parse_card("Kd")
    no_violations(out)


def _position(params, held: str, stock_n: int, picked: bool):
    """Seat 0 holds ``held``; the discard pile is Ks 4h (4h on top); ``stock_n`` cards are
    left in the stock; ``picked``: seat 0 took 4h from the discard pile earlier in the hand."""
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    st[S.R_SC, S.C_TAKEN] = -1
    for k in parse_cards(held):
        S.give(GENERIC, params, st, 0, k)
    for i, k in enumerate(parse_cards("Ks 4h")):
        piles[S.PILE_DISCARD, i] = k
    st[S.R_SC, S.C_DISCARD_N] = 2
    st[S.R_SC, S.C_STOCK_N] = stock_n
    if picked:
        st[S.R_SEAT, S.S_PICKED] = np.int64(1) << parse_card("4h")
    return st, piles


def _wants(params, values, st, piles, bots) -> bool:
    rng = np.zeros(2, np.uint64)
    seats = kernel_bots(np.array(bots))
    top = parse_card("4h")
    return bool(wants_discard(GENERIC, params, values, seats, st, piles, rng, M.new_work(), 0, top))


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("stock_n", "picked", "takes"), [(20, False, True), (20, True, False), (0, False, False)]
)
def test_careful_takes_a_low_connector_once_a_hand_and_not_from_an_empty_stock(
    stock_n, picked, takes
):
    # docs/bots.md, careful's draw: the extra take (worth <= 5, adds >= 2 outs) is never of a
    # card the player took from the pile before, and never when the stock is empty (then only
    # greedy's rule applies and the stock is rebuilt); greedy never takes it.
    params, values = compiled()
    st, piles = _position(params, "3h Kc Qd 9s 7c Jd 2s 6d 8h Tc", stock_n, picked)
    assert _wants(params, values, st, piles, [CAREFUL, GREEDY]) == takes
    assert not _wants(params, values, st, piles, [GREEDY, GREEDY])


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("overrides", "takes"), [({"decks": 2}, True), ({"run_suit": "any_suit"}, False)]
)
def test_careful_makes_no_extra_take_under_any_suit_runs(overrides, takes):
    # docs/bots.md, careful under run_suit = any_suit: nearly every card has several outs, so
    # the extra take (a discard worth <= 5 that adds >= 2 outs) is never made; with two packs
    # the same take stands. 4h melds with nothing held in either game (no 2 or 5 in hand),
    # so only the extra rule could take it.
    params, values = compiled(**overrides)
    st, piles = _position(params, "3h Kc Qd 9s 7c Jd Ts 6d 8h As", 20, False)
    assert _wants(params, values, st, piles, [CAREFUL, GREEDY]) == takes


# ---- the knock family (docs/bots.md, "careful (a stronger knocker)") -------------------------

KNOCK_ACES = ["low", "high", "around_corner"]


def _random_hand(rng: random.Random, n: int) -> list[int]:
    """``n`` distinct cards; half the hands from a narrow band of ranks, where melds and
    contested ranks are common."""
    pool = list(range(52)) if rng.random() < 0.5 else list(range(rng.randrange(0, 24), 52))
    pool = pool[:28] if len(pool) > 28 and rng.random() < 0.5 else pool
    return rng.sample(pool, n)


def _arrange(params, values, work, mask: int) -> tuple[int, int]:
    dw, melded = arrange_mask(GENERIC, params, values, work, np.int64(mask))
    return int(dw), int(melded)


def _after_draw(params, values, work, hand: int, card: int) -> int:
    """``hand`` plus ``card``, arranged from scratch, less its highest card outside the
    arrangement (the discard simple would make; nothing to throw from a full gin)."""
    with_card = hand | (1 << card)
    dw, melded = _arrange(params, values, work, with_card)
    return dw - max((int(values[k]) for k in cards_of(with_card & ~melded)), default=0)


def _least_after_draw(params, values, work, hand: int, card: int) -> int:
    """The least deadwood of ``hand`` plus ``card`` less any one card."""
    with_card = hand | (1 << card)
    rests = (with_card & ~(1 << d) for d in cards_of(with_card))
    return min(_arrange(params, values, work, rest)[0] for rest in rests)


@pytest.mark.nojit
@pytest.mark.parametrize("ace", KNOCK_ACES)
def test_draw_outlook_sums_the_deadwood_after_each_draw_and_simples_discard(ace):
    params, values = compiled("gin_rummy", 2, ace_rank=ace)
    work = M.new_work()
    rng = random.Random(31 + KNOCK_ACES.index(ace))
    hands = 30 if numba.config.DISABLE_JIT else 300
    exact = 0
    for _ in range(hands):
        cards = _random_hand(rng, 10)
        hand = mask_of(cards)
        rest = [k for k in range(52) if k not in cards]
        unseen = mask_of(rng.sample(rest, rng.randrange(1, len(rest) + 1)))
        draws = cards_of(unseen)
        expected = sum(_after_draw(params, values, work, hand, u) for u in draws)
        got = draw_outlook(GENERIC, params, values, work, np.int64(hand), np.int64(unseen))
        assert int(got) == expected, cards
        least = sum(_least_after_draw(params, values, work, hand, u) for u in draws)
        exact += expected == least
        assert expected >= least
    # another arrangement of equal deadwood may hold a higher card to throw: rarely
    assert exact >= 0.95 * hands


@pytest.mark.nojit
@pytest.mark.parametrize("ace", KNOCK_ACES)
def test_a_card_in_no_meld_leaves_the_arrangement_as_it_was(ace):
    """What ``draw_outlook`` relies on: a card in no meld of the hand plus it adds its value
    to the deadwood and changes nothing else, ties included."""
    params, values = compiled("gin_rummy", 2, ace_rank=ace)
    work = M.new_work()
    rng = random.Random(5 + KNOCK_ACES.index(ace))
    checked = 0
    while checked < (100 if numba.config.DISABLE_JIT else 1000):
        cards = _random_hand(rng, 11)
        hand, card = mask_of(cards[:10]), cards[10]
        with_card = hand | (1 << card)
        if not cannot_meld(GENERIC, params, work, np.int64(with_card), np.int64(1) << card):
            continue
        dw, melded = _arrange(params, values, work, hand)
        assert _arrange(params, values, work, with_card) == (dw + int(values[card]), melded)
        checked += 1


# Seat 0 (the non-dealer) takes the upcard 8d into 6d-7d-8d-9d and must then discard one of
# Kh Ks Jd 9s 5c 2d Ac (deadwood 47: no knock). simple throws its highest card, a king;
# careful keeps the pair of kings (two cards would make it a group) and throws Jd (one card,
# Td, would join it to the run).
CAREFUL_HAND = "9d 5c Jd 6d 7d 2d Kh Ks Ac 9s"
CAREFUL_UPCARD = "8d"
OPPONENT = "Ah 2h 4h 6h 8h Ts Js 2s 4s 6s"


def _first_discard(bot: int) -> int:
    params, values = compiled("gin_rummy", 2)
    out = play_deal(deal([CAREFUL_HAND, OPPONENT], CAREFUL_UPCARD), params, values, [bot, SIMPLE])
    no_violations(out)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card(CAREFUL_UPCARD))
    return events_of(out, S.E_DISCARD)[0][1]


@pytest.mark.nojit
def test_bots_careful_discards_for_the_best_next_draw_where_simple_throws_its_highest():
    params, values = compiled("gin_rummy", 2)
    work = M.new_work()
    held = mask_of(parse_cards(CAREFUL_HAND) + parse_cards(CAREFUL_UPCARD))
    unseen = ((1 << 52) - 1) & ~held  # seat 0 has seen only its own cards and the upcard
    _, melded = _arrange(params, values, work, held)
    outside = cards_of(held & ~melded)
    outlook = {
        c: sum(_after_draw(params, values, work, held & ~(1 << c), u) for u in cards_of(unseen))
        for c in outside
    }
    best = min(outlook.values())
    careful = _first_discard(CAREFUL)
    simple = _first_discard(SIMPLE)
    # the next player has taken nothing and the pile is empty: each unseen card is his with
    # chance 10/41, and careful's choice is the least outlook plus its danger plus the keep
    # term of the hand's first turn (turn 0: it took the upcard)
    n = popcount_int(unseen)
    key = {
        c: (
            outlook[c]
            + DANGER_POINTS * n * _danger_oracle(unseen, 0, 0, 10 / n, c)
            + KEEP_EARLY * n * int(values[c])
        )
        * 64
        - int(values[c])
        for c in outside
    }
    assert careful == min(outside, key=lambda c: (key[c], -c))
    assert outlook[careful] == best  # here neither term outweighs the outlook
    assert simple == max(outside, key=lambda c: (int(values[c]), c))
    assert outlook[simple] > best  # the two policies differ on this deal
    assert careful == parse_card("Jd")


def popcount_int(mask: int) -> int:
    return bin(mask).count("1")


def _danger_oracle(unseen: int, known: int, pile: int, p: float, card: int) -> float:
    """``meld_danger`` by enumeration: every way the next player can hold the cards that
    could meld with ``card`` (each his surely if ``known``, with chance ``p`` if ``unseen``),
    and the chance that he holds a whole pair of them that the pile does not rule out."""
    rank, suit = divmod(card, 4)
    pairs = []
    if not any(pile >> (rank * 4 + t) & 1 for t in range(4)):
        others = [rank * 4 + t for t in range(4) if t != suit]
        pairs += [(x, y) for i, x in enumerate(others) for y in others[i + 1 :]]
    runs = [(-2, -1, -3), (-1, 1, None), (1, 2, 3)]  # the pair's offsets, the pile's card
    for lo, hi, dead in runs:
        if not (rank + lo >= 0 and rank + hi <= 12):
            continue
        if dead is not None and 0 <= rank + dead <= 12 and pile >> (card + 4 * dead) & 1:
            continue
        pairs.append((card + 4 * lo, card + 4 * hi))
    cards = sorted({k for pair in pairs for k in pair})

    def chance(k: int) -> float:
        return 1.0 if known >> k & 1 else p if unseen >> k & 1 else 0.0

    total = 0.0
    for bits in range(1 << len(cards)):
        holds = {k for i, k in enumerate(cards) if bits >> i & 1}
        weight = 1.0
        for k in cards:
            weight *= chance(k) if k in holds else 1 - chance(k)
        if any(x in holds and y in holds for x, y in pairs):
            total += weight
    return total


@pytest.mark.nojit
def test_meld_danger_matches_an_enumeration_of_the_next_players_hands():
    rng = random.Random(2026_12_07)
    for _ in range(300 if numba.config.DISABLE_JIT else 3000):
        masks = [rng.getrandbits(52) & rng.getrandbits(52) for _ in range(3)]
        unseen, known, pile = masks[0], masks[1] & ~masks[0], masks[2] & ~masks[0] & ~masks[1]
        card = rng.randrange(52)
        p = rng.random()
        got = meld_danger(np.int64(unseen), np.int64(known), np.int64(pile), p, card)
        assert got == pytest.approx(_danger_oracle(unseen, known, pile, p, card), abs=1e-12)


def _discard_positions(params, values, work, seed):
    """Random knock-family discard positions for ``outlook_choice``: ``(hand, pile, unseen,
    known, outside)``: an 11-card hand with two or more cards outside its arrangement
    (``outside``, kinds), a discard pile of 0 to 11 cards, 0 to 2 cards the next player is
    known to hold, the rest unseen (masks)."""
    rng = random.Random(seed)
    for _ in range(40 if numba.config.DISABLE_JIT else 400):
        cards = _random_hand(rng, 25)
        hand = mask_of(cards[:11])
        pile = mask_of(cards[11 : 11 + rng.randrange(0, 12)])
        unseen = ((1 << 52) - 1) & ~hand & ~pile
        known = mask_of(rng.sample(cards_of(unseen), rng.randrange(0, 3)))
        unseen &= ~known
        _, melded = _arrange(params, values, work, hand)
        outside = cards_of(hand & ~melded)
        if len(outside) >= 2:
            yield hand, pile, unseen, known, outside


def _outlooks(params, values, work, hand, unseen, outside):
    """Each card of ``outside``: ``draw_outlook`` of ``hand`` without it."""
    return {
        c: int(
            draw_outlook(
                GENERIC, params, values, work, np.int64(hand & ~(1 << c)), np.int64(unseen)
            )
        )  # fmt: skip
        for c in outside
    }


@pytest.mark.nojit
def test_careful_in_the_knock_family_avoids_feeding_the_next_player():
    """The danger term (docs/bots.md, "careful (a stronger knocker)") changes careful's
    discard: over random positions, ``outlook_choice`` with ``DANGER_POINTS`` is the
    oracle's least outlook-plus-danger, with 0 the least outlook, and the two differ."""
    params, values = compiled("gin_rummy", 2)
    work = M.new_work()
    differ = 0
    for hand, pile, unseen, known, outside in _discard_positions(params, values, work, 77):
        n = popcount_int(unseen)
        p = min(1.0, (10 - popcount_int(known)) / n)
        outlook = _outlooks(params, values, work, hand, unseen, outside)
        choices = []
        for points in (DANGER_POINTS, 0.0):
            key = {
                c: (outlook[c] + points * n * _danger_oracle(unseen, known, pile, p, c)) * 64
                - int(values[c])
                for c in outside
            }
            got = outlook_choice(
                GENERIC, params, values, work, np.int64(hand), np.int64(mask_of(outside)),
                np.int64(unseen), np.int64(known), np.int64(pile), 10, points, 0.0,
            )  # fmt: skip
            assert got == min(outside, key=lambda c: (key[c], -c))
            choices.append(got)
        differ += choices[0] != choices[1]
    assert differ > 0


@pytest.mark.nojit
def test_careful_in_the_knock_family_keeps_high_cards_early_and_throws_them_late():
    """The keep term (docs/bots.md, "careful (a stronger knocker)"): over random positions,
    ``outlook_choice`` with ``keep_points`` ``k`` is the oracle's least outlook plus danger
    plus ``k`` times the card's value for each unseen draw, at the hand's first turn
    (``KEEP_EARLY``), at turn 20 (``KEEP_EARLY - 20 * KEEP_FADE``, below 0) and without
    it; early it discards a lower card than without it more often than a higher one, late
    the other way round."""
    params, values = compiled("gin_rummy", 2)
    work = M.new_work()
    lower = {KEEP_EARLY: 0, KEEP_EARLY - 20 * KEEP_FADE: 0}
    higher = dict.fromkeys(lower, 0)
    assert KEEP_EARLY > 0 > KEEP_EARLY - 20 * KEEP_FADE
    for hand, pile, unseen, known, outside in _discard_positions(params, values, work, 78):
        n = popcount_int(unseen)
        p = min(1.0, (10 - popcount_int(known)) / n)
        outlook = _outlooks(params, values, work, hand, unseen, outside)
        base = {
            c: outlook[c] + DANGER_POINTS * n * _danger_oracle(unseen, known, pile, p, c)
            for c in outside
        }
        choice = {}
        for keep in (0.0, *lower):
            key = {c: (base[c] + keep * n * int(values[c])) * 64 - int(values[c]) for c in outside}
            got = outlook_choice(
                GENERIC, params, values, work, np.int64(hand), np.int64(mask_of(outside)),
                np.int64(unseen), np.int64(known), np.int64(pile), 10, DANGER_POINTS, keep,
            )  # fmt: skip
            assert got == min(outside, key=lambda c: (key[c], -c))
            choice[keep] = int(values[got])
        for keep in lower:
            lower[keep] += choice[keep] < choice[0.0]
            higher[keep] += choice[keep] > choice[0.0]
    early, late = lower
    assert lower[early] > higher[early] and higher[late] > lower[late]


@pytest.mark.nojit
def test_careful_in_the_knock_family_takes_a_discard_that_beats_a_stock_draw():
    """careful's take (docs/bots.md, "careful (a stronger knocker)"): 4h melds with nothing
    and does not let it knock, so simple draws from the stock; careful takes it, since its
    deadwood after taking it and throwing a ten-point card is no more than the deadwood it
    expects after a stock draw (each card it has not seen equally likely, then simple's
    discard)."""
    params, values = compiled("gin_rummy", 2)
    work = M.new_work()
    held = "Kc Qd 9s 7c Jd 2s 6d 8h Tc 3h"
    hand = mask_of(parse_cards(held))
    four = parse_card("4h")
    _, melded = _arrange(params, values, work, hand | 1 << four)
    assert melded >> four & 1 == 0  # 4h melds with nothing held
    unseen = ((1 << 52) - 1) & ~hand & ~mask_of(parse_cards("Ks 4h"))  # the pile: Ks 4h
    expect = sum(_after_draw(params, values, work, hand, u) for u in cards_of(unseen))
    after = _after_draw(params, values, work, hand, four)  # throws a ten-point card
    assert after > 10 and after * popcount_int(unseen) <= expect
    st, piles = _position(params, held, 20, False)
    assert _wants(params, values, st, piles, [CAREFUL, SIMPLE])
    assert not _wants(params, values, st, piles, [SIMPLE, SIMPLE])
