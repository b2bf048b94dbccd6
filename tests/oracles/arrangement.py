"""Slow, plain reference for the best arrangement and its declared tie-break.

The oracle of ``sim.engine.melds.best_arrangement`` (its docstring declares the meld rules,
the positions and the order; RULES.md §1.2, §1.3, §1.13, §2A.4, §2A.6, §2B.9). It imports
nothing from the engines: it lists every meld of a hand by brute force, every way to lay
a set of them out of the hand, and picks by the declared rule:

1. the arrangement melding the most value (the least deadwood);
2. of those, the first in the declared order. An arrangement's place in that order is its
   *decision sequence*: cards are decided from the lowest natural kind up; the lowest
   undecided card is in one of the arrangement's melds (the one tried first if several
   hold it) or left in hand (tried after every meld); melds through one card are tried
   from the largest key down, and sequences compare decision by decision.

Under an initial-meld rule (RULES.md §2D.24-25) only the arrangements whose melds count at
least ``minimum`` (each card at its value, a joker at the value of the card it stands for,
an ace just before a 2 in a run at ``ace_low`` when given) and that meld a copy of ``must``
(a natural kind, or ``JOKER``: any joker) take part; none doing so: nothing is melded.
With ``apart`` (Phỏm's taken cards, §3.13) only the arrangements that meld every card of
it, no two in one meld, take part.

A meld's key: a group ``(0, n_s, n_h, n_d, n_c, jokers)`` (its naturals per suit); a run
``(1, lo, length, d_0, ..., d_{length-1})`` where ``d_i`` is what stands on the i-th
position of its window: the natural's suit 0..3, or 4 for a joker. So runs are tried
before groups, later windows and longer runs first, and fuller groups first.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from sim.cards import JOKER, N_RANKS, N_SUITS

JOKER_DIGIT = 4
LEFT_IN_HAND = (1,)  # in "tried" order (``tried``): after every meld


def tried(key: tuple[int, ...]) -> tuple[int, ...]:
    """A meld key turned so that sorting ascending gives the order melds are tried in."""
    return tuple(-k for k in key)


@dataclass(frozen=True)
class Rules:
    """The meld rules the oracle takes: ``ace_rank`` is a RULES.md §2A.4 word; ``strip``: the
    40-card pack of §2A.7 (ace low, 7 and J adjacent)."""

    ace_rank: str = "low"
    any_suit: bool = False
    group_duplicates: bool = False
    joker_limit: bool = False  # §2B.10: no more jokers than natural cards in a meld
    strip: bool = False
    run_max: int = 13  # the longest run (Conquian: 8, §3.21)

    @property
    def layout(self) -> str:
        """Where ranks stand on run positions: the ``ace_rank`` word, or ``"stripped"``."""
        return "stripped" if self.strip else self.ace_rank


@dataclass(frozen=True)
class Meld:
    key: tuple[int, ...]
    naturals: tuple[int, ...]  # sorted kinds, repeats for identical cards
    jokers: int
    ranks: tuple[int, ...] = ()  # a run: the rank on each position; a group: its rank

    @property
    def kind(self) -> str:
        return "group" if self.key[0] == 0 else "run"


def positions(ace_rank: str) -> list[int]:
    """The rank standing on each run position (0 = ace .. 12 = king); ``ace_rank`` is a
    layout (``Rules.layout``)."""
    if ace_rank == "stripped":
        return [0, 1, 2, 3, 4, 5, 6, 10, 11, 12]  # A..7, J, Q, K
    if ace_rank == "high":
        return list(range(1, N_RANKS)) + [0]
    if ace_rank == "high_or_low":
        return list(range(N_RANKS)) + [0]
    return list(range(N_RANKS))


def windows(ace_rank: str, run_max: int = 13) -> list[tuple[int, int, list[int]]]:
    """Every run window of at most ``run_max`` cards as (lo, length, ranks on its
    positions), in (lo, length) order."""
    ranks = positions(ace_rank)
    out = []
    for lo in range(len(ranks)):
        for length in range(3, run_max + 1):
            if ace_rank == "around_corner":
                seq = [ranks[(lo + i) % N_RANKS] for i in range(length)]
            elif lo + length <= len(ranks):
                seq = ranks[lo : lo + length]
            else:
                continue
            if len(set(seq)) == length:
                out.append((lo, length, seq))
    return out


def all_melds(hand: Sequence[int], rules: Rules) -> list[Meld]:
    """Every meld whose cards are a sub-multiset of ``hand``."""
    count = Counter(hand)
    jokers = count.pop(JOKER, 0)
    melds = []
    for rank in range(N_RANKS):
        tops = [count[rank * N_SUITS + t] for t in range(N_SUITS)]
        if not rules.group_duplicates:
            tops = [min(n, 1) for n in tops]
        for ns in itertools.product(*(range(n + 1) for n in tops)):
            for j in range(jokers + 1):
                size = sum(ns) + j
                if sum(ns) == 0 or size < 3:
                    continue
                if not rules.group_duplicates and size > N_SUITS:
                    continue
                if rules.joker_limit and j > sum(ns):
                    continue
                naturals = tuple(
                    sorted(rank * N_SUITS + t for t in range(N_SUITS) for _ in range(ns[t]))
                )
                melds.append(Meld((0, *ns, j), naturals, j, (rank,)))
    held = [[t for t in range(N_SUITS) if count[rank * N_SUITS + t] > 0] for rank in range(N_RANKS)]
    for lo, length, seq in windows(rules.layout, rules.run_max):
        suits = range(N_SUITS) if not rules.any_suit else [None]
        for run_suit in suits:
            options = []
            for rank in seq:
                here = [t for t in held[rank] if run_suit is None or t == run_suit]
                if not here and not jokers:
                    break  # a position nothing fills: no such run
                options.append(here + [JOKER_DIGIT] if jokers else here)
            if len(options) < length:
                continue
            for digits in itertools.product(*options):
                used = digits.count(JOKER_DIGIT)
                if used > jokers or used == length:
                    continue
                if rules.joker_limit and used > length - used:
                    continue
                naturals = tuple(
                    sorted(r * N_SUITS + d for r, d in zip(seq, digits, strict=True) if d < 4)
                )
                melds.append(Meld((1, lo, length, *digits), naturals, used, tuple(seq)))
    return melds


def _fits(meld: Meld, left: Counter, jokers: int) -> bool:
    need = Counter(meld.naturals)
    return meld.jokers <= jokers and all(left[k] >= n for k, n in need.items())


def arrangements(hand: Sequence[int], rules: Rules, limit: int = 0):
    """Yield every arrangement (a tuple of melds, any order) that fits in ``hand``, with at
    most ``limit`` melds (0: any number)."""
    melds = all_melds(hand, rules)
    left = Counter(hand)
    jokers = left.pop(JOKER, 0)

    def extend(start: int, chosen: list[Meld], jokers_left: int):
        yield tuple(chosen)
        if limit and len(chosen) >= limit:
            return
        for i in range(start, len(melds)):
            meld = melds[i]
            if _fits(meld, left, jokers_left):
                for k in meld.naturals:
                    left[k] -= 1
                chosen.append(meld)
                yield from extend(i, chosen, jokers_left - meld.jokers)
                chosen.pop()
                for k in meld.naturals:
                    left[k] += 1

    yield from extend(0, [], jokers)


def decision_sequence(
    hand: Sequence[int], arrangement: Sequence[Meld]
) -> tuple[tuple, tuple[Meld, ...]]:
    """The arrangement's place in the declared order (module docstring), and its melds in
    the order they are decided."""
    rest = Counter(k for k in hand if k != JOKER)
    pending = list(arrangement)
    sequence = []
    decided = []
    while rest:
        c = min(rest)
        holding = [m for m in pending if c in m.naturals]
        if holding:
            meld = min(holding, key=lambda m: tried(m.key))
            pending.remove(meld)
            sequence.append(tried(meld.key))
            decided.append(meld)
            for k in meld.naturals:
                rest[k] -= 1
                if rest[k] == 0:
                    del rest[k]
        else:
            sequence.append(LEFT_IN_HAND)
            rest[c] -= 1
            if rest[c] == 0:
                del rest[c]
    return tuple(sequence), tuple(decided)


def melded_value(arrangement: Sequence[Meld], values: Sequence[int]) -> int:
    return sum(values[k] for m in arrangement for k in m.naturals) + sum(
        m.jokers * values[JOKER] for m in arrangement
    )


def opening_value(meld: Meld, values: Sequence[int], ace_low: int | None = None) -> int:
    """What ``meld`` counts toward an initial meld (RULES.md §2D.24): its natural cards at
    their value, each joker at the value of the card it stands for (in a group its rank,
    in a run its position's rank); an ace just before a 2 in a run counts ``ace_low``
    instead of its value when that is given (German Rummy, §3.14)."""
    if meld.kind == "group":
        rank = meld.ranks[0]
        return sum(values[k] for k in meld.naturals) + meld.jokers * values[rank * N_SUITS]
    total = 0
    for i, rank in enumerate(meld.ranks):
        total += values[rank * N_SUITS]
        low = rank == 0 and i + 1 < len(meld.ranks) and meld.ranks[i + 1] == 1
        if low and ace_low is not None:
            total += ace_low - values[rank * N_SUITS]
    return total


def _opens(arrangement, values, minimum: int, must: int | None, ace_low: int | None) -> bool:
    if sum(opening_value(m, values, ace_low) for m in arrangement) < minimum:
        return False
    if must is None:
        return True
    if must == JOKER:
        return any(m.jokers > 0 for m in arrangement)
    return any(must in m.naturals for m in arrangement)


def _apart(arrangement, apart: frozenset[int]) -> bool:
    """Every card of ``apart`` melded, each in a meld of its own."""
    counts = [len(apart.intersection(m.naturals)) for m in arrangement]
    return all(n <= 1 for n in counts) and sum(counts) == len(apart)


def _keeps(arrangement, keep: frozenset[int]) -> bool:
    """Every card of ``keep`` melded (one pack: each card once)."""
    return keep <= {k for m in arrangement for k in m.naturals}


def best_arrangement(
    hand: Sequence[int],
    rules: Rules,
    values: Sequence[int],
    limit: int = 0,
    *,
    minimum: int = 0,
    must: int | None = None,
    ace_low: int | None = None,
    apart: Sequence[int] = (),
    keep: Sequence[int] = (),
) -> tuple[int, tuple[Meld, ...]]:
    """(melded value, melds in decision order) of the declared best arrangement, among
    those that make an initial meld of ``minimum`` holding ``must``, meld the cards of
    ``apart`` each in a meld of its own and meld every card of ``keep`` (Conquian's
    re-partition, §3.21) (module docstring)."""
    best = None
    opening = minimum > 0 or must is not None
    kept_apart = frozenset(apart)
    kept = frozenset(keep)
    for arrangement in arrangements(hand, rules, limit):
        if opening and not _opens(arrangement, values, minimum, must, ace_low):
            continue
        if kept_apart and not _apart(arrangement, kept_apart):
            continue
        if kept and not _keeps(arrangement, kept):
            continue
        value = melded_value(arrangement, values)
        order, decided = decision_sequence(hand, arrangement)
        if best is None or value > best[0] or (value == best[0] and order < best[1]):
            best = (value, order, decided)
    if best is None:
        return 0, ()
    return best[0], best[2]
