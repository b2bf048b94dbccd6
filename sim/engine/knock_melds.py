"""Deadwood, arrangements and lay-offs of the knock family on hand bitmasks (RULES.md §1.13,
§3.10, §3.17).

The knock family plays one pack without jokers and with runs of one suit, so a hand is an
``int64`` mask (bit ``rank * 4 + suit``, as in ``bits.py``). The kernels here answer the
questions a knock hand asks many times per turn, exactly and without a search tree:

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
either end, but not both) and ``run_suit = any_suit`` break the "windows join into runs"
argument and are refused by the rules model for the knock family.
"""

from __future__ import annotations

from sim.engine.bits import (
    FIELD_LOW,
    FULL52,
    RANK_FIELD,
    from_positions,
    in_run_windows,
    lowest_bit,
    mask_value,
    popcount,
    positions_down,
    positions_up,
    rank_counts,
    ranks_holding,
    to_positions,
)
from sim.engine.jit import kernel

GROUP_CHOICES = 6  # per contested rank: none, all, or all but one of up to four run cards
MAX_LAYOFF_SUBSETS_BITS = 12  # defenders with more reachable cards lay off all of them
NO_DEADWOOD_YET = 1 << 40  # larger than any hand's value


@kernel
def rank_fields(mask):
    """The whole 4-bit rank fields in which ``mask`` holds at least one card."""
    low = (mask | (mask >> 1) | (mask >> 2) | (mask >> 3)) & FIELD_LOW
    return low * RANK_FIELD


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


@kernel
def arrange(mask, values, ace_rank):
    """Minimum deadwood of the hand ``mask`` (RULES.md §1.13) and one arrangement reaching it.

    ``values`` is ``int64[N_KINDS]``, the value of each card kind. Returns
    ``(deadwood, groups, runs)``: the deadwood's value, the mask of cards in groups and the
    mask of cards in runs (every maximal same-suit sequence of ``runs`` has three or more
    cards and is one run; every rank of ``groups`` is one group).
    """
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


@kernel
def deadwood(mask, values, ace_rank):
    """Only the minimum deadwood of ``arrange``."""
    dw, _, _ = arrange(mask, values, ace_rank)
    return dw


@kernel
def neighbours(mask, ace_rank):
    """Cards one run position above or below a card of ``mask``, in the same suit."""
    e = to_positions(mask, ace_rank)
    near = positions_up(e, 1, ace_rank) | positions_down(e, 1, ace_rank)
    return from_positions(near, ace_rank)


@kernel
def completers(mask, ace_rank):
    """Cards outside ``mask`` that would be in a meld of ``mask`` plus that card: a third or
    fourth card of a rank ``mask`` holds at least twice, or a card that makes a three-card
    run window of one suit with two cards of ``mask``."""
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
