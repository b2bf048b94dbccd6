"""The engine beside the speed reference, and its cold compile: issue #29's bars.

- ``reference``: ``../shared/bench/proto_bench.py`` (one specialised kernel of 2-player
  basic rummy, greedy), run beside the engine in the same ``make bench`` when the folder
  is there, since these machines' speeds vary by up to 2x;
- ``engine_vs_reference``: 2-player ``rummy_basic`` greedy on one core, and its ratio to
  the reference (bar: 0.4);
- ``cold_compile``: wall and CPU seconds to compile every kernel the played variants
  need (the STANDARD and GENERIC specs) into an empty numba cache, median of two runs in
  fresh processes (bar: 120 s for everything ``make run`` needs).
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "proto_bench.py"

_COMPILE_SCRIPT = """
import numpy as np
from sim.engine import api
from sim.rules import load_variant
for variant in ("rummy_basic", "around_the_corner"):  # the STANDARD and the GENERIC spec
    params, values = api.compile_rules(load_variant(variant), 2)
    api.play(params, values, np.array([0, 1]), hands=20)
"""


def reference(seconds: float = 2.0) -> dict | None:
    """The reference's figure (hands/s, median of its 3 runs), or None without ../shared."""
    if not REFERENCE.exists():
        return None
    done = subprocess.run(
        [sys.executable, REFERENCE.name, str(seconds)],
        cwd=REFERENCE.parent,
        check=True,
        capture_output=True,
        text=True,
    )
    figure = json.loads(done.stdout.strip().splitlines()[-1])
    return {"bench": "reference", "hands_per_s": round(figure["hands_per_s"], 1)}


def engine_hands_per_s(hands: int = 1_000_000) -> float:
    """2-player ``rummy_basic`` greedy on the engine, one core (median of 3)."""
    from sim.engine import api
    from sim.engine.layout import BOT_GREEDY
    from sim.rules import load_variant

    params, values = api.compile_rules(load_variant("rummy_basic"), 2)
    bots = np.full(2, BOT_GREEDY)
    api.play(params, values, bots, hands=100)  # compile or load the cache
    rates = []
    for r in range(3):
        start = time.perf_counter()
        api.play(params, values, bots, hands=hands, first_deal=r * hands, first_game=r * hands)
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def cold_compile(repeats: int = 2) -> dict:
    """Seconds to compile the engine's kernels into an empty cache (medians)."""
    walls, cpus = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", _COMPILE_SCRIPT], env=env, check=True)
            walls.append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return {
        "bench": "cold_compile",
        "what": "rummy_basic and around_the_corner, random and greedy (STANDARD, GENERIC)",
        "wall_seconds": round(statistics.median(walls), 1),
        "cpu_seconds": round(statistics.median(cpus), 1),
    }


def figures(hands: int = 1_000_000) -> list[dict]:
    """The lines ``make bench`` prints first: the reference, the engine beside it, the compile."""
    ref = reference()
    rate = engine_hands_per_s(hands)
    line = {"bench": "engine_vs_reference", "variant": "rummy_basic", "players": 2,
            "bots": "greedy", "hands_per_s": round(rate, 1)}  # fmt: skip
    if ref is not None:
        line["ratio_to_reference"] = round(rate / ref["hands_per_s"], 3)
    return [f for f in (ref, line, cold_compile()) if f is not None]


if __name__ == "__main__":
    for figure in figures(int(os.environ.get("RUMMYSIM_BENCH_HANDS", "1000000"))):
        print(json.dumps(figure), flush=True)
