"""The ``greedy`` bot (docs/bots.md).

``greedy``: takes the discard top when it is a joker, melds with its hand or fits a table
meld it may lay off on; lays down its best arrangement (``melds.best_arrangement``), or,
when that would leave no legal end of the turn, the best arrangement that keeps back one
allowed card (the one whose keeping back melds most; ties: the lowest kind), which it then
discards. It lays its melds down in the arrangement's decision order (lowest card first),
so they take the next table rows in that order. Then, under ``joker_replace =
steal_by_replacement`` (§2B.12), it replaces every table joker it can by the natural card
it holds (the lowest such card first, on the lowest meld row; never the card kept back),
as the previous engine did; under ``to_hand`` (Caloochi) it does the same before laying
anything down, the only time the rule allows it. Then it lays off, again and again, its
lowest card that fits a table meld it may lay off on (never a copy of the card kept back),
on the first such meld (the lowest row), skipping a card whose lay-off would leave no
legal end of the turn; when no natural card goes, a joker (the ones it took included) on
the first meld that takes one (``table.lay_off_joker``). Under ``borrowing`` (§2D.22) it
then borrows the table card that melds the most of its own points (``greedy_borrow``)
and lays off again. It declares its jokers as the
lowest card it may (``joker_choice``). It discards the highest-valued allowed card
outside every partial meld (another card of its rank, or a card of its suit at most two
run positions away), else the highest-valued allowed card,
a joker last; ties: the higher kind. A card that came round is not discarded while
another allowed card may be (it is taken out of the allowed cards before the partial-meld
test; a card kept back still goes): a card came round when it is drawn from the stock and
the player drew a card of that kind from the stock before in this hand, with no card laid
down or laid off by anyone in between (any lay-down or lay-off clears every player's
memory; the memory starts empty each hand and outlives stock rebuilds). With the rebuilt
stock in a fixed order and every bot deterministic, discarding it again repeats the pass
exactly and the hand would never end (issue #29: 4% of 6-player hands stalled that way).

The non-standard draws (§2C.16; ``bots.py`` asks): under ``any_card`` greedy takes, of the
discard area's cards ``greedy_wants`` accepts, the highest-valued (ties: the higher kind,
then the copy thrown last), else the stock. Under ``top_plus_one`` it takes the discard
top only when the next player would still have a card to draw (``leaves_a_draw``, every
bot), and then when ``greedy_wants`` accepts it or to break a dead pass
(``breaks_the_pass``, careful too); its second card is the next discard when
``greedy_wants`` accepts it, else the stock's next card.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import highest_bit, lowest_bit
from sim.engine.borrow import borrow_meld, borrowable
from sim.engine.jit import kernel
from sim.engine.joker_choice import declare_jokers
from sim.engine.layout import (
    BORROW_OFF,
    DBI_ONLY_FOR_INITIAL,
    JLIMIT_NATURALS,
    JREPLACE_REUSE,
    JREPLACE_TO_HAND,
    MELDS_ONE,
    MELDS_ONE_OR_LAYOFF,
    P_BORROWING,
    P_DISCARD_BEFORE_INITIAL,
    P_JOKER_LIMIT,
    P_JOKER_REPLACE,
    P_JOKERS,
    P_MELDS_PER_TURN,
    P_PACKS,
    P_PLAYERS,
    RESTRICT_NO_LAYOFF,
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
    MAX_LAYERS,
    N_PLANES,
    S_BEST_N,
    V_PLANES,
    W_BEST,
    W_PICK,
    W_SCAL,
    best_arrangement,
    list_candidates,
    meldable,
    melds_card,
    partial_melds,
)
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_COME_ROUND,
    C_DISCARD_N,
    C_N_MELDS,
    C_PLAN,
    C_REBUILDS,
    C_STOCK_N,
    C_TAKEN,
    C_TOOK_UNOPENED,
    R_SC,
    R_SEAT,
    S_HAND,
    S_JOKERS,
    S_N,
    S_STOCK_SEEN,
    give,
    take,
)
from sim.engine.table import (
    first_meld_taking,
    first_meld_taking_joker,
    lay_down,
    lay_off,
    lay_off_joker,
    layoff_targets,
    may_meld_now,
    may_steal,
    opening_terms,
    replacement_usable,
    stands_for,
    steal,
)


@kernel
def _meld_limit(fx, params):
    """How many melds greedy may lay down in one turn (0: any number)."""
    rule_ = rule(fx, params, P_MELDS_PER_TURN)
    if rule_ == MELDS_ONE or rule_ == MELDS_ONE_OR_LAYOFF:
        return 1
    return 0


@kernel
def greedy_arrangement(fx, params, values, st, work, seat):
    """Greedy's arrangement into ``work`` (module docstring); may set ``C_PLAN``. Before
    his initial meld only an arrangement that makes it counts (``table.opening_terms``):
    none when no arrangement does."""
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    jokers = st[R_SEAT + seat, S_JOKERS]
    limit = _meld_limit(fx, params)
    minimum, must = opening_terms(fx, params, st, seat)
    best_arrangement(fx, params, values, work, hand, jokers, limit, minimum, must, np.int64(0))
    if work[W_SCAL, S_BEST_N] == 0 or rows_leave_end(
        fx, params, st, work, seat, np.int64(W_BEST), work[W_SCAL, S_BEST_N]
    ):
        return
    best_v = -1
    best_d = np.int64(-1)
    rest = allowed_naturals(st, seat)
    while rest != 0:
        d = lowest_bit(rest)
        rest &= rest - 1
        take_natural(fx, params, hand, d)
        v = best_arrangement(
            fx, params, values, work, hand, jokers, limit, minimum, must, np.int64(0)
        )
        give_natural(fx, params, hand, d)
        if v > best_v:
            best_v = v
            best_d = d
    if best_d < 0:
        work[W_SCAL, S_BEST_N] = 0
        return
    take_natural(fx, params, hand, best_d)
    best_arrangement(fx, params, values, work, hand, jokers, limit, minimum, must, np.int64(0))
    give_natural(fx, params, hand, best_d)
    st[R_SC, C_PLAN] = best_d


@gated(P_JOKERS, lambda v: v != 0, None)
@kernel
def _steal_all(fx, params, st, piles, rng, events, seat, bot):
    """Replace table jokers by the natural cards they stand for (§2B.12) while it holds
    one, never the card kept back: the lowest such card first, on the lowest meld row.
    Under ``reuse_same_turn`` only when the joker can go back to the table
    (``table.replacement_usable``), and it goes at once: laid off on the first meld that
    takes one, declared as ``bot`` declares."""
    reuse = rule(fx, params, P_JOKER_REPLACE) == JREPLACE_REUSE
    while may_steal(fx, params, st):
        hand = st[R_SEAT + seat, S_HAND]
        plan = st[R_SC, C_PLAN]
        if 0 <= plan < JOKER:
            hand &= ~(np.int64(1) << plan)
        best_k = np.int64(JOKER)
        best_m = np.int64(-1)
        for m in range(st[R_SC, C_N_MELDS]):
            here = stands_for(fx, params, st, m) & hand
            while here != 0:
                k = lowest_bit(here)
                here &= here - 1
                if k >= best_k:
                    break
                if replacement_usable(fx, params, st, seat, k):
                    best_k = k
                    best_m = m
                    break
        if best_m < 0:
            return
        steal(fx, params, st, events, seat, best_m, best_k)
        t = first_meld_taking_joker(fx, params, st, seat) if reuse else -1
        if t >= 0:  # (replacement_usable made sure there is one; the audit counts a miss)
            lay_off_joker(fx, params, st, events, seat, t)
            declare_jokers(fx, params, st, piles, rng, events, seat, t, bot)
    return


@kernel
def greedy_table(fx, params, values, st, piles, rng, events, work, seat, bot, flags):
    """Greedy's lay-downs, replacements and lay-offs (module docstring); its joker
    declarations are ``bot``'s (``joker_choice``: careful plays its table as greedy). Under
    ``flags`` holding ``RESTRICT_NO_LAYOFF`` (careful-nolayoff, docs/bots.md) nothing is
    laid off, and no table joker is replaced under ``reuse_same_turn`` (the joker would go
    back at once as a lay-off)."""
    lays_off = flags & RESTRICT_NO_LAYOFF == 0
    if rule(fx, params, P_JOKER_REPLACE) == JREPLACE_TO_HAND:
        _steal_all(fx, params, st, piles, rng, events, seat, bot)  # only before melding
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    jokers = st[R_SEAT + seat, S_JOKERS]
    n_layers = rule(fx, params, P_PACKS)
    if may_meld_now(fx, params, st) and meldable(fx, params, hand, n_layers, jokers) != 0:
        greedy_arrangement(fx, params, values, st, work, seat)
        for m in range(work[W_SCAL, S_BEST_N]):
            t = lay_down(fx, params, st, events, seat, work, W_BEST + m)
            if work[W_BEST + m, CA_JOKERS] > 0:
                declare_jokers(fx, params, st, piles, rng, events, seat, t, bot)
    if lays_off or rule(fx, params, P_JOKER_REPLACE) != JREPLACE_REUSE:
        _steal_all(fx, params, st, piles, rng, events, seat, bot)
    if lays_off:
        _lay_off_all(fx, params, st, piles, rng, events, seat, bot)
    if (
        rule(fx, params, P_BORROWING) != BORROW_OFF
        and greedy_borrow(fx, params, values, st, piles, rng, events, work, seat, bot)
        and lays_off
    ):
        _lay_off_all(fx, params, st, piles, rng, events, seat, bot)


@kernel
def greedy_stock_card(fx, params, values, st, events, work, seat, card, flags):
    """``tonk_stock_card_must_play`` (§2L.48): greedy plays ``card``, just drawn from the
    stock, to the table if it can: laid off on the first meld that takes it (not under
    ``RESTRICT_NO_LAYOFF`` in ``flags``), else in its best arrangement that melds it
    (within the turn's meld limit); returns whether it did (if not, the card is discarded
    and the turn ends)."""
    lays_off = flags & RESTRICT_NO_LAYOFF == 0
    if (
        lays_off
        and (layoff_targets(fx, params, st, seat) >> card) & 1 == 1
        and stays_finishable(fx, params, st, seat, card)
    ):
        lay_off(fx, params, st, events, seat, first_meld_taking(fx, params, st, seat, card), card)
        return True
    if not may_meld_now(fx, params, st):
        return False
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    jokers = st[R_SEAT + seat, S_JOKERS]
    limit = _meld_limit(fx, params)
    best_arrangement(fx, params, values, work, hand, jokers, limit, np.int64(0), card, np.int64(0))
    n = work[W_SCAL, S_BEST_N]
    if n == 0 or not rows_leave_end(fx, params, st, work, seat, np.int64(W_BEST), n):
        return False
    for m in range(n):
        lay_down(fx, params, st, events, seat, work, W_BEST + m)
    return True


@kernel
def _lay_off_all(fx, params, st, piles, rng, events, seat, bot):
    """Greedy's lay-offs (module docstring), until none goes."""
    while st[R_SEAT + seat, S_N] > 0:
        cands = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS][0] & layoff_targets(
            fx, params, st, seat
        )
        plan = st[R_SC, C_PLAN]
        if 0 <= plan < JOKER:
            cands &= ~(np.int64(1) << plan)
        played = False
        while cands != 0:
            k = lowest_bit(cands)
            cands &= cands - 1
            if stays_finishable(fx, params, st, seat, k):
                lay_off(fx, params, st, events, seat, first_meld_taking(fx, params, st, seat, k), k)
                played = True
                break
        if (
            not played
            and rule(fx, params, P_JOKERS) > 0  # a spec without jokers folds this away
            and st[R_SEAT + seat, S_JOKERS] > 0
            and joker_stays_finishable(fx, params, st, seat)
        ):
            m = first_meld_taking_joker(fx, params, st, seat)
            if m >= 0:
                lay_off_joker(fx, params, st, events, seat, m)
                declare_jokers(fx, params, st, piles, rng, events, seat, m, bot)
                played = True
        if not played:
            return


@kernel
def _borrow_search(fx, params, values, st, work, seat, kind):
    """The value ``seat``'s best arrangement melds from his hand with natural ``kind`` added
    and melded (``must``), never the card kept back (``C_PLAN``), into ``work``; -1 when
    there is none or it would leave no legal end of the turn. The hand is left as it
    was."""
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    jokers = st[R_SEAT + seat, S_JOKERS]
    plan = st[R_SC, C_PLAN]
    kept = 0 <= plan < JOKER
    give_natural(fx, params, hand, kind)
    if kept:
        take_natural(fx, params, hand, plan)
    value = np.int64(-1)
    if (meldable(fx, params, hand, rule(fx, params, P_PACKS), jokers) >> kind) & 1 == 1:
        value = best_arrangement(
            fx,
            params,
            values,
            work,
            hand,
            jokers,
            _meld_limit(fx, params),
            np.int64(0),
            kind,
            np.int64(0),
        )
    if kept:
        give_natural(fx, params, hand, plan)
    n = work[W_SCAL, S_BEST_N]
    first = np.int64(W_BEST)
    if value >= 0 and (n == 0 or not rows_leave_end(fx, params, st, work, seat, first, n)):
        value = -1
    take_natural(fx, params, hand, kind)
    return value - values[kind] if value > 0 else np.int64(-1)


@gated(P_BORROWING, lambda v: v != BORROW_OFF, np.bool_(False))
@kernel
def greedy_borrow(fx, params, values, st, piles, rng, events, work, seat, bot):
    """Borrowing (§2D.22; ``sim.engine.borrow``), after greedy's lay-downs and lay-offs: of
    the cards it may borrow, the one whose best arrangement with the rest of its hand melds
    the most of its own points (more than 0: it melded all it could without; ties: the
    lowest meld row, then the lowest kind); it lays that arrangement down, the meld holding
    the borrowed card first. Returns whether it borrowed."""
    best_gain = np.int64(0)
    best_m = np.int64(-1)
    best_k = np.int64(-1)
    for m in range(st[R_SC, C_N_MELDS]):
        kinds = borrowable(fx, params, st, seat, m)
        while kinds != 0:
            k = lowest_bit(kinds)
            kinds &= kinds - 1
            gain = _borrow_search(fx, params, values, st, work, seat, k)
            if gain > best_gain:
                best_gain = gain
                best_m = m
                best_k = k
    if best_m < 0:
        return False
    _borrow_search(fx, params, values, st, work, seat, best_k)
    n = work[W_SCAL, S_BEST_N]
    first = W_BEST
    for r in range(W_BEST, W_BEST + n):
        if melds_card(work, r, best_k):
            first = r
            break
    t = borrow_meld(fx, params, st, events, seat, best_m, best_k, work, np.int64(first))
    if work[first, CA_JOKERS] > 0:
        declare_jokers(fx, params, st, piles, rng, events, seat, t, bot)
    for r in range(W_BEST, W_BEST + n):
        if r != first:
            t = lay_down(fx, params, st, events, seat, work, r)
            if work[r, CA_JOKERS] > 0:
                declare_jokers(fx, params, st, piles, rng, events, seat, t, bot)
    return True


@gated(P_DISCARD_BEFORE_INITIAL, lambda v: v == DBI_ONLY_FOR_INITIAL, np.bool_(False))
@kernel
def opens_with(fx, params, values, st, work, seat, top):
    """``only_for_initial_meld`` (§2D.25): could ``seat``, before his initial meld, take
    ``top`` from the discard pile and use it in his initial meld this turn? Greedy's
    arrangement of his hand with it (``greedy_arrangement``, which must meld it) says; the
    hand and the turn's facts are left as they were."""
    give(fx, params, st, seat, top)
    st[R_SC, C_TAKEN] = top
    st[R_SC, C_TOOK_UNOPENED] = 1
    greedy_arrangement(fx, params, values, st, work, seat)
    found = work[W_SCAL, S_BEST_N] > 0
    st[R_SC, C_TAKEN] = -1
    st[R_SC, C_TOOK_UNOPENED] = 0
    st[R_SC, C_PLAN] = -1
    take(fx, params, st, seat, top)
    return found


@kernel
def _highest_value(values, mask):
    """The kind of ``mask`` with the highest value, ties to the higher kind (-1: empty):
    keep the cards with the highest value bit set, plane by plane from the top, then take
    the highest kind left."""
    if mask == 0:
        return -1
    for b in range(N_PLANES - 1, -1, -1):
        top = mask & values[V_PLANES + b]
        if top != 0:
            mask = top
    return highest_bit(mask)


@kernel
def discard_candidates(st, seat):
    """The natural kinds ``seat`` may discard (``legal.allowed_naturals``), less the card
    that came round (``C_COME_ROUND``) while another may go: greedy's and careful's rule
    (docs/bots.md)."""
    allowed = allowed_naturals(st, seat)
    come_round = st[R_SC, C_COME_ROUND]
    if come_round >= 0 and allowed & ~(np.int64(1) << come_round) != 0:
        allowed &= ~(np.int64(1) << come_round)  # keep the card that came round
    return allowed


@kernel
def greedy_discard(fx, params, values, st, seat):
    """Greedy's discard (module docstring)."""
    plan = st[R_SC, C_PLAN]
    if plan >= 0 and discard_allowed(fx, params, st, seat, plan):
        return plan
    allowed = discard_candidates(st, seat)
    loose = allowed & ~partial_melds(
        fx, params, st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS], rule(fx, params, P_PACKS)
    )
    if loose != 0:
        return _highest_value(values, loose)
    if allowed != 0:
        return _highest_value(values, allowed)
    return JOKER


@kernel
def greedy_wants(fx, params, values, st, work, seat, top, flags):
    """Does greedy take ``top`` from the discard pile: it melds with its hand, or fits a
    table meld it may lay off on (not under ``RESTRICT_NO_LAYOFF`` in ``flags``: a bot that
    lays nothing off takes no card to lay off)?"""
    if top == JOKER:
        return True
    bit = np.int64(1) << top
    if flags & RESTRICT_NO_LAYOFF == 0 and layoff_targets(fx, params, st, seat) & bit != 0:
        return True
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    give_natural(fx, params, hand, top)
    n_layers = rule(fx, params, P_PACKS)
    jokers = st[R_SEAT + seat, S_JOKERS]
    found = meldable(fx, params, hand, n_layers, jokers) & bit != 0
    if found and rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS:
        # meldable answers without the joker limit (§2B.10): list the melds through it
        first = np.int64(W_PICK)
        found = list_candidates(fx, params, values, work, first, hand, n_layers, jokers, top) > 0
    take_natural(fx, params, hand, top)
    return found


@kernel
def leaves_a_draw(st):
    """``top_plus_one`` (§3.7): would the next player still have a card to draw after this
    player takes the discard top and a second card and discards one? The stock and the
    discard pile lose one card between them, and with fewer than two left the next player
    could draw nothing (an empty stock, one discard: open point 2)."""
    return st[R_SC, C_STOCK_N] + st[R_SC, C_DISCARD_N] >= 3


@kernel
def breaks_the_pass(fx, params, st, seat, top):
    """``top_plus_one``: greedy's (and careful's) second reason to take the discard top
    (docs/bots.md): the stock has been rebuilt this hand and is not empty, ``top`` was
    drawn from the stock by someone since the table last changed (it is going round), and
    it joins a partial meld of the hand (``partial_melds``). Without it, deterministic bots
    with bigger hands and a turned-over stock pass the same dead cards round until the turn
    cap."""
    if top == JOKER or st[R_SC, C_REBUILDS] == 0 or st[R_SC, C_STOCK_N] == 0:
        return False
    seen = np.int64(0)
    for p in range(rule(fx, params, P_PLAYERS)):
        seen |= st[R_SEAT + p, S_STOCK_SEEN]
    if (seen >> top) & 1 == 0:
        return False
    hand = st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS]
    give_natural(fx, params, hand, top)
    part = partial_melds(fx, params, hand, rule(fx, params, P_PACKS))
    take_natural(fx, params, hand, top)
    return (part >> top) & 1 == 1
