"""The draw (mechanics DD and XD of RULES.md §4C; §1.5, §1.8, §2C.16): the discard top, a
card of the discard area, or the stock.

Rule slots read here: ``discard_draw``, ``stock_exhaustion`` (through ``stock_out.py``),
``family`` and ``gin_opening``.

``discard_draw`` (§2C.16): under ``top`` a player takes the discard top or the stock's next
card. Under ``any_card`` (Throw Down, §3.6) the discard pile is an unordered, face-up area
and he takes any one card of it (``bots.area_card``; ``piles.take_discard_at``) or the
stock's next card: one card a turn, and the card taken may not be discarded that turn
(``legal.py``). Under ``top_plus_one`` (Boat House, §3.7) he takes the stock's next card,
or the discard top and then a second card: the next discard or the stock's next card, his
choice (``bots.wants_second``); with no discard left the second comes from the stock, with
the stock empty from the discard pile (nothing is rebuilt for it), and where neither is
there he may not take the discard top (§3.7 open point 2). Neither card taken from the
discard pile may be discarded that turn (open point 3: ``C_TAKEN``, ``C_TAKEN2``). The
second card's event has ``b`` = 1.

Gin's opening (§3.17, §2I.33), on the hand's first turn: under ``upcard_offer`` the
non-dealer may take the upcard; if he lets it go (a turn of its own, ``E_DECLINE_UPCARD``)
the dealer (3-player gin: the other player) may take it and plays that turn
(``C_CURRENT`` becomes his seat); if he too lets it go (another turn) the non-dealer draws
from the stock. Under ``deal_11_10`` the
non-dealer, dealt 11 cards, opens by discarding without a draw; so does Phỏm's first player,
dealt 10 (§3.13). In Phỏm the discard top may be taken only into a meld
(``phom.phom_may_take``), and then his bot decides.

With an empty stock the pile is rebuilt (``stock_out.rebuild_stock``) unless the player
takes a discard; with at most one discard left and no stock he must take it (not under
``top_plus_one``, where he may not);
nothing left anywhere ends the hand (``DRAW_EXHAUSTED``). In Tonk a turn that begins with
the stock empty ends the hand before any draw (``DRAW_STOCK_OUT``, ``stock_out.py``). Under
a block rule
(``stock_out.blocks``, §2F.28) nothing is rebuilt or forced: with the stock empty the
player takes the discard top if his bot wants it (and may), else he declines it
(``E_BLOCK``) and the hand ends (``DRAW_BLOCK``). A card drawn from the stock
whose kind the player already drew from the stock since the table last changed has *come
round* (``C_COME_ROUND``; the bots keep it rather than discard it again, docs/bots.md).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bots import area_card, wants_discard, wants_second, wants_top_plus_one
from sim.engine.deal import extra_card, next_seat
from sim.engine.jit import kernel
from sim.engine.layout import (
    DBI_ONLY_FOR_INITIAL,
    FAMILY_GIN,
    GIN_OPENING_UPCARD_OFFER,
    P_DISCARD_BEFORE_INITIAL,
    P_DISCARD_DRAW,
    P_FAMILY,
    P_GIN_OPENING,
    XD_ANY_CARD,
    XD_TOP_PLUS_ONE,
)
from sim.engine.phom import phom_may_take, phom_timing
from sim.engine.piles import discard_top, pop_stock, take_discard_at
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_COME_ROUND,
    C_CURRENT,
    C_DISCARD_N,
    C_DRAWN_TURN,
    C_DRAWS_DISCARD,
    C_DRAWS_STOCK,
    C_STOCK_CARD,
    C_STOCK_N,
    C_TAKEN,
    C_TAKEN2,
    C_TOOK_UNOPENED,
    C_TURN,
    E_BLOCK,
    E_DECLINE_UPCARD,
    E_DRAW_DISCARD,
    E_DRAW_STOCK,
    PILE_DISCARD,
    R_SC,
    R_SEAT,
    S_DRAWS,
    S_PICKED,
    S_STOCK_SEEN,
    give,
    log_event,
)
from sim.engine.stock_out import blocks, can_rebuild, ends_at_empty, rebuild_stock
from sim.engine.table import has_opened

DRAW_OK = 0
DRAW_EXHAUSTED = 1  # nothing left to draw anywhere: the hand ends without a score
DRAW_BLOCK = 2  # block_*: the discard top declined with the stock empty; the hand ends
DRAW_STOCK_OUT = 3  # Tonk: the turn began with the stock empty; the hand ends (§3.22)


@kernel
def _take_at(fx, params, st, piles, events, seat, i, second):
    """``seat`` takes card ``i`` of the discard pile (its top: the last); ``second`` is 1
    for top_plus_one's second card."""
    card = take_discard_at(st, piles, i)
    give(fx, params, st, seat, card)
    st[R_SC, C_TAKEN2 if second == 1 else C_TAKEN] = card
    if card != JOKER:
        st[R_SEAT + seat, S_PICKED] |= 1 << card
    st[R_SC, C_DRAWS_DISCARD] += 1
    st[R_SC, C_DRAWN_TURN] += 1
    st[R_SEAT + seat, S_DRAWS] += 1
    log_event(st, events, np.int64(E_DRAW_DISCARD), seat, card, second)


@kernel
def _take_top(fx, params, st, piles, events, seat, top):
    """``seat`` takes ``top`` from the discard pile."""
    _take_at(fx, params, st, piles, events, seat, st[R_SC, C_DISCARD_N] - 1, np.int64(0))


@gated(P_FAMILY, lambda v: v == FAMILY_GIN, None)
@kernel
def _upcard_offer(fx, params, values, bots, st, piles, rng, work, events, seat):
    """Gin's upcard offer (module docstring): ``seat`` (the non-dealer) or the dealer takes
    the upcard, or ``seat`` draws from the stock; ``C_CURRENT`` is who plays the turn."""
    top = discard_top(st, piles)
    if wants_discard(fx, params, values, bots, st, piles, rng, work, seat, top):
        _take_top(fx, params, st, piles, events, seat, top)
        return
    log_event(st, events, np.int64(E_DECLINE_UPCARD), seat, top, np.int64(0))
    st[R_SC, C_TURN] += 1
    other = next_seat(fx, params, st, seat)  # the dealer, or 3-player gin's other player
    if wants_discard(fx, params, values, bots, st, piles, rng, work, other, top):
        st[R_SC, C_CURRENT] = other
        _take_top(fx, params, st, piles, events, other, top)
        return
    log_event(st, events, np.int64(E_DECLINE_UPCARD), other, top, np.int64(0))
    st[R_SC, C_TURN] += 1
    _draw_stock(fx, params, st, piles, rng, events, seat, np.int64(0))


@kernel
def _draw_stock(fx, params, st, piles, rng, events, seat, second):
    """``seat`` draws the stock's next card (the stock is not empty); ``second`` is 1 for
    top_plus_one's second card."""
    card = pop_stock(st, piles, rng)
    give(fx, params, st, seat, card)
    st[R_SC, C_STOCK_CARD] = card
    if card != JOKER:
        bit = np.int64(1) << card
        if st[R_SEAT + seat, S_STOCK_SEEN] & bit != 0:
            st[R_SC, C_COME_ROUND] = card  # he drew this kind before, the table unchanged
        st[R_SEAT + seat, S_STOCK_SEEN] |= bit
    st[R_SC, C_DRAWS_STOCK] += 1
    st[R_SC, C_DRAWN_TURN] += 1
    st[R_SEAT + seat, S_DRAWS] += 1
    log_event(st, events, np.int64(E_DRAW_STOCK), seat, card, second)


@gated(P_DISCARD_DRAW, lambda v: v == XD_TOP_PLUS_ONE, None)
@kernel
def _second_card(fx, params, values, bots, st, piles, rng, work, events, seat):
    """top_plus_one's second card, after the discard top (module docstring, §3.7)."""
    n = st[R_SC, C_DISCARD_N]
    if n > 0 and (
        st[R_SC, C_STOCK_N] == 0
        or wants_second(
            fx, params, values, bots, st, piles, rng, work, seat, piles[PILE_DISCARD, n - 1]
        )
    ):
        _take_at(fx, params, st, piles, events, seat, n - 1, np.int64(1))
    else:
        _draw_stock(fx, params, st, piles, rng, events, seat, np.int64(1))


@kernel
def draw_phase(fx, params, values, bots, st, piles, rng, work, events, seat):
    """``seat`` draws one card (module docstring); returns DRAW_OK, DRAW_EXHAUSTED,
    DRAW_BLOCK or DRAW_STOCK_OUT. At gin's opening the turn may pass to the dealer: the
    turn's player is ``C_CURRENT``."""
    if st[R_SC, C_STOCK_N] == 0 and ends_at_empty(fx, params):
        return DRAW_STOCK_OUT
    if st[R_SC, C_TURN] == 0:
        if extra_card(fx, params):
            return DRAW_OK  # the first player opens by discarding (gin's 11/10, Phỏm)
        if (
            rule(fx, params, P_FAMILY) == FAMILY_GIN
            and rule(fx, params, P_GIN_OPENING) == GIN_OPENING_UPCARD_OFFER
            and discard_top(st, piles) >= 0
        ):
            _upcard_offer(fx, params, values, bots, st, piles, rng, work, events, seat)
            return DRAW_OK
    top = discard_top(st, piles)
    n = st[R_SC, C_DISCARD_N]
    stock_empty = st[R_SC, C_STOCK_N] == 0
    block = stock_empty and blocks(fx, params)
    draw = rule(fx, params, P_DISCARD_DRAW)
    may_take = top >= 0
    if draw == XD_TOP_PLUS_ONE and stock_empty and n < 2:
        may_take = False  # no second card anywhere (§3.7 open point 2)
    at = np.int64(-1)  # the discard pile's card he takes, -1: none
    forced = stock_empty and not block and not can_rebuild(st)
    if may_take and phom_timing(fx, params):  # §3.13: only a card that completes a meld
        may_take = phom_may_take(fx, params, values, st, work, seat, top)
    if may_take:
        if forced:
            at = n - 1  # the discard top is the only card left to draw
        elif draw == XD_ANY_CARD:
            at = area_card(fx, params, values, bots, st, piles, rng, work, seat)
        elif draw == XD_TOP_PLUS_ONE:
            if wants_top_plus_one(fx, params, values, bots, st, piles, rng, work, seat, top):
                at = n - 1
        elif wants_discard(fx, params, values, bots, st, piles, rng, work, seat, top):
            at = n - 1
    if at >= 0:
        _take_at(fx, params, st, piles, events, seat, at, np.int64(0))
        if (
            not forced
            and rule(fx, params, P_DISCARD_BEFORE_INITIAL) == DBI_ONLY_FOR_INITIAL
            and not has_opened(fx, params, st, seat)
        ):
            st[R_SC, C_TOOK_UNOPENED] = 1  # §2D.25: it goes into his initial meld this turn
        if draw == XD_TOP_PLUS_ONE:
            _second_card(fx, params, values, bots, st, piles, rng, work, events, seat)
        return DRAW_OK
    if block:
        if top < 0:
            return DRAW_EXHAUSTED
        log_event(st, events, np.int64(E_BLOCK), seat, top, np.int64(0))
        return DRAW_BLOCK
    if stock_empty:
        if not can_rebuild(st):
            return DRAW_EXHAUSTED
        rebuild_stock(fx, params, st, piles, rng, events, seat)
    _draw_stock(fx, params, st, piles, rng, events, seat, np.int64(0))
    return DRAW_OK
