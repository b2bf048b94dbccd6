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
