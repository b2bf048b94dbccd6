"""The table re-partition search of Carousel's meld action (RULES.md §3.16, §2D.23
``rearrange = table``, §2B.12 ``joker_replace = reuse_same_turn`` in seed 001's reading).

**The question.** A player holds a hand (``hand``, layered like every card set of
``melds.py``, plus jokers); the table holds melds whose cards are given as one layered set of
natural cards plus its jokers, each joker with the card it was declared as. A meld action
re-partitions the table's cards and some of the hand's into legal melds: every table card
melded again (no table card goes into a hand), at least one hand card played, every meld
legal (the meld rules of ``melds.py``: carousel's groups of 3-4 distinct suits, runs of 3+
of one suit, the ace high or low, no K-A-2). Of those re-partitions the search returns one
that plays the most value out of the hand (the least left in it, which is what a knock and
the round's score count), the first in a declared order on ties (below).

**Declared jokers** (§3.16 "Jokers"). A table joker declared as card ``d`` keeps that
identity unless a natural ``d`` replaces it; a joker so freed must be melded again in the
same action (it never leaves the table). Read on a re-partition, where positions are not
kept: each table joker is either *kept* (it stands for ``d`` in the new melds: the search
treats it as one more copy of ``d`` that must be melded, and a group never holds it beside
a natural ``d``, identical cards being forbidden) or *freed* (it is a wild joker that must
be melded, and the new melds hold at least as many natural ``d`` as jokers declared ``d``
were freed: the replacing cards, from the hand or from another table meld). The search
tries every kept/freed choice of the table's jokers (at most two jokers: four choices),
all kept first, and keeps the best; a hand joker played is wild and declared by where it
stands.

**A quick no.** Without a joker in hand, an action must meld a natural hand card; when
no hand card is in any meld of all the cards on hand (``melds.meldable`` of the table, the
hand, every table joker both as its card and as a wild joker) there is none, and the
search is skipped (most calls in play: a turn draws up to three times).

**The search** is ``melds.py``'s branch and bound, with counts: the pool (table and hand
cards) is decided from the lowest natural kind up; the lowest undecided copy goes into one
of its candidate melds (``melds.list_candidates``, tried from the last listed) or stays in
hand, which only a hand copy may do (the undecided copies of a kind never fall below the
copies the table still needs melded). A path is cut when the value it has melded plus all
that is undecided cannot beat the best found, or when a card the table needs can no longer
meld (``melds.meldable``). Every table card is melded on every complete path, so a
re-partition plays hand cards exactly when its melded value exceeds the table's value
(every card's value is positive under §3.16: the ace 1, the joker 25): the search starts
its bound there (``floor``).

**Which re-partition** (declared tie-break; ``tests/oracles/repartition.py``'s
``best_repartition`` finds the same by brute force, and the oracle hand plays it). Of the
re-partitions that play the most hand value (and more than ``better_than``), the first in
this order:

1. the table jokers' kept/freed choice: the choices in the order of their freed mask
   counted up (bit ``j``: table joker ``j``, in the order of ``declared``, freed), so all
   kept first, then joker 0 freed alone, joker 1 alone, both (three or four jokers: the
   same count); a later choice is taken only when it plays more;
2. within that choice, the *decision sequence*: the pool's copies (the table's cards, each
   kept joker as a copy of its card, the hand's natural cards) are decided from the lowest
   natural kind up; the lowest undecided copy goes into one of its candidate melds (those of
   ``melds.list_candidates`` through it over the undecided cards and jokers, hand jokers and
   freed ones alike) in the reverse of their listed order, that is from the largest meld key
   down in ``tests/oracles/arrangement.py``'s keys (a group ``(0, n_s, n_h, n_d, n_c,
   jokers)``, a run ``(1, lo, length, d_0, ..., d_{length-1})`` with ``d_i`` the suit 0..3
   of the natural on the i-th position or 4 for a joker, compared as tuples: runs before
   groups; runs from the latest first position down, then the longest first, then position
   by position from ``lo`` a joker before a natural; groups by their naturals' counts per
   suit, spades first, the larger first, then the one with more jokers), or stays in hand,
   tried after every meld and only while the undecided copies of its kind outnumber the
   table's copies still to be melded. Sequences compare decision by decision.
   Copies that no meld of the undecided cards can hold any more are left in hand without a
   decision (this changes no order: they have no candidate).

So the first path of the branch and bound that plays the most is the answer: the bound
cuts only paths that cannot beat the best found, a later path replaces it only when it
plays strictly more, and ``better_than``, ``must`` and the quick no change no order. The
melds come out in the order they are decided (``RW_BEST``: by their lowest card, copies of
one kind in the order their melds were tried). A call that reaches ``node_cap`` or cuts a
list short (``RP_CAPPED``, ``RP_TRUNCATED``) returns the best it found, not necessarily
this one.

``node_cap`` bounds the frames pushed by one call (0: no bound); a call that reaches it
returns the best found so far and sets ``RP_CAPPED`` (a miss the oracle counts,
``tests/oracles/repartition.py``). ``better_than`` raises the bound: only a re-partition
playing more hand value than that is searched for (a caller that already has an answer, such
as new melds from the hand alone, asks only for a better one; 0: any), and ``must`` narrows
the quick no below to the hand cards an action must play.

**In play** (``sim.engine.carousel``) the workspace lies in the rows of the play's search
workspace after ``melds.W_ROWS`` (``table_work``: only when ``rearrange = table``), so the
one turn loop passes no array more.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import popcount
from sim.engine.jit import allocating, kernel
from sim.engine.layout import P_REARRANGE, REARRANGE_TABLE
from sim.engine.melds import (
    CA_JOKERS,
    CA_TAKE,
    CA_VALUE,
    MAX_CAND,
    MAX_LAYERS,
    N_CA,
    S_TRUNCATED,
    W_COLS,
    W_PICK,
    W_ROWS,
    W_SCAL,
    copies,
    list_candidates,
    lowest_kind,
    mask_value,
    meldable,
    record_path,
    remove_one_each,
)
from sim.engine.specs import rule

RP_DEPTH = 96  # decided copies on the stack (table and hand cards together)
MAX_TABLE_JOKERS = 4

# ---- a frame ---------------------------------------------------------------------------
RF_REST = 0  # RF_REST + l: the undecided cards' layers
RF_NEED = MAX_LAYERS  # RF_NEED + l: the table's cards not melded yet (inside RF_REST)
RF_JOKERS = 2 * MAX_LAYERS  # undecided jokers
RF_NEED_J = 2 * MAX_LAYERS + 1  # jokers the table still needs melded
RF_MELDED = 2 * MAX_LAYERS + 2  # value melded on the path
RF_LEFT = 2 * MAX_LAYERS + 3  # value of the undecided cards
RF_CARD = 2 * MAX_LAYERS + 4  # the kind decided here
RF_N = 2 * MAX_LAYERS + 5  # candidates listed
RF_NEXT = 2 * MAX_LAYERS + 6  # the next option (RF_N: the copy stays in hand)
RF_TAKEN = 2 * MAX_LAYERS + 7  # the option taken on the current path (-1: left in hand)
N_RF = 2 * MAX_LAYERS + 8

# ---- the workspace (``new_rp``) --------------------------------------------------------
RW_CAND = 0  # RP_DEPTH * MAX_CAND candidate rows
RW_FRAME = RW_CAND + RP_DEPTH * MAX_CAND  # RP_DEPTH frames
RW_BEST = RW_FRAME + RP_DEPTH  # RP_DEPTH rows: the best re-partition's melds (candidate rows)
RW_TRY = RW_BEST + RP_DEPTH  # RP_DEPTH rows: the best of the current joker choice
RW_POOL = RW_TRY + RP_DEPTH  # scratch: the pool of the joker choice being searched
RW_NEED = RW_POOL + 1  # scratch: the table cards it must meld
RW_SCAL = RW_NEED + 1
RW_ROWS = RW_SCAL + 1
RW_COLS = max(N_CA, N_RF)
RP_BEST_N = 0  # melds in the best re-partition
RP_GAIN = 1  # hand value it plays (0: none found)
RP_FREED = 2  # bit j: table joker j is freed in it
RP_NODES = 3  # frames pushed by the call
RP_CAPPED = 4  # 1 when the call reached node_cap
RP_TRUNCATED = 5  # 1 when a card had more than MAX_CAND candidates
RP_TRY_N = 6  # melds of the current choice's best
RP_POOL = 7  # RP_POOL + l: the pool of the best re-partition's choice (table + hand)
RW_KEPT = N_CA  # a best row's column: the kinds of the kept jokers it holds (play: carousel)

# ---- in play: the rows after the meld search's (``table_work``) ------------------------
W_RP = W_ROWS  # the re-partition workspace: RW_ROWS rows
W_TABLE = W_RP + RW_ROWS  # the table as the search takes it: layers, then declared jokers
TB_DECLARED = MAX_LAYERS  # W_TABLE row: TB_DECLARED + j, the card table joker j stands for
TB_JOKERS = TB_DECLARED + MAX_TABLE_JOKERS  # W_TABLE row: the table's jokers
W_PLAN = W_TABLE + 1  # a caller's plan of lay-offs: its count, then one entry a column
W_LEFT = W_PLAN + 1  # a caller's scratch layers (the hand left after some melds)
TABLE_WORK_ROWS = W_LEFT + 1
TABLE_WORK_COLS = max(W_COLS, RW_COLS, TB_JOKERS + 1)


@allocating
def new_rp():
    """A re-partition workspace (``int64[RW_ROWS, RW_COLS]``); one per thread of play."""
    return np.zeros((RW_ROWS, RW_COLS), np.int64)


@allocating
def table_work(fx, params):
    """The play's search workspace: ``melds.new_work``'s rows, and under ``rearrange =
    table`` (Carousel) the re-partition's rows after them (``W_RP``, ``W_TABLE``)."""
    if rule(fx, params, P_REARRANGE) == REARRANGE_TABLE:
        return np.zeros((TABLE_WORK_ROWS, TABLE_WORK_COLS), np.int64)
    return np.zeros((W_ROWS, W_COLS), np.int64)


@kernel
def _push(fx, params, values, work, rp, depth, melded):
    """Complete frame ``depth`` (its rest, need and jokers written): the copies that cannot
    meld any more stay in hand (none of them may be the table's); then its card and its
    candidates. Returns 1 for a frame to explore, 0 for a complete path (nothing left to
    meld: recorded when it beats the best), -1 for a dead end."""
    frame = RW_FRAME + depth
    rp[RW_SCAL, RP_NODES] += 1
    rest = rp[frame, RF_REST : RF_REST + MAX_LAYERS]
    need = rp[frame, RF_NEED : RF_NEED + MAX_LAYERS]
    jokers = rp[frame, RF_JOKERS]
    keep = np.int64(0)
    if rest[0] != 0:
        keep = meldable(fx, params, rest, np.int64(MAX_LAYERS), jokers)
    if need[0] & ~keep != 0:
        return -1  # a table card that no meld can hold any more
    left = jokers * values[JOKER]
    for l in range(MAX_LAYERS):
        rest[l] &= keep
        left += mask_value(values, rest[l])
    rp[frame, RF_MELDED] = melded
    rp[frame, RF_LEFT] = left
    if keep == 0:  # only jokers may be left: they meld nowhere without a natural card
        if rp[frame, RF_NEED_J] > 0:
            return -1
        if melded > rp[RW_SCAL, RP_GAIN]:
            _record(rp, depth, melded)
        return 0
    c = lowest_kind(keep)
    rp[frame, RF_CARD] = c
    rp[frame, RF_NEXT] = 0
    n = list_candidates(fx, params, values, work, np.int64(W_PICK), rest, np.int64(MAX_LAYERS),
                        jokers, c)  # fmt: skip
    if work[W_SCAL, S_TRUNCATED] != 0:
        rp[RW_SCAL, RP_TRUNCATED] = 1
        work[W_SCAL, S_TRUNCATED] = 0
    first = RW_CAND + depth * MAX_CAND
    for i in range(n):
        for col in range(N_CA):
            rp[first + i, col] = work[W_PICK + i, col]
    rp[frame, RF_N] = n
    return 1


@kernel
def _record(rp, depth, melded):
    """The path to ``depth`` is the best of this joker choice so far: copy its melds."""
    rp[RW_SCAL, RP_TRY_N] = record_path(
        rp, depth, np.int64(RW_FRAME), np.int64(RF_TAKEN), np.int64(RW_CAND), np.int64(RW_TRY)
    )
    rp[RW_SCAL, RP_GAIN] = melded


@kernel
def _search(fx, params, values, work, rp, pool, need, jokers, need_jokers, floor, node_cap):
    """The best melded value above ``floor`` of the pool (``pool`` layers plus ``jokers``)
    that melds every card of ``need`` and ``need_jokers`` jokers; its melds in ``RW_TRY``
    rows (``RP_TRY_N``), or 0 (none above ``floor``). Reaching ``node_cap`` frames
    (counted over the whole call in ``RP_NODES``) sets ``RP_CAPPED`` and stops."""
    rp[RW_SCAL, RP_TRY_N] = 0
    rp[RW_SCAL, RP_GAIN] = floor
    frame = RW_FRAME
    for l in range(MAX_LAYERS):
        rp[frame, RF_REST + l] = pool[l]
        rp[frame, RF_NEED + l] = need[l]
    rp[frame, RF_JOKERS] = jokers
    rp[frame, RF_NEED_J] = need_jokers
    depth = 0
    if _push(fx, params, values, work, rp, np.int64(0), np.int64(0)) != 1:
        depth = -1
    while depth >= 0:
        if node_cap > 0 and rp[RW_SCAL, RP_NODES] >= node_cap:
            rp[RW_SCAL, RP_CAPPED] = 1
            break
        if depth + 1 >= RP_DEPTH:
            rp[RW_SCAL, RP_TRUNCATED] = 1
            depth -= 1
            continue
        frame = RW_FRAME + depth
        melded = rp[frame, RF_MELDED]
        best = rp[RW_SCAL, RP_GAIN]
        if melded + rp[frame, RF_LEFT] <= best:
            depth -= 1
            continue
        c = rp[frame, RF_CARD]
        n = rp[frame, RF_N]
        step = rp[frame, RF_NEXT]
        if step == n:  # the copy stays in hand: a hand copy must exist, and it must pay
            rest = rp[frame, RF_REST : RF_REST + MAX_LAYERS]
            need = rp[frame, RF_NEED : RF_NEED + MAX_LAYERS]
            spare = copies(rest, np.int64(MAX_LAYERS), c) > copies(need, np.int64(MAX_LAYERS), c)
            if not spare or melded + rp[frame, RF_LEFT] - values[c] <= best:
                step = n + 1
        if step > n:
            depth -= 1
            continue
        rp[frame, RF_NEXT] = step + 1
        option = n - 1 - step if step < n else n
        child = frame + 1
        for col in range(2 * MAX_LAYERS + 2):  # rest, need, jokers, need_jokers
            rp[child, col] = rp[frame, col]
        rest = rp[child, RF_REST : RF_REST + MAX_LAYERS]
        need = rp[child, RF_NEED : RF_NEED + MAX_LAYERS]
        if option < n:
            row = RW_CAND + depth * MAX_CAND + option
            for l in range(MAX_LAYERS):
                take = rp[row, CA_TAKE + l]
                if take != 0:
                    remove_one_each(rest, np.int64(MAX_LAYERS), take)
                    remove_one_each(need, np.int64(MAX_LAYERS), take & need[0])
            used = rp[row, CA_JOKERS]
            rp[child, RF_JOKERS] -= used
            rp[child, RF_NEED_J] = max(0, rp[child, RF_NEED_J] - used)
            rp[frame, RF_TAKEN] = option
            gained = rp[row, CA_VALUE]
        else:
            remove_one_each(rest, np.int64(MAX_LAYERS), np.int64(1) << c)
            rp[frame, RF_TAKEN] = -1
            gained = 0
        if _push(fx, params, values, work, rp, depth + 1, melded + gained) == 1:
            depth += 1
    if rp[RW_SCAL, RP_TRY_N] == 0:
        rp[RW_SCAL, RP_GAIN] = 0
    return rp[RW_SCAL, RP_GAIN]


@kernel
def _add_one(layers, kind):
    """One more copy of natural ``kind`` in the layered set; False when it holds
    ``MAX_LAYERS`` already."""
    for l in range(MAX_LAYERS):
        if (layers[l] >> kind) & 1 == 0:
            layers[l] |= np.int64(1) << kind
            return True
    return False


@kernel
def best_table_meld(fx, params, values, work, rp, hand, hand_jokers, table, declared,
                    n_table_jokers, node_cap, better_than, must):  # fmt: skip
    """The best meld action (module docstring) of a player holding ``hand`` (layers) and
    ``hand_jokers`` on a table of the natural cards ``table`` (layers) and ``n_table_jokers``
    jokers declared as ``declared[j]``. Returns the hand value it plays, 0 when no legal
    re-partition plays a hand card, or none plays more than ``better_than``; without a joker
    in hand, 0 at once when no natural card of ``must`` (a mask; -1: any) is in a meld of
    every card on hand (the quick no: a caller that knows no action existed before the hand
    gained a card asks for actions playing that card). Its melds are
    left in ``rp`` rows ``RW_BEST``.. (``RP_BEST_N``; candidate rows of ``melds.py``: a
    kept joker stands in them as a natural copy of its card), the freed table jokers in
    ``RP_FREED`` and the pool it partitioned (table, kept jokers as their cards, and hand)
    in ``RP_POOL``.."""
    rp[RW_SCAL, RP_BEST_N] = 0
    rp[RW_SCAL, RP_FREED] = 0
    rp[RW_SCAL, RP_NODES] = 0
    rp[RW_SCAL, RP_CAPPED] = 0
    rp[RW_SCAL, RP_TRUNCATED] = 0
    pool = rp[RW_POOL, 0:MAX_LAYERS]
    need = rp[RW_NEED, 0:MAX_LAYERS]
    best_gain = better_than
    table_value = np.int64(0)
    for l in range(MAX_LAYERS):
        table_value += mask_value(values, table[l])
        pool[l] = table[l]
    if hand_jokers == 0:  # a quick no: no hand card is in any meld of every card on hand
        for j in range(n_table_jokers):  # (the table's jokers both as their cards and wild)
            _add_one(pool, declared[j])
        for l in range(MAX_LAYERS):
            rest = hand[l]
            while rest != 0:
                _add_one(pool, lowest_kind(rest))
                rest &= rest - 1
        reach = meldable(fx, params, pool, np.int64(MAX_LAYERS), n_table_jokers)
        if hand[0] & must & reach == 0:
            return np.int64(0)
    for freed in range(1 << n_table_jokers):
        ok = True
        for l in range(MAX_LAYERS):
            pool[l] = 0
            need[l] = table[l]
        floor = table_value
        for j in range(n_table_jokers):
            d = declared[j]
            if (freed >> j) & 1 == 0:
                ok = ok and _add_one(need, d)
                floor += values[d]
            else:
                floor += values[JOKER]
        # a freed joker needs natural copies of its card beyond the kept jokers standing
        # for it: kept(d) + max(table's naturals d, freed(d)) copies of d melded
        for j in range(n_table_jokers):
            d = declared[j]
            if (freed >> j) & 1 == 0:
                continue
            n_freed = 0
            n_kept = 0
            for i in range(n_table_jokers):
                if declared[i] == d:
                    if (freed >> i) & 1:
                        n_freed += 1
                    else:
                        n_kept += 1
            while copies(need, np.int64(MAX_LAYERS), d) < n_kept + n_freed:
                ok = ok and _add_one(need, d)
        if not ok:
            continue
        for l in range(MAX_LAYERS):  # the pool: the table's needs and the whole hand
            pool[l] = table[l]
        for j in range(n_table_jokers):
            if (freed >> j) & 1 == 0:
                ok = ok and _add_one(pool, declared[j])
        for l in range(MAX_LAYERS):
            rest = hand[l]
            while rest != 0:
                k = lowest_kind(rest)
                ok = ok and _add_one(pool, k)
                rest &= rest - 1
        if not ok:
            continue
        covered = True
        for l in range(MAX_LAYERS):
            if need[l] & ~pool[l] != 0:
                covered = False  # a freed joker's card is nowhere
        if not covered:
            continue
        jokers = hand_jokers + popcount(np.int64(freed))
        got = _search(
            fx, params, values, work, rp, pool, need, jokers, popcount(np.int64(freed)),
            floor + best_gain, node_cap,
        )  # fmt: skip
        if got > floor and got - floor > best_gain:
            best_gain = got - floor
            n = rp[RW_SCAL, RP_TRY_N]
            for m in range(n):
                for col in range(N_CA):
                    rp[RW_BEST + m, col] = rp[RW_TRY + m, col]
            rp[RW_SCAL, RP_BEST_N] = n
            rp[RW_SCAL, RP_FREED] = freed
            for l in range(MAX_LAYERS):
                rp[RW_SCAL, RP_POOL + l] = pool[l]
        if rp[RW_SCAL, RP_CAPPED] != 0:
            break
    if rp[RW_SCAL, RP_BEST_N] == 0:
        return np.int64(0)
    return best_gain
