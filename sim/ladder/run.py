"""``rummysim ladder``: play a ladder (a variant's, or an experiment's two-bot line-ups) with
the runner, fit it (:mod:`sim.ladder.fit`) and write ``ladder.json`` and ``ladder.md``.

The target is an experiment file (a shipped one by name, ``configs/experiments/``, or a
path to a file with ``[[arms]]``; configs/experiments/ladder.toml is every variant's ladder)
or a variant (a name of ``configs/variants/`` or a path), whose ladder
:func:`sim.ladder.plan.ladder_text` writes as ``OUT/ladder-<variant>-<players>p.toml``.
Either is run into ``OUT/<name>/`` like ``rummysim run`` (resumable, deterministic, local or
Dask), then read back.
"""

from __future__ import annotations

import contextlib
import json
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.dataset.files import write_text_atomic
from sim.ladder.fit import Table, ladder_tables, read_games
from sim.ladder.plan import DEFAULT_GAMES, DEFAULT_SEED, ladder_text
from sim.rules import ConfigError
from sim.rules.fields import read_toml
from sim.runner.experiment import (
    Experiment,
    experiment_from_text,
    experiments_dir,
    load_experiment,
)
from sim.runner.run import Reporter, run_experiment


@dataclass(frozen=True)
class Ladder:
    """A finished ladder: its experiment, dataset folder and tables."""

    experiment: Experiment
    dataset: Path
    tables: list[Table]


def is_experiment(target: str) -> bool:
    """Whether ``target`` names an experiment (a shipped one, or a TOML file with arms)
    rather than a variant."""
    if (experiments_dir() / f"{target}.toml").is_file():
        return True
    path = Path(target)
    if not (target.endswith(".toml") or "/" in target) or not path.is_file():
        return False
    raw, _ = read_toml(path)
    return "arms" in raw or "grids" in raw


def ladder_experiment(
    target: str,
    out: Path,
    *,
    players: int | None = None,
    bots: Sequence[str] | None = None,
    games: int | None = None,
    seed: int | None = None,
    shard_size: int | None = None,
) -> Experiment:
    """The experiment a ladder plays: an experiment file's (``games`` scales it), or the
    variant's ladder at ``players`` seats (default 2) with ``shard_size`` games a shard,
    written to ``out``; ConfigError for bad input (nothing is written then)."""
    if is_experiment(target):
        if players is not None or bots is not None or seed is not None or shard_size is not None:
            raise ConfigError(
                "--players, --bots, --seed and --shard-size go with a variant, not an "
                "experiment file (its shard_size is set in the file)",
                key="target",
            )
        experiment = load_experiment(target).scaled(games=games)
        if not any(len(set(arm.bots)) == 2 for arm in experiment.arms):
            raise ConfigError(
                f"experiment {experiment.name!r} has no line-up of two bots to rank",
                key="lineups", allowed='pairs such as ["careful", "greedy"]',
            )  # fmt: skip
        return experiment
    text = ladder_text(target, players or 2, bots, games=games or DEFAULT_GAMES,
                       seed=DEFAULT_SEED if seed is None else seed,
                       shard_size=shard_size)  # fmt: skip
    path = Path(out) / f"{tomllib.loads(text)['name']}.toml"  # the name ladder_text gave it
    experiment = experiment_from_text(text, path)  # checked before anything is written
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text() != text:
        write_text_atomic(text, path, path.parent / ".tmp")
    return experiment


def run_ladder(
    experiment: Experiment,
    out: Path,
    *,
    workers: int,
    scheduler: str | None = None,
    fresh: bool = False,
    reporter: Reporter | None = None,
) -> Ladder:
    """Run (or resume) ``experiment`` into ``out/<name>`` and fit its ladder. RunError for a
    refused folder or a failed run; KeyboardInterrupt after the workers stopped."""
    run_experiment(
        experiment, out, workers=workers, scheduler=scheduler, fresh=fresh, reporter=reporter
    )
    root = Path(out).resolve() / experiment.name
    return Ladder(experiment, root, ladder_tables(read_games(root)))


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}"


def table_json(t: Table) -> dict:
    """One table of ``ladder.json``."""
    return {
        "ruleset": t.ruleset, "variant": t.variant, "players": t.players,
        "ratings": [{"bot": r.bot, "elo": r.elo, "low": r.low, "high": r.high,
                     "wins": r.wins} for r in t.ratings],
        "pairs": [{"a": p.a, "b": p.b, "games": p.games, "decided": p.decided,
                   "a_wins": p.a_wins, "b_wins": p.b_wins, "a_share": p.share,
                   "low": p.low, "high": p.high} for p in t.pairs],
        "weaker_wins_mean": t.upset_mean, "weaker_wins_overall": t.upset_overall,
        "elo_spread": t.spread, "connected": t.connected,
    }  # fmt: skip


def luck_text(t: Table) -> str:
    """The table's luck-against-skill sentence."""
    never = [r.bot for r in t.ratings if r.wins == 0]
    return (
        f"The weaker bot of a pair still wins {_pct(t.upset_mean)}% of its games with the "
        f"stronger (mean over {len(t.pairs)} pairs; {_pct(t.upset_overall)}% of all games "
        f"won); ratings spread over {t.spread:.0f} Elo points."
        + ("" if t.connected else " The pairs played do not link every bot: ratings of "
           "unlinked groups are not comparable.")
        + (f" Never won a game: {', '.join(never)} (a rating from the prior's half win alone: "
           "a bound, not an estimate)." if never else "")
    )  # fmt: skip


def markdown(ladder: Ladder) -> str:
    """``ladder.md``: per table its ratings, pairs and luck against skill."""
    e = ladder.experiment
    lines = [f"# Bot ladder: {e.name}", "", e.description, "",
             f"Seed {e.seed}; {e.per_arm:,} {e.unit} per line-up, each once per seat rotation "
             "(mirrored deals). Method: docs/ladder.md.", "",
             "![ratings and luck against skill per table](ladder.png)", ""]  # fmt: skip
    for t in ladder.tables:
        lines += [f"## {t.ruleset}, {t.players} players", "", luck_text(t), "",
                  "| bot | Elo [95% CI] |", "|---|---|"]  # fmt: skip
        lines += [f"| {r.bot} | {r.elo:.0f} [{r.low:.0f}, {r.high:.0f}] |" for r in t.ratings]
        lines += ["", "| a | b | games | decided | a's share of wins % [95% CI] |",
                  "|---|---|---|---|---|"]  # fmt: skip
        lines += [f"| {p.a} | {p.b} | {p.games:,} | {p.decided:,} | {_pct(p.share)} "
                  f"[{_pct(p.low)}, {_pct(p.high)}] |" for p in t.pairs]  # fmt: skip
        lines.append("")
    return "\n".join(lines)


def write_outputs(ladder: Ladder, folder: Path) -> Path:
    """Write ``ladder.json``, ``ladder.md`` (each atomically) and the figure
    (``sim.ladder.figure``) into ``folder``; return the Markdown's path."""
    from sim.ladder.figure import draw

    e = ladder.experiment
    data = {"experiment": e.name, "file": e.file, "seed": e.seed, "unit": e.unit,
            "per_lineup": e.per_arm, "dataset": str(ladder.dataset),
            "tables": [table_json(t) for t in ladder.tables]}  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".tmp"
    write_text_atomic(json.dumps(data, indent=1) + "\n", folder / "ladder.json", tmp)
    if ladder.tables:
        draw(ladder.tables, folder)
    write_text_atomic(markdown(ladder), folder / "ladder.md", tmp)
    with contextlib.suppress(OSError):
        tmp.rmdir()
    return folder / "ladder.md"
