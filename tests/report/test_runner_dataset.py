"""The report on a dataset written by the real runner (``rummysim run``), with mirrored
deals and a mixed line-up: the manifest, the rotations and each bot's skill rows."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim.report.build import write_report
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


@pytest.mark.parametrize("how", ["mirrored", "in hands", "in games"])
def test_game_metrics_pair_on_the_deals_their_blocks_share(tmp_path, how):
    """Issue #30 point 3: two arms with the same rules play the same games. Mirrored (deals
    numbered per game) or counted in hands (games in the blocks of their first deals), their
    game blocks are resampled together, so every game metric's difference is exactly 0 with a
    zero-width interval; in a run counted in games without mirrored deals game g is dealt
    other cards once hand lengths differ, so games are compared unpaired (a wide interval
    around 0). The page says which."""
    text = {
        "mirrored": A_A,
        "in hands": A_A.replace("mirror = true\n", ""),
        "in games": A_A.replace("mirror = true\n", "").replace("hands = 1500", "games = 300"),
    }
    path = tmp_path / "aa.toml"
    path.write_text(text[how], encoding="utf-8")
    summary = run_experiment(load_experiment(path), tmp_path / "data", workers=1, fresh=True)
    written = write_report(summary.root, tmp_path / "report", resamples=200)
    games = [c for c in written.report.comparisons if c.metric.level == "game"]
    assert {c.metric.name for c in games} >= {"hands_per_game", "margin_mean", "minutes_per_game"}
    paired = how != "in games"
    for c in games:
        width = c.interval.high - c.interval.low
        assert c.interval.estimate == 0
        assert (width == 0) if paired else (width > 0), (c.metric.name, c.interval)
    page = (written.index.parent / "report.md").read_text()
    said = {"mirrored": "are paired too", "in hands": "are paired on the blocks of deals",
            "in games": "are compared unpaired"}  # fmt: skip
    assert "per-game metrics (hands per game" in page and said[how] in page


def test_the_dealers_points_edge_is_his_score_per_hand_minus_a_sides_mean(tmp_path):
    """``dealer_points_edge`` (the report's, from the footers' block sums) against the rows:
    the dealer's ``hand_scores`` entry minus the mean of the seats', per hand."""
    path = tmp_path / "aa.toml"
    path.write_text(A_A.replace("mirror = true\n", ""), encoding="utf-8")
    summary = run_experiment(load_experiment(path), tmp_path / "data", workers=1, fresh=True)
    written = write_report(summary.root, tmp_path / "report", resamples=200)
    rows = written.report.rows.filter(pl.col("metric") == "dealer_points_edge")
    hands = written.report.dataset.hands().collect()
    for arm in written.report.dataset.arms:
        mine = hands.filter(pl.col("arm") == arm.name)
        scores = mine["hand_scores"].to_list()
        edges = [s[d] - sum(s) / len(s) for s, d in zip(scores, mine["dealer"], strict=True)]
        value = rows.filter(pl.col("arm") == arm.name)["value"].item()
        assert value == pytest.approx(sum(edges) / len(edges))
        assert value != 0  # the dealer moves second: his edge in points is not 0
