"""The bots' answers in Conquian (RULES.md §3.21; docs/bots.md states them).

- **Use** (``uses``), asked only when the exposed card has a use (``conquian.best_use``,
  the one that melds the most cards): greedy and careful always use it (every use moves
  a card toward the 11 melded, and a card rejected is gone); random on a fair coin.
- **Force** (``forces``), asked when the card on offer fits one of the other player's
  melds: careful always forces (it only takes away his choice to reject it); greedy never
  does; random on a fair coin.
- **Discard** (``conquian_discard``): greedy discards the card with the fewest ties to the
  rest of its hand (``ties``: another card of its rank, or of its suit one or two run
  positions away, count 1 each; fitting one of its own melds counts ``OWN_FIT``); ties:
  the higher kind. Careful does the same among the cards that fit none of the other
  player's melds (he would meld them), when there are any. Random: a uniform card.
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.layout import ACE_AROUND_CORNER, BOT_CAREFUL, BOT_RANDOM
from sim.engine.melds import n_positions, position_of, rank_at, run_layout
from sim.engine.random_bot import random_wants, uniform_kind
from sim.engine.state import R_SEAT, S_FITS_OWN, S_HAND

OWN_FIT = 2  # what fitting one of his own melds adds to a card's ties
NEAR = 2  # run positions within which a card of the same suit is a tie


@kernel
def uses(bots, rng, seat):
    """Does ``seat`` use the exposed card, which has a use (module docstring)?"""
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    return True


@kernel
def forces(bots, st, rng, forcer, seat):
    """Does ``forcer`` force ``seat`` to use the card on offer, which fits one of
    ``seat``'s melds (module docstring)?"""
    if bots[forcer] == BOT_RANDOM:
        return random_wants(rng)
    return bots[forcer] == BOT_CAREFUL


@kernel
def ties(fx, params, hand, k):
    """How many cards of ``hand`` could meld with card ``k``: the others of its rank, and
    those of its suit one or two run positions away (from each of its positions: an ace high
    or low has two; around the corner K and A are neighbours)."""
    rank = k // N_SUITS
    suit = k % N_SUITS
    n = popcount(hand & (np.int64(0xF) << (rank * N_SUITS))) - 1
    layout = run_layout(fx, params)
    count = n_positions(layout)
    near = np.int64(0)
    for which in range(2):
        pos = position_of(rank, layout, np.int64(which))
        if pos < 0:
            continue
        for d in range(-NEAR, NEAR + 1):
            q = pos + d
            if layout == ACE_AROUND_CORNER:
                q = (q + count) % count
            if d != 0 and 0 <= q < count:
                near |= np.int64(1) << (rank_at(q, layout) * N_SUITS + suit)
    return n + popcount(hand & near & ~(np.int64(1) << k))


@kernel
def _loosest(fx, params, hand, among, own_fits):
    """The card of ``among`` (a non-empty part of ``hand``) with the fewest ties; ties:
    the higher kind."""
    best = np.int64(-1)
    low = np.int64(1) << 40
    rest = among
    while rest != 0:
        k = lowest_bit(rest)
        rest &= rest - 1
        score = ties(fx, params, hand, k) + (OWN_FIT if (own_fits >> k) & 1 else 0)
        if score <= low:
            low = score
            best = k
    return best


@kernel
def conquian_discard(fx, params, bots, st, rng, seat):
    """The card ``seat`` discards after a use (module docstring); his hand is not empty."""
    hand = st[R_SEAT + seat, S_HAND]
    if bots[seat] == BOT_RANDOM:
        return uniform_kind(rng, hand, np.bool_(False))
    among = hand
    if bots[seat] == BOT_CAREFUL:
        safe = hand & ~st[R_SEAT + next_seat(fx, params, st, seat), S_FITS_OWN]
        if safe != 0:
            among = safe
    return _loosest(fx, params, hand, among, st[R_SEAT + seat, S_FITS_OWN])
