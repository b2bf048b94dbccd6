"""Hand analysis in bulk: the minimum deadwood of many hands and one best arrangement of each
(``rummysim deadwood``). The loop over hands stays in compiled code.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import allocating
from sim.engine.layout import N_KINDS
from sim.engine.melds import CC_CARDS, CC_LEN, S_BEST_N, best_arrangement, new_search_work

NO_CARD = -1  # padding in ``cards`` rows
DEADWOOD = -1  # ``assign`` value of a card left out of every meld
MELD_SLOT = 64  # ``assign`` = meld * MELD_SLOT + the card's place in the meld (run order)


@allocating
def deadwood_batch(params, values, cards, deadwood, assign):
    """For each row of ``cards`` (int64[n, width], card kinds padded with NO_CARD), write the
    minimum deadwood to ``deadwood[i]`` and, in ``assign[i, j]``, where card ``cards[i, j]``
    goes in one best arrangement: ``meld * MELD_SLOT + place`` (melds from 0, places in
    run order), DEADWOOD for a card left in hand, NO_CARD for padding. ``params`` and
    ``values`` are the variant's kernel arrays.
    """
    ws = new_search_work()
    hand = np.zeros(N_KINDS, np.int64)
    for i in range(cards.shape[0]):
        hand[:] = 0
        total = 0
        for j in range(cards.shape[1]):
            kind = cards[i, j]
            assign[i, j] = NO_CARD
            if kind >= 0:
                hand[kind] += 1
                total += values[kind]
                assign[i, j] = DEADWOOD
        melded = best_arrangement(ws, params, values, hand, 0)
        deadwood[i] = total - melded
        for m in range(ws.scal[S_BEST_N]):
            for c in range(ws.best[m, CC_LEN]):
                kind = ws.best[m, CC_CARDS + c]
                for j in range(cards.shape[1]):
                    if cards[i, j] == kind and assign[i, j] == DEADWOOD:
                        assign[i, j] = m * MELD_SLOT + c
                        break
