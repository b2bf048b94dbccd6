"""``rummysim deadwood``: the minimum deadwood of hands and one best arrangement of each,
under a variant's rules (ace rank, run suits, duplicates, card values; RULES.md §1.2, §1.9,
§2A). Hands are parsed in bulk and searched by one compiled kernel per chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from sim.cards import JOKER, N_NATURAL, RANK_CHARS, SUIT_CHARS, card_name
from sim.engine import layout as L
from sim.rules import ConfigError, Rules, compile_rules

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
    """One hand's result: its cards, minimum deadwood and meld number per card (-1: left)."""

    cards: list[int]
    deadwood: int
    assign: list[int]

    def melds(self) -> list[list[int]]:
        """The melds of the arrangement, each a list of card kinds (runs in order)."""
        from sim.engine.analysis import MELD_SLOT

        placed = sorted((a, c) for c, a in zip(self.cards, self.assign, strict=True) if a >= 0)
        melds: dict[int, list[int]] = {}
        for a, c in placed:
            melds.setdefault(a // MELD_SLOT, []).append(c)
        return list(melds.values())

    def left(self) -> list[int]:
        """The cards left out of every meld."""
        return [c for c, a in zip(self.cards, self.assign, strict=True) if a < 0]


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


def analyse(rules: Rules, hands: Iterable[list[int]]) -> Iterator[Analysis]:
    """Minimum deadwood and one best arrangement of each hand, in order."""
    compiled = compile_rules(rules, rules.players[0])
    shoe = max(rules.decks_for(p) for p in rules.player_counts)
    jokers = max(int(compile_rules(rules, p).params[L.P_JOKERS]) for p in rules.player_counts)
    from sim.engine.analysis import deadwood_batch

    batch: list[list[int]] = []

    def run(batch: list[list[int]]) -> Iterator[Analysis]:
        width = max(len(h) for h in batch)
        cards = np.full((len(batch), width), -1, np.int64)
        for i, hand in enumerate(batch):
            cards[i, : len(hand)] = hand
        _check_copies(cards, shoe, jokers)
        deadwood = np.zeros(len(batch), np.int64)
        assign = np.zeros_like(cards)
        deadwood_batch(compiled.params, compiled.card_values, cards, deadwood, assign)
        for i, hand in enumerate(batch):
            yield Analysis(hand, int(deadwood[i]), assign[i, : len(hand)].tolist())

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
