"""The report of a partnership table (4-player gin, RULES.md §3.19) reads each team as one
side: seats 0 and 2 are team A, 1 and 3 team B, and both partners carry the team's score.
Per-seat figures of such a table would count every team twice (points, margins) or never
(game wins of seats 2 and 3), so the report's team figures are checked here against direct
computations over the rows."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim.report.analysis import analyse
from sim.report.dataset import open_dataset
from sim.report.metrics import aggregate
from tests.report.builder import ArmSpec, build_dataset

SIMPLE4 = ("simple",) * 4


@pytest.fixture(scope="module")
def gin4(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data") / "gin4"
    arms = [
        ArmSpec("gin", "gin_rummy_4p", 4, SIMPLE4, baseline_ruleset="gin"),
        ArmSpec("bonus", "gin_rummy_4p", 4, SIMPLE4, {"gin_bonus": 25}, baseline_ruleset="gin"),
        ArmSpec("gin", "gin_rummy", 2, ("simple", "simple"), baseline_ruleset="gin"),
    ]
    return build_dataset(root, arms, hands_per_shard=1200, shards=2, seed=5, name="gin4")


@pytest.fixture(scope="module")
def rows(gin4: Path) -> pl.DataFrame:
    ds = open_dataset(gin4)
    return analyse(ds, aggregate(ds), resamples=200, seed=1).rows


def _value(rows: pl.DataFrame, arm: str, metric: str) -> float:
    return rows.filter((pl.col("arm") == arm) & (pl.col("metric") == metric))["value"].item()


def test_3_19_partnership_arms_are_read_as_teams(gin4: Path) -> None:
    teams = {a.name: a.teams for a in open_dataset(gin4).arms}
    assert teams == {"gin-4p-simple": True, "bonus-4p-simple": True, "gin-2p-simple": False}
    # without a manifest the variant file tells
    (gin4 / "manifest.json").rename(gin4 / "manifest.moved")
    try:
        assert {a.name: a.teams for a in open_dataset(gin4).arms} == teams
    finally:
        (gin4 / "manifest.moved").rename(gin4 / "manifest.json")


def test_3_19_team_rows_replace_seat_rows(rows: pl.DataFrame) -> None:
    arm = rows.filter(pl.col("arm") == "gin-4p-simple")
    metrics = set(arm["metric"])
    assert {"seat0_win", "seat1_win", "seat0_game_win", "seat1_game_win"} <= metrics
    assert not metrics & {"seat2_win", "seat3_win", "seat2_game_win", "seat3_game_win"}
    titles = dict(zip(arm["metric"], arm["title"], strict=True))
    assert titles["seat0_game_win"] == "team A (seats 0 and 2) game win rate"
    assert titles["seat1_win"] == "team B (seats 1 and 3) hand win rate"
    # the 2-player arm keeps its seats
    two = rows.filter(pl.col("arm") == "gin-2p-simple")
    assert two.filter(pl.col("metric") == "seat1_win")["title"].item() == "seat 1 hand win rate"


def test_3_19_team_figures_match_the_rows(gin4: Path, rows: pl.DataFrame) -> None:
    ds = open_dataset(gin4)
    name = "gin-4p-simple"
    hands = ds.hands().filter(pl.col("arm") == name).collect()
    games = ds.games().filter(pl.col("arm") == name).collect()
    a, b = (hands["hand_scores"].list.get(s) for s in (0, 1))
    # both partners carry the team's score: the hand's points are the two teams'
    assert (hands["hand_scores"].list.get(2) == a).all()
    assert _value(rows, name, "points_mean") == pytest.approx((a.abs() + b.abs()).mean())
    team = hands["winner"].filter(hands["winner"] >= 0) % 2
    rate_a = (team == 0).sum() / hands.height
    rate_b = (team == 1).sum() / hands.height
    assert _value(rows, name, "seat0_win") == pytest.approx(100 * rate_a)
    assert _value(rows, name, "seat1_win") == pytest.approx(100 * rate_b)
    dealer_team = (hands["dealer"] % 2).filter(hands["winner"] >= 0)
    assert _value(rows, name, "dealer_win") == pytest.approx(
        100 * (team == dealer_team).sum() / hands.height
    )
    final = games["final_scores"]
    margin = (final.list.get(0) - final.list.get(1)).abs()
    assert margin.min() >= 0 and margin.mean() > 0
    assert _value(rows, name, "margin_mean") == pytest.approx(margin.mean())
    decided = (games["winner"] >= 0).sum()
    game_a = _value(rows, name, "seat0_game_win")
    game_b = _value(rows, name, "seat1_game_win")
    assert game_a + game_b == pytest.approx(100 * decided / games.height)
    # seat advantage: each team's share of the won hands and games minus 1/2
    won = hands["winner"] >= 0
    assert _value(rows, name, "seat0_edge") == pytest.approx(100 * ((team == 0).mean() - 0.5))
    assert _value(rows, name, "dealer_edge") == pytest.approx(
        100 * ((team == dealer_team).sum() / won.sum() - 0.5)
    )
    wins_a = (games["winner"].filter(games["winner"] >= 0) == 0).mean()
    assert _value(rows, name, "seat0_game_edge") == pytest.approx(100 * (wins_a - 0.5))
