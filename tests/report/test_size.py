"""Issue #30 point 5: the report and the dataset summaries it reads stay small (under
3,000 lines), so that a new report feature comes with a simplification, not only growth."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 3000


def test_sim_report_and_the_dataset_summaries_stay_under_3000_lines() -> None:
    files = [
        *(ROOT / "sim" / "report").glob("*.py"),
        *(ROOT / "sim" / "report" / "templates").glob("*"),
    ]
    files.append(ROOT / "sim" / "dataset" / "summaries.py")
    lines = {f.name: len(f.read_text(encoding="utf-8").splitlines()) for f in files}
    assert sum(lines.values()) < LIMIT, f"{sum(lines.values())} lines: {sorted(lines.items())}"
