"""Balance reports: per-arm metrics, paired comparisons with the baseline, figures, and
index.html / report.md / summary.{parquet,csv} (docs/report.md).

The package's names are imported when first used, so that the runner can import
:mod:`sim.dataset.summaries` (numpy and the report's kernels) without polars and matplotlib."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sim.report.build import bench_report, write_report
    from sim.report.dataset import DatasetError, open_dataset

__all__ = ["DatasetError", "bench_report", "open_dataset", "write_report"]

_HOMES = {
    "bench_report": "sim.report.build",
    "write_report": "sim.report.build",
    "DatasetError": "sim.report.dataset",
    "open_dataset": "sim.report.dataset",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'sim.report' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_HOMES[name]), name)
