"""A damaged or partial dataset as the report meets it (review findings, issue #30 point 4):
a file that does not match the manifest (damaged, swapped, stray, or missing though its shard
is done) or a schema version the reader does not accept is one line naming the file and
exit 2; a run that was stopped before every shard ran is reported with a warning on the
console and on the first lines of index.html and report.md."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.dataset.schema import SCHEMA_VERSION, schema_version_problem

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


def _report(root: Path, out: Path):
    return runner.invoke(app, ["report", str(root), "--out", str(out)])


def _refused(result, named: Path | str) -> None:
    """Exit 2 with one line naming ``named``, no traceback."""
    assert result.exit_code == 2, result.output
    assert str(named) in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def _edit_manifest(root: Path, edit) -> None:
    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    edit(manifest)
    path.write_text(json.dumps(manifest))


def test_a_lost_file_of_a_done_shard_is_named_with_exit_2(small_dataset: Path, tmp_path: Path):
    root = _copy(small_dataset, tmp_path)
    lost = _shard_file(root)
    lost.unlink()
    result = _report(root, tmp_path / "out")
    _refused(result, lost)
    assert "records its shard as done" in result.output
    assert not (tmp_path / "out").exists()


def test_a_stray_copy_of_a_shard_is_named_with_exit_2(small_dataset: Path, tmp_path: Path):
    root = _copy(small_dataset, tmp_path)
    stray = _shard_file(root).with_name("part-00099.parquet")
    shutil.copy(_shard_file(root), stray)
    result = _report(root, tmp_path / "out")
    _refused(result, stray)
    assert "does not record" in result.output


def test_a_stray_arm_folder_is_named_with_exit_2(small_dataset: Path, tmp_path: Path):
    root = _copy(small_dataset, tmp_path)
    stray = root / "games" / "arm=extra-2p-greedy" / "part-00000.parquet"
    stray.parent.mkdir()
    shutil.copy(_shard_file(root, "games"), stray)
    _refused(_report(root, tmp_path / "out"), stray)


def test_another_arms_valid_file_swapped_in_is_named_with_exit_2(
    small_dataset: Path, tmp_path: Path
):
    """Same row count (every arm plays 1,500 hands a shard): only the SHA-256 tells."""
    root = _copy(small_dataset, tmp_path)
    swapped = _shard_file(root)
    shutil.copy(root / "hands" / "arm=basic-2p-greedy" / "part-00001.parquet", swapped)
    result = _report(root, tmp_path / "out")
    _refused(result, swapped)
    assert "SHA-256" in result.output


def test_a_row_count_unlike_the_manifests_is_named_with_exit_2(small_dataset: Path, tmp_path: Path):
    root = _copy(small_dataset, tmp_path)

    def edit(manifest: dict) -> None:
        manifest["shards"][0]["games"] += 1

    _edit_manifest(root, edit)
    entry = json.loads((root / "manifest.json").read_text())["shards"][0]
    named = root / "games" / f"arm={entry['arm']}" / f"part-{entry['shard']:05d}.parquet"
    result = _report(root, tmp_path / "out")
    _refused(result, named)
    assert "rows" in result.output


@pytest.mark.parametrize("version", [2, 99, "3", None])
def test_an_unknown_or_bad_schema_version_is_refused_with_exit_2(
    small_dataset: Path, tmp_path: Path, version
):
    root = _copy(small_dataset, tmp_path)

    def edit(manifest: dict) -> None:
        manifest["schema_version"] = version

    _edit_manifest(root, edit)
    result = _report(root, tmp_path / "out")
    _refused(result, root / "manifest.json")
    assert "schema version" in result.output
    if version == 2:
        assert "known to be bad" in result.output


def test_the_schema_policy_accepts_the_current_version_and_5_to_7_only() -> None:
    """Versions 5 to 7 differ from 8 only in the end reasons they hold and in lacking
    ``mom_seats``, which the report does not read: readable. 3 and 4 lack the action counts
    the minutes at the table are made of: refused as older."""
    assert SCHEMA_VERSION == 8
    for version in (5, 6, 7, SCHEMA_VERSION):
        assert schema_version_problem(version) is None
    for version in (1, 2, 3, 4, SCHEMA_VERSION + 1, True, "5", None):
        assert schema_version_problem(version) is not None
    assert "older" in schema_version_problem(4)


def test_an_unfinished_run_is_reported_as_incomplete(small_dataset: Path, tmp_path: Path) -> None:
    """Shards never run (the run was stopped) keep the banner: the report reads what is
    there and says so on the console and its first lines."""
    root = _copy(small_dataset, tmp_path)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["complete"] = False
    last = manifest["shards"][-1]
    last["status"] = "pending"
    for key in ("hands", "games", "hands_sha256", "games_sha256"):
        last.pop(key)
    for table in ("hands", "games"):
        (root / table / f"arm={last['arm']}" / f"part-{last['shard']:05d}.parquet").unlink()
    (root / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "out"
    result = _report(root, out)
    assert result.exit_code == 0, result.output
    shards = len(manifest["shards"])
    assert f"{shards - 1} of {shards} planned shards were run" in result.output
    for page in ("index.html", "report.md"):
        assert "The dataset is incomplete" in (out / page).read_text(encoding="utf-8")


def test_the_report_names_the_baseline_first(small_report) -> None:
    lines = (small_report.folder / "report.md").read_text(encoding="utf-8").splitlines()
    assert lines[4] == "**Baseline rule set: basic.**"
    html = (small_report.folder / "index.html").read_text(encoding="utf-8")
    assert html.index("Baseline rule set: basic.") < html.index("<h2>")


def test_without_a_manifest_the_top_of_the_report_says_so(small_dataset: Path, tmp_path: Path):
    root = _copy(small_dataset, tmp_path)
    (root / "manifest.json").unlink()
    out = tmp_path / "out"
    result = _report(root, out)
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text(encoding="utf-8").splitlines()
    assert md[4].startswith("**No manifest.json")
    assert "Baseline rule set: around (--baseline, or else the first" in md[4]
    html = (out / "index.html").read_text(encoding="utf-8")
    assert html.index("No manifest.json") < html.index("<h2>")


def test_without_a_manifest_a_bad_schema_version_in_the_files_is_refused(
    small_dataset: Path, tmp_path: Path
):
    root = _copy(small_dataset, tmp_path)
    (root / "manifest.json").unlink()
    for path in sorted((root / "hands").rglob("*.parquet")):
        table = pq.read_table(path)
        meta = {**(table.schema.metadata or {}), b"rummysim.schema_version": b"99"}
        pq.write_table(table.replace_schema_metadata(meta), path)
    result = _report(root, tmp_path / "out")
    first = sorted((root / "hands").glob("arm=*/*.parquet"))[0]
    _refused(result, first)
    assert "unknown schema version 99" in result.output


def test_a_complete_dataset_has_no_warning(small_report) -> None:
    assert small_report.report.dataset.incomplete is None
    folder = small_report.folder
    assert "incomplete" not in (folder / "report.md").read_text(encoding="utf-8")
