"""A run's rows depend only on the experiment and seed: not on the worker count, nor on how
a shard is cut into kernel calls (docs/experiments.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.rules import ConfigError
from sim.runner import shards
from sim.runner.experiment import load_experiment
from sim.runner.run import plan, run_experiment
from tests.runner.helpers import MC_SMALL, SMALL, dataset_rows, write_experiment


def _run(tmp_path: Path, text: str, out: str, workers: int) -> Path:
    exp = load_experiment(write_experiment(tmp_path, text))
    summary = run_experiment(exp, tmp_path / out, workers=workers)
    return summary.root


@pytest.mark.parametrize("text", [SMALL, MC_SMALL], ids=["greedy", "mc32"])
def test_one_and_two_workers_write_identical_datasets(tmp_path, text):
    one = _run(tmp_path, text, "one", workers=1)
    two = _run(tmp_path, text, "two", workers=2)
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
    size = 1000 if text == SMALL else 10
    assert m1["complete"] and all(s["hands"] == size for s in m1["shards"])


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


def test_mirrored_one_hand_games_are_the_same_hand_with_the_seats_turned(tmp_path):
    text = ONE_HAND.replace("seed = 7", "seed = 7\nmirror = true")
    root = _run(tmp_path, text, "out", workers=2)
    rows = dataset_rows(root, "hands")["hands/arm=ace_high-2p-greedy/part-00000.parquet"]
    by_rotation = {0: [], 1: []}
    for row in rows:
        by_rotation[row["rotation"]].append(row)
    assert len(by_rotation[0]) == len(by_rotation[1]) == 1000
    for a, b in zip(by_rotation[0], by_rotation[1], strict=True):
        assert a["deal"] == b["deal"] and b["dealer"] == (a["dealer"] + 1) % 2
        # identical bots on the same cards, seats turned: the same hand, seats turned
        assert b["hand_scores"] == list(np.roll(a["hand_scores"], 1))


MIRROR_GAMES = """\
name = "mirror"
seed = 11
games = 30
players = [3]
lineups = [["greedy", "careful", "random"]]
baseline = "basic"
mirror = true

[[arms]]
name = "basic"
variant = "rummy_basic"
rules = { game_end = "target:60" }
"""


def test_mirrored_games_deal_every_seat_every_hand_with_mixed_bots(tmp_path):
    root = _run(tmp_path, MIRROR_GAMES, "out", workers=2)
    name = "hands/arm=basic-3p-greedy+careful+random/part-00000.parquet"
    rows = dataset_rows(root, "hands")[name]
    by_key = {(r["rotation"], r["game"], r["hand"]): r for r in rows}
    games = {(r["rotation"], r["game"]) for r in rows}
    assert {rotation for rotation, _ in games} == {0, 1, 2}
    assert len(games) == 3 * 30
    compared = 0
    for (rotation, game, hand), row in by_key.items():
        first = by_key.get((0, game, hand))
        if rotation == 0 or first is None:
            continue
        # the same shuffle, the deal moved `rotation` seats on: seat p's cards go to p + r
        assert row["deal"] == first["deal"]
        assert row["dealer"] == (first["dealer"] + rotation) % 3
        compared += 1
    assert compared >= 2 * 30  # at least every game's first hand, in both other rotations
    outcomes = {tuple(by_key[(r, 0, 0)]["hand_scores"]) for r in range(3)}
    assert len(outcomes) > 1  # different bots got the cards: the mirror is not a no-op


def test_mirroring_refuses_rules_where_the_winner_deals(tmp_path):
    text = MIRROR_GAMES.replace(
        'rules = { game_end = "target:60" }', 'rules = { dealer_rotation = "winner_deals" }'
    )
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, text))
    assert "'mirror'" in str(caught.value) and "winner_deals" in str(caught.value)


def test_a_plan_folds_standard_into_one_pack_rummy_and_writes_the_same_rows(tmp_path):
    """SMALL's arms need STANDARD and ONE_PACK_RUMMY; the plan plays both under
    ONE_PACK_RUMMY (``specs.plan_specs``: one spec to compile), and the basic arm's shard
    is the same file under STANDARD. The default experiment plans one spec too."""
    import dataclasses

    exp = load_experiment(write_experiment(tmp_path, SMALL))
    tasks = plan(exp, tmp_path / "folded")
    assert {t.spec for t in tasks} == {"one_pack_rummy"}
    basic = next(t for t in tasks if t.arm.startswith("basic"))
    folded = shards.run_shard(basic)
    own = shards.run_shard(dataclasses.replace(basic, spec="standard", root=str(tmp_path / "own")))
    assert folded.hands == own.hands == 1000
    assert (folded.hands_sha256, folded.games_sha256) == (own.hands_sha256, own.games_sha256)
    default = plan(load_experiment("house-rules"), tmp_path / "default")
    assert {t.spec for t in default} == {"one_pack_rummy"}
