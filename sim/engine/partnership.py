"""4-player partnership gin (RULES.md §3.19): each hand is two 2-player gin hands, one at
each table with its own pack, and the teams score from both.

Seats 0 and 2 are one team (A), seats 1 and 3 the other (B). Partners switch opponents every
hand: tables 0-1 and 2-3 on even hands of the game, 0-3 and 2-1 on odd hands. At each table
the dealer is the game's dealer for this hand if he sits there, else his partner (so one
team deals at both tables, and the deal passes to the left each hand). A table is played by
``knock.play_knock_hand`` on a 2-player state; its deal number is ``2 * deal + table``.

Team score of a hand: what each team's winners scored is summed; if both teams scored, the
one that scored more records the difference (equal: nothing); a void table adds nothing.
Both partners carry their team's score in the hands table.
"""

from __future__ import annotations

from sim.engine.jit import kernel
from sim.engine.knock import play_knock_hand
from sim.engine.layout import P_AUDIT, REASON_VOID
from sim.engine.state import (
    E_TABLE,
    E_TEAMS,
    EV_COLS,
    EV_PLAYER,
    SC_DRAWS_DISCARD,
    SC_DRAWS_STOCK,
    SC_LOG,
    SC_N_EVENTS,
    SC_VIOLATIONS,
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
def play_partnership_hand(
    st,
    st2,
    params2,
    values,
    bots,
    bots2,
    dealer,
    hand_index,
    seed,
    shard,
    deal,
    preset,
    scores,
    scores2,
    left2,
    extra2,
    extra,
):
    """Play both tables of one partnership hand. ``st``/``st2`` are the 4-player and the
    2-player states, ``params2`` the rules with 2 players, ``bots2``/``scores2``/``left2``/
    ``extra2`` 2-seat scratch arrays. Writes each seat's hand score to ``scores`` (int64[4]),
    its side bonuses to ``extra`` (int64[4]) and the tables' draws and audit violations to
    ``st``. Returns (reason of the table that decided, winner seat or -1, turns of both
    tables)."""
    points_a = 0
    points_b = 0
    turns = 0
    draws_stock = 0
    draws_discard = 0
    best_seat = -1
    best_points = -1
    best_reason = REASON_VOID
    first_reason = REASON_VOID
    for table in range(TABLES):
        a, b = table_seats(hand_index, table)
        bots2[0] = bots[a]
        bots2[1] = bots[b]
        table_dealer = 0 if dealer == a or dealer == (a + 2) % 4 else 1
        reason, winner, t = play_knock_hand(
            st2,
            params2,
            values,
            bots2,
            table_dealer,
            seed,
            shard,
            2 * deal + table,
            preset,
            scores2,
            left2,
            extra2,
        )
        if st.sc[SC_LOG] == 1:
            copy_table_log(st, st2, table, a, b)
        turns += t
        draws_stock += st2.sc[SC_DRAWS_STOCK]
        draws_discard += st2.sc[SC_DRAWS_DISCARD]
        st.sc[SC_VIOLATIONS] += st2.sc[SC_VIOLATIONS]
        st2.sc[SC_VIOLATIONS] = 0
        if table == 0:
            first_reason = reason
        extra[a] = extra2[0]  # each seat plays at one table
        extra[b] = extra2[1]
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
    st.sc[SC_DRAWS_STOCK] = draws_stock
    st.sc[SC_DRAWS_DISCARD] = draws_discard
    scoring = team_result(points_a, points_b, scores)
    log_event(st, E_TEAMS, -1, scores[0], scores[1])
    if params2[P_AUDIT] == 1:
        st.sc[SC_VIOLATIONS] += check_team_scores(points_a, points_b, scores)
    if scoring < 0:  # both tables void or stalled, or equal scores on both sides
        return (best_reason if best_seat >= 0 else first_reason), -1, turns
    # the scoring team's player whose table scored most (with one winner per team, the
    # larger score is the scoring team's)
    return best_reason, best_seat, turns


@kernel
def copy_table_log(st, st2, table, a, b):
    """Append table ``table``'s event log (``st2``'s, seats 0 and 1 there) to ``st``'s after
    an ``E_TABLE`` event, with its seats renamed to the game's seats ``a`` and ``b``."""
    log_event(st, E_TABLE, a, table, b)
    for i in range(st2.sc[SC_N_EVENTS]):
        row = st.sc[SC_N_EVENTS]
        if row >= st.events.shape[0]:
            return
        for c in range(EV_COLS):  # (a slice assignment would need the runtime's copy)
            st.events[row, c] = st2.events[i, c]
        player = st2.events[i, EV_PLAYER]
        if player == 0:
            st.events[row, EV_PLAYER] = a
        elif player == 1:
            st.events[row, EV_PLAYER] = b
        st.sc[SC_N_EVENTS] = row + 1


@kernel
def team_result(points_a, points_b, scores):
    """§3.19: what each team's winners scored (``points_a``, ``points_b``) to each seat's hand
    score in ``scores`` (int64[4]): both teams scored, the larger records the difference
    (equal: nothing); else the team that scored records its sum. Returns the scoring team
    (0: seats 0 and 2, 1: seats 1 and 3) or -1."""
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
    """Audit: partners carry the same score, at most one team scores, and never more than its
    winners scored."""
    bad = 0
    if scores[0] != scores[2] or scores[1] != scores[3]:
        bad += 1
    if scores[0] > 0 and scores[1] > 0:
        bad += 1
    if scores[0] > points_a or scores[1] > points_b or scores[0] < 0 or scores[1] < 0:
        bad += 1
    return bad
