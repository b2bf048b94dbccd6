"""Deadwood, arrangements and lay-offs of the knock family on hand bitmasks (RULES.md §1.13,
§3.10, §3.17).

The knock family plays one pack without jokers, so a hand is an ``int64`` mask (bit
``rank * 4 + suit``, as in ``bits.py``). The kernels here answer the questions a knock hand
asks many times per turn, exactly and without a search tree:

- ``arrange(mask)``: the minimum deadwood of a hand and one arrangement reaching it, as the
  mask of cards in groups and the mask of cards in runs.
- ``layoff_reach``/``defend``: which of a defender's cards may be laid off on the knocker's
  melds (chains included, §3.17 open point 3), and the lay-offs that leave the defender the
  least deadwood, his own melds chosen together with them.

How ``arrange`` stays exact without a general search: a card either sits in a three-card
window of its suit (it can be in a run) or in a rank with three or more cards (it can be in
a group), or it is deadwood. Once the groups are chosen, every card left in a window melds
(the windows of one suit join into runs of three or more), so only the choice of groups
matters, and only for ranks whose cards could also be in a run ("contested" ranks, a few
percent of hands). For each contested rank the choices are: no group, the whole rank, or
(with four cards) the rank less one of its run cards. Ranks with no run card always form
their group. The kernels enumerate those choices (at most 6 per contested rank) and keep
the first arrangement with the least deadwood, so ties resolve the same way every time.

Supported: ``ace_rank`` low, high and around_corner. ``high_or_low`` (an ace in a run at
either end, but not both) breaks the "windows join into runs" argument and is refused by the
rules model for the knock family.

``run_suit = any_suit`` (RULES.md §3.17 open point 1) breaks it too: two cards of one rank in
a window of ranks need not both fit a run. Those hands go through the second half of this
module (``arrange_spans``, ``defend_any``: a dynamic programme over the ranks, and lay-offs
by run ends), ace low or high (around the corner is refused by the rules model). Kernels
that serve both take a meld ``rule`` (``meld_rule``): the ace rank, plus ``ANY_SUIT_RULE``
under any-suit runs, so that same-suit play takes one comparison more and nothing else.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import types
from numba.extending import overload

from sim.engine.bits import (
    FIELD_LOW,
    FULL52,
    RANK_FIELD,
    from_positions,
    in_run_windows,
    lowest_bit,
    mask_value,
    meldable,
    partial_melds,
    popcount,
    positions_down,
    positions_up,
    rank_counts,
    rank_fields,
    ranks_holding,
    stack_int64,
    to_positions,
)
from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import N_SUITS, P_ACE_RANK, P_RUN_SUIT, RUN_ANY_SUIT
from sim.engine.positions import rank_at

GROUP_CHOICES = 6  # per contested rank: none, all, or all but one of up to four run cards
MAX_LAYOFF_SUBSETS_BITS = 12  # defenders with more reachable cards lay off all of them
NO_DEADWOOD_YET = 1 << 40  # larger than any hand's value


@kernel
def _nth_field(fields, i):
    """The ``i``-th lowest rank field of ``fields`` (a union of whole rank fields)."""
    f = fields
    for _ in range(i):
        f &= ~(RANK_FIELD << (lowest_bit(f) & ~3))
    return RANK_FIELD << (lowest_bit(f) & ~3)


@kernel
def _group_choice(field_cards, contested, choice):
    """The cards grouped from one contested rank under ``choice`` (0 none, 1 all, 2.. all but
    one run card), or -1 when the choice does not exist for this rank."""
    if choice == 0:
        return 0
    if choice == 1:
        return field_cards
    if popcount(field_cards) != 4:
        return -1
    c = field_cards & contested
    for _ in range(choice - 2):
        c &= c - 1
    if c == 0:
        return -1
    return field_cards & ~(c & -c)


@inline_kernel
def arrange(mask, values, rule):
    """Minimum deadwood of the hand ``mask`` (RULES.md §1.13) and one arrangement reaching it.

    ``values`` is ``int64[N_KINDS]``, the value of each card kind; ``rule`` is ``meld_rule``
    (the ace rank under same-suit runs). Returns ``(deadwood, groups, runs)``: the
    deadwood's value, the mask of cards in groups and the mask of cards in runs (every rank
    of ``groups`` is one group; under same-suit runs every maximal same-suit sequence of
    ``runs`` has three or more cards and is one run; under any-suit runs see
    ``arrange_spans``). Inlined: the caller branches on ``rule`` and calls one kernel.
    """
    if is_any_suit(rule):
        return arrange_any(mask, values, rule - ANY_SUIT_RULE)
    return arrange_same(mask, values, rule)


@kernel
def arrange_same(mask, values, ace_rank):
    """``arrange`` under same-suit runs."""
    in_groups = ranks_holding(mask, 3) & mask
    in_runs = in_run_windows(mask, ace_rank)
    contested = in_groups & in_runs
    if contested == 0:
        return mask_value(mask & ~(in_groups | in_runs), values), in_groups, in_runs
    fields = rank_fields(contested)
    fixed = in_groups & ~fields
    n = popcount(fields) // 4
    combos = 1
    for _ in range(n):
        combos *= GROUP_CHOICES
    best = NO_DEADWOOD_YET
    best_groups = 0
    best_runs = 0
    for code in range(combos):
        groups = fixed
        x = code
        ok = True
        for i in range(n):
            cards = mask & _nth_field(fields, i)
            g = _group_choice(cards, contested, x % GROUP_CHOICES)
            x //= GROUP_CHOICES
            if g < 0:
                ok = False
                break
            groups |= g
        if not ok:
            continue
        rest = mask & ~groups
        runs = in_run_windows(rest, ace_rank)
        dw = mask_value(rest & ~runs, values)
        if dw < best:
            best = dw
            best_groups = groups
            best_runs = runs
    return best, best_groups, best_runs


@inline_kernel
def deadwood(mask, values, rule):
    """Only the minimum deadwood of ``arrange``."""
    dw, _, _ = arrange(mask, values, rule)
    return dw


@kernel
def neighbours(mask, ace_rank):
    """Cards one run position above or below a card of ``mask``, in the same suit."""
    e = to_positions(mask, ace_rank)
    near = positions_up(e, 1, ace_rank) | positions_down(e, 1, ace_rank)
    return from_positions(near, ace_rank)


@inline_kernel
def completers(mask, rule):
    """Cards outside ``mask`` that would be in a meld of ``mask`` plus that card: a third or
    fourth card of a rank ``mask`` holds at least twice, or a card that makes a three-card
    run window of one suit with two cards of ``mask`` (any suits: ``completers_any``).
    ``rule``: ``meld_rule``."""
    if is_any_suit(rule):
        return completers_any(mask, rule - ANY_SUIT_RULE)
    return completers_same(mask, rule)


@kernel
def completers_same(mask, ace_rank):
    """``completers`` under same-suit runs."""
    e = to_positions(mask, ace_rank)
    up1 = positions_up(e, 1, ace_rank)  # one position above a card of mask
    up2 = positions_up(e, 2, ace_rank)
    down1 = positions_down(e, 1, ace_rank)  # one position below a card of mask
    down2 = positions_down(e, 2, ace_rank)
    runs = from_positions((up1 & up2) | (up1 & down1) | (down1 & down2), ace_rank)
    return (ranks_holding(mask, 2) | runs) & ~mask & FULL52


@kernel
def max_value(cards, values):
    """The highest value among ``cards`` (0 when there are none)."""
    best = 0
    m = cards
    while m != 0:
        k = lowest_bit(m)
        m &= m - 1
        if values[k] > best:
            best = values[k]
    return best


@kernel
def group_fourths(groups):
    """The missing card of every three-card group of ``groups`` (the cards that may be laid
    off on them)."""
    b = rank_counts(groups)
    three = b & (b >> 1) & FIELD_LOW  # fields holding exactly 3 (0b011)
    return (three * RANK_FIELD) & ~groups


@kernel
def run_reach(cards, runs, ace_rank):
    """Cards of ``cards`` that join the runs ``runs`` directly or through other cards of
    ``cards`` (a chain of lay-offs, RULES.md §3.17 open point 3)."""
    reached = 0
    frontier = runs
    while True:
        new = neighbours(frontier, ace_rank) & cards & ~reached
        if new == 0:
            return reached
        reached |= new
        frontier = new


@kernel
def layoff_reach(hand, groups, runs, ace_rank):
    """Every card of ``hand`` that some sequence of lay-offs could put on the melds
    (``groups``, ``runs``): fourth cards of three-card groups and run extensions."""
    return (group_fourths(groups) & hand) | run_reach(hand, runs, ace_rank)


@kernel
def layoffs_valid(laid, groups, runs, ace_rank):
    """True when every card of ``laid`` can be laid off together: each one is the fourth
    card of a three-card group, or joins a run through the others."""
    return laid & ~(run_reach(laid, runs, ace_rank) | group_fourths(groups)) == 0


@kernel
def defend(hand, groups, runs, values, ace_rank):
    """The defender's showdown against the melds (``groups``, ``runs``): the lay-offs and own
    arrangement that leave the least deadwood (RULES.md §1.13). Returns ``(deadwood, laid)``,
    ``laid`` being the cards laid off (the fewest among equal results, first found)."""
    reach = layoff_reach(hand, groups, runs, ace_rank)
    best = deadwood(hand, values, ace_rank)
    if reach == 0 or best == 0:
        return best, 0
    if popcount(reach) > MAX_LAYOFF_SUBSETS_BITS:  # never met with one pack: lay off all
        return deadwood(hand & ~reach, values, ace_rank), reach
    best_laid = 0
    s = 0
    while True:
        s = (s - reach) & reach  # next subset of reach
        if s == 0:
            break
        if not layoffs_valid(s, groups, runs, ace_rank):
            continue
        dw = deadwood(hand & ~s, values, ace_rank)
        if dw < best or (dw == best and popcount(s) < popcount(best_laid)):
            best = dw
            best_laid = s
    return best, best_laid


# ---- runs of any suits (run_suit = any_suit, RULES.md §2A.6, §3.17 open point 1) ------------
#
# A run is then three or more cards on consecutive run positions, one card per position, of
# any suits, and card values depend only on rank: an arrangement is a choice, rank by rank,
# of how many cards go to a group and how many to runs. ``arrange_spans`` finds the least
# deadwood by a dynamic programme over the 13 run positions (ace low or high; around the
# corner is refused by the rules model). Its state is the number of runs open into the next
# position by length: 1, 2, or 3 and more (the first two must go on; the last may end).
# Every state keeps the first arrangement found that reaches it with the least deadwood.
#
# Two runs of any suits that overlap cannot be told apart on a card mask, but what a
# defender may lay off on them depends only on where runs begin and end: a run accepts any
# card one position below its lowest or above its highest (§3.17 open point 3: then one
# more, and so on). So the runs are also given as two count masks in position space, one
# 4-bit field per position (as a rank field): ``lows`` counts the runs beginning there and
# ``highs`` the runs ending there.

ANY_SUIT_RULE = 8  # meld rule of run_suit = any_suit: ace_rank + ANY_SUIT_RULE
SAME_SUIT_RULE_BITS = 32  # a rule typed int32 is same-suit at compile time (is_any_suit)
N_POSITIONS = 13  # run positions under ace low or ace high
MAX_OPEN = 4  # runs open through a position (one card of it each)
OPEN_BASE = MAX_OPEN + 1
N_STATES = 35  # (short, medium, long) open-run counts with short + medium + long <= 4
STATE_SLOTS = 5  # per state: deadwood, group cards, run cards, lows, highs
WORK_SIZE = 2 * STATE_SLOTS * N_STATES  # this position's states and the next one's
S_DW, S_GROUPS, S_RUNS, S_LOWS, S_HIGHS = 0, 1, 2, 3, 4
MAX_CHAINS = 8  # lay-off chains: two ends of up to four runs (a knocker holds <= 11 cards)
CHAIN_SLOTS = 3  # per chain: its first position, its step (-1 down, +1 up), longest length
CHAIN_WORK = MAX_CHAINS * CHAIN_SLOTS  # (a constant: stack_int64 takes no expression)
MAX_LAYOFF_PLANS = 1 << 14  # never met: longer chains are cut to stay under it


def _state_tables():
    """``STATE_OPEN[i]``: the open-run counts of state ``i`` packed as short | medium << 3 |
    long << 6; ``STATE_INDEX[short * 25 + medium * 5 + long]``: the state's index."""
    open_of = []
    index = [-1] * OPEN_BASE**3
    for short in range(OPEN_BASE):
        for medium in range(OPEN_BASE - short):
            for long in range(OPEN_BASE - short - medium):
                index[(short * OPEN_BASE + medium) * OPEN_BASE + long] = len(open_of)
                open_of.append(short | medium << 3 | long << 6)
    return np.array(open_of, np.int64), np.array(index, np.int64)


STATE_OPEN, STATE_INDEX = _state_tables()
assert len(STATE_OPEN) == N_STATES


def is_any_suit(rule):
    """Whether the meld ``rule`` has runs of any suits. In compiled kernels a rule typed
    ``int32`` (how ``knock.play_knock_hand`` passes same-suit play) is same-suit by its
    type: the kernels compiled for it lose their any-suit branches, so same-suit play runs
    the same code as before any-suit runs existed."""
    return rule >= ANY_SUIT_RULE


if not numba.config.DISABLE_JIT:

    @overload(is_any_suit)
    def _is_any_suit_typed(rule):
        if isinstance(rule, types.Integer) and rule.bitwidth == SAME_SUIT_RULE_BITS:
            return lambda rule: False
        return lambda rule: rule >= ANY_SUIT_RULE


@inline_kernel
def meld_rule(params):
    """The ``rule`` argument of the knock kernels: ``ace_rank``, plus ``ANY_SUIT_RULE``
    under ``run_suit = any_suit``. Same-suit kernels take ``rule`` as their ``ace_rank``."""
    if params[P_RUN_SUIT] == RUN_ANY_SUIT:
        return params[P_ACE_RANK] + ANY_SUIT_RULE
    return params[P_ACE_RANK]


@kernel
def _lowest_cards(field, n):
    """The ``n`` lowest cards (lowest suits) of ``field``."""
    out = 0
    m = field
    for _ in range(n):
        low = m & -m
        out |= low
        m &= ~low
    return out


@inline_kernel
def _step(work, src, dst, dw, group, run):
    """State slot ``dst`` reached from slot ``src`` (offsets into ``work``), adding the
    cards ``group`` and ``run`` (position space): deadwood ``dw``, and the arrangement and
    run ends of ``src`` (the caller adds the new ends)."""
    work[dst + S_DW * N_STATES] = dw
    work[dst + S_GROUPS * N_STATES] = work[src + S_GROUPS * N_STATES] | group
    work[dst + S_RUNS * N_STATES] = work[src + S_RUNS * N_STATES] | run
    work[dst + S_LOWS * N_STATES] = work[src + S_LOWS * N_STATES]
    work[dst + S_HIGHS * N_STATES] = work[src + S_HIGHS * N_STATES]


@kernel
def arrange_spans(mask, values, ace_rank):
    """``arrange`` for runs of any suits (ace low or high): the minimum deadwood of ``mask``
    (RULES.md §1.13, §2A.6) and one arrangement reaching it, as ``(deadwood, groups, runs,
    lows, highs)``: the masks of cards in groups and in runs (every rank of ``groups`` is
    one group; at each rank the lowest suits go to the group, the next ones to runs), and
    the runs' ``lows``/``highs`` count masks in position space (see above). Assumes card
    values depend only on rank (true of every knock-family table)."""
    e = to_positions(mask, ace_rank)
    work = stack_int64(WORK_SIZE)
    cur = 0
    work[S_DW * N_STATES] = 0
    work[S_GROUPS * N_STATES] = 0
    work[S_RUNS * N_STATES] = 0
    work[S_LOWS * N_STATES] = 0
    work[S_HIGHS * N_STATES] = 0
    active = 1  # bit i: state i is reached (state 0: no open run)
    for p in range(N_POSITIONS):
        shift = p * N_SUITS
        field = (e >> shift) & RANK_FIELD
        n = popcount(field)
        n_next = popcount((e >> (shift + N_SUITS)) & RANK_FIELD) if p + 1 < N_POSITIONS else 0
        value = values[rank_at(p, ace_rank) * N_SUITS]
        src = cur * STATE_SLOTS * N_STATES
        dst = (1 - cur) * STATE_SLOTS * N_STATES
        reached = 0
        m = active
        while m != 0:
            i = lowest_bit(m)
            m &= m - 1
            code = STATE_OPEN[i]
            short, medium, long = code & 7, (code >> 3) & 7, code >> 6
            need = short + medium  # runs shorter than three must go on
            if need > n:
                continue
            dw0 = work[src + S_DW * N_STATES + i]
            for kept in range(long, -1, -1):  # long runs going on (the others end below p)
                for size in (0, 3, 4):
                    used = need + kept + size
                    if used > n:
                        break
                    # a new run where a long one ends could as well be that run going on
                    most = n - used if kept == long else 0
                    for new in range(most + 1):
                        if new + short > n_next:
                            break
                        dw = dw0 + (n - used - new) * value
                        j = STATE_INDEX[(new * OPEN_BASE + short) * OPEN_BASE + medium + kept]
                        if (reached >> j) & 1 and work[dst + S_DW * N_STATES + j] <= dw:
                            continue
                        reached |= 1 << j
                        group = _lowest_cards(field, size)
                        run = _lowest_cards(field & ~group, need + kept + new)
                        ends = (long - kept) << (shift - N_SUITS) if p > 0 else 0
                        _step(work, src + i, dst + j, dw, group << shift, run << shift)
                        work[dst + S_LOWS * N_STATES + j] += new << shift
                        work[dst + S_HIGHS * N_STATES + j] += ends
        active = reached
        cur = 1 - cur
    src = cur * STATE_SLOTS * N_STATES
    best = -1
    m = active
    while m != 0:  # only states with long runs alone are left (n_next = 0 at the top)
        i = lowest_bit(m)
        m &= m - 1
        if best < 0 or work[src + S_DW * N_STATES + i] < work[src + S_DW * N_STATES + best]:
            best = i
    top = (N_POSITIONS - 1) * N_SUITS
    return (
        work[src + S_DW * N_STATES + best],
        from_positions(work[src + S_GROUPS * N_STATES + best], ace_rank),
        from_positions(work[src + S_RUNS * N_STATES + best], ace_rank),
        work[src + S_LOWS * N_STATES + best],
        work[src + S_HIGHS * N_STATES + best] + ((STATE_OPEN[best] >> 6) << top),
    )


@kernel
def arrange_any(mask, values, ace_rank):
    """``(deadwood, groups, runs)`` of ``arrange_spans``."""
    dw, groups, runs, _, _ = arrange_spans(mask, values, ace_rank)
    return dw, groups, runs


@kernel
def meldable_any(mask, ace_rank):
    """Cards of ``mask`` in some meld of ``mask`` under runs of any suits: three or more of
    their rank, or cards on three consecutive run positions of ranks all held."""
    return mask & (ranks_holding(mask, 3) | in_run_windows(rank_fields(mask), ace_rank))


@kernel
def _window_fields(fields, ace_rank):
    """Whole rank fields at a run position with two positions of ``fields`` (whole rank
    fields) making a three-position window with it."""
    e = to_positions(fields, ace_rank)
    up1 = positions_up(e, 1, ace_rank)
    up2 = positions_up(e, 2, ace_rank)
    down1 = positions_down(e, 1, ace_rank)
    down2 = positions_down(e, 2, ace_rank)
    return from_positions((up1 & up2) | (up1 & down1) | (down1 & down2), ace_rank)


@kernel
def completers_any(mask, ace_rank):
    """``completers`` under runs of any suits: a third or fourth card of a rank ``mask``
    holds twice, or any card of a rank whose run window's other two ranks ``mask`` holds
    (its own rank held or not: the card may take that rank's place in the run)."""
    runs = _window_fields(rank_fields(mask), ace_rank)
    return (ranks_holding(mask, 2) | runs) & ~mask & FULL52


@kernel
def partial_melds_any(mask, ace_rank):
    """Cards of ``mask`` in a partial meld under runs of any suits (docs/bots.md): another
    card of their rank, or a card of any suit at most two run positions away."""
    e = to_positions(rank_fields(mask), ace_rank)
    near = (
        positions_up(e, 1, ace_rank)
        | positions_up(e, 2, ace_rank)
        | positions_down(e, 1, ace_rank)
        | positions_down(e, 2, ace_rank)
    )
    return mask & (ranks_holding(mask, 2) | from_positions(near, ace_rank))


@inline_kernel
def knock_meldable(mask, rule):
    """``bits.meldable`` under the meld ``rule`` (``meld_rule``)."""
    if is_any_suit(rule):
        return meldable_any(mask, rule - ANY_SUIT_RULE)
    return meldable(mask, rule)


@inline_kernel
def knock_partial_melds(mask, rule):
    """``bits.partial_melds`` under the meld ``rule`` (``meld_rule``)."""
    if is_any_suit(rule):
        return partial_melds_any(mask, rule - ANY_SUIT_RULE)
    return partial_melds(mask, rule)


@kernel
def _chains(hand_positions, lows, highs, chains):
    """Fill ``chains`` (``CHAIN_SLOTS`` per chain) with every run end of ``lows``/``highs``
    from which the defender (``hand_positions``, his cards in position space) could lay off
    a chain of cards: the first position beyond the end, the step, and how many positions
    on from there he holds a card of. Returns the number of chains."""
    held = rank_fields(hand_positions)
    n = 0
    for p in range(N_POSITIONS):
        for step in (-1, 1):
            ends = lows if step < 0 else highs
            count = (ends >> (p * N_SUITS)) & RANK_FIELD
            first = p + step
            length = 0
            q = first
            while 0 <= q < N_POSITIONS and (held >> (q * N_SUITS)) & 1:
                length += 1
                q += step
            if length == 0:
                continue
            for _ in range(count):
                if n < MAX_CHAINS:
                    chains[n * CHAIN_SLOTS] = first
                    chains[n * CHAIN_SLOTS + 1] = step
                    chains[n * CHAIN_SLOTS + 2] = length
                    n += 1
    return n


@kernel
def _plans(chains, n):
    """How many lay-off plans the chains give (each chain laid to any length up to its
    longest); cuts the longest chains until that is at most ``MAX_LAYOFF_PLANS``."""
    while True:
        plans = 1
        longest = 0
        for c in range(n):
            plans *= chains[c * CHAIN_SLOTS + 2] + 1
            if chains[c * CHAIN_SLOTS + 2] > chains[longest * CHAIN_SLOTS + 2]:
                longest = c
        if plans <= MAX_LAYOFF_PLANS:
            return plans
        chains[longest * CHAIN_SLOTS + 2] -= 1


@kernel
def defend_any(hand, groups, lows, highs, values, ace_rank):
    """``defend`` against melds with runs of any suits (the knocker's ``groups`` and his
    runs' ``lows``/``highs``): every plan of lay-offs (a length for each chain off a run
    end, RULES.md §3.17 open point 3, and which group's fourth card to lay off) that the
    defender's cards can fill, with his own arrangement of what is left. Which of his cards
    of a rank go is free (only their number changes his deadwood), so the lowest suits go,
    a group's fourth card when that is laid on its group. Returns ``(deadwood, laid,
    groups, lows, highs)``: ``laid`` the cards laid off (the fewest among equal results,
    first found) and the melds after the lay-offs."""
    best = arrange_any(hand, values, ace_rank)[0]
    fourths = group_fourths(groups) & hand
    chains = stack_int64(CHAIN_WORK)
    e = to_positions(hand, ace_rank)
    n = _chains(e, lows, highs, chains)
    if best == 0 or (n == 0 and fourths == 0):
        return best, 0, groups, lows, highs
    fourths_e = to_positions(fourths, ace_rank)
    best_laid = 0
    best_code = 0
    best_four = 0
    for code in range(_plans(chains, n)):
        need = 0  # cards laid on runs, as counts per position field
        x = code
        for c in range(n):
            base = c * CHAIN_SLOTS
            radix = chains[base + 2] + 1
            length = x % radix
            x //= radix
            q = chains[base]
            for _ in range(length):
                need += 1 << (q * N_SUITS)
                q += chains[base + 1]
        four = fourths_e
        while True:  # every subset of the fourth cards, all of them first
            laid = four
            ok = True
            m = need
            while m != 0:
                shift = lowest_bit(m) & ~3
                want = (need >> shift) & RANK_FIELD
                m &= ~(RANK_FIELD << shift)
                field = ((e & ~four) >> shift) & RANK_FIELD
                if want > popcount(field):
                    ok = False
                    break
                laid |= _lowest_cards(field, want) << shift
            if ok:
                laid_cards = from_positions(laid, ace_rank)
                dw = arrange_any(hand & ~laid_cards, values, ace_rank)[0]
                if dw < best or (dw == best and popcount(laid) < popcount(best_laid)):
                    best = dw
                    best_laid = laid
                    best_code = code
                    best_four = four
            if four == 0:
                break
            four = (four - 1) & fourths_e
    if best_laid == 0:
        return best, 0, groups, lows, highs
    x = best_code
    for c in range(n):  # the runs grow by the chains laid
        base = c * CHAIN_SLOTS
        radix = chains[base + 2] + 1
        length = x % radix
        x //= radix
        if length == 0:
            continue
        end = chains[base] - chains[base + 1]  # the run end the chain starts from
        grown = end + chains[base + 1] * length
        if chains[base + 1] < 0:
            lows += (1 << (grown * N_SUITS)) - (1 << (end * N_SUITS))
        else:
            highs += (1 << (grown * N_SUITS)) - (1 << (end * N_SUITS))
    laid_cards = from_positions(best_laid, ace_rank)
    return best, laid_cards, groups | from_positions(best_four, ace_rank), lows, highs
