"""Chip settlement (mechanic CH of RULES.md §4C): Tonk's payments (§3.22, §2L.53-57).

Rule slots read here: ``players``, ``family``, ``tonk_flat_out_payment``,
``tonk_drop_penalty`` (and ``tonk_super`` through ``deal_events.tonk_rank``).

A chip hand's scores are chips won (positive) and paid (negative). Every payment moves chips
from one seat to another, so a hand's scores add up to 0 (audited, ``check_chip_scores``).
A hand total is the value of the cards in hand only (RULES.md §1.9; table melds do not
count, §3.22).

- **Instant tonk** (``deal_events.py`` finds it): the tonk collects 2 chips from each other
  player, a super tonk (``tonk_super = "le9"``) 3.
- **Going out**: 1 chip from each other player after a final discard, 2 without one (the
  last card melded or laid off); ``tonk_flat_out_payment``: 1 either way.
- **The drop**: the dropper strictly lowest collects 1 chip from each other player
  (``drop``). Lowest but tied: each other tied player collects 3 chips from the dropper and
  1 from each player who is not tied (tied players do not pay each other; ``caught``). Not
  lowest (``caught``): the dropper pays his penalty (``tonk_drop_penalty``:
  ``two_to_each_le``: 2 chips to every other player whose total is equal to or lower than
  his; ``lowest_only``: 2 chips to each lowest player; ``per_player_to_lowest``: as many
  chips as there are players to each lowest player; ``two_to_all``: 2 chips to every other
  player), and then each lowest player collects 1 chip from every player who is not lowest,
  the dropper included (§3.22 open point 2: the penalty tables replace only the dropper's
  penalty). The winner is the dropper (``drop``), else the one lowest other player, -1 when
  several share the lowest total.
- **Stock-out** (``tonk_stock_out = "lowest_collects"``): each lowest player collects 1 chip
  from every player who is not lowest (§3.22 default for ties); the winner is the lowest, -1
  when shared. Under ``redeal`` nobody pays.
"""

from __future__ import annotations

import numpy as np

from sim.engine.deal_events import SUPER_RANK, tonk_rank
from sim.engine.jit import kernel
from sim.engine.layout import (
    DROP_LOWEST_ONLY,
    DROP_PER_PLAYER_TO_LOWEST,
    DROP_TWO_TO_ALL,
    FAMILY_TONK,
    P_FAMILY,
    P_PLAYERS,
    P_TONK_DROP_PENALTY,
    P_TONK_FLAT_OUT,
    REASON_CAUGHT,
    REASON_DROP,
    REASON_STOCK_OUT,
    REASON_TONK,
    REASON_WENT_OUT,
)
from sim.engine.scoring import hand_value
from sim.engine.specs import gated, rule
from sim.engine.state import C_DISCARDS_TURN, R_SC

TONK_CHIPS = 2  # an instant tonk collects this from each other player
SUPER_TONK_CHIPS = 3  # a super tonk (tonk_super = le9)
OUT_CHIPS = 1  # going out by a final discard
OUT_WITHOUT_DISCARD_CHIPS = 2  # going out with the last card melded or laid off
DROP_WIN_CHIPS = 1  # the strictly lowest dropper, from each other player
DROP_TIED_CHIPS = 3  # a dropper tied for lowest, to each other tied player
DROP_PENALTY_CHIPS = 2  # a dropper who is not lowest (two_to_each_le, lowest_only, two_to_all)
LOWEST_CHIPS = 1  # each lowest player, from every player who is not lowest


@kernel
def pay(scores, payer, payee, chips):
    """``payer`` gives ``chips`` to ``payee``."""
    scores[payer] -= chips
    scores[payee] += chips


@kernel
def collect_from_each(fx, params, scores, winner, chips):
    """``winner`` collects ``chips`` from every other player."""
    for p in range(rule(fx, params, P_PLAYERS)):
        if p != winner:
            pay(scores, p, winner, chips)


@kernel
def _lowest(fx, params, values, st):
    """(the lowest hand total, how many players hold it, the last of them)."""
    low = np.int64(1 << 30)
    count = 0
    who = -1
    for p in range(rule(fx, params, P_PLAYERS)):
        total = hand_value(fx, params, values, st, p)
        if total < low:
            low, count, who = total, 1, p
        elif total == low:
            count += 1
            who = p
    return low, count, who


@kernel
def _lowest_collect(fx, params, values, st, low, scores):
    """Each player whose total is ``low`` collects ``LOWEST_CHIPS`` from every player whose
    total is not."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        if hand_value(fx, params, values, st, p) != low:
            continue
        for q in range(players):
            if hand_value(fx, params, values, st, q) != low:
                pay(scores, q, p, np.int64(LOWEST_CHIPS))


@kernel
def instant_chips(fx, params, total):
    """What an instant tonk of dealt ``total`` collects from each other player."""
    if tonk_rank(fx, params, total) == SUPER_RANK:
        return np.int64(SUPER_TONK_CHIPS)
    return np.int64(TONK_CHIPS)


@kernel
def _drop_penalty(fx, params, values, st, dropper, own, low, scores):
    """A dropper of total ``own`` above the lowest ``low`` pays his penalty
    (``tonk_drop_penalty``, module docstring)."""
    players = rule(fx, params, P_PLAYERS)
    how = rule(fx, params, P_TONK_DROP_PENALTY)
    for p in range(players):
        if p == dropper:
            continue
        total = hand_value(fx, params, values, st, p)
        if how == DROP_TWO_TO_ALL or (how == DROP_LOWEST_ONLY and total == low):
            pay(scores, dropper, p, np.int64(DROP_PENALTY_CHIPS))
        elif how == DROP_PER_PLAYER_TO_LOWEST:
            if total == low:
                pay(scores, dropper, p, players)
        elif how != DROP_LOWEST_ONLY and total <= own:  # two_to_each_le
            pay(scores, dropper, p, np.int64(DROP_PENALTY_CHIPS))


@kernel
def _settle_drop(fx, params, values, st, dropper, scores):
    """The drop's payments (module docstring); returns (end reason, winner)."""
    low, count, last = _lowest(fx, params, values, st)
    own = hand_value(fx, params, values, st, dropper)
    if own == low and count == 1:
        collect_from_each(fx, params, scores, dropper, np.int64(DROP_WIN_CHIPS))
        return REASON_DROP, dropper
    players = rule(fx, params, P_PLAYERS)
    if own == low:  # tied for lowest: the other tied players collect
        other = -1
        for p in range(players):
            if p == dropper or hand_value(fx, params, values, st, p) != low:
                continue
            other = p if other == -1 else -2
            pay(scores, dropper, p, np.int64(DROP_TIED_CHIPS))
            for q in range(players):
                if hand_value(fx, params, values, st, q) != low:
                    pay(scores, q, p, np.int64(LOWEST_CHIPS))
        return REASON_CAUGHT, max(other, np.int64(-1))
    _drop_penalty(fx, params, values, st, dropper, own, low, scores)
    _lowest_collect(fx, params, values, st, low, scores)
    return REASON_CAUGHT, last if count == 1 else -1


@gated(P_FAMILY, lambda v: v == FAMILY_TONK, (np.int64(0), np.int64(0)))
@kernel
def settle_chips(fx, params, values, st, reason, winner, scores):
    """Tonk: the chips of a hand that ended with ``reason`` and ``winner`` (``winner`` is
    the dropper for a drop), written into ``scores`` (zero); returns (end reason, winner),
    a drop's final reason and winner decided here."""
    if reason == REASON_TONK:
        total = hand_value(fx, params, values, st, winner)
        collect_from_each(fx, params, scores, winner, instant_chips(fx, params, total))
    elif reason == REASON_WENT_OUT:
        chips = np.int64(OUT_WITHOUT_DISCARD_CHIPS)
        if st[R_SC, C_DISCARDS_TURN] > 0 or rule(fx, params, P_TONK_FLAT_OUT) == 1:
            chips = np.int64(OUT_CHIPS)
        collect_from_each(fx, params, scores, winner, chips)
    elif reason == REASON_DROP:
        return _settle_drop(fx, params, values, st, winner, scores)
    elif reason == REASON_STOCK_OUT:
        low, count, last = _lowest(fx, params, values, st)
        _lowest_collect(fx, params, values, st, low, scores)
        return reason, last if count == 1 else -1
    return reason, winner


@kernel
def check_chip_scores(fx, params, scores):
    """Audit: a chip hand's scores add up to 0 (every payment moves chips between seats);
    returns the violations (0 or 1)."""
    total = 0
    for p in range(rule(fx, params, P_PLAYERS)):
        total += scores[p]
    return 1 if total != 0 else 0
