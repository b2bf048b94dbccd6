"""Counter-seeded random numbers for the kernels (splitmix64).

A stream is one slot of a ``uint64`` array holding the generator's state. Streams are
derived from ``(experiment seed, shard, deal, purpose)`` only, so the shuffle of a deal
never depends on the rules, the worker or the bots (common random numbers).
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)

STREAM_DEAL = 1  # shuffles and deals: the same for every arm (common random numbers)
STREAM_BOTS = 2  # the bots' random choices
STREAM_GAME = 3  # a game's first dealer

RNG_DEAL = 0  # slots of the rng array
RNG_BOTS = 1
N_RNG = 2


@kernel
def mix64(z):
    """splitmix64's finaliser: a bijective scramble of a uint64."""
    z = np.uint64(z)
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@kernel
def stream_seed(seed, shard, deal, purpose):
    """The initial state of the stream of one (seed, shard, deal, purpose)."""
    z = mix64(np.uint64(seed) + GOLDEN)
    z = mix64(z ^ (np.uint64(shard) * GOLDEN))
    z = mix64(z ^ (np.uint64(deal) + np.uint64(0x632BE59BD9B4E019)))
    return mix64(z ^ (np.uint64(purpose) * np.uint64(0xD1B54A32D192ED03)))


@kernel
def below(rng, slot, n):
    """A uniform integer in ``[0, n)`` (1 <= n < 2**32) from stream ``slot`` of ``rng``
    (multiply-shift on the upper 32 bits of the next draw)."""
    rng[slot] += GOLDEN
    r = mix64(rng[slot]) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))
