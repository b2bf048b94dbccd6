"""Deal-time events (mechanic DE of RULES.md §4C): Tonk's instant tonk (§3.22, §2L.56-57).

Rule slots read here: ``players``, ``family``, ``tonk_instant``, ``tonk_super``.

After the deal each player counts his hand (RULES.md §1.9 values). A hand that is a tonk
(``tonk_instant``: ``49_50`` a total of 49 or 50, ``47_50`` 47 or 50 (the 40-card pack's,
§2A.7), ``50``, ``le15`` at most 15, ``le11`` at
most 11; ``ranked``: 49, 50 or at most 15) is shown and the hand is not played. With
``tonk_super = "le9"`` a total of at most 9 is a super tonk, which outranks any ordinary
tonk. When several players hold tonks: under ``ranked`` the better one wins (50 beats 49,
15 beats 50, anything below 15 beats 15, lower beats higher among those); otherwise every
tonk is as good as another. Equal best tonks: nobody is paid and the cards are redealt by
the same dealer (§3.22 default; ``game.py``). ``chips.py`` settles the tonk.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import (
    FAMILY_TONK,
    INSTANT_47_50,
    INSTANT_49_50,
    INSTANT_50,
    INSTANT_LE11,
    INSTANT_LE15,
    P_FAMILY,
    P_PLAYERS,
    P_TONK_INSTANT,
    P_TONK_SUPER,
    SUPER_LE9,
)
from sim.engine.scoring import hand_value
from sim.engine.specs import gated, rule
from sim.engine.state import E_TONK, log_event

NO_TONK = -1  # ``instant_tonk``: nobody holds a tonk; play the hand
TIED_TONKS = -2  # ``instant_tonk``: several hold the best tonk; redeal
LOW_TONK = 15  # ranked and le15: a total at most this is a tonk
LOWER_TONK = 11  # le11
SUPER_TONK_MAX = 9  # tonk_super = le9
SUPER_RANK = 1000  # a super tonk outranks every ordinary tonk's rank


@kernel
def tonk_rank(fx, params, total):
    """How good a dealt ``total`` is as an instant tonk: 0 when it is none, and a higher
    rank beats a lower one (module docstring)."""
    if rule(fx, params, P_TONK_SUPER) == SUPER_LE9 and total <= SUPER_TONK_MAX:
        return SUPER_RANK
    how = rule(fx, params, P_TONK_INSTANT)
    if how == INSTANT_49_50:
        return 1 if total == 49 or total == 50 else 0
    if how == INSTANT_47_50:  # the 40-card pack's (§2A.7): 48 and 49 cannot be dealt
        return 1 if total == 47 or total == 50 else 0
    if how == INSTANT_50:
        return 1 if total == 50 else 0
    if how == INSTANT_LE15:
        return 1 if total <= LOW_TONK else 0
    if how == INSTANT_LE11:
        return 1 if total <= LOWER_TONK else 0
    # ranked: 49 < 50 < 15 < 14 < ... < 0
    if total == 49:
        return 1
    if total == 50:
        return 2
    return 3 + LOW_TONK - total if total <= LOW_TONK else 0


@gated(P_FAMILY, lambda v: v == FAMILY_TONK, np.int64(NO_TONK))
@kernel
def instant_tonk(fx, params, values, st, events):
    """Tonk, after the deal: the seat whose tonk wins, ``NO_TONK`` or ``TIED_TONKS``
    (module docstring); every tonk is logged (``E_TONK``)."""
    best = 0
    who = np.int64(NO_TONK)
    for p in range(rule(fx, params, P_PLAYERS)):
        rank = tonk_rank(fx, params, hand_value(fx, params, values, st, p))
        if rank > best:
            best, who = rank, p
        elif rank == best and rank > 0:
            who = TIED_TONKS
    if best == 0:
        return who
    for p in range(rule(fx, params, P_PLAYERS)):
        total = hand_value(fx, params, values, st, p)
        if tonk_rank(fx, params, total) > 0:
            tied = 1 if who == TIED_TONKS and tonk_rank(fx, params, total) == best else 0
            log_event(st, events, np.int64(E_TONK), p, total, np.int64(tied))
    return who
