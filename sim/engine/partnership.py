"""4-player partnership gin (RULES.md §3.19): each hand is two 2-player gin hands, one at
each table with its own pack, and the teams score from both.

Rule slots read here: ``audit`` (each table's hand reads its own through ``hand.py``).

Seats 0 and 2 are one team (A), seats 1 and 3 the other (B). Partners switch opponents
every hand: tables 0-1 and 2-3 on even hands of the game, 0-3 and 2-1 on odd hands. At
each table the dealer is the game's dealer for this hand if he sits there, else his
partner (so one team deals at both tables, and the deal passes to the left each hand). A
table is one ``hand.play_hand`` of 2 players (``params2``) on the same state, its seats 0
and 1 the table's team A and team B seats; its deal number is ``2 * deal + table``.

Team score of a hand: what each team's winners scored is summed; if both teams scored,
the one that scored more records the difference (equal: nothing); a void table adds
nothing. Both partners carry their team's score.
"""

from __future__ import annotations

from sim.engine.hand import play_hand
from sim.engine.jit import kernel
from sim.engine.layout import P_AUDIT, REASON_VOID
from sim.engine.specs import rule
from sim.engine.state import (
    C_DRAWS_DISCARD,
    C_DRAWS_STOCK,
    C_N_EVENTS,
    C_VIOLATIONS,
    E_TABLE,
    E_TEAMS,
    EV_SEAT,
    R_SC,
    log_event,
)

TEAMS = 2
TABLES = 2


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
def play_partnership_hand(
    fx,
    params2,
    values,
    bots,
    bots2,
    st,
    piles,
    rng,
    work,
    events,
    seed,
    shard,
    deal,
    dealer,
    hand_index,
    scores,
    side,
    scores2,
    side2,
):
    """Play both tables of one partnership hand (module docstring). Writes each seat's hand
    score to ``scores`` and side bonuses to ``side`` (int64[4]); returns (reason of the
    table that decided, winner seat or -1, turns, stock draws, discard draws and audit
    violations of both tables)."""
    points_a = 0
    points_b = 0
    turns = 0
    draws_stock = 0
    draws_discard = 0
    violations = 0
    best_seat = -1
    best_points = -1
    best_reason = REASON_VOID
    first_reason = REASON_VOID
    for table in range(TABLES):
        a, b = table_seats(hand_index, table)
        bots2[0] = bots[a]
        bots2[1] = bots[b]
        table_dealer = 0 if dealer == a or dealer == (a + 2) % 4 else 1
        log_event(st, events, E_TABLE, a, table, b)
        first_event = st[R_SC, C_N_EVENTS]
        reason, winner, t = play_hand(
            fx,
            params2,
            values,
            bots2,
            st,
            piles,
            rng,
            work,
            events,
            seed,
            shard,
            2 * deal + table,
            table_dealer,
            scores2,
            side2,
        )
        for i in range(first_event, st[R_SC, C_N_EVENTS]):  # the table's seats to the game's
            if events[i, EV_SEAT] == 0:
                events[i, EV_SEAT] = a
            elif events[i, EV_SEAT] == 1:
                events[i, EV_SEAT] = b
        turns += t
        draws_stock += st[R_SC, C_DRAWS_STOCK]
        draws_discard += st[R_SC, C_DRAWS_DISCARD]
        violations += st[R_SC, C_VIOLATIONS]
        if table == 0:
            first_reason = reason
        side[a] = side2[0]  # each seat plays at one table
        side[b] = side2[1]
        if winner < 0:
            continue
        seat = a if winner == 0 else b
        points = scores2[winner]
        if seat % 2 == 0:
            points_a += points
        else:
            points_b += points
        if points > best_points:
            best_points = points
            best_seat = seat
            best_reason = reason
    scoring = team_result(points_a, points_b, scores)
    log_event(st, events, E_TEAMS, -1, scores[0], scores[1])
    if rule(fx, params2, P_AUDIT) == 1:
        violations += check_team_scores(points_a, points_b, scores)
    if scoring < 0:  # both tables void or stalled, or equal scores on both sides
        reason = best_reason if best_seat >= 0 else first_reason
        return reason, -1, turns, draws_stock, draws_discard, violations
    # the scoring team's player whose table scored most (with one winner per team, the
    # larger score is the scoring team's)
    return best_reason, best_seat, turns, draws_stock, draws_discard, violations
