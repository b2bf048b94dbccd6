"""``rummysim deadwood``: the minimum deadwood of hands and one best arrangement of each,
under a variant's rules (ace rank, run suits, duplicates, card values; RULES.md §1.2, §1.9,
§2A). Hands are parsed in bulk and searched by one compiled kernel per chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from sim.cards import JOKER, N_NATURAL, N_SUITS, RANK_CHARS, SUIT_CHARS, card_name
from sim.engine import layout as L
from sim.engine.melds import (
    CA_JOKERS,
    CA_LEN,
    CA_LO,
    CA_SHAPE,
    CA_TYPE,
    JOKER_DIGIT,
    MELD_GROUP,
    rank_at,
)
from sim.rules import ConfigError, Rules

CHUNK = 100_000  # hands per kernel call
MAX_CARDS = 64  # cards in one hand


def _names() -> dict[str, int]:
    table = {"jk": JOKER, "Jk": JOKER, "JK": JOKER, "joker": JOKER, "*": JOKER}
    for kind in range(N_NATURAL):
        rank, suit = RANK_CHARS[kind // 4], SUIT_CHARS[kind % 4]
        ranks = [rank, rank.lower()] + (["10"] if rank == "T" else [])
        for r in ranks:
            for s in (suit, suit.upper()):
                table[r + s] = kind
    return table


NAME_TO_KIND = _names()


@dataclass(frozen=True)
class Analysis:
    """One hand's result: its cards, minimum deadwood and the melds of one best
    arrangement (each a list of card kinds: a run in its order, a joker where it stands; a
    group by suit, its jokers last)."""

    cards: list[int]
    deadwood: int
    arrangement: list[list[int]]

    def melds(self) -> list[list[int]]:
        """The melds of the arrangement, lowest card first."""
        return sorted(self.arrangement, key=lambda meld: min(meld))

    def left(self) -> list[int]:
        """The cards left out of every meld, in the order given."""
        left = list(self.cards)
        for meld in self.arrangement:
            for card in meld:
                left.remove(card)
        return left


def meld_cards(row: np.ndarray, ace_rank: int) -> list[int]:
    """The cards of one meld row of the search (``sim.engine.melds`` candidate columns)."""
    lo, length, shape = int(row[CA_LO]), int(row[CA_LEN]), int(row[CA_SHAPE])
    if row[CA_TYPE] == MELD_GROUP:  # 4 bits a suit: its natural cards' count
        cards = [lo * N_SUITS + s for s in range(N_SUITS) for _ in range((shape >> 4 * s) & 15)]
        return cards + [JOKER] * int(row[CA_JOKERS])
    cards = []
    for i in range(length):  # 3 bits a position from lo up: its suit, or a joker
        digit = (shape >> 3 * i) & 7
        rank = int(rank_at(lo + i, ace_rank))
        cards.append(JOKER if digit == JOKER_DIGIT else rank * N_SUITS + digit)
    return cards


def parse_hand(tokens: Iterable[str], where: str) -> list[int]:
    """Card kinds of the tokens of one hand; ConfigError naming ``where`` on a bad card."""
    cards = []
    for token in tokens:
        kind = NAME_TO_KIND.get(token)
        if kind is None:
            raise ConfigError(
                f"{where}: {token!r} is not a card",
                allowed="rank A 2-9 T (or 10) J Q K then suit s h d c, e.g. As Td 9h; Jk",
            )
        cards.append(kind)
    if len(cards) > MAX_CARDS:
        raise ConfigError(f"{where}: {len(cards)} cards", allowed=f"at most {MAX_CARDS}")
    return cards


def read_hands(lines: Iterable[str], source: str) -> Iterator[list[int]]:
    """One hand per non-empty line (cards separated by spaces or commas; # starts a comment)."""
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].replace(",", " ").split()
        if text:
            yield parse_hand(text, f"{source}: line {number}")


def analyse(
    rules: Rules, hands: Iterable[list[int]], *, opening: bool = False
) -> Iterator[Analysis]:
    """Minimum deadwood and one best arrangement of each hand, in order: the search play
    uses, under the variant's meld rules and card values, with its largest shoe (the most
    packs and jokers of any table size). ``opening``: only arrangements that make the
    variant's initial meld count (``initial_meld_min``, RULES.md §2D.24), as before a
    player's first lay-down."""
    from sim.engine.analysis import arrange_hands, new_results
    from sim.engine.api import compile_rules
    from sim.engine.specs import GENERIC

    compiled = [compile_rules(rules, p) for p in rules.player_counts]
    params, values = compiled[0]
    params = params.copy()
    shoe = max(int(p[L.P_PACKS]) for p, _ in compiled)
    jokers = max(int(p[L.P_JOKERS]) for p, _ in compiled)
    params[L.P_PACKS] = shoe
    ace_rank = int(params[L.P_ACE_RANK])
    minimum = np.int64(rules.values["initial_meld_min"] if opening else 0)

    def run(batch: list[list[int]]) -> Iterator[Analysis]:
        width = max(len(h) for h in batch)
        cards = np.full((len(batch), width), -1, np.int64)
        for i, hand in enumerate(batch):
            cards[i, : len(hand)] = hand
        _check_copies(cards, shoe, jokers)
        deadwood, best, n_best = new_results(len(batch))
        arrange_hands(GENERIC, params, values, cards, minimum, deadwood, best, n_best)
        for i, hand in enumerate(batch):
            melds = [meld_cards(best[i, m], ace_rank) for m in range(int(n_best[i]))]
            yield Analysis(hand, int(deadwood[i]), melds)

    batch: list[list[int]] = []
    for hand in hands:
        batch.append(hand)
        if len(batch) == CHUNK:
            yield from run(batch)
            batch = []
    if batch:
        yield from run(batch)


def _check_copies(cards: np.ndarray, shoe: int, jokers: int) -> None:
    counts = np.zeros((cards.shape[0], JOKER + 2), np.int64)
    rows = np.repeat(np.arange(cards.shape[0]), cards.shape[1])
    np.add.at(counts, (rows, cards.reshape(-1)), 1)  # padding (-1) lands in the last column
    natural = counts[:, :N_NATURAL].max(axis=1)
    bad = np.flatnonzero((natural > shoe) | (counts[:, JOKER] > jokers))
    if bad.size:
        i = int(bad[0])
        hand = " ".join(card_name(int(k)) for k in cards[i] if k >= 0)
        raise ConfigError(
            f"hand {i + 1} ({hand}) holds more copies of a card than the shoe has",
            allowed=f"at most {shoe} of each card and {jokers} jokers under this variant",
        )


def line(result: Analysis) -> str:
    """``deadwood: [meld] [meld] ...`` for one hand, e.g. ``12: [As 2s 3s] [7h 7d 7c]``
    (``-`` when nothing melds)."""
    melds = " ".join("[" + " ".join(card_name(c) for c in meld) + "]" for meld in result.melds())
    return f"{result.deadwood}: {melds or '-'}"
