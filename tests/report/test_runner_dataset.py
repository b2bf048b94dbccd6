"""The report on a dataset written by the real runner (``rummysim run``), with mirrored
deals and a mixed line-up: the manifest, the rotations and each bot's skill rows."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim.report import write_report
from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment

EXPERIMENT = """\
name = "mirror"
description = "mirrored deals, a mixed line-up, <b>escaped</b>"
seed = 3
hands = 1500
players = [2]
lineups = [["careful", "greedy"]]
mirror = true
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"
label = "standard"

[[arms]]
name = "around"
variant = "around_the_corner"
label = "around the corner"
"""


def test_report_on_a_mirrored_runner_dataset(tmp_path: Path) -> None:
    path = tmp_path / "mirror.toml"
    path.write_text(EXPERIMENT, encoding="utf-8")
    summary = run_experiment(load_experiment(path), tmp_path / "data", workers=1, fresh=True)
    written = write_report(summary.root, tmp_path / "report", resamples=200)
    report = written.report
    assert report.agg.per_game_deals  # mirrored runs number deals per game
    assert report.hands == {a.name: 2 * 1500 for a in report.dataset.arms}  # 2 rotations
    (arm,) = [a for a in report.dataset.arms if not a.is_baseline]
    assert arm.label == "around the corner" and arm.baseline.startswith("basic-2p-")
    turns = next(c for c in report.comparisons if c.metric.name == "turns_mean")
    assert turns.interval.low <= turns.interval.estimate <= turns.interval.high
    rows = report.rows
    adv = rows.filter(pl.col("metric") == "first_advantage")
    assert adv.height == 2 and (adv["ci_low"] <= adv["ci_high"]).all()
    # skill: each bot holds one seat of every hand, in every rotation of a deal
    bots = rows.filter(pl.col("metric").str.starts_with("bot_"))
    assert bots.height == 2 * 2 * 2 and (bots["n"] == 2 * 1500).all()
    for arm in report.dataset.arms:
        hands = report.dataset.hands().filter(pl.col("arm") == arm.name).collect()
        assert hands["rotation"].n_unique() == 2
        won_by = hands.filter(pl.col("winner") >= 0).select(pl.col("bots").list.get("winner"))
        for bot in ("careful", "greedy"):
            metric = (pl.col("arm") == arm.name) & (pl.col("metric") == f"bot_{bot}_win")
            rate = 100 * (won_by["bots"] == bot).sum() / hands.height
            assert bots.filter(metric)["value"].item() == pytest.approx(rate)
    page = written.index.read_text()
    assert "&lt;b&gt;escaped&lt;/b&gt;" in page and "<b>escaped</b>" not in page


A_A = """\
name = "aa"
seed = 5
hands = 1500
players = [2]
lineups = ["greedy"]
mirror = true
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"

[[arms]]
name = "again"
variant = "rummy_basic"
"""


@pytest.mark.parametrize("mirror", [True, False])
def test_game_metrics_pair_on_common_deals_where_deals_are_numbered_per_game(tmp_path, mirror):
    """Issue #30 point 3: two arms with the same rules play the same games. With mirrored
    deals (deals numbered per game) their game blocks are resampled together, so every
    game metric's difference is exactly 0 with a zero-width interval; without, games are
    compared unpaired (a wide interval around 0), and the page says which."""
    path = tmp_path / "aa.toml"
    path.write_text(A_A if mirror else A_A.replace("mirror = true\n", ""), encoding="utf-8")
    summary = run_experiment(load_experiment(path), tmp_path / "data", workers=1, fresh=True)
    written = write_report(summary.root, tmp_path / "report", resamples=200)
    games = [c for c in written.report.comparisons if c.metric.level == "game"]
    assert {c.metric.name for c in games} >= {"hands_per_game", "margin_mean", "minutes_per_game"}
    for c in games:
        width = c.interval.high - c.interval.low
        assert c.interval.estimate == 0
        assert (width == 0) if mirror else (width > 0), (c.metric.name, c.interval)
    page = (written.index.parent / "report.md").read_text()
    assert ("per-game metrics (hands per game" in page) and (("are paired too" in page) == mirror)
