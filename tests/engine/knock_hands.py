"""Hands as bitmasks for the knock family's kernel tests (``knock_melds``, ``knock_bots``):
card values under an ace rule, masks and card lists, random hands rich in melds."""

from __future__ import annotations

import random

import numpy as np

from sim.engine import layout as L

ACES = [L.ACE_LOW, L.ACE_HIGH, L.ACE_AROUND_CORNER]
"""The ace rules the knock family takes."""


def values_for(ace_rank: int) -> np.ndarray:
    """Card values of one pack: A 1 (10 when ace high), 2-10 pip, J/Q/K 10."""
    values = np.zeros(L.N_KINDS, np.int64)
    for kind in range(52):
        rank = kind // 4
        values[kind] = (10 if ace_rank == L.ACE_HIGH else 1) if rank == 0 else min(rank + 1, 10)
    return values


def mask_of(cards) -> int:
    """The bitmask of a list of card kinds."""
    m = 0
    for k in cards:
        m |= 1 << int(k)
    return m


def cards_of(mask: int) -> list[int]:
    """The card kinds of a bitmask, lowest first."""
    return [k for k in range(52) if (mask >> k) & 1]


def random_hand(rng: random.Random, n: int) -> list[int]:
    """``n`` distinct cards; half the hands from a narrow band of ranks, where melds and
    contested ranks are common."""
    pool = range(52) if rng.random() < 0.5 else range(rng.randrange(0, 24), 52)
    pool = list(pool)[:28] if len(pool) > 28 and rng.random() < 0.5 else list(pool)
    return rng.sample(pool, n)


ANY_SUIT_ACES = [L.ACE_LOW, L.ACE_HIGH]
"""The ace rules the knock family takes with runs of any suits (RULES.md §2A.6)."""


def position_of(kind: int, ace_rank: int) -> int:
    """The run position of a card (ace low: its rank; ace high: the ace on top)."""
    rank = kind // 4
    return (rank - 1) % 13 if ace_rank == L.ACE_HIGH else rank


def field_count(counts: int, position: int) -> int:
    """The 4-bit count of one position in a ``lows``/``highs`` count mask."""
    return (counts >> (4 * position)) & 15


def runs_from_spans(runs: int, lows: int, highs: int, ace_rank: int) -> list[list[int]]:
    """The runs of any suits that ``knock_melds.arrange_spans`` describes, as card lists:
    position by position, the runs begun there open, each open run takes one card of the
    position from ``runs`` (lowest suit to the oldest run), then the oldest runs end.
    Asserts that the cards and the ends agree."""
    open_runs: list[list[int]] = []
    done: list[list[int]] = []
    for pos in range(13):
        open_runs += [[] for _ in range(field_count(lows, pos))]
        cards = [k for k in cards_of(runs) if position_of(k, ace_rank) == pos]
        assert len(cards) == len(open_runs), (pos, cards, len(open_runs))
        for run, card in zip(open_runs, cards, strict=True):
            run.append(card)
        for _ in range(field_count(highs, pos)):
            done.append(open_runs.pop(0))
    assert not open_runs
    return done
