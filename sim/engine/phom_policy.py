"""The bots' answers in Phỏm (RULES.md §3.13; docs/bots.md states them).

- **Take** (``phom_wants``), asked only when the rules allow the take (``phom.phom_may_take``:
  the card completes a meld, taken cards apart): greedy and careful always take (the card
  is melded, and the stock card is unknown); random on a fair coin.
- **Ù**: every bot goes Ù as soon as the rules let it (``phom.u_discard``; without a
  discard when it can, the larger payment). The loop asks the rules directly.
- **Discard** (``phom_discard``), among the cards the rules allow
  (``phom.phom_discard_allowed``): greedy keeps the least deadwood (the best arrangement of
  the rest, taken cards apart); ties: the higher value, then the higher kind. Careful
  scores each card by that deadwood plus ``FEED_POINTS`` when the card could still meld
  with two cards it has not seen (the next player might take it); the lowest score goes,
  ties as greedy. Random: a uniform allowed card.
- **Lay-offs** in the fourth turn (``phom_layoffs``): greedy and careful lay off every card
  that fits a meld another player showed, again until none fits; random offers each such
  card on a fair coin. The card kept for the discard is never laid off. A bot under
  ``RESTRICT_NO_LAYOFF`` (careful-nolayoff, ``sim.engine.restrict``) lays nothing off.

Exactness with few searches: a card in no meld of the hand leaves the hand's deadwood less
its value when discarded, so only the cards in some meld that could beat the best such
card are searched (removing a card lowers the deadwood by at most its value); and the
hand's own deadwood is the one kept after the last discard plus the card drawn when that
card is in no meld (``layoffs.seat_arrangement``, the knock family's kept arrangement,
with the taken cards apart).
"""

from __future__ import annotations

import numpy as np

from sim.engine.bitops import lowest_bit
from sim.engine.careful import unseen_layers
from sim.engine.jit import kernel
from sim.engine.layoffs import arrange_apart, keep_arrangement, meldable_mask, seat_arrangement
from sim.engine.layout import BOT_CAREFUL, BOT_RANDOM, P_PLAYERS, RESTRICT_NO_LAYOFF
from sim.engine.melds import S_BEST_N, W_SCAL
from sim.engine.phom import layoff_meld, taken_held
from sim.engine.random_bot import random_wants, uniform_kind
from sim.engine.restrict import bot_flags
from sim.engine.specs import rule
from sim.engine.state import R_SEAT, S_HAND, S_PICKED
from sim.engine.table import lay_off

FEED_POINTS = 4  # careful: what a discard that could meld with two unseen cards costs
NO_SCORE = np.int64(1) << 40  # above every score


@kernel
def phom_wants(bots, rng, seat):
    """Does ``seat`` take the discard top, which the rules let him take (module
    docstring)?"""
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    return True


@kernel
def _discard_deadwood(fx, params, values, work, hand, taken, k):
    """(deadwood, melded cards) of the hand ``hand`` less ``k`` (searched, the ``taken``
    cards apart), or ``NO_SCORE`` when the discard is not allowed (a taken card no longer
    has a meld of its own)."""
    dw, melded = arrange_apart(fx, params, values, work, hand & ~(np.int64(1) << k), taken)
    if taken != 0 and work[W_SCAL, S_BEST_N] == 0:
        return NO_SCORE, melded
    return dw, melded


@kernel
def phom_discard(fx, params, values, bots, st, piles, rng, work, seat):
    """The card ``seat`` discards (module docstring); -1 when none is allowed."""
    hand = st[R_SEAT + seat, S_HAND]
    taken = taken_held(st, seat)
    melded = meldable_mask(fx, params, work, hand)
    candidates = hand & ~taken
    loose = candidates & ~melded
    if bots[seat] == BOT_RANDOM:
        allowed = loose
        m = candidates & melded
        while m != 0:
            k = lowest_bit(m)
            m &= m - 1
            if _discard_deadwood(fx, params, values, work, hand, taken, k)[0] < NO_SCORE:
                allowed |= np.int64(1) << k
        return uniform_kind(rng, allowed, np.bool_(False)) if allowed != 0 else np.int64(-1)
    careful = bots[seat] == BOT_CAREFUL
    unseen = np.int64(0)
    if careful:  # the cards others took are seen too: they are public (§3.13)
        unseen = unseen_layers(fx, params, st, piles, seat)[0]
        for p in range(rule(fx, params, P_PLAYERS)):
            unseen &= ~st[R_SEAT + p, S_PICKED]
    # the loose cards first: each scores the hand's deadwood less its value (plus careful's
    # caution), so the best of them is known before any search ...
    best = np.int64(-1)
    best_rel = np.int64(NO_SCORE)  # its score less the hand's deadwood
    m = loose
    while m != 0:
        k = lowest_bit(m)
        m &= m - 1
        rel = _caution(fx, params, work, careful, unseen, k) - values[k]
        if _beats(values, k, rel, best, best_rel):
            best, best_rel = k, rel
    # ... and a card in some meld is searched only if it could beat it: its deadwood drops
    # by at most its value
    m = candidates & melded
    searched = np.int64(0)
    while m != 0:
        k = lowest_bit(m)
        m &= m - 1
        if best < 0 or _caution(fx, params, work, careful, unseen, k) - values[k] <= best_rel:
            searched |= np.int64(1) << k
    if searched == 0:
        return best
    dw0, melded0 = seat_arrangement(
        fx, params, values, st, work, seat, hand, np.bool_(False), taken
    )
    best_score = dw0 + best_rel if best >= 0 else NO_SCORE
    # what the hand keeps after the best discard: its deadwood and melded cards
    best_dw = dw0 - values[best] if best >= 0 else NO_SCORE
    best_melded = melded0
    while searched != 0:
        k = lowest_bit(searched)
        searched &= searched - 1
        extra = _caution(fx, params, work, careful, unseen, k)
        if best >= 0 and dw0 - values[k] + extra > best_score:
            continue  # cannot win: no search
        score, kept_melded = _discard_deadwood(fx, params, values, work, hand, taken, k)
        if score == NO_SCORE:
            continue  # not allowed
        if _beats(values, k, score + extra, best, best_score):
            best, best_score = k, score + extra
            best_dw, best_melded = score, kept_melded
    if best >= 0:  # the next turn starts from it (``layoffs.seat_arrangement``)
        keep_arrangement(st, seat, hand & ~(np.int64(1) << best), best_dw, best_melded)
    return best


@kernel
def _caution(fx, params, work, careful, unseen, k):
    """Careful's ``FEED_POINTS`` when ``k`` could still meld with two unseen cards; 0 for
    greedy."""
    if careful and _feeds_with(fx, params, work, unseen, k):
        return FEED_POINTS
    return 0


@kernel
def _beats(values, k, score, best, best_score):
    """Does discarding ``k`` for ``score`` beat the best so far (``best``, -1: none)? The
    lower score; ties: the higher value, then the higher kind."""
    if best < 0 or score < best_score:
        return True
    if score > best_score:
        return False
    return values[k] > values[best] or (values[k] == values[best] and k > best)


@kernel
def _feeds_with(fx, params, work, unseen, k):
    """Could ``k`` still meld with two cards of ``unseen`` (careful's caution)?"""
    bit = np.int64(1) << k
    return meldable_mask(fx, params, work, unseen | bit) & bit != 0


@kernel
def phom_layoffs(fx, params, bots, st, rng, events, seat, keep):
    """``seat``'s lay-offs in his fourth turn (module docstring); ``keep`` is his discard to
    come. Returns the cards laid off."""
    laid = 0
    if bot_flags(fx, params, bots, seat) & RESTRICT_NO_LAYOFF != 0:
        return laid
    changed = True
    while changed:
        changed = False
        m = st[R_SEAT + seat, S_HAND] & ~(np.int64(1) << keep)
        while m != 0:
            k = lowest_bit(m)
            m &= m - 1
            meld = layoff_meld(fx, params, st, seat, k)
            if meld < 0:
                continue
            if bots[seat] == BOT_RANDOM and not random_wants(rng):
                continue
            lay_off(fx, params, st, events, seat, meld, k)
            laid += 1
            changed = True
    return laid
