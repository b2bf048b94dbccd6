"""Compile the engine's kernels into numba's cache before anything runs them in
parallel (``make test`` runs this before its test workers start; the runner compiles in its
parent before it forks). Two processes compiling the same kernel at once would both write
numba's cache index, so it is done once, here, outside numba.

``python -m sim.engine.precompile`` prints what it compiles and how long each part took.
"""

from __future__ import annotations

import sys
import time

import numpy as np

from sim.engine import api
from sim.engine.layout import BOT_GREEDY, BOT_RANDOM
from sim.engine.specs import GENERIC, ONE_PACK_KNOCK, ONE_PACK_RUMMY, STANDARD
from sim.rules import load_variant

PARTS = (
    ("rummy_basic", STANDARD),  # the RULES.md baseline's card rules as constants
    ("around_the_corner", ONE_PACK_RUMMY),  # the rummy family's one-pack games, no jokers
    ("gin_rummy", ONE_PACK_KNOCK),  # the knock family's one-pack games, no jokers
    ("around_the_corner", GENERIC),  # every rule read at run time
)
"""One variant per compile-time spec: each compiles the whole kernel tree once."""


def compile_all(out=sys.stdout) -> float:
    """Compile (or load from the cache) every spec's kernels; returns the seconds taken."""
    start = time.perf_counter()
    for variant, spec in PARTS:
        part = time.perf_counter()
        print(f"engine: compiling the {spec.name} kernels ({variant}) ...", file=out,
              flush=True)  # fmt: skip
        params, values = api.compile_rules(load_variant(variant), 2)
        api.play(params, values, np.array([BOT_RANDOM, BOT_GREEDY]), hands=20, spec=spec)
        print(f"engine: {spec.name} ready in {time.perf_counter() - part:.1f} s",
              file=out, flush=True)  # fmt: skip
    return time.perf_counter() - start


if __name__ == "__main__":
    compile_all()
