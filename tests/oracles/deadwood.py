"""Slow, plain reference for minimum deadwood (RULES.md §1.3, §1.13, §2A.4, §2A.6, §2B.9).

This module is the test oracle the numba engine is compared against. It favours
being easy to check over being fast; it is pure Python and imports nothing from
the engine (the option codes are written again below).

Cards are card kinds (``sim.cards``): ``rank * 4 + suit`` with rank 0 = ace .. 12 =
king, and ``JOKER`` = 52. A hand is a list of kinds and may repeat a kind
(several packs).

Meld contract (what the engine implements):

* Every meld has at least 3 cards and at least one natural (non-joker) card. A
  joker is wild: it stands for any natural card.
* Group: cards of one rank. ``group_duplicates`` False: at most one card of each
  suit, so 3 or 4 cards (a joker takes a missing suit, so naturals + jokers <= 4).
  ``group_duplicates`` True: 3 or more cards of one rank, any suits, repeats
  allowed, no upper bound.
* Run: 3..13 cards on consecutive rank *positions*, one card per position; every
  natural card in one suit (``RUN_SAME_SUIT``) or any suits (``RUN_ANY_SUIT``);
  jokers fill the positions no natural occupies. The position sequences are in
  ``POSITION_SEQUENCES`` (ace low, ace high, ace high or low, around the corner).

How the minimum is found (``min_deadwood``):

1. ``all_melds(hand)`` lists every meld that is a sub-multiset of the hand:
   groups by enumerating every sub-multiset of one rank's naturals plus 0..J
   jokers and keeping those ``is_meld`` accepts; runs by taking every window of
   consecutive positions (``run_windows``) and filling each position with a
   natural of that rank from the hand or a joker in every possible way. Every
   generated run is checked again with ``is_meld``. (The self-tests also compare
   ``all_melds`` with a brute force over *all* sub-multisets of small hands.)
2. A natural card that is in none of those melds is deadwood in every arrangement and
   is set aside. Then an exact, memoised search: take the smallest natural card ``c`` still in the
   hand. In a best arrangement ``c`` is either deadwood, or in some meld, and
   that meld's naturals are all >= ``c`` (smaller ones are already decided), so
   it is one of the melds whose smallest natural is ``c``. Try both, recurse,
   take the minimum. When only jokers remain they are deadwood.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Sequence

from sim.cards import JOKER, N_KINDS, N_RANKS, N_SUITS, cards_text

# The rule codes the oracle takes: the engine's codes (sim/engine/layout.py, the index of the
# value in its declaration), written here again so that the oracle imports no engine code.
ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER = 0, 1, 2, 3
RUN_SAME_SUIT, RUN_ANY_SUIT = 0, 1

ACE_RANK_NAMES = {
    ACE_LOW: "low",
    ACE_HIGH: "high",
    ACE_HIGH_OR_LOW: "high_or_low",
    ACE_AROUND_CORNER: "around_corner",
}
RUN_SUIT_NAMES = {RUN_SAME_SUIT: "same_suit", RUN_ANY_SUIT: "any_suit"}

MAX_RUN = 13  # a run never holds a rank twice, so at most 13 cards

# Rank (0 = ace .. 12 = king) at each run position, in order (§2A.4).
#   low:           A 2 3 ... K          (A-2-3 legal, Q-K-A not)
#   high:          2 3 ... K A          (Q-K-A legal, A-2-3 not)
#   high_or_low:   A 2 3 ... K A        (both; a window of <= 13 positions never
#                                        holds the ace at both ends; K-A-2 never)
#   around_corner: cyclic, any start    (K-A-2 legal)
POSITION_SEQUENCES = {
    ACE_LOW: list(range(N_RANKS)),
    ACE_HIGH: list(range(1, N_RANKS)) + [0],
    ACE_HIGH_OR_LOW: list(range(N_RANKS)) + [0],
}


@functools.cache
def run_windows(ace_rank: int, length: int) -> list[frozenset[int]]:
    """Every run of ``length`` consecutive positions, as the set of ranks it covers
    (no window holds a rank twice)."""
    if not 3 <= length <= MAX_RUN:
        return []
    if ace_rank == ACE_AROUND_CORNER:
        windows = [[(start + i) % N_RANKS for i in range(length)] for start in range(N_RANKS)]
    else:
        seq = POSITION_SEQUENCES[ace_rank]
        windows = [seq[start : start + length] for start in range(len(seq) - length + 1)]
    assert all(len(set(w)) == length for w in windows)
    return [frozenset(w) for w in windows]


# ---- predicates ------------------------------------------------------------------------


def _split(cards: Sequence[int]) -> tuple[list[int], int]:
    naturals = [int(k) for k in cards if k != JOKER]
    for k in naturals:
        if not 0 <= k < JOKER:
            raise ValueError(f"not a card kind: {k}")
    return naturals, len(cards) - len(naturals)


def is_group(cards: Sequence[int], group_duplicates: bool) -> bool:
    """Group rule (§1.3, §2B.9); jokers are wild."""
    naturals, jokers = _split(cards)
    if len(cards) < 3 or not naturals:
        return False
    if len({k // N_SUITS for k in naturals}) != 1:
        return False
    if group_duplicates:
        return True
    suits = [k % N_SUITS for k in naturals]
    # one card per suit: the naturals' suits differ and each joker takes a missing suit
    return len(set(suits)) == len(suits) and len(naturals) + jokers <= N_SUITS


def is_run(cards: Sequence[int], ace_rank: int, run_suit: int) -> bool:
    """Run rule (§1.3, §2A.4, §2A.6): some window of ``len(cards)`` consecutive positions
    holds every natural card at the position of its rank (one card per position); the
    jokers take the remaining positions."""
    naturals, _jokers = _split(cards)
    n = len(cards)
    if not 3 <= n <= MAX_RUN or not naturals:
        return False
    if run_suit == RUN_SAME_SUIT and len({k % N_SUITS for k in naturals}) != 1:
        return False
    ranks = [k // N_SUITS for k in naturals]
    if len(set(ranks)) != len(ranks):  # one card per position, and no window repeats a rank
        return False
    # the naturals sit at their ranks' positions in the window; the window's other
    # n - len(naturals) positions are exactly as many as there are jokers
    return any(set(ranks) <= window for window in run_windows(ace_rank, n))


def is_meld(cards: Sequence[int], ace_rank: int, run_suit: int, group_duplicates: bool) -> bool:
    """True when ``cards`` (a list of kinds) is one legal group or run."""
    return is_group(cards, group_duplicates) or is_run(cards, ace_rank, run_suit)


# ---- candidate melds --------------------------------------------------------------------


def _sub_multisets(counter: dict[int, int]) -> Iterable[tuple[int, ...]]:
    """Every sub-multiset of ``counter`` (kind -> count) as a sorted tuple of kinds."""
    kinds = sorted(counter)
    for picks in itertools.product(*(range(counter[k] + 1) for k in kinds)):
        yield tuple(k for k, c in zip(kinds, picks, strict=True) for _ in range(c))


def all_melds(
    cards: Sequence[int], ace_rank: int, run_suit: int, group_duplicates: bool
) -> set[tuple[int, ...]]:
    """Every legal meld that is a sub-multiset of ``cards``, as sorted tuples of kinds."""
    count = Counter(int(k) for k in cards)
    jokers = count.pop(JOKER, 0)
    melds: set[tuple[int, ...]] = set()

    # Groups: every sub-multiset of one rank's naturals, plus 0..jokers jokers.
    by_rank: dict[int, dict[int, int]] = {}
    for k, c in count.items():
        by_rank.setdefault(k // N_SUITS, {})[k] = c
    for same_rank in by_rank.values():
        if sum(same_rank.values()) + jokers < 3:
            continue  # too few cards of this rank for any group
        for nat in _sub_multisets(same_rank):
            if not nat:
                continue
            for j in range(jokers + 1):
                cand = nat + (JOKER,) * j
                if is_group(cand, group_duplicates):
                    melds.add(cand)

    # Runs: every window of consecutive positions; each position holds a natural of
    # that rank from the hand (of the run's suit) or a joker. Windows are grown from
    # each start one position at a time, and growing stops once more positions lack
    # a natural than there are jokers (a longer window from that start lacks them too).
    suit_choices = range(N_SUITS) if run_suit == RUN_SAME_SUIT else [None]
    # naturals_at[suit][rank]: the kinds in the hand of that rank (and of that suit,
    # or of any suit when suit is None)
    naturals_at = {suit: [[] for _ in range(N_RANKS)] for suit in suit_choices}
    for k in sorted(count):
        rank, suit = divmod(k, N_SUITS)
        naturals_at[None if run_suit == RUN_ANY_SUIT else suit][rank].append(k)
    for start, seq in _window_starts(ace_rank):
        for suit in suit_choices:
            options: list[list[int]] = []
            missing = 0
            at = naturals_at[suit]
            for i in range(start, min(start + MAX_RUN, len(seq))):
                opts = at[seq[i]]
                missing += not opts
                if missing > jokers:
                    break
                options.append(opts)
                if len(options) >= 3:
                    for fill in _fills(options, jokers):
                        cand = tuple(sorted(fill))
                        if cand not in melds:
                            if not is_run(cand, ace_rank, run_suit):  # re-check the construction
                                raise AssertionError(f"generated a non-run: {cards_text(cand)}")
                            melds.add(cand)
    return melds


def _window_starts(ace_rank: int) -> list[tuple[int, list[int]]]:
    """(start, sequence) pairs: the windows of ``run_windows`` are ``sequence[start:start+L]``."""
    if ace_rank == ACE_AROUND_CORNER:
        doubled = list(range(N_RANKS)) * 2
        return [(start, doubled) for start in range(N_RANKS)]
    seq = POSITION_SEQUENCES[ace_rank]
    return [(start, seq) for start in range(len(seq))]


def _fills(options: list[list[int]], jokers: int, have_natural: bool = False):
    """Every way to fill the positions: one kind from each position's options or a joker,
    using at most ``jokers`` jokers, with at least one natural overall."""
    if not options:
        if have_natural:
            yield []
        return
    head, tail = options[0], options[1:]
    for k in head:
        yield from ([k] + rest for rest in _fills(tail, jokers, True))
    if jokers > 0:
        yield from ([JOKER] + rest for rest in _fills(tail, jokers - 1, have_natural))


# ---- exact search ------------------------------------------------------------------------


def min_deadwood(
    cards: Sequence[int],
    ace_rank: int,
    run_suit: int,
    group_duplicates: bool,
    card_values: Sequence[int],
    max_melds: int = 0,
) -> int:
    """Minimum total value of the cards left out of melds, over every choice of disjoint
    melds from ``cards`` (at most ``max_melds`` melds when it is > 0)."""
    return min_deadwood_arrangement(
        cards, ace_rank, run_suit, group_duplicates, card_values, max_melds
    )[0]


def min_deadwood_arrangement(
    cards: Sequence[int],
    ace_rank: int,
    run_suit: int,
    group_duplicates: bool,
    card_values: Sequence[int],
    max_melds: int = 0,
) -> tuple[int, list[list[int]]]:
    """``min_deadwood`` plus one best arrangement (a list of melds)."""
    if len(card_values) != N_KINDS:
        raise ValueError(f"card_values needs {N_KINDS} entries, got {len(card_values)}")
    values = [int(v) for v in card_values]
    hand = sorted(int(k) for k in cards)
    melds = all_melds(hand, ace_rank, run_suit, group_duplicates)
    # A natural card that is in no meld of the hand is deadwood in every arrangement:
    # set it aside (this only makes the search smaller).
    in_melds = {k for meld in melds for k in meld}
    fixed = sum(values[k] for k in hand if k != JOKER and k not in in_melds)
    hand = [k for k in hand if k == JOKER or k in in_melds]
    kinds = sorted(set(hand))  # naturals ascending, then the joker (52) last
    index = {k: i for i, k in enumerate(kinds)}
    start = tuple(hand.count(k) for k in kinds)
    n_nat = sum(1 for k in kinds if k != JOKER)
    joker_count_at = lambda state: state[n_nat] if n_nat < len(kinds) else 0  # noqa: E731

    # Melds as sparse (index, count) lists, bucketed by their smallest natural.
    by_min: list[list[tuple[tuple[int, ...], list[tuple[int, int]]]]] = [[] for _ in kinds]
    for meld in sorted(melds):
        need = Counter(index[k] for k in meld)
        by_min[index[meld[0]]].append((meld, sorted(need.items())))

    unlimited = max_melds <= 0
    memo: dict[tuple[tuple[int, ...], int], tuple[int, tuple[tuple[int, ...], ...]]] = {}

    def best(state: tuple[int, ...], left: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
        key = (state, left)
        if key in memo:
            return memo[key]
        first = next((i for i in range(n_nat) if state[i]), None)
        if first is None:  # only jokers left: deadwood
            result = (joker_count_at(state) * values[JOKER], ())
        else:
            # (a) the smallest natural is deadwood
            rest = list(state)
            rest[first] -= 1
            value, arrangement = best(tuple(rest), left)
            result = (value + values[kinds[first]], arrangement)
            # (b) it is in a meld whose smallest natural it is
            if unlimited or left > 0:
                for meld, need in by_min[first]:
                    if all(state[i] >= c for i, c in need):
                        rest = list(state)
                        for i, c in need:
                            rest[i] -= c
                        value, arrangement = best(tuple(rest), left - 1)
                        if value < result[0]:
                            result = (value, (meld,) + arrangement)
        memo[key] = result
        return result

    value, arrangement = best(start, -1 if unlimited else max_melds)
    return fixed + value, [list(m) for m in arrangement]


def deadwood_of(cards: Sequence[int], melds: Sequence[Sequence[int]], card_values) -> int:
    """Value of the cards of ``cards`` not used by ``melds`` (which must fit in ``cards``)."""
    left = Counter(int(k) for k in cards)
    left.subtract(Counter(int(k) for m in melds for k in m))
    if any(c < 0 for c in left.values()):
        raise ValueError("the melds use cards that are not in the hand")
    return sum(int(card_values[k]) * c for k, c in left.items())


# ---- hands ---------------------------------------------------------------------------------


def shoe(decks: int, jokers: int) -> list[int]:
    """Every card of ``decks`` packs plus ``jokers`` jokers."""
    return [k for _ in range(decks) for k in range(JOKER)] + [JOKER] * jokers


def random_hand(rng: random.Random, n_cards: int, decks: int = 1, jokers: int = 0) -> list[int]:
    """``n_cards`` cards drawn without replacement from a shoe of ``decks`` packs plus
    ``jokers`` jokers, sorted. ``rng`` is a ``random.Random``."""
    return sorted(rng.sample(shoe(decks, jokers), n_cards))


def baseline_values(ace: int = 1, joker: int = 15) -> list[int]:
    """§1.9 baseline values by kind: A = ``ace``, 2..10 pip, J/Q/K 10, joker ``joker``."""
    per_rank = [ace] + list(range(2, 11)) + [10, 10, 10]
    return [per_rank[k // N_SUITS] for k in range(JOKER)] + [joker]
