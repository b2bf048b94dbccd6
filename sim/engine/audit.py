"""Audit mode: invariants checked after every action when ``params[P_AUDIT]`` is 1.

Kernels never raise; each broken invariant adds one to ``sc[SC_VIOLATIONS]``, which the
game loop reports. The checks are written independently of the code that moves cards.
"""

from __future__ import annotations

from sim.engine.jit import kernel
from sim.engine.layout import (
    JREPLACE_STEAL,
    N_KINDS,
    N_NATURAL,
    P_JOKER_REPLACE,
    P_PLAYERS,
    P_SCORING,
    P_STOCK_EXHAUSTION,
    REASON_BLOCK,
    REASON_EXHAUSTED,
    REASON_STALLED,
    SCORE_PENALTY,
    STOCK_BLOCK_TOTALS,
)
from sim.engine.melds import S_OVERFLOW, meld_is_legal
from sim.engine.state import (
    KR_SHOE,
    KR_TMP,
    MC_CARDS,
    MC_LEN,
    MC_START,
    MC_SUIT,
    MC_TYPE,
    PILE_DISCARD,
    PILE_STOCK,
    PL_BITS,
    PL_N,
    SC_DISCARD_N,
    SC_N_MELDS,
    SC_STEALS_TURN,
    SC_STOCK_N,
    SC_VIOLATIONS,
)
from sim.engine.table import declarations_legal


@kernel
def check_state(st, params):
    """Every card of the shoe in exactly one place, hand sizes and bitmasks consistent with
    the counts, every table meld legal, and the meld search never truncated. Returns the
    violations found."""
    bad = 0
    seen = st.kinds[KR_TMP]
    for k in range(N_KINDS):
        seen[k] = 0
    players = params[P_PLAYERS]
    for p in range(players):
        n = 0
        held = 0
        for k in range(N_KINDS):
            if st.hand[p, k] < 0:
                bad += 1
            seen[k] += st.hand[p, k]
            n += st.hand[p, k]
            if k < N_NATURAL and st.hand[p, k] > 0:
                held |= 1 << k
        if n != st.pl[p, PL_N]:
            bad += 1
        if held != st.pl[p, PL_BITS]:
            bad += 1
    for i in range(st.sc[SC_STOCK_N]):
        seen[st.piles[PILE_STOCK, i]] += 1
    for i in range(st.sc[SC_DISCARD_N]):
        seen[st.piles[PILE_DISCARD, i]] += 1
    for m in range(st.sc[SC_N_MELDS]):
        for j in range(st.melds[m, MC_LEN]):
            seen[st.melds[m, MC_CARDS + j]] += 1
        if not meld_is_legal(
            params,
            st.melds[m, MC_TYPE],
            st.melds[m, MC_START],
            st.melds[m, MC_LEN],
            st.melds[m, MC_SUIT],
            st.melds[m, MC_CARDS:],
        ):
            bad += 1
        if not declarations_legal(st, params, m):
            bad += 1
    for k in range(N_KINDS):
        if seen[k] != st.kinds[KR_SHOE, k]:
            bad += 1
    if st.sc[SC_STEALS_TURN] > 0 and params[P_JOKER_REPLACE] != JREPLACE_STEAL:
        bad += 1  # a table joker taken where the rules keep it there (§2B.12)
    if st.ws.scal[S_OVERFLOW] != 0:
        bad += 1
        st.ws.scal[S_OVERFLOW] = 0
    st.sc[SC_VIOLATIONS] += bad
    return bad


@kernel
def check_scores(params, reason, winner, totals_in_hand, scores):
    """Cross-check a hand's scores against the shape the rules give them (§1.10, §2F, §2G):
    no score without a result; under going-out scoring only the winner scores (or, under
    penalty, only the losers lose); in a block, the lowest hands share a pot no larger than
    what the others hold. ``totals_in_hand`` is each player's value left in hand."""
    players = params[P_PLAYERS]
    bad = 0
    penalty = params[P_SCORING] == SCORE_PENALTY
    if reason == REASON_STALLED or reason == REASON_EXHAUSTED:
        for p in range(players):
            if scores[p] != 0:
                bad += 1
        return bad
    if reason == REASON_BLOCK:
        low = totals_in_hand[0]
        for p in range(players):
            low = min(low, totals_in_hand[p])
        pot = 0
        tied = 0
        share = -1
        for p in range(players):
            if totals_in_hand[p] == low:
                tied += 1
                if not penalty:
                    if share >= 0 and scores[p] != share:
                        bad += 1
                    share = scores[p]
                elif scores[p] != 0:
                    bad += 1
            else:
                if penalty:
                    if scores[p] != -totals_in_hand[p]:
                        bad += 1
                elif scores[p] != 0:
                    bad += 1
                if params[P_STOCK_EXHAUSTION] == STOCK_BLOCK_TOTALS:
                    pot += totals_in_hand[p]
                else:
                    pot += totals_in_hand[p] - low
        if not penalty and share >= 0:
            paid = share * tied
            if paid > pot or pot - paid >= tied:
                bad += 1
        return bad
    if winner < 0 or winner >= players:
        return bad + 1
    for p in range(players):
        if p == winner:
            if scores[p] < 0:
                bad += 1
        elif penalty:
            if scores[p] > 0 or (totals_in_hand[p] > 0 and scores[p] == 0):
                bad += 1
        elif scores[p] != 0:
            bad += 1
    return bad
