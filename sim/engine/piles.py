"""The stock and the discard pile (RULES.md §1.4, §1.5, §1.8, §2C.16).

The discard pile is kept in the order its cards were thrown, the top last. Under
``discard_draw = "any_card"`` (§3.6) it is Throw Down's unordered discard area, and any card
of it may be taken (``take_discard_at``): the cards thrown after it close up, so the area
stays in the order its cards were thrown (the order bots and the random stream index it in).

While ``C_STOCK_ORDERED`` is 0 the stock is unordered: a draw takes a uniform card of it
from the deal stream (a lazy Fisher-Yates shuffle, so a deal costs only the cards dealt
and drawn). A stock rebuilt by turning the discard pile over is ordered, as RULES.md §1.8
requires, and a draw takes its top.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.rng import RNG_DEAL, below
from sim.engine.state import (
    C_DISCARD_N,
    C_SHOE_N,
    C_SHOE_PRESET,
    C_STOCK_N,
    C_STOCK_ORDERED,
    PILE_DISCARD,
    PILE_SHOE,
    PILE_STOCK,
    R_SC,
)


@kernel
def fill_stock(st, piles):
    """Every card of the shoe to the stock, unordered (a hand-built deal: in its order); the
    discard pile emptied."""
    n = st[R_SC, C_SHOE_N]
    for i in range(n):
        piles[PILE_STOCK, i] = piles[PILE_SHOE, i]
    st[R_SC, C_STOCK_N] = n
    st[R_SC, C_STOCK_ORDERED] = st[R_SC, C_SHOE_PRESET]
    st[R_SC, C_DISCARD_N] = 0


@kernel
def pop_stock(st, piles, rng):
    """The next card of the stock (it must not be empty)."""
    n = st[R_SC, C_STOCK_N] - 1
    if st[R_SC, C_STOCK_ORDERED] == 0:
        j = below(rng, np.int64(RNG_DEAL), n + 1)
        card = piles[PILE_STOCK, j]
        piles[PILE_STOCK, j] = piles[PILE_STOCK, n]
        piles[PILE_STOCK, n] = card
    st[R_SC, C_STOCK_N] = n
    return piles[PILE_STOCK, n]


@kernel
def push_discard(st, piles, kind):
    """``kind`` goes face up on the discard pile."""
    n = st[R_SC, C_DISCARD_N]
    piles[PILE_DISCARD, n] = kind
    st[R_SC, C_DISCARD_N] = n + 1


@kernel
def discard_top(st, piles):
    """The discard pile's top card, or -1 when it is empty."""
    n = st[R_SC, C_DISCARD_N]
    return piles[PILE_DISCARD, n - 1] if n > 0 else -1


@kernel
def take_discard_at(st, piles, i):
    """Take card ``i`` (0: the oldest) of the discard pile; the later cards close up."""
    n = st[R_SC, C_DISCARD_N] - 1
    card = piles[PILE_DISCARD, i]
    for j in range(i, n):
        piles[PILE_DISCARD, j] = piles[PILE_DISCARD, j + 1]
    st[R_SC, C_DISCARD_N] = n
    return card


@kernel
def pop_discard(st, piles):
    """Take the discard pile's top card (it must not be empty)."""
    n = st[R_SC, C_DISCARD_N] - 1
    st[R_SC, C_DISCARD_N] = n
    return piles[PILE_DISCARD, n]
