"""Going out by knocking (mechanic KN of RULES.md §4C; §2I.32, §3.10, §3.17, §3.20): may
this player end the hand now?

Rule slots read here: ``meld_timing``, ``knock_limit``.

Under ``meld_timing = "knock"`` no meld reaches the table during play; after his draw a
player discards and may knock when the deadwood he keeps after the discard (the best
arrangement of his hand, ``layoffs.seat_arrangement``) is within the hand's knock limit:
``unlimited`` (any count), 10, 5, or ``upcard`` (Oklahoma: the upcard's value, 10 for a
ten or a picture, 2-9 their pips, an ace gin only).
"""

from __future__ import annotations

from sim.cards import N_SUITS
from sim.engine.jit import kernel
from sim.engine.layoffs import seat_arrangement
from sim.engine.layout import (
    KNOCK_UNLIMITED,
    KNOCK_UPCARD,
    P_KNOCK_LIMIT,
    P_MELD_TIMING,
    TIMING_KNOCK,
)
from sim.engine.specs import rule
from sim.engine.state import C_UPCARD, R_SC, R_SEAT, S_HAND

NO_LIMIT = -1  # knock_limit = unlimited: any deadwood may knock
BOT_OWN_LIMIT = 10  # the bots' own limit where the rules set none (docs/bots.md)


@kernel
def knocking(fx, params):
    """Do players knock rather than meld during play (``meld_timing = "knock"``)?"""
    return rule(fx, params, P_MELD_TIMING) == TIMING_KNOCK


@kernel
def upcard_limit(card):
    """§2I.32 ``upcard``: the limit an upcard sets (an ace: 0, gin only)."""
    rank = card // N_SUITS
    if rank == 0:
        return 0
    return min(rank + 1, 10)


@kernel
def knock_limit(fx, params, st):
    """This hand's knock limit, or ``NO_LIMIT``."""
    limit = rule(fx, params, P_KNOCK_LIMIT)
    if limit == KNOCK_UNLIMITED:
        return NO_LIMIT
    if limit == KNOCK_UPCARD:
        up = st[R_SC, C_UPCARD]
        return upcard_limit(up) if up >= 0 else 10
    return limit


@kernel
def bot_limit(fx, params, st):
    """The most deadwood the simple and greedy bots knock with: the hand's limit, or 10
    where the rules set none."""
    limit = knock_limit(fx, params, st)
    return BOT_OWN_LIMIT if limit == NO_LIMIT else limit


@kernel
def within_limit(fx, params, st, deadwood):
    """May a player keeping ``deadwood`` after his discard knock?"""
    limit = knock_limit(fx, params, st)
    return limit == NO_LIMIT or deadwood <= limit


@kernel
def may_knock(fx, params, values, st, work, seat):
    """May ``seat``, his discard made, knock now? Returns (allowed, his deadwood)."""
    hand = st[R_SEAT + seat, S_HAND]
    deadwood, _ = seat_arrangement(fx, params, values, st, work, seat, hand, True)
    return within_limit(fx, params, st, deadwood), deadwood
