"""``make bench``'s engine figures: what is run, and how the all-cores ratio is taken.

The figures themselves are measurements (``make bench``); this checks the suite's own
arithmetic with a stand-in for ``bench``."""

from __future__ import annotations

import itertools
import json

import benchmarks.suite as suite


def _stand_ins(monkeypatch, fake_bench, cores: int) -> None:
    """The suite with ``fake_bench`` for its engine runs, ``cores`` cores and every slow
    figure but the reference's replaced by a one-line stand-in."""
    monkeypatch.setattr(suite, "bench", fake_bench)
    monkeypatch.setattr(suite, "cpu_count", lambda: cores)
    monkeypatch.setattr(suite, "startup_seconds", lambda: 0.5)
    monkeypatch.setattr(suite, "deadwood_seconds", lambda hands: {"bench": "deadwood"})
    for name in ("bench_pipeline", "bench_scaling", "bench_dask", "bench_memory"):
        monkeypatch.setattr(suite, name, lambda hands, workers, name=name: {"bench": name})
    monkeypatch.setattr(suite, "bench_report_pipeline", lambda workers: {"bench": "report"})


def test_all_cores_run_gives_every_worker_the_one_core_hands_and_is_bracketed(monkeypatch, capsys):
    calls = []
    speeds = itertools.chain([500_000.0, 1_800_000.0, 700_000.0], itertools.repeat(1.0))

    def fake_bench(
        variant="rummy_basic", players=2, bots="greedy", hands=0, workers=1, overrides=None
    ):
        calls.append((variant, players, bots, hands, workers))
        return {"bench": "engine", "workers": workers, "hands": hands,
                "hands_per_s": next(speeds)}  # fmt: skip

    _stand_ins(monkeypatch, fake_bench, cores=3)
    monkeypatch.setattr(
        suite, "reference_figures", lambda hands: [{"bench": "engine_vs_reference", "hands": hands}]
    )
    suite.main()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "reference_after" not in [line["bench"] for line in lines]  # no first reference run
    greedy = ("rummy_basic", 2, "greedy")
    assert calls[:3] == [
        (*greedy, suite.HANDS, 1),
        (*greedy, suite.HANDS * 3, 3),  # each of 3 workers plays the one-core run's hands
        (*greedy, suite.HANDS, 1),
    ]
    # issue #31's German Rummy line, with and without its initial meld
    assert calls.count(("german_rummy", 4, "greedy", suite.HANDS // 10, 1)) == 2
    for chips in (("tonk", 2), ("phom", 4), ("conquian", 2)):  # issue #32's lines
        assert (*chips, "greedy", suite.HANDS, 1) in calls
    assert ("nowrang", 2, "greedy", suite.HANDS // 10, 1) in calls  # issue #33's line
    assert ("continental", 4, "greedy", suite.HANDS // 100, 1) in calls  # issue #33 point 1
    for players in (2, 4):  # issue #33 point 3
        assert ("carousel_knock", players, "greedy", suite.HANDS // 500, 1) in calls
    for variant, bots in (("gin_rummy", "mc32,simple"), ("rummy_basic", "mc32,greedy")):
        assert (variant, 2, bots, suite.MC_HANDS, 1) in calls  # issue #34 point 4
    scaling = next(line for line in lines if line["bench"] == "engine_scaling")
    assert scaling["one_core_hands_per_s"] == [500_000.0, 700_000.0]
    assert scaling["ratio"] == 3.0  # 1.8M against the mean of 500k and 700k
    assert lines[0] == {
        "bench": "engine_vs_reference",
        "hands": suite.HANDS,
    }  # the reference lines first
    assert [line["bench"] for line in lines[1:4]] == ["engine", "engine", "engine_scaling"]


def test_the_reference_runs_again_after_the_one_core_lines_and_says_how_the_host_drifted(
    monkeypatch, capsys
):
    """A host that slowed while the suite ran shows in ``reference_after``: the reference's
    second run, after the one-core engine lines and before the start-up line, and its
    ratio to the first run."""
    _stand_ins(monkeypatch, lambda *args, **kw: {"bench": "engine", "hands_per_s": 1.0}, cores=2)
    monkeypatch.setattr(
        suite, "reference_figures", lambda hands: [{"bench": "reference", "hands_per_s": 1.6e6}]
    )
    monkeypatch.setattr(suite, "reference", lambda: {"bench": "reference", "hands_per_s": 0.8e6})
    suite.main()
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    names = [line["bench"] for line in lines]
    drift = lines[names.index("reference_after")]
    assert drift == {"bench": "reference_after", "hands_per_s": 0.8e6,
                     "first_hands_per_s": 1.6e6, "ratio": 0.5}  # fmt: skip
    last_engine = max(i for i, line in enumerate(lines) if line["bench"] == "engine")
    assert last_engine < names.index("reference_after") < names.index("startup")
