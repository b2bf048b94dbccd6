"""Pipeline benchmarks: ``rummysim run`` end to end (simulation plus Parquet) against the
engine alone on the same shards, worker scaling, the Dask backend, and worker memory.

Each function returns one JSON-ready dict; ``benchmarks.suite`` prints them. The arms are a
fixed two-arm experiment (rummy_basic and ace high, 2 players, greedy) so figures compare
across commits.
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from pathlib import Path

from sim.runner.experiment import Experiment, load_experiment
from sim.runner.local import run_local
from sim.runner.run import plan, run_experiment

BENCH_EXPERIMENT = """\
name = "bench"
description = "pipeline benchmark: two arms, 2 players, greedy"
seed = 1
hands = 100000
players = [2]
lineups = ["greedy"]
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"

[[arms]]
name = "ace_high"
variant = "rummy_basic"
rules = { ace_rank = "high" }
"""


def bench_experiment(folder: Path, hands: int, arms: int = 2) -> Experiment:
    """The benchmark experiment with ``hands`` per arm (only the first ``arms`` arms)."""
    path = folder / "bench.toml"
    path.write_text(BENCH_EXPERIMENT, encoding="utf-8")
    exp = load_experiment(path).scaled(hands=hands)
    return dataclasses.replace(exp, arms=exp.arms[:arms])


def _engine_only(exp: Experiment, root: Path, workers: int) -> tuple[float, int]:
    """Seconds and hands to play every shard of ``exp`` without building or writing tables."""
    tasks = [dataclasses.replace(t, write=False) for t in plan(exp, root)]
    hands = []
    start = time.perf_counter()
    run_local(tasks, workers, lambda arm, n: None, lambda r: hands.append(r.hands), print)
    return time.perf_counter() - start, sum(hands)


def _pipeline(exp: Experiment, out: Path, workers: int, scheduler: str | None = None):
    start = time.perf_counter()
    summary = run_experiment(exp, out, workers=workers, scheduler=scheduler, fresh=True)
    seconds = time.perf_counter() - start
    peak = max(r.peak_rss_mb for r in summary.results)
    return seconds, summary.hands, peak


def bench_pipeline(hands: int, workers: int) -> dict:
    """End-to-end hands/s of a run next to engine-only hands/s on the same shards."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        exp = bench_experiment(folder, hands)
        _engine_only(bench_experiment(folder, 2000), folder / "warm", workers)  # warm the cache
        engine_s, engine_hands = _engine_only(exp, folder / "engine", workers)
        run_s, run_hands, peak = _pipeline(exp, folder / "data", workers)
    engine_rate, run_rate = engine_hands / engine_s, run_hands / run_s
    return {
        "bench": "pipeline",
        "arms": len(exp.arms),
        "hands": run_hands,
        "workers": workers,
        "pipeline_hands_per_s": round(run_rate, 1),
        "engine_hands_per_s": round(engine_rate, 1),
        "ratio": round(run_rate / engine_rate, 3),
        "worker_peak_rss_mb": peak,
    }


def bench_scaling(hands: int, workers: int) -> dict:
    """Pipeline hands/s on one worker and on ``workers`` workers."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        exp = bench_experiment(folder, hands)
        one_s, one_hands, _ = _pipeline(exp, folder / "one", 1)
        many_s, many_hands, _ = _pipeline(exp, folder / "many", workers)
    one, many = one_hands / one_s, many_hands / many_s
    return {
        "bench": "pipeline_scaling",
        "hands": one_hands,
        "one_worker_hands_per_s": round(one, 1),
        "workers": workers,
        "workers_hands_per_s": round(many, 1),
        "speedup": round(many / one, 3),
    }


def bench_memory(hands: int, workers: int) -> dict:
    """A worker's peak memory for ``hands`` and for ten times as many hands per arm."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _, small_hands, small_peak = _pipeline(bench_experiment(folder, hands, 1), folder, workers)
        _, large_hands, large_peak = _pipeline(
            bench_experiment(folder, hands * 10, 1), folder / "large", workers
        )
    return {
        "bench": "pipeline_memory",
        "hands_small": small_hands,
        "peak_rss_mb_small": small_peak,
        "hands_large": large_hands,
        "peak_rss_mb_large": large_peak,
        "growth": round(large_peak / small_peak, 3),
    }


def bench_dask(hands: int, workers: int) -> dict:
    """Pipeline hands/s on a local ``workers``-worker Dask cluster against the local backend."""
    from dask.distributed import LocalCluster

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        exp = bench_experiment(folder, hands)
        local_s, local_hands, _ = _pipeline(exp, folder / "local", workers)
        with LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster:
            _pipeline(
                bench_experiment(folder, 2000), folder / "warm", workers, cluster.scheduler_address
            )
            dask_s, dask_hands, _ = _pipeline(
                exp, folder / "dask", workers, cluster.scheduler_address
            )
    local, dask = local_hands / local_s, dask_hands / dask_s
    return {
        "bench": "pipeline_dask",
        "hands": dask_hands,
        "workers": workers,
        "local_hands_per_s": round(local, 1),
        "dask_hands_per_s": round(dask, 1),
        "ratio": round(dask / local, 3),
    }
