"""The bots' joker declarations (RULES.md §2B.11, docs/bots.md): when ``joker_declare``
asks what a joker just laid down or laid off stands for (``table.declaration_options``),
each bot chooses one card of the options, joker after joker:

- ``random``: uniform among the options (bots' stream);
- ``careful``: the card with the fewest copies it has not seen (its hand, the natural
  cards of the table, the discard pile), so that as few unseen cards as possible could
  replace the joker (§2B.12); ties: the lowest kind;
- ``greedy``: the lowest kind.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import BOT_CAREFUL, BOT_RANDOM, P_JOKERS, P_PACKS
from sim.engine.melds import MAX_LAYERS, copies
from sim.engine.rng import RNG_BOTS, below
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_DISCARD_N,
    C_N_MELDS,
    M_CARDS,
    PILE_DISCARD,
    R_MELD,
    R_SC,
    R_SEAT,
    S_HAND,
)
from sim.engine.table import declaration_options, declare


@kernel
def _unseen(fx, params, st, piles, seat, kind):
    """The copies of natural ``kind`` that ``seat`` has not seen."""
    packs = rule(fx, params, P_PACKS)
    seen = copies(st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS], packs, kind)
    for m in range(st[R_SC, C_N_MELDS]):
        seen += copies(st[R_MELD + m, M_CARDS : M_CARDS + MAX_LAYERS], packs, kind)
    for i in range(st[R_SC, C_DISCARD_N]):
        if piles[PILE_DISCARD, i] == kind:
            seen += 1
    return packs - min(seen, packs)


@gated(P_JOKERS, lambda v: v != 0, None)
@kernel
def declare_jokers(fx, params, st, piles, rng, events, seat, m, bot):
    """``seat`` (a ``bot``) declares every joker of table meld ``m`` that must be declared
    now (module docstring)."""
    while True:
        options = declaration_options(fx, params, st, m)
        if options == 0:
            return
        if bot == BOT_RANDOM:
            pick = below(rng, np.int64(RNG_BOTS), popcount(options))
            rest = options
            for _ in range(pick):
                rest &= rest - 1
            kind = lowest_bit(rest)
        elif bot == BOT_CAREFUL:
            kind = np.int64(JOKER)
            fewest = 1 << 30
            rest = options
            while rest != 0:
                k = lowest_bit(rest)
                rest &= rest - 1
                unseen = _unseen(fx, params, st, piles, seat, k)
                if unseen < fewest:
                    fewest = unseen
                    kind = k
        else:
            kind = lowest_bit(options)
        declare(fx, params, st, events, seat, m, kind)
