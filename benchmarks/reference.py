"""The engine beside the speed reference, and its cold compile: issue #29's bars.

- ``reference``: ``../shared/bench/proto_bench.py`` (one specialised kernel of 2-player
  basic rummy, greedy), run beside the engine in the same ``make bench`` when the folder
  is there, since these machines' speeds vary by up to 2x;
- ``engine_vs_reference``: 2-player ``rummy_basic`` greedy on one core, and its ratio to
  the reference (bar: 0.4);
- ``cold_compile``: wall and CPU seconds to compile every kernel that ``make run`` and the
  five variants of issue #29 need, planned as one run (``specs.plan_specs``: the
  ONE_PACK_RUMMY spec, STANDARD's rummy_basic folded into it), into an empty numba cache,
  median of two runs in fresh processes (bar: 120 s); ``cold_compile_every_spec``
  the same with ONE_PACK_KNOCK and GENERIC too (gin, Tonk and every other variant: what
  ``make test`` compiles).
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
import sys, time
import numpy as np
from sim.engine import api
from sim.engine.specs import plan_specs, spec_for
from sim.rules import load_variant
start = time.perf_counter()
plays = []
for variant, players in {variants!r}:
    params, values = api.compile_rules(load_variant(variant), players)
    bots = np.array([0, 1] * (players // 2))
    plays.append((api.with_bots(params, api.kernel_bots(bots)), values, bots))
# as the runner plans them (sim.runner.run._arm_specs): one plan, few hands; or each its own
if {fold}:
    specs = plan_specs([(params, 20) for params, _, _ in plays])
else:
    specs = [spec_for(params) for params, _, _ in plays]
for (params, values, bots), spec in zip(plays, specs):
    api.play(params, values, bots, hands=20, spec=spec)
print(time.perf_counter() - start)
"""

MAKE_RUN = (
    ("rummy_basic", 2),  # STANDARD's, played under ONE_PACK_RUMMY in one plan (specs.FOLDS)
    ("around_the_corner", 2),  # ONE_PACK_RUMMY: the default experiment's other arms
    ("block_rummy", 4),
    ("full_rummy", 2),  # the five variants of issue #29, on ONE_PACK_RUMMY too
    ("queen_city_rum", 2),
    ("boat_house_rum", 2),
    ("throw_down_rummy", 2),
    ("call_rummy", 2),
)
"""What ``make run`` and the five variants of issue #29 play: their specs' kernels are what
the cold compile bar counts (the first ``make run`` of a new user), planned as one run plans
its arms (``specs.plan_specs``): ONE_PACK_RUMMY alone."""

EVERY_SPEC = (*MAKE_RUN, ("gin_rummy", 2), ("tonk", 2))
"""Then ONE_PACK_KNOCK (gin) and GENERIC (Tonk and every other variant): what ``make test``
compiles."""


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


def _compile_seconds(
    variants: tuple[tuple[str, int], ...], fold: bool = True
) -> tuple[float, float]:
    """Wall and CPU seconds of a fresh process that plays ``variants`` into an empty cache,
    under the specs one run of them would plan (``fold``), or each under its most specific."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        script = _COMPILE_SCRIPT.format(variants=variants, fold=fold)
        subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def cold_compile(repeats: int = 2) -> list[dict]:
    """Seconds to compile the engine's kernels into an empty cache (medians): what
    ``make run`` needs (the bar), then every spec."""
    lines = []
    cases = (
        ("cold_compile", MAKE_RUN, "ONE_PACK_RUMMY", True),
        (
            "cold_compile_every_spec",
            EVERY_SPEC,
            "STANDARD, ONE_PACK_RUMMY, ONE_PACK_KNOCK, GENERIC",
            False,
        ),
    )
    for name, variants, specs, fold in cases:
        runs = [_compile_seconds(variants, fold) for _ in range(repeats)]
        lines.append(
            {
                "bench": name,
                "what": ", ".join(v for v, _ in variants),
                "specs": specs,
                "wall_seconds": round(statistics.median(w for w, _ in runs), 1),
                "cpu_seconds": round(statistics.median(c for _, c in runs), 1),
            }
        )
    return lines


def figures(hands: int = 1_000_000) -> list[dict]:
    """The lines ``make bench`` prints first: the reference, the engine beside it, the compile."""
    ref = reference()
    rate = engine_hands_per_s(hands)
    line = {"bench": "engine_vs_reference", "variant": "rummy_basic", "players": 2,
            "bots": "greedy", "hands_per_s": round(rate, 1)}  # fmt: skip
    if ref is not None:
        line["ratio_to_reference"] = round(rate / ref["hands_per_s"], 3)
    return [f for f in (ref, line) if f is not None] + cold_compile()


if __name__ == "__main__":
    for figure in figures(int(os.environ.get("RUMMYSIM_BENCH_HANDS", "1000000"))):
        print(json.dumps(figure), flush=True)
