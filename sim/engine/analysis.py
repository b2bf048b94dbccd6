"""The best arrangement of many hands in one call (``rummysim deadwood``): the same search
as play (``sim.engine.melds.best_arrangement``, its declared tie-break), nothing else."""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.jit import allocating
from sim.engine.melds import (
    MAX_BEST,
    MAX_LAYERS,
    N_CA,
    S_BEST_N,
    W_BEST,
    W_SCAL,
    best_arrangement,
    new_work,
)


@allocating
def arrange_hands(fx, params, values, cards, minimum, deadwood, best, n_best):
    """For each row of ``cards`` (``int64[n, width]``: card kinds, -1 for padding): its
    minimum deadwood in ``deadwood[i]`` among the arrangements whose melds count at least
    ``minimum`` toward an initial meld (0: every arrangement; none reaching it: the whole
    hand is deadwood, §2D.24), and its best arrangement's melds in
    ``best[i, :n_best[i]]`` (``int64[n, MAX_BEST, N_CA]``, rows as the candidates of
    ``sim.engine.melds``: type, window or rank, length, suit, jokers, value, shape, naturals).
    ``values`` is the kernels' value table (``melds.value_table``)."""
    work = new_work()
    layers = np.zeros(MAX_LAYERS, np.int64)
    for i in range(cards.shape[0]):
        layers[:] = 0
        jokers = np.int64(0)
        total = 0
        for j in range(cards.shape[1]):
            kind = cards[i, j]
            if kind < 0:
                continue
            total += values[kind]
            if kind == JOKER:
                jokers += 1
                continue
            bit = np.int64(1) << kind
            for l in range(MAX_LAYERS):  # the first layer without this kind
                if layers[l] & bit == 0:
                    layers[l] |= bit
                    break
        deadwood[i] = total - best_arrangement(
            fx,
            params,
            values,
            work,
            layers,
            jokers,
            np.int64(0),
            minimum,
            np.int64(-1),
            np.int64(0),
        )
        n_best[i] = work[W_SCAL, S_BEST_N]
        for m in range(n_best[i]):
            for c in range(N_CA):
                best[i, m, c] = work[W_BEST + m, c]


def new_results(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty ``deadwood``, ``best`` and ``n_best`` arrays for ``n`` hands."""
    return (
        np.zeros(n, np.int64),
        np.zeros((n, MAX_BEST, N_CA), np.int64),
        np.zeros(n, np.int64),
    )
