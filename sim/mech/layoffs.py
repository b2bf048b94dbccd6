"""The knock family's part of the meld library: a hand's minimum deadwood as masks, and the
defender's lay-offs on the knocker's melds (RULES.md §1.13, §3.17 and its open point 3).

The knock families play one pack without jokers and with runs of one suit here
(``sim.mech.api`` refuses the rest for them), so a hand is one mask.

``arrange_mask``: the deadwood of a hand and the cards its best arrangement melds
(``melds.best_arrangement``, its declared tie-break). ``seat_arrangement`` answers the same
for a seat's hand, keeping the last answer per seat (``S_ARR_*``): a hand that differs from
the kept one by one card that cannot meld in the larger of the two has the same
arrangement, that card left in hand (the search sets such a card aside before it decides
any other, so its choices are the same), and needs no search.

``best_layoffs``: which of the defender's cards he lays off on the table melds of one owner
(the knocker), chains included (a card may fit only after another lay-off, §3.17 open
point 3). A set of cards can be laid off when it can be laid off one card at a time in some
order. With one pack each card fits at most one group (the one of its rank) and the run
ends it is next to; laying a card on a run never takes a place another card of the set
needs (a group that gets its fourth card takes nothing more, a run end moves one place
on), so a set can be laid off exactly when laying off, again and again, every card of it
that fits some meld now, on a run when one takes it, places every card
(``_lay_all``). The search tries every subset of the cards that could be laid off at
all (``reach``).

**Declared tie-break.** Of the sets that leave the defender the least deadwood (the best
arrangement of the cards he keeps), the one with the fewest cards, then the smallest as a
mask (bit ``k`` = kind ``k``): so no lay-off at all when it gains nothing.
``tests/mech/test_knock.py`` checks this against a brute force over every sequence of
lay-offs on random positions.
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_SUITS
from sim.mech.bitops import lowest_bit, popcount
from sim.mech.jit import kernel
from sim.mech.layout import ACE_AROUND_CORNER, P_ACE_RANK
from sim.mech.melds import (
    CA_TAKE,
    MAX_LAYERS,
    MAX_RUN,
    MELD_GROUP,
    S_BEST_N,
    W_BEST,
    W_CAND,
    W_SCAL,
    W_TMP,
    best_arrangement,
    mask_value,
    meldable,
    n_positions,
    rank_at,
)
from sim.mech.specs import rule
from sim.mech.state import (
    C_N_MELDS,
    M_LEN,
    M_LO,
    M_OWNER,
    M_SHAPE,
    M_SUIT,
    M_TYPE,
    R_MELD,
    R_SC,
    R_SEAT,
    S_ARR_DW,
    S_ARR_MASK,
    S_ARR_MELDED,
)

MAX_REACH_BITS = 12  # more cards that could be laid off: all of them are (never met, one pack)
MAX_OWN = 8  # table melds of one owner the search follows (a hand of 11 holds at most 3)


@kernel
def arrange_mask(fx, params, values, work, mask):
    """``(deadwood, melded)`` of the hand ``mask`` (one pack, no jokers): the value its best
    arrangement leaves in hand and the cards it melds. Leaves the arrangement in ``work``
    rows ``W_BEST``.."""
    layers = work[W_TMP, 0:MAX_LAYERS]
    layers[0] = mask
    for l in range(1, MAX_LAYERS):
        layers[l] = 0
    melded_value = best_arrangement(fx, params, values, work, layers, 0, 0)
    melded = np.int64(0)
    for m in range(work[W_SCAL, S_BEST_N]):
        melded |= work[W_BEST + m, CA_TAKE]
    return mask_value(values, mask) - melded_value, melded


@kernel
def cannot_meld(fx, params, work, mask, card_bit):
    """Is the card ``card_bit`` in no meld of the hand ``mask``?"""
    layers = work[W_TMP, 0:MAX_LAYERS]
    layers[0] = mask
    for l in range(1, MAX_LAYERS):
        layers[l] = 0
    return meldable(fx, params, layers, 1, 0) & card_bit == 0


@kernel
def seat_arrangement(fx, params, values, st, work, seat, mask, keep):
    """``arrange_mask(mask)`` for a hand of ``seat``, from the arrangement kept for him when
    it gives the same answer (module docstring); ``keep``: keep this one."""
    row = R_SEAT + seat
    kept = st[row, S_ARR_MASK]
    if kept != 0:
        if mask == kept:
            return st[row, S_ARR_DW], st[row, S_ARR_MELDED]
        extra = mask & ~kept
        missing = kept & ~mask
        if missing == 0 and extra & (extra - 1) == 0:
            if cannot_meld(fx, params, work, mask, extra):
                dw = st[row, S_ARR_DW] + mask_value(values, extra)
                melded = st[row, S_ARR_MELDED]
                if keep:
                    st[row, S_ARR_MASK] = mask
                    st[row, S_ARR_DW] = dw
                return dw, melded
        elif extra == 0 and missing & (missing - 1) == 0:
            if cannot_meld(fx, params, work, kept, missing):
                dw = st[row, S_ARR_DW] - mask_value(values, missing)
                melded = st[row, S_ARR_MELDED]
                if keep:
                    st[row, S_ARR_MASK] = mask
                    st[row, S_ARR_DW] = dw
                return dw, melded
    dw, melded = arrange_mask(fx, params, values, work, mask)
    if keep:
        st[row, S_ARR_MASK] = mask
        st[row, S_ARR_DW] = dw
        st[row, S_ARR_MELDED] = melded
    return dw, melded


@kernel
def _run_fits(fx, params, lo, length, suit):
    """The kinds that fit a run of ``suit`` on window (``lo``, ``length``)."""
    if length >= MAX_RUN:
        return np.int64(0)
    ace_rank = rule(fx, params, P_ACE_RANK)
    fits = np.int64(0)
    n = n_positions(ace_rank)
    if ace_rank == ACE_AROUND_CORNER:
        below = lo - 1 if lo > 0 else n - 1
        fits |= np.int64(1) << (rank_at(below, ace_rank) * N_SUITS + suit)
        fits |= np.int64(1) << (rank_at(lo + length, ace_rank) * N_SUITS + suit)
        return fits
    if lo > 0:
        fits |= np.int64(1) << (rank_at(lo - 1, ace_rank) * N_SUITS + suit)
    if lo + length < n:
        fits |= np.int64(1) << (rank_at(lo + length, ace_rank) * N_SUITS + suit)
    return fits


@kernel
def _lay_all(fx, params, st, work, owner, cards):
    """Lay off, again and again, every card of ``cards`` that fits one of ``owner``'s table
    melds now (on a run when one takes it, else on the group of its rank), on copies of
    those melds in ``work``'s first candidate rows (free between searches): a run's first
    position times 4 plus its suit, its length, its fits; a group's -1 - rank, 0, its fits.
    Returns the cards laid off."""
    ace_rank = rule(fx, params, P_ACE_RANK)
    sc = work[W_CAND : W_CAND + MAX_OWN]
    n = 0
    for m in range(st[R_SC, C_N_MELDS]):
        row = R_MELD + m
        if st[row, M_OWNER] != owner or n >= MAX_OWN:
            continue
        if st[row, M_TYPE] == MELD_GROUP:
            rank = st[row, M_LO]
            fits = np.int64(0)
            if st[row, M_LEN] < N_SUITS:
                for t in range(N_SUITS):
                    if (st[row, M_SHAPE] >> (4 * t)) & 0xF == 0:
                        fits |= np.int64(1) << (rank * N_SUITS + t)
            sc[n, 0] = -1 - rank
            sc[n, 1] = 0
            sc[n, 2] = fits
        else:
            sc[n, 0] = st[row, M_LO] * N_SUITS + st[row, M_SUIT]
            sc[n, 1] = st[row, M_LEN]
            sc[n, 2] = _run_fits(fx, params, st[row, M_LO], st[row, M_LEN], st[row, M_SUIT])
        n += 1
    laid = np.int64(0)
    left = cards
    changed = True
    while changed and left != 0:
        changed = False
        rest = left
        while rest != 0:
            k = lowest_bit(rest)
            rest &= rest - 1
            bit = np.int64(1) << k
            target = -1
            for i in range(n):
                if sc[i, 2] & bit != 0:
                    if sc[i, 0] >= 0:
                        target = i  # a run: its chain may take more
                        break
                    if target < 0:
                        target = i
            if target < 0:
                continue
            if sc[target, 0] < 0:
                sc[target, 2] &= ~bit  # the group's missing suit is filled
            else:
                lo = sc[target, 0] // N_SUITS
                suit = sc[target, 0] % N_SUITS
                length = sc[target, 1] + 1
                if lo > 0 or ace_rank == ACE_AROUND_CORNER:
                    before = lo - 1 if lo > 0 else n_positions(ace_rank) - 1
                    if rank_at(before, ace_rank) == k // N_SUITS:
                        lo = before  # it goes below the first position
                sc[target, 0] = lo * N_SUITS + suit
                sc[target, 1] = length
                sc[target, 2] = _run_fits(fx, params, lo, length, suit)
            laid |= bit
            left &= ~bit
            changed = True
    return laid


@kernel
def best_layoffs(fx, params, values, st, work, hand, owner):
    """``(deadwood, laid)``: the cards of ``hand`` its holder lays off on ``owner``'s table
    melds and the deadwood of the cards he keeps (module docstring, declared tie-break)."""
    reach = _lay_all(fx, params, st, work, owner, hand)
    best, _ = arrange_mask(fx, params, values, work, hand)
    best_laid = np.int64(0)
    if reach == 0 or best == 0:
        return best, best_laid
    if popcount(reach) > MAX_REACH_BITS:
        dw, _ = arrange_mask(fx, params, values, work, hand & ~reach)
        return dw, reach
    best_n = 0
    s = np.int64(0)
    while True:
        s = (s - reach) & reach  # the next subset of reach, as a number
        if s == 0:
            break
        n = popcount(s)
        if _lay_all(fx, params, st, work, owner, s) != s:
            continue
        dw, _ = arrange_mask(fx, params, values, work, hand & ~s)
        if dw < best or (dw == best and best_laid != 0 and n < best_n):
            best = dw
            best_laid = s
            best_n = n
    return best, best_laid
