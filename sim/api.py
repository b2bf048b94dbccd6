"""rummysim's Python API: what the command line does, for a notebook or a script.

```python
from sim import api

api.variants()                                   # [(name, description), ...]
hands = api.simulate("around_the_corner", players=4, bots="careful", hands=20_000)
hands.group_by("end_reason").len()               # a polars DataFrame, the dataset's columns

root = api.run("fast", out="data")               # an experiment file (or a shipped name)
data = api.load(root)                            # polars LazyFrames: hands, games, rules
data.hands.group_by("arm").agg(pl.col("turns").mean()).collect()
api.report(root, out="reports/fast")             # index.html, report.md, summary.*
```

Everything here checks its input as the command line does: a bad variant, toggle or
experiment raises :class:`sim.rules.ConfigError` (its message names the file, the key and
what is allowed), a failed run :class:`sim.runner.run.RunError`, an unreadable dataset
:class:`sim.report.dataset.DatasetError`. docs/api.md has a longer example.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from sim.rules import ConfigError, Rules, list_variants, load_variant


def variants() -> list[tuple[str, str]]:
    """``(name, description)`` of every variant file (``rummysim variants``)."""
    return list_variants()


def experiments() -> list[tuple[str, str]]:
    """``(name, description)`` of every shipped experiment file (``rummysim experiments``)."""
    from sim.runner.experiment import list_experiments

    return list_experiments()


def rules(variant: str, **overrides: object) -> Rules:
    """A variant's resolved rules with some toggles changed (``ace_rank="high"``), checked
    as a variant file's ``[rules]`` are."""
    loaded = load_variant(variant)
    return loaded.with_values(overrides) if overrides else loaded


def simulate(
    variant: str | Rules = "rummy_basic",
    *,
    players: int = 2,
    bots: str = "greedy",
    hands: int = 10_000,
    seed: int = 0,
    **overrides: object,
) -> pl.DataFrame:
    """Play ``hands`` hands of a variant (a name, a file, or :func:`rules`) in this process
    and return them as the dataset's hands table (docs/schema.md), one row per hand.
    ``bots``: one bot for every seat or one per seat (``"greedy,careful"``); ``overrides``
    change toggles (``ace_rank="high"``)."""
    import numpy as np

    from sim.bench import parse_bots
    from sim.dataset.schema import ShardId, hands_table
    from sim.engine.api import compile_rules, play
    from sim.engine.rows import BOT_NAMES

    base = variant if isinstance(variant, Rules) else load_variant(variant)
    chosen = base.with_values(overrides) if overrides else base
    if hands < 1:
        raise ConfigError("hands must be at least 1", key="hands", value=hands)
    try:
        codes = parse_bots(bots, players)
    except ValueError as err:
        raise ConfigError(str(err), key="bots", value=bots) from None
    params, values = compile_rules(chosen, players)
    out = play(params, values, np.array(codes, np.int64), seed=seed, hands=hands)
    names = tuple(BOT_NAMES[c] for c in codes)
    sid = ShardId(chosen.name, chosen.name, players, names, seed, 0)
    table = hands_table(out, sid, teams=chosen.in_partnerships(players))
    return pl.from_arrow(table)


def run(
    experiment: str | Path,
    *,
    out: str | Path = "data",
    hands: int | None = None,
    games: int | None = None,
    workers: int = 0,
    fresh: bool = False,
) -> Path:
    """Run an experiment file (or a shipped one by name) into ``out/<name>``, resuming an
    interrupted run, and return the dataset folder. ``hands`` / ``games`` rescale the
    amount per arm; ``workers`` 0 uses every core."""
    from sim.bench import cpu_count
    from sim.runner.experiment import load_experiment
    from sim.runner.run import run_experiment

    exp = load_experiment(experiment).scaled(hands=hands, games=games)
    n = workers if workers > 0 else cpu_count()
    return run_experiment(exp, Path(out), workers=n, fresh=fresh).root


@dataclass(frozen=True)
class Data:
    """A dataset's tables as polars LazyFrames (``arm`` read from the folder names)."""

    root: Path
    hands: pl.LazyFrame
    games: pl.LazyFrame
    rules: pl.LazyFrame | None
    """Every arm's resolved rules (docs/schema.md, rules.parquet); None in a dataset
    written before schema version 4."""


def load(dataset: str | Path) -> Data:
    """Open a dataset folder written by :func:`run` (or ``rummysim run``) for analysis,
    after checking every part file against its manifest as the report does."""
    import json

    from sim.dataset.schema import RULES_FILE
    from sim.report.dataset import DatasetError, verify_parts

    root = Path(dataset)
    manifest_path = root / "manifest.json"
    if not manifest_path.is_file():
        raise DatasetError(f"{root}: no manifest.json: not a dataset written by rummysim run")
    verify_parts(root, json.loads(manifest_path.read_text(encoding="utf-8")), manifest_path)

    def table(name: str) -> pl.LazyFrame:
        return pl.scan_parquet(root / name / "**" / "*.parquet", hive_partitioning=True)

    rules_path = root / RULES_FILE
    return Data(
        root=root,
        hands=table("hands"),
        games=table("games"),
        rules=pl.scan_parquet(rules_path) if rules_path.is_file() else None,
    )


def report(dataset: str | Path, *, out: str | Path | None = None, **options: object) -> Path:
    """Write a dataset's balance report (``rummysim report``); return its index.html.
    ``options``: ``baseline``, ``resamples``, ``seed`` as on the command line."""
    from sim.report.build import write_report

    return write_report(dataset, out, **options).index


def tune(
    spec: str | Path,
    *,
    out: str | Path = "data/tune",
    page: str | Path | None = None,
    workers: int = 0,
    fresh: bool = False,
) -> dict:
    """Run (or resume) a tuning file (or a shipped one by name, docs/tune.md) into
    ``out/<name>``, write its page to ``page`` (default ``reports/tune/<name>``) and return
    its answer as ``answer.json`` holds it (``value``, ``point``, ``agreed``, ``sentence``)."""
    from sim.bench import cpu_count
    from sim.tuning.page import write_page
    from sim.tuning.run import answer_json, run_tuning
    from sim.tuning.spec import load_spec

    loaded = load_spec(spec)
    n = workers if workers > 0 else cpu_count()
    result = run_tuning(loaded, Path(out), workers=n, fresh=fresh)
    write_page(result, Path(page) if page is not None else Path("reports/tune") / loaded.name)
    return answer_json(loaded, result.answer)


def ladder(
    target: str,
    *,
    players: int | None = None,
    bots: str | list[str] | None = None,
    games: int | None = None,
    out: str | Path = "data/ladder",
    page: str | Path | None = None,
    workers: int = 0,
    fresh: bool = False,
) -> dict:
    """Rank bots (``rummysim ladder``, docs/ladder.md): a variant's ladder at ``players``
    seats (or an experiment file's two-bot line-ups) into ``out/<name>``; write
    ``ladder.json`` and ``ladder.md`` to ``page`` (default ``reports/ladder/<name>``) and
    return what ``ladder.json`` holds (per table: ratings, pairs, luck against skill)."""
    import json

    from sim.bench import cpu_count
    from sim.ladder.run import ladder_experiment, run_ladder, write_outputs

    chosen = bots.split(",") if isinstance(bots, str) else bots
    exp = ladder_experiment(target, Path(out), players=players, bots=chosen, games=games)
    n = workers if workers > 0 else cpu_count()
    result = run_ladder(exp, Path(out), workers=n, fresh=fresh)
    folder = Path(page) if page is not None else Path("reports/ladder") / exp.name
    return json.loads(write_outputs(result, folder).with_name("ladder.json").read_text())
