"""Phỏm's rules (RULES.md §3.13, §2K; mechanics XD's conditional take, FT and the showdown
of §4C): what a player may take, discard and lay off, when he goes Ù, and his fourth turn.

Rule slots read here: ``meld_timing`` (``phom_final``: the family's phases), ``players``,
``phom_layoff_others``.

**Taken cards.** A card taken from the discard pile (``S_PICKED``, public) stays in its
taker's hand until he shows it in a meld: it may never be discarded, and his hand must
always admit an arrangement in which every taken card he holds sits in a meld of its own
(no meld holds two; ``layoffs.arrange_apart``, the meld search's ``apart`` condition). So
the discard top may be taken only when the hand with it admits such an arrangement, the
new card among those kept apart (``phom_may_take``): it completes a meld with cards in
hand, and at most one taken card goes into each meld. The same test decides which
discards are legal (``phom_discard_allowed``).

**Ù.** After his draw (the first player: in his opening turn, without one) a player whose
whole hand of 10 melds, the taken cards apart, goes Ù without a discard; one whose hand
less one card that may be discarded melds so goes Ù with that discard: all_at_once's
go-out test and lay-down (``go_out.whole_hand_out``, ``go_out.lay_whole``) with the taken
cards kept apart (``u_discard``, ``go_u``). The hand ends (``REASON_WENT_U``) and nothing is
laid off.

**The fourth turn** (``final_turn``): the turns go round the table, the first player's
opening discard being his turn 1, so each player's fourth turn is one of the last
``players`` turns of the hand. In it, after his draw, the player lays down his melds: the
best arrangement of his hand less the card he will discard, the taken cards apart
(``show_melds``); then, under ``phom_layoff_others``, he may lay off cards left in hand on
melds that earlier players showed (``layoff_meld``); then he discards. The hand ends after
the last player's fourth turn (``REASON_SHOWDOWN``, settled by ``phom_chips.py``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.go_out import OUT_NONE, lay_arrangement, lay_whole, whole_hand_out
from sim.engine.jit import kernel
from sim.engine.layoffs import arrange_apart
from sim.engine.layout import (
    P_MELD_TIMING,
    P_PHOM_LAYOFF_OTHERS,
    P_PLAYERS,
    TIMING_PHOM_FINAL,
)
from sim.engine.melds import S_BEST_N, W_SCAL
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_N_MELDS,
    C_TURN,
    M_FITS,
    M_OWNER,
    R_MELD,
    R_SC,
    R_SEAT,
    S_HAND,
    S_PICKED,
)

PHOM_TURNS = 4  # turns each player plays in a hand without an Ù (§3.13)


def _phom(value: int) -> bool:
    return value == TIMING_PHOM_FINAL


@kernel
def phom_timing(fx, params):
    """Is this Phỏm's turn flow (``meld_timing = "phom_final"``, §2D.18)?"""
    return rule(fx, params, P_MELD_TIMING) == TIMING_PHOM_FINAL


@kernel
def taken_held(st, seat):
    """The cards ``seat`` took from the discard pile and still holds (a mask)."""
    return st[R_SEAT + seat, S_PICKED] & st[R_SEAT + seat, S_HAND]


@kernel
def keeps_apart(fx, params, values, work, hand, taken):
    """Does the hand ``hand`` admit an arrangement that melds every card of ``taken`` (held),
    each in a meld of its own? (Leaves the best such arrangement in ``work``.)"""
    if taken == 0:
        return True
    arrange_apart(fx, params, values, work, hand, taken)
    return work[W_SCAL, S_BEST_N] > 0


@gated(P_MELD_TIMING, _phom, np.bool_(False))
@kernel
def phom_may_take(fx, params, values, st, work, seat, top):
    """May ``seat`` take ``top``, the discard top (module docstring)?"""
    bit = np.int64(1) << top
    hand = st[R_SEAT + seat, S_HAND] | bit
    return keeps_apart(fx, params, values, work, hand, taken_held(st, seat) | bit)


@kernel
def phom_discard_allowed(fx, params, values, st, work, seat, card):
    """May ``seat`` discard ``card``: held, not a taken card, and the rest of his hand keeps
    his taken cards apart?"""
    bit = np.int64(1) << card
    hand = st[R_SEAT + seat, S_HAND]
    taken = taken_held(st, seat)
    if hand & bit == 0 or taken & bit != 0:
        return False
    return keeps_apart(fx, params, values, work, hand & ~bit, taken)


@kernel
def apart_deadwood(fx, params, values, st, work, seat, hand):
    """The deadwood of ``hand`` (``seat``'s, or his less a card) when his taken cards are kept
    apart: the value its best such arrangement leaves in hand (the whole hand's value when
    none exists). The arrangement is left in ``work``."""
    dw, _ = arrange_apart(fx, params, values, work, hand, taken_held(st, seat) & hand)
    return dw


@gated(P_MELD_TIMING, _phom, np.int64(OUT_NONE))
@kernel
def u_discard(fx, params, values, st, work, seat):
    """How ``seat`` may go Ù now: all_at_once's go-out test (``go_out.whole_hand_out``), his
    taken cards kept apart and never the discard, going out without a discard allowed."""
    taken = taken_held(st, seat)
    allowed = st[R_SEAT + seat, S_HAND] & ~taken
    return whole_hand_out(fx, params, values, st, work, seat, allowed, taken, np.bool_(True))


@gated(P_MELD_TIMING, _phom, np.bool_(False))
@kernel
def go_u(fx, params, values, st, work, events, seat, card):
    """``seat`` goes Ù: lays down the arrangement of his hand less ``card`` (``OUT_WHOLE``:
    none; ``card`` is then his discard, the caller's). Returns whether that was legal (the
    rest melds wholly, taken cards apart, and ``card`` may be discarded); an illegal Ù lays
    nothing down (the caller counts a violation)."""
    hand = st[R_SEAT + seat, S_HAND]
    rest = hand
    if card >= 0:
        if not phom_discard_allowed(fx, params, values, st, work, seat, card):
            return False
        rest = hand & ~(np.int64(1) << card)
    return lay_whole(fx, params, values, st, work, events, seat, rest, taken_held(st, seat))


@kernel
def final_turn(fx, params, st):
    """Is the turn being played its player's fourth (module docstring)?"""
    return st[R_SC, C_TURN] >= (PHOM_TURNS - 1) * rule(fx, params, P_PLAYERS)


@kernel
def hand_over(fx, params, st):
    """Has every player played his four turns (the hand ends, ``REASON_SHOWDOWN``)?"""
    return st[R_SC, C_TURN] >= PHOM_TURNS * rule(fx, params, P_PLAYERS)


@gated(P_MELD_TIMING, _phom, None)
@kernel
def show_melds(fx, params, values, st, work, events, seat, card):
    """``seat``'s fourth turn: he lays down the best arrangement of his hand less ``card``
    (his discard to come), his taken cards each in a meld of its own."""
    hand = st[R_SEAT + seat, S_HAND] & ~(np.int64(1) << card)
    apart_deadwood(fx, params, values, st, work, seat, hand)
    lay_arrangement(fx, params, st, work, events, seat, np.bool_(False))


@kernel
def layoff_meld(fx, params, st, seat, kind):
    """The first table meld that ``seat`` may lay ``kind`` off on in his fourth turn: one
    that another player showed (``phom_layoff_others``, §2K.43), or -1."""
    if rule(fx, params, P_PHOM_LAYOFF_OTHERS) == 0:
        return -1
    bit = np.int64(1) << kind
    for m in range(st[R_SC, C_N_MELDS]):
        row = R_MELD + m
        if st[row, M_OWNER] != seat and st[row, M_FITS] & bit != 0:
            return m
    return -1


@gated(P_MELD_TIMING, _phom, np.int64(0))
@kernel
def check_taken(fx, params, values, st, piles_discard, n_discard, work):
    """Audit (§3.13): no taken card is in the discard pile, and every seat's hand keeps his
    taken cards apart; returns the violations found."""
    bad = 0
    picked = np.int64(0)
    for p in range(rule(fx, params, P_PLAYERS)):
        picked |= st[R_SEAT + p, S_PICKED]
        hand = st[R_SEAT + p, S_HAND]
        if not keeps_apart(fx, params, values, work, hand, taken_held(st, p)):
            bad += 1
    for i in range(n_discard):
        if picked & (np.int64(1) << piles_discard[i]) != 0:
            bad += 1
    return bad
