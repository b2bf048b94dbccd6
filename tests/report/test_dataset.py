"""Opening a dataset: what the report reads of the arms without scanning every hand."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.report.dataset import ARM_COLUMNS, _first_rows, scan


def test_first_rows_are_what_a_scan_of_every_hand_finds_first(small_dataset: Path) -> None:
    scanned = (
        scan(small_dataset / "hands")
        .group_by("arm", maintain_order=True)
        .agg(pl.col(c).first() for c in ARM_COLUMNS)
        .collect()
    )
    expected = {r.pop("arm"): r for r in scanned.iter_rows(named=True)}
    assert _first_rows(small_dataset / "hands") == expected
    assert len(expected) == 6
