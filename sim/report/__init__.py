"""Balance reports: per-arm metrics, paired comparisons with the baseline, figures, and
index.html / report.md / summary.{parquet,csv} (docs/report.md)."""

from sim.report.build import bench_report, write_report
from sim.report.dataset import DatasetError, open_dataset

__all__ = ["DatasetError", "bench_report", "open_dataset", "write_report"]
