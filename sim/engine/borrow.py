"""Borrowing (RULES.md §2D.22; mechanic PM of §4C): in his turn a player takes one natural
card from a table meld and uses it at once in a new meld with cards from his hand.

Rule slots read here: ``borrowing``, ``joker_limit``, ``joker_declare``, ``ace_rank``,
``packs``, ``audit`` (and, through ``sim.engine.table``, ``melds_per_turn`` and
``initial_meld_min``).

Readings where RULES.md is silent (docs/variants.md, "Borrowing"):

- ``own``: only from melds he laid down himself (``M_OWNER``); ``any``: from any meld.
- One card a turn (``C_BORROWS_TURN``), and only when he may lay down a new meld now
  (``table.may_meld_now``, §2D.19) and has made his initial meld (§2D.24: the borrowed
  card never counts toward it).
- The meld left behind stays legal (§2D.22): 3 or more cards (so it had 4 or more); a run
  lends only its first or last card (never split in two), a group any of its natural
  cards; under ``joker_limit`` it may not be left with more jokers than natural cards; under
  ``joker_declare = three_card_group`` a group is not left with 3 cards and a joker not
  declared.
- Natural cards only: a table joker leaves a meld only by replacement (§2B.12).

``borrow_meld`` takes the card and lays the new meld down in one action, so that between
actions no borrowed card is ever in a hand (the audit checks that the new meld holds it).
The bots decide in ``greedy.greedy_borrow`` and ``random_bot``'s actions.
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_SUITS
from sim.engine.bitops import popcount
from sim.engine.jit import kernel
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    BORROW_OFF,
    BORROW_OWN,
    JDECLARE_THREE_CARD_GROUP,
    JLIMIT_NATURALS,
    P_AUDIT,
    P_BORROWING,
    P_JOKER_DECLARE,
    P_JOKER_LIMIT,
    P_PACKS,
)
from sim.engine.melds import (
    JOKER_DIGIT,
    MAX_LAYERS,
    MELD_GROUP,
    melds_card,
    n_positions,
    rank_at,
    remove_one_each,
    run_layout,
)
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_BORROWS_TURN,
    C_VIOLATIONS,
    E_BORROW,
    M_CARDS,
    M_DECLARED,
    M_FITS,
    M_JOKERS,
    M_LEN,
    M_LO,
    M_OWNER,
    M_SHAPE,
    M_TYPE,
    R_MELD,
    R_SC,
    give,
    log_event,
)
from sim.engine.table import (
    has_opened,
    lay_down,
    may_meld_now,
    meld_fits,
    meld_naturals,
    refresh_fits,
)


@kernel
def _group_lends(fx, params, st, row):
    """The natural kinds a group of 4 or more cards may lend (module docstring)."""
    length = st[row, M_LEN]
    jokers = st[row, M_JOKERS]
    if (
        rule(fx, params, P_JOKER_DECLARE) == JDECLARE_THREE_CARD_GROUP
        and length == 4
        and popcount(st[row, M_DECLARED]) < min(jokers, N_SUITS)
    ):
        return np.int64(0)  # it would be a 3-card group with a joker not declared (§2B.11)
    return meld_naturals(st, row)


@kernel
def _run_lends(fx, params, st, row):
    """The natural kinds at the ends of a run of 4 or more cards."""
    ace_rank = run_layout(fx, params)
    lo = st[row, M_LO]
    last = st[row, M_LEN] - 1
    shape = st[row, M_SHAPE]
    out = np.int64(0)
    first_digit = shape & 0x7
    if first_digit != JOKER_DIGIT:
        out |= np.int64(1) << (rank_at(lo, ace_rank) * N_SUITS + first_digit)
    last_digit = (shape >> (3 * last)) & 0x7
    if last_digit != JOKER_DIGIT:
        out |= np.int64(1) << (rank_at(lo + last, ace_rank) * N_SUITS + last_digit)
    return out


@gated(P_BORROWING, lambda v: v != BORROW_OFF, np.int64(0))
@kernel
def borrowable(fx, params, st, seat, m):
    """The natural kinds ``seat`` may borrow from table meld ``m`` now (module docstring),
    as a mask."""
    borrowing = rule(fx, params, P_BORROWING)
    if borrowing == BORROW_OFF or st[R_SC, C_BORROWS_TURN] > 0:
        return np.int64(0)
    if not may_meld_now(fx, params, st):
        return np.int64(0)
    if not has_opened(fx, params, st, seat):
        return np.int64(0)
    row = R_MELD + m
    if borrowing == BORROW_OWN and st[row, M_OWNER] != seat:
        return np.int64(0)
    length = st[row, M_LEN]
    jokers = st[row, M_JOKERS]
    if length < 4:
        return np.int64(0)
    if rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS and jokers > length - jokers - 1:
        return np.int64(0)
    if st[row, M_TYPE] == MELD_GROUP:
        return _group_lends(fx, params, st, row)
    return _run_lends(fx, params, st, row)


@kernel
def _take_from_meld(fx, params, st, row, kind):
    """Remove one copy of natural ``kind`` (one ``borrowable`` gave) from meld ``row``."""
    n_layers = rule(fx, params, P_PACKS)
    remove_one_each(st[row, M_CARDS : M_CARDS + MAX_LAYERS], n_layers, np.int64(1) << kind)
    suit = kind % N_SUITS
    if st[row, M_TYPE] == MELD_GROUP:
        st[row, M_SHAPE] -= np.int64(1) << (4 * suit)
    else:
        ace_rank = run_layout(fx, params)
        lo = st[row, M_LO]
        length = st[row, M_LEN]
        shape = st[row, M_SHAPE]
        if shape & 0x7 == suit and rank_at(lo, ace_rank) == kind // N_SUITS:
            st[row, M_SHAPE] = shape >> 3  # its first card
            lo += 1
            if ace_rank == ACE_AROUND_CORNER and lo >= n_positions(ace_rank):
                lo = np.int64(0)
            st[row, M_LO] = lo
        else:
            st[row, M_SHAPE] = shape & ~(np.int64(0x7) << (3 * (length - 1)))  # its last
    st[row, M_LEN] -= 1


@gated(P_BORROWING, lambda v: v != BORROW_OFF, np.int64(-1))
@kernel
def borrow_meld(fx, params, st, events, seat, m, kind, work, cand):
    """``seat`` borrows natural ``kind`` from table meld ``m`` (one ``borrowable`` gave) and
    lays down at once the meld of workspace candidate ``cand``, which holds it and cards of
    his hand (RULES.md §2D.22); returns the new meld's table index."""
    row = R_MELD + m
    if rule(fx, params, P_AUDIT) == 1 and (
        borrowable(fx, params, st, seat, m) & (np.int64(1) << kind) == 0
        or not melds_card(work, cand, kind)
    ):
        st[R_SC, C_VIOLATIONS] += 1  # a borrow the rules do not allow, or not used at once
    _take_from_meld(fx, params, st, row, kind)
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)
    give(fx, params, st, seat, kind)
    st[R_SC, C_BORROWS_TURN] += 1
    log_event(st, events, np.int64(E_BORROW), seat, m, kind)
    return lay_down(fx, params, st, events, seat, work, cand)
