"""Fixed go-out patterns (mechanic PT of RULES.md §4C): the meld library's test "is this
hand exactly these same-suit runs?" (Nowrang §3.15: one run of 4 and two of 3, groups not
counting; Continental §3.11: 15 cards as runs of 5+4+3+3, 4+4+4+3 or 3+3+3+3+3, with
jokers wild and several packs).

Rule slots read here: ``go_out_pattern`` (and ``ace_rank`` through ``melds.run_layout``).

A *pattern* is a list of run lengths, packed 4 bits a length into one int64, the first
length in the lowest nibble (``pattern_lengths``; Nowrang's 4 + 3 + 3 is ``0x334``), so
that the kernels take it as data and a new pattern is one more code, not a new function.

**The test** (``fit_pattern``). A hand fits a pattern when its cards can be split into
runs of one suit each whose lengths are exactly the pattern's (a multiset; two runs may
share a suit, so a run of 7 is a 4 and a 3). Each card has one run position
(``melds._to_positions``: ace low, ace high, or the 40-card pack; the rules model refuses
a pattern with ``high_or_low`` or ``around_corner``, where an ace has two places), so the
cards of a suit fall into *segments*, maximal stretches of consecutive positions, and a
split into runs is a split of every segment into consecutive pieces. The test lists the
segments (each must hold 3 cards or more, and there can be no more segments than runs),
then tries every assignment of the pattern's runs to segments (at most ``segments ** runs``,
27 for Nowrang) for one where each segment's length is the sum of the runs given to it.
With ``write`` it lays that split out in the workspace as the best arrangement
(``W_BEST`` rows, ``S_BEST_N``), lowest position first within each segment, in the
pattern's order, for ``go_out.lay_arrangement``. ``tests/oracles/patterns.py`` checks it
against a brute force over every set of runs.

**The cover** (``cover``): the most cards of a hand that the pattern's runs, placed on run
windows (each of one suit, not overlapping within a suit, anywhere in the pack), can hold,
and the cards of the first such placement found. A hand less one card fits only if the
hand's cover is the pattern's card count, so ``go_out.pattern_out`` tries the discards
only then; the bots keep the cover's cards (``pattern_policy.py``). The search is a
dynamic programme per suit over the run positions and the runs placed so far (a *state*:
the runs counted per length), then a merge of the suits. A suit's result depends only on
its column (the positions it holds) and the pattern, not on the suit or the player, so the
workspace keeps a table per pattern (three: Continental's alternatives) with a row for
every column of 14 positions, searched the first time it is asked about and read from then
on: with four players or more, covers kept per suit were pushed out before the same player
asked again, and the search ran on most calls (~40% of a 4-player Continental turn). The
merge of two suits depends only on their columns' *shapes* (the cover's size per state:
Nowrang's 4 + 3 + 3 has 56 shapes of a column), so the merged pairs of suits 0 and 1 and
of suits 2 and 3 are kept by shape too (``_pair``) and a call merges the two pairs (6
steps for Nowrang, not 42). The cards kept are those of the first best placement of a
suit-by-suit merge (suit 0 first, a later split replacing the kept one only when strictly
better): of the best placements, the one with the fewest runs (the lowest state) in suit
3, then in suit 2, then in suit 1; *ranked* covers (``_ranked``) make that one maximum
whatever the order of the merge. The last six whole hands' answers are kept too (the take
asks about the hand with the card, the go-out test and the discard about the same hand
after it).

**Wild cards** (``wild_fit``; Continental §3.11, §2B.14). A *pattern set* holds up to three
alternatives of packed lengths, 20 bits each (``alternative``; Continental's
``CONTINENTAL``; Nowrang's set is its one pattern). The hand is layers (several packs) and
jokers; under ``high_or_low`` an ace stands on either end. The test counts, per suit and
rank, the natural cards and the runs placed over that rank: a natural card no run covers
yet is *uncovered*, a run place with no natural card left for it needs a wild card. When
the hand holds one card more than the pattern, each natural card of ``spare_ok`` is set
aside as the discard in turn (lowest kind first) and the rest searched. A depth-first
search places the runs: each step takes the lowest uncovered (suit, rank) and tries every
run of a remaining length through it (an ace at either end). Once nothing is uncovered the
remaining runs go on windows holding some natural card, in a fixed order (no run set is
tried twice). The counts the search tests at every step (natural cards uncovered, wild
places needed, free deuces, the lowest uncovered (suit, rank)) are kept up to date as runs
are placed and taken back (``W_TALLY``, ``_recount``), not counted afresh over every (suit,
rank). A path is cut when the wild places needed exceed the wild cards (jokers, and with
``deuces`` the 2s whose own place no run covers), or when the runs left cannot cover what
is uncovered: too few cards, or too few runs (``_runs_needed``: windows of the longest
length left, laid from the lowest uncovered rank of each suit, aces apart; it cut a
4-player Continental turn's search ~3x, and ~30x with deuces wild). A run that would need
more wild cards than are left is passed over without being placed (``_wild_places``
counts them as the tally would: 71% of the runs a 4-player turn placed were cut so), and a
frame is not checked again when the run above it is taken back (its state passed the cuts
before). A complete placement
fits when every natural card is covered, the wild places are exactly the wild cards left (a
2 on its own place is natural, never wild) and every run holds a natural card (Hall's
condition over every set of runs, at most 32). With ``write`` the runs are laid out as the
best arrangement: each run gets the first natural card the shares allow, then natural cards
on its places while they last, wild cards on the rest: with ``deuces`` first the 2s left
over (``_place_wild_deuces``, a run's ``CA_DEUCES``, which the go-out records as the table
meld's ``M_WILD``), then jokers. ``tests/oracles/patterns.py`` checks it against a brute
force that fills every place of every run with a natural or a wild card. The bots'
``wild_cover`` is the best ``cover`` of the hand's kinds over the alternatives plus its
wild cards (with ``deuces_wild`` its 2s among them, ``pattern_policy._cover_cards``).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_RANKS, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import (
    P_DEUCES_WILD,
    P_GO_OUT_PATTERN,
    PATTERN_CONTINENTAL,
    PATTERN_NONE,
    PATTERN_RUNS_4_3_3,
)
from sim.engine.melds import (
    CA_JOKERS,
    CA_LEN,
    CA_OPEN,
    CA_SHAPE,
    CA_TAKE,
    CA_VALUE,
    JOKER_DIGIT,
    MAX_CAND,
    MAX_DEPTH,
    MAX_LAYERS,
    MELD_RUN,
    N_CA,
    PATTERN_PAIRS,
    PATTERN_ROWS,
    S_BEST_N,
    S_NODES,
    W_BEST,
    W_CAND,
    W_COLS,
    W_PATTERN,
    W_SCAL,
    _compress_nibbles,
    _emit,
    _expand_nibbles,
    _from_positions,
    _to_positions,
    mask_value,
    n_positions,
    position_of,
    rank_at,
)
from sim.engine.specs import rule
from sim.engine.state import C_N_MELDS, M_JOKERS, M_LEN, M_SUIT, M_TYPE, MAX_SEATS, R_MELD, R_SC

NIBBLE = 4
ALT_BITS = 20  # a pattern set: alternatives of packed lengths, 20 bits each, first lowest
ALT_MASK = (1 << ALT_BITS) - 1
MAX_ALTS = 3
CONTINENTAL = 0x3345 | (0x3444 << ALT_BITS) | (0x33333 << (2 * ALT_BITS))  # §3.11
RUNS_4_3_3 = 0x334  # Nowrang (§3.15): a run of 4 (the garwanj) and two of 3
N_RANKS_PATTERN = N_RANKS  # the wild test counts cards per (suit, rank)
S_WILD_DEPTH = S_NODES + 1  # W_SCAL: frames of the wild test's last fit
SEG_BITS = 10  # a segment packed: its first position (4 bits), length (4 bits), suit (2)
MAX_PIECES = 6  # runs in a pattern (the assignment's digits are packed 4 bits each)


@kernel
def pattern_lengths(fx, params):
    """The pattern set of ``go_out_pattern`` (0: none; module docstring): Nowrang's one
    alternative is its packed run lengths; Continental's three are ``alternative``'s."""
    code = rule(fx, params, P_GO_OUT_PATTERN)
    if code == PATTERN_RUNS_4_3_3:
        return np.int64(RUNS_4_3_3)
    if code == PATTERN_CONTINENTAL:
        return np.int64(CONTINENTAL)
    return np.int64(0)


def fixed_pattern(code: int) -> bool:
    """Is the ``go_out_pattern`` code a fixed pattern (not ``none``)? For ``specs.gated``."""
    return code != PATTERN_NONE


def continental_pattern(code: int) -> bool:
    """Is the ``go_out_pattern`` code Continental's pattern set? For ``specs.gated``."""
    return code == PATTERN_CONTINENTAL


@kernel
def patterned(fx, params):
    """Does going out need a fixed pattern (``go_out_pattern`` other than ``none``)?"""
    return rule(fx, params, P_GO_OUT_PATTERN) != PATTERN_NONE


@kernel
def pattern_size(lengths):
    """``(runs, cards)`` of a packed pattern."""
    n = 0
    total = 0
    x = lengths
    while x != 0:
        n += 1
        total += x & 0xF
        x >>= NIBBLE
    return n, total


@kernel
def suit_column(e, suit, n_pos):
    """Bit ``p`` set when the position mask ``e`` holds a card of ``suit`` on position ``p``."""
    return _compress_nibbles(e >> suit) & ((np.int64(1) << n_pos) - 1)


@kernel
def fit_pattern(values, work, hand, ace_rank, lengths, write):
    """Does ``hand`` (one pack: a kind mask) split into same-suit runs of exactly the
    packed ``lengths`` under the run layout ``ace_rank`` (``melds.run_layout``)? Returns
    the number of runs (0: it does not fit); with ``write`` the split is written to
    ``work`` as the best arrangement (module docstring)."""
    n, total = pattern_size(lengths)
    if n == 0 or n > MAX_PIECES or popcount(hand) != total:
        return 0
    e = _to_positions(hand, ace_rank)
    n_pos = n_positions(ace_rank)
    segs = np.int64(0)
    k = np.int64(0)
    for s in range(N_SUITS):
        col = suit_column(e, s, n_pos)
        while col != 0:
            lo = lowest_bit(col)
            length = lowest_bit(~(col >> lo))  # the ones from ``lo`` up
            if length < 3 or k == n:
                return 0
            segs |= (lo | (length << 4) | (s << 8)) << (SEG_BITS * k)
            k += 1
            col &= ~(((np.int64(1) << length) - 1) << lo)
    # every assignment of the n runs to the k segments (digits base k, 4 bits each)
    digits = np.int64(0)
    while True:
        ok = True
        for j in range(k):
            want = (segs >> (SEG_BITS * j + 4)) & 0xF
            got = 0
            for i in range(n):
                if (digits >> (NIBBLE * i)) & 0xF == j:
                    got += (lengths >> (NIBBLE * i)) & 0xF
            if got != want:
                ok = False
                break
        if ok:
            if write:
                _write_split(values, work, lengths, n, segs, k, digits, ace_rank)
            return n
        i = 0  # the next assignment
        while i < n:
            d = (digits >> (NIBBLE * i)) & 0xF
            digits &= ~(np.int64(0xF) << (NIBBLE * i))
            if d + 1 < k:
                digits |= (d + 1) << (NIBBLE * i)
                break
            i += 1
        if i == n:
            return 0


@kernel
def _write_split(values, work, lengths, n, segs, k, digits, ace_rank):
    """Write the runs of an assignment as the best arrangement (``fit_pattern``)."""
    m = 0
    for j in range(k):
        seg = (segs >> (SEG_BITS * j)) & ((np.int64(1) << SEG_BITS) - 1)
        pos = seg & 0xF
        suit = (seg >> 8) & 0x3
        for i in range(n):
            if (digits >> (NIBBLE * i)) & 0xF != j:
                continue
            length = (lengths >> (NIBBLE * i)) & 0xF
            take = np.int64(0)
            shape = np.int64(0)
            for q in range(length):
                take |= np.int64(1) << (rank_at(pos + q, ace_rank) * N_SUITS + suit)
                shape |= suit << (3 * q)
            value = mask_value(values, take)
            row = W_BEST + m
            _emit(work, row, np.int64(MELD_RUN), pos, length, suit, np.int64(0), value, shape,
                  value)  # fmt: skip
            work[row, CA_TAKE] = take  # one pack: one layer (``_emit`` cleared the rest)
            m += 1
            pos += length
    work[W_SCAL, S_BEST_N] = m


@kernel
def table_fits_pattern(st, patterns, wild):
    """Are the table's melds exactly the runs of one alternative of the pattern set: one
    run of one suit per length, without jokers unless ``wild`` (Continental)? (The audit,
    once someone went out; each run's own legality is checked with every table meld.)"""
    n_melds = st[R_SC, C_N_MELDS]
    got = np.int64(0)  # per length, a count in its nibble
    for m in range(n_melds):
        row = R_MELD + m
        if st[row, M_TYPE] != MELD_RUN or st[row, M_SUIT] < 0:
            return False
        if st[row, M_JOKERS] != 0 and not wild:
            return False
        got += np.int64(1) << (NIBBLE * st[row, M_LEN])
    for a in range(MAX_ALTS):
        lengths = alternative(patterns, a)
        if lengths == 0:
            break
        want = np.int64(0)
        x = lengths
        while x != 0:
            want += np.int64(1) << (NIBBLE * (x & 0xF))
            x >>= NIBBLE
        if got == want:
            return True
    return False


# ---- the cover: how close a hand is to the pattern (the bots', docs/bots.md) -----------

MAX_DISTINCT = 4  # distinct run lengths in a pattern
MAX_STATES = 12  # states (runs placed, counted per length) a cover may track (5+4+3+3: 12)
W_DP = W_CAND  # rows W_DP + i: the best cover of one suit's positions below i, per state
W_DP_MASK = W_DP + 16  # ... and the columns of its cards
# Kept between calls, in the workspace's pattern rows (``melds.W_PATTERN``): a table per
# pattern (``TABLE_SLOTS`` patterns: Continental asks about its three alternatives in turn)
# of each suit column's covers, searched once per column and pattern, the merged tables of
# pairs of suits, and the last whole hands' answers. Row W_PATTERN: each slot's pattern
# (``_slot_key``), then the slot to give next; rows W_STATES + STATE_ROWS * i: slot i's
# state tables; rows W_COVERS + TABLE_COLUMNS * i + col: the covers of column ``col`` under
# slot i's pattern; rows W_PAIRS + h: merged pairs (``_pair``).
TABLE_SLOTS = 3
TABLE_COLUMNS = 1 << (N_RANKS + 1)  # every column of at most 14 run positions
STATE_ROWS = 2 + MAX_DISTINCT  # a slot's state tables: its sizes, W_FITS, then W_DIG rows
ST_N = 0  # a slot's first state row: its number of states, distinct lengths, counts, m
ST_LENS = 1
ST_COUNTS = 2
ST_M = 3
W_FITS = 1  # a slot's state row: per state t, the states u part of t's, as bits
W_DIG = 2  # its rows W_DIG + j: per state, its count of runs of distinct length j
W_STATES = W_PATTERN + 1
W_COVERS = W_STATES + STATE_ROWS * TABLE_SLOTS  # a row: the slot's key, the column's shape
# (``C_SHAPE``), then per state t >= 1 (column 1 + t) the cards of the column's best cover,
# as the kinds they would be in suit 0 (suit s's are these shifted left by s); state 0 (no
# run placed) covers nothing
C_SHAPE = 1  # a column row's shape: the size of its cover per state t >= 1, 4 bits at
# 4 * (t - 1), ``SHAPE_NONE`` where the state's runs do not fit
SHAPE_NONE = 0xF  # (a column holds at most 14 cards)
COL_SHIFT = 16  # a hand's columns packed: suit s's at bit 16 * s
COL_MASK = (np.int64(1) << COL_SHIFT) - 1
MEMO_WAYS = 6  # whole hands' answers kept
W_RESULT = W_COVERS + TABLE_COLUMNS * TABLE_SLOTS  # row W_RESULT + w: a whole hand's
# answer (tagged hand, its pattern and layout, size, kinds), the last six hands asked about
RESULT_NEXT = TABLE_SLOTS + 1  # row W_PATTERN's column: the whole-hand answer to replace next
PAIR_ROWS = PATTERN_PAIRS  # merged pairs kept: the first half for suits 0 and 1, the second
PAIR_HALF = PAIR_ROWS // 2  # for suits 2 and 3 (the two a cover reads never replace each other)
W_PAIRS = W_RESULT + MEMO_WAYS  # a row: the tagged slot and first shape (``PAIR_TAG``), the
# second shape, then per state t (column P_MERGED + t) the pair's best cover, ranked
# (``_ranked``), ``UNFIT`` where the state's runs do not fit in the two suits
P_MERGED = 2
PAIR_TAG = np.int64(0x5B) << 56
SLOT_SHIFT = 48  # a pair's first column: PAIR_TAG | slot << 48 | first shape (12 states)
DIGIT = 0xF  # a ranked cover's tie-break digit of a part u: 15 - u (the lower u ranks higher)
RANK_SHIFT = 3 * NIBBLE  # a ranked cover: its size << 12 | tie-break digits (``_ranked``)
UNFIT = -(np.int64(1) << 40)  # a pair's state whose runs do not fit (below any sum of ranks)
assert W_PAIRS + PAIR_ROWS <= W_PATTERN + PATTERN_ROWS
assert P_MERGED + MAX_STATES <= W_COLS and 1 + MAX_STATES <= W_COLS
assert MAX_STATES <= DIGIT and NIBBLE * (MAX_STATES - 1) <= SLOT_SHIFT
MEMO_TAG = np.int64(0x5A) << 56  # no candidate row holds this in its first column
NONE = -1


@kernel
def _distinct(lengths):
    """The pattern's distinct lengths and their counts, packed 4 bits each (lowest first),
    and how many there are."""
    lens = np.int64(0)
    counts = np.int64(0)
    m = 0
    x = lengths
    while x != 0:
        length = x & 0xF
        x >>= NIBBLE
        found = False
        for j in range(m):
            if (lens >> (NIBBLE * j)) & 0xF == length:
                counts += np.int64(1) << (NIBBLE * j)
                found = True
        if not found:
            lens |= length << (NIBBLE * m)
            counts |= np.int64(1) << (NIBBLE * m)
            m += 1
    return lens, counts, m


@kernel
def _states(work, head, counts, m):
    """Write the state tables of the slot whose rows start at ``head`` (``W_DIG``: each
    state's digits, mixed radix with ``count + 1`` per distinct length, the first lowest;
    ``W_FITS``: which states are part of which); returns how many states there are."""
    n_states = 1
    for j in range(m):
        n_states *= ((counts >> (NIBBLE * j)) & 0xF) + 1
    for j in range(m):
        work[head + W_DIG + j, 0] = 0
    for t in range(1, n_states):  # the next state: one more run, carrying
        for j in range(m):
            work[head + W_DIG + j, t] = work[head + W_DIG + j, t - 1]
        for j in range(m):
            if work[head + W_DIG + j, t] < (counts >> (NIBBLE * j)) & 0xF:
                work[head + W_DIG + j, t] += 1
                break
            work[head + W_DIG + j, t] = 0
    for t in range(n_states):
        fits = np.int64(0)
        for u in range(n_states):
            ok = True
            for j in range(m):
                if work[head + W_DIG + j, u] > work[head + W_DIG + j, t]:
                    ok = False
            if ok:
                fits |= np.int64(1) << u
        work[head + W_FITS, t] = fits
    return n_states


@kernel
def _slot(work, lengths, ace_rank):
    """``(slot, key)``: the table slot of the pattern ``lengths`` under the layout ``ace_rank``,
    and its key: the slot that holds it, else the one given least recently, given to it
    (its state tables written, the merged pairs forgotten; its column rows, keyed by the
    pattern they were searched for, are searched again as they are asked about)."""
    key = MEMO_TAG | (ace_rank << 32) | lengths
    for i in range(TABLE_SLOTS):
        if work[W_PATTERN, i] == key:
            return i, key
    i = work[W_PATTERN, TABLE_SLOTS] % TABLE_SLOTS
    work[W_PATTERN, TABLE_SLOTS] += 1
    work[W_PATTERN, i] = key
    for h in range(PAIR_ROWS):  # the merged pairs of the slot's last pattern: stale
        work[W_PAIRS + h, 0] = 0
    head = W_STATES + STATE_ROWS * i
    lens, counts, m = _distinct(lengths)
    work[head, ST_N] = _states(work, head, counts, m)
    work[head, ST_LENS] = lens
    work[head, ST_COUNTS] = counts
    work[head, ST_M] = m
    return i, key


@kernel
def kinds_of_column(col, suit, ace_rank):
    """The kinds of the positions of ``col`` in ``suit``."""
    return _from_positions(_expand_nibbles(col) << suit, ace_rank)


@kernel
def _suit_covers(work, col, row, head, n_pos, ace_rank):
    """The best cover of one suit's column per state (the runs of the state placed in this
    suit, not overlapping; -1 where they do not fit) under the slot's state tables at
    ``head``: the cards holding it as suit 0's kinds in ``row``'s column 1 + t for each
    state t >= 1, and the sizes as the column's shape (``C_SHAPE``)."""
    n_states = work[head, ST_N]
    lens = work[head, ST_LENS]
    counts = work[head, ST_COUNTS]
    m = work[head, ST_M]
    for t in range(n_states):
        work[W_DP, t] = 0 if t == 0 else NONE
        work[W_DP_MASK, t] = 0
    for i in range(n_pos):  # row i + 1 from the rows at or below i
        for t in range(n_states):
            best = work[W_DP + i, t]
            best_mask = work[W_DP_MASK + i, t]
            unit = 1
            for j in range(m):
                length = (lens >> (NIBBLE * j)) & 0xF
                lo = i + 1 - length
                if lo >= 0 and work[head + W_DIG + j, t] > 0:
                    before = t - unit
                    v = work[W_DP + lo, before]
                    if v >= 0:
                        window = col & (((np.int64(1) << length) - 1) << lo)
                        v += popcount(window)
                        if v > best:
                            best = v
                            best_mask = work[W_DP_MASK + lo, before] | window
                unit *= ((counts >> (NIBBLE * j)) & 0xF) + 1
            work[W_DP + i + 1, t] = best
            work[W_DP_MASK + i + 1, t] = best_mask
    shape = np.int64(0)
    for t in range(1, n_states):
        size = work[W_DP + n_pos, t]
        work[row, 1 + t] = kinds_of_column(work[W_DP_MASK + n_pos, t], np.int64(0), ace_rank)
        shape |= (SHAPE_NONE if size < 0 else size) << (NIBBLE * (t - 1))
    work[row, C_SHAPE] = shape


@kernel
def _shape_size(shape, t):
    """The size of state ``t``'s cover in a column of ``shape`` (``C_SHAPE``; NONE: its runs
    do not fit)."""
    if t == 0:
        return np.int64(0)
    size = (shape >> (NIBBLE * (t - 1))) & 0xF
    return np.int64(NONE) if size == SHAPE_NONE else size


@kernel
def _pair_row(slot, shape_a, shape_b, half):
    """The row where the merged pair of columns of shapes ``shape_a`` and ``shape_b`` is
    kept, in ``half`` (0: suits 0 and 1, 1: suits 2 and 3) of the pair rows."""
    x = (shape_a ^ (shape_a >> 23) ^ (shape_b << 7) ^ (shape_b >> 17) ^ (slot << 3)) & np.int64(
        0x7FFFFFFF
    )  # fmt: skip
    return W_PAIRS + half * PAIR_HALF + (((x * np.int64(0x5BD1E995)) >> 17) & (PAIR_HALF - 1))


@kernel
def _pair(work, head, slot, shape_a, shape_b, half):
    """The row of the merged pair of a column of shape ``shape_a`` (the lower suit) and one
    of ``shape_b`` (the higher) under the slot's state tables at ``head``: per state t, the
    best split of t's runs between the two, ranked (``_ranked``): of the best, the one with
    the fewest runs (the lowest state) in the higher suit. Merged when not kept (a pair's
    merge depends only on the two shapes: Nowrang's 4 + 3 + 3 has 56 shapes of a column)."""
    key = PAIR_TAG | (slot << SLOT_SHIFT) | shape_a
    row = _pair_row(slot, shape_a, shape_b, half)
    if work[row, 0] != key or work[row, 1] != shape_b:
        _merge_pair(work, head, shape_a, shape_b, half, row)
        work[row, 0] = key
        work[row, 1] = shape_b
    return row


@kernel
def _merge_pair(work, head, shape_a, shape_b, half, row):
    """Merge the pair of columns of shapes ``shape_a`` and ``shape_b`` into ``row``
    (``_pair``)."""
    n_states = work[head, ST_N]
    for t in range(n_states):
        best = np.int64(NONE)
        fits = work[head + W_FITS, t]
        while fits != 0:  # u: the runs placed in the higher suit, a part of t's
            u = lowest_bit(fits)
            fits &= fits - 1
            a = _shape_size(shape_a, t - u)
            b = _shape_size(shape_b, u)
            if a >= 0 and b >= 0:
                best = max(best, _ranked(a + b, u, t - u, half))
        work[row, P_MERGED + t] = best if best >= 0 else UNFIT


@kernel
def _ranked(size, high, low, half):
    """A pair's cover ranked (``cover``): its ``size``, then the fewer runs in its higher
    suit (state ``high``), then in its lower suit (``low``), so that the larger ranks first:
    suits 2 and 3 (``half`` 1) ``size << 12 | (15 - high) << 8 | (15 - low) << 4``, suits 0
    and 1 ``size << 12 | (15 - high)`` (suit 0's state is what the others leave)."""
    if half == 0:
        return (size << RANK_SHIFT) | (DIGIT - high)
    return (size << RANK_SHIFT) | ((DIGIT - high) << (2 * NIBBLE)) | ((DIGIT - low) << NIBBLE)


@kernel
def cover(work, hand, lengths, ace_rank):
    """``(size, kinds)``: the hand's cover (module docstring) and the cards in it. Each suit
    column's covers are kept in the pattern's table (``_slot``, ``W_COVERS``) once searched,
    and the merged pairs of suits 0 and 1, and 2 and 3 (``_pair``, keyed by the columns'
    shapes), so most calls only look them up and merge the two pairs.

    The cards kept are those of the first best placement of a suit-by-suit merge (suit 0,
    then 1, 2, 3, a later split replacing the kept one only when strictly better): of the
    best placements, the one with the lowest state in suit 3, then in suit 2, then in suit
    1 (a state's index: its counts of runs per distinct length, the first lowest, mixed
    radix). Ranked covers (``_ranked``) make that one maximum, in any order of the suits:
    the pairs' ranks add up to ``size << 12 | (15 - u3) << 8 | (15 - u2) << 4 | (15 - u1)``
    (``u``s: the states placed in each suit; suit 0's is what is left of the pattern)."""
    hand_key = MEMO_TAG | hand
    rules_key = (ace_rank << 32) | lengths
    for w in range(MEMO_WAYS):  # asked about this hand just before (a take, then a discard)
        if work[W_RESULT + w, 0] == hand_key and work[W_RESULT + w, 1] == rules_key:
            return work[W_RESULT + w, 2], work[W_RESULT + w, 3]
    slot, key = _slot(work, lengths, ace_rank)
    head = W_STATES + STATE_ROWS * slot
    full = work[head, ST_N] - 1
    e = _to_positions(hand, ace_rank)
    n_pos = n_positions(ace_rank)
    base = W_COVERS + TABLE_COLUMNS * slot
    cols = np.int64(0)  # the hand's columns, suit s's at bit 16 * s
    for s in range(N_SUITS):
        col = suit_column(e, s, n_pos)
        cols |= col << (COL_SHIFT * s)
        if work[base + col, 0] != key:  # not searched yet under this pattern
            _suit_covers(work, col, base + col, head, n_pos, ace_rank)
            work[base + col, 0] = key
    shape0 = work[base + (cols & COL_MASK), C_SHAPE]
    shape1 = work[base + ((cols >> COL_SHIFT) & COL_MASK), C_SHAPE]
    shape2 = work[base + ((cols >> (2 * COL_SHIFT)) & COL_MASK), C_SHAPE]
    shape3 = work[base + (cols >> (3 * COL_SHIFT)), C_SHAPE]
    low = _pair(work, head, slot, shape0, shape1, np.int64(0))
    high = _pair(work, head, slot, shape2, shape3, np.int64(1))
    best = np.int64(UNFIT)
    for u in range(full + 1):  # u: the runs placed in suits 2 and 3 (UNFIT: negative sums)
        best = max(best, work[low, P_MERGED + full - u] + work[high, P_MERGED + u])
    size = best >> RANK_SHIFT if best >= 0 else np.int64(NONE)
    kinds = np.int64(0)
    if best >= 0:
        u3 = DIGIT - ((best >> (2 * NIBBLE)) & DIGIT)
        u2 = DIGIT - ((best >> NIBBLE) & DIGIT)
        u1 = DIGIT - (best & DIGIT)
        parts = (full - u1 - u2 - u3) | (u1 << NIBBLE) | (u2 << (2 * NIBBLE)) | (u3 << (3 * NIBBLE))
        for s in range(N_SUITS):
            u = (parts >> (NIBBLE * s)) & 0xF
            if u > 0:
                kinds |= work[base + ((cols >> (COL_SHIFT * s)) & COL_MASK), 1 + u] << s
    w = work[W_PATTERN, RESULT_NEXT] % MEMO_WAYS
    work[W_PATTERN, RESULT_NEXT] += 1
    work[W_RESULT + w, 0] = hand_key
    work[W_RESULT + w, 1] = rules_key
    work[W_RESULT + w, 2] = size
    work[W_RESULT + w, 3] = kinds
    return size, kinds


# ---- patterns with wild cards (Continental §3.11, §2B.14; ``wild_fit``) --------------------

FIT_NONE = -2  # wild_fit: the hand does not fit
FIT_WHOLE = -1  # wild_fit: the whole hand fits (no discard)
DEUCE_RANK = 1
DEUCES = np.int64(0xF) << (DEUCE_RANK * N_SUITS)  # the four 2s as kinds
CA_DEUCES = N_CA  # a written run's column past the candidate's: its 2s standing as wild cards,
# 3 bits per position from lo up, the suit + 1 (as ``state.M_WILD``)
assert CA_DEUCES < W_COLS
POSITIONS = (np.int64(1) << (4 * (N_RANKS + 1))) - 1  # every run position of every suit
# workspace rows (the candidate area, after the cover's rows; scratch within one call)
W_NAT = W_CAND + 40  # rows W_NAT + s: natural cards of suit s per rank (deuces apart when wild)
W_DEUCE = W_NAT + N_SUITS  # column s: the deuces of suit s, when they are wild
W_COV = W_DEUCE + 1  # rows W_COV + s: runs placed on each rank of suit s
W_LEFT = W_COV + N_SUITS  # column j: runs of the j-th distinct length still to place
W_HALL = W_LEFT + 1  # rows W_HALL + s: scratch of the natural-card check
W_WF = W_HALL + N_SUITS  # rows W_WF + d: the search's frames (``WF_*``)
MAX_FRAMES = MAX_PIECES  # a run placed a frame
W_WILD_MEMO = W_WF + MAX_FRAMES + 1  # rows + w: ``wild_cover``'s last two answers (kept
# between calls: the tagged hand, its jokers, pattern set and layout, size, kinds)
W_TALLY = W_WILD_MEMO + 2  # the tally, counted by ``_load_hand`` and kept up to date as runs
# are placed (``_recount``):
T_UNCOVERED = 0  # natural cards no run covers yet
T_NEED = 1  # run places no natural card fills
T_FREE = 2  # wild deuces whose own place no run covers
T_OPEN = 3  # the (suit, rank)s with natural cards no run covers, bit suit * 16 + rank
W_AFTER = W_TALLY + 1  # rows W_AFTER + seat: the ``wild_cover`` size of the hand each seat
# kept after his last discard (``keep_size``; kept between calls: the tagged hand, its key as
# in ``W_WILD_MEMO``, the size)
assert W_AFTER + MAX_SEATS <= W_CAND + MAX_DEPTH * MAX_CAND
WF_TRIGGER = 0  # the (suit, rank) that must be covered, suit * 16 + rank; -1: none left
WF_NEXT = 1  # the next option to try
WF_SUIT = 2  # the run placed here: its suit, first position, distinct-length index (-1: none)
WF_LO = 3
WF_J = 4
WF_CODE = 5  # extra runs (nothing left to cover): the window code tried, so later ones follow
TRIGGER_OPTIONS = 2 * MAX_DISTINCT * 8  # (position, length, offset)
N_WINDOW_CODES = N_SUITS * 16 * MAX_DISTINCT  # extra runs: (suit, first position, length)


@kernel
def wild_pattern(fx, params):
    """Are wild cards, several packs and an ace high or low part of the pattern test
    (``go_out_pattern = "continental"``, §3.11)?"""
    return rule(fx, params, P_GO_OUT_PATTERN) == PATTERN_CONTINENTAL


@kernel
def deuces_wild(fx, params):
    """Are 2s wild cards (``deuces_wild``, §2B.14; played under Continental's pattern)?"""
    return rule(fx, params, P_DEUCES_WILD) == 1


@kernel
def alternative(patterns, i):
    """The packed lengths of alternative ``i`` of a pattern set (0: none)."""
    return (patterns >> (ALT_BITS * i)) & np.int64(ALT_MASK)


@kernel
def set_size(patterns):
    """Cards in a pattern set (every alternative holds as many)."""
    return pattern_size(alternative(patterns, np.int64(0)))[1]


@kernel
def _load_hand(work, layers, n_layers, deuces):
    """Fill ``W_NAT`` (and ``W_DEUCE`` when ``deuces`` are wild) from the hand's layers;
    clear ``W_COV``; count the tally (``W_TALLY``: no run placed yet, every natural card is
    uncovered, every wild deuce free). Returns the natural cards counted."""
    n = 0
    for s in range(N_SUITS):
        work[W_DEUCE, s] = 0
        for r in range(N_RANKS_PATTERN):
            work[W_NAT + s, r] = 0
            work[W_COV + s, r] = 0
    uncovered = 0
    free = 0
    open_ = np.int64(0)
    for l in range(n_layers):
        m = layers[l]
        while m != 0:
            k = lowest_bit(m)
            m &= m - 1
            s = k % N_SUITS
            r = k // N_SUITS
            n += 1
            if deuces and r == DEUCE_RANK:
                work[W_DEUCE, s] += 1
                free += 1
            else:
                work[W_NAT + s, r] += 1
                uncovered += 1
                open_ |= np.int64(1) << (s * 16 + r)
    work[W_TALLY, T_UNCOVERED] = uncovered
    work[W_TALLY, T_NEED] = 0
    work[W_TALLY, T_FREE] = free
    work[W_TALLY, T_OPEN] = open_
    return n


@kernel
def _cell(work, s, r, deuces):
    """One (suit, rank)'s part of the tally: ``(uncovered, need, free, open)``: its natural
    cards no run covers, its run places no natural card fills, its wild deuces whose own
    place no run covers, and whether a natural card (deuces apart) is uncovered."""
    d = work[W_NAT + s, r] - work[W_COV + s, r]
    uncovered = 0
    free = 0
    if deuces and r == DEUCE_RANK:
        d += work[W_DEUCE, s]
        if d > 0:
            free = d
    elif d > 0:
        uncovered = d
    need = -d if d < 0 else 0
    return uncovered, need, free, work[W_NAT + s, r] > work[W_COV + s, r]


@kernel
def _recount(work, s, r, deuces, sign):
    """Add (``sign`` 1) or take away (-1) the part of (``s``, ``r``) in the tally: the
    search changes a (suit, rank)'s counts between a take-away and an add."""
    uncovered, need, free, open_ = _cell(work, s, r, deuces)
    work[W_TALLY, T_UNCOVERED] += sign * uncovered
    work[W_TALLY, T_NEED] += sign * need
    work[W_TALLY, T_FREE] += sign * free
    bit = np.int64(1) << (s * 16 + r)
    if sign < 0:
        work[W_TALLY, T_OPEN] &= ~bit
    elif open_:
        work[W_TALLY, T_OPEN] |= bit


@kernel
def _trigger(work):
    """The lowest (suit, rank) with natural cards no run covers, ``suit * 16 + rank``; -1."""
    open_ = work[W_TALLY, T_OPEN]
    return lowest_bit(open_) if open_ != 0 else NONE


@kernel
def _place(work, suit, lo, length, ace_rank, step, deuces):
    """Add ``step`` (1 or -1) runs on each rank of the window (``suit``, ``lo``, ``length``),
    the tally kept."""
    for q in range(lo, lo + length):
        _step_cover(work, suit, rank_at(q, ace_rank), deuces, step)


@kernel
def _step_cover(work, s, r, deuces, step):
    """Add ``step`` (1 or -1) runs on (``s``, ``r``), the tally kept: ``_cell``'s parts
    follow the cell's natural cards less its run places (``d``, wild deuces counted on
    their rank): ``max(d, 0)`` uncovered (free on a wild deuce's rank), ``max(-d, 0)``
    needed, open while a natural card is left."""
    nat = work[W_NAT + s, r]
    cov = work[W_COV + s, r]
    d = nat - cov
    if deuces and r == DEUCE_RANK:
        d += work[W_DEUCE, s]
        work[W_TALLY, T_FREE] += max(d - step, 0) - max(d, 0)
    else:
        work[W_TALLY, T_UNCOVERED] += max(d - step, 0) - max(d, 0)
    work[W_TALLY, T_NEED] += max(step - d, 0) - max(-d, 0)
    work[W_COV + s, r] = cov + step
    bit = np.int64(1) << (s * 16 + r)
    if nat > cov + step:
        work[W_TALLY, T_OPEN] |= bit
    else:
        work[W_TALLY, T_OPEN] &= ~bit


@kernel
def _window_has_natural(work, suit, lo, length, ace_rank, deuces):
    """Does the window hold a rank where ``suit`` has a natural card (a deuce counts)?"""
    for q in range(lo, lo + length):
        r = rank_at(q, ace_rank)
        if work[W_NAT + suit, r] > 0 or (deuces and r == DEUCE_RANK and work[W_DEUCE, suit] > 0):
            return True
    return False


@kernel
def _wild_places(work, suit, lo, length, ace_rank, deuces):
    """How much a run on the window (``suit``, ``lo``, ``length``) would add to the wild
    cards needed (``T_NEED`` less ``T_FREE``): one for each place no uncovered natural
    card would fill, and with ``deuces`` one for each 2's place (its own 2 stops being a
    free wild card, or a wild card is needed). As ``_step_cover`` counts, without placing."""
    n = 0
    for q in range(lo, lo + length):
        r = rank_at(q, ace_rank)
        if (deuces and r == DEUCE_RANK) or work[W_NAT + suit, r] <= work[W_COV + suit, r]:
            n += 1
    return n


@kernel
def _naturals_placed(work, s, r, deuces):
    """Natural cards that stand on (``s``, ``r``) in the runs placed."""
    have = work[W_NAT + s, r]
    if deuces and r == DEUCE_RANK:
        have += work[W_DEUCE, s]
    return min(have, work[W_COV + s, r])


@kernel
def _every_run_has_a_natural(work, depth, ace_rank, deuces):
    """Can the natural cards be shared out so that every run placed holds one (Hall's
    condition over every set of runs)?"""
    runs = np.int64(0)  # the frames that placed a run, as bits
    for d in range(depth):
        if work[W_WF + d, WF_SUIT] >= 0:
            runs |= np.int64(1) << d
    subset = runs
    while subset != 0:
        for s in range(N_SUITS):
            for r in range(N_RANKS_PATTERN):
                work[W_HALL + s, r] = 0
        size = 0
        x = subset
        while x != 0:
            d = lowest_bit(x)
            x &= x - 1
            size += 1
            suit = work[W_WF + d, WF_SUIT]
            lo = work[W_WF + d, WF_LO]
            length = _length_of(work, d)
            for q in range(lo, lo + length):
                work[W_HALL + suit, rank_at(q, ace_rank)] += 1
        have = 0
        for s in range(N_SUITS):
            for r in range(N_RANKS_PATTERN):
                if work[W_HALL + s, r] > 0:
                    have += min(work[W_HALL + s, r], _naturals_placed(work, s, r, deuces))
        if have < size:
            return False
        subset = (subset - 1) & runs
    return True


@kernel
def _length_of(work, d):
    """The length of the run frame ``d`` placed (its distinct-length index ``WF_J``)."""
    return (work[W_LEFT, MAX_DISTINCT] >> (NIBBLE * work[W_WF + d, WF_J])) & 0xF


@kernel
def _runs_left(work, m):
    """Runs still to place, and their cards."""
    n = 0
    cards = 0
    for j in range(m):
        n += work[W_LEFT, j]
        cards += work[W_LEFT, j] * ((work[W_LEFT, MAX_DISTINCT] >> (NIBBLE * j)) & 0xF)
    return n, cards


@kernel
def _longest_left(work, m):
    """The longest run still to place."""
    longest = np.int64(0)
    for j in range(m):
        if work[W_LEFT, j] > 0:
            longest = max(longest, (work[W_LEFT, MAX_DISTINCT] >> (NIBBLE * j)) & 0xF)
    return longest


@kernel
def _runs_needed(work, longest):
    """At least how many more runs the hand needs: per suit, the windows of ``longest``
    ranks laid from the lowest (the fewest that hold them) over its ranks 2 to K with
    natural cards uncovered (an ace, at either end under ``high_or_low``, is left out:
    a bound, never too many)."""
    open_ = work[W_TALLY, T_OPEN]
    window = (np.int64(1) << longest) - 1
    n = 0
    for s in range(N_SUITS):
        col = (open_ >> (16 * s + 1)) & np.int64(0xFFF)
        while col != 0:
            col &= ~(window << lowest_bit(col))
            n += 1
    return n


@kernel
def _frame_option(work, d, ace_rank, n_pos, m, deuces, slack):
    """Try the next option of frame ``d`` (its trigger's windows, or an extra run) from
    ``WF_NEXT`` on; place it and return True, or return False when none is left. An option
    whose wild places (``_wild_places``) exceed ``slack``, the wild cards not yet needed,
    is passed over unplaced: the search would cut it as soon as it was placed."""
    trigger = work[W_WF + d, WF_TRIGGER]
    while True:
        o = work[W_WF + d, WF_NEXT]
        work[W_WF + d, WF_NEXT] = o + 1
        if trigger >= 0:
            if o >= TRIGGER_OPTIONS:
                return False
            k = o % 8
            j = (o // 8) % MAX_DISTINCT
            which = o // (8 * MAX_DISTINCT)
            suit = trigger // 16
            pos = position_of(trigger % 16, ace_rank, which)
            if pos < 0:  # no such place: none of this ``which``'s options either
                work[W_WF + d, WF_NEXT] = (which + 1) * 8 * MAX_DISTINCT
                continue
            if j >= m or work[W_LEFT, j] == 0:  # nor of this length's
                work[W_WF + d, WF_NEXT] = o - k + 8
                continue
            length = (work[W_LEFT, MAX_DISTINCT] >> (NIBBLE * j)) & 0xF
            lo = pos - k
            if k >= length or lo < 0:  # nor at a larger offset
                work[W_WF + d, WF_NEXT] = o - k + 8
                continue
            if lo + length > n_pos:
                continue
        else:
            if o >= N_WINDOW_CODES:
                return False
            j = o % MAX_DISTINCT
            lo = (o // MAX_DISTINCT) % 16
            suit = o // (16 * MAX_DISTINCT)
            if j >= m or work[W_LEFT, j] == 0:
                continue
            length = (work[W_LEFT, MAX_DISTINCT] >> (NIBBLE * j)) & 0xF
            if lo + length > n_pos or not _window_has_natural(work, suit, lo, length, ace_rank,
                                                               deuces):  # fmt: skip
                continue
            work[W_WF + d, WF_CODE] = o
        if _wild_places(work, suit, lo, length, ace_rank, deuces) > slack:
            continue
        work[W_WF + d, WF_SUIT] = suit
        work[W_WF + d, WF_LO] = lo
        work[W_WF + d, WF_J] = j
        work[W_LEFT, j] -= 1
        _place(work, suit, lo, length, ace_rank, np.int64(1), deuces)
        return True


@kernel
def _undo(work, d, ace_rank, deuces):
    """Take back the run frame ``d`` placed."""
    suit = work[W_WF + d, WF_SUIT]
    if suit >= 0:
        j = work[W_WF + d, WF_J]
        _place(work, suit, work[W_WF + d, WF_LO], _length_of(work, d), ace_rank, np.int64(-1),
               deuces)  # fmt: skip
        work[W_LEFT, j] += 1
        work[W_WF + d, WF_SUIT] = NONE


@kernel
def _open_frame(work, d, prev_code):
    """Start frame ``d`` on the lowest natural card left uncovered (or extra runs)."""
    work[W_WF + d, WF_TRIGGER] = _trigger(work)
    work[W_WF + d, WF_NEXT] = 0 if work[W_WF + d, WF_TRIGGER] >= 0 else prev_code
    work[W_WF + d, WF_SUIT] = NONE
    work[W_WF + d, WF_CODE] = prev_code


@kernel
def _search(work, jokers, ace_rank, n_pos, m, deuces):
    """The depth-first search of one alternative (``wild_fit``; ``W_LEFT`` holds its runs);
    returns whether the hand fits; then frames ``0..`` hold the runs (``WF_SUIT`` >= 0) and
    ``W_SCAL``'s ``S_WILD_DEPTH`` their number."""
    d = np.int64(0)
    _open_frame(work, np.int64(0), np.int64(0))
    ok = False  # frame d's state passes the cuts (known when back from the frame above)
    back = False
    while True:
        need = work[W_TALLY, T_NEED]
        free = work[W_TALLY, T_FREE]
        if not back:
            uncovered = work[W_TALLY, T_UNCOVERED]
            runs, cards = _runs_left(work, m)
            ok = need <= jokers + free and cards >= uncovered
            if ok and runs > 0 and _runs_needed(work, _longest_left(work, m)) > runs:
                ok = False
            if ok and runs == 0:
                if (
                    uncovered == 0
                    and need == jokers + free
                    and _every_run_has_a_natural(work, d, ace_rank, deuces)
                ):
                    work[W_SCAL, S_WILD_DEPTH] = d
                    return True
                ok = False
        slack = jokers + free - need
        if ok and d < MAX_FRAMES and _frame_option(work, d, ace_rank, n_pos, m, deuces, slack):
            d += 1
            _open_frame(work, d, work[W_WF + d - 1, WF_CODE])
            back = False
            continue
        d -= 1  # frame d has no option left: back to the frame below, undoing its run
        if d < 0:
            return False
        _undo(work, d, ace_rank, deuces)
        back = True  # its state passed the cuts before it placed that run: it passes again
        ok = True


@kernel
def wild_fit(values, work, layers, n_layers, jokers, ace_rank, patterns, deuces, spare_ok,
             write):  # fmt: skip
    """Does the hand (``layers``, several packs, and ``jokers``) split into runs of one suit
    of exactly one alternative of ``patterns``, jokers (and with ``deuces`` the 2s, each
    natural on its own place) standing for missing cards? A hand one card longer than the
    pattern must set one natural card of ``spare_ok`` aside as its discard (the lowest kind
    that leaves a fit). With fewer than two wild cards, a natural card with no other of its
    suit near enough to share a run (``_alone``) must be that discard, and a card whose
    setting aside leaves such a card is not searched. Returns that discard,
    ``FIT_WHOLE`` (no discard) or ``FIT_NONE``; with ``write`` the runs are the best
    arrangement (module docstring, "Wild cards")."""
    n = _load_hand(work, layers, n_layers, deuces)
    total = set_size(patterns)
    wilds = jokers + (_deuces_held(work) if deuces else 0)
    alone = _alone(layers[0], ace_rank, deuces, wilds)
    if n + jokers == total and alone != 0:
        return FIT_NONE
    if n + jokers == total:
        return FIT_WHOLE if _fits(values, work, jokers, ace_rank, patterns, deuces, write) else (
            FIT_NONE
        )  # fmt: skip
    if n + jokers != total + 1 or _too_scattered(work, patterns):
        return FIT_NONE
    spares = spare_ok & layers[0]
    if alone != 0:  # the one natural card no run could hold (one copy) must be the discard
        if alone & (alone - 1) != 0 or alone & layers[1] != 0:
            return FIT_NONE
        spares &= alone
    while spares != 0:  # each kind the discard may be, lowest first
        k = lowest_bit(spares)
        spares &= spares - 1
        rest = layers[0] if layers[1] & (np.int64(1) << k) != 0 else layers[0] & ~(np.int64(1) << k)
        if _alone(rest, ace_rank, deuces, wilds) != 0:  # it leaves a card no run can hold
            continue
        _count_card(work, k, deuces, np.int64(-1))
        found = _fits(values, work, jokers, ace_rank, patterns, deuces, write)
        _count_card(work, k, deuces, np.int64(1))
        if found:
            return k
    return FIT_NONE


@kernel
def _too_scattered(work, patterns):
    """Does every alternative of ``patterns`` need two runs more than it has for the counted
    cards (``_runs_needed`` of its longest length)? Then no card set aside leaves a fit: a
    card fewer needs at most one run fewer, and the search of each discard would stop at
    once."""
    for a in range(MAX_ALTS):
        lengths = alternative(patterns, a)
        if lengths == 0:
            break
        runs = 0
        longest = np.int64(0)
        x = lengths
        while x != 0:
            runs += 1
            longest = max(longest, x & 0xF)
            x >>= NIBBLE
        if _runs_needed(work, longest) <= runs + 1:
            return False
    return True


@kernel
def _deuces_held(work):
    """The 2s counted apart as wild cards (``W_DEUCE``)."""
    n = 0
    for s in range(N_SUITS):
        n += work[W_DEUCE, s]
    return n


@kernel
def _alone(hand, ace_rank, deuces, wilds):
    """The kinds of natural cards of ``hand`` (kinds; wild 2s apart) that no run could
    hold, with fewer than two wild cards (``wilds``; else 0): a run of one wild card or
    none puts another natural card of its suit within one place of each natural card (two
    places with one wild card)."""
    if wilds >= 2:
        return np.int64(0)
    if deuces:
        hand &= ~DEUCES
    e = _to_positions(hand, ace_rank)
    near = (e << 4) | (e >> 4)
    if wilds == 1:
        near |= (e << 8) | (e >> 8)
    return hand & ~_from_positions(near & POSITIONS, ace_rank)


@kernel
def _count_card(work, k, deuces, step):
    """Add ``step`` copies of natural ``k`` to the counts (``W_NAT``, ``W_DEUCE``), the
    tally kept."""
    s = k % N_SUITS
    r = k // N_SUITS
    _recount(work, s, r, deuces, np.int64(-1))
    if deuces and r == DEUCE_RANK:
        work[W_DEUCE, s] += step
    else:
        work[W_NAT + s, r] += step
    _recount(work, s, r, deuces, np.int64(1))


@kernel
def _fits(values, work, jokers, ace_rank, patterns, deuces, write):
    """Do the counted cards fit one alternative of ``patterns`` (searched in turn)?"""
    n_pos = n_positions(ace_rank)
    for a in range(MAX_ALTS):
        lengths = alternative(patterns, a)
        if lengths == 0:
            break
        lens, counts, m = _distinct(lengths)
        work[W_LEFT, MAX_DISTINCT] = lens
        for j in range(m):
            work[W_LEFT, j] = (counts >> (NIBBLE * j)) & 0xF
        if _search(work, jokers, ace_rank, n_pos, m, deuces):
            if write:
                _write_runs(values, work, ace_rank, deuces)
            return True
    return False


@kernel
def _write_runs(values, work, ace_rank, deuces):
    """The runs the search found as the best arrangement (``W_BEST``): each holds one
    natural card first (the first choice of one per run that the cards allow), then the
    natural cards on its places while they last, jokers on the rest."""
    depth = work[W_SCAL, S_WILD_DEPTH]
    for s in range(N_SUITS):  # W_HALL: natural cards still to hand out on each rank
        for r in range(N_RANKS_PATTERN):
            work[W_HALL + s, r] = _naturals_placed(work, s, r, deuces)
    anchors = np.int64(0)  # per frame, the offset of its first natural (4 bits each)
    while True:  # the first choice of one natural place per run the cards allow
        ok = True
        for d in range(depth):
            if work[W_WF + d, WF_SUIT] < 0:
                continue
            k = (anchors >> (NIBBLE * d)) & 0xF
            r = rank_at(work[W_WF + d, WF_LO] + k, ace_rank)
            work[W_HALL + work[W_WF + d, WF_SUIT], r] -= 1
            if work[W_HALL + work[W_WF + d, WF_SUIT], r] < 0:
                ok = False
        if ok:
            break
        for d in range(depth):  # undo, then the next choice
            if work[W_WF + d, WF_SUIT] >= 0:
                k = (anchors >> (NIBBLE * d)) & 0xF
                r = rank_at(work[W_WF + d, WF_LO] + k, ace_rank)
                work[W_HALL + work[W_WF + d, WF_SUIT], r] += 1
        for d in range(depth):
            if work[W_WF + d, WF_SUIT] < 0:
                continue
            k = (anchors >> (NIBBLE * d)) & 0xF
            anchors &= ~(np.int64(0xF) << (NIBBLE * d))
            if k + 1 < _length_of(work, d):
                anchors |= (k + 1) << (NIBBLE * d)
                break
    m = 0
    for d in range(depth):
        suit = work[W_WF + d, WF_SUIT]
        if suit < 0:
            continue
        lo = work[W_WF + d, WF_LO]
        length = _length_of(work, d)
        anchor = (anchors >> (NIBBLE * d)) & 0xF
        take = np.int64(0)
        shape = np.int64(0)
        wild = 0
        for q in range(length):
            r = rank_at(lo + q, ace_rank)
            natural = q == anchor
            if not natural and work[W_HALL + suit, r] > 0:
                work[W_HALL + suit, r] -= 1
                natural = True
            if natural:
                take |= np.int64(1) << (r * N_SUITS + suit)
                shape |= suit << (3 * q)
            else:
                wild += 1
                shape |= np.int64(JOKER_DIGIT) << (3 * q)
        value = mask_value(values, take) + wild * values[JOKER]
        row = W_BEST + m
        _emit(work, row, np.int64(MELD_RUN), lo, length, suit, np.int64(wild), value, shape,
              value)  # fmt: skip
        work[row, CA_TAKE] = take
        work[row, CA_DEUCES] = 0
        m += 1
    work[W_SCAL, S_BEST_N] = m
    if deuces:
        _place_wild_deuces(values, work, np.int64(m))


@kernel
def _place_wild_deuces(values, work, n_runs):
    """The written runs ``W_BEST``... (``n_runs``) hold jokers on every wild place: the 2s of
    the hand that stand on no place of their own (``W_DEUCE`` less the natural 2s written)
    take the first wild places instead, suit by suit, each among the run's natural cards
    (its first free layer) and in ``CA_DEUCES``; the run's jokers and value follow."""
    for s in range(N_SUITS):
        kind = DEUCE_RANK * N_SUITS + s
        bit = np.int64(1) << kind
        spare = work[W_DEUCE, s]
        for i in range(n_runs):
            if work[W_BEST + i, CA_TAKE] & bit != 0:
                spare -= 1
        for i in range(n_runs):
            row = W_BEST + i
            for q in range(work[row, CA_LEN]):
                if spare <= 0:
                    break
                digit = (work[row, CA_SHAPE] >> (3 * q)) & 0x7
                if digit != JOKER_DIGIT or (work[row, CA_DEUCES] >> (3 * q)) & 0x7 != 0:
                    continue
                work[row, CA_DEUCES] |= np.int64(s + 1) << (3 * q)
                work[row, CA_JOKERS] -= 1
                for l in range(MAX_LAYERS):
                    if work[row, CA_TAKE + l] & bit == 0:
                        work[row, CA_TAKE + l] |= bit
                        break
                work[row, CA_VALUE] += values[kind] - values[JOKER]
                work[row, CA_OPEN] += values[kind] - values[JOKER]
                spare -= 1


@kernel
def wild_deuces(wild):
    """How many 2s stand as wild cards in a run whose ``M_WILD`` is ``wild``."""
    n = 0
    while wild != 0:
        if wild & 0x7 != 0:
            n += 1
        wild >>= 3
    return n


@kernel
def _wild_key(jokers, patterns, ace_rank):
    """What a ``wild_cover`` answer depends on besides the hand, packed: its wild cards,
    pattern set and layout."""
    return jokers | (ace_rank << 8) | (patterns << 12)


@kernel
def keep_size(work, seat, hand, jokers, patterns, ace_rank, size):
    """Keep ``size`` as the cover size of the hand ``seat`` keeps after his discard (``hand``,
    ``jokers``; ``patterns``: the pattern set, or without wild cards the one pattern) for
    ``kept_size``. A discard outside the cover leaves its size as it is, so the discard's
    own answer is the kept hand's."""
    row = W_AFTER + seat
    work[row, 0] = MEMO_TAG | hand
    work[row, 1] = _wild_key(jokers, patterns, ace_rank)
    work[row, 2] = size


@kernel
def kept_size(work, seat, hand, jokers, patterns, ace_rank):
    """The size ``keep_size`` kept for ``seat``'s hand after his last discard, when ``hand``
    (and its rules) is that hand; else -1."""
    row = W_AFTER + seat
    if work[row, 0] == MEMO_TAG | hand and work[row, 1] == _wild_key(jokers, patterns, ace_rank):
        return work[row, 2]
    return NONE


@kernel
def wild_size(work, seat, hand, jokers, patterns, ace_rank):
    """The size of ``wild_cover`` (its kinds not asked): the one kept for ``seat``'s hand
    after his last discard (``kept_size``) when this is that hand, else ``wild_cover``'s."""
    size = kept_size(work, seat, hand, jokers, patterns, ace_rank)
    if size >= 0:
        return size
    return wild_cover(work, hand, jokers, patterns, ace_rank)[0]


@kernel
def wild_cover(work, hand, jokers, patterns, ace_rank):
    """``(size, kinds)`` for the bots under wild cards: the best ``cover`` of the hand's
    kinds (``hand``: one copy each) over the set's alternatives, plus its ``jokers``, at
    most the pattern's cards; and the kinds of that cover. The last two answers are kept
    (the take asks about the hand with the card, the discard about it again)."""
    key = MEMO_TAG | hand
    rules_key = _wild_key(jokers, patterns, ace_rank)
    for w in range(2):  # asked about this hand just before (a take, then a discard)
        if work[W_WILD_MEMO + w, 0] == key and work[W_WILD_MEMO + w, 1] == rules_key:
            return work[W_WILD_MEMO + w, 2], work[W_WILD_MEMO + w, 3]
    best = NONE
    kept = np.int64(0)
    for a in range(MAX_ALTS):
        lengths = alternative(patterns, a)
        if lengths == 0:
            break
        size, kinds = cover(work, hand, lengths, ace_rank)
        if size > best:
            best = size
            kept = kinds
    size = min(set_size(patterns), best + jokers)
    w = work[W_WILD_MEMO + 1, 4] & 1  # the way to replace next
    work[W_WILD_MEMO + 1, 4] += 1
    work[W_WILD_MEMO + w, 0] = key
    work[W_WILD_MEMO + w, 1] = rules_key
    work[W_WILD_MEMO + w, 2] = size
    work[W_WILD_MEMO + w, 3] = kept
    return size, kept
