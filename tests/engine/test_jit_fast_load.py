"""sim.engine.jit loads cached kernels without numba's full context refresh (issue #2).

The shortcut is safe only because every engine kernel is nopython code: these tests keep it
so, and check in fresh processes that a warm cache plays the same hands with and without it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from sim.engine import jit
from tests.engine.helpers import run_json_script

ENGINE = Path(jit.__file__).parent


def test_the_engine_never_uses_object_mode():
    """A cached function with object-mode parts needs numba's registries at load time; the
    fast path skips loading them, so no engine module (nor the report's kernels) may ask for
    object mode (objmode blocks, forceobj, lifted loops), and every kernel is made by
    jit.py's decorators."""
    for path in [*sorted(ENGINE.glob("*.py")), ENGINE.parent / "report" / "kernels.py"]:
        text = path.read_text(encoding="utf-8")
        for word in ("objmode", "object_mode", "forceobj", "looplift"):
            if path.name == "jit.py" and word in ("objmode", "object_mode"):
                continue  # its docstring explains why they must not appear elsewhere
            assert word not in text, f"{path.name} uses {word}"
        if path.name != "jit.py":
            assert not re.search(r"\b(njit|numba\.jit|jit)\s*\(", text), path.name
            assert not re.search(r"^@(numba\.)?n?jit\b", text, re.M), path.name


def test_installed_exactly_for_the_checked_numba_versions():
    version = tuple(int(p) for p in numba.__version__.split(".")[:2])
    switched_off = os.environ.get("RUMMYSIM_NUMBA_FAST_LOAD", "1") == "0"
    assert (version in jit.FAST_CACHE_LOAD_NUMBA and not switched_off) == jit.FAST_CACHE_LOAD


PLAY = """
import hashlib, json, sys
import numpy as np
from sim.engine import jit
from sim.engine.api import play
from sim.rules import compile_rules, load_variant

def digest(variant, players, bots, **kw):
    compiled = compile_rules(load_variant(variant), players)
    out = play(compiled.params, compiled.card_values, np.array(bots, np.int64), **kw)
    h = hashlib.sha256()
    for rows in (out.hand_rows, out.hand_scores, out.hand_totals, out.game_rows,
                 out.game_scores, out.counters):
        h.update(np.ascontiguousarray(rows).tobytes())
    return h.hexdigest()

result = {
    "rummy": digest("rummy_basic", 2, [1, 2], seed=7, hands=300),
    "gin": digest("gin_rummy", 2, [3, 2], seed=7, hands=200),
    "fast": jit.FAST_CACHE_LOAD,
    "refreshed": "numba.np.linalg" in sys.modules,
}
print(json.dumps(result))
"""


def _play(fast: bool) -> dict:
    return run_json_script(PLAY, RUMMYSIM_NUMBA_FAST_LOAD="1" if fast else "0")


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no numba cache without the JIT")
def test_a_warm_cache_plays_the_same_hands_with_and_without_the_fast_path():
    _play(fast=True)  # warm the cache (compiles on a cold one)
    fast, slow = _play(fast=True), _play(fast=False)
    assert (fast["rummy"], fast["gin"]) == (slow["rummy"], slow["gin"])
    assert slow["fast"] is False and slow["refreshed"] is True
    assert fast["fast"] is jit.FAST_CACHE_LOAD
    if jit.FAST_CACHE_LOAD:  # the refresh, and its imports, were really skipped
        assert fast["refreshed"] is False


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="no numba cache without the JIT")
def test_rummysim_bench_starts_from_a_warm_cache():
    command = [sys.executable, "-m", "sim.cli", "bench", "--hands", "1"]
    for _ in range(2):  # the first run may compile
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["bench"] == "engine" and figures["hands"] == 1
