"""``make bench`` figure for the report: simulate a dataset with the runner, then report on
it, and print both times (issue #3: a report on a 10-million-hand dataset must take under
10% of the time it took to simulate it). The dataset is the two-arm benchmark experiment,
2-player greedy: the fastest hands there are to simulate, so the hardest case for the bar.

``python -m benchmarks.report DATASET [OUT]`` prints the same figure for a dataset already
simulated (:func:`bench_report`)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from sim.report.build import write_report

REPORT_HANDS = int(os.environ.get("RUMMYSIM_BENCH_REPORT_HANDS", "5000000"))
"""Hands per arm: 2 arms of 5,000,000 are the bar's 10 million."""


def bench_report_pipeline(hands: int = REPORT_HANDS, workers: int = 2) -> dict:
    """Seconds to simulate the two-arm benchmark experiment (``hands`` per arm) and seconds
    to write its report, with the report's stages."""
    from benchmarks.pipeline import bench_experiment
    from sim.runner.run import run_experiment

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run_experiment(bench_experiment(folder, 2000), folder / "warm", workers=workers)
        exp = bench_experiment(folder, hands)
        start = time.perf_counter()
        summary = run_experiment(exp, folder / "data", workers=workers, fresh=True)
        simulate = time.perf_counter() - start
        written = write_report(summary.root, folder / "report")
    seconds = written.seconds["total"]
    return {
        "bench": "report",
        "arms": len(written.report.dataset.arms),
        "hands": sum(written.report.hands.values()),
        "workers": workers,
        "simulate_seconds": round(simulate, 3),
        "seconds": seconds,
        "stages": written.seconds,
        "ratio": round(seconds / simulate, 4),
    }


def simulate_seconds(manifest: dict) -> float | None:
    """Seconds the runner spent simulating: the wall-clock time of the runs that made the
    dataset, plan included (the manifest's ``seconds``; None in a dataset without it)."""
    seconds = manifest.get("seconds")
    return float(seconds) if isinstance(seconds, int | float) else None


def bench_report(dataset: str | Path, out: str | Path | None = None, **kwargs) -> dict:
    """Seconds to report on a dataset already simulated, with the report's stages, next to
    the seconds its simulation took (:func:`simulate_seconds`)."""
    written = write_report(dataset, out, **kwargs)
    report = written.report
    sim = simulate_seconds(report.dataset.manifest)
    total = written.seconds["total"]
    return {
        "bench": "report",
        "dataset": str(dataset),
        "arms": len(report.dataset.arms),
        "hands": sum(report.hands.values()),
        "games": sum(report.games.values()),
        "seconds": total,
        "stages": written.seconds,
        "simulate_seconds": sim,
        "report_share_of_simulate": round(total / sim, 4) if sim else None,
    }


if __name__ == "__main__":
    print(json.dumps(bench_report(*sys.argv[1:3])))
