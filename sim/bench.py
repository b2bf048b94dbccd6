"""Engine benchmarks: hands per second of the kernels, without writing results.

``bench(...)`` returns one JSON-ready dict; ``rummysim bench`` prints it as one line.
Several workers are forked after the kernels are compiled (or loaded from numba's cache) in
the parent, so children start warm; each plays its own shard.
"""

from __future__ import annotations

import os
import time

import numpy as np

from sim.engine import rows as L
from sim.engine.api import compile_rules, play
from sim.rules import load_variant

CHUNK = 250_000  # hands per kernel call (bounds the result arrays kept in memory)


def parse_bots(text: str, players: int) -> list[int]:
    """``greedy`` (every seat) or ``greedy,careful`` (one per seat) to ``BOT_*`` codes."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    for name in names:
        if name not in L.BOT_NAMES:
            raise ValueError(f"unknown bot {name!r}; allowed: {', '.join(L.BOT_NAMES)}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"{len(names)} bots given for {players} players")
    return [L.BOT_NAMES.index(n) for n in names]


def _play_hands(params, values, bots, hands: int, shard: int, seed: int) -> int:
    """Play ``hands`` hands in calls of ``CHUNK``; every call's rows are dropped, so one set
    of result arrays serves them all (``api.Played.reused``)."""
    done = 0
    out = None
    while done < hands:
        n = min(CHUNK, hands - done)
        out = play(
            params,
            values,
            bots,
            seed=seed,
            shard=shard,
            first_deal=done,
            first_game=done,
            hands=n,
            into=out,
        )
        done += out.hands
    return done


def bench(
    variant: str = "rummy_basic",
    players: int = 2,
    bots: str = "greedy",
    hands: int = 1_000_000,
    workers: int = 1,
    seed: int = 0,
    overrides: dict | None = None,
) -> dict:
    """Play ``hands`` hands on ``workers`` processes; return the figures. ``overrides``:
    settings changed on the variant (shown in the figures)."""
    rules = load_variant(variant, overrides or None)
    params, values = compile_rules(rules, players)
    codes = np.array(parse_bots(bots, players), np.int64)
    _play_hands(params, values, codes, 10, shard=0, seed=seed)  # compile or load from cache
    start = time.perf_counter()
    if workers <= 1:
        done = _play_hands(params, values, codes, hands, 0, seed)
    else:
        import multiprocess as mp

        share = [hands // workers + (1 if w < hands % workers else 0) for w in range(workers)]
        ctx = mp.get_context("fork")
        with ctx.Pool(workers) as pool:
            done = sum(
                pool.starmap(
                    _play_hands,
                    [(params, values, codes, share[w], w, seed) for w in range(workers)],
                )
            )
    seconds = time.perf_counter() - start
    return {
        "bench": "engine",
        "variant": variant,
        **({"overrides": overrides} if overrides else {}),
        "players": players,
        "bots": bots,
        "workers": workers,
        "hands": done,
        "seconds": round(seconds, 4),
        "hands_per_s": round(done / seconds, 1),
    }


def cpu_count() -> int:
    """Cores this process may use."""
    return len(os.sched_getaffinity(0))
