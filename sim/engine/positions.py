"""Run positions under each ace rule (RULES.md §1.2, §2A.4).

A run occupies consecutive *positions*. Each ace rule maps positions to ranks:

- ``ACE_LOW``: positions 0..12 are A, 2, ..., K.
- ``ACE_HIGH``: positions 0..12 are 2, ..., K, A.
- ``ACE_HIGH_OR_LOW``: positions 0..13 are A, 2, ..., K, A; a run holds at most
  13 cards, so it never has the ace at both ends (K-A-2 cannot be formed).
- ``ACE_AROUND_CORNER``: positions 0..12 are A..K and wrap around: a run may
  start anywhere and continue past K back to A (at most 13 cards, no rank twice).
"""

from __future__ import annotations

from sim.engine.jit import kernel
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    N_RANKS,
)

MAX_RUN = 13  # no rank may appear twice in one run


@kernel
def n_positions(ace_rank):
    """How many distinct run positions exist (14 for high_or_low, else 13)."""
    if ace_rank == ACE_HIGH_OR_LOW:
        return N_RANKS + 1
    return N_RANKS


@kernel
def wraps(ace_rank):
    """True when runs may wrap from K back to A (around the corner)."""
    return ace_rank == ACE_AROUND_CORNER


@kernel
def rank_at(pos, ace_rank):
    """Rank (0 = ace .. 12 = king) at run position ``pos`` (already reduced if wrapping)."""
    if ace_rank == ACE_HIGH:
        return (pos + 1) % N_RANKS
    return pos % N_RANKS


@kernel
def first_position(rank, ace_rank):
    """The (lowest) run position of ``rank``."""
    if ace_rank == ACE_HIGH:
        return (rank + N_RANKS - 1) % N_RANKS
    return rank


@kernel
def second_position(rank, ace_rank):
    """The other position of an ace under high_or_low (13), else -1."""
    if ace_rank == ACE_HIGH_OR_LOW and rank == 0:
        return N_RANKS
    return -1


@kernel
def position_ok(pos, ace_rank):
    """Whether ``pos`` (possibly past the end when wrapping) is usable; returns the reduced
    position or -1."""
    if wraps(ace_rank):
        return pos % N_RANKS
    if pos < 0 or pos >= n_positions(ace_rank):
        return -1
    return pos


@kernel
def distance(rank_a, rank_b, ace_rank):
    """Smallest gap in run positions between two ranks (0 = same rank)."""
    best = 99
    pa = first_position(rank_a, ace_rank)
    qa = second_position(rank_a, ace_rank)
    pb = first_position(rank_b, ace_rank)
    qb = second_position(rank_b, ace_rank)
    for x in (pa, qa):
        if x < 0:
            continue
        for y in (pb, qb):
            if y < 0:
                continue
            d = abs(x - y)
            if wraps(ace_rank):
                d = min(d, N_RANKS - d)
            if d < best:
                best = d
    return best
