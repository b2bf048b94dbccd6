"""Brute-force oracle of the fixed go-out patterns (RULES.md §3.15, Nowrang: exactly three
runs of one suit each, one of 4 and two of 3; groups do not count), written from RULES.md
alone: it imports nothing of ``sim.engine``.

A card is ``rank * 4 + suit`` (rank 0 = ace .. 12 = king). A run is 3 or more cards of one
suit on consecutive ranks; with the ace low the ranks go A, 2, ..., K, with the ace high
2, ..., K, A (Q-K-A legal, A-2-3 not).
"""

from __future__ import annotations

from collections import Counter

ORDER_LOW = list(range(13))  # A, 2, ..., K
ORDER_HIGH = list(range(1, 13)) + [0]  # 2, ..., K, A


def every_run(hand: frozenset[int], length: int, ace_high: bool) -> list[frozenset[int]]:
    """Every run of ``length`` cards that lies inside ``hand``."""
    order = ORDER_HIGH if ace_high else ORDER_LOW
    runs = []
    for suit in range(4):
        for start in range(13 - length + 1):
            cards = frozenset(order[start + i] * 4 + suit for i in range(length))
            if cards <= hand:
                runs.append(cards)
    return runs


def fits(hand: frozenset[int] | set[int], lengths: tuple[int, ...], ace_high: bool) -> bool:
    """Can ``hand`` be split into runs of exactly ``lengths`` (a multiset)? Tries every
    choice of one run a length, by brute force."""
    hand = frozenset(hand)
    if len(hand) != sum(lengths):
        return False
    lengths = tuple(sorted(lengths))
    candidates = {n: every_run(hand, n, ace_high) for n in set(lengths)}

    def place(i: int, used: frozenset[int]) -> bool:
        if i == len(lengths):
            return used == hand
        return any(not run & used and place(i + 1, used | run) for run in candidates[lengths[i]])

    return place(0, frozenset())


def out_cards(hand: set[int], lengths: tuple[int, ...], ace_high: bool) -> set[int]:
    """The cards of an 11-card hand whose discard leaves the pattern."""
    return {c for c in hand if fits(set(hand) - {c}, lengths, ace_high)}


def best_cover(hand: set[int], lengths: tuple[int, ...], ace_high: bool) -> int:
    """The most cards of ``hand`` that runs of ``lengths``, placed anywhere in the pack on
    windows of one suit that do not overlap, can hold (the bots' cover)."""
    order = ORDER_HIGH if ace_high else ORDER_LOW
    windows = {
        n: [
            frozenset(order[start + i] * 4 + suit for i in range(n))
            for suit in range(4)
            for start in range(13 - n + 1)
        ]
        for n in set(lengths)
    }
    need = Counter(lengths)
    best = 0
    pools = [windows[n] for n in sorted(need) for _ in range(need[n])]

    def place(i: int, used: frozenset[int], held: int) -> None:
        nonlocal best
        if i == len(pools):
            best = max(best, held)
            return
        for w in pools[i]:
            if not w & used:
                place(i + 1, used | w, held + len(w & hand))

    place(0, frozenset(), 0)
    return best


def random_pattern_hand(rng, lengths: tuple[int, ...], ace_high: bool) -> set[int]:
    """A hand that fits (runs placed at random until they do not overlap)."""
    order = ORDER_HIGH if ace_high else ORDER_LOW
    while True:
        used: set[int] = set()
        ok = True
        for n in lengths:
            suit = int(rng.integers(4))
            start = int(rng.integers(13 - n + 1))
            run = {order[start + i] * 4 + suit for i in range(n)}
            if run & used:
                ok = False
                break
            used |= run
        if ok:
            return used
