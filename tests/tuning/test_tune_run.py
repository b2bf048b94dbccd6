"""``rummysim tune`` end to end on small searches (issue #35 points 2 and 3): rounds written as
ordinary datasets, the same trail whatever the worker count, a resumed search taking the
recorded path, a folder of another search refused, the page written, and the objective the
report's own figure."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from sim.report.build import write_report
from sim.tuning.page import write_page
from sim.tuning.run import ANSWER, TRAIL, TuneError, run_tuning
from sim.tuning.spec import load_spec
from tests.runner.helpers import cli, dataset_rows
from tests.runner.test_dask_backend import cluster  # noqa: F401 (a fixture)

SPEC = """\
name = "small-tune"
description = "knock limit against undercuts minus gins, a small search"
seed = 11
variant = "gin_rummy"
players = 2
lineup = ["greedy", "simple"]
hands = 4000

[knob]
setting = "knock_limit"
low = 0
high = 10

[objective]
metric = "share_undercut"
minus = "share_gin"
target = -10

[search]
scan = 4
rounds = 3
resamples = 300
"""


def _spec(tmp_path: Path, text: str = SPEC):
    path = tmp_path / "small-tune.toml"
    path.write_text(text)
    return load_spec(path)


def _trail(root: Path) -> list[dict]:
    return json.loads((root / TRAIL).read_text())["rounds"]


def test_a_search_writes_rounds_as_datasets_and_answers(tmp_path):
    spec = _spec(tmp_path)
    tuning = run_tuning(spec, tmp_path / "out", workers=1)
    answer, root = tuning.answer, tuning.root
    rounds = _trail(root)
    assert rounds[0]["kind"] == "scan" and rounds[0]["values"] == [0, 3, 7, 10]
    assert rounds[-1]["kind"] == "confirm" and rounds[-1]["seed"] == "confirm"
    assert answer.status == "found" and answer.agreed is not None
    assert json.loads((root / ANSWER).read_text())["value"] == answer.value
    for entry in rounds:  # each round is an experiment file and its complete dataset
        assert (root / f"{entry['dataset']}.toml").is_file()
        manifest = json.loads((root / entry["dataset"] / "manifest.json").read_text())
        assert manifest["complete"] is True
    page = write_page(tuning, tmp_path / "page")
    text = (tmp_path / "page" / "tune.md").read_text()
    assert page.is_file() and (tmp_path / "page" / "objective.png").is_file()
    assert f"knock_limit = {answer.value}" in text and "Decision trail" in text


def test_the_objective_is_the_reports_figure(tmp_path):
    """The scan's undercut-minus-gin at each value is what the report says of that arm."""
    spec = _spec(tmp_path)
    tuning = run_tuning(spec, tmp_path / "out", workers=1)
    scan = tuning.root / "round-01-scan"
    written = write_report(scan, tmp_path / "report", resamples=300)
    summary = pl.read_parquet(written.index.parent / "summary.parquet")
    for p in tuning.answer.rounds[0].points:
        rows = summary.filter(pl.col("ruleset") == f"v{p.value}")
        share = dict(zip(rows["metric"], rows["value"], strict=True))
        expected = share.get("share_undercut", 0.0) - share.get("share_gin", 0.0)
        assert p.estimate == pytest.approx(expected, abs=1e-9)


def test_one_and_two_workers_take_the_same_path(tmp_path):
    spec = _spec(tmp_path)
    one = run_tuning(spec, tmp_path / "one", workers=1)
    two = run_tuning(spec, tmp_path / "two", workers=2)
    assert _trail(one.root) == _trail(two.root)
    assert one.answer == two.answer


def test_a_resumed_search_follows_its_trail(tmp_path):
    spec = _spec(tmp_path)
    whole = run_tuning(spec, tmp_path / "out", workers=1)
    rounds = _trail(whole.root)
    assert len(rounds) >= 3
    # as if killed during the last round: its dataset half gone, the answer not written
    last = whole.root / rounds[-1]["dataset"]
    for part in sorted(last.glob("hands/*/*.parquet"))[1:]:
        part.unlink()
    (whole.root / ANSWER).unlink()
    again = run_tuning(spec, tmp_path / "out", workers=1)
    assert _trail(again.root) == rounds and again.answer == whole.answer


def test_a_folder_of_another_search_is_refused_unless_fresh(tmp_path):
    spec = _spec(tmp_path)
    run_tuning(spec, tmp_path / "out", workers=1)
    other = _spec(tmp_path, SPEC.replace("target = -10", "target = -11"))
    with pytest.raises(TuneError, match="different version"):
        run_tuning(other, tmp_path / "out", workers=1)
    fresh = run_tuning(other, tmp_path / "out", workers=1, fresh=True)
    assert fresh.answer.status == "found"


def test_a_folder_that_is_not_a_tuning_is_never_deleted(tmp_path):
    spec = _spec(tmp_path)
    mine = tmp_path / "out" / "small-tune"
    mine.mkdir(parents=True)
    (mine / "notes.txt").write_text("mine")
    for fresh in (False, True):
        with pytest.raises(TuneError, match="not a tuning folder"):
            run_tuning(spec, tmp_path / "out", workers=1, fresh=fresh)
    assert (mine / "notes.txt").read_text() == "mine"


def test_no_value_in_range_is_an_answer_with_its_scan(tmp_path):
    text = SPEC.replace("target = -10", "target = 150")  # a difference of shares above 100
    spec = _spec(tmp_path, text)
    tuning = run_tuning(spec, tmp_path / "out", workers=1)
    assert tuning.answer.status == "no value in range" and tuning.answer.value is None
    assert [r["kind"] for r in _trail(tuning.root)] == ["scan"]
    write_page(tuning, tmp_path / "page")
    assert "No value of knock_limit" in (tmp_path / "page" / "tune.md").read_text()


def test_the_command_prints_its_answer_and_writes_the_page(tmp_path):
    path = tmp_path / "small-tune.toml"
    path.write_text(SPEC)
    result = cli("tune", str(path), "--out", str(tmp_path / "out"), "--workers", "1",
                 "--page", str(tmp_path / "page"))  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "round 1 (scan)" in result.stdout and "knock_limit = " in result.stdout
    assert (tmp_path / "page" / "index.html").is_file()
    shutil.rmtree(tmp_path / "out")


def test_the_dask_backend_takes_the_same_path_with_the_same_rows(tmp_path, cluster):  # noqa: F811
    address, _ = cluster
    spec = _spec(tmp_path)
    on_dask = run_tuning(spec, tmp_path / "dask", workers=2, scheduler=address)
    local = run_tuning(spec, tmp_path / "local", workers=2)
    assert _trail(on_dask.root) == _trail(local.root) and on_dask.answer == local.answer
    for entry in _trail(local.root):
        for table in ("hands", "games"):
            assert dataset_rows(on_dask.root / entry["dataset"], table) == dataset_rows(
                local.root / entry["dataset"], table
            )


def test_the_python_api_returns_the_answer(tmp_path):
    from sim import api

    path = tmp_path / "small-tune.toml"
    path.write_text(SPEC)
    answer = api.tune(path, out=tmp_path / "out", page=tmp_path / "page", workers=1)
    assert answer["status"] == "found" and answer["setting"] == "knock_limit"
    assert answer["sentence"].startswith(f"knock_limit = {answer['value']} puts")
    assert (tmp_path / "page" / "index.html").is_file()
