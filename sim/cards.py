"""Card identities, names and decks (RULES.md §1.1).

A *card kind* is an integer: ``rank * 4 + suit`` for the 52 natural cards, with
rank 0 = ace, 1 = two, ... 9 = ten, 10 = jack, 11 = queen, 12 = king and suit
0..3 = spades, hearts, diamonds, clubs; ``JOKER`` (52) for a joker. Several packs
hold several physical copies of the same kind, so hands are count arrays of
length ``N_KINDS`` indexed by kind.

Names are two characters: rank ``A 2..9 T J Q K`` then suit ``s h d c``, e.g.
``As Td 9h``; a joker is ``Jk``.
"""

from __future__ import annotations

N_RANKS = 13
N_SUITS = 4
N_NATURAL = N_RANKS * N_SUITS
JOKER = N_NATURAL
N_KINDS = N_NATURAL + 1

RANK_CHARS = "A23456789TJQK"
SUIT_CHARS = "shdc"
JOKER_NAME = "Jk"


def card_kind(rank: int, suit: int) -> int:
    """The kind of the natural card of ``rank`` (0 = ace .. 12 = king) and ``suit``."""
    return rank * N_SUITS + suit


def rank_of(kind: int) -> int:
    """Rank index (0 = ace .. 12 = king) of a natural card kind."""
    return kind // N_SUITS


def suit_of(kind: int) -> int:
    """Suit index (0 = spades, 1 = hearts, 2 = diamonds, 3 = clubs) of a natural card kind."""
    return kind % N_SUITS


def card_name(kind: int) -> str:
    """Two-character name of a card kind, e.g. ``Td`` or ``Jk``."""
    if kind == JOKER:
        return JOKER_NAME
    if not 0 <= kind < N_NATURAL:
        raise ValueError(f"not a card kind: {kind}")
    return RANK_CHARS[rank_of(kind)] + SUIT_CHARS[suit_of(kind)]


def parse_card(name: str) -> int:
    """Card kind of a name such as ``As``, ``10h``, ``Td`` or ``Jk`` (case-insensitive suit)."""
    text = name.strip()
    if text.lower() in ("jk", "joker", "*"):
        return JOKER
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2:
        raise ValueError(f"bad card name {name!r}: expected rank (A23456789TJQK) and suit (shdc)")
    rank = RANK_CHARS.find(text[0].upper())
    suit = SUIT_CHARS.find(text[1].lower())
    if rank < 0 or suit < 0:
        raise ValueError(f"bad card name {name!r}: expected rank (A23456789TJQK) and suit (shdc)")
    return card_kind(rank, suit)


def parse_cards(text: str | list[str]) -> list[int]:
    """Card kinds of a whitespace/comma separated string or a list of names."""
    names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(n) for n in names]


def cards_text(kinds) -> str:
    """Space-separated names of an iterable of card kinds."""
    return " ".join(card_name(int(k)) for k in kinds)
