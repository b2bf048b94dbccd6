"""sim.engine.precompile compiles the engine's large kernels apart, in parallel (issue #2:
``make test`` from a fresh clone in under 20 minutes).

The parts are worth compiling apart only if ``play_games`` then finds them in the cache:
these tests check the signatures against numba's cache index after ``play_games`` has been
compiled (by ``make test``'s precompile step, or by the first test that plays a hand).
"""

from __future__ import annotations

import fcntl
import subprocess
import sys
import time
from pathlib import Path

import numba
import pytest
from numba.core.caching import IndexDataCacheFile

from sim.engine import jit, precompile
from sim.engine.api import make_params, play
from sim.engine.layout import BOT_GREEDY


def _cached_signatures(dispatcher) -> set[tuple]:
    """The argument types of every overload of ``dispatcher`` in numba's cache index."""
    index = dispatcher._cache._cache_file._load_index()
    return {key[0] for key in index}


@pytest.fixture(scope="module")
def compiled() -> None:
    params, values = make_params()
    play(params, values, [BOT_GREEDY, BOT_GREEDY], hands=1)


def test_each_part_is_an_overload_play_games_uses(compiled):
    sigs = precompile.signatures()
    assert set(sigs) == set(precompile.PARTS)
    for name, (dispatcher, sig) in sigs.items():
        assert tuple(sig) in _cached_signatures(dispatcher), name


@pytest.mark.parametrize(
    "parts", [("turns_general", "turns_fast"), ("knock_any_suit", "knock_same_suit")]
)
def test_each_large_kernel_has_exactly_its_two_precompiled_overloads(compiled, parts):
    """play_turns and play_knock_turns: a third overload would mean play_games calls them
    with types the precompile does not build (those parts would be compiled twice)."""
    sigs = precompile.signatures()
    dispatcher = sigs[parts[0]][0]
    assert sigs[parts[1]][0] is dispatcher
    assert _cached_signatures(dispatcher) == {tuple(sigs[part][1]) for part in parts}


def test_a_warm_part_loads_from_the_cache(compiled):
    out = subprocess.run(
        [sys.executable, "-m", "sim.engine.precompile", "--part", "turns_fast"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.startswith("turns_fast: ") and out.stdout.strip().endswith("(cached)")


def test_a_failing_part_is_a_clear_error_and_stops_the_others(monkeypatch):
    started = []

    def command(name):
        started.append(name)
        if name == "turns_general":
            return [sys.executable, "-c", "raise SystemExit('kernel exploded')"]
        return [sys.executable, "-c", "import time; time.sleep(60)"]

    monkeypatch.setattr(precompile, "_command", command)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    children = []
    original = precompile._Child.spawn.__func__

    def spawn(cls, name):
        children.append(original(cls, name))
        return children[-1]

    monkeypatch.setattr(precompile._Child, "spawn", classmethod(spawn))
    start = time.perf_counter()
    failed = r"compiling turns_general failed \(exit 1\):\nkernel exploded"
    with pytest.raises(RuntimeError, match=failed):
        precompile.compile_engine(2, log=lambda line: None)
    assert started == ["turns_general", "turns_fast"]
    assert all(child.process.poll() is not None for child in children)  # none left running
    assert time.perf_counter() - start < 30


def test_cache_saves_hold_a_lock_in_the_cache_folder(tmp_path, monkeypatch):
    """Two processes saving overloads of one kernel at once must not pick the same file."""
    assert jit.CACHE_SAVE_LOCK
    seen = []
    original_flock = fcntl.flock

    def flock(handle, op):
        seen.append((Path(handle.name), op))
        return original_flock(handle, op)

    monkeypatch.setattr(fcntl, "flock", flock)
    cache = IndexDataCacheFile(str(tmp_path), "demo-1", ("stamp", 1))
    cache.save(("sig",), b"data")
    assert cache.load(("sig",)) == b"data"
    lock = tmp_path / ".save.lock"
    assert seen == [(lock, fcntl.LOCK_EX), (lock, fcntl.LOCK_UN)]
    assert numba.config.CACHE_DIR  # the engine's cache folder is set before any kernel
