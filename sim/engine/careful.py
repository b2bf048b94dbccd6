"""Careful's choices on hand bitmasks, shared by the general turn loop (``bots.py``, on the
fast path) and ``mask_hand.py``, so both play the very same careful (docs/bots.md).

Careful counts *outs*: the cards it has not seen (not in its hand, the discard pile or the
table) that would be in a meld of its hand plus that card (``bits.completers``). Every
unseen card is taken as equally likely to come, so an out is a chance to meld, and a card
that gives up outs is worth keeping. The weights below were chosen by measuring careful
against greedy (docs/bots.md has the table); they are points, the unit of ``values``.
"""

from __future__ import annotations

from sim.engine.bits import bit, completers, highest_bit, meldable, popcount
from sim.engine.jit import inline_kernel
from sim.engine.layout import JOKER

OUT_POINTS = 4
"""An out given up by a discard costs ``OUT_POINTS`` points per opponent, counting at most
``MAX_OPPONENTS`` (2 players: 4, 3 players: 8, 4 or more: 12). With more opponents a hand
ends sooner and melding counts for more than the points kept in hand."""
MAX_OPPONENTS = 3
"""Above 3 opponents (12 points an out, more than any card is worth) a larger weight only
changed how outs rank against ``WANTED_POINTS``, and played worse at 6 players."""
WANTED_POINTS = 25
"""A card the next player is likely to take (it fits a table meld, or melds with two cards
he took from the discard pile) scores this much less."""
MELDED_POINTS = 100
"""A card in a meld of the hand (held back for a rummy, or beyond the meld limit) scores
this much less: it goes only when every allowed card is melded."""
TAKE_MAX_VALUE = 5
"""Careful also takes a discard worth at most this many points ..."""
TAKE_MIN_OUTS = 2
"""... when it adds at least this many outs to the hand (never under any-suit runs)."""
OUT_POINTS_ANY_SUIT = 2
"""Under ``run_suit = any_suit`` nearly every card has several outs, so one out is worth less:
``OUT_POINTS_ANY_SUIT`` per opponent instead of ``OUT_POINTS``, and the extra take is never
made (measured against greedy, docs/bots.md). That game is played on the count arrays only
(``bots._careful_discard_counts``, ``bots._careful_takes_counts``)."""


@inline_kernel
def out_points(players):
    """What one out given up costs a discard's score at a table of ``players``."""
    return OUT_POINTS * min(players - 1, MAX_OPPONENTS)


@inline_kernel
def out_points_any_suit(players):
    """``out_points`` under any-suit runs."""
    return OUT_POINTS_ANY_SUIT * min(players - 1, MAX_OPPONENTS)


@inline_kernel
def outs(hand, unseen, ace_rank):
    """How many unseen cards would meld with ``hand`` (one pack: each card once)."""
    return popcount(completers(hand, ace_rank) & unseen)


@inline_kernel
def careful_discard_mask(values, hand, allowed, unseen, picked_next, fits, players, ace_rank):
    """Careful's discard among ``allowed`` (a mask, not empty for a natural card; JOKER if
    empty). Each card scores its value, less ``out_points(players)`` per out its discard
    gives up, less ``WANTED_POINTS`` when it is in ``fits`` (cards that fit a table meld)
    or melds with two cards of ``picked_next`` (what the next player took from the discard
    pile), less ``MELDED_POINTS`` when it is in a meld of the hand. The highest score goes;
    ties go to the higher card kind."""
    now = outs(hand, unseen, ace_rank)
    wanted = completers(picked_next, ace_rank) | fits
    melded = meldable(hand, ace_rank)
    per_out = out_points(players)
    best = JOKER
    best_s = -(10**9)
    rest = allowed
    while rest != 0:
        k = highest_bit(rest)
        rest &= ~bit(k)
        s = values[k] - per_out * (now - outs(hand & ~bit(k), unseen, ace_rank))
        if (wanted >> k) & 1 == 1:
            s -= WANTED_POINTS
        if (melded >> k) & 1 == 1:
            s -= MELDED_POINTS
        if s > best_s:
            best_s = s
            best = k
    return best


@inline_kernel
def careful_takes_mask(values, hand, unseen, picked, top, ace_rank):
    """Beyond greedy's rule: take the discard top ``top`` when it is worth at most
    ``TAKE_MAX_VALUE``, adds at least ``TAKE_MIN_OUTS`` outs (``unseen`` leaves out the
    discard pile, ``top`` included), and is not in ``picked`` (the cards this player took
    from the discard pile earlier in the hand). That last condition bounds how often two
    careful players can pass cards back and forth without drawing from the stock: each card
    is taken this way at most once per player and hand."""
    if values[top] > TAKE_MAX_VALUE or (picked >> top) & 1 == 1:
        return False
    gain = outs(hand | bit(top), unseen, ace_rank) - outs(hand, unseen, ace_rank)
    return gain >= TAKE_MIN_OUTS
