"""Fixed go-out patterns (mechanic PT of RULES.md §4C): the meld library's test "is this
hand exactly these same-suit runs?" (Nowrang §3.15: one run of 4 and two of 3, groups not
counting; Continental §3.11 will need runs of several lengths too).

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
dynamic programme per suit over the run positions and the runs placed so far (counted per
length), then a merge of the suits; a later placement replaces the kept one only when
strictly better. A suit's result depends only on its cards, so it is kept in the
workspace (two per suit: two players' hands alternate) and reused until they change; the
last two whole hands' answers are kept too (the take asks about the hand with the card,
the go-out test and the discard about the same hand after it).
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import P_GO_OUT_PATTERN, PATTERN_NONE, PATTERN_RUNS_4_3_3
from sim.engine.melds import (
    CA_TAKE,
    MELD_RUN,
    S_BEST_N,
    W_BEST,
    W_CAND,
    W_FRAME,
    W_SCAL,
    _compress_nibbles,
    _emit,
    _to_positions,
    mask_value,
    n_positions,
    rank_at,
)
from sim.engine.specs import rule
from sim.engine.state import C_N_MELDS, M_JOKERS, M_LEN, M_SUIT, M_TYPE, R_MELD, R_SC

NIBBLE = 4
RUNS_4_3_3 = 0x334  # Nowrang (§3.15): a run of 4 (the garwanj) and two of 3
SEG_BITS = 10  # a segment packed: its first position (4 bits), length (4 bits), suit (2)
MAX_PIECES = 6  # runs in a pattern (the assignment's digits are packed 4 bits each)


@kernel
def pattern_lengths(fx, params):
    """The packed run lengths of ``go_out_pattern`` (0: none; module docstring)."""
    code = rule(fx, params, P_GO_OUT_PATTERN)
    if code == PATTERN_RUNS_4_3_3:
        return np.int64(RUNS_4_3_3)
    return np.int64(0)


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
def table_fits_pattern(st, lengths):
    """Are the table's melds exactly the pattern's runs: one run of one suit, without
    jokers, per length of ``lengths``? (The audit, once someone went out; each run's own
    legality is checked with every table meld.)"""
    n, _ = pattern_size(lengths)
    n_melds = st[R_SC, C_N_MELDS]
    if n_melds != n:
        return False
    want = np.int64(0)  # per length, a count in its nibble
    x = lengths
    while x != 0:
        want += np.int64(1) << (NIBBLE * (x & 0xF))
        x >>= NIBBLE
    got = np.int64(0)
    for m in range(n_melds):
        row = R_MELD + m
        if st[row, M_TYPE] != MELD_RUN or st[row, M_SUIT] < 0 or st[row, M_JOKERS] != 0:
            return False
        got += np.int64(1) << (NIBBLE * st[row, M_LEN])
    return got == want


# ---- the cover: how close a hand is to the pattern (the bots', docs/bots.md) -----------

MAX_DISTINCT = 4  # distinct run lengths in a pattern
MAX_STATES = 13  # states (runs placed, counted per length) a cover may track
W_DP = W_CAND  # rows W_DP + i: the best cover of one suit's positions below i, per state
W_DP_MASK = W_DP + 16  # ... and the columns of its cards
W_SUITS = W_DP_MASK + 16  # the suits merged so far: best cover per state, and its kinds
W_SUITS_MASK = W_SUITS + 1
W_MERGE = W_SUITS + 2  # scratch of the merge
W_MERGE_MASK = W_SUITS + 3
# The last rows of the search's candidate area (depth 39, never reached by a one-pack
# hand), kept between calls: each suit's covers in two ways (two players' hands alternate),
# keyed by its column (``_memo_key``; way w of suit s is memo row ``MEMO_ROWS * w + s``),
# and the pattern's state tables below them.
MEMO_WAYS = 2
MEMO_ROWS = 2 * N_SUITS
W_MEMO = W_FRAME - MEMO_WAYS * MEMO_ROWS  # row W_MEMO + r: key, then the cover per state
W_MEMO_MASK = W_MEMO + N_SUITS  # row W_MEMO_MASK + r: the kinds of each, from column 1
W_FITS = W_MEMO - MAX_DISTINCT - 2  # per state t: the states u part of t's, as bits
W_DIG = W_FITS + 1  # rows W_DIG + j: per state, its count of runs of distinct length j
W_MEMO_NEXT = W_DIG + MAX_DISTINCT  # per suit: the way to replace next; then the pattern
# whose state tables W_DIG and W_FITS hold (a tagged key), their number of states, and the
# whole-hand answer to replace next
W_RESULT = W_FITS - MEMO_WAYS  # row W_RESULT + w: a whole hand's answer (tagged hand, its
# pattern and layout, size, kinds), the last two hands asked about
RESULT_NEXT = N_SUITS + 2  # W_MEMO_NEXT's column: the whole-hand answer to replace next
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
def _states(work, counts, m):
    """Write the state tables (``W_DIG``: each state's digits, mixed radix with ``count + 1``
    per distinct length, the first lowest; ``W_FITS``: which states are part of which);
    returns how many states there are."""
    n_states = 1
    for j in range(m):
        n_states *= ((counts >> (NIBBLE * j)) & 0xF) + 1
    for j in range(m):
        work[W_DIG + j, 0] = 0
    for t in range(1, n_states):  # the next state: one more run, carrying
        for j in range(m):
            work[W_DIG + j, t] = work[W_DIG + j, t - 1]
        for j in range(m):
            if work[W_DIG + j, t] < (counts >> (NIBBLE * j)) & 0xF:
                work[W_DIG + j, t] += 1
                break
            work[W_DIG + j, t] = 0
    for t in range(n_states):
        fits = np.int64(0)
        for u in range(n_states):
            ok = True
            for j in range(m):
                if work[W_DIG + j, u] > work[W_DIG + j, t]:
                    ok = False
            if ok:
                fits |= np.int64(1) << u
        work[W_FITS, t] = fits
    return n_states


@kernel
def _memo_key(col, lengths, ace_rank):
    """What a suit's kept covers are valid for: its column, the pattern and the layout."""
    return MEMO_TAG | (ace_rank << 48) | ((lengths & 0xFFFFFF) << 16) | col


@kernel
def kinds_of_column(col, suit, ace_rank):
    """The kinds of the positions of ``col`` in ``suit``."""
    out = np.int64(0)
    while col != 0:
        p = lowest_bit(col)
        col &= col - 1
        out |= np.int64(1) << (rank_at(p, ace_rank) * N_SUITS + suit)
    return out


@kernel
def _suit_covers(work, col, s, r, lens, counts, m, n_states, n_pos, ace_rank):
    """The best cover of one suit's column per state (the runs of the state placed in this
    suit, not overlapping; -1 where they do not fit), into row ``W_MEMO + r`` from column 1
    and their kinds into ``W_MEMO_MASK + r``."""
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
                if lo >= 0 and work[W_DIG + j, t] > 0:
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
    for t in range(n_states):
        work[W_MEMO + r, 1 + t] = work[W_DP + n_pos, t]
        work[W_MEMO_MASK + r, 1 + t] = kinds_of_column(work[W_DP_MASK + n_pos, t], s, ace_rank)


@kernel
def cover(work, hand, lengths, ace_rank):
    """``(size, kinds)``: the hand's cover (module docstring) and the cards in it, of the
    first best placement found. Each suit's covers are kept (``W_MEMO``, two per suit) and
    reused while its cards stay the same, so a call after a draw or a discard searches
    one suit."""
    hand_key = MEMO_TAG | hand
    rules_key = (ace_rank << 32) | lengths
    for w in range(MEMO_WAYS):  # asked about this hand just before (a take, then a discard)
        if work[W_RESULT + w, 0] == hand_key and work[W_RESULT + w, 1] == rules_key:
            return work[W_RESULT + w, 2], work[W_RESULT + w, 3]
    lens, counts, m = _distinct(lengths)
    if work[W_MEMO_NEXT, N_SUITS] == MEMO_TAG | lengths:  # the state tables are there
        n_states = work[W_MEMO_NEXT, N_SUITS + 1]
    else:
        n_states = _states(work, counts, m)
        work[W_MEMO_NEXT, N_SUITS] = MEMO_TAG | lengths
        work[W_MEMO_NEXT, N_SUITS + 1] = n_states
    full = n_states - 1
    e = _to_positions(hand, ace_rank)
    n_pos = n_positions(ace_rank)
    for t in range(n_states):
        work[W_SUITS, t] = 0 if t == 0 else NONE
        work[W_SUITS_MASK, t] = 0
    for s in range(N_SUITS):
        col = suit_column(e, s, n_pos)
        key = _memo_key(col, lengths, ace_rank)
        r = s
        if work[W_MEMO + r, 0] != key:
            r = MEMO_ROWS + s
            if work[W_MEMO + r, 0] != key:  # in neither way: search it into the older
                r = s + MEMO_ROWS * (work[W_MEMO_NEXT, s] & 1)
                work[W_MEMO_NEXT, s] += 1
                _suit_covers(work, col, s, r, lens, counts, m, n_states, n_pos, ace_rank)
                work[W_MEMO + r, 0] = key
        for t in range(n_states):  # merge: t's runs split between the suits so far and s
            best = NONE
            best_mask = np.int64(0)
            fits = work[W_FITS, t]
            while fits != 0:  # u: the runs placed in suit s, a part of t's
                u = lowest_bit(fits)
                fits &= fits - 1
                a = work[W_SUITS, t - u]
                b = work[W_MEMO + r, 1 + u]
                if a < 0 or b < 0:
                    continue
                if a + b > best:
                    best = a + b
                    best_mask = work[W_SUITS_MASK, t - u] | work[W_MEMO_MASK + r, 1 + u]
            work[W_MERGE, t] = best
            work[W_MERGE_MASK, t] = best_mask
        for t in range(n_states):
            work[W_SUITS, t] = work[W_MERGE, t]
            work[W_SUITS_MASK, t] = work[W_MERGE_MASK, t]
    w = work[W_MEMO_NEXT, RESULT_NEXT] & 1
    work[W_MEMO_NEXT, RESULT_NEXT] += 1
    work[W_RESULT + w, 0] = hand_key
    work[W_RESULT + w, 1] = rules_key
    work[W_RESULT + w, 2] = work[W_SUITS, full]
    work[W_RESULT + w, 3] = work[W_SUITS_MASK, full]
    return work[W_SUITS, full], work[W_SUITS_MASK, full]
