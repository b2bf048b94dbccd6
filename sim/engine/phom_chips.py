"""Phỏm's chip settlement (mechanic CH of RULES.md §4C; §3.13, §2K.44-45).

Rule slots read here: ``players``, ``family``, ``phom_discard_taken_penalty``,
``phom_three_taken_liability``.

- **Ù** (``REASON_WENT_U``): the winner collects ``U_CHIPS`` from each other player after a
  final discard (9 cards melded), ``U_WHOLE_CHIPS`` without one (all 10 melded). Under
  ``phom_three_taken_liability`` a winner who took ``LIABLE_TAKES`` or more discards this
  hand took them all from the player before him (the previous player's discard is the
  only one taken, open point 6), who then pays the whole settlement alone.
- **Showdown** (``REASON_SHOWDOWN``, after four turns each): each player's garbage count is
  the value of the cards left in his hand (his shown melds and lay-offs are on the table,
  his last discard in the pile). Players rank by: a player with no meld shown (**móm**)
  below every other, then the lower count, then the earlier turn order (the first player
  first; open points 4 and 5). The first wins; the others pay him their place: 1, 2, 3
  (with 3 players 1 and 2, with 2 players 1), a móm player ``MOM_CHIPS`` whatever his
  place; so when every player is móm the lowest count still wins.
- ``phom_discard_taken_penalty``: for each discard taken this hand the discarder (the taker's
  previous player) gives the taker ``TAKEN_PENALTY_CHIPS``, in either ending.

Every payment moves chips between seats: a hand's scores add up to 0 (audited,
``chips.check_chip_scores``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.bitops import popcount
from sim.engine.chips import collect_from_each, pay
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.layout import (
    FAMILY_PHOM,
    P_FAMILY,
    P_PHOM_TAKEN_PENALTY,
    P_PHOM_THREE_TAKEN,
    P_PLAYERS,
    REASON_SHOWDOWN,
    REASON_WENT_U,
)
from sim.engine.scoring import hand_value
from sim.engine.specs import gated, rule
from sim.engine.state import C_DEALER, C_DISCARDS_TURN, R_SC, R_SEAT, S_MELDED, S_PICKED

U_CHIPS = 6  # Ù with a final discard, from each other player
U_WHOLE_CHIPS = 12  # Ù with all 10 cards melded
MOM_CHIPS = 4  # a player who showed no meld pays the winner this
LIABLE_TAKES = 3  # phom_three_taken_liability: discards taken by the winner that make the
# player before him pay the whole Ù
TAKEN_PENALTY_CHIPS = 1  # phom_discard_taken_penalty: per discard taken
MOM_RANK = np.int64(1) << 40  # a rank key's móm part (above every count and position)
COUNT_RANK = np.int64(1) << 8  # a rank key's count part (above every turn position)


@kernel
def previous_seat(fx, params, st, seat):
    """The player before ``seat`` in turn order: the one whose discards he may take."""
    p = seat
    while True:
        q = next_seat(fx, params, st, p)
        if q == seat:
            return p
        p = q


@kernel
def _turn_position(fx, params, st, seat):
    """``seat``'s place in turn order, the first player (the dealer's next) 0."""
    p = next_seat(fx, params, st, st[R_SC, C_DEALER])
    place = 0
    while p != seat:
        p = next_seat(fx, params, st, p)
        place += 1
    return place


@kernel
def is_mom(st, seat):
    """Is ``seat`` móm: has he shown no meld this hand?"""
    return st[R_SEAT + seat, S_MELDED] == 0


@kernel
def rank_key(fx, params, values, st, seat):
    """``seat``'s showdown rank as one number, lower ranking better (module docstring)."""
    key = hand_value(fx, params, values, st, seat) * COUNT_RANK
    key += _turn_position(fx, params, st, seat)
    if is_mom(st, seat):
        key += MOM_RANK
    return key


@kernel
def _settle_u(fx, params, st, winner, scores):
    """The Ù's payments (module docstring)."""
    chips = np.int64(U_CHIPS if st[R_SC, C_DISCARDS_TURN] > 0 else U_WHOLE_CHIPS)
    takes = popcount(st[R_SEAT + winner, S_PICKED])
    if rule(fx, params, P_PHOM_THREE_TAKEN) == 1 and takes >= LIABLE_TAKES:
        others = rule(fx, params, P_PLAYERS) - 1
        pay(scores, previous_seat(fx, params, st, winner), winner, chips * others)
    else:
        collect_from_each(fx, params, scores, winner, chips)


@kernel
def _settle_showdown(fx, params, values, st, scores):
    """The showdown's payments (module docstring); returns the winner."""
    players = rule(fx, params, P_PLAYERS)
    winner = np.int64(0)
    for p in range(1, players):
        if rank_key(fx, params, values, st, p) < rank_key(fx, params, values, st, winner):
            winner = p
    for p in range(players):
        if p == winner:
            continue
        key = rank_key(fx, params, values, st, p)
        if key >= MOM_RANK:
            pay(scores, p, winner, np.int64(MOM_CHIPS))
            continue
        place = 0
        for q in range(players):
            if rank_key(fx, params, values, st, q) < key:
                place += 1
        pay(scores, p, winner, np.int64(place))
    return winner


@gated(P_FAMILY, lambda v: v == FAMILY_PHOM, np.int64(0))
@kernel
def mom_seats(fx, params, st, reason):
    """The seats that were móm in a Phỏm hand that ended with ``reason``, as a bitmask (bit
    ``s``: seat ``s`` showed no meld at the showdown, the winner too when every seat was
    móm); 0 when the hand ended otherwise (an Ù ends it before anyone shows)."""
    mask = np.int64(0)
    if reason == REASON_SHOWDOWN:
        for p in range(rule(fx, params, P_PLAYERS)):
            if is_mom(st, p):
                mask |= np.int64(1) << p
    return mask


@gated(P_FAMILY, lambda v: v == FAMILY_PHOM, (np.int64(0), np.int64(0)))
@kernel
def settle_phom(fx, params, values, st, reason, winner, scores):
    """Phỏm: the chips of a hand that ended with ``reason`` (and ``winner``, an Ù's), written
    into ``scores`` (zero); returns (end reason, winner), the showdown's winner decided
    here."""
    if reason == REASON_WENT_U:
        _settle_u(fx, params, st, winner, scores)
    elif reason == REASON_SHOWDOWN:
        winner = _settle_showdown(fx, params, values, st, scores)
    if rule(fx, params, P_PHOM_TAKEN_PENALTY) == 1 and (
        reason == REASON_WENT_U or reason == REASON_SHOWDOWN
    ):
        for p in range(rule(fx, params, P_PLAYERS)):
            takes = popcount(st[R_SEAT + p, S_PICKED])
            if takes > 0:
                pay(scores, previous_seat(fx, params, st, p), p, takes * TAKEN_PENALTY_CHIPS)
    return reason, winner
