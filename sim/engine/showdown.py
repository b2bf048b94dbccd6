"""The showdown after a knock (mechanics KN and DW of RULES.md §4C; §1.13, §3.10, §3.17).

Rule slots read here: ``players``, ``layoff_target`` (and through ``layoffs.py``
``ace_rank`` and ``run_suit``).

The knocker lays down his best arrangement (``layoffs.arrange_mask``, the meld library's
tie-break) on the table; his deadwood is what it leaves. Then each other player in turn
from the knocker's left (a seat sitting out, side -1, is skipped) shows his hand: under
``layoff_target = "any"`` (gin) and unless the knocker went gin, he first lays off on the
knocker's melds the cards ``layoffs.best_layoffs`` chooses (chains included, each defender
after the ones before him, §3.17 open point 3), in the order ``layoffs.plan_layoffs``
gives (with runs of any suit a card may fit two runs, and only one choice lets the next
card follow); his deadwood is the best arrangement of the cards he keeps. Under ``none``
(knock rummy, §3.10 open point 5) nothing is laid off.
Each player's deadwood goes to ``S_DEADWOOD``; ``E_SHOW`` logs it with the cards laid off.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bitops import lowest_bit
from sim.engine.jit import kernel
from sim.engine.layoffs import (
    PLAN_CARD,
    PLAN_MELD,
    arrange_mask,
    best_layoffs,
    plan_layoffs,
    seat_deadwood,
)
from sim.engine.layout import LAYOFF_ANY, P_LAYOFF_TARGET, P_MELD_TIMING, P_PLAYERS, TIMING_KNOCK
from sim.engine.melds import S_BEST_N, W_BEST, W_FRAME, W_SCAL
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_VIOLATIONS,
    E_SHOW,
    M_FITS,
    R_MELD,
    R_SC,
    R_SEAT,
    S_DEADWOOD,
    S_HAND,
    S_SIDE,
    log_card,
    log_event,
)
from sim.engine.table import lay_down, lay_off


@kernel
def lay_off_all(fx, params, st, work, events, seat, owner, cards):
    """``seat`` lays ``cards`` (a set ``layoffs.best_layoffs`` chose) off on ``owner``'s
    melds in the order ``layoffs.plan_layoffs`` gives; a card that does not fit when its
    turn comes, or is left over, is an audit violation."""
    left = cards
    for i in range(plan_layoffs(fx, params, st, work, owner, cards)):
        m = work[W_FRAME + i, PLAN_MELD]
        k = work[W_FRAME + i, PLAN_CARD]
        bit = np.int64(1) << k
        if left & bit == 0 or st[R_MELD + m, M_FITS] & bit == 0:
            break
        lay_off(fx, params, st, events, seat, m, k)
        left &= ~bit
    if left != 0:
        st[R_SC, C_VIOLATIONS] += 1


@kernel
def _show(st, events, seat, deadwood, laid):
    """Log ``seat``'s showdown: his deadwood and the cards he laid off."""
    event = log_event(st, events, np.int64(E_SHOW), seat, deadwood, np.int64(0))
    while event >= 0 and laid != 0:
        log_card(events, event, lowest_bit(laid))
        laid &= laid - 1


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, None)
@kernel
def showdown(fx, params, values, st, work, events, knocker):
    """Every hand shown after ``knocker``'s knock (module docstring)."""
    players = rule(fx, params, P_PLAYERS)
    dw, _ = arrange_mask(fx, params, values, work, st[R_SEAT + knocker, S_HAND])
    for m in range(work[W_SCAL, S_BEST_N]):
        lay_down(fx, params, st, events, knocker, work, W_BEST + m)
    st[R_SEAT + knocker, S_DEADWOOD] = dw
    _show(st, events, knocker, dw, np.int64(0))
    lay = rule(fx, params, P_LAYOFF_TARGET) == LAYOFF_ANY and dw > 0
    for off in range(1, players):
        p = knocker + off
        if p >= players:
            p -= players
        if st[R_SEAT + p, S_SIDE] < 0:
            continue  # sits this hand out
        hand = st[R_SEAT + p, S_HAND]
        laid = np.int64(0)
        if lay:
            d, laid = best_layoffs(fx, params, values, st, work, p, hand, knocker)
            lay_off_all(fx, params, st, work, events, p, knocker, laid)
        else:
            d = seat_deadwood(fx, params, values, st, work, p, hand)
        st[R_SEAT + p, S_DEADWOOD] = d
        _show(st, events, p, d, laid)
