"""The draw (mechanics DD and XD of RULES.md §4C; §1.5, §1.8): the discard top or the stock.

Rule slots read here: ``stock_exhaustion`` (through ``stock_out.py``).

With an empty stock the pile is rebuilt (``stock_out.rebuild_stock``) unless the player
takes the discard top; with at most one discard left and no stock he must take it;
nothing left anywhere ends the hand (``DRAW_EXHAUSTED``). A card drawn from the stock
whose kind the player already drew from the stock since the table last changed has *come
round* (``C_COME_ROUND``; the bots keep it rather than discard it again, docs/bots.md).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.mech.bots import wants_discard
from sim.mech.jit import kernel
from sim.mech.piles import discard_top, pop_discard, pop_stock
from sim.mech.state import (
    C_COME_ROUND,
    C_DRAWS_DISCARD,
    C_DRAWS_STOCK,
    C_STOCK_N,
    C_TAKEN,
    E_DRAW_DISCARD,
    E_DRAW_STOCK,
    R_SC,
    R_SEAT,
    S_PICKED,
    S_STOCK_SEEN,
    give,
    log_event,
)
from sim.mech.stock_out import can_rebuild, rebuild_stock

DRAW_OK = 0
DRAW_EXHAUSTED = 1  # nothing left to draw anywhere: the hand ends without a score


@kernel
def draw_phase(fx, params, values, bots, st, piles, rng, work, events, seat):
    """``seat`` draws one card (module docstring); returns DRAW_OK or DRAW_EXHAUSTED."""
    top = discard_top(st, piles)
    stock_empty = st[R_SC, C_STOCK_N] == 0
    take = False
    if top >= 0:
        if stock_empty and not can_rebuild(st):
            take = True  # the discard top is the only card left to draw
        else:
            take = wants_discard(fx, params, values, bots, st, rng, work, seat, top)
    if take:
        pop_discard(st, piles)
        give(fx, params, st, seat, top)
        st[R_SC, C_TAKEN] = top
        if top != JOKER:
            st[R_SEAT + seat, S_PICKED] |= 1 << top
        st[R_SC, C_DRAWS_DISCARD] += 1
        log_event(st, events, E_DRAW_DISCARD, seat, top, 0)
        return DRAW_OK
    if stock_empty:
        if not can_rebuild(st):
            return DRAW_EXHAUSTED
        rebuild_stock(fx, params, st, piles, events, seat)
    card = pop_stock(st, piles, rng)
    give(fx, params, st, seat, card)
    if card != JOKER:
        bit = np.int64(1) << card
        if st[R_SEAT + seat, S_STOCK_SEEN] & bit != 0:
            st[R_SC, C_COME_ROUND] = card  # he drew this kind before, the table unchanged
        st[R_SEAT + seat, S_STOCK_SEEN] |= bit
    st[R_SC, C_DRAWS_STOCK] += 1
    log_event(st, events, E_DRAW_STOCK, seat, card, 0)
    return DRAW_OK
