"""Balance reports: per-arm metrics, paired comparisons with the baseline, figures, and
index.html / report.md / summary.{parquet,csv} (docs/report.md). The names below are
imported when first used, so that importing ``sim.report.dataset`` alone (``sim.api.load``)
loads no matplotlib."""

from __future__ import annotations

import importlib
from typing import Any

_HOMES = {
    "write_report": "sim.report.build",
    "DatasetError": "sim.report.dataset",
    "open_dataset": "sim.report.dataset",
}
__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'sim.report' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)
