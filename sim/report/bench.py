"""``make bench`` figure for the report: simulate a dataset with the runner, then report on
it, and print both times (issue #3: reporting must take under 10% of simulating)."""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from sim.report.build import write_report

REPORT_HANDS = int(os.environ.get("RUMMYSIM_BENCH_REPORT_HANDS", "500000"))


def bench_report_pipeline(hands: int = REPORT_HANDS, workers: int = 2) -> dict:
    """Seconds to simulate the two-arm benchmark experiment (``hands`` per arm) and seconds
    to write its report, with the report's stages."""
    from sim.bench_pipeline import bench_experiment
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
