"""A run's rows depend only on the experiment and seed: not on the worker count, nor on how
a shard is cut into kernel calls (docs/experiments.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.runner import shards
from sim.runner.experiment import load_experiment
from sim.runner.run import plan, run_experiment
from tests.runner.helpers import SMALL, dataset_rows, write_experiment


def _run(tmp_path: Path, text: str, out: str, workers: int) -> Path:
    exp = load_experiment(write_experiment(tmp_path, text))
    summary = run_experiment(exp, tmp_path / out, workers=workers)
    return summary.root


def test_one_and_two_workers_write_identical_datasets(tmp_path):
    one = _run(tmp_path, SMALL, "one", workers=1)
    two = _run(tmp_path, SMALL, "two", workers=2)
    for table in ("hands", "games"):
        assert dataset_rows(one, table) == dataset_rows(two, table)
    m1 = json.loads((one / "manifest.json").read_text())
    m2 = json.loads((two / "manifest.json").read_text())
    digests = [
        {k: s[k] for k in ("arm", "shard", "hands_sha256", "games_sha256")} for s in m1["shards"]
    ]
    assert digests == [
        {k: s[k] for k in ("arm", "shard", "hands_sha256", "games_sha256")} for s in m2["shards"]
    ]
    assert m1["complete"] and all(s["hands"] == 1000 for s in m1["shards"])


GAMES = SMALL.replace("hands = 3000", "games = 40").replace("shard_size = 1000", "shard_size = 20")
ONE_HAND = SMALL.replace(
    'rules = { ace_rank = "high" }', 'rules = { ace_rank = "high", game_end = "single_hand" }'
)


@pytest.mark.parametrize(
    "text", [SMALL, GAMES, ONE_HAND], ids=["hands", "games", "single-hand-games"]
)
def test_cutting_a_shard_into_small_kernel_calls_changes_nothing(tmp_path, monkeypatch, text):
    exp = load_experiment(write_experiment(tmp_path, text))
    task = plan(exp, tmp_path / "whole")[1]
    whole = shards.run_shard(task)
    monkeypatch.setattr(shards, "CHUNK_HANDS", 7)
    cut_task = plan(exp, tmp_path / "cut")[1]
    cut = shards.run_shard(cut_task)
    assert (whole.hands, whole.games) == (cut.hands, cut.games)
    assert whole.hands_sha256 == cut.hands_sha256 and whole.games_sha256 == cut.games_sha256


def test_games_mode_writes_whole_games_only(tmp_path):
    root = _run(tmp_path, GAMES, "out", workers=1)
    rows = [r for part in dataset_rows(root, "games").values() for r in part]
    hands = [r for part in dataset_rows(root, "hands").values() for r in part]
    assert len(rows) == 2 * 40
    assert sum(r["hands"] for r in rows) == len(hands)
    for game in rows:
        assert max(game["final_scores"]) >= 100 or game["capped"]


def test_mirrored_deals_give_every_seat_every_hand(tmp_path):
    text = ONE_HAND.replace("seed = 7", "seed = 7\nmirror = true")
    root = _run(tmp_path, text, "out", workers=2)
    rows = dataset_rows(root, "hands")["hands/arm=ace_high-2p-greedy/part-00000.parquet"]
    by_rotation = {0: [], 1: []}
    for row in rows:
        by_rotation[row["rotation"]].append(row)
    assert len(by_rotation[0]) == len(by_rotation[1]) == 1000
    same = 0
    for a, b in zip(by_rotation[0], by_rotation[1], strict=True):
        assert a["deal"] == b["deal"] and b["dealer"] == (a["dealer"] + 1) % 2
        # identical bots on the same cards, seats swapped: the same hand, seats swapped
        same += b["hand_scores"] == list(np.roll(a["hand_scores"], 1))
    assert same == 1000
