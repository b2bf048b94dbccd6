"""The runner compiles (or loads) the engine once in its parent before it forks its
workers: one shard of each compile-time spec the plan uses, on one hand, nothing written;
on a cold cache it says that it compiles and for about how long."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import sim.engine.api as api
import sim.engine.jit as jit
from sim.engine.specs import spec_for, spec_named
from sim.rules import load_variant
from sim.runner.run import _warm_up


class Log:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def log(self, message: str) -> None:
        self.lines.append(message)


def _task(variant: str, spec: str = ""):
    params, values = api.compile_rules(load_variant(variant), 2)
    spec = spec or spec_for(params).name
    return SimpleNamespace(
        params=params,
        card_values=values,
        bot_codes=lambda: np.ones(2, np.int64),
        hand_blocks=None,  # a run whose hand blocks are not kept (sim.dataset.summaries)
        spec=spec,  # the plan's spec (sim.runner.run._arm_specs)
        fixed=lambda: spec_named(spec),
    )


@pytest.fixture
def played(monkeypatch):
    calls = []
    monkeypatch.setattr(api, "play", lambda params, *args, **kwargs: calls.append(params))
    return calls


def test_one_shard_of_each_spec_is_played_in_the_parent(monkeypatch, played):
    monkeypatch.setattr(jit, "cache_is_cold", lambda: False)
    standard, generic = _task("rummy_basic"), _task("around_the_corner")
    reporter = Log()
    _warm_up([standard, _task("rummy_basic"), generic, standard], reporter)
    assert len(played) == 2
    assert played[0] is standard.params and played[1] is generic.params
    assert reporter.lines == []


def test_a_folded_spec_is_not_warmed_on_its_own(monkeypatch):
    """A plan that plays STANDARD's arms under ONE_PACK_RUMMY (``specs.plan_specs``) warms
    that one spec, with the spec it plays under."""
    monkeypatch.setattr(jit, "cache_is_cold", lambda: False)
    specs = []
    monkeypatch.setattr(api, "play", lambda *args, spec=None, **kw: specs.append(spec))
    folded = _task("rummy_basic", "one_pack_rummy")
    _warm_up([folded, _task("around_the_corner"), folded], Log())
    assert specs == [spec_named("one_pack_rummy")]


def test_a_cold_cache_says_it_compiles(monkeypatch, played):
    monkeypatch.setattr(jit, "cache_is_cold", lambda: True)
    reporter = Log()
    _warm_up([_task("rummy_basic")], reporter)
    assert len(played) == 1
    assert "compiling the engine's kernels (first run only" in reporter.lines[0]


def test_the_cache_is_cold_until_play_games_is_in_it(tmp_path, monkeypatch):
    """Other kernels in the cache do not count: ``play_games`` is what a run loads."""
    from sim.engine.game import play_games

    folder = tmp_path / "mech_this"
    monkeypatch.setattr(play_games._cache, "_cache_path", str(folder))
    assert jit.cache_is_cold()
    folder.mkdir()
    (folder / "hand.play_turns-337.py311.nbi").write_bytes(b"")
    assert jit.cache_is_cold()
    (folder / "game.play_games-134.py311.nbi").write_bytes(b"")
    assert not jit.cache_is_cold()
