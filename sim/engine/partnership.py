"""4-player partnership gin (RULES.md §3.19): each hand is two 2-player gin hands, one at
each table with its own pack, and the teams score from both.

Rule slots read here: ``audit`` (each table's hand reads its own through ``hand.py``).

Seats 0 and 2 are one team (A), seats 1 and 3 the other (B). Partners switch opponents
every hand: tables 0-1 and 2-3 on even hands of the game, 0-3 and 2-1 on odd hands. At
each table the dealer is the game's dealer for this hand if he sits there, else his
partner (so one team deals at both tables, and the deal passes to the left each hand). A
table is one hand of 2 players (``params2``) on the same state, its seats 0 and 1 the
table's team A and team B seats; its deal number is ``2 * deal + table``. ``game.play_games``
plays the tables: ``seat_table``, the hand, ``tally_table``; then ``team_hand``.

Team score of a hand: what each team's winners scored is summed; if both teams scored,
the one that scored more records the difference (equal: nothing); a void table adds
nothing. Both partners carry their team's score.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import FAMILY_GIN, P_AUDIT, P_FAMILY, REASON_VOID
from sim.engine.rows import H_VIOLATIONS
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_N_EVENTS,
    E_TABLE,
    E_TEAMS,
    EV_SEAT,
    R_SC,
    log_event,
)

TEAMS = 2
TABLES = 2

# a partnership hand's tally of its tables (int64[N_TALLY]), kept by ``play_games``
T_POINTS_A = 0  # what team A's (seats 0 and 2) winners scored; team B's is the next slot
T_POINTS_B = 1
T_BEST_SEAT = 2  # the seat whose table scored most, -1: none yet
T_BEST_POINTS = 3
T_BEST_REASON = 4  # that table's end reason
T_FIRST_REASON = 5  # table 0's end reason (when neither table scored)
N_TALLY = 6


@kernel
def table_seats(hand_index, table):
    """The (team A seat, team B seat) of ``table`` on the ``hand_index``-th hand of a game."""
    a = 2 * table  # 0 or 2
    b = 1 + 2 * table if hand_index % 2 == 0 else 3 - 2 * table  # 1, 3 or 3, 1
    return a, b


@kernel
def team_result(points_a, points_b, scores):
    """§3.19: what each team's winners scored to each seat's hand score in ``scores``
    (int64[4]): both teams scored, the larger records the difference (equal: nothing);
    else the team that scored records its sum. Returns the scoring team (0: seats 0 and 2,
    1: seats 1 and 3) or -1."""
    a, b = points_a, points_b
    if a > 0 and b > 0:
        a, b = max(a - b, 0), max(b - a, 0)
    for seat in range(4):
        scores[seat] = a if seat % 2 == 0 else b
    if a > 0:
        return 0
    if b > 0:
        return 1
    return -1


@kernel
def check_team_scores(points_a, points_b, scores):
    """Audit: partners carry the same score, at most one team scores, and never more than
    its winners scored."""
    bad = 0
    if scores[0] != scores[2] or scores[1] != scores[3]:
        bad += 1
    if scores[0] > 0 and scores[1] > 0:
        bad += 1
    if scores[0] > points_a or scores[1] > points_b or scores[0] < 0 or scores[1] < 0:
        bad += 1
    return bad


@kernel
def seat_table(bots, bots2, st, events, hand_index, table, dealer, deal):
    """Seat ``table`` of the ``hand_index``-th hand of a game (module docstring): its bots
    into ``bots2`` (int64[2]: team A's seat, then team B's; then their restriction flags,
    int64[4], when ``bots`` holds the four seats' flags, ``sim.engine.restrict``); logs the
    table. Returns (its deal number, its dealer: 0 or 1, the first event row of its
    hand)."""
    a, b = table_seats(hand_index, table)
    bots2[0] = bots[a]
    bots2[1] = bots[b]
    if bots2.shape[0] == 4:
        bots2[2] = bots[4 + a]
        bots2[3] = bots[4 + b]
    table_dealer = 0 if dealer == a or dealer == (a + 2) % 4 else 1
    log_event(st, events, np.int64(E_TABLE), a, table, b)
    return 2 * deal + table, table_dealer, st[R_SC, C_N_EVENTS]


@kernel
def tally_table(st, events, tally, hand_index, table, first_event, reason, winner, scores2,
                side2, side):  # fmt: skip
    """Add ``table``'s hand, which ended with ``reason`` and ``winner`` (0, 1 or -1) and
    wrote its events from row ``first_event``, to ``tally`` (int64[N_TALLY], ``T_*``,
    zeroed before the first table): its events and side bonuses (``side``, int64[4]) go to
    the game's seats, its points to its winner's team."""
    a, b = table_seats(hand_index, table)
    for i in range(first_event, st[R_SC, C_N_EVENTS]):  # the table's seats to the game's
        if events[i, EV_SEAT] == 0:
            events[i, EV_SEAT] = a
        elif events[i, EV_SEAT] == 1:
            events[i, EV_SEAT] = b
    if table == 0:
        tally[T_FIRST_REASON] = reason
        tally[T_BEST_SEAT] = -1
        tally[T_BEST_POINTS] = -1
        tally[T_BEST_REASON] = REASON_VOID
    side[a] = side2[0]  # each seat plays at one table
    side[b] = side2[1]
    if winner < 0:
        return
    seat = a if winner == 0 else b
    points = scores2[winner]
    tally[T_POINTS_A + seat % 2] += points
    if points > tally[T_BEST_POINTS]:
        tally[T_BEST_POINTS] = points
        tally[T_BEST_SEAT] = seat
        tally[T_BEST_REASON] = reason


@gated(P_FAMILY, lambda v: v == FAMILY_GIN, (np.int64(0), np.int64(-1)))
@kernel
def team_hand(fx, params, st, events, tally, scores, row):
    """The partnership hand's result from both tables' ``tally``: each seat's hand score
    into ``scores`` (int64[4]), the team-score audit's violations added to the hand's
    ``row`` (``sim.engine.rows``, which holds both tables' counts); returns (reason of the
    table that decided, winner seat or -1)."""
    points_a = tally[T_POINTS_A]
    points_b = tally[T_POINTS_B]
    scoring = team_result(points_a, points_b, scores)
    log_event(st, events, np.int64(E_TEAMS), np.int64(-1), scores[0], scores[1])
    if rule(fx, params, P_AUDIT) == 1:
        row[H_VIOLATIONS] += check_team_scores(points_a, points_b, scores)
    best_seat = tally[T_BEST_SEAT]
    reason = tally[T_BEST_REASON]
    winner = best_seat
    if scoring < 0:  # both tables void or stalled, or equal scores on both sides
        winner = -1
        if best_seat < 0:
            reason = tally[T_FIRST_REASON]
    # else the scoring team's player whose table scored most (with one winner per team, the
    # larger score is the scoring team's)
    return reason, winner
