"""Bitmask fast path for one pack without jokers and runs of one suit (most variants).

A hand is an ``int64`` bitmask: bit ``k`` is set when the hand holds card kind
``k = rank * 4 + suit`` (kinds 0..51; ``state.py`` keeps one per player in
``pl[p, PL_BITS]``). A rank's four cards are one 4-bit field; the same suit one rank up is
4 bits higher. Masks stay below bit 60, so ``int64`` never goes negative and no ``uint64``
typing is needed.

Run positions (``positions.py``) are handled in *position space*: bit ``pos * 4 + suit``
for run position ``pos``. ``to_positions`` maps a hand there (ace high: the ace moves to
the top; high_or_low: the ace is at both ends; around the corner: shifts rotate within
52 bits), ``from_positions`` folds back.

The exact search ``best_arrangement_bits`` mirrors ``melds.best_arrangement`` step by
step (same cards set aside, same branching card, same candidate order, same pruning), so
it returns the very same arrangement, ties included; only the bookkeeping is bitmasks.

``fast_path(params)`` is a run-time test, except on ``params`` passed through
``fast_params``: that array is typed apart (read-only, unaligned), and for that type
``fast_path`` is the constant True. ``hand.play_hand`` plays the turns of a fast-path hand
with it, so those turn kernels are compiled a second time without their count-array
branches (the general path keeps the run-time test).
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    ACE_LOW,
    JOKER,
    MELD_GROUP,
    MELD_RUN,
    N_NATURAL,
    N_SUITS,
    P_ACE_RANK,
    P_DECKS,
    P_GROUP_DUPLICATES,
    P_JOKERS,
    P_RUN_SUIT,
    RUN_ANY_SUIT,
)
from sim.engine.melds import (
    CC_CARDS,
    CC_LEN,
    CC_START,
    CC_SUIT,
    CC_TYPE,
    MAX_ARRANGEMENT,
    MAX_CAND,
    MAX_DEPTH,
    N_CARD,
    N_CHOICE,
    N_LEFT,
    N_MELDED,
    N_REMAINING,
    N_START,
    S_BEST_N,
    S_BEST_VALUE,
    S_CUR_N,
    S_DONE,
    S_OVERFLOW,
    S_TOTAL,
)
from sim.engine.positions import (
    MAX_RUN,
    first_position,
    n_positions,
    position_ok,
    rank_at,
    second_position,
)

FULL52 = (1 << N_NATURAL) - 1  # every card of one pack
FULL56 = (1 << (N_NATURAL + N_SUITS)) - 1  # position space of high_or_low (14 positions)
BELOW_ACE_HIGH = (1 << (N_NATURAL - N_SUITS)) - 1  # positions 0..11 (2..K) under ace high
RANK_FIELD = (1 << N_SUITS) - 1  # the four cards of one rank
FIELD_LOW = 0x1111111111111  # bit 0 of each of the 13 rank fields
PAIR_LOW = 0x5555555555555  # bit 0 of each 2-bit pair
QUAD_LOW = 0x3333333333333  # bits 0-1 of each 4-bit field

# In bitmask searches a candidate row of SearchWork.cand keeps CC_TYPE..CC_SUIT as usual,
# then the meld's card mask and its value (cards are written out only for the best rows).
CB_MASK = CC_CARDS
CB_VALUE = CC_CARDS + 1
# SearchWork.node: in bitmask searches the N_START column holds the undecided cards' mask.
N_UNDECIDED = N_START


SINGLE_MELD_CARDS = 3  # cards that may meld which can only be one meld (best_arrangement_bits)

# ---- bit counting -------------------------------------------------------------------------


@intrinsic
def _ctpop(typingctx, x):
    """LLVM ``ctpop``: the number of set bits of an integer."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    """LLVM ``ctlz``: the number of leading zero bits (the bit width for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM ``cttz``: the number of trailing zero bits (the bit width for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return x(x), codegen


@intrinsic(prefer_literal=True)
def _stack_int64(typingctx, n):
    """An ``int64[n]`` array on the caller's stack (``n`` a constant): scratch memory for a
    kernel, which may not allocate (``jit.kernel``). Uninitialised; it must not outlive the
    call that made it."""
    if not isinstance(n, types.IntegerLiteral):
        return None
    size = n.literal_value
    array_type = types.Array(types.int64, 1, "C")

    def codegen(context, builder, signature, args):
        # imported here, when a kernel is compiled: a kernel loaded from numba's cache never
        # needs it, and importing it costs ~0.05-0.1 s of every warm start
        from numba.np.arrayobj import make_array, populate_array

        intp = context.get_value_type(types.intp)
        data = cgutils.alloca_once(builder, context.get_value_type(types.int64), size=size)
        array = make_array(array_type)(context, builder)
        item = context.get_abi_sizeof(context.get_value_type(types.int64))
        populate_array(
            array,
            data=data,
            shape=[intp(size)],
            strides=[intp(item)],
            itemsize=intp(item),
            meminfo=None,
        )
        return array._getvalue()

    return array_type(n), codegen


if numba.config.DISABLE_JIT:

    def stack_int64(n):
        """Scratch ``int64[n]`` (a plain array without the JIT)."""
        return np.zeros(n, np.int64)

    def popcount(x):
        """Number of set bits of a non-negative integer."""
        return bin(int(x)).count("1")

    def lowest_bit(x):
        """Index of the lowest set bit of a positive integer."""
        x = int(x)
        return (x & -x).bit_length() - 1

    def highest_bit(x):
        """Index of the highest set bit of a positive integer."""
        return int(x).bit_length() - 1

else:
    stack_int64 = _stack_int64  # scratch int64[n] on the calling kernel's stack

    @kernel
    def popcount(x):
        """Number of set bits of a non-negative integer."""
        return _ctpop(x)

    @kernel
    def lowest_bit(x):
        """Index of the lowest set bit of a positive integer."""
        return _cttz(x)

    @kernel
    def highest_bit(x):
        """Index of the highest set bit of a positive integer (``int64``)."""
        return 63 - _ctlz(x)


# ---- when the fast path applies -------------------------------------------------------------


def fast_path(params):
    """True when hands are sets of cards and runs keep one suit: one pack, no jokers,
    ``run_suit = same_suit``. Then the bitmask kernels here give the same answers as the
    count-array kernels of ``melds.py``/``bots.py``.

    In compiled kernels, ``params`` marked by ``fast_params`` is on the fast path by its
    type: the kernels compiled for it lose every count-array branch (see ``fast_params``)."""
    return params[P_DECKS] == 1 and params[P_JOKERS] == 0 and params[P_RUN_SUIT] != RUN_ANY_SUIT


def fast_params(params):
    """``params`` typed as known to be on the fast path (call it only where ``fast_path``
    holds). Without the JIT it is ``params`` itself."""
    return params


if not numba.config.DISABLE_JIT:

    def _is_fast_params_type(params):
        """The marker type of ``fast_params``: a read-only, unaligned C array (an int64
        ``params`` array from Python is writeable and aligned)."""
        return (
            isinstance(params, types.Array)
            and not params.mutable
            and not params.aligned
            and params.layout == "C"
        )

    @overload(fast_path)
    def _fast_path_typed(params):
        if _is_fast_params_type(params):
            return lambda params: True
        return lambda params: (
            params[P_DECKS] == 1 and params[P_JOKERS] == 0 and params[P_RUN_SUIT] != RUN_ANY_SUIT
        )

    @intrinsic
    def _fast_params(typingctx, params):
        """The same array (same data model, nothing copied), typed with the marker of
        ``fast_path``: every kernel it reaches is compiled again with the fast path fixed,
        so the per-turn code carries no count-array branches (see docs/engine.md, Speed)."""
        if not isinstance(params, types.Array) or params.ndim != 1 or params.layout != "C":
            return None
        marked = types.Array(params.dtype, 1, "C", readonly=True, aligned=False)

        def codegen(context, builder, signature, args):
            return args[0]

        return marked(params), codegen

    fast_params = _fast_params  # noqa: F811 (the compiled marker cast)


@kernel
def nth_lowest_bit(mask, n):
    """The index of the ``n``-th (from 0) lowest set bit of ``mask`` (which has more than
    ``n``)."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_bit(mask)


@inline_kernel
def bit(kind):
    """The mask of one card kind."""
    return 1 << kind


@inline_kernel
def mask_value(mask, values):
    """Total of ``values`` (``int64[N_KINDS]``, value per kind) over the cards of ``mask``."""
    v = 0
    m = mask
    while m != 0:
        v += values[lowest_bit(m)]
        m &= m - 1
    return v


# ---- ranks and run positions ------------------------------------------------------------------


@kernel
def rank_counts(mask):
    """Each 4-bit rank field replaced by how many cards of that rank ``mask`` holds (0..4)."""
    a = (mask & PAIR_LOW) + ((mask >> 1) & PAIR_LOW)
    return (a & QUAD_LOW) + ((a >> 2) & QUAD_LOW)


@kernel
def rank_fields(mask):
    """The whole 4-bit rank fields in which ``mask`` holds at least one card."""
    low = (mask | (mask >> 1) | (mask >> 2) | (mask >> 3)) & FIELD_LOW
    return low * RANK_FIELD


@kernel
def ranks_holding(mask, at_least):
    """The whole rank fields in which ``mask`` holds at least ``at_least`` (2 or 3) cards."""
    b = rank_counts(mask)
    if at_least >= 3:
        low = ((b >> 2) | (b & (b >> 1))) & FIELD_LOW
    else:
        low = ((b >> 1) | (b >> 2)) & FIELD_LOW
    return low * RANK_FIELD


@kernel
def to_positions(mask, ace_rank):
    """``mask`` in position space (bit ``pos * 4 + suit``) under ``ace_rank``."""
    if ace_rank == ACE_HIGH:
        return (mask >> N_SUITS) | ((mask & RANK_FIELD) << (N_NATURAL - N_SUITS))
    if ace_rank == ACE_HIGH_OR_LOW:
        return mask | ((mask & RANK_FIELD) << N_NATURAL)
    return mask


@kernel
def from_positions(pmask, ace_rank):
    """A position-space mask back to card kinds (both aces of high_or_low fold onto one)."""
    if ace_rank == ACE_HIGH:
        return ((pmask & BELOW_ACE_HIGH) << N_SUITS) | (
            (pmask >> (N_NATURAL - N_SUITS)) & RANK_FIELD
        )
    if ace_rank == ACE_HIGH_OR_LOW:
        return (pmask | (pmask >> N_NATURAL)) & FULL52
    return pmask & FULL52


@kernel
def positions_up(pmask, steps, ace_rank):
    """Every card moved ``steps`` positions up (toward the king); cards leaving the last
    position drop out, or wrap to the first around the corner."""
    s = steps * N_SUITS
    if ace_rank == ACE_AROUND_CORNER:
        return ((pmask << s) & FULL52) | (pmask >> (N_NATURAL - s))
    full = FULL56 if ace_rank == ACE_HIGH_OR_LOW else FULL52
    return (pmask & (full >> s)) << s


@kernel
def positions_down(pmask, steps, ace_rank):
    """Every card moved ``steps`` positions down; around the corner the lowest wrap to the
    top."""
    s = steps * N_SUITS
    if ace_rank == ACE_AROUND_CORNER:
        return (pmask >> s) | ((pmask & ((1 << s) - 1)) << (N_NATURAL - s))
    return pmask >> s


@inline_kernel
def in_run_windows(mask, ace_rank):
    """Cards of ``mask`` on some three consecutive run positions of one suit, all held."""
    e = to_positions(mask, ace_rank)
    starts = e & positions_down(e, 1, ace_rank) & positions_down(e, 2, ace_rank)
    covered = starts | positions_up(starts, 1, ace_rank) | positions_up(starts, 2, ace_rank)
    return from_positions(covered, ace_rank) & mask


@inline_kernel
def meldable(mask, ace_rank):
    """Cards of ``mask`` that are in some meld of ``mask``: three or more of their rank, or
    a three-card run through them (``melds.could_meld`` without jokers or duplicates)."""
    return mask & (ranks_holding(mask, 3) | in_run_windows(mask, ace_rank))


@inline_kernel
def may_meld(mask, ace_rank):
    """What is left after setting aside, again and again, cards in no meld of what is left
    (the greatest subset in which every card can meld, as in ``melds.best_arrangement``)."""
    u = mask
    while True:
        kept = meldable(u, ace_rank)
        if kept == u or kept == 0:
            return kept
        u = kept


@inline_kernel
def run_neighbours(mask, reach, ace_rank):
    """The cards of the same suit 1 to ``reach`` run positions (either way) from a card of
    ``mask``: ``positions.distance`` at most ``reach`` between their ranks."""
    e = to_positions(mask, ace_rank)
    near = 0
    for steps in range(1, reach + 1):
        near |= positions_up(e, steps, ace_rank) | positions_down(e, steps, ace_rank)
    return from_positions(near, ace_rank)


@inline_kernel
def completers(mask, ace_rank):
    """The cards outside ``mask`` that would be in a meld of ``mask`` plus that card: a third
    (or fourth) card of a rank ``mask`` holds twice, or a card on a run position next to two
    held cards of its suit (both above, both below, or one each side). ``melds.could_meld``
    of the hand plus the card, without jokers."""
    held = to_positions(mask, ace_rank)
    above1 = positions_down(held, 1, ace_rank)  # bit q: position q + 1 is held
    above2 = positions_down(held, 2, ace_rank)
    below1 = positions_up(held, 1, ace_rank)  # bit q: position q - 1 is held
    below2 = positions_up(held, 2, ace_rank)
    runs = from_positions((above1 & above2) | (below1 & above1) | (below2 & below1), ace_rank)
    return (ranks_holding(mask, 2) | runs) & ~mask & FULL52


@inline_kernel
def partial_melds(mask, ace_rank):
    """Cards of ``mask`` in a partial meld (docs/bots.md): another card of their rank, or a
    card of their suit at most two run positions away (``bots.in_partial_meld``)."""
    return mask & (ranks_holding(mask, 2) | run_neighbours(mask, 2, ace_rank))


@inline_kernel
def greedy_discard_mask(values, hand, allowed, values_rise, ace_rank):
    """Greedy's discard among ``allowed`` (docs/bots.md): the highest-value card outside
    every partial meld of ``hand``, else the highest-value card, ties to the higher kind;
    JOKER when nothing is allowed. Cards are visited from the lowest kind and ``>=`` keeps
    the last of equal values. When values never fall as the kind rises (``values_rise``)
    that card is simply the highest kind. Shared by ``bots.py`` and ``mask_hand.py``."""
    partial = partial_melds(hand, ace_rank)
    if values_rise == 1:
        loose = allowed & ~partial
        if loose != 0:
            return highest_bit(loose)
        if allowed != 0:
            return highest_bit(allowed)
        return JOKER
    loose = -1
    loose_v = -1
    any_k = -1
    any_v = -1
    rest = allowed
    while rest != 0:
        k = lowest_bit(rest)
        rest &= rest - 1
        v = values[k]
        if v >= any_v:
            any_v = v
            any_k = k
        if v >= loose_v and ((partial >> k) & 1) == 0:
            loose_v = v
            loose = k
    if loose >= 0:
        return loose
    if any_k >= 0:
        return any_k
    return JOKER


# ---- the exact search ----------------------------------------------------------------------


@inline_kernel
def _emit_bits(ws, depth, mtype, start, length, suit, mask, value):
    """Append a candidate (``CC_TYPE..CC_SUIT``, ``CB_MASK``, ``CB_VALUE``) at ``depth``."""
    n = ws.cand_n[depth]
    if n >= MAX_CAND:
        ws.scal[S_OVERFLOW] += 1
        return
    row = ws.cand[depth, n]
    row[CC_TYPE] = mtype
    row[CC_START] = start
    row[CC_LEN] = length
    row[CC_SUIT] = suit
    row[CB_MASK] = mask
    row[CB_VALUE] = value
    ws.cand_n[depth] = n + 1


@kernel
def _group_order(i, dup):
    """The suit subset tried ``i``-th: ``melds._groups_with`` counts suits up from spades
    (bit 0) when duplicates are forbidden, and nests spades outermost when they are allowed."""
    if dup:
        return ((i & 1) << 3) | ((i & 2) << 1) | ((i & 4) >> 1) | ((i & 8) >> 3)
    return i


@inline_kernel
def _groups_bits(ws, params, values, depth, u, c):
    """Candidate groups through card ``c`` from the undecided cards ``u``, in the order of
    ``melds._groups_with``."""
    rank = c // N_SUITS
    suit = c % N_SUITS
    base = rank * N_SUITS
    field = (u >> base) & RANK_FIELD
    if popcount(field) < 3:
        return  # no subset of the rank's cards is a group
    dup = params[P_GROUP_DUPLICATES] == 1
    for i in range(RANK_FIELD + 1):
        m = _group_order(i, dup)
        if ((m >> suit) & 1) == 0 or (m & field) != m:
            continue
        size = popcount(m)
        if size >= 3:
            mask = m << base
            _emit_bits(ws, depth, MELD_GROUP, rank, size, -1, mask, mask_value(mask, values))


@inline_kernel
def _runs_bits(ws, params, values, depth, u, c):
    """Candidate runs through card ``c`` from ``u``, in the order of ``melds._runs_with``:
    for each position of ``c``, first positions from ``c`` down while held, and from each,
    lengths up while held."""
    ace_rank = params[P_ACE_RANK]
    rank = c // N_SUITS
    suit = c % N_SUITS
    npos = n_positions(ace_rank)
    wrap = ace_rank == ACE_AROUND_CORNER
    for which in range(2):
        pc = first_position(rank, ace_rank) if which == 0 else second_position(rank, ace_rank)
        if pc < 0:
            continue
        for back in range(MAX_RUN):
            lo = pc - back
            if wrap:
                lo = (lo + npos) % npos
            elif lo < 0:
                break
            if back > 0 and ((u >> (rank_at(lo, ace_rank) * N_SUITS + suit)) & 1) == 0:
                break
            mask = 0
            value = 0
            for level in range(MAX_RUN):
                pos = position_ok(lo + level, ace_rank)
                if pos < 0:
                    break
                k = rank_at(pos, ace_rank) * N_SUITS + suit
                if ((u >> k) & 1) == 0:
                    break
                mask |= 1 << k
                value += values[k]
                if level >= back and level >= 2:
                    _emit_bits(ws, depth, MELD_RUN, lo, level + 1, suit, mask, value)


@inline_kernel
def _write_best_row(dst, mtype, start, length, suit, mask, ace_rank):
    """Write one row of the best arrangement as ``melds._record`` would: the meld's columns,
    then its cards, a group's by kind (from ``mask``), a run's in position order from
    ``start``."""
    dst[CC_TYPE] = mtype
    dst[CC_START] = start
    dst[CC_LEN] = length
    dst[CC_SUIT] = suit
    if mtype == MELD_GROUP:
        j = 0
        rest = mask
        while rest != 0:
            dst[CC_CARDS + j] = lowest_bit(rest)
            rest &= rest - 1
            j += 1
    else:
        for j in range(length):
            pos = position_ok(start + j, ace_rank)
            dst[CC_CARDS + j] = rank_at(pos, ace_rank) * N_SUITS + suit


@inline_kernel
def _record_bits(ws, params, melded):
    """Keep the current path as the best arrangement when it melds strictly more (cards
    written as ``melds._record`` would: groups by suit, runs in position order)."""
    if melded <= ws.scal[S_BEST_VALUE]:
        return
    ace_rank = params[P_ACE_RANK]
    ws.scal[S_BEST_VALUE] = melded
    n = ws.scal[S_CUR_N]
    ws.scal[S_BEST_N] = n
    for m in range(n):
        src = ws.cand[ws.cur[m, 0], ws.cur[m, 1]]
        _write_best_row(
            ws.best[m],
            src[CC_TYPE],
            src[CC_START],
            src[CC_LEN],
            src[CC_SUIT],
            src[CB_MASK],
            ace_rank,
        )
    if melded == ws.scal[S_TOTAL]:
        ws.scal[S_DONE] = 1


@kernel
def search_tree_bits(ws, params, values, limit):
    """``melds._search`` on masks: ``ws.node[depth]`` holds (undecided mask, branching card,
    choice, melded value, undecided value, melds left); children are the candidate melds
    through the lowest undecided card, then that card as deadwood."""
    node = ws.node
    cand_n = ws.cand_n
    cand = ws.cand
    scal = ws.scal
    node[0, N_MELDED] = 0
    node[0, N_REMAINING] = scal[S_TOTAL]
    node[0, N_LEFT] = limit
    node[0, N_CHOICE] = -2
    depth = 0
    while depth >= 0:
        choice = node[depth, N_CHOICE]
        melded = node[depth, N_MELDED]
        u = node[depth, N_UNDECIDED]
        if choice == -2:
            if scal[S_DONE] == 1 or melded + node[depth, N_REMAINING] <= scal[S_BEST_VALUE]:
                depth -= 1
                continue
            if depth >= MAX_DEPTH - 1:
                scal[S_OVERFLOW] += 1
            if u == 0 or node[depth, N_LEFT] == 0 or depth >= MAX_DEPTH - 1:
                _record_bits(ws, params, melded)
                depth -= 1
                continue
            c = lowest_bit(u)
            node[depth, N_CARD] = c
            cand_n[depth] = 0
            _groups_bits(ws, params, values, depth, u, c)
            _runs_bits(ws, params, values, depth, u, c)
            choice = -1
        else:
            if choice < cand_n[depth]:
                scal[S_CUR_N] -= 1
            if scal[S_DONE] == 1:
                depth -= 1
                continue
        choice += 1
        node[depth, N_CHOICE] = choice
        n = cand_n[depth]
        child = depth + 1
        if choice < n:
            v = cand[depth, choice, CB_VALUE]
            m = scal[S_CUR_N]
            ws.cur[m, 0] = depth
            ws.cur[m, 1] = choice
            scal[S_CUR_N] = m + 1
            node[child, N_UNDECIDED] = u & ~cand[depth, choice, CB_MASK]
            node[child, N_MELDED] = melded + v
            node[child, N_REMAINING] = node[depth, N_REMAINING] - v
            node[child, N_LEFT] = node[depth, N_LEFT] - 1
        elif choice == n:
            c = node[depth, N_CARD]
            node[child, N_UNDECIDED] = u & ~(1 << c)
            node[child, N_MELDED] = melded
            node[child, N_REMAINING] = node[depth, N_REMAINING] - values[c]
            node[child, N_LEFT] = node[depth, N_LEFT]
        else:
            depth -= 1
            continue
        node[child, N_CHOICE] = -2
        depth = child


@inline_kernel
def _record_single_meld(ws, params, u):
    """The search's answer when the cards that may meld, ``u``, are three: each of them
    melds within ``u``, so ``u`` is one group or one run, the only candidate through its
    lowest card; the search would take it, meld everything and stop. Records it as the
    search does, without listing candidates: the candidate row ``ws.cand[0, 0]`` that
    ``_groups_bits`` or ``_runs_bits`` would write, the best row as ``_record_bits`` writes
    it (a group's cards by kind, a run's in position order from its lowest position), and
    ``ws.scal`` as the search leaves it (value ``S_TOTAL``, done). Most arrangements of a
    greedy game are this case (the dealt hand's one meld, a drawn card's meld)."""
    ace_rank = params[P_ACE_RANK]
    total = ws.scal[S_TOTAL]
    c = lowest_bit(u)
    if (u & ~(RANK_FIELD << ((c // N_SUITS) * N_SUITS))) == 0:  # three cards of one rank
        mtype = MELD_GROUP
        start = c // N_SUITS
        suit = -1
    else:  # three consecutive run positions of one suit: the only one whose two above are held
        e = to_positions(u, ace_rank)
        starts = e & positions_down(e, 1, ace_rank) & positions_down(e, 2, ace_rank)
        mtype = MELD_RUN
        start = lowest_bit(starts) // N_SUITS
        suit = c % N_SUITS
    ws.cand_n[0] = 0
    _emit_bits(ws, 0, mtype, start, SINGLE_MELD_CARDS, suit, u, total)
    _write_best_row(ws.best[0], mtype, start, SINGLE_MELD_CARDS, suit, u, ace_rank)
    ws.cur[0, 0] = 0
    ws.cur[0, 1] = 0
    ws.scal[S_CUR_N] = 0
    ws.scal[S_BEST_VALUE] = total
    ws.scal[S_BEST_N] = 1
    ws.scal[S_DONE] = 1


@inline_kernel
def _begin_search_bits(ws, values, u):
    """``ws.scal`` as the search of the cards ``u`` that may meld starts: no best yet, no
    current melds, ``S_TOTAL`` their value (returned); with nothing to meld (``u`` = 0) the
    answer is already there (best value 0, done)."""
    scal = ws.scal
    total = mask_value(u, values)
    scal[S_BEST_VALUE] = -1
    scal[S_BEST_N] = 0
    scal[S_CUR_N] = 0
    scal[S_DONE] = 0
    scal[S_TOTAL] = total
    if u == 0:
        scal[S_BEST_VALUE] = 0
        scal[S_DONE] = 1
    return total


@inline_kernel
def _run_part(length):
    """How many cards of a run of ``length`` (>= 3) held positions, none of them in a group,
    the search's first complete arrangement puts in the run through the lowest card: it
    tries 3, 4, ... cards and keeps the first whose rest can still all meld (nothing left,
    or three or more): 3 when ``length`` is 3 or at least 6, else all of them."""
    if length == SINGLE_MELD_CARDS or length - SINGLE_MELD_CARDS >= SINGLE_MELD_CARDS:
        return SINGLE_MELD_CARDS
    return length


@inline_kernel
def _record_separate_melds(ws, params, values, u, limit):
    """The search's answer, without the search tree, when under ace low no card of ``u``
    (every card of which melds within ``u``) can be both in a group and in a run: then
    ``u`` is whole groups (three or four cards of a rank) and whole runs apart from each
    other, and everything melds. The search branches on the lowest undecided card and stops
    at its first arrangement that melds everything, so its rows are, from the lowest card
    up: a group's whole rank (a group of three of four would leave a card that cannot
    meld), and a run's first ``_run_part`` cards. Writes the rows as ``_record_bits`` does
    and ``ws.scal`` as the search leaves it; returns False (``ws`` untouched but for unused
    rows) when the case does not apply: another ace rule, a card in both, a card worth 0
    (the search could stop with it unmelded), or more melds than ``limit``."""
    if params[P_ACE_RANK] != ACE_LOW:
        return False
    grouped = ranks_holding(u, SINGLE_MELD_CARDS) & u
    if (grouped & in_run_windows(u, ACE_LOW)) != 0:
        return False
    rest = u
    while rest != 0:
        if values[lowest_bit(rest)] <= 0:
            return False
        rest &= rest - 1
    n = 0
    rest = u
    while rest != 0:
        if n >= limit:
            return False
        c = lowest_bit(rest)
        if (grouped >> c) & 1 == 1:
            meld = u & (RANK_FIELD << ((c // N_SUITS) * N_SUITS))
            _write_best_row(ws.best[n], MELD_GROUP, c // N_SUITS, popcount(meld), -1, meld, ACE_LOW)
        else:
            length = 1
            while (rest >> (c + length * N_SUITS)) & 1 == 1:
                length += 1  # held positions up from c, all in this run (c + 4k < 52)
            length = _run_part(length)
            meld = 0
            for j in range(length):
                meld |= bit(c + j * N_SUITS)
            _write_best_row(ws.best[n], MELD_RUN, c // N_SUITS, length, c % N_SUITS, meld, ACE_LOW)
        rest &= ~meld
        n += 1
    total = ws.scal[S_TOTAL]
    ws.scal[S_BEST_VALUE] = total
    ws.scal[S_BEST_N] = n
    ws.scal[S_CUR_N] = 0
    ws.scal[S_DONE] = 1
    return True


@inline_kernel
def arranged_without_search_bits(ws, params, values, hand_mask, limit):
    """The first step of ``best_arrangement_bits``: set up ``ws`` for the search of
    ``hand_mask`` within ``limit`` melds (``search_limit``) and answer at once when no
    search tree is needed: nothing melds, the cards that may meld are three, one meld
    (``_record_single_meld``), or they are whole groups and runs apart from each other
    (``_record_separate_melds``). Returns True when ``ws`` holds the answer; otherwise
    ``search_tree_bits`` must run from node 0."""
    u = may_meld(hand_mask, params[P_ACE_RANK])
    if _begin_search_bits(ws, values, u) == 0:  # what the search finds at once: nothing melds
        return True
    if popcount(u) == SINGLE_MELD_CARDS:
        _record_single_meld(ws, params, u)
        return True
    if _record_separate_melds(ws, params, values, u, limit):
        return True
    ws.node[0, N_UNDECIDED] = u
    return False


@inline_kernel
def search_limit(max_melds):
    """The search's meld budget for ``max_melds`` (0 = any number)."""
    return max_melds if max_melds > 0 else MAX_ARRANGEMENT


@inline_kernel
def best_arrangement_bits(ws, params, values, hand_mask, max_melds):
    """``melds.best_arrangement`` for a hand given as a mask (only when ``fast_path``):
    the same melded value and the same rows ``ws.best[:ws.scal[S_BEST_N]]``."""
    limit = search_limit(max_melds)
    if not arranged_without_search_bits(ws, params, values, hand_mask, limit):
        search_tree_bits(ws, params, values, limit)
    return ws.scal[S_BEST_VALUE]


@inline_kernel
def best_meld_through_bits(ws, params, values, hand_mask):
    """``best_arrangement_bits`` for a hand whose every meld shares one card (the hand but
    that card holds no meld): an arrangement is then one meld, so the search's answer is the
    first most valuable meld in its order, which this finds without the search tree. The
    search branches on the lowest undecided card: the melds through it, in the order of
    ``_groups_bits`` and ``_runs_bits``, then that card as deadwood, which leaves only the
    melds through the next card, and so on, until what is undecided can no longer beat the
    best (its pruning). Same rows, same value, same ``ws.scal``; returns the value.
    Mostly the cards that may meld are one meld of three (``_record_single_meld``) or, under
    ace low, one whole group or run (``_record_separate_melds``): those are written at once."""
    u = may_meld(hand_mask, params[P_ACE_RANK])
    scal = ws.scal
    total = _begin_search_bits(ws, values, u)
    if u == 0:
        return 0
    if popcount(u) == SINGLE_MELD_CARDS:  # one meld: the loop below would find just it
        _record_single_meld(ws, params, u)
        return total
    if _record_separate_melds(ws, params, values, u, 1):  # one whole group or run (ace low)
        return total
    undecided = u
    remaining = total
    while undecided != 0 and remaining > scal[S_BEST_VALUE] and scal[S_DONE] == 0:
        c = lowest_bit(undecided)
        ws.cand_n[0] = 0
        _groups_bits(ws, params, values, 0, undecided, c)
        _runs_bits(ws, params, values, 0, undecided, c)
        for i in range(ws.cand_n[0]):
            v = ws.cand[0, i, CB_VALUE]
            if v > scal[S_BEST_VALUE]:
                ws.cur[0, 0] = 0
                ws.cur[0, 1] = i
                scal[S_CUR_N] = 1
                _record_bits(ws, params, v)
                scal[S_CUR_N] = 0
                if scal[S_DONE] == 1:
                    break
        undecided &= ~(1 << c)
        remaining -= values[c]
    return scal[S_BEST_VALUE]


@inline_kernel
def forms_meld_bits(params, hand_mask, kind):
    """``melds.forms_meld_with`` on a mask: is natural ``kind`` (held) in some meld?"""
    if kind == JOKER:
        return False
    return ((meldable(hand_mask, params[P_ACE_RANK]) >> kind) & 1) == 1
