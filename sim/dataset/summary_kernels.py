"""Numba kernels that reduce a shard's or a chunk's rows in one pass
(:mod:`sim.dataset.summaries`): the rows come in *runs* of one (shard, block) (``starts[r]``
is run ``r``'s first row); each kernel adds them to one row per run of a zeroed ``int64``
table, exactly as ``np.add.reduceat`` would (one pass for some twenty statistics, where numpy
made one each). The kernels trust their inputs (numba checks no bounds): ``summaries`` checks
every index taken from the data first. ``nogil``: the report's reading threads run them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

kernel = njit(cache=True, nogil=True)

# the columns of a hand run's sums (``summaries.hand_sum_names``): these, then wins per seat
# and the count of each end reason
HS_N = 0
HS_TURNS = 1
HS_TURNS2 = 2
HS_POINTS = 3
HS_POINTS2 = 4
HS_DECIDED = 5
HS_DEALER_WIN = 6
HS_FIRST_WIN = 7
HS_FIXED = 8


@kernel
def run_end(starts, r, rows):
    """One past the last row of run ``r``."""
    return starts[r + 1] if r + 1 < starts.shape[0] else rows


@kernel
def hand_run_sums(starts, winner, dealer, players, turns, points, codes, reason_of, seats, out):
    """Per run of hands, into ``out`` (int64[runs, HS_FIXED + seats + reasons]): hands,
    Σturns, Σturns², Σpoints, Σpoints², hands someone won, won by the dealer, won by the
    first player (the dealer's left); then per seat s < ``seats`` the hands s won; then per
    end reason its hands: row i's reason is ``reason_of[codes[i]]`` (``codes``, the end
    reason column's dictionary indices; ``reason_of``, the reason of each dictionary entry, 0
    to reasons - 1). ``winner`` is a seat or -1; the dealer is a seat."""
    reason_at = HS_FIXED + seats
    rows = winner.shape[0]
    for r in range(starts.shape[0]):
        row = out[r]
        n_turns = n_turns2 = n_points = n_points2 = decided = dealer_won = first_won = 0
        for i in range(starts[r], run_end(starts, r, rows)):
            t = np.int64(turns[i])
            p = np.int64(points[i])
            w = np.int64(winner[i])
            d = np.int64(dealer[i])
            n_turns += t
            n_turns2 += t * t
            n_points += p
            n_points2 += p * p
            first = d + 1
            if first == np.int64(players[i]):
                first = 0
            dealer_won += w == d
            first_won += w == first
            if w >= 0:
                decided += 1
                if w < seats:
                    row[HS_FIXED + w] += 1
            row[reason_at + reason_of[codes[i]]] += 1
        row[HS_N] = run_end(starts, r, rows) - starts[r]
        row[HS_TURNS] = n_turns
        row[HS_TURNS2] = n_turns2
        row[HS_POINTS] = n_points
        row[HS_POINTS2] = n_points2
        row[HS_DECIDED] = decided
        row[HS_DEALER_WIN] = dealer_won
        row[HS_FIRST_WIN] = first_won
