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

# the columns of a game run's sums (``summaries.game_sum_names``): these, then wins per seat
GS_N = 0
GS_HANDS = 1
GS_HANDS2 = 2
GS_MARGIN = 3
GS_MARGIN2 = 4
GS_COMEBACK = 5
GS_DECIDED = 6
GS_LEAD_CHANGES = 7
GS_LEAD_CHANGES2 = 8
GS_CAPPED = 9
GS_FIXED = 10


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


@kernel
def run_histogram(starts, values, low, out):
    """Per run, how many rows hold each value: ``out[r, v - low]`` (int64[runs, width]) for
    every value ``v`` of ``values``, all in ``low .. low + width - 1``."""
    rows = values.shape[0]
    for r in range(starts.shape[0]):
        row = out[r]
        for i in range(starts[r], run_end(starts, r, rows)):
            row[np.int64(values[i]) - low] += 1


@kernel
def final_margins(final, length, winner, out):
    """Each game's final margin into ``out`` (int64[games]): the winner's final score minus
    the best other side's, or, where nobody won (``winner`` -1, or past the game's
    ``length`` sides), the best score minus the second best. ``final`` int64[games, width]:
    the sides' final scores, the first ``length[g]`` (at least two) of each row real."""
    for g in range(final.shape[0]):
        sides = length[g]
        w = np.int64(winner[g])
        if 0 <= w < sides:
            best_other = np.iinfo(np.int64).min
            for s in range(sides):
                if s != w and final[g, s] > best_other:
                    best_other = final[g, s]
            out[g] = final[g, w] - best_other
        else:
            first = np.iinfo(np.int64).min
            second = np.iinfo(np.int64).min
            for s in range(sides):
                v = final[g, s]
                if v > first:
                    second = first
                    first = v
                elif v > second:
                    second = v
            out[g] = first - second


@kernel
def game_run_sums(starts, hands, margin, comeback, winner, lead_changes, capped, out):
    """Per run of games, into ``out`` (int64[runs, GS_FIXED + seats]): games, Σhands,
    Σhands², Σmargin, Σmargin², comebacks, games someone won, Σlead changes, Σ(lead
    changes)², games the hand cap ended; then per seat s the games s won (``winner`` a seat
    below ``seats`` or -1; ``comeback`` and ``capped`` nonzero where true)."""
    seats = out.shape[1] - GS_FIXED
    rows = winner.shape[0]
    for r in range(starts.shape[0]):
        row = out[r]
        for i in range(starts[r], run_end(starts, r, rows)):
            h = np.int64(hands[i])
            m = np.int64(margin[i])
            c = np.int64(lead_changes[i])
            w = np.int64(winner[i])
            row[GS_N] += 1
            row[GS_HANDS] += h
            row[GS_HANDS2] += h * h
            row[GS_MARGIN] += m
            row[GS_MARGIN2] += m * m
            if comeback[i] != 0:
                row[GS_COMEBACK] += 1
            if w >= 0:
                row[GS_DECIDED] += 1
                if w < seats:
                    row[GS_FIXED + w] += 1
            row[GS_LEAD_CHANGES] += c
            row[GS_LEAD_CHANGES2] += c * c
            if capped[i] != 0:
                row[GS_CAPPED] += 1
