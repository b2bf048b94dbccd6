"""Small experiments written to temporary folders, and the CLI run as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq

SMALL = """\
name = "small"
description = "two rule sets, 2 players, greedy"
seed = 7
hands = 3000
shard_size = 1000
players = [2]
lineups = ["greedy"]
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"

[[arms]]
name = "ace_high"
variant = "rummy_basic"
rules = { ace_rank = "high" }
"""

MC_SMALL = """\
name = "mc"
description = "mc32 against simple and careful in gin"
seed = 11
hands = 40
shard_size = 10
players = [2]
lineups = [["mc32", "simple"], ["careful", "mc32"]]
baseline = "gin"

[[arms]]
name = "gin"
variant = "gin_rummy"
"""


def write_experiment(folder: Path, text: str = SMALL, name: str = "small.toml") -> Path:
    """Write an experiment file into ``folder``; return its path."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``rummysim ARGS`` in a fresh process; capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "120"},
    )


def start_cli(*args: str) -> subprocess.Popen:
    """Start ``rummysim ARGS`` without waiting for it."""
    return subprocess.Popen(
        [sys.executable, "-m", "sim.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "120"},
    )


def dataset_rows(root: Path, table: str = "hands") -> dict[str, list[dict]]:
    """Every file of a dataset table as its rows, keyed by the file's path under ``root``
    (so two datasets compare file by file, whatever order they were written in)."""
    rows = {}
    for path in sorted((root / table).rglob("*.parquet")):
        rows[str(path.relative_to(root))] = pq.read_table(path).to_pylist()
    return rows
