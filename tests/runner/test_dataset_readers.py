"""The dataset opens as it is in polars, pyarrow, duckdb and pandas, with the documented
columns, the arm from the folder name and the metadata in every file (docs/schema.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from sim.dataset.schema import (
    GAME_COLUMNS,
    GAMES_SCHEMA,
    HAND_COLUMNS,
    HANDS_SCHEMA,
    RULES_COLUMNS,
    RULES_SCHEMA,
)
from sim.rules.loader import rules_from_toml
from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment
from tests.runner.helpers import SMALL, write_experiment

DOCS = Path(__file__).resolve().parents[2] / "docs" / "schema.md"


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("readers")
    exp = load_experiment(write_experiment(folder, SMALL))
    return run_experiment(exp, folder / "out", workers=2).root


def _expected(root: Path) -> tuple[int, int]:
    manifest = json.loads((root / "manifest.json").read_text())
    return sum(s["hands"] for s in manifest["shards"]), sum(s["games"] for s in manifest["shards"])


def test_polars(dataset):
    hands = pl.scan_parquet(dataset / "hands" / "**" / "*.parquet", hive_partitioning=True)
    counts = hands.group_by("arm").agg(pl.len(), pl.col("turns").mean()).collect()
    assert sorted(counts["arm"].to_list()) == ["ace_high-2p-greedy", "basic-2p-greedy"]
    assert counts["len"].sum() == _expected(dataset)[0]
    games = pl.scan_parquet(dataset / "games" / "**" / "*.parquet", hive_partitioning=True)
    assert games.select(pl.len()).collect().item() == _expected(dataset)[1]


def test_pyarrow(dataset):
    hands = ds.dataset(dataset / "hands", format="parquet", partitioning="hive")
    assert hands.count_rows() == _expected(dataset)[0]
    assert set(hands.schema.names) == set(HANDS_SCHEMA.names) | {"arm"}
    games = ds.dataset(dataset / "games", format="parquet", partitioning="hive")
    assert games.count_rows() == _expected(dataset)[1]


def test_duckdb(dataset):
    glob = str(dataset / "hands" / "*" / "*.parquet")
    rows = duckdb.sql(
        f"SELECT arm, count(*) AS n, sum(hand_scores[1]) AS s FROM "
        f"read_parquet('{glob}', hive_partitioning = true) GROUP BY arm ORDER BY arm"
    ).fetchall()
    assert [r[0] for r in rows] == ["ace_high-2p-greedy", "basic-2p-greedy"]
    assert sum(r[1] for r in rows) == _expected(dataset)[0]


def test_pandas(dataset):
    hands = pd.read_parquet(dataset / "hands")
    assert len(hands) == _expected(dataset)[0]
    assert set(hands["arm"].astype(str)) == {"ace_high-2p-greedy", "basic-2p-greedy"}
    games = pd.read_parquet(dataset / "games")
    assert len(games) == _expected(dataset)[1]


def test_every_file_carries_its_arm_rules_seed_and_shard(dataset):
    for path in [*dataset.glob("hands/*/*.parquet"), *dataset.glob("games/*/*.parquet")]:
        meta = {k.decode(): v.decode() for k, v in pq.read_schema(path).metadata.items()}
        arm = path.parent.name.removeprefix("arm=")
        assert meta["rummysim.arm"] == arm
        assert meta["rummysim.seed"] == "7"
        assert meta["rummysim.shard"] == str(int(path.stem.removeprefix("part-")))
        assert meta["rummysim.experiment"] == "small"
        rules = rules_from_toml(meta["rummysim.rules"])
        assert rules.ace_rank == ("high" if arm.startswith("ace_high") else "low")
        assert pq.read_schema(path).remove_metadata() in (
            HANDS_SCHEMA.remove_metadata(),
            GAMES_SCHEMA.remove_metadata(),
        )
        assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "ZSTD"


def test_docs_list_the_columns_of_the_schema():
    text = DOCS.read_text()
    tables = (("hands", HAND_COLUMNS), ("games", GAME_COLUMNS), ("rules.parquet", RULES_COLUMNS))
    for title, columns in tables:
        section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
        documented = re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", section, re.M)
        assert documented == [(name, str(kind)) for name, kind, _ in columns]


def test_the_dataset_carries_each_arms_resolved_rules(dataset):
    """Issue #30 point 2: rules.parquet, one row per arm and setting, joins on ``arm``; the
    ace_high arm shows that ``ace_points = "auto"`` raised the ace to 10 (RULES.md §2A.5)."""
    rules = pl.read_parquet(dataset / "rules.parquet")
    assert pq.read_schema(dataset / "rules.parquet").remove_metadata() == RULES_SCHEMA
    assert set(rules["arm"]) == {"ace_high-2p-greedy", "basic-2p-greedy"}
    changed = rules.filter(pl.col("changed"))
    assert sorted(changed.select("arm", "setting", "baseline_value", "value").rows()) == [
        ("ace_high-2p-greedy", "ace_points", "1", "10"),
        ("ace_high-2p-greedy", "ace_rank", "low", "high"),
    ]
    hands = pl.scan_parquet(dataset / "hands" / "**" / "*.parquet", hive_partitioning=True)
    joined = hands.join(changed.lazy(), on="arm").select(pl.len()).collect().item()
    assert joined == 2 * 3000  # each ace_high hand, once per changed setting


PHOM = """\
name = "phom"
description = "Phỏm at 4 players, greedy"
seed = 3
hands = 600
shard_size = 300
players = [4]
lineups = ["greedy"]
baseline = "phom"

[[arms]]
name = "phom"
variant = "phom"
"""


def test_mom_seats_round_trip_from_the_engine_to_the_files(tmp_path):
    """Issue #32 point 4: the runner writes each hand's ``mom_seats`` as the engine filled it
    (the same deals played in-process by ``play``), and a reader gets it back as the
    documented int16."""
    import numpy as np

    from sim.engine import rows as R
    from sim.engine.api import compile_rules, play
    from sim.rules import load_variant

    root = run_experiment(load_experiment(write_experiment(tmp_path, PHOM)), tmp_path / "out",
                          workers=1).root  # fmt: skip
    assert pq.read_schema(next((root / "hands").rglob("*.parquet"))).field("mom_seats").type == (
        HANDS_SCHEMA.field("mom_seats").type
    )
    hands = pl.read_parquet(root / "hands" / "**" / "*.parquet", hive_partitioning=True)
    hands = hands.sort("shard", "deal")
    params, values = compile_rules(load_variant("phom"), 4)
    for shard in sorted(set(hands["shard"].to_list())):
        out = play(params, values, np.full(4, R.BOT_GREEDY, np.int64), seed=3, hands=300,
                   shard=shard)  # fmt: skip
        written = hands.filter(pl.col("shard") == shard)["mom_seats"].to_list()
        assert written == out.hand_rows[:, R.H_MOM_SEATS].tolist()
    assert hands["mom_seats"].max() > 0
