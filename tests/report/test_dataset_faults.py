"""A damaged or partial dataset as the report meets it (review findings): a damaged file is
one line naming it and exit 2, and a dataset that lacks what its manifest planned is
reported with a warning on the console and on the first lines of index.html and report.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def _copy(small_dataset: Path, tmp_path: Path) -> Path:
    root = tmp_path / "small"
    shutil.copytree(small_dataset, root)
    return root


def _shard_file(root: Path, table: str = "hands") -> Path:
    return root / table / "arm=around-2p-greedy" / "part-00001.parquet"


def test_a_damaged_file_is_named_with_exit_2(small_dataset: Path, tmp_path: Path) -> None:
    root = _copy(small_dataset, tmp_path)
    damaged = _shard_file(root)
    damaged.write_bytes(damaged.read_bytes()[:2000])  # cut short, as by a full disk
    result = runner.invoke(app, ["report", str(root), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert str(damaged) in result.output and "run the experiment again" in result.output
    assert "Traceback" not in result.output


def test_a_lost_shard_file_is_reported_as_incomplete(small_dataset: Path, tmp_path: Path) -> None:
    root = _copy(small_dataset, tmp_path)
    _shard_file(root).unlink()
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning: The dataset is incomplete" in result.output
    assert "hands/arm=around-2p-greedy/part-00001.parquet" in result.output
    for page in ("index.html", "report.md"):
        assert "The dataset is incomplete" in (out / page).read_text(encoding="utf-8")


def test_an_unfinished_run_is_reported_as_incomplete(small_dataset: Path, tmp_path: Path) -> None:
    root = _copy(small_dataset, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["complete"] = False
    manifest["shards"][-1]["status"] = "pending"
    (root / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "out"
    result = runner.invoke(app, ["report", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    shards = len(manifest["shards"])
    assert f"{shards - 1} of {shards} planned shards were run" in result.output
    assert "The dataset is incomplete" in (out / "report.md").read_text(encoding="utf-8")


def test_a_complete_dataset_has_no_warning(small_report) -> None:
    assert small_report.report.dataset.incomplete is None
    folder = small_report.folder
    assert "incomplete" not in (folder / "report.md").read_text(encoding="utf-8")
