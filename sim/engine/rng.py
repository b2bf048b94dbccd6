"""Counter-seeded random numbers for the kernels (splitmix64).

A stream is a ``uint64[1]`` array holding the generator state. Streams are
derived from ``(experiment seed, shard, deal, purpose)`` only, so the shuffle of
a deal never depends on the arm, the worker or the bots (common random numbers).
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

STREAM_DEAL = 1  # shuffles and deals: the same for every arm (common random numbers)
STREAM_BOTS = 2  # random choices of bots and tie-breaks


@kernel
def mix64(z):
    """splitmix64 finaliser: a bijective scramble of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def stream_seed(seed, shard, deal, purpose):
    """Initial state of the stream for one (seed, shard, deal, purpose)."""
    z = mix64(np.uint64(seed) + GOLDEN)
    z = mix64(z ^ (np.uint64(shard) * GOLDEN))
    z = mix64(z ^ (np.uint64(deal) + np.uint64(0x632BE59BD9B4E019)))
    return mix64(z ^ (np.uint64(purpose) * np.uint64(0xD1B54A32D192ED03)))


@kernel
def next_u64(state):
    """Advance ``state`` (uint64[1]) and return the next 64 random bits."""
    state[0] += GOLDEN
    return mix64(state[0])


@kernel
def below(state, n):
    """A uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (multiply-shift on 32 bits)."""
    r = next_u64(state) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))
