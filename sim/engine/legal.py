"""What a turn may still do (RULES.md §1.5, §1.7, §2E.26): the discard rule, and whether a
turn can still end legally after a card is played. Shared by every bot.

Rule slots read here: ``must_discard_to_go_out``, ``packs``.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.jit import kernel
from sim.engine.layout import P_MUST_DISCARD_TO_GO_OUT, P_PACKS
from sim.engine.melds import CA_JOKERS, CA_TAKE, MAX_LAYERS, W_TMP, remove_one_each
from sim.engine.specs import rule
from sim.engine.state import C_JOKERS_OWED, C_TAKEN, C_TAKEN2, R_SC, R_SEAT, S_HAND, S_JOKERS


@kernel
def _taken_copies(st, kind):
    """How many of the cards taken from the discard pile this turn (and not yet played to
    the table) are of ``kind``: two only under ``top_plus_one`` (§3.7 open point 3)."""
    n = 1 if st[R_SC, C_TAKEN] == kind else 0
    if st[R_SC, C_TAKEN2] == kind:
        n += 1
    return n


@kernel
def discard_allowed(fx, params, st, seat, kind):
    """May ``seat`` discard ``kind`` now: held, and not a card taken from the discard pile
    this turn (RULES.md §1.5; under ``top_plus_one`` neither of the two, §3.7 open point 3),
    unless he holds another copy of it (several packs: an identical card from another pack
    may go)?"""
    row = R_SEAT + seat
    taken = _taken_copies(st, kind)
    if kind == JOKER:
        held = st[row, S_JOKERS] - st[R_SC, C_JOKERS_OWED]  # reuse_same_turn: not those
    else:
        held = ((st[row, S_HAND] >> kind) & 1) + ((st[row, S_HAND + 1] >> kind) & 1)
        if taken == 2:
            held += (st[row, S_HAND + 2] >> kind) & 1
    return held > taken


@kernel
def _drop_taken(st, first, second):
    """``first`` (one copy of each kind held) less each taken card, unless ``second`` (the
    kinds held twice) holds another copy of it. When both taken cards are one kind (several
    packs, ``top_plus_one``), that kind is dropped: a third copy is not looked for, so this
    errs towards keeping a card (``discard_allowed`` counts it exactly)."""
    taken = st[R_SC, C_TAKEN]
    if 0 <= taken < JOKER and (second >> taken) & 1 == 0:
        first &= ~(np.int64(1) << taken)
    taken2 = st[R_SC, C_TAKEN2]
    if 0 <= taken2 < JOKER and ((second >> taken2) & 1 == 0 or taken2 == taken):
        first &= ~(np.int64(1) << taken2)
    return first


@kernel
def allowed_naturals(st, seat):
    """The natural kinds ``seat`` may discard, as a mask."""
    row = R_SEAT + seat
    return _drop_taken(st, st[row, S_HAND], st[row, S_HAND + 1])


@kernel
def left_allows_end(fx, params, st, seat, first, second, jokers):
    """Could a turn whose hand is ``first`` (one copy of each kind held), ``second`` (the
    kinds held twice or more) and ``jokers`` still end legally: an empty hand where going
    out without a discard is allowed (§2E.26), or a card that may be discarded?"""
    if first == 0 and jokers == 0:
        return rule(fx, params, P_MUST_DISCARD_TO_GO_OUT) == 0
    # reuse_same_turn: jokers taken back this turn may not be discarded; a joker played
    # (``jokers`` below what he holds) pays one back first
    played = st[R_SEAT + seat, S_JOKERS] - jokers
    owed = max(np.int64(0), st[R_SC, C_JOKERS_OWED] - played)
    if jokers - owed > _taken_copies(st, np.int64(JOKER)):
        return True
    return _drop_taken(st, first, second) != 0


@kernel
def take_natural(fx, params, hand, kind):
    """Remove one copy of natural ``kind`` (held) from hand layers ``hand``."""
    bit = np.int64(1) << kind
    for l in range(rule(fx, params, P_PACKS) - 1, -1, -1):
        if hand[l] & bit != 0:
            hand[l] &= ~bit
            return


@kernel
def give_natural(fx, params, hand, kind):
    """Add one copy of natural ``kind`` to hand layers ``hand``."""
    bit = np.int64(1) << kind
    for l in range(rule(fx, params, P_PACKS)):
        if hand[l] & bit == 0:
            hand[l] |= bit
            return


@kernel
def stays_finishable(fx, params, st, seat, kind):
    """Could the turn still end legally after ``seat`` plays one natural ``kind``?"""
    row = R_SEAT + seat
    bit = np.int64(1) << kind
    first = st[row, S_HAND]
    second = st[row, S_HAND + 1]
    if second & bit == 0:
        first &= ~bit  # his only copy goes
    elif st[row, S_HAND + 2] & bit == 0:
        second &= ~bit  # one of two copies goes
    return left_allows_end(fx, params, st, seat, first, second, st[row, S_JOKERS])


@kernel
def rows_leave_end(fx, params, st, work, seat, first, count):
    """After ``seat`` lays down the melds of workspace rows ``first .. first + count - 1``
    (``sim.engine.melds`` candidates), could his turn still end legally?"""
    n_layers = rule(fx, params, P_PACKS)
    left = work[W_TMP, 0:MAX_LAYERS]
    for l in range(n_layers):
        left[l] = st[R_SEAT + seat, S_HAND + l]
    jokers = st[R_SEAT + seat, S_JOKERS]
    for row in range(first, first + count):
        for l in range(n_layers):
            if work[row, CA_TAKE + l] != 0:
                remove_one_each(left, n_layers, work[row, CA_TAKE + l])
        jokers -= work[row, CA_JOKERS]
    return left_allows_end(fx, params, st, seat, left[0], left[1], jokers)


@kernel
def joker_stays_finishable(fx, params, st, seat):
    """Could the turn still end legally after ``seat`` plays one of his jokers?"""
    row = R_SEAT + seat
    return left_allows_end(
        fx, params, st, seat, st[row, S_HAND], st[row, S_HAND + 1], st[row, S_JOKERS] - 1
    )
