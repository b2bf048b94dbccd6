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


# ---- wild cards, several packs, the ace high or low (Continental, RULES.md §3.11, §2B.14) ----
#
# A hand is a Counter of natural cards (copies from several packs) and a number of jokers.
# Runs only, of one suit, on consecutive places; with the ace "high_or_low" the places go A, 2,
# ..., K, A and a run never holds both aces (no run here is long enough to). A place of a run
# holds a natural card of that suit and rank, or a wild card: a joker or, with deuces wild, a
# 2 of any suit (a 2 on its own place, its suit's rank 2, is natural, not wild). Every run
# holds at least one natural card. The hand fits when all its cards are used exactly.

ORDER_HIGH_OR_LOW = list(range(13)) + [0]  # A, 2, ..., K, A


def _places(ace: str) -> list[int]:
    return {"low": ORDER_LOW, "high": ORDER_HIGH, "high_or_low": ORDER_HIGH_OR_LOW}[ace]


def fits_wild(
    hand: Counter, jokers: int, alternatives: list[tuple[int, ...]], ace: str, deuces: bool
) -> bool:
    """Does the hand split into runs of exactly one of the ``alternatives`` (module notes)?
    A search that puts the lowest natural card that must stand on its own place into a run,
    trying every window and every choice of natural or wild card on each other place."""
    order = _places(ace)
    n_cards = sum(hand.values()) + jokers
    for lengths in alternatives:
        if n_cards == sum(lengths) and _fit(
            tuple(sorted(hand.elements())), jokers, tuple(sorted(lengths)), order, deuces, 0, {}
        ):
            return True
    return False


def _is_deuce(card: int) -> bool:
    return card // 4 == 1


def _fit(cards, jokers, lengths, order, deuces, wilds, memo) -> bool:
    """``cards`` (sorted naturals left), ``wilds`` places given to wild cards so far."""
    key = (cards, lengths, wilds)
    if key in memo:
        return memo[key]
    spare_deuces = sum(1 for c in cards if _is_deuce(c)) if deuces else 0
    if wilds > jokers + spare_deuces:
        memo[key] = False
        return False
    if not lengths:
        # what is left must be the wild cards used: jokers and deuces off their places
        ok = len(cards) == spare_deuces and wilds == jokers + spare_deuces
        memo[key] = ok
        return ok
    must = [c for c in cards if not (deuces and _is_deuce(c))]
    # the run holding a natural card: the lowest card that cannot be wild, else any deuce
    anchors = must[:1] if must else sorted(set(cards))
    ok = False
    for anchor in anchors:
        for n in sorted(set(lengths)):
            rest_lengths = list(lengths)
            rest_lengths.remove(n)
            for start in range(len(order) - n + 1):
                window = [order[start + i] * 4 + anchor % 4 for i in range(n)]
                if anchor not in window:
                    continue
                for left, w in _fills(window, anchor, cards):
                    if _fit(left, jokers, tuple(rest_lengths), order, deuces, wilds + w, memo):
                        ok = True
                        break
                if ok:
                    break
            if ok:
                break
        if ok:
            break
    memo[key] = ok
    return ok


def _fills(window, anchor, cards):
    """Every way to fill the window's places, the anchor on its own: each other place a
    natural card of the hand or a wild card. Yields (cards left, wild places)."""
    left = list(cards)
    left.remove(anchor)
    others = [c for c in window if c != anchor or window.count(anchor) > 1]
    if window.count(anchor) > 1:
        others.remove(anchor)
    seen = set()

    def walk(i, pool, wild):
        if i == len(others):
            t = tuple(sorted(pool))
            if (t, wild) not in seen:
                seen.add((t, wild))
                yield t, wild
            return
        c = others[i]
        if c in pool:
            p = list(pool)
            p.remove(c)
            yield from walk(i + 1, p, wild)
        yield from walk(i + 1, pool, wild + 1)

    yield from walk(0, left, 0)


def wild_out_cards(
    hand: Counter, jokers: int, alternatives: list[tuple[int, ...]], ace: str, deuces: bool
) -> set[int]:
    """The natural cards of a hand one card longer than the pattern whose discard leaves a
    hand that fits."""
    out = set()
    for c in set(hand):
        rest = Counter(hand)
        rest[c] -= 1
        if fits_wild(+rest, jokers, alternatives, ace, deuces):
            out.add(c)
    return out


def random_wild_hand(rng, lengths: tuple[int, ...], ace: str, deuces: bool, packs: int):
    """A hand that fits ``lengths``: runs of random suits and places, each place a natural
    card or (one time in five) a joker or, with deuces wild, a 2; at most ``packs`` copies
    of a card. Returns (Counter of naturals, jokers)."""
    order = _places(ace)
    while True:
        hand: Counter = Counter()
        jokers = 0
        for n in lengths:
            suit = int(rng.integers(4))
            start = int(rng.integers(len(order) - n + 1))
            keep = int(rng.integers(n))  # one natural card in every run
            for i in range(n):
                card = order[start + i] * 4 + suit
                if i != keep and rng.random() < 0.2:
                    if deuces and rng.random() < 0.5:
                        hand[4 + int(rng.integers(4))] += 1
                    else:
                        jokers += 1
                else:
                    hand[card] += 1
        if max(hand.values()) <= packs:
            return hand, jokers
