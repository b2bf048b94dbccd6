"""The report benchmark figure of ``make bench``."""

from __future__ import annotations

import pytest

from benchmarks.report import bench_report, bench_report_pipeline


def test_bench_report_pipeline_times_simulation_and_report() -> None:
    figure = bench_report_pipeline(hands=3000, workers=1)
    assert figure["bench"] == "report"
    assert figure["hands"] == 2 * 3000
    assert figure["simulate_seconds"] > 0 and figure["seconds"] > 0
    assert figure["ratio"] == pytest.approx(
        figure["seconds"] / figure["simulate_seconds"], rel=1e-2
    )
    assert set(figure["stages"]) >= {"aggregate", "analyse", "figures", "write", "total"}


def test_bench_report_times_a_dataset_already_simulated(small_dataset, tmp_path) -> None:
    """``python -m benchmarks.report DATASET``'s figure (until 2026-12-05 ``rummysim report
    --bench``): a dataset without the manifest's seconds has no simulation time to set the
    report's against."""
    figure = bench_report(small_dataset, tmp_path, resamples=100)
    assert figure["bench"] == "report" and figure["hands"] == 6 * 2 * 4000
    assert figure["seconds"] > 0 and figure["simulate_seconds"] is None
