"""The ``random`` bot (docs/bots.md): uniform among the legal choices, from the bots'
random stream of the deal.

- draw: takes the discard top with probability 1/2 (one number of the stream); under
  ``discard_draw = "any_card"`` (§3.6), with probability 1/2 (one number) a uniform card
  of the discard area (a second number, the card's place in the order the area's cards
  were thrown), else the stock; under ``top_plus_one`` (§3.7) the discard top (and a
  second card) with probability 1/2, asked only when the next player would still have a
  card to draw (``greedy.leaves_a_draw``: no number is drawn otherwise), and having taken
  it, the next discard rather than the stock top with probability 1/2 (one more number,
  drawn only when both are there);
- table: again and again, lists every legal action and chooses uniformly among them and
  stopping. The actions, in this order: new melds (when one may be laid down now): for
  each natural kind held, lowest first, its candidates whose lowest natural card it is
  (``melds.list_candidates`` order) that leave the turn able to end legally; then
  lay-offs (when laying off is allowed now): for each natural kind held, lowest first,
  each table meld it fits and the player may lay off on, first laid first, when the turn
  can still end legally after it; then, when he holds a joker and the turn can still end
  legally without it, a joker on each table meld that takes one and he may lay off on,
  first laid first; then (``joker_replace = steal_by_replacement``, §2B.12) the
  replacements: for each table meld, first laid first, each natural kind held that one of
  its jokers stands for, lowest first. A joker laid down or laid off is declared uniformly
  among the cards it may be declared as, when the rules ask (``joker_choice``);
- discard: uniform among the allowed kinds, in kind order (the joker last).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import lowest_bit
from sim.engine.jit import kernel
from sim.engine.joker_choice import declare_jokers
from sim.engine.layout import BOT_RANDOM, P_PACKS
from sim.engine.legal import (
    allowed_naturals,
    discard_allowed,
    joker_stays_finishable,
    rows_leave_end,
    stays_finishable,
)
from sim.engine.melds import CA_JOKERS, CA_TAKE, MAX_CAND, MAX_LAYERS, W_CAND, list_candidates
from sim.engine.rng import RNG_BOTS, below
from sim.engine.specs import rule
from sim.engine.state import (
    C_N_MELDS,
    M_FITS,
    M_OWNER,
    R_MELD,
    R_SC,
    R_SEAT,
    S_HAND,
    S_JOKERS,
    S_N,
)
from sim.engine.table import (
    lay_down,
    lay_off,
    lay_off_joker,
    may_lay_off_now,
    may_lay_off_on_others,
    may_meld_now,
    may_steal,
    stands_for,
    steal,
    takes_joker,
)

NO_PICK = -1  # count the actions, carry none out


@kernel
def random_wants(rng):
    """Take the discard top? A fair coin."""
    return below(rng, np.int64(RNG_BOTS), np.int64(2)) == 1


@kernel
def random_area_card(rng, n):
    """``any_card``: the place of the card taken from the discard area of ``n`` cards, or
    -1 for the stock (module docstring)."""
    if not random_wants(rng):
        return -1
    return below(rng, np.int64(RNG_BOTS), n)


@kernel
def _melds(fx, params, values, st, piles, rng, events, work, seat, pick, count):
    """Count the new melds after ``count`` earlier actions, or lay down action ``pick``;
    returns the count so far, or -1 once ``pick`` was carried out."""
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    n_layers = rule(fx, params, P_PACKS)
    jokers = st[R_SEAT + seat, S_JOKERS]
    rest = hand[0]
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        n = list_candidates(fx, params, values, work, np.int64(W_CAND), hand, n_layers, jokers, c)
        for i in range(min(n, MAX_CAND)):
            row = W_CAND + i
            if lowest_bit(work[row, CA_TAKE]) != c:
                continue  # listed under its lowest natural card
            if not rows_leave_end(fx, params, st, work, seat, row, np.int64(1)):
                continue
            if count == pick:
                m = lay_down(fx, params, st, events, seat, work, row)
                if work[row, CA_JOKERS] > 0:
                    declare_jokers(
                        fx, params, st, piles, rng, events, seat, m, np.int64(BOT_RANDOM)
                    )
                return -1
            count += 1
    return count


@kernel
def _layoffs(fx, params, st, piles, rng, events, seat, pick, count):
    """As ``_melds``, for the lay-offs."""
    others = may_lay_off_on_others(fx, params, st, seat)
    rest = st[R_SEAT + seat, S_HAND]
    while rest != 0:
        k = lowest_bit(rest)
        rest &= rest - 1
        if not stays_finishable(fx, params, st, seat, k):
            continue
        bit = np.int64(1) << k
        for m in range(st[R_SC, C_N_MELDS]):
            row = R_MELD + m
            if st[row, M_FITS] & bit == 0 or not (others or st[row, M_OWNER] == seat):
                continue
            if count == pick:
                lay_off(fx, params, st, events, seat, m, k)
                return -1
            count += 1
    if st[R_SEAT + seat, S_JOKERS] == 0 or not joker_stays_finishable(fx, params, st, seat):
        return count
    for m in range(st[R_SC, C_N_MELDS]):
        if not (others or st[R_MELD + m, M_OWNER] == seat) or not takes_joker(fx, params, st, m):
            continue
        if count == pick:
            lay_off_joker(fx, params, st, events, seat, m)
            declare_jokers(fx, params, st, piles, rng, events, seat, m, np.int64(BOT_RANDOM))
            return -1
        count += 1
    return count


@kernel
def _steals(fx, params, st, events, seat, pick, count):
    """As ``_melds``, for the joker replacements (§2B.12)."""
    hand = st[R_SEAT + seat, S_HAND]
    for m in range(st[R_SC, C_N_MELDS]):
        rest = stands_for(fx, params, st, m) & hand
        while rest != 0:
            k = lowest_bit(rest)
            rest &= rest - 1
            if count == pick:
                steal(fx, params, st, events, seat, m, k)
                return -1
            count += 1
    return count


@kernel
def _actions(fx, params, values, st, piles, rng, events, work, seat, pick):
    """How many legal table actions there are (``pick`` = NO_PICK), or carry out action
    number ``pick`` (returns -1)."""
    count = np.int64(0)
    if may_meld_now(fx, params, st):
        count = _melds(fx, params, values, st, piles, rng, events, work, seat, pick, count)
        if count < 0:
            return -1
    if may_lay_off_now(fx, params, st):
        count = _layoffs(fx, params, st, piles, rng, events, seat, pick, count)
        if count < 0:
            return -1
    if may_steal(fx, params):
        count = _steals(fx, params, st, events, seat, pick, count)
    return count


@kernel
def random_table(fx, params, values, st, piles, rng, events, work, seat):
    """Random's lay-downs, lay-offs and joker replacements (module docstring)."""
    while st[R_SEAT + seat, S_N] > 0:
        n = _actions(fx, params, values, st, piles, rng, events, work, seat, np.int64(NO_PICK))
        pick = below(rng, np.int64(RNG_BOTS), n + 1)
        if pick == n:
            return
        _actions(fx, params, values, st, piles, rng, events, work, seat, pick)


@kernel
def random_discard(fx, params, st, rng, seat):
    """A uniform allowed kind (module docstring)."""
    joker = discard_allowed(fx, params, st, seat, np.int64(JOKER))
    return uniform_kind(rng, allowed_naturals(st, seat), joker)


@kernel
def uniform_kind(rng, cards, joker):
    """A uniform pick among the natural kinds ``cards`` (kind order), and a joker when
    ``joker``."""
    n = np.int64(0)
    rest = cards
    while rest != 0:
        n += 1
        rest &= rest - 1
    if joker:
        n += 1
    pick = below(rng, np.int64(RNG_BOTS), n)
    rest = cards
    while rest != 0:
        k = lowest_bit(rest)
        rest &= rest - 1
        if pick == 0:
            return k
        pick -= 1
    return JOKER
