"""Carousel's round settlement and game end (RULES.md §3.16, its open points 4-6, §2M.59
``carousel_round_bonus_to``).

Rule slots read here: ``family``, ``players``, ``game_end``, ``carousel_round_bonus_to``.

**The round** (``settle_carousel``). The points left in each hand are counted (§3.16:
joker 25, J/Q/K 10, 2-10 their pips, ace 1). The winners are the players on the fewest
points (open point 4: all of them when tied), except a knocker tied with others, who
loses to them (one other: he wins; two others: both win). Each winner scores the sum of
his differences to every other player (at 2 players, the difference); +10 when the round
ended by a knock he did not make (the undercut); +25 to a player who ended it by playing
all his cards. The stock-out's totals pay no undercut. The end reason is ``knock`` when
the knocker won, ``undercut`` when he did not, ``went_out`` and ``stock_out`` otherwise;
the winner is -1 when several won. The winners are kept as a bit a seat
(``C_ROUND_WINNERS``), which ``game.py`` counts as rounds won (``round_wins``). A stalled
round scores nothing and has no winner.

**The game** (``carousel_over``, ``carousel_final``). When one or more players have the
target (150) or more at the end of a round, the game ends: each of them gets +100, and
every other player +25 for each round he won (``others_only``; ``all_players``: every
player gets his 25s); the highest final total wins, and a tie plays on (open point 6).
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import (
    BONUS_TO_ALL_PLAYERS,
    CAROUSEL_ALL_PLAYED,
    CAROUSEL_GAME_BONUS,
    CAROUSEL_ROUND_BONUS,
    CAROUSEL_UNDERCUT,
    END_TARGET,
    FAMILY_CAROUSEL,
    P_CAROUSEL_BONUS_TO,
    P_FAMILY,
    P_GAME_END,
    P_GAME_END_ARG,
    P_PLAYERS,
    REASON_KNOCK,
    REASON_STOCK_OUT,
    REASON_UNDERCUT,
    REASON_WENT_OUT,
)
from sim.engine.scoring import hand_value
from sim.engine.specs import gated, rule
from sim.engine.state import C_ROUND_WINNERS, R_SC


@kernel
def round_winners(fx, params, values, st, reason, ender):
    """The round's winners as a bit a seat (module docstring)."""
    players = rule(fx, params, P_PLAYERS)
    low = hand_value(fx, params, values, st, np.int64(0))
    for p in range(1, players):
        low = min(low, hand_value(fx, params, values, st, p))
    winners = np.int64(0)
    tied = 0
    for p in range(players):
        if hand_value(fx, params, values, st, p) == low:
            winners |= np.int64(1) << p
            tied += 1
    if reason == REASON_KNOCK and tied > 1 and (winners >> ender) & 1:
        winners &= ~(np.int64(1) << ender)  # a tied knocker loses to the others
    return winners


@gated(P_FAMILY, lambda v: v == FAMILY_CAROUSEL, (np.int64(0), np.int64(0)))
@kernel
def settle_carousel(fx, params, values, st, reason, ender, scores):
    """Score the round that ``ender`` ended with ``reason`` (``knock``, ``went_out``; the
    stock-out's ``stock_out`` has no ender) into ``scores`` (module docstring); returns the
    end reason and the winner (-1: several, or none)."""
    players = rule(fx, params, P_PLAYERS)
    st[R_SC, C_ROUND_WINNERS] = 0
    if reason != REASON_KNOCK and reason != REASON_WENT_OUT and reason != REASON_STOCK_OUT:
        return reason, np.int64(-1)  # stalled: no score (engine policy, §1.8)
    winners = round_winners(fx, params, values, st, reason, ender)
    st[R_SC, C_ROUND_WINNERS] = winners
    winner = np.int64(-1)
    for w in range(players):
        if (winners >> w) & 1 == 0:
            continue
        mine = hand_value(fx, params, values, st, w)
        total = np.int64(0)
        for p in range(players):
            if p != w:
                total += hand_value(fx, params, values, st, p) - mine
        if reason == REASON_KNOCK and w != ender:
            total += CAROUSEL_UNDERCUT
        if reason == REASON_WENT_OUT and w == ender:
            total += CAROUSEL_ALL_PLAYED
        scores[w] = total
        winner = w if winner == -1 else np.int64(-2)
    if winner == -2:
        winner = np.int64(-1)
    if reason == REASON_KNOCK and (winners >> ender) & 1 == 0:
        reason = np.int64(REASON_UNDERCUT)
    return reason, winner


@kernel
def round_wins(st, won, players):
    """Count the round just settled for each of its winners (``C_ROUND_WINNERS``)."""
    for p in range(players):
        if (st[R_SC, C_ROUND_WINNERS] >> p) & 1:
            won[p] += 1


@gated(P_FAMILY, lambda v: v == FAMILY_CAROUSEL, None)
@kernel
def carousel_final(fx, params, totals, won, players, final):
    """``final``: the game's final totals (module docstring) from the ``totals`` and the
    rounds each player ``won``; the totals themselves while nobody has reached the target."""
    target = rule(fx, params, P_GAME_END_ARG)
    reached = False
    for p in range(players):
        final[p] = totals[p]
        if totals[p] >= target:
            reached = True
    if not reached or rule(fx, params, P_GAME_END) != END_TARGET:
        return
    everyone = rule(fx, params, P_CAROUSEL_BONUS_TO) == BONUS_TO_ALL_PLAYERS
    for p in range(players):
        if totals[p] >= target:
            final[p] += CAROUSEL_GAME_BONUS
        if totals[p] < target or everyone:
            final[p] += CAROUSEL_ROUND_BONUS * won[p]


@gated(P_FAMILY, lambda v: v == FAMILY_CAROUSEL, (np.bool_(False), np.int64(-1)))
@kernel
def carousel_over(fx, params, totals, won, players, final):
    """Does the game end now (a player at the target, a single highest final total), and
    who wins it? Writes the final totals to ``final``."""
    carousel_final(fx, params, totals, won, players, final)
    target = rule(fx, params, P_GAME_END_ARG)
    top = totals[0]
    for p in range(players):
        top = max(top, totals[p])
    if top < target:
        return False, np.int64(-1)
    best = final[0]
    who = np.int64(0)
    shared = False
    for p in range(1, players):
        if final[p] > best:
            best = final[p]
            who = np.int64(p)
            shared = False
        elif final[p] == best:
            shared = True
    if shared:
        return False, np.int64(-1)  # open point 6: extra rounds
    return True, who
