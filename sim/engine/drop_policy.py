"""The bots' drop decision in Tonk (RULES.md §3.22; docs/bots.md, "Tonk").

Rule slots read here: ``players``, ``packs`` (the rest through ``scoring.py``).

A drop lays the whole hand down and ends the hand on the hand totals (``chips.py``). Each bot
is asked at the start of its turn and again after its table play, before its discard
(§3.22 open point 1: "at any moment of his turn"):

- ``random`` drops on one chance in ``RANDOM_DROP_ODDS`` each time it is asked (a fair coin
  would end nearly every hand at its first turn);
- ``greedy`` and ``careful`` never drop when their one card left may be discarded, which
  goes out risk-free for as much as a drop wins;
- ``greedy`` drops when its total is at most ``GREEDY_POINTS_PER_CARD`` points per card of
  the opponent who holds the fewest cards;
- ``careful`` drops when its total is below half of what that opponent's hand is worth on
  average: his card count times the mean value of the cards it has not seen (not in its
  hand, on the table or in the discard pile).
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import BOT_CAREFUL, BOT_RANDOM, P_PACKS, P_PLAYERS
from sim.engine.legal import allowed_naturals
from sim.engine.melds import mask_value, pack_kinds
from sim.engine.rng import RNG_BOTS, below
from sim.engine.scoring import hand_value, table_value
from sim.engine.specs import rule
from sim.engine.state import C_DISCARD_N, C_DRAWN_TURN, C_STOCK_N, PILE_DISCARD, R_SC, R_SEAT, S_N

RANDOM_DROP_ODDS = 8
GREEDY_POINTS_PER_CARD = 3
CAREFUL_SHARE_DEN = 2  # careful drops below 1 / CAREFUL_SHARE_DEN of the expected hand


@kernel
def _fewest_cards(fx, params, st, seat):
    """The fewest cards any other player holds."""
    fewest = np.int64(1 << 30)
    for p in range(rule(fx, params, P_PLAYERS)):
        if p != seat:
            fewest = min(fewest, st[R_SEAT + p, S_N])
    return fewest


@kernel
def _unseen(fx, params, values, st, piles, seat):
    """(value, count) of the cards ``seat`` has not seen: the other hands and the stock."""
    value = mask_value(values, pack_kinds(fx, params)) * rule(fx, params, P_PACKS)
    value -= hand_value(fx, params, values, st, seat) + table_value(fx, params, values, st)
    for i in range(st[R_SC, C_DISCARD_N]):
        value -= values[piles[PILE_DISCARD, i]]
    count = st[R_SC, C_STOCK_N]
    for p in range(rule(fx, params, P_PLAYERS)):
        if p != seat:
            count += st[R_SEAT + p, S_N]
    return value, count


@kernel
def wants_drop(fx, params, values, bots, st, piles, rng, seat):
    """Does ``seat`` drop now (module docstring)?"""
    if bots[seat] == BOT_RANDOM:
        return below(rng, np.int64(RNG_BOTS), np.int64(RANDOM_DROP_ODDS)) == 0
    if st[R_SEAT + seat, S_N] == 1 and st[R_SC, C_DRAWN_TURN] > 0:
        if allowed_naturals(st, seat) != 0:
            return False  # discarding it goes out
    total = hand_value(fx, params, values, st, seat)
    fewest = _fewest_cards(fx, params, st, seat)
    if bots[seat] != BOT_CAREFUL:
        return total <= GREEDY_POINTS_PER_CARD * fewest
    value, count = _unseen(fx, params, values, st, piles, seat)
    return count > 0 and CAREFUL_SHARE_DEN * total * count < value * fewest
