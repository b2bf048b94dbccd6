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

from sim.rules.model import MAX_PLAYERS  # the seat limit: the scratch table's size

kernel = njit(cache=True, nogil=True)

# the columns of a hand run's sums (``summaries.hand_sum_names``): these, then wins per seat,
# seats at the table, points per seat and the count of each end reason
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
def hand_run_sums(starts, winner, dealer, players, turns, points, codes, reason_of, scores, out):
    """Per run of hands, into ``out`` (int64[runs, HS_FIXED + 3 * seats + reasons]): hands,
    Σturns, Σturns², Σpoints, Σpoints², hands someone won, won by the dealer, won by the
    first player (the dealer's left); then per seat s the hands s won, the hands with a seat
    s at the table (``players > s``, 1 to ``MAX_PLAYERS``) and s's points (``scores[:, s]``,
    or nothing where ``scores`` has no rows: the points per seat were not read); then per end
    reason its hands: row i's reason is ``reason_of[codes[i]]`` (``codes``, the end reason
    column's dictionary indices; ``reason_of``, the reason of each dictionary entry, 0 to
    reasons - 1). ``winner`` is a seat or -1; the dealer is a seat."""
    seats = scores.shape[1]
    win_at = HS_FIXED
    seats_at = HS_FIXED + seats
    pts_at = HS_FIXED + 2 * seats
    reason_at = HS_FIXED + 3 * seats
    with_scores = scores.shape[0] > 0
    rows = winner.shape[0]
    tables = np.zeros(MAX_PLAYERS + 1, np.int64)  # hands of the run by players at the table
    for r in range(starts.shape[0]):
        row = out[r]
        n_turns = n_turns2 = n_points = n_points2 = decided = dealer_won = first_won = 0
        tables[:] = 0
        for i in range(starts[r], run_end(starts, r, rows)):
            t = np.int64(turns[i])
            p = np.int64(points[i])
            w = np.int64(winner[i])
            d = np.int64(dealer[i])
            n = np.int64(players[i])
            n_turns += t
            n_turns2 += t * t
            n_points += p
            n_points2 += p * p
            first = d + 1
            if first == n:
                first = 0
            dealer_won += w == d
            first_won += w == first
            if w >= 0:
                decided += 1
                if w < seats:
                    row[win_at + w] += 1
            tables[n] += 1
            if with_scores:
                for s in range(seats):
                    row[pts_at + s] += np.int64(scores[i, s])
            row[reason_at + reason_of[codes[i]]] += 1
        row[HS_N] = run_end(starts, r, rows) - starts[r]
        row[HS_TURNS] = n_turns
        row[HS_TURNS2] = n_turns2
        row[HS_POINTS] = n_points
        row[HS_POINTS2] = n_points2
        row[HS_DECIDED] = decided
        row[HS_DEALER_WIN] = dealer_won
        row[HS_FIRST_WIN] = first_won
        for size in range(1, MAX_PLAYERS + 1):
            for s in range(min(size, seats)):
                row[seats_at + s] += tables[size]
