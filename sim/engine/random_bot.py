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
  first laid first; then (``joker_replace``, §2B.12, while the rule allows them) the
  replacements: for each table meld, first laid first, each natural kind held that one of
  its jokers stands for, lowest first (under ``reuse_same_turn`` only those after which
  the joker can go back, ``table.replacement_usable``); then (``borrowing``, §2D.22)
  each new meld through a card it may borrow (``_borrows``). While it owes a joker taken back
  under ``reuse_same_turn`` its only actions are that joker's lay-offs, and it does not
  stop. Before its initial meld (§2D.24) a meld action is a first meld that makes it, with
  greedy's arrangement of the rest laid down with it. A joker laid down or laid off is
  declared uniformly among the cards it may be declared as, when the rules ask
  (``joker_choice``);
- discard: uniform among the allowed kinds, in kind order (the joker last).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.borrow import borrow_meld, borrowable
from sim.engine.greedy import greedy_arrangement
from sim.engine.jit import kernel
from sim.engine.joker_choice import declare_jokers
from sim.engine.layout import (
    BORROW_OFF,
    BOT_RANDOM,
    MELDS_UNLIMITED,
    P_BORROWING,
    P_INITIAL_MELD_MIN,
    P_MELDS_PER_TURN,
    P_PACKS,
    P_TONK_MELD_AT_ONCE,
)
from sim.engine.legal import (
    allowed_naturals,
    discard_allowed,
    give_natural,
    joker_stays_finishable,
    rows_leave_end,
    stays_finishable,
    take_natural,
)
from sim.engine.melds import (
    CA_JOKERS,
    CA_OPEN,
    CA_TAKE,
    MAX_CAND,
    MAX_LAYERS,
    S_BEST_N,
    W_BEST,
    W_PICK,
    W_SCAL,
    list_candidates,
    remove_one_each,
)
from sim.engine.rng import RNG_BOTS, below
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_JOKERS_OWED,
    C_N_MELDS,
    C_OPEN_TURN,
    C_PLAN,
    C_TAKEN,
    C_TOOK_UNOPENED,
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
    first_meld_taking,
    has_opened,
    lay_down,
    lay_off,
    lay_off_joker,
    layoff_targets,
    may_lay_off_now,
    may_lay_off_on_others,
    may_meld_now,
    may_steal,
    opening_terms,
    replacement_usable,
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
def _lay_down(fx, params, st, piles, rng, events, work, seat, row):
    """Lay down candidate ``row``, its jokers declared at random when the rules ask."""
    m = lay_down(fx, params, st, events, seat, work, row)
    if work[row, CA_JOKERS] > 0:
        declare_jokers(fx, params, st, piles, rng, events, seat, m, np.int64(BOT_RANDOM))


@gated(P_INITIAL_MELD_MIN, lambda v: v != 0, np.bool_(True))
@kernel
def _opens_after(fx, params, values, st, work, seat, row):
    """Before ``seat``'s initial meld (§2D.24): would laying down candidate ``row`` make
    it, alone or with greedy's arrangement of the rest (``greedy.greedy_arrangement``,
    which meets what is still missing, the card taken for it included, §2D.25)? With at
    most one meld a turn (§2D.19) it must do alone. The state is left as it was."""
    hand = R_SEAT + seat
    n_layers = rule(fx, params, P_PACKS)
    h0, h1 = st[hand, S_HAND], st[hand, S_HAND + 1]
    h2, h3 = st[hand, S_HAND + 2], st[hand, S_HAND + 3]
    jokers, held = st[hand, S_JOKERS], st[hand, S_N]
    opening, taken = st[R_SC, C_OPEN_TURN], st[R_SC, C_TAKEN]
    for l in range(n_layers):
        cards = work[row, CA_TAKE + l]
        if cards != 0:
            remove_one_each(st[hand, S_HAND : S_HAND + MAX_LAYERS], n_layers, cards)
            st[hand, S_N] -= popcount(cards)
            if 0 <= taken < JOKER and (cards >> taken) & 1 == 1:
                st[R_SC, C_TAKEN] = -1
    st[hand, S_JOKERS] -= work[row, CA_JOKERS]
    st[hand, S_N] -= work[row, CA_JOKERS]
    if taken == JOKER and work[row, CA_JOKERS] > 0:
        st[R_SC, C_TAKEN] = -1
    st[R_SC, C_OPEN_TURN] += work[row, CA_OPEN]
    minimum, must = opening_terms(fx, params, st, seat)
    found = minimum <= 0 and must < 0
    if not found and rule(fx, params, P_MELDS_PER_TURN) == MELDS_UNLIMITED:
        greedy_arrangement(fx, params, values, st, work, seat)
        found = work[W_SCAL, S_BEST_N] > 0
        st[R_SC, C_PLAN] = -1
    st[hand, S_HAND] = h0
    st[hand, S_HAND + 1] = h1
    st[hand, S_HAND + 2] = h2
    st[hand, S_HAND + 3] = h3
    st[hand, S_JOKERS] = jokers
    st[hand, S_N] = held
    st[R_SC, C_OPEN_TURN] = opening
    st[R_SC, C_TAKEN] = taken
    return found


@kernel
def _complete_opening(fx, params, values, st, piles, rng, events, work, seat):
    """After a first meld that did not make the initial meld: greedy's arrangement of the
    rest, which does (``_opens_after`` made sure), laid down in its order."""
    if has_opened(fx, params, st, seat):
        return
    greedy_arrangement(fx, params, values, st, work, seat)
    st[R_SC, C_PLAN] = -1  # random discards uniformly; nothing is kept back for it
    for m in range(work[W_SCAL, S_BEST_N]):
        _lay_down(fx, params, st, piles, rng, events, work, seat, np.int64(W_BEST + m))


@kernel
def _melds(fx, params, values, st, piles, rng, events, work, seat, pick, count):
    """Count the new melds after ``count`` earlier actions, or lay down action ``pick``;
    returns the count so far, or -1 once ``pick`` was carried out. Before his initial meld
    (§2D.24) an action is a first meld that makes it, alone or with greedy's arrangement of
    the rest, which is laid down with it."""
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    n_layers = rule(fx, params, P_PACKS)
    jokers = st[R_SEAT + seat, S_JOKERS]
    opened = has_opened(fx, params, st, seat)
    rest = hand[0]
    while rest != 0:
        c = lowest_bit(rest)
        rest &= rest - 1
        n = list_candidates(fx, params, values, work, np.int64(W_PICK), hand, n_layers, jokers, c)
        for i in range(min(n, MAX_CAND)):
            row = W_PICK + i
            if lowest_bit(work[row, CA_TAKE]) != c:
                continue  # listed under its lowest natural card
            if not rows_leave_end(fx, params, st, work, seat, row, np.int64(1)):
                continue
            if not opened and not _opens_after(fx, params, values, st, work, seat, row):
                continue
            if count == pick:
                _lay_down(fx, params, st, piles, rng, events, work, seat, row)
                if not opened:
                    _complete_opening(fx, params, values, st, piles, rng, events, work, seat)
                return -1
            count += 1
    return count


@kernel
def _layoffs(fx, params, st, piles, rng, events, seat, pick, count, naturals):
    """As ``_melds``, for the lay-offs (``naturals`` false: only the jokers')."""
    others = may_lay_off_on_others(fx, params, st, seat)
    rest = st[R_SEAT + seat, S_HAND] if naturals else np.int64(0)
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
            if not replacement_usable(fx, params, st, seat, k):
                continue  # reuse_same_turn: the joker could not go back this turn
            if count == pick:
                steal(fx, params, st, events, seat, m, k)
                return -1
            count += 1
    return count


@gated(P_BORROWING, lambda v: v != BORROW_OFF, np.int64(0))
@kernel
def _borrows(fx, params, values, st, piles, rng, events, work, seat, pick, count):
    """As ``_melds``, for borrowing (§2D.22, ``sim.engine.borrow``): for each table meld,
    first laid first, each card it may borrow from it, lowest first, each new meld through
    that card with cards of its hand (``melds.list_candidates`` order) that leaves the turn
    able to end legally."""
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    n_layers = rule(fx, params, P_PACKS)
    jokers = st[R_SEAT + seat, S_JOKERS]
    for m in range(st[R_SC, C_N_MELDS]):
        kinds = borrowable(fx, params, st, seat, m)
        while kinds != 0:
            k = lowest_bit(kinds)
            kinds &= kinds - 1
            give_natural(fx, params, hand, k)
            n = list_candidates(
                fx, params, values, work, np.int64(W_PICK), hand, n_layers, jokers, k
            )
            for i in range(min(n, MAX_CAND)):
                row = W_PICK + i
                if not rows_leave_end(fx, params, st, work, seat, row, np.int64(1)):
                    continue
                if count == pick:
                    take_natural(fx, params, hand, k)
                    t = borrow_meld(fx, params, st, events, seat, m, k, work, np.int64(row))
                    if work[row, CA_JOKERS] > 0:
                        declare_jokers(
                            fx, params, st, piles, rng, events, seat, t, np.int64(BOT_RANDOM)
                        )
                    return np.int64(-1)
                count += 1
            take_natural(fx, params, hand, k)
    return count


@kernel
def _actions(fx, params, values, st, piles, rng, events, work, seat, pick):
    """How many legal table actions there are (``pick`` = NO_PICK), or carry out action
    number ``pick`` (returns -1)."""
    count = np.int64(0)
    # a joker taken back under reuse_same_turn goes back first: only its lay-offs (§2B.12)
    owing = st[R_SC, C_JOKERS_OWED] > 0
    if may_meld_now(fx, params, st) and not owing:
        count = _melds(fx, params, values, st, piles, rng, events, work, seat, pick, count)
        if count < 0:
            return -1
    if may_lay_off_now(fx, params, st):
        count = _layoffs(fx, params, st, piles, rng, events, seat, pick, count, not owing)
        if count < 0:
            return -1
    if owing:
        return count
    if may_steal(fx, params, st):
        count = _steals(fx, params, st, events, seat, pick, count)
        if count < 0:
            return -1
    if rule(fx, params, P_BORROWING) != BORROW_OFF:
        count = _borrows(fx, params, values, st, piles, rng, events, work, seat, pick, count)
    return count


@kernel
def random_stock_card(fx, params, values, st, rng, events, work, seat, card):
    """``tonk_stock_card_must_play`` (§2L.48): random picks uniformly among each new meld
    through ``card`` (just drawn from the stock) that it may lay down, laying ``card`` off
    (on the first meld that takes it) and discarding it; returns whether it played the card
    (if not, it is discarded and the turn ends)."""
    layoff = (layoff_targets(fx, params, st, seat) >> card) & 1 == 1 and stays_finishable(
        fx, params, st, seat, card
    )
    listed = np.int64(0)
    n = np.int64(0)
    if may_meld_now(fx, params, st):
        hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
        jokers = st[R_SEAT + seat, S_JOKERS]
        n_layers = rule(fx, params, P_PACKS)
        listed = min(
            list_candidates(
                fx, params, values, work, np.int64(W_PICK), hand, n_layers, jokers, card
            ),
            np.int64(MAX_CAND),
        )
        for i in range(listed):
            if rows_leave_end(fx, params, st, work, seat, np.int64(W_PICK + i), np.int64(1)):
                n += 1
    pick = below(rng, np.int64(RNG_BOTS), n + (2 if layoff else 1))
    if pick < n:  # the pick-th legal new meld, in listed order
        for i in range(listed):
            if rows_leave_end(fx, params, st, work, seat, np.int64(W_PICK + i), np.int64(1)):
                if pick == 0:
                    lay_down(fx, params, st, events, seat, work, np.int64(W_PICK + i))
                    return True
                pick -= 1
    if layoff and pick == n:
        lay_off(fx, params, st, events, seat, first_meld_taking(fx, params, st, seat, card), card)
        return True
    return False


@kernel
def _melds_owed(fx, params, values, st, piles, rng, events, work, seat):
    """Under ``tonk_meld_immediately`` (§2L.49): how many new melds ``seat`` holds and may
    lay down now (one of them must go down), else 0."""
    if rule(fx, params, P_TONK_MELD_AT_ONCE) == 0 or not may_meld_now(fx, params, st):
        return np.int64(0)
    return _melds(
        fx, params, values, st, piles, rng, events, work, seat, np.int64(NO_PICK), np.int64(0)
    )


@kernel
def random_table(fx, params, values, st, piles, rng, events, work, seat):
    """Random's lay-downs, lay-offs and joker replacements (module docstring)."""
    while st[R_SEAT + seat, S_N] > 0:
        n = _actions(fx, params, values, st, piles, rng, events, work, seat, np.int64(NO_PICK))
        # a discard taken for the initial meld is melded this turn (§2D.25), a joker taken
        # back under reuse_same_turn goes back to the table (§2B.12): no stopping before
        must_open = st[R_SC, C_TOOK_UNOPENED] == 1 and not has_opened(fx, params, st, seat)
        must_play = must_open or st[R_SC, C_JOKERS_OWED] > 0
        if must_play and n == 0:
            return  # cannot happen (the draw and the replacement made sure); audit counts it
        melds = _melds_owed(fx, params, values, st, piles, rng, events, work, seat)
        if melds > 0:  # tonk_meld_immediately (§2L.49): a meld it holds goes down now
            n = melds  # the new melds are the first actions
            must_play = True
        pick = below(rng, np.int64(RNG_BOTS), n if must_play else n + 1)
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
