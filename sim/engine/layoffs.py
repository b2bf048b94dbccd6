"""The knock family's part of the meld library: a hand's minimum deadwood as masks, and the
defender's lay-offs on the knocker's melds (RULES.md §1.13, §3.17 and its open point 3).

The knock families play one pack without jokers here (``sim.rules.model`` refuses the rest
for them), so a hand is one mask; runs are of one suit or of any suits (``run_suit``).

``arrange_mask``: the deadwood of a hand and the cards its best arrangement melds
(``melds.best_arrangement``, its declared tie-break). ``seat_arrangement`` answers the same
for a seat's hand, keeping the last answer per seat (``S_ARR_*``): a hand made from the kept
one by letting go cards outside its melds and adding cards that are in no meld of the new
hand has the same melds, and needs no search. Letting go a card the best arrangement leaves
in hand takes away only arrangements that meld it, none of them better, and in the declared
order (``melds.py``: decision sequences, cards decided from the lowest kind up) it removes
the same "left in hand" step from every arrangement that remains, so the first best stays
first; a card in no meld of the hand is in no arrangement, so adding it changes the
arrangements' order by that same step alone (the search sets such a card aside before it
decides any other, so its choices are the same). The usual case is a knock-family turn: the
hand of the last turn less its discard (outside its melds), plus the card offered or drawn
when it melds with nothing. Phỏm's hands use it too, with
their taken cards kept apart (``arrange_apart``, §3.13), and its bots keep the hand left
after a discard whose deadwood they know without a search (``keep_arrangement``).

``best_layoffs``: which of the defender's cards he lays off on the table melds of one owner
(the knocker), chains included (a card may fit only after another lay-off, §3.17 open
point 3). A set of cards can be laid off when it can be laid off one card at a time in some
order. Runs of one suit: with one pack each card fits at most one group (the one of its
rank) and the run ends it is next to; laying a card on a run never takes a place another
card of the set needs (a group that gets its fourth card takes nothing more, a run end
moves one place on), so a set can be laid off exactly when laying off, again and again,
every card of it that fits some meld now, on a run when one takes it, places every card
(``_lay_all``). Runs of any suits: a run's end takes every card of the next rank, so two
cards may want the same place and the order matters (5c on 6h-7d-8c rather than on
2s-3s-4s leaves no place for the 6s); ``_fits_any`` decides a set exactly by the places
each run could grow by and the cards of each rank. The search tries every subset of the
cards that could be laid off at all (``reach``); ``plan_layoffs`` gives the chosen set's
order of lay-offs, which ``showdown.py`` plays.

**Declared tie-break.** Of the sets that leave the defender the least deadwood (the best
arrangement of the cards he keeps), the one with the fewest cards, then the smallest as a
mask (bit ``k`` = kind ``k``): so no lay-off at all when it gains nothing.
``tests/engine/test_knock.py`` checks this against a brute force over every sequence of
lay-offs on random positions.
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_RANKS, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import ACE_AROUND_CORNER, P_RUN_SUIT, RUN_ANY_SUIT
from sim.engine.melds import (
    CA_TAKE,
    MAX_LAYERS,
    MELD_GROUP,
    S_BEST_N,
    W_BEST,
    W_CAND,
    W_FRAME,
    W_SCAL,
    W_TMP,
    best_arrangement,
    mask_value,
    meldable,
    n_positions,
    rank_at,
    run_cap,
    run_layout,
)
from sim.engine.specs import rule
from sim.engine.state import (
    C_N_MELDS,
    M_FITS,
    M_LEN,
    M_LO,
    M_OWNER,
    M_SUIT,
    M_TYPE,
    R_MELD,
    R_SC,
    R_SEAT,
    S_ARR_DW,
    S_ARR_MASK,
    S_ARR_MELDED,
)

MAX_REACH_BITS = 12  # more cards that could be laid off: those _lay_all lays are (never met)
MAX_OWN = 8  # table melds of one owner the search follows (a hand of 11 holds at most 3)


@kernel
def arrange_mask(fx, params, values, work, mask):
    """``(deadwood, melded)`` of the hand ``mask`` (one pack, no jokers): the value its best
    arrangement leaves in hand and the cards it melds. Leaves the arrangement in ``work``
    rows ``W_BEST``.."""
    return arrange_apart(fx, params, values, work, mask, np.int64(0))


@kernel
def arrange_apart(fx, params, values, work, mask, apart):
    """``arrange_mask`` among the arrangements that meld every card of ``apart``, each in a
    meld of its own (Phỏm's taken cards, §3.13; ``melds.best_arrangement``). When none does,
    no meld is written (``S_BEST_N`` is 0) and the whole hand is deadwood."""
    layers = work[W_TMP, 0:MAX_LAYERS]
    layers[0] = mask
    for l in range(1, MAX_LAYERS):
        layers[l] = 0
    melded_value = best_arrangement(
        fx, params, values, work, layers, np.int64(0), np.int64(0), np.int64(0), np.int64(-1),
        apart,
    )  # fmt: skip
    melded = np.int64(0)
    for m in range(work[W_SCAL, S_BEST_N]):
        melded |= work[W_BEST + m, CA_TAKE]
    return mask_value(values, mask) - melded_value, melded


@kernel
def meldable_mask(fx, params, work, mask):
    """The cards of the hand ``mask`` (one pack, no jokers) that are in some meld of it."""
    layers = work[W_TMP, 0:MAX_LAYERS]
    layers[0] = mask
    for l in range(1, MAX_LAYERS):
        layers[l] = 0
    return meldable(fx, params, layers, np.int64(1), np.int64(0))


@kernel
def cannot_meld(fx, params, work, mask, card_bit):
    """Is the card ``card_bit`` in no meld of the hand ``mask``?"""
    return meldable_mask(fx, params, work, mask) & card_bit == 0


@kernel
def seat_arrangement(fx, params, values, st, work, seat, mask, keep, apart):
    """``arrange_apart(mask, apart)`` for a hand of ``seat``, from the arrangement kept for him
    when it gives the same answer (module docstring); ``keep``: keep this one. ``apart`` is 0
    or Phỏm's taken cards he holds (§3.13): within a hand they follow from the mask (a taken
    card stays in hand and always melds), so a kept answer stays valid."""
    row = R_SEAT + seat
    kept = st[row, S_ARR_MASK]
    if kept != 0:
        if mask == kept:
            return st[row, S_ARR_DW], st[row, S_ARR_MELDED]
        extra = mask & ~kept
        missing = kept & ~mask
        melded = st[row, S_ARR_MELDED]
        if missing & melded == 0 and (
            extra == 0 or meldable_mask(fx, params, work, mask) & extra == 0
        ):  # cards outside the kept melds gone, cards in no meld come (module docstring)
            dw = st[row, S_ARR_DW] - mask_value(values, missing) + mask_value(values, extra)
            if keep:
                keep_arrangement(st, seat, mask, dw, melded)
            return dw, melded
    dw, melded = arrange_apart(fx, params, values, work, mask, apart)
    if keep:
        keep_arrangement(st, seat, mask, dw, melded)
    return dw, melded


@kernel
def keep_arrangement(st, seat, mask, deadwood, melded):
    """Keep ``seat``'s hand ``mask``, its ``deadwood`` and the cards its arrangement melds,
    for ``seat_arrangement`` to start from."""
    row = R_SEAT + seat
    st[row, S_ARR_MASK] = mask
    st[row, S_ARR_DW] = deadwood
    st[row, S_ARR_MELDED] = melded


# columns of the scratch rows that copy one owner's table melds (``_load_melds``)
T_RUN = 0  # 1: a run, 0: a group
T_LO = 1  # a run's first position; a group's rank
T_LEN = 2  # its cards
T_SUIT = 3  # a run of one suit: its suit; -1: any suit
T_FITS = 4  # the kinds that fit it now
T_MELD = 5  # the table meld's row index
T_DOWN = 6  # any suit: the places a run may grow below its first position (cards held)
T_UP = 7  # ... and above its last
T_D = 8  # any suit: the growth below and above being tried (``_fits_any``)
T_U = 9
# the lay-off order ``plan_layoffs`` writes: one row per card, from W_FRAME on
PLAN_MELD = 0
PLAN_CARD = 1
RANK = np.int64(0xF)  # the four kinds of rank 0; of rank r: RANK << (4 * r)


@kernel
def _end_kinds(rank, suit):
    """The kinds of ``rank`` a run of ``suit`` (-1: any suit) takes at an end."""
    if suit < 0:
        return RANK << (rank * N_SUITS)
    return np.int64(1) << (rank * N_SUITS + suit)


@kernel
def _run_fits(fx, params, lo, length, suit):
    """The kinds that fit a run of ``suit`` (-1: any suit) on window (``lo``, ``length``)."""
    if length >= run_cap(fx, params):
        return np.int64(0)
    ace_rank = run_layout(fx, params)
    fits = np.int64(0)
    n = n_positions(ace_rank)
    if ace_rank == ACE_AROUND_CORNER:
        below = lo - 1 if lo > 0 else n - 1
        fits |= _end_kinds(rank_at(below, ace_rank), suit)
        fits |= _end_kinds(rank_at(lo + length, ace_rank), suit)
        return fits
    if lo > 0:
        fits |= _end_kinds(rank_at(lo - 1, ace_rank), suit)
    if lo + length < n:
        fits |= _end_kinds(rank_at(lo + length, ace_rank), suit)
    return fits


@kernel
def _load_melds(st, work, owner):
    """Copy ``owner``'s table melds (at most ``MAX_OWN``) into ``work``'s first candidate
    rows (free between searches), columns ``T_*``; returns how many."""
    sc = work[W_CAND : W_CAND + MAX_OWN]
    n = 0
    for m in range(st[R_SC, C_N_MELDS]):
        row = R_MELD + m
        if st[row, M_OWNER] != owner or n >= MAX_OWN:
            continue
        sc[n, T_RUN] = 0 if st[row, M_TYPE] == MELD_GROUP else 1
        sc[n, T_LO] = st[row, M_LO]
        sc[n, T_LEN] = st[row, M_LEN]
        sc[n, T_SUIT] = st[row, M_SUIT]
        sc[n, T_FITS] = st[row, M_FITS]
        sc[n, T_MELD] = m
        n += 1
    return n


@kernel
def _plan(work, i, meld, card):
    """Lay-off ``i`` of the plan: ``card`` on table meld ``meld``."""
    work[W_FRAME + i, PLAN_MELD] = meld
    work[W_FRAME + i, PLAN_CARD] = card


@kernel
def _lay_all(fx, params, st, work, owner, cards):
    """Lay off, again and again, every card of ``cards`` that fits one of ``owner``'s table
    melds now (on a run when one takes it, else on the group of its rank), on copies of
    those melds (``_load_melds``), and write the order of the lay-offs as a plan
    (``plan_layoffs``). Returns the cards laid off. Exact under runs of one suit (module
    docstring); under any suit a set it lays off can be laid off, but it may miss some."""
    ace_rank = run_layout(fx, params)
    sc = work[W_CAND : W_CAND + MAX_OWN]
    n = _load_melds(st, work, owner)
    laid = np.int64(0)
    left = cards
    count = np.int64(0)
    changed = True
    while changed and left != 0:
        changed = False
        rest = left
        while rest != 0:
            k = lowest_bit(rest)
            rest &= rest - 1
            bit = np.int64(1) << k
            target = -1
            for i in range(n):
                if sc[i, T_FITS] & bit != 0:
                    if sc[i, T_RUN] == 1:
                        target = i  # a run: its chain may take more
                        break
                    if target < 0:
                        target = i
            if target < 0:
                continue
            if sc[target, T_RUN] == 0:
                sc[target, T_FITS] &= ~bit  # the group's missing suit is filled
            else:
                lo = sc[target, T_LO]
                length = sc[target, T_LEN] + 1
                if lo > 0 or ace_rank == ACE_AROUND_CORNER:
                    before = lo - 1 if lo > 0 else n_positions(ace_rank) - 1
                    if rank_at(before, ace_rank) == k // N_SUITS:
                        lo = before  # it goes below the first position
                sc[target, T_LO] = lo
                sc[target, T_LEN] = length
                sc[target, T_FITS] = _run_fits(fx, params, lo, length, sc[target, T_SUIT])
            _plan(work, count, sc[target, T_MELD], k)
            count += 1
            laid |= bit
            left &= ~bit
            changed = True
    return laid


@kernel
def _position(pos, ace_rank):
    """Run position ``pos`` (one place below the first or past the last of a window), or
    -1 when there is none (around the corner positions wrap)."""
    n = n_positions(ace_rank)
    if pos < 0:
        return pos + n if ace_rank == ACE_AROUND_CORNER else -1
    if pos >= n:
        return pos - n if ace_rank == ACE_AROUND_CORNER else -1
    return pos


@kernel
def _grown_rank(sc, i, j, ace_rank):
    """The rank of the ``j``-th new place of run ``i``'s growth being tried: its ``T_D``
    places below, outward, then its ``T_U`` places above."""
    if j < sc[i, T_D]:
        return rank_at(_position(sc[i, T_LO] - 1 - j, ace_rank), ace_rank)
    return rank_at(_position(sc[i, T_LO] + sc[i, T_LEN] + j - sc[i, T_D], ace_rank), ace_rank)


@kernel
def _growth_limits(fx, params, work, n, cards):
    """For each run among the ``n`` loaded melds: how far it could grow below (``T_DOWN``)
    and above (``T_UP``) with one card of ``cards`` on each new position, whatever its suit
    (any-suit runs). Returns the cards that could be laid off at all: those on such
    positions and those that fit a group."""
    ace_rank = run_layout(fx, params)
    cap = run_cap(fx, params)
    sc = work[W_CAND : W_CAND + MAX_OWN]
    reach = np.int64(0)
    for i in range(n):
        sc[i, T_D] = 0
        sc[i, T_U] = 0
        if sc[i, T_RUN] == 0:
            reach |= sc[i, T_FITS] & cards
            sc[i, T_DOWN] = 0
            sc[i, T_UP] = 0
            continue
        lo = sc[i, T_LO]
        length = sc[i, T_LEN]
        d = 0
        while length + d < cap:
            p = _position(lo - 1 - d, ace_rank)
            if p < 0:
                break
            ranks = cards & (RANK << (rank_at(p, ace_rank) * N_SUITS))
            if ranks == 0:
                break
            reach |= ranks
            d += 1
        u = 0
        while length + u < cap:
            p = _position(lo + length + u, ace_rank)
            if p < 0:
                break
            ranks = cards & (RANK << (rank_at(p, ace_rank) * N_SUITS))
            if ranks == 0:
                break
            reach |= ranks
            u += 1
        sc[i, T_DOWN] = d
        sc[i, T_UP] = u
    return reach


@kernel
def _rank_counts(mask):
    """How many kinds of each rank ``mask`` holds, 4 bits per rank."""
    counts = np.int64(0)
    for r in range(N_RANKS):
        counts |= np.int64(popcount(mask & (RANK << (r * N_SUITS)))) << (r * N_SUITS)
    return counts


@kernel
def _fits_any(fx, params, st, work, owner, cards, plan):
    """Can ``cards`` be laid off on ``owner``'s melds when runs take any suit? With one
    pack a run only ever takes the next rank at an end, whatever the suit, and a group only
    its missing suits, so a set can be laid off exactly when each run can be given a growth
    (places below and above it, each rank of them once) such that for every rank the
    growths' places of that rank are at most the set's cards of that rank and at least
    those less the ones a group takes. The growths are tried in order (the first run's
    growth below counting fastest); with ``plan`` the first that works is written as the
    lay-off order (``plan_layoffs``): each run's new cards outward, then the groups'."""
    ace_rank = run_layout(fx, params)
    cap = run_cap(fx, params)
    sc = work[W_CAND : W_CAND + MAX_OWN]
    n = _load_melds(st, work, owner)
    if _growth_limits(fx, params, work, n, cards) != cards:
        return False
    groups = np.int64(0)
    for i in range(n):
        if sc[i, T_RUN] == 0:
            groups |= sc[i, T_FITS]
    have = _rank_counts(cards)
    spare = _rank_counts(cards & groups)  # cards a group may take instead of a run
    while True:
        places = np.int64(0)
        ok = True
        for i in range(n):
            if sc[i, T_RUN] == 0:
                continue
            if sc[i, T_LEN] + sc[i, T_D] + sc[i, T_U] > cap:
                ok = False
                break
            for j in range(sc[i, T_D] + sc[i, T_U]):
                places += np.int64(1) << (_grown_rank(sc, i, j, ace_rank) * 4)
        if ok:
            for r in range(N_RANKS):
                e = (places >> (4 * r)) & 0xF
                c = (have >> (4 * r)) & 0xF
                if e > c or c - e > (spare >> (4 * r)) & 0xF:
                    ok = False
                    break
        if ok:
            if plan:
                _write_plan(fx, params, work, n, cards, groups, places)
            return True
        i = np.int64(0)
        while i < n:  # the next growth to try
            if sc[i, T_RUN] == 1:
                if sc[i, T_D] < sc[i, T_DOWN]:
                    sc[i, T_D] += 1
                    break
                sc[i, T_D] = 0
                if sc[i, T_U] < sc[i, T_UP]:
                    sc[i, T_U] += 1
                    break
                sc[i, T_U] = 0
            i += 1
        if i == n:
            return False


@kernel
def _write_plan(fx, params, work, n, cards, groups, places):
    """The lay-off order of a growth ``_fits_any`` found: of each rank, the cards its places
    leave over go to the groups (lowest first), the others to the runs' places, lowest
    first, each run outward below then above; then the groups' cards."""
    ace_rank = run_layout(fx, params)
    sc = work[W_CAND : W_CAND + MAX_OWN]
    to_groups = np.int64(0)
    for r in range(N_RANKS):
        of_rank = cards & (RANK << (r * N_SUITS))
        extra = popcount(of_rank) - ((places >> (4 * r)) & 0xF)
        spare = of_rank & groups
        for _ in range(extra):
            low = spare & -spare
            to_groups |= low
            spare &= ~low
    pool = cards & ~to_groups
    count = np.int64(0)
    for i in range(n):
        if sc[i, T_RUN] == 0:
            continue
        for j in range(sc[i, T_D] + sc[i, T_U]):
            k = lowest_bit(pool & (RANK << (_grown_rank(sc, i, j, ace_rank) * N_SUITS)))
            pool &= ~(np.int64(1) << k)
            _plan(work, count, sc[i, T_MELD], k)
            count += 1
    while to_groups != 0:
        k = lowest_bit(to_groups)
        to_groups &= to_groups - 1
        for i in range(n):
            if sc[i, T_RUN] == 0 and sc[i, T_FITS] & (np.int64(1) << k) != 0:
                _plan(work, count, sc[i, T_MELD], k)
                count += 1
                break


@kernel
def _any_suit(fx, params):
    return rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT


@kernel
def plan_layoffs(fx, params, st, work, owner, cards):
    """Write an order in which ``cards`` (a set ``best_layoffs`` chose) can be laid off on
    ``owner``'s melds, one row per card from ``W_FRAME`` (``PLAN_MELD``, ``PLAN_CARD``);
    returns how many rows (fewer than the cards: they cannot all be laid off)."""
    if _any_suit(fx, params):
        if _fits_any(fx, params, st, work, owner, cards, np.bool_(True)):
            return popcount(cards)
        return 0
    return popcount(_lay_all(fx, params, st, work, owner, cards))


@kernel
def best_layoffs(fx, params, values, st, work, seat, hand, owner):
    """``(deadwood, laid)``: the cards of ``seat``'s hand ``hand`` he lays off on
    ``owner``'s table melds and the deadwood of the cards he keeps (module docstring,
    declared tie-break). The deadwood of each set kept is ``seat_deadwood``'s, so the
    arrangement kept for him answers when the cards laid off are outside its melds."""
    any_suit = _any_suit(fx, params)
    greedy = _lay_all(fx, params, st, work, owner, hand)
    reach = greedy
    if any_suit:
        reach = _growth_limits(fx, params, work, _load_melds(st, work, owner), hand)
    best = seat_deadwood(fx, params, values, st, work, seat, hand)
    best_laid = np.int64(0)
    if reach == 0 or best == 0:
        return best, best_laid
    if popcount(reach) > MAX_REACH_BITS:
        dw = seat_deadwood(fx, params, values, st, work, seat, hand & ~greedy)
        return dw, greedy
    best_n = 0
    s = np.int64(0)
    while True:
        s = (s - reach) & reach  # the next subset of reach, as a number
        if s == 0:
            break
        n = popcount(s)
        if any_suit:
            if not _fits_any(fx, params, st, work, owner, s, np.bool_(False)):
                continue
        elif _lay_all(fx, params, st, work, owner, s) != s:
            continue
        dw = seat_deadwood(fx, params, values, st, work, seat, hand & ~s)
        if dw < best or (dw == best and best_laid != 0 and n < best_n):
            best = dw
            best_laid = s
            best_n = n
    return best, best_laid


@kernel
def seat_deadwood(fx, params, values, st, work, seat, mask):
    """The deadwood of ``seat``'s cards ``mask`` (``seat_arrangement``, not kept): what a
    defender keeps at the showdown, with or without lay-offs."""
    dw, _ = seat_arrangement(fx, params, values, st, work, seat, mask, np.bool_(False),
                             np.int64(0))  # fmt: skip
    return dw
