"""Meld enumeration and the exact best-arrangement (minimum deadwood) search.

Kernels here take a ``SearchWork`` (preallocated arrays, see ``new_search_work``),
``params`` (layout ``P_*``) and ``card_values`` (``int64[N_KINDS]``).

Meld contract (RULES.md §1.3, §2A.4, §2A.6, §2B.9; checked against the brute-force
oracle in tests/oracles):

- every meld has at least 3 cards and at least one natural card; a joker (kind
  ``JOKER``) is wild and stands for one natural card;
- a *group* is cards of one rank: at most one per suit and at most 4 cards, or, with
  ``group_duplicates`` allowed, any number (>= 3) of cards of that rank;
- a *run* is 3..13 cards on consecutive run positions (``positions.py``), one card per
  position, naturals all of one suit (or any suits under ``run_suit = any_suit``).

A meld is stored as ``type`` (``MELD_GROUP``/``MELD_RUN``), ``start`` (the group's rank,
or the run's first position), ``length``, ``suit`` (the run's suit, -1 for groups and
any-suit runs) and ``cards[:length]`` (card kinds; for runs in position order, a joker
standing at its position).

The search (iterative: numba cannot cache recursive functions) branches on the first
natural card still undecided: it is either deadwood or
in one of the melds, built from undecided cards, that contain it. Every arrangement is
reachable, so the result is exact; a bound on the value still undecided prunes it.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sim.engine.jit import allocating, kernel
from sim.engine.layout import (
    JOKER,
    MAX_MELD_CARDS,
    MELD_GROUP,
    MELD_RUN,
    N_KINDS,
    N_NATURAL,
    N_SUITS,
    P_ACE_RANK,
    P_GROUP_DUPLICATES,
    P_RUN_SUIT,
    RUN_ANY_SUIT,
)
from sim.engine.positions import (
    MAX_RUN,
    first_position,
    n_positions,
    position_ok,
    rank_at,
    second_position,
    wraps,
)

MAX_DEPTH = 64  # search depth: one level per decided card or meld
MAX_CAND = 512  # melds through one card held at once, per depth: one page of them
MAX_ARRANGEMENT = 24  # melds in one arrangement

# SearchWork.scal slots
S_BEST_VALUE = 0  # melded value of the best arrangement so far (-1: none)
S_BEST_N = 1  # melds in it
S_CUR_N = 2  # melds on the current path
S_TOTAL = 3  # value of the whole hand
S_DONE = 4  # 1 once an arrangement melds everything (nothing can beat it)
S_OVERFLOW = 5  # a search cut short (MAX_DEPTH; or a full page in bits.py, which one pack
# without jokers never fills): must stay 0
S_SKIP = 6  # candidates still to pass over before the page that ``melds_with`` keeps
S_MORE = 7  # 1 when ``melds_with`` found more candidates than its page holds
N_SCAL = 8

# SearchWork.node columns: one row per search depth
N_START = 0  # first card kind that may still be undecided
N_CARD = 1  # the card this node branches on
N_CHOICE = 2  # -2 not expanded; else the child being explored (melds, then deadwood)
N_MELDED = 3  # value melded on the path to this node
N_REMAINING = 4  # value still undecided
N_LEFT = 5  # melds still allowed
N_PAGE = 6  # which page of the node's candidates ``ws.cand[depth]`` holds (``melds_with``)
N_MORE = 7  # 1 when pages after it remain
N_NODE = 8

# columns of a meld row in SearchWork.cand and SearchWork.best (and of table melds' first
# columns, see state.py)
CC_TYPE = 0  # MELD_GROUP or MELD_RUN
CC_START = 1  # the group's rank, or the run's first position
CC_LEN = 2  # cards in the meld
CC_SUIT = 3  # the run's suit, -1 for groups and any-suit runs
CC_CARDS = 4  # first of MAX_MELD_CARDS card kinds (runs in position order)
N_CC = CC_CARDS + MAX_MELD_CARDS

# Few, larger arrays on purpose: numba passes a named tuple as all of its arrays' fields, so
# every kernel call costs in proportion to the number of arrays it carries.
SearchWork = namedtuple(
    "SearchWork",
    [
        "cnt",  # int64[N_KINDS]: cards still undecided, by kind
        "cand_n",  # int64[MAX_DEPTH]: candidates enumerated at each depth
        "cand",  # int64[MAX_DEPTH, MAX_CAND, N_CC]: candidate melds per depth (CC_* columns)
        "best",  # int64[MAX_ARRANGEMENT, N_CC]: the best arrangement found (CC_* columns)
        "cur",  # int64[MAX_ARRANGEMENT, 2]: (depth, candidate) of each meld on the path
        "run",  # int64[2, MAX_MELD_CARDS]: run being built (row 0) and choices made (row 1)
        "node",  # int64[MAX_DEPTH, N_NODE]: the search path
        "scal",  # int64[N_SCAL]
    ],
)


@allocating
def new_search_work():
    """Allocate a SearchWork."""
    return SearchWork(
        np.zeros(N_KINDS, np.int64),
        np.zeros(MAX_DEPTH, np.int64),
        np.zeros((MAX_DEPTH, MAX_CAND, N_CC), np.int64),
        np.zeros((MAX_ARRANGEMENT, N_CC), np.int64),
        np.zeros((MAX_ARRANGEMENT, 2), np.int64),
        np.zeros((2, MAX_MELD_CARDS), np.int64),
        np.zeros((MAX_DEPTH, N_NODE), np.int64),
        np.zeros(N_SCAL, np.int64),
    )


# ---- candidate enumeration ---------------------------------------------------------


@kernel
def _emit(ws, depth, mtype, start, length, suit, cards):
    """Append one candidate meld at ``depth``, unless it comes before the page being kept
    (``S_SKIP``); returns False once the page is full and another candidate comes
    (``S_MORE``): the enumeration stops there."""
    if ws.scal[S_SKIP] > 0:
        ws.scal[S_SKIP] -= 1
        return True
    n = ws.cand_n[depth]
    if n >= MAX_CAND:
        ws.scal[S_MORE] = 1
        return False
    ws.cand[depth, n, CC_TYPE] = mtype
    ws.cand[depth, n, CC_START] = start
    ws.cand[depth, n, CC_LEN] = length
    ws.cand[depth, n, CC_SUIT] = suit
    for i in range(length):
        ws.cand[depth, n, CC_CARDS + i] = cards[i]
    ws.cand_n[depth] = n + 1
    return True


@kernel
def _groups_with(ws, params, depth, c, cards):
    """Every group containing card ``c`` that can be built from ``ws.cnt``."""
    rank = c // N_SUITS
    suit = c % N_SUITS
    jokers = ws.cnt[JOKER]
    base = rank * N_SUITS
    if params[P_GROUP_DUPLICATES] == 0:
        for mask in range(16):
            if not (mask >> suit) & 1:
                continue
            k = 0
            ok = True
            for t in range(N_SUITS):
                if (mask >> t) & 1:
                    if ws.cnt[base + t] == 0:
                        ok = False
                        break
                    cards[k] = base + t
                    k += 1
            if not ok:
                continue
            for j in range(0, min(jokers, 4 - k) + 1):
                if k + j >= 3:
                    for i in range(j):
                        cards[k + i] = JOKER
                    if not _emit(ws, depth, MELD_GROUP, rank, k + j, -1, cards):
                        return
        return
    # duplicates allowed: choose how many copies of each suit (at least one c)
    c0 = ws.cnt[base]
    c1 = ws.cnt[base + 1]
    c2 = ws.cnt[base + 2]
    c3 = ws.cnt[base + 3]
    for x0 in range(c0 + 1):
        for x1 in range(c1 + 1):
            for x2 in range(c2 + 1):
                for x3 in range(c3 + 1):
                    xs = (x0, x1, x2, x3)
                    if xs[suit] == 0:
                        continue
                    k = x0 + x1 + x2 + x3
                    if k + jokers < 3 or k > MAX_MELD_CARDS:
                        continue
                    pos = 0
                    for t in range(N_SUITS):
                        for _ in range(xs[t]):
                            cards[pos] = base + t
                            pos += 1
                    for j in range(0, min(jokers, MAX_MELD_CARDS - k) + 1):
                        if k + j >= 3:
                            for i in range(j):
                                cards[k + i] = JOKER
                            if not _emit(ws, depth, MELD_GROUP, rank, k + j, -1, cards):
                                return


@kernel
def _runs_with(ws, params, depth, c):
    """Emit every run containing card ``c`` that can be built from ``ws.cnt``.

    For each first position ``lo`` from which position ``pc`` of ``c`` is reachable (every
    position between holds an available natural or a joker can fill it), a depth-first walk
    over positions lo, lo+1, ...: ``opt[level]`` is the choice made at position lo+level
    (0..3: the natural card of that suit, 4: a joker, 5: ``c`` itself). Iterative, because
    numba cannot cache recursive functions; one function, because every call passing the
    workspace costs more than the walk."""
    ace_rank = params[P_ACE_RANK]
    any_suit = params[P_RUN_SUIT] == RUN_ANY_SUIT
    rank = c // N_SUITS
    suit = c % N_SUITS
    npos = n_positions(ace_rank)
    fill = ws.run[0]
    opt = ws.run[1]
    cnt = ws.cnt
    jokers = cnt[JOKER]
    for which in range(2):
        pc = first_position(rank, ace_rank) if which == 0 else second_position(rank, ace_rank)
        if pc < 0:
            continue
        gaps = 0
        for back in range(MAX_RUN):
            lo = pc - back
            if wraps(ace_rank):
                lo = (lo + npos) % npos
            elif lo < 0:
                break
            if back > 0 and not _natural_at(cnt, ace_rank, any_suit, suit, lo):
                gaps += 1
                if gaps > jokers:
                    break
            # the walk from lo
            used_jokers = 0
            has_c = False
            level = 0
            opt[0] = -1
            while level >= 0:
                if opt[level] == 4:
                    used_jokers -= 1
                elif opt[level] == 5:
                    has_c = False
                pos = position_ok(lo + level, ace_rank)
                o = opt[level] + 1
                found = -1
                if pos >= 0:
                    if pos == pc:
                        if o <= 5:
                            found = 5
                    elif has_c or level < MAX_RUN - 1:
                        r = rank_at(pos, ace_rank)
                        if not any_suit and o < suit:
                            o = suit
                        while o <= 4:
                            if o < 4:
                                if (any_suit or o == suit) and cnt[r * N_SUITS + o] > 0:
                                    found = o
                                    break
                            elif used_jokers < jokers:
                                found = 4
                                break
                            o += 1
                if found < 0:
                    opt[level] = -1
                    level -= 1
                    continue
                opt[level] = found
                if found == 5:
                    fill[level] = c
                    has_c = True
                elif found == 4:
                    fill[level] = JOKER
                    used_jokers += 1
                else:
                    fill[level] = rank_at(pos, ace_rank) * N_SUITS + found
                length = level + 1
                if has_c and length >= 3:
                    if not _emit(ws, depth, MELD_RUN, lo, length, -1 if any_suit else suit, fill):
                        return
                if length < MAX_RUN:
                    level += 1
                    opt[level] = -1


@kernel
def _natural_at(cnt, ace_rank, any_suit, suit, pos):
    """Is a natural card for run position ``pos`` (of ``suit``, or any suit) available?"""
    r = rank_at(pos, ace_rank)
    if any_suit:
        for t in range(N_SUITS):
            if cnt[r * N_SUITS + t] > 0:
                return True
        return False
    return cnt[r * N_SUITS + suit] > 0


@kernel
def melds_with(ws, params, depth, c, page):
    """Enumerate into ``ws.cand_*[depth]`` the melds that contain natural card ``c`` and
    use only cards in ``ws.cnt`` (which must include ``c``); returns how many were kept.

    They come in a fixed order, ``MAX_CAND`` to a page: ``page`` 0 keeps the first
    ``MAX_CAND``, page 1 the next, and so on; ``ws.scal[S_MORE]`` is 1 when a later page
    holds more. Many jokers with runs of any suit can give thousands of melds through one
    card (a random bot's hand of 8 naturals and 3 jokers gave more than 512); every caller
    goes through all the pages, so none is ever dropped."""
    ws.cand_n[depth] = 0
    ws.scal[S_SKIP] = page * MAX_CAND
    ws.scal[S_MORE] = 0
    _groups_with(ws, params, depth, c, ws.run[0])
    _runs_with(ws, params, depth, c)
    return ws.cand_n[depth]


# ---- exact search -------------------------------------------------------------------


@kernel
def _record(ws, melded):
    """Keep the current path as the best arrangement when it melds strictly more."""
    if melded <= ws.scal[S_BEST_VALUE]:
        return
    ws.scal[S_BEST_VALUE] = melded
    n = ws.scal[S_CUR_N]
    ws.scal[S_BEST_N] = n
    for m in range(n):
        d = ws.cur[m, 0]
        i = ws.cur[m, 1]
        ws.best[m, CC_TYPE] = ws.cand[d, i, CC_TYPE]
        ws.best[m, CC_START] = ws.cand[d, i, CC_START]
        ws.best[m, CC_LEN] = ws.cand[d, i, CC_LEN]
        ws.best[m, CC_SUIT] = ws.cand[d, i, CC_SUIT]
        for j in range(ws.cand[d, i, CC_LEN]):
            ws.best[m, CC_CARDS + j] = ws.cand[d, i, CC_CARDS + j]
    if melded == ws.scal[S_TOTAL]:
        ws.scal[S_DONE] = 1


@kernel
def _search(ws, params, values, limit):
    """Depth-first search over the first undecided natural card of each node: one child per
    meld containing it (``ws.cand_*[depth]``), then one child with it as deadwood.
    ``ws.node[depth]`` holds the node's (start kind, first card, choice, melded value,
    undecided value, melds left, candidate page); choice -2 means "not expanded yet". A
    node's candidates are read a page at a time (``melds_with``): when the children of one
    page are done, the next page is enumerated from the same cards (each child puts its
    cards back before the next), so the order is that of one unbounded list."""
    node = ws.node
    cnt = ws.cnt
    cand_n = ws.cand_n
    cand = ws.cand
    scal = ws.scal
    node[0, N_START] = 0
    node[0, N_MELDED] = 0
    node[0, N_REMAINING] = scal[S_TOTAL]
    node[0, N_LEFT] = limit
    node[0, N_CHOICE] = -2
    depth = 0
    while depth >= 0:
        choice = node[depth, N_CHOICE]
        melded = node[depth, N_MELDED]
        if choice == -2:
            if scal[S_DONE] == 1 or melded + node[depth, N_REMAINING] <= scal[S_BEST_VALUE]:
                depth -= 1
                continue
            c = node[depth, N_START]
            while c < N_NATURAL and cnt[c] == 0:
                c += 1
            if depth >= MAX_DEPTH - 1:
                scal[S_OVERFLOW] += 1
            if c == N_NATURAL or node[depth, N_LEFT] == 0 or depth >= MAX_DEPTH - 1:
                _record(ws, melded)
                depth -= 1
                continue
            node[depth, N_CARD] = c
            node[depth, N_PAGE] = 0
            melds_with(ws, params, depth, c, 0)
            node[depth, N_MORE] = scal[S_MORE]
            choice = -1
        else:
            c = node[depth, N_CARD]
            if choice < cand_n[depth]:
                for j in range(cand[depth, choice, CC_LEN]):
                    cnt[cand[depth, choice, CC_CARDS + j]] += 1
                scal[S_CUR_N] -= 1
            else:
                cnt[c] += 1
            if scal[S_DONE] == 1:
                depth -= 1
                continue
        choice += 1
        n = cand_n[depth]
        if choice == n and node[depth, N_MORE] == 1:  # this page is done: the next one
            page = node[depth, N_PAGE] + 1
            node[depth, N_PAGE] = page
            n = melds_with(ws, params, depth, c, page)
            node[depth, N_MORE] = scal[S_MORE]
            choice = 0
        node[depth, N_CHOICE] = choice
        child = depth + 1
        if choice < n:
            v = 0
            for j in range(cand[depth, choice, CC_LEN]):
                k = cand[depth, choice, CC_CARDS + j]
                cnt[k] -= 1
                v += values[k]
            m = scal[S_CUR_N]
            ws.cur[m, 0] = depth
            ws.cur[m, 1] = choice
            scal[S_CUR_N] = m + 1
            node[child, N_MELDED] = melded + v
            node[child, N_REMAINING] = node[depth, N_REMAINING] - v
            node[child, N_LEFT] = node[depth, N_LEFT] - 1
        elif choice == n:
            cnt[c] -= 1
            node[child, N_MELDED] = melded
            node[child, N_REMAINING] = node[depth, N_REMAINING] - values[c]
            node[child, N_LEFT] = node[depth, N_LEFT]
        else:
            depth -= 1
            continue
        node[child, N_START] = c
        node[child, N_CHOICE] = -2
        depth = child


@kernel
def could_meld(cnt, params, c):
    """A necessary condition for natural ``c`` to be in some meld of ``cnt``: its rank has
    enough cards (and jokers) for a group, or some 3-position window of runs through it can be
    filled from ``cnt`` (naturals of its suit, or any suit, and jokers). A card failing it is
    deadwood in every arrangement, so it can be set aside before the search."""
    jokers = cnt[JOKER]
    rank = c // N_SUITS
    suit = c % N_SUITS
    same_rank = 0
    for t in range(N_SUITS):
        k = rank * N_SUITS + t
        if params[P_GROUP_DUPLICATES] == 1:
            same_rank += cnt[k]
        elif cnt[k] > 0:
            same_rank += 1
    if params[P_GROUP_DUPLICATES] == 1:
        if same_rank + jokers >= 3:
            return True
    elif same_rank + min(jokers, 4 - same_rank) >= 3:
        return True
    ace_rank = params[P_ACE_RANK]
    any_suit = params[P_RUN_SUIT] == RUN_ANY_SUIT
    for which in range(2):
        pc = first_position(rank, ace_rank) if which == 0 else second_position(rank, ace_rank)
        if pc < 0:
            continue
        for off in range(-2, 1):
            missing = 0
            for i in range(3):
                if off + i == 0:
                    continue
                pos = position_ok(pc + off + i, ace_rank)
                if pos < 0:
                    missing = 99
                    break
                if not _natural_at(cnt, ace_rank, any_suit, suit, pos):
                    missing += 1
            if missing <= jokers:
                return True
    return False


@kernel
def best_arrangement(ws, params, values, hand, max_melds):
    """Find the disjoint melds from ``hand`` (``int64[N_KINDS]`` counts) that leave the
    least value in hand, using at most ``max_melds`` melds (<= 0: unlimited).

    Returns the melded value; the melds are rows ``ws.best[:ws.scal[S_BEST_N]]``.
    Ties keep the first arrangement found (deterministic)."""
    cnt = ws.cnt
    for k in range(N_KINDS):
        cnt[k] = hand[k]
    changed = True
    while changed:  # setting a card aside can leave another without a possible meld
        changed = False
        for k in range(N_NATURAL):
            if cnt[k] > 0 and not could_meld(cnt, params, k):
                cnt[k] = 0
                changed = True
    searched = 0
    for k in range(N_KINDS):
        searched += cnt[k] * values[k]
    ws.scal[S_BEST_VALUE] = -1
    ws.scal[S_BEST_N] = 0
    ws.scal[S_CUR_N] = 0
    ws.scal[S_TOTAL] = searched
    ws.scal[S_DONE] = 0
    limit = max_melds if max_melds > 0 else MAX_ARRANGEMENT
    _search(ws, params, values, limit)
    return ws.scal[S_BEST_VALUE]


@kernel
def hand_value(hand, values):
    """Total value of a hand of counts."""
    v = 0
    for k in range(N_KINDS):
        v += hand[k] * values[k]
    return v


@kernel
def min_deadwood(ws, params, values, hand, max_melds):
    """Least value left in hand over every arrangement (RULES.md §1.13)."""
    return hand_value(hand, values) - best_arrangement(ws, params, values, hand, max_melds)


@kernel
def forms_meld_with(ws, params, hand, kind):
    """True when ``kind`` (already counted in ``hand``) belongs to some meld of ``hand``."""
    for k in range(N_KINDS):
        ws.cnt[k] = hand[k]
    if kind != JOKER:
        return melds_with(ws, params, 0, kind, 0) > 0
    for c in range(N_NATURAL):
        if hand[c] > 0:
            page = 0
            more = 1
            while more == 1:
                n = melds_with(ws, params, 0, c, page)
                more = ws.scal[S_MORE]
                page += 1
                for i in range(n):
                    for j in range(ws.cand[0, i, CC_LEN]):
                        if ws.cand[0, i, CC_CARDS + j] == JOKER:
                            return True
    return False


# ---- legality of a stored meld (audit) ----------------------------------------------


@kernel
def meld_is_legal(params, mtype, start, length, suit, cards):
    """Whether a stored meld obeys the meld contract above."""
    if length < 3 or length > MAX_MELD_CARDS:
        return False
    naturals = 0
    if mtype == MELD_GROUP:
        suits_seen = 0  # bit t set once suit t is in the group
        repeated = False
        for i in range(length):
            k = cards[i]
            if k == JOKER:
                continue
            if k < 0 or k >= N_NATURAL or k // N_SUITS != start:
                return False
            naturals += 1
            bit = 1 << (k % N_SUITS)
            if suits_seen & bit:
                repeated = True
            suits_seen |= bit
        if naturals == 0:
            return False
        if params[P_GROUP_DUPLICATES] == 0 and (length > 4 or repeated):
            return False
        return True
    if mtype != MELD_RUN or length > MAX_RUN:
        return False
    ace_rank = params[P_ACE_RANK]
    any_suit = params[P_RUN_SUIT] == RUN_ANY_SUIT
    if position_ok(start, ace_rank) != start:
        return False
    for i in range(length):
        pos = position_ok(start + i, ace_rank)
        if pos < 0:
            return False
        k = cards[i]
        if k == JOKER:
            continue
        if k < 0 or k >= N_NATURAL or k // N_SUITS != rank_at(pos, ace_rank):
            return False
        if not any_suit and k % N_SUITS != suit:
            return False
        naturals += 1
    return naturals > 0
