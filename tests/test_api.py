"""The Python API (``sim.api``, docs/api.md): the command line's steps, callable."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from sim import api
from sim.rules import ConfigError


def test_simulate_returns_the_hands_table_of_the_dataset_schema() -> None:
    hands = api.simulate("around_the_corner", players=3, bots="greedy", hands=300, seed=5)
    assert hands.height == 300
    assert {"turns", "end_reason", "hand_scores", "winner"} <= set(hands.columns)
    again = api.simulate(api.rules("around_the_corner"), players=3, hands=300, seed=5)
    assert hands.equals(again)  # the same seed gives the same hands


def test_simulate_applies_overrides_and_refuses_bad_input() -> None:
    base = api.simulate("rummy_basic", hands=400, seed=1)
    high = api.simulate("rummy_basic", hands=400, seed=1, ace_rank="high")
    assert not base.equals(high)
    with pytest.raises(ConfigError, match="ace_rank"):
        api.simulate("rummy_basic", hands=10, ace_rank="sideways")
    with pytest.raises(ConfigError, match="bot"):
        api.simulate("rummy_basic", hands=10, bots="nobody")


def test_run_load_and_report_an_experiment(tmp_path: Path) -> None:
    assert "fast" in dict(api.experiments())
    root = api.run("fast", out=tmp_path / "data", hands=2000, workers=1)
    data = api.load(root)
    counts = data.hands.group_by("arm").len().collect()
    assert counts["len"].to_list() == [2000, 2000, 2000]
    assert data.rules is not None
    changed = data.rules.filter(pl.col("changed")).collect()
    assert set(changed["arm"]) == {"around_the_corner-2p-greedy", "block_difference-2p-greedy"}
    index = api.report(root, out=tmp_path / "report", resamples=200)
    assert index.name == "index.html" and index.is_file()
