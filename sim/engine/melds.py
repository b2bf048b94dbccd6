"""The meld library: run positions, melds through a card, and the best arrangement of a
hand (minimum deadwood) with a declared tie-break (RULES.md §1.2, §1.3, §1.13, §2A.4,
§2A.6, §2B.9).

**Card sets.** A hand is ``layers`` (``int64[MAX_LAYERS]``: bit ``k`` of ``layers[l]`` is
set when the hand holds more than ``l`` copies of natural kind ``k``; nested, so
``layers[l + 1]`` lies inside ``layers[l]``) plus a joker count. One pack is one layer.

**Melds.** Every meld has at least 3 cards and at least one natural card; a joker is
wild; under ``joker_limit = "not_more_than_naturals"`` (§2B.10) a meld holds no more jokers
than natural cards (``meldable`` then answers for melds without the limit: a superset,
which the search only spends frames on). A *group* is cards of one rank: with
``group_duplicates = forbidden`` one card per suit (so 3 or 4 cards, each joker taking a
missing suit), with ``allowed`` any suits, repeats included, 3 or more cards. A *run* is
one card on each of 3 to 13 consecutive *positions* (below), its naturals of one suit
(``run_suit = same_suit``) or of any suits; jokers stand on the positions no natural
holds.

**Positions** (§2A.4, §2A.7). ``low``: positions 0..12 are A, 2, ..., K. ``high``: 0..12 are
2, ..., K, A. ``high_or_low``: 0..13 are A, 2, ..., K, A, and a run never holds both ends (at
most 13 cards, so K-A-2 never forms). ``around_corner``: 0..12 are A..K and a run may wrap
past K (at most 13 cards). The 40-card pack (``strip_8_9_10``, ace low): 0..9 are A, 2, ...,
7, J, Q, K, so 6-7-J is a run. A *window* is a run's first position ``lo`` and its length.
The functions below take the layout (``run_layout``: an ``ace_rank`` code or
``RUNS_STRIPPED``) as ``ace_rank``.

**Candidates through a card** ``c`` (the lowest natural card not decided yet) are listed
in this declared order, each with one copy of ``c``:

1. groups of ``c``'s rank, by their natural cards' counts per suit ``(n_s, n_h, n_d, n_c)``
   compared as a tuple (spades first), then by jokers, fewest first;
2. runs, by window (``lo``, then length), then by what stands on each position from ``lo``
   up, compared position by position: a natural card of suit spades, hearts, diamonds,
   clubs (one suit only under ``same_suit``), then a joker. ``c`` stands on its own
   position.

They are *tried* in the reverse of that order, the last listed first: runs before groups,
the latest window and the longest run first, the fullest group first. The largest melds
usually make the best arrangement, so the first one found is usually best and the bound
prunes the rest.

**Best arrangement** (declared tie-break). Cards are decided from the lowest natural kind
up: the lowest undecided card goes into one of its candidates, in the order they are
tried, or is left in hand, tried last. Of all arrangements that leave the least value in
hand (jokers at their value in ``values``), the first in that order is chosen. Cards that
can no longer meld with the undecided cards are left in hand at once (this changes no
order: such a card has no candidate). ``tests/oracles/arrangement.py`` enumerates every
arrangement by brute force and picks the first optimal one in the same order.

**Forced cards** (``_forced_leaf``). With one pack, no jokers, runs of one suit and the ace
low (in the full pack or the 40-card one, where runs go through 7-J), undecided cards of
which none is both in a group and in a run need no choice: every
one that can meld is melded, and the first path below their frame is the answer there. The
lowest undecided card of a group rank takes the full group (tried first); that of a run
takes the run from its rank up as far as its suit holds cards (the latest window and the
longest run, tried first; the cards below it are decided). That path melds everything
meldable, so nothing after it below the frame can do better, and the rule above picks it.
So the search writes it directly and ends the path there (for most hands, at the root:
no frame at all); only the cards in both a group and a run are branched on. A stretch
longer than ``run_max``, or more melds than the caller allows, is searched as before.
Under the conditions below the same holds where they only ask for cards to be melded
(Conquian's ``keep``): the forced path melds every card that can meld, so it meets them
whenever a path below the frame does; an initial-meld count, a must-meld card or cards
kept apart are searched.

**Opening conditions** (§2D.24-25). Before a player's initial meld only arrangements whose
melds count at least ``minimum`` (``CA_OPEN``) and meld a given card take part; the same
search prunes the paths that can no longer meet them (their count plus what the
undecided cards could add is short, or the card is decided without a meld), and the rule
above picks among the rest; none meeting them: nothing is melded.

**Cards kept apart** (Phỏm's taken cards, §3.13). Only arrangements that meld every card
of a mask ``apart``, each in a meld of its own (no meld holds two of them), take part; a
candidate holding two is never tried, and a path that leaves one in hand is pruned like a
must-meld card.

**Cards that must all be melded** (Conquian's re-partition, §3.21, ``arrange_keeping``).
Only arrangements that meld every card of a mask ``keep`` (his own melds' cards and the
exposed card) take part; pruned the same way.

The search keeps its own stack in a workspace (``new_work``), one frame per decided card,
and lists each frame's candidates into it (at most ``MAX_CAND``; more sets
``S_TRUNCATED`` in the workspace's scalars; the meld tests check it stays 0).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_RANKS, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import allocating, kernel
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    ACE_LOW,
    BORROW_OFF,
    FAMILY_CONQUIAN,
    GROUP_DUPLICATES_ALLOWED,
    JLIMIT_NATURALS,
    P_ACE_RANK,
    P_BORROWING,
    P_FAMILY,
    P_GROUP_DUPLICATES,
    P_INITIAL_MELD_MIN,
    P_JOKER_LIMIT,
    P_MELD_TIMING,
    P_OPENING_ACE_LOW,
    P_PACKS,
    P_RUN_MAX,
    P_RUN_SUIT,
    P_STRIP_8_9_10,
    P_TONK_STOCK_CARD,
    RUN_ANY_SUIT,
    RUNS_STRIPPED,
    TIMING_PHOM_FINAL,
)
from sim.engine.specs import rule

MAX_LAYERS = 4  # copies of one kind: at most 4 packs (RULES.md §3.11)
MAX_RUN = 13  # a run never holds a rank twice
MAX_DEPTH = 40  # decided cards on the search stack (a hand's natural cards)
MAX_CAND = 256  # candidates listed through one card
MAX_BEST = MAX_DEPTH  # melds in one arrangement (each holds a decided card)
JOKER_DIGIT = 4  # what stands on a run position: suit 0..3, or a joker

FIRST_STRIPPED = 7  # the 40-card pack (§2A.7) lacks ranks 7..9 (8, 9, 10)
STRIPPED_RANKS = 3

MELD_GROUP = 0
MELD_RUN = 1

# ---- a candidate meld (one row of the workspace) --------------------------------------------
CA_TYPE = 0  # MELD_GROUP or MELD_RUN
CA_LO = 1  # group: its rank; run: its first position
CA_LEN = 2  # cards, jokers included
CA_SUIT = 3  # run of one suit: the suit; otherwise -1
CA_JOKERS = 4  # jokers in the meld
CA_VALUE = 5  # the value its cards would leave the hand with (``values``)
CA_SHAPE = 6  # group: natural count per suit, 4 bits each (spades lowest); run: 3 bits per
# position from lo up, JOKER_DIGIT for a joker
CA_TAKE = 7  # CA_TAKE + l: the meld's natural cards as layers (as a hand)
CA_OPEN = CA_TAKE + MAX_LAYERS  # what it counts toward an initial meld (§2D.24): naturals at
# their value, a joker at the value of the card it stands for, an ace low in a run (before a
# 2) at ``opening_ace_low`` when that is a number
N_CA = CA_OPEN + 1

# ---- the search's frame per depth ------------------------------------------------------
F_REST = 0  # F_REST + l: the undecided cards' layers
F_JOKERS = MAX_LAYERS  # undecided jokers
F_MELDED = MAX_LAYERS + 1  # value melded on the path so far
F_LEFT = MAX_LAYERS + 2  # value of the undecided cards (the bound: melded + left)
F_CARD = MAX_LAYERS + 3  # the card decided here (-1: only jokers are left)
F_N = MAX_LAYERS + 4  # candidates listed
F_NEXT = MAX_LAYERS + 5  # the next option to try (F_N: leave the card in hand)
F_MELDS = MAX_LAYERS + 6  # melds on the path so far
F_TAKEN = MAX_LAYERS + 7  # the option taken here on the current path (-1: left in hand)
F_OPEN = MAX_LAYERS + 8  # what the melds on the path count toward an initial meld
F_NEED = MAX_LAYERS + 9  # the cards the arrangement must still meld: natural kinds as bits,
# bit JOKER for a joker (``NEED_JOKER``)
N_F = MAX_LAYERS + 10

# ---- workspace rows ----------------------------------------------------------------------
W_CAND = 0  # MAX_DEPTH * MAX_CAND candidate rows
W_FRAME = W_CAND + MAX_DEPTH * MAX_CAND  # MAX_DEPTH frames
W_BEST = W_FRAME + MAX_DEPTH  # MAX_BEST rows: the best arrangement's melds
W_GROUP = W_BEST + MAX_BEST  # scratch of _list_groups: counts per suit, then their tops
W_DIGITS = W_GROUP + 1  # scratch of _list_runs: what stands on each position of a window
W_TMP = W_DIGITS + 1  # a scratch row for callers, between searches
W_SCAL = W_TMP + 1  # one row of scalars:
W_PICK = W_SCAL + 1  # MAX_CAND rows: a caller's own list of candidates, kept across searches
W_PATTERN = W_PICK + MAX_CAND  # PATTERN_ROWS rows kept between calls for ``patterns.cover``
PATTERN_PAIRS = 4096  # rows of merged pairs of suit tables (``patterns.W_PAIRS``)
PATTERN_ROWS = 3 * (1 << (N_RANKS + 1)) + PATTERN_PAIRS + 32  # three patterns' tables: a row
# per suit column of 14 run positions, the merged pairs, and a few rows of state tables and
# answers (``patterns.W_COVERS``)
W_ROWS = W_PATTERN + PATTERN_ROWS
W_COLS = max(N_CA, N_F, MAX_RUN, 2 * N_SUITS)
S_BEST_N = 0  # melds in the best arrangement
S_BEST_VALUE = 1  # its melded value
S_TRUNCATED = 2  # 1 when some card had more than MAX_CAND candidates (the audit counts it)
S_NODES = 3  # frames pushed (for measurements)


NEED_JOKER = np.int64(1) << JOKER  # F_NEED's bit for a joker that must be melded

N_PLANES = 6  # a card's value is at most 63
V_PLANES = JOKER + 1  # values[V_PLANES + b]: the natural kinds whose value has bit b set
N_VALUES = V_PLANES + N_PLANES


def value_table(per_kind: np.ndarray) -> np.ndarray:
    """The kernels' card values: ``int64[N_VALUES]``, each kind's value (RULES.md §1.9; the
    joker's at ``JOKER``) followed by its bit planes, so that the value of a mask of natural
    cards is a few popcounts (``mask_value``)."""
    values = np.zeros(N_VALUES, np.int64)
    values[: JOKER + 1] = per_kind[: JOKER + 1]
    if values[:JOKER].min() < 0 or values[:JOKER].max() >= 1 << N_PLANES:
        raise ValueError(f"card values must be 0..{(1 << N_PLANES) - 1}")
    for kind in range(JOKER):
        for b in range(N_PLANES):
            if (values[kind] >> b) & 1:
                values[V_PLANES + b] |= np.int64(1) << kind
    return values


@kernel
def mask_value(values, mask):
    """The total value of the natural cards of ``mask`` (``values`` from ``value_table``)."""
    total = 0
    for b in range(N_PLANES):
        total += popcount(mask & values[V_PLANES + b]) << b
    return total


@allocating
def new_work():
    """A search workspace (``int64[W_ROWS, W_COLS]``); one per thread of play."""
    return np.zeros((W_ROWS, W_COLS), np.int64)


# ---- positions (§2A.4) -----------------------------------------------------------------


@kernel
def run_layout(fx, params):
    """Where ranks stand on run positions: ``ace_rank``'s code, or ``RUNS_STRIPPED`` for the
    40-card pack (``strip_8_9_10``, which the rules model plays with the ace low)."""
    if rule(fx, params, P_STRIP_8_9_10):
        return np.int64(RUNS_STRIPPED)
    return rule(fx, params, P_ACE_RANK)


@kernel
def run_cap(fx, params):
    """The most cards a run may hold: ``run_max`` (13, Conquian 8: §1.3, §3.21)."""
    return rule(fx, params, P_RUN_MAX)


@kernel
def n_positions(ace_rank):
    """How many run positions exist: 14 under high_or_low, 10 in the 40-card pack, else 13."""
    if ace_rank == RUNS_STRIPPED:
        return N_RANKS - STRIPPED_RANKS
    return N_RANKS + 1 if ace_rank == ACE_HIGH_OR_LOW else N_RANKS


@kernel
def rank_at(pos, ace_rank):
    """The rank (0 = ace .. 12 = king) at run position ``pos`` (0 <= pos < 2 * 13; around
    the corner a position past K wraps)."""
    if ace_rank == RUNS_STRIPPED:
        return pos + STRIPPED_RANKS if pos >= FIRST_STRIPPED else pos
    if ace_rank == ACE_HIGH:
        pos += 1
    while pos >= N_RANKS:  # no division: at most two subtractions
        pos -= N_RANKS
    return pos


@kernel
def position_of(rank, ace_rank, which):
    """The ``which``-th (0 or 1) run position of ``rank``, or -1 (only an ace under
    high_or_low has a second one, 13; an 8, 9 or 10 has none in the 40-card pack)."""
    if which == 1:
        return N_RANKS if ace_rank == ACE_HIGH_OR_LOW and rank == 0 else -1
    if ace_rank == ACE_HIGH:
        return N_RANKS - 1 if rank == 0 else rank - 1
    if ace_rank == RUNS_STRIPPED and rank >= FIRST_STRIPPED:
        return rank - STRIPPED_RANKS if rank >= FIRST_STRIPPED + STRIPPED_RANKS else -1
    return rank


@kernel
def index_in_window(pos, lo, length, ace_rank):
    """Where position ``pos`` (>= 0) stands in the window (``lo``, ``length``), or -1."""
    i = pos - lo
    if ace_rank == ACE_AROUND_CORNER and i < 0:
        i += N_RANKS
    return i if 0 <= i < length else -1


# ---- card sets ---------------------------------------------------------------------------


@kernel
def copies(layers, n_layers, kind):
    """How many copies of natural ``kind`` the layered set holds."""
    n = 0
    for l in range(n_layers):
        if (layers[l] >> kind) & 1:
            n += 1
        else:
            break
    return n


@kernel
def remove_one_each(layers, n_layers, mask):
    """Remove one copy of every kind of ``mask`` (each must be held) from the set."""
    for l in range(n_layers - 1, -1, -1):
        x = mask & layers[l]
        layers[l] &= ~x
        mask &= ~x


@kernel
def lowest_kind(mask):
    """The lowest kind of a non-empty mask."""
    return lowest_bit(mask)


# ---- candidates through a card ----------------------------------------------------------


@kernel
def _emit(work, row, mtype, lo, length, suit, jokers, value, shape, opening):
    """Start candidate ``row``: its columns but the natural cards (cleared)."""
    work[row, CA_OPEN] = opening
    work[row, CA_TYPE] = mtype
    work[row, CA_LO] = lo
    work[row, CA_LEN] = length
    work[row, CA_SUIT] = suit
    work[row, CA_JOKERS] = jokers
    work[row, CA_VALUE] = value
    work[row, CA_SHAPE] = shape
    for l in range(MAX_LAYERS):
        work[row, CA_TAKE + l] = 0


@kernel
def _list_groups(fx, params, values, work, first, count, rest, n_layers, jokers, c):
    """Append the groups through ``c`` (declared order) after ``count`` rows at ``first``;
    returns the new count (``MAX_CAND`` at most; more sets ``S_TRUNCATED``)."""
    rank = c // N_SUITS
    suit_c = c % N_SUITS
    dups = rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED
    limited = rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS
    n = work[W_GROUP, 0:N_SUITS]  # naturals of each suit in the group being listed
    top = work[W_GROUP, N_SUITS : 2 * N_SUITS]  # copies of each suit it may take
    held = 0
    for t in range(N_SUITS):
        top[t] = copies(rest, n_layers, rank * N_SUITS + t)
        if not dups and top[t] > 1:
            top[t] = 1
        held += top[t]
        n[t] = 0
    if held + jokers < 3:
        return count
    n[suit_c] = 1
    while True:
        naturals = n[0] + n[1] + n[2] + n[3]
        for j in range(jokers + 1):
            size = naturals + j
            if size < 3 or (not dups and size > N_SUITS) or (limited and j > naturals):
                continue
            if count >= MAX_CAND:
                work[W_SCAL, S_TRUNCATED] = 1
                return count
            row = first + count
            value = j * values[JOKER]
            opening = j * values[rank * N_SUITS]  # a joker at its rank's value (§2D.24)
            shape = np.int64(0)
            for t in range(N_SUITS):
                value += n[t] * values[rank * N_SUITS + t]
                opening += n[t] * values[rank * N_SUITS + t]
                shape |= n[t] << (4 * t)
            _emit(
                work, row, np.int64(MELD_GROUP), rank, size, np.int64(-1), j, value, shape, opening
            )
            for t in range(N_SUITS):
                for l in range(n[t]):
                    work[row, CA_TAKE + l] |= np.int64(1) << (rank * N_SUITS + t)
            count += 1
        # next counts tuple, spades most significant (suit_c keeps at least 1)
        t = N_SUITS - 1
        while t >= 0:
            low = 1 if t == suit_c else 0
            if n[t] < top[t]:
                n[t] += 1
                break
            n[t] = low
            t -= 1
        if t < 0:
            return count


@kernel
def _natural_at(present, rank, suit, any_suit):
    """Does the set (``present``: one copy of each kind) hold a natural for ``rank`` in a
    run of ``suit`` (any suit under any_suit)?"""
    if any_suit:
        return (present >> (rank * N_SUITS)) & 0xF != 0
    return (present >> (rank * N_SUITS + suit)) & 1 == 1


@kernel
def _low_ace_change(values, lo, length, ace_rank, ace_low):
    """What an initial-meld count changes for the window (``lo``, ``length``): an ace on a
    position just before a 2 counts ``ace_low`` instead of its value (``ace_low`` < 0:
    nothing changes)."""
    if ace_low < 0:
        return 0
    for q in range(length - 1):
        if rank_at(lo + q, ace_rank) == 0 and rank_at(lo + q + 1, ace_rank) == 1:
            return ace_low - values[0]
    return 0


@kernel
def _list_window(
    values, work, first, count, present, jokers, lo, length, at, c, any_suit, ace_rank, ace_low,
    limited,
):  # fmt: skip
    """Append every run on window (``lo``, ``length``) with ``c`` on its position ``at``,
    in the declared order (what stands on each position, from ``lo`` up: suits 0..3, then
    a joker); returns the new count."""
    suit_c = c % N_SUITS
    if jokers == 0 and not any_suit:
        # every position holds a natural of c's suit (the caller saw none missing): the
        # only assignment, written without the odometer below
        if count >= MAX_CAND:
            work[W_SCAL, S_TRUNCATED] = 1
            return count
        take = np.int64(0)
        shape = np.int64(0)
        for q in range(length):
            take |= np.int64(1) << (rank_at(lo + q, ace_rank) * N_SUITS + suit_c)
            shape |= suit_c << (3 * q)
        row = first + count
        value = mask_value(values, take)
        _emit(
            work,
            row,
            np.int64(MELD_RUN),
            lo,
            length,
            suit_c,
            np.int64(0),
            value,
            shape,
            value + _low_ace_change(values, lo, length, ace_rank, ace_low),
        )
        work[row, CA_TAKE] = take
        return count + 1
    digit = work[W_DIGITS, 0:MAX_RUN]
    i = 0
    digit[0] = -1
    used = np.int64(0)  # jokers on positions before i
    while i >= 0:
        if digit[i] == JOKER_DIGIT:
            used -= 1  # position i gives its joker back to try its next option
        d = digit[i] + 1
        rank = rank_at(lo + i, ace_rank)
        found = -1
        while d <= JOKER_DIGIT:
            if i == at:
                if d <= suit_c:
                    found = suit_c
                break
            if d == JOKER_DIGIT:
                if used < jokers:
                    found = d
                break
            if (any_suit or d == suit_c) and (present >> (rank * N_SUITS + d)) & 1:
                found = d
                break
            d += 1
        if found < 0:
            digit[i] = -1
            i -= 1
            continue
        digit[i] = found
        if found == JOKER_DIGIT:
            used += 1
        if i < length - 1:
            i += 1
            digit[i] = -1
            continue
        if limited and 2 * used > length:
            continue  # more jokers than naturals (§2B.10)
        if count >= MAX_CAND:
            work[W_SCAL, S_TRUNCATED] = 1
            return count
        row = first + count
        value = used * values[JOKER]
        opening = _low_ace_change(values, lo, length, ace_rank, ace_low)
        shape = np.int64(0)
        take = np.int64(0)
        for q in range(length):
            shape |= digit[q] << (3 * q)
            if digit[q] != JOKER_DIGIT:
                kind = rank_at(lo + q, ace_rank) * N_SUITS + digit[q]
                take |= np.int64(1) << kind
                value += values[kind]
                opening += values[kind]
            else:  # a joker at the value of the card its position stands for (§2D.24)
                opening += values[rank_at(lo + q, ace_rank) * N_SUITS]
        _emit(
            work,
            row,
            np.int64(MELD_RUN),
            lo,
            length,
            -1 if any_suit else suit_c,
            used,
            value,
            shape,
            opening,
        )
        work[row, CA_TAKE] = take
        count += 1
    return count


@kernel
def _compress_nibbles(x):
    """Bit ``p`` of the result is bit ``4 * p`` of ``x`` (p < 16)."""
    x &= np.int64(0x1111111111111111)
    x = (x | (x >> 3)) & np.int64(0x0303030303030303)
    x = (x | (x >> 6)) & np.int64(0x000F000F000F000F)
    x = (x | (x >> 12)) & np.int64(0x000000FF000000FF)
    return (x | (x >> 24)) & np.int64(0xFFFF)


@kernel
def _expand_nibbles(x):
    """Bit ``4 * p`` of the result is bit ``p`` of ``x`` (p < 16; ``_compress_nibbles``'
    inverse)."""
    x &= np.int64(0xFFFF)
    x = (x | (x << 24)) & np.int64(0x000000FF000000FF)
    x = (x | (x << 12)) & np.int64(0x000F000F000F000F)
    x = (x | (x << 6)) & np.int64(0x0303030303030303)
    return (x | (x << 3)) & np.int64(0x1111111111111111)


@kernel
def _run_column(present, suit, any_suit, ace_rank):
    """Bit ``p`` set when a natural may stand on run position ``p`` of a run of ``suit``
    (any suit under any_suit); around the corner the 13 positions are written twice
    (bits 13..25 again), so that a wrapping window is a plain range of bits."""
    e = _to_positions(present, ace_rank)
    if any_suit:
        e = e | (e >> 1) | (e >> 2) | (e >> 3)
    else:
        e = e >> suit
    col = _compress_nibbles(e) & ((np.int64(1) << n_positions(ace_rank)) - 1)
    if ace_rank == ACE_AROUND_CORNER:
        col |= col << N_RANKS
    return col


@kernel
def _list_runs(fx, params, values, work, first, count, rest, jokers, c):
    """Append the runs through ``c`` (declared order: by window, then by what stands on
    each position); returns the new count. Only windows through one of ``c``'s positions
    with no more positions lacking a natural than there are jokers are visited."""
    ace_rank = run_layout(fx, params)
    any_suit = rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT
    ace_low = rule(fx, params, P_OPENING_ACE_LOW)
    limited = rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS
    suit_c = c % N_SUITS
    rank_c = c // N_SUITS
    present = rest[0]  # a run holds one card per rank: one copy is all it needs
    wrap = ace_rank == ACE_AROUND_CORNER
    col = _run_column(present, suit_c, any_suit, ace_rank)
    last = 2 * N_RANKS if wrap else n_positions(ace_rank)  # bits of col in use
    cap = run_cap(fx, params)
    for which in range(2):  # an ace's second position (13) has later windows than its first
        pos = position_of(rank_c, ace_rank, which)
        if pos < 0:
            continue
        first_lo = 0 if wrap else max(0, pos - cap + 1)
        last_lo = N_RANKS - 1 if wrap else pos
        for lo in range(first_lo, last_lo + 1):
            at = index_in_window(pos, lo, np.int64(MAX_RUN), ace_rank)  # c's place: bit lo + at
            before = ((np.int64(1) << at) - 1) << lo
            missing = at - popcount(col & before)
            if missing > jokers:
                continue
            for length in range(at + 1, cap + 1):
                end = lo + length - 1
                if end >= last:
                    break
                if length > at + 1 and (col >> end) & 1 == 0:
                    missing += 1
                    if missing > jokers:
                        break
                if length >= 3:
                    count = _list_window(
                        values,
                        work,
                        first,
                        count,
                        present,
                        jokers,
                        lo,
                        length,
                        at,
                        c,
                        any_suit,
                        ace_rank,
                        ace_low,
                        limited,
                    )
    return count


@kernel
def list_candidates(fx, params, values, work, first, rest, n_layers, jokers, c):
    """List the melds through natural card ``c`` (one copy of it) whose other cards come
    from the set (``rest``, ``jokers``; ``c`` included), in the declared order, into rows
    ``first``.. of ``work``; returns how many."""
    count = _list_groups(fx, params, values, work, first, np.int64(0), rest, n_layers, jokers, c)
    return _list_runs(fx, params, values, work, first, count, rest, jokers, c)


# ---- which cards could meld at all ---------------------------------------------------------

FULL = (np.int64(1) << 52) - 1  # every natural kind
ACES = np.int64(0xF)  # the four aces (rank 0)
SUIT0 = np.int64(0x1111111111111)  # spades of every rank: one bit per rank field
NIBBLES_ALL = np.int64(0x0FFFFFFFFFFFFFFF)  # 15 positions x 4 suits (high_or_low needs 14)
BELOW_STRIPPED = (np.int64(1) << (FIRST_STRIPPED * N_SUITS)) - 1  # A..7, every suit
STRIPPED_BITS = STRIPPED_RANKS * N_SUITS
STRIPPED_PACK = FULL & ~(((np.int64(1) << STRIPPED_BITS) - 1) << (FIRST_STRIPPED * N_SUITS))


@kernel
def _to_positions(h, ace_rank):
    """The kind mask ``h`` in position space: bit ``p * 4 + suit`` for a card on run
    position ``p``. Around the corner, A and 2 are copied past K (positions 13 and 14), so
    every window of three is a plain three-bit-apart pattern. In the 40-card pack J, Q, K
    move down to positions 7..9."""
    if ace_rank == ACE_HIGH:
        return (h >> 4) | ((h & ACES) << 48)
    if ace_rank == ACE_HIGH_OR_LOW:
        return h | ((h & ACES) << 52)
    if ace_rank == ACE_AROUND_CORNER:
        return h | ((h & np.int64(0xFF)) << 52)
    if ace_rank == RUNS_STRIPPED:
        return (h & BELOW_STRIPPED) | ((h >> STRIPPED_BITS) & ~BELOW_STRIPPED)
    return h


@kernel
def _from_positions(e, ace_rank):
    """Back from position space to kinds (the inverse of ``_to_positions``, copies merged)."""
    if ace_rank == ACE_HIGH:
        return ((e << 4) & FULL) | ((e >> 48) & ACES)
    if ace_rank == ACE_HIGH_OR_LOW or ace_rank == ACE_AROUND_CORNER:
        return (e | ((e >> 52) & np.int64(0xFF))) & FULL
    if ace_rank == RUNS_STRIPPED:
        return (e & BELOW_STRIPPED) | ((e & ~BELOW_STRIPPED) << STRIPPED_BITS) & FULL
    return e & FULL


@kernel
def partial_of(fx, params, present):
    """The natural kinds of the one-layer set ``present`` in a partial meld (docs/bots.md):
    another card of their rank, or a card of their suit (any suit under any_suit) at most
    two run positions away under the ace rule."""
    x0 = present & SUIT0
    x1 = (present >> 1) & SUIT0
    x2 = (present >> 2) & SUIT0
    x3 = (present >> 3) & SUIT0
    pairs = (x0 & (x1 | x2 | x3)) | (x1 & (x2 | x3)) | (x2 & x3)
    partial = (pairs * 0xF) & present
    ace_rank = run_layout(fx, params)
    e = _to_positions(present, ace_rank)
    if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        r = (e | (e >> 1) | (e >> 2) | (e >> 3)) & (SUIT0 | (SUIT0 << 52))
        near = (r << 4) | (r >> 4) | (r << 8) | (r >> 8)
        partial |= _from_positions((near & r) * 0xF, ace_rank) & present
    else:
        near = (e << 4) | (e >> 4) | (e << 8) | (e >> 8)
        partial |= _from_positions(near & e, ace_rank)
    return partial


@kernel
def partial_melds(fx, params, hand, n_layers):
    """The natural kinds of ``hand`` (layers) in a partial meld (``partial_of``), an
    identical pair included where a group may hold one."""
    partial = partial_of(fx, params, hand[0])
    if n_layers > 1 and rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED:
        partial |= hand[1]  # an identical pair
    return partial


@kernel
def _window_starts(ace_rank):
    """The positions where a run of three may start, as rank fields of all four suits."""
    if ace_rank == ACE_HIGH_OR_LOW:
        starts = 12  # 0..11: the last window is Q-K-A
    elif ace_rank == ACE_AROUND_CORNER:
        starts = 13  # 0..12 (11: Q-K-A, 12: K-A-2)
    elif ace_rank == RUNS_STRIPPED:
        starts = 8  # 0..7: the last window is J-Q-K
    else:
        starts = 11
    return (np.int64(1) << (4 * starts)) - 1


@kernel
def pack_kinds(fx, params):
    """The natural kinds a pack holds: all 52, or 40 without the 8s, 9s and 10s (§2A.7)."""
    return STRIPPED_PACK if rule(fx, params, P_STRIP_8_9_10) else FULL


@kernel
def _in_runs_of_three(e, jokers, ace_rank):
    """The cards of position mask ``e`` (one suit per bit column) in some window of three
    of their suit that ``jokers`` can complete."""
    a = e
    b = e >> 4
    c = e >> 8
    if jokers == 0:
        starts = a & b & c
    elif jokers == 1:
        starts = (a & b) | (a & c) | (b & c)
    else:
        return e
    starts &= _window_starts(ace_rank)
    return (starts | (starts << 4) | (starts << 8)) & e


@kernel
def meldable(fx, params, layers, n_layers, jokers):
    """The natural kinds of the hand (``layers``, ``jokers``) that are in some meld of it:
    a group of their rank, or a run through them (every meld holds a run of three or a
    group of three through each of its cards, so windows of three are enough)."""
    return _group_cards(fx, params, layers, n_layers, jokers) | _run_cards(
        fx, params, layers[0], jokers
    )


@kernel
def _group_cards(fx, params, layers, n_layers, jokers):
    """The natural kinds of the hand (``layers``, ``jokers``) in some group of it."""
    present = layers[0]
    dups = rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED
    need = 3 - jokers  # cards of a rank a group needs beside the jokers
    groups = np.int64(0)
    if need <= 1:
        groups = present
    elif dups and n_layers > 1:
        for r in range(N_RANKS):
            n = 0
            for l in range(n_layers):
                n += popcount((layers[l] >> (r * N_SUITS)) & 0xF)
            if n >= need:
                groups |= np.int64(0xF) << (r * N_SUITS)
        groups &= present
    else:
        x0 = present & SUIT0
        x1 = (present >> 1) & SUIT0
        x2 = (present >> 2) & SUIT0
        x3 = (present >> 3) & SUIT0
        if need == 3:
            enough = (x0 & x1 & (x2 | x3)) | ((x0 | x1) & x2 & x3)
        else:
            enough = (x0 & (x1 | x2 | x3)) | (x1 & (x2 | x3)) | (x2 & x3)
        groups = (enough * 0xF) & present
    return groups


@kernel
def _run_cards(fx, params, present, jokers):
    """The natural kinds of ``present`` (one copy of each kind held) in some run of them
    with ``jokers``."""
    ace_rank = run_layout(fx, params)
    e = _to_positions(present, ace_rank)
    if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        ranks = (e | (e >> 1) | (e >> 2) | (e >> 3)) & (SUIT0 | (SUIT0 << 52))
        runs = _in_runs_of_three(ranks, jokers, ace_rank)
        runs = (runs * 0xF) & e
    else:
        runs = _in_runs_of_three(e, jokers, ace_rank)
    return _from_positions(runs, ace_rank)


# ---- the best arrangement ------------------------------------------------------------------


@kernel
def _push(fx, params, values, work, depth, melded, left, melds, n_layers, keep, opening, need):
    """Complete frame ``depth`` (its undecided cards already written): leave in hand the
    cards that can no longer meld (those outside ``keep``, ``meldable`` of the cards: each
    would have no candidate, so deciding them here changes no order, and no frame is spent
    on them), then its card and candidates. ``left`` is the value of the cards written,
    jokers included; ``keep`` is not empty. ``opening`` and ``need``: the path's initial-meld
    count and whether its must-meld card is still to meld (``best_arrangement``)."""
    frame = W_FRAME + depth
    work[W_SCAL, S_NODES] += 1
    rest = work[frame, F_REST : F_REST + MAX_LAYERS]
    for l in range(n_layers):
        left -= mask_value(values, rest[l] & ~keep)
        rest[l] &= keep
    work[frame, F_MELDED] = melded
    work[frame, F_LEFT] = left
    work[frame, F_MELDS] = melds
    work[frame, F_OPEN] = opening
    work[frame, F_NEED] = need
    work[frame, F_NEXT] = 0
    c = lowest_kind(keep)
    work[frame, F_CARD] = c
    first = W_CAND + depth * MAX_CAND
    jokers = work[frame, F_JOKERS]
    work[frame, F_N] = list_candidates(fx, params, values, work, first, rest, n_layers, jokers, c)


@kernel
def record_path(rows, depth, frame, taken, cand, best):
    """Copy the melds taken on a search's path to ``depth`` into rows ``best``..: frame
    ``d`` (row ``frame + d``) took candidate ``rows[frame + d, taken]`` (-1: none) of its
    list, rows ``cand + d * MAX_CAND``... Returns the melds copied. (This search's and the
    table re-partition's, ``repartition.py``.)"""
    n = 0
    for d in range(depth):
        i = rows[frame + d, taken]
        if i >= 0:
            src = cand + d * MAX_CAND + i
            for col in range(N_CA):
                rows[best + n, col] = rows[src, col]
            n += 1
    return n


@kernel
def _record_best(work, depth, melded):
    """The path to ``depth`` is the best arrangement so far: copy its melds."""
    work[W_SCAL, S_BEST_N] = record_path(
        work, depth, np.int64(W_FRAME), np.int64(F_TAKEN), np.int64(W_CAND), np.int64(W_BEST)
    )
    work[W_SCAL, S_BEST_VALUE] = melded


@kernel
def _opening_bound(values, work, frame, top, by_opening):
    """The most the undecided cards of ``frame`` could add to an initial-meld count: the
    naturals at their value (an ace low in a run never counts more), each joker at ``top``,
    the highest natural value (``F_LEFT`` already counts them so under ``by_opening``)."""
    if by_opening:
        return work[frame, F_LEFT]
    jokers = work[frame, F_JOKERS]
    return work[frame, F_LEFT] + jokers * (top - values[JOKER])


@kernel
def _falls_short(values, work, frame, minimum, top, by_opening):
    """Can no arrangement through ``frame`` meet the conditions: the initial-meld count
    ``minimum`` out of reach, or a card it must still meld (``F_NEED``) no longer
    undecided?"""
    if work[frame, F_OPEN] + _opening_bound(values, work, frame, top, by_opening) < minimum:
        return True
    need = work[frame, F_NEED]
    if need == 0:
        return False
    if need & NEED_JOKER != 0 and work[frame, F_JOKERS] == 0:
        return True
    return need & ~NEED_JOKER & ~work[frame, F_REST] != 0


@kernel
def _last_needed(work, frame, c):
    """Is ``c``, the card ``frame`` decides, one the arrangement must still meld
    (``F_NEED``) and its last undecided copy? Then every path that leaves it in hand falls
    short (``_falls_short``): the search skips that option rather than list a frame's
    candidates only to drop it (Conquian's re-partition, where every table card is needed,
    pushed ~12% of its frames so)."""
    if c < 0:
        return False
    bit = np.int64(1) << c
    return work[frame, F_NEED] & bit != 0 and work[frame, F_REST + 1] & bit == 0


@kernel
def _need_of(must, apart):
    """The cards an arrangement must meld (``F_NEED``): ``must`` (a natural kind, ``JOKER``
    or -1: none) and every card of ``apart``."""
    need = apart
    if must >= 0:
        need |= np.int64(1) << must
    return need


@kernel
def _melded_bits(work, row):
    """What candidate ``row`` melds, as ``F_NEED`` bits: its kinds, and ``NEED_JOKER`` when
    it holds a joker."""
    bits = work[row, CA_TAKE]
    if work[row, CA_JOKERS] > 0:
        bits |= NEED_JOKER
    return bits


@kernel
def melds_card(work, row, must):
    """Does candidate ``row`` meld a copy of ``must`` (a natural kind, or ``JOKER``: any
    joker, jokers being identical)? (A candidate's first layer holds every kind it takes.)"""
    if must == JOKER:
        return work[row, CA_JOKERS] > 0
    return (work[row, CA_TAKE] >> must) & 1 == 1


@kernel
def _conditions_apply(fx, params):
    """Do the rules ever put conditions on an arrangement: an initial-meld threshold
    (§2D.24-25), borrowing (a card that must be melded, §2D.22) or Tonk's card drawn from
    the stock that must be played (§2L.48), Phỏm's taken cards (§3.13), or Conquian's
    exposed card and table melds (§3.21)?"""
    return (
        rule(fx, params, P_INITIAL_MELD_MIN) != 0
        or rule(fx, params, P_BORROWING) != BORROW_OFF
        or rule(fx, params, P_TONK_STOCK_CARD) == 1
        or rule(fx, params, P_MELD_TIMING) == TIMING_PHOM_FINAL
        or rule(fx, params, P_FAMILY) == FAMILY_CONQUIAN
    )


@kernel
def best_arrangement(fx, params, values, work, layers, jokers, limit, minimum, must, apart):
    """The best arrangement (module docstring) of the hand ``layers`` (``int64`` layers,
    ``packs`` of them) plus ``jokers``, with at most ``limit`` melds (0: any number), among
    those whose melds count at least ``minimum`` toward an initial meld (``CA_OPEN``,
    §2D.24; 0: no threshold), meld a copy of natural kind ``must`` (``JOKER``: a joker;
    -1: nothing; §2D.25's discard taken for the initial meld, §2D.22's borrowed card) and
    meld every card of the mask ``apart``, each in a meld of its own (Phỏm's taken cards,
    §3.13; 0: none). The conditions apply only under an initial-meld rule
    (``initial_meld_min`` > 0), ``borrowing``, Tonk's stock card or Phỏm (a spec fixing
    them off folds them away). Writes its melds to ``work`` rows ``W_BEST``..
    (``S_BEST_N`` of them; none when no arrangement meets the conditions) and returns the
    value they take out of the hand (``values`` from ``value_table``; the deadwood is the
    hand's value less this).

    Under the conditions the search runs twice: first for the most an arrangement (holding
    ``must``) can count toward the initial meld, which settles at once whether any meets
    ``minimum`` (before a player opens, most turns it does not); then for the least
    deadwood among those that do, its bound starting just below the first answer's value
    (that arrangement meets the conditions, so the best one is worth at least as much, and
    the declared order still decides among equals). With nothing to count (``minimum`` <=
    0), only cards to meld, one pass of the second kind (no floor) gives the same
    arrangement."""
    if not _conditions_apply(fx, params) or (minimum <= 0 and must < 0 and apart == 0):
        return _search(
            fx, params, values, work, layers, jokers, limit, np.int64(0), np.int64(-1),
            np.int64(0), np.bool_(False), np.bool_(False), np.int64(-1), np.int64(0),
        )  # fmt: skip
    if minimum <= 0:
        return _search(
            fx, params, values, work, layers, jokers, limit, np.int64(0), must, apart,
            np.bool_(True), np.bool_(False), np.int64(-1), np.int64(0),
        )  # fmt: skip
    most = _search(
        fx, params, values, work, layers, jokers, limit, np.int64(0), must, apart,
        np.bool_(True), np.bool_(True), np.int64(-1), np.int64(0),
    )  # fmt: skip
    if work[W_SCAL, S_BEST_N] == 0 or most < minimum:
        work[W_SCAL, S_BEST_N] = 0
        work[W_SCAL, S_BEST_VALUE] = 0
        return 0
    floor = np.int64(-1)
    for m in range(work[W_SCAL, S_BEST_N]):
        floor += work[W_BEST + m, CA_VALUE]
    return _search(
        fx, params, values, work, layers, jokers, limit, minimum, must, apart, np.bool_(True),
        np.bool_(False), floor, np.int64(0),
    )  # fmt: skip


@kernel
def arrange_keeping(fx, params, values, work, layers, jokers, limit, keep, floor):
    """The best arrangement (as ``best_arrangement`` writes it) of the set ``layers`` plus
    ``jokers`` with at most ``limit`` melds (0: any) among those that meld every card of the
    mask ``keep`` and meld more than ``floor`` (-1: any; a caller that knows an arrangement
    worth ``floor + 1`` gets the same answer sooner); returns its melded value, 0 when none
    does. Conquian's re-partition of its own melds with the exposed card and hand cards
    (§3.21, ``conquian.py``)."""
    return _search(
        fx, params, values, work, layers, jokers, limit, np.int64(0), np.int64(-1), np.int64(0),
        np.bool_(True), np.bool_(False), floor, keep,
    )  # fmt: skip


@kernel
def _plain_runs(fx, params):
    """Are runs of one suit with the ace low, in the full pack or the 40-card one, so that a
    card's run neighbours are the kinds one position above and below it in position space
    (``_to_positions``: the kinds themselves, or J, Q, K moved down next to the 7;
    ``_forced_count``)?"""
    layout = run_layout(fx, params)
    return (layout == ACE_LOW or layout == RUNS_STRIPPED) and rule(
        fx, params, P_RUN_SUIT
    ) != RUN_ANY_SUIT


@kernel
def _forced_count(fx, params, groups, runs):
    """The melds of the forced arrangement (module docstring, "Forced hands") of the cards
    ``groups`` (in some group, not in a run) and ``runs`` (in some run, not in a group): a
    group per rank and a run per stretch of one suit; -1 when a stretch is longer than
    ``run_max`` (the search then decides how to cut it). Runs are counted in position
    space (``_plain_runs``)."""
    e = _to_positions(runs, run_layout(fx, params))
    cap = run_cap(fx, params)
    if cap < N_RANKS:
        chain = e
        for i in range(1, cap + 1):
            chain &= e >> (N_SUITS * i)
        if chain != 0:
            return -1
    ranks = (groups | (groups >> 1) | (groups >> 2) | (groups >> 3)) & SUIT0
    return popcount(ranks) + popcount(e & ~(e << N_SUITS))


@kernel
def _write_forced(fx, params, values, work, row, groups, runs):
    """Write the forced arrangement of ``groups`` and ``runs`` (``_forced_count``) as rows
    ``row``.., in the order the search takes its melds: by their lowest card."""
    ace_low = rule(fx, params, P_OPENING_ACE_LOW)
    layout = run_layout(fx, params)
    last = n_positions(layout)
    rest = groups | runs
    while rest != 0:
        c = lowest_kind(rest)
        rank = c // N_SUITS
        suit = c % N_SUITS
        shape = np.int64(0)
        if (groups >> c) & 1:  # the full group of its rank
            take = rest & (np.int64(0xF) << (rank * N_SUITS))
            for t in range(N_SUITS):
                shape |= ((take >> (rank * N_SUITS + t)) & 1) << (4 * t)
            mtype = MELD_GROUP
            lo = rank
            length = popcount(take)
            meld_suit = -1
            change = 0
        else:  # the run from its position up as far as its suit holds cards
            lo = position_of(rank, layout, np.int64(0))
            take = np.int64(0)
            length = np.int64(0)
            while lo + length < last:
                kind = rank_at(lo + length, layout) * N_SUITS + suit
                if (rest >> kind) & 1 == 0:
                    break
                take |= np.int64(1) << kind
                shape |= np.int64(suit) << (3 * length)
                length += 1
            mtype = MELD_RUN
            meld_suit = suit
            change = _low_ace_change(values, lo, length, layout, ace_low)
        value = mask_value(values, take)
        _emit(
            work, row, np.int64(mtype), lo, length, np.int64(meld_suit), np.int64(0), value,
            shape, value + change,
        )  # fmt: skip
        work[row, CA_TAKE] = take
        rest &= ~take
        row += 1


@kernel
def _forced_leaf(fx, params, values, work, depth, melded, melds, groups, runs, limit):
    """End the search's path at frame ``depth`` (frames below it decided; ``melded`` and
    ``melds``: their value and count) when its undecided cards are forced (``groups`` and
    ``runs`` share no card): record the path plus the forced melds when that beats the best
    found. Returns False, changing nothing, when the forced arrangement would cut a run or
    exceed ``limit`` melds (0: any): the frame is then searched."""
    n = _forced_count(fx, params, groups, runs)
    if n < 0 or (limit > 0 and melds + n > limit):
        return False
    total = melded + mask_value(values, groups | runs)
    if total > work[W_SCAL, S_BEST_VALUE]:
        m = record_path(
            work, depth, np.int64(W_FRAME), np.int64(F_TAKEN), np.int64(W_CAND), np.int64(W_BEST)
        )
        _write_forced(fx, params, values, work, W_BEST + m, groups, runs)
        work[W_SCAL, S_BEST_N] = m + n
        work[W_SCAL, S_BEST_VALUE] = total
    return True


@kernel
def _search(fx, params, values, work, layers, jokers, limit, minimum, must, apart, gate,
            by_opening, floor, also):  # fmt: skip
    """The branch-and-bound search of ``best_arrangement``: the first arrangement, in the
    declared order, of the greatest worth above ``floor`` (the melded value, or under
    ``by_opening`` what it counts toward an initial meld); under ``gate`` only arrangements
    that count at least ``minimum``, meld ``must`` and meld the cards of ``apart`` each in a
    meld of its own take part, and meld every card of the mask ``also`` (``arrange_keeping``).
    Writes them as ``best_arrangement`` says and returns their worth (0 when none)."""
    # read again here, so that a spec fixing both rules off folds the conditions away
    gate = gate and _conditions_apply(fx, params)
    by_opening = by_opening and gate
    n_layers = rule(fx, params, P_PACKS)
    work[W_SCAL, S_BEST_N] = 0
    work[W_SCAL, S_BEST_VALUE] = floor
    work[W_SCAL, S_TRUNCATED] = 0
    # one pack, no jokers, plain runs: a frame whose cards are forced ends its path at once;
    # under the conditions only where they just ask for cards melded (``also``, Conquian):
    # the forced path melds every card that can meld
    only_also = minimum <= 0 and must < 0 and apart == 0 and not by_opening
    forcing = (not gate or only_also) and n_layers == 1 and _plain_runs(fx, params)
    groups = _group_cards(fx, params, layers, n_layers, jokers)
    runs = _run_cards(fx, params, layers[0], jokers)
    keep = groups | runs
    need = (_need_of(must, apart) | also) if gate else np.int64(0)
    if not gate:
        apart = np.int64(0)
    if keep == 0 or need & ~NEED_JOKER & ~keep != 0:
        work[W_SCAL, S_BEST_VALUE] = 0  # nothing melds (most hands of a turn): no search
        return 0
    if forcing and jokers == 0 and groups & runs == 0:
        if _forced_leaf(
            fx, params, values, work, np.int64(0), np.int64(0), np.int64(0), groups, runs, limit
        ):
            return _answer(work)
    top = np.int64(0)
    if gate:
        for kind in range(0, JOKER, N_SUITS):
            top = max(top, values[kind])
    # the bound: what the undecided cards could add (a joker at most ``top`` toward an
    # initial meld; a natural card never more than its value)
    left = jokers * (top if by_opening else values[JOKER])
    for l in range(MAX_LAYERS):
        work[W_FRAME, F_REST + l] = layers[l] if l < n_layers else 0
        if l < n_layers:
            left += mask_value(values, layers[l])
    work[W_FRAME, F_JOKERS] = jokers
    _push(
        fx, params, values, work, np.int64(0), np.int64(0), left, np.int64(0), n_layers, keep,
        np.int64(0), need,
    )  # fmt: skip
    depth = 0
    while depth >= 0:
        frame = W_FRAME + depth
        melded = work[frame, F_MELDED]
        c = work[frame, F_CARD]
        if melded + work[frame, F_LEFT] <= work[W_SCAL, S_BEST_VALUE]:
            depth -= 1  # nothing below can do better than the best found
            continue
        if gate and _falls_short(values, work, frame, minimum, top, by_opening):
            depth -= 1  # nothing below meets the opening conditions
            continue
        if depth + 1 >= MAX_DEPTH:
            work[W_SCAL, S_TRUNCATED] = 1
            depth -= 1
            continue
        step = work[frame, F_NEXT]
        n = work[frame, F_N]
        melds = work[frame, F_MELDS]
        if step < n and limit > 0 and melds >= limit:
            step = n  # no more melds: the card stays in hand
        if step == n and melded + work[frame, F_LEFT] - values[c] <= work[W_SCAL, S_BEST_VALUE]:
            step = n + 1  # leaving the card in hand cannot beat the best found
        if step == n and gate and _last_needed(work, frame, c):
            step = n + 1  # left in hand, a card the arrangement must meld never is
        if step > n:
            depth -= 1
            continue
        work[frame, F_NEXT] = step + 1
        option = n - 1 - step if step < n else n  # candidates from the last listed
        if option < n and apart != 0:
            if popcount(work[W_CAND + depth * MAX_CAND + option, CA_TAKE] & apart) > 1:
                continue  # two cards that must stay apart: never tried
        child = frame + 1
        for l in range(MAX_LAYERS):
            work[child, F_REST + l] = work[frame, F_REST + l]
        jokers = work[frame, F_JOKERS]
        rest = work[child, F_REST : F_REST + MAX_LAYERS]
        opening = work[frame, F_OPEN]
        need = work[frame, F_NEED]
        if option < n:
            row = W_CAND + depth * MAX_CAND + option
            for l in range(MAX_LAYERS):
                if work[row, CA_TAKE + l] != 0:
                    remove_one_each(rest, n_layers, work[row, CA_TAKE + l])
            jokers -= work[row, CA_JOKERS]
            value = work[row, CA_OPEN] if by_opening else work[row, CA_VALUE]
            work[frame, F_TAKEN] = option
            child_melds = melds + 1
            if gate:
                opening += work[row, CA_OPEN]
                need &= ~_melded_bits(work, row)
        else:
            remove_one_each(rest, n_layers, np.int64(1) << c)
            value = 0
            work[frame, F_TAKEN] = -1
            child_melds = melds
        work[child, F_JOKERS] = jokers
        if rest[0] == 0:
            keep = np.int64(0)
        elif forcing and jokers == 0:
            groups = _group_cards(fx, params, rest, n_layers, jokers)
            runs = _run_cards(fx, params, rest[0], jokers)
            keep = groups | runs
            if keep != 0 and groups & runs == 0 and (not gate or need & ~keep == 0):
                if _forced_leaf(
                    fx, params, values, work, depth + 1, melded + value, child_melds, groups,
                    runs, limit,
                ):  # fmt: skip
                    continue
        else:
            keep = meldable(fx, params, rest, n_layers, jokers)
        # the bound drops by what the decision used up (toward an initial meld a meld's
        # jokers may count less than ``top``: the bound then stays an upper bound)
        child_left = work[frame, F_LEFT] - (value if option < n else values[c])
        if keep == 0:  # nothing more melds below: the path ends here, no frame needed
            meets = not gate or (opening >= minimum and need == 0)
            if meets and melded + value > work[W_SCAL, S_BEST_VALUE]:
                _record_best(work, depth + 1, melded + value)
            continue
        _push(
            fx, params, values, work, depth + 1, melded + value, child_left, child_melds,
            n_layers, keep, opening, need,
        )  # fmt: skip
        depth += 1
    return _answer(work)


@kernel
def _answer(work):
    """The search's worth: the best arrangement's, 0 when none was found above the floor."""
    if work[W_SCAL, S_BEST_N] == 0 and work[W_SCAL, S_BEST_VALUE] != 0:
        work[W_SCAL, S_BEST_VALUE] = 0  # none found above the floor
    return work[W_SCAL, S_BEST_VALUE]
