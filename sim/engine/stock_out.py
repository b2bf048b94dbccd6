"""Stock exhaustion (mechanic SX of RULES.md §4C; §1.8, §2F.28).

Rule slots read here: ``stock_exhaustion``, ``family``.

``turn_over`` ([002], [003]): the discard pile is turned face down without shuffling as the
new stock, its oldest card on top; that card is turned up to start the new discard pile.
``shuffle_except_top`` ([004]): every discard but the top is shuffled into the new stock;
the top stays as the discard pile. The new stock holds those discards in pile order, oldest
first, unordered: each draw takes a uniform card of it (``piles.pop_stock``).
``shuffle_all`` (Throw Down's default, §3.6, not in seed; the one rebuild
``discard_draw = "any_card"`` allows, ``sim.rules.model``): the whole discard area is
shuffled into the new stock (unordered, as above), and its top card (a uniform card of it,
drawn from the deal stream as a draw would) is turned up to start a new area.
``void_at_two`` (gin, §3.17): a turn that ends with two stock cards left and no knock voids
the hand (``voids_hand``; the same dealer deals again, ``game.py``), so the stock never
runs out.
Tonk (§3.22, ``tonk_stock_out``, §2L.55): a turn that begins with the stock empty ends the
hand before its draw (``ends_at_empty``; ``draw.py`` answers ``DRAW_STOCK_OUT``); the
lowest hand collects (``chips.py``), or the hand is redealt.
``block_difference`` / ``block_totals`` (§2F.28, §3.5): the stock is never rebuilt; with
the stock empty each player in turn may take the discard top, and the first who declines
it ends the hand (``blocks``; ``draw.py`` asks, the hand ends ``block``, and
``scoring.score_block`` scores every hand's cards).
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import (
    FAMILY_TONK,
    P_FAMILY,
    P_STOCK_EXHAUSTION,
    STOCK_BLOCK_DIFFERENCE,
    STOCK_BLOCK_TOTALS,
    STOCK_SHUFFLE_ALL,
    STOCK_SHUFFLE_EXCEPT_TOP,
    STOCK_VOID_AT_TWO,
)
from sim.engine.piles import pop_stock, push_discard
from sim.engine.specs import rule
from sim.engine.state import (
    C_DISCARD_N,
    C_REBUILDS,
    C_STOCK_N,
    C_STOCK_ORDERED,
    E_REBUILD,
    PILE_DISCARD,
    PILE_STOCK,
    R_SC,
    log_event,
)

VOID_STOCK = 2  # gin: a turn ending with this many stock cards and no knock voids the hand


@kernel
def voids_hand(fx, params, st):
    """Does the turn just ended (without a knock) void the hand (``void_at_two``)?"""
    return (
        rule(fx, params, P_STOCK_EXHAUSTION) == STOCK_VOID_AT_TWO
        and st[R_SC, C_STOCK_N] <= VOID_STOCK
    )


@kernel
def ends_at_empty(fx, params):
    """Does a turn that begins with the stock empty end the hand before its draw (Tonk,
    §3.22; ``tonk_stock_out`` says how it is settled)?"""
    return rule(fx, params, P_FAMILY) == FAMILY_TONK


@kernel
def blocks(fx, params):
    """Does a player who declines the discard top with the stock empty end the hand, the
    stock never rebuilt (``block_*``, §2F.28)?"""
    s = rule(fx, params, P_STOCK_EXHAUSTION)
    return s == STOCK_BLOCK_DIFFERENCE or s == STOCK_BLOCK_TOTALS


@kernel
def can_rebuild(st):
    """Is there a discard pile to rebuild the stock from (more than its top card)?"""
    return st[R_SC, C_DISCARD_N] >= 2


@kernel
def rebuild_stock(fx, params, st, piles, rng, events, seat):
    """Rebuild the empty stock from the discard pile (module docstring), ``seat`` about to
    draw; ``rng``: the streams (``shuffle_all`` turns up a card drawn from the deal's)."""
    n = st[R_SC, C_DISCARD_N]
    how = rule(fx, params, P_STOCK_EXHAUSTION)
    if how == STOCK_SHUFFLE_ALL or how == STOCK_SHUFFLE_EXCEPT_TOP:
        kept = 1 if how == STOCK_SHUFFLE_EXCEPT_TOP else 0  # the top stays up
        for i in range(n - kept):  # unordered: the lazy shuffle draws from it
            piles[PILE_STOCK, i] = piles[PILE_DISCARD, i]
        st[R_SC, C_STOCK_N] = n - kept
        st[R_SC, C_STOCK_ORDERED] = 0
        if kept == 1:
            piles[PILE_DISCARD, 0] = piles[PILE_DISCARD, n - 1]
            st[R_SC, C_DISCARD_N] = 1
        else:
            st[R_SC, C_DISCARD_N] = 0
            push_discard(st, piles, pop_stock(st, piles, rng))  # the new area's first card
    else:
        # turned over: the stock's top (its last element) is the oldest discard, which is
        # turned up at once as the new discard pile
        for i in range(n):
            piles[PILE_STOCK, i] = piles[PILE_DISCARD, n - 1 - i]
        piles[PILE_DISCARD, 0] = piles[PILE_STOCK, n - 1]
        st[R_SC, C_STOCK_N] = n - 1
        st[R_SC, C_STOCK_ORDERED] = 1
        st[R_SC, C_DISCARD_N] = 1
    st[R_SC, C_REBUILDS] += 1
    log_event(st, events, np.int64(E_REBUILD), seat, st[R_SC, C_STOCK_N], piles[PILE_DISCARD, 0])
