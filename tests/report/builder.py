"""Build small (or, from the command line, large) datasets in the runner's layout, straight
from the engine, so the report can be tested before and independently of ``rummysim run``.

``python -m tests.report.builder OUT --hands-per-shard N --shards S --workers W`` writes the
``bench`` experiment (rummy_basic vs around_the_corner vs block_rummy, 2 and 4 players) and
prints a JSON line with the seconds it took to simulate and write it.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.bench import parse_bots
from sim.dataset.files import shard_path, with_metadata, write_parquet_atomic
from sim.dataset.schema import SCHEMA_VERSION, ShardId, games_table, hands_table
from sim.engine.api import compile_rules, play
from sim.rules import load_variant, rules_to_toml

CHUNK = 250_000


@dataclass(frozen=True)
class ArmSpec:
    """One arm: a rule set (a variant plus overrides) at one table with one line-up."""

    ruleset: str
    variant: str
    players: int
    bots: tuple[str, ...]
    overrides: dict = field(default_factory=dict)
    baseline_ruleset: str = "basic"
    label: str = ""

    @property
    def lineup(self) -> str:
        return ",".join(self.bots) if len(set(self.bots)) > 1 else self.bots[0]

    @property
    def name(self) -> str:
        return f"{self.ruleset}-{self.players}p-{self.lineup}"

    @property
    def baseline(self) -> str:
        return f"{self.baseline_ruleset}-{self.players}p-{self.lineup}"


def _rules(spec: ArmSpec):
    rules = load_variant(spec.variant)
    return rules.with_values(spec.overrides) if spec.overrides else rules


def play_shard(spec: ArmSpec, root: Path, shard: int, hands: int, seed: int) -> dict:
    """Play and write one shard of one arm; return its manifest entry."""
    rules = _rules(spec)
    params, values = compile_rules(rules, spec.players)
    codes = np.array(parse_bots(",".join(spec.bots), spec.players), np.int64)
    sid = ShardId(spec.ruleset, spec.variant, spec.players, spec.bots, seed, shard)
    hands_parts, games_parts = [], []
    done = 0
    start = time.perf_counter()
    while done < hands:
        n = min(CHUNK, hands - done)
        out = play(
            params,
            values,
            codes,
            seed=seed,
            shard=shard,
            first_deal=done,
            first_game=done,
            hands=n,
        )
        teams = rules.in_partnerships(spec.players)
        hands_parts.append(hands_table(out, sid, teams=teams))
        games_parts.append(games_table(out, sid, teams=teams))
        done += out.hands
    import pyarrow as pa

    meta = {"arm": spec.name, "seed": seed, "shard": shard, "schema_version": SCHEMA_VERSION}
    hands_t = with_metadata(pa.concat_tables(hands_parts), meta)
    games_t = with_metadata(pa.concat_tables(games_parts), meta)
    hsha = write_parquet_atomic(hands_t, shard_path(root, "hands", spec.name, shard), root)
    gsha = write_parquet_atomic(games_t, shard_path(root, "games", spec.name, shard), root)
    return {
        "arm": spec.name,
        "shard": shard,
        "status": "done",
        "hands": hands_t.num_rows,
        "games": games_t.num_rows,
        "hands_sha256": hsha,
        "games_sha256": gsha,
        "seconds": round(time.perf_counter() - start, 3),
    }


def build_dataset(
    root: Path,
    arms: list[ArmSpec],
    *,
    hands_per_shard: int,
    shards: int = 1,
    seed: int = 1,
    name: str = "test",
    workers: int = 1,
    experiment_text: str = "# built by tests/report/builder.py\n",
) -> Path:
    """Write ``root`` with hands/, games/ and a manifest.json in the runner's format."""
    root.mkdir(parents=True, exist_ok=True)
    jobs = [(spec, root, s, hands_per_shard, seed) for spec in arms for s in range(shards)]
    if workers > 1:
        import multiprocess as mp

        with mp.get_context("fork").Pool(workers) as pool:
            entries = pool.starmap(play_shard, jobs)
    else:
        entries = [play_shard(*job) for job in jobs]
    manifest = {
        "rummysim_version": "0.1.0",
        "schema_version": SCHEMA_VERSION,
        "complete": True,
        "experiment": {
            "name": name,
            "file": f"configs/experiments/{name}.toml",
            "text": experiment_text,
            "sha256": hashlib.sha256(experiment_text.encode()).hexdigest(),
            "seed": seed,
            "mirror": False,
        },
        "arms": [
            {
                "name": spec.name,
                "ruleset": spec.ruleset,
                "variant": spec.variant,
                "players": spec.players,
                "bots": list(spec.bots),
                "lineup": spec.lineup,
                "rules_toml": rules_to_toml(_rules(spec)),
                "changes": dict(spec.overrides),
                "baseline": spec.baseline,
                "label": spec.label or spec.ruleset,
            }
            for spec in arms
        ],
        "shards": entries,
    }
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return root


def bench_arms() -> list[ArmSpec]:
    """The arms of the benchmark experiment: three rule sets at 2 and 4 players."""
    arms = []
    for players in (2, 4):
        bots = ("greedy",) * players
        arms += [
            ArmSpec("basic", "rummy_basic", players, bots, label="basic rummy"),
            ArmSpec("around", "around_the_corner", players, bots, label="around the corner"),
            ArmSpec("block", "block_rummy", players, bots, label="block rummy"),
        ]
    return arms


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--hands-per-shard", type=int, default=100_000)
    parser.add_argument("--shards", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    arms = bench_arms()
    # compile (or load from the cache) once before forking
    import tempfile

    with tempfile.TemporaryDirectory() as warm:
        play_shard(arms[0], Path(warm), 0, 10, args.seed)
    start = time.perf_counter()
    build_dataset(
        Path(args.out),
        arms,
        hands_per_shard=args.hands_per_shard,
        shards=args.shards,
        seed=args.seed,
        name=Path(args.out).name,
        workers=args.workers,
    )
    seconds = time.perf_counter() - start
    hands = len(arms) * args.shards * args.hands_per_shard
    print(json.dumps({"bench": "simulate", "hands": hands, "seconds": round(seconds, 2)}))


if __name__ == "__main__":
    main(sys.argv[1:])


def charged_seconds(model: dict[str, float]):
    """A hand's seconds at the table under the time ``model`` (sim.dataset.timing), as a
    polars expression over the hands table's action counts, written here independently of
    the report's own arithmetic."""
    import polars as pl

    return (
        model["hand"] + model["turn"] * pl.col("turns") + model["meld"] * pl.col("melds")
        + model["layoff"] * pl.col("layoffs") + model["rebuild"] * pl.col("rebuilds")
    )  # fmt: skip
