"""Careful's policy in standard rummy (docs/bots.md, "careful"), on hand-built deals where it
parts from greedy: each test plays the same deal with both bots in seat 0 and checks the
decision that docs/bots.md says differs.

Careful counts outs: cards it has not seen (not in its hand, the discard pile or the table)
that would meld with its hand (``careful.py``).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import bots, careful
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.api import counts_of

from .helpers import CAREFUL, GREEDY, compiled, deal, events_of, mask_of, play_deal


def _first(out, etype, player):
    """The ``a`` of ``player``'s first event of ``etype`` (a card for draws and discards)."""
    return next(a for who, a, _b, _cards in events_of(out, etype) if who == player)


def _first_turn(out, player):
    """``player``'s events of his first turn, up to his first discard: (type, a, cards)."""
    turn = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_PLAYER])
        if who != player or etype in (S.E_DEAL, S.E_UPCARD):
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


# Seat 0 plays first; the upcard 4h melds with nothing, but beside 3h it brings two outs
# (2h and 5h, both unseen) and is worth 4 points: careful takes it, greedy draws the stock.
_LOW_CONNECTOR = deal(
    ["3h Kc Qd 9s 7c Jd 2s 6d 8h Tc", "Ah As Ad 5c 5s Js Qh Ks 9d 7d"],
    "4h",
    "Kd 2c 3c 3d 4s 6c",
    dealer=1,
)


@pytest.mark.parametrize(
    ("bot", "draw"), [(GREEDY, (S.E_DRAW_STOCK, "Kd")), (CAREFUL, (S.E_DRAW_DISCARD, "4h"))]
)
def test_careful_takes_a_low_discard_that_adds_two_outs(bot, draw):
    params, values = compiled()
    out = play_deal(_LOW_CONNECTOR, params, values, bots=[bot, GREEDY])
    assert _first_turn(out, 0)[0][:2] == (draw[0], parse_card(draw[1]))


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


def test_careful_holding_for_a_rummy_keeps_its_held_melds_in_hand():
    params, values = compiled("rummy_basic@004")
    greedy = _first_turn(play_deal(_HELD_RUN, params, values, bots=[GREEDY, GREEDY]), 0)
    assert [e[0] for e in greedy] == [S.E_DRAW_STOCK, S.E_MELD, S.E_DISCARD]
    careful = _first_turn(play_deal(_HELD_RUN, params, values, bots=[CAREFUL, GREEDY]), 0)
    assert [e[0] for e in careful] == [S.E_DRAW_STOCK, S.E_DISCARD]
    assert careful[-1][1] == parse_card("Kd")


def _low_connector_position(params, stock_n: int, picked: bool):
    """Seat 0 holds 3h Kc Qd 9s 7c Jd 2s 6d 8h Tc; the discard pile is Ks 4h (4h on top);
    2h and 5h are unseen, so 4h would add two outs. ``stock_n`` cards are left in the stock;
    ``picked``: seat 0 took 4h from the discard pile earlier in the hand."""
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    held = parse_cards("3h Kc Qd 9s 7c Jd 2s 6d 8h Tc")
    st.hand[0, :] = counts_of(held)
    st.pl[0, S.PL_N] = len(held)
    st.pl[0, S.PL_BITS] = mask_of(held)
    for i, k in enumerate(parse_cards("Ks 4h")):
        st.piles[S.PILE_DISCARD, i] = k
    st.sc[S.SC_DISCARD_N] = 2
    st.sc[S.SC_STOCK_N] = stock_n
    if picked:
        st.kinds[S.KR_PICKED, parse_card("4h")] = 1
    return st


@pytest.mark.parametrize(
    ("stock_n", "picked", "takes"), [(20, False, True), (20, True, False), (0, False, False)]
)
def test_careful_takes_a_low_connector_once_a_hand_and_not_from_an_empty_stock(
    stock_n, picked, takes
):
    # docs/bots.md, careful's draw: the extra take (worth <= 5, adds >= 2 outs) is never of a
    # card the player took from the pile before, and never when the stock is empty (then only
    # greedy's rule applies and the stock is rebuilt). Both versions of the rule (masks and
    # count arrays) and the whole draw decision are checked.
    params, values = compiled()
    st = _low_connector_position(params, stock_n, picked)
    top = parse_card("4h")
    seats = np.array([CAREFUL, GREEDY], np.int64)
    assert bots.wants_discard(st, params, values, seats, 0, top) == takes
    assert not bots.wants_discard(st, params, values, np.array([GREEDY, GREEDY]), 0, top)
    if stock_n > 0:
        by_masks = careful.careful_takes_mask(
            values,
            int(st.pl[0, S.PL_BITS]),
            bots._unseen_bits(st, 0),
            bots._picked_bits(st, 0),
            top,
            params[L.P_ACE_RANK],
        )
        assert by_masks == takes
        assert bots._careful_takes_counts(st, params, values, 0, top) == takes


@pytest.mark.parametrize(
    ("overrides", "takes"), [({"decks": 2}, True), ({"run_suit": "any_suit"}, False)]
)
def test_careful_makes_no_extra_take_under_any_suit_runs(overrides, takes):
    # docs/bots.md, careful under run_suit = any_suit: nearly every card has several outs, so
    # the extra take (a discard worth <= 5 that adds >= 2 outs) is never made; with two packs
    # (also the count arrays) the same take stands. 4h melds with nothing held in either game
    # (no 2 or 5 in hand), so only the extra rule could take it.
    params, values = compiled(**overrides)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    held = parse_cards("3h Kc Qd 9s 7c Jd Ts 6d 8h As")
    st.hand[0, :] = counts_of(held)
    st.pl[0, S.PL_N] = len(held)
    for i, k in enumerate(parse_cards("Ks 4h")):
        st.piles[S.PILE_DISCARD, i] = k
    st.sc[S.SC_DISCARD_N] = 2
    st.sc[S.SC_STOCK_N] = 20
    top = parse_card("4h")
    assert bots._careful_takes_counts(st, params, values, 0, top) == takes
    seats = np.array([CAREFUL, GREEDY], np.int64)
    assert bots.wants_discard(st, params, values, seats, 0, top) == takes
