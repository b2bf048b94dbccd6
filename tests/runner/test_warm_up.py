"""The runner compiles the engine once before it forks its workers; on a cold numba cache
it compiles the large kernels on as many processes as it has workers (issue #2)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import sim.engine.api as api
import sim.engine.jit as jit
import sim.engine.precompile as precompile
from sim.runner.run import RunError, _warm_up


class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def log(self, message: str) -> None:
        self.lines.append(message)


def _task():
    return SimpleNamespace(
        params=np.zeros(3, np.int64),
        card_values=np.zeros(3, np.int64),
        bot_codes=lambda: np.zeros(2, np.int64),
        hand_blocks=None,  # a run whose hand blocks are not kept (sim.report.blocks)
    )


@pytest.fixture
def played(monkeypatch):
    calls = []
    monkeypatch.setattr(api, "play", lambda *args, **kwargs: calls.append(kwargs))
    return calls


def test_a_cold_cache_is_compiled_on_every_worker_first(monkeypatch, played):
    compiled = []
    monkeypatch.setattr(jit, "cache_is_cold", lambda: True)
    monkeypatch.setattr(
        precompile, "compile_engine", lambda processes, log: compiled.append(processes) or 1.0
    )
    reporter = Log()
    _warm_up(_task(), 3, reporter)
    assert compiled == [3]
    assert played == [{"hands": 1}]  # then one hand, in the parent, loads them
    assert "compiling the engine's kernels on 3 processes" in reporter.lines[0]


def test_a_warm_cache_only_loads(monkeypatch, played):
    monkeypatch.setattr(jit, "cache_is_cold", lambda: False)
    monkeypatch.setattr(precompile, "compile_engine", lambda *a, **k: pytest.fail("compiled"))
    reporter = Log()
    _warm_up(_task(), 2, reporter)
    assert played == [{"hands": 1}] and reporter.lines == []


def test_a_failed_compile_is_a_run_error(monkeypatch, played):
    def broken(processes, log):
        raise RuntimeError("compiling turns_fast failed:\nLoweringError")

    monkeypatch.setattr(jit, "cache_is_cold", lambda: True)
    monkeypatch.setattr(precompile, "compile_engine", broken)
    with pytest.raises(RunError, match="compiling turns_fast failed"):
        _warm_up(_task(), 2, Log())
    assert played == []


def test_the_cache_is_cold_until_play_games_is_in_it(tmp_path, monkeypatch):
    """A first compile cut short leaves some kernels cached: still cold, so the next run
    compiles in parallel again (loading what is there). Another checkout's kernels, in its
    own subfolder of the same cache, do not count."""
    from sim.engine.game import play_games

    folder = tmp_path / "engine_this"
    monkeypatch.setattr(play_games._cache, "_cache_path", str(folder))
    assert jit.cache_is_cold()
    other = tmp_path / "engine_other"
    other.mkdir()
    (other / "game.play_games-134.py311.nbi").write_bytes(b"")
    assert jit.cache_is_cold()
    folder.mkdir()
    (folder / "hand.play_turns-337.py311.nbi").write_bytes(b"")
    assert jit.cache_is_cold()
    (folder / "game.play_games-134.py311.nbi").write_bytes(b"")
    assert not jit.cache_is_cold()
