"""The ``rummysim`` command line (typer). Commands stay thin: parse, hand off, print.

A command that reads rules wraps its work in :func:`config_errors` so a bad variant file,
override or player count prints one clear line on stderr and exits with code 2.

Start-up matters (``rummysim bench --hands 1``, issue #2): at module level this file imports
only typer and the rules' error type. Each command imports what it needs when it runs, so
``--help`` does not load numpy, ``bench`` does not load rich (typer loads it only to format
help and errors), and only ``run`` and ``report`` load the dataset and report stacks
(tests/test_console_script.py checks the import lists).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from sim.rules.errors import ConfigError

if TYPE_CHECKING:
    from rich.console import Console

    from sim.rules import Rules

EXIT_CONFIG_ERROR = 2

app = typer.Typer(
    help="Bot-vs-bot simulator and balance reports for rummy-family house rules.",
    no_args_is_help=True,
    add_completion=False,
)


def console() -> Console:
    """A console made when a command runs, so it sees the terminal (and COLUMNS) of that run."""
    from rich.console import Console

    return Console()


@app.callback()
def _root() -> None:
    """Bot-vs-bot simulator and balance reports for rummy-family house rules."""


@contextmanager
def config_errors() -> Iterator[None]:
    """Turn a ConfigError raised inside the block into its message on stderr and exit code 2."""
    try:
        yield
    except ConfigError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(code=EXIT_CONFIG_ERROR) from None


def players_text(rules: Rules) -> str:
    """``2-6`` (or ``2`` when only one count is allowed)."""
    low, high = rules.players
    return str(low) if low == high else f"{low}-{high}"


# ---- rummysim variants ------------------------------------------------------------------
@app.command()
def variants() -> None:
    """List the variant files: name, players, description."""
    from rich.table import Table

    from sim.rules import list_variants, load_variant

    table = Table("name", "players", "description")
    with config_errors():
        for name, description in list_variants():
            table.add_row(name, players_text(load_variant(name)), description)
    console().print(table)


@app.command()
def experiments() -> None:
    """List the shipped experiment files: name, arms, amount, description."""
    from rich.table import Table

    from sim.runner.experiment import list_experiments, load_experiment

    table = Table("name", "arms", "per arm", "description")
    with config_errors():
        for name, description in list_experiments():
            exp = load_experiment(name)
            table.add_row(name, str(len(exp.arms)), f"{exp.per_arm:,} {exp.unit}", description)
    console().print(table)
    console().print("Run one with: rummysim run NAME [--hands N] --out data")


# ---- rummysim validate ------------------------------------------------------------------
@app.command()
def validate(
    file: str = typer.Argument(..., help="a variant or experiment file, or a shipped one's name"),
) -> None:
    """Check a variant or experiment file and print what it resolves to; exit 2 if invalid."""
    from sim.engine.api import compile_rules
    from sim.rules import load_variant

    if _is_experiment(file):
        _validate_experiment(file)
        return
    with config_errors():
        rules = load_variant(file)
        for players in rules.player_counts:
            compile_rules(rules, players)
    _print_summary(rules)


def _is_experiment(file: str) -> bool:
    """An experiment file: under configs/experiments, or a TOML with arms or grids."""
    import tomllib
    from pathlib import Path

    from sim.runner.experiment import experiments_dir

    path = Path(file)
    try:
        if not path.is_file():
            return (experiments_dir() / f"{file}.toml").is_file()
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # too long a name, not UTF-8 or not TOML: the loader says
        return path.resolve().parent == experiments_dir()
    return any(key in raw for key in ("arms", "grids", "seed", "baseline", "lineups"))


def _validate_experiment(file: str) -> None:
    from rich.table import Table

    from sim.runner.experiment import load_experiment

    with config_errors():
        exp = load_experiment(file)
    out = console()
    out.print(f"[bold]{exp.name}[/bold]: {exp.description}", highlight=False)
    out.print(
        f"seed {exp.seed}; {exp.per_arm:,} {exp.unit} per arm in shards of {exp.shard_size:,}"
        f"{'; mirrored deals' if exp.mirror else ''}",
        highlight=False,
    )
    table = Table("arm", "variant", "changes", "compared with", title=f"{len(exp.arms)} arms")
    for arm in exp.arms:
        changes = ", ".join(f"{k} = {v}" for k, v in arm.ruleset.changes.items())
        base = "(baseline)" if arm.baseline == arm.name else arm.baseline
        table.add_row(arm.name, arm.ruleset.variant, changes, base)
    out.print(table)
    out.print("valid")


def _print_summary(rules: Rules) -> None:
    from rich.table import Table

    from sim.rules.toggles import TOGGLES

    out = console()
    out.print(f"[bold]{rules.name}[/bold] (RULES.md §{rules.section}): ", end="")
    out.print(rules.description, markup=False, highlight=False)
    deal = ", ".join(
        f"{p}p: {rules.hand_size(p)} cards x {rules.decks_for(p)} pack(s)"
        for p in rules.player_counts
    )
    out.print(f"players {players_text(rules)}; deal {deal}; ace worth {rules.ace_value}")
    changed = rules.changed()
    table = Table("setting", "value", "§", "", title="resolved rules")
    for toggle in TOGGLES:
        value = rules[toggle.name]
        mark = "changed" if toggle.name in changed else ""
        table.add_row(toggle.name, _value_text(value), toggle.section, mark)
    out.print(table)
    out.print("valid")


def _value_text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


# ---- further commands (bench, replay, simulate) go below --------------------------------


def _bots_or_exit(bots: str, players: int, family: str) -> list[int]:
    from sim.bench import parse_bots
    from sim.engine.rows import BOT_SIMPLE
    from sim.rules.model import KNOCK_FAMILIES, bots_for

    try:
        codes = parse_bots(bots, players)
    except ValueError as err:
        typer.echo(f"error: --bots: {err}", err=True)
        raise typer.Exit(code=EXIT_CONFIG_ERROR) from None
    if BOT_SIMPLE in codes and family not in KNOCK_FAMILIES:
        typer.echo(
            "error: --bots: 'simple' (the reference gin bot) plays only the knock families "
            f"(knock_rummy, gin); allowed here: {', '.join(bots_for(family))}",
            err=True,
        )
        raise typer.Exit(code=EXIT_CONFIG_ERROR)
    return codes


# ---- rummysim bench ---------------------------------------------------------------------
@app.command()
def bench(
    variant: str = typer.Option("rummy_basic", help="variant name or file"),
    players: int = typer.Option(2, help="players at the table"),
    bots: str = typer.Option("greedy", help="one bot for every seat, or one per seat: a,b"),
    hands: int = typer.Option(1_000_000, min=1, help="hands to play"),
    workers: int = typer.Option(1, min=1, help="processes (forked after compiling)"),
    seed: int = typer.Option(0, help="experiment seed"),
) -> None:
    """Play hands without writing results; print one JSON line of figures."""
    import json

    from sim.bench import bench as run_bench
    from sim.engine.api import compile_rules
    from sim.rules import load_variant

    with config_errors():
        rules = load_variant(variant)
        compile_rules(rules, players)
        _bots_or_exit(bots, players, rules.family)
        figures = run_bench(variant, players, bots, hands, workers, seed)
    typer.echo(json.dumps(figures))


# ---- rummysim simulate ------------------------------------------------------------------
@app.command()
def simulate(
    variant: str = typer.Argument("rummy_basic", help="variant name or file"),
    players: int = typer.Option(2, help="players at the table"),
    bots: str = typer.Option("greedy", help="one bot for every seat, or one per seat: a,b"),
    hands: int = typer.Option(100_000, min=1, help="hands to play"),
    seed: int = typer.Option(0, help="experiment seed"),
    audit: bool = typer.Option(False, help="check every invariant after every action"),
) -> None:
    """Play hands of one variant in this process and print a short summary."""
    import json
    import time

    import numpy as np

    from sim.engine.api import compile_rules, play
    from sim.rules import load_variant
    from sim.summary import summarize

    with config_errors():
        rules = load_variant(variant)
        params, values = compile_rules(rules, players, audit=audit)
    codes = _bots_or_exit(bots, players, rules.family)
    start = time.perf_counter()
    out = play(params, values, np.array(codes), seed=seed, hands=hands)
    seconds = time.perf_counter() - start
    summary = summarize(out, players)
    summary["seconds"] = round(seconds, 3)
    console().print(f"[bold]{variant}[/bold], {players} players, bots {bots}, seed {seed}")
    console().print_json(json.dumps(summary))


# ---- rummysim replay --------------------------------------------------------------------
@app.command()
def replay(
    variant: str = typer.Argument(..., help="variant name or file"),
    seed: int = typer.Option(0, help="experiment seed"),
    players: int = typer.Option(2, help="players at the table"),
    bots: str = typer.Option("greedy", help="one bot for every seat, or one per seat: a,b"),
    hand: int = typer.Option(0, help="deal number within the seed"),
    deal: str = typer.Option(None, help="a deal file (TOML) fixing every card: see docs/engine.md"),
) -> None:
    """Print one hand as a readable transcript, produced by the engine's own kernels."""
    from sim.engine.api import compile_rules
    from sim.replay import load_deal, transcript
    from sim.rules import load_variant

    with config_errors():
        rules = load_variant(variant)
        compile_rules(rules, players)
        codes = _bots_or_exit(bots, players, rules.family)
        fixed = load_deal(deal, players, (variant, rules.name)) if deal else None
        text = transcript(rules, players, codes, seed=seed, deal=fixed, hand=hand)
    typer.echo(text)


# ---- rummysim deadwood ------------------------------------------------------------------
@app.command()
def deadwood(
    cards: list[str] = typer.Argument(None, help="one hand, e.g. As 2s 3s 7h 7d 7c Kd 9c"),  # noqa: B008
    variant: str = typer.Option("rummy_basic", help="variant name or file (its meld rules)"),
    file: str = typer.Option(None, "--file", help="one hand per line; prints one line each"),
    opening: bool = typer.Option(
        False,
        "--opening",
        help="only arrangements that make the variant's initial meld (initial_meld_min, §2D.24)",
    ),
) -> None:
    """Minimum deadwood of a hand and one best arrangement (or of every hand of a file)."""
    import sys

    from sim.deadwood import analyse, line, parse_hand, read_hands
    from sim.rules import load_variant

    if bool(cards) == bool(file):
        typer.echo("error: give the cards of one hand, or --file with one hand per line", err=True)
        raise typer.Exit(code=EXIT_CONFIG_ERROR)
    with config_errors():
        rules = load_variant(variant)
        if cards:
            (result,) = analyse(rules, [parse_hand(cards, "cards")], opening=opening)
            melds = line(result).split(": ", 1)[1] if result.melds() else "(none)"
            from sim.cards import cards_text

            typer.echo(f"deadwood {result.deadwood}")
            typer.echo(f"melds: {melds}")
            typer.echo(f"left in hand: {cards_text(result.left()) or '(nothing)'}")
            return
        try:
            handle = sys.stdin if file == "-" else open(file, encoding="utf-8")  # noqa: SIM115
        except OSError as err:
            raise ConfigError(f"cannot read the file: {err.strerror}", file=file) from None
        with handle:
            out = sys.stdout
            for result in analyse(rules, read_hands(handle, file), opening=opening):
                out.write(line(result) + "\n")


# ---- rummysim run -----------------------------------------------------------------------
EXIT_RUN_FAILED = 1
EXIT_INTERRUPTED = 130


@app.command()
def run(
    experiment: str = typer.Argument(..., help="experiment file, or the name of a shipped one"),
    hands: int = typer.Option(None, help="hands per arm (overrides the file)"),
    games: int = typer.Option(None, help="games per arm (overrides the file)"),
    workers: int = typer.Option(0, min=0, help="worker processes (0: one per core)"),
    out: str = typer.Option("data", help="datasets folder; the run writes OUT/<experiment>"),
    scheduler: str = typer.Option(None, help="Dask scheduler address: run on that cluster"),
    fresh: bool = typer.Option(False, help="replace an existing dataset instead of resuming"),
) -> None:
    """Simulate an experiment into a Parquet dataset (resumes an interrupted run)."""
    from pathlib import Path

    from sim.bench import cpu_count
    from sim.runner.experiment import load_experiment
    from sim.runner.progress import RichReporter
    from sim.runner.run import RunError, run_experiment

    with config_errors():
        exp = load_experiment(experiment).scaled(hands=hands, games=games)
    out_console = console()
    n_workers = workers if workers > 0 else cpu_count()
    unit = exp.unit
    out_console.print(
        f"[bold]{exp.name}[/bold]: {len(exp.arms)} arms x {exp.per_arm:,} {unit}"
        f"{' (mirrored deals)' if exp.mirror else ''}, seed {exp.seed}, "
        + (f"Dask scheduler {scheduler}" if scheduler else f"{n_workers} workers"),
        highlight=False,
    )
    try:
        summary = run_experiment(
            exp,
            Path(out),
            workers=n_workers,
            scheduler=scheduler,
            fresh=fresh,
            reporter=RichReporter(out_console),
        )
    except RunError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(code=EXIT_RUN_FAILED) from None
    except KeyboardInterrupt:
        typer.echo(
            "interrupted: completed shards are kept; run the same command again to finish",
            err=True,
        )
        raise typer.Exit(code=EXIT_INTERRUPTED) from None
    rate = summary.hands / summary.seconds if summary.seconds > 0 else 0.0
    rows = "hand rows (every deal once per seat rotation)" if exp.mirror else "hands"
    out_console.print(
        f"wrote {summary.ran} shards ({summary.hands:,} {rows}, {summary.games:,} games) in "
        f"{summary.seconds:.1f} s ({rate:,.0f} hands/s); {summary.skipped} shards were "
        f"already done",
        highlight=False,
    )
    out_console.print(f"dataset: {summary.root}", highlight=False)


# ---- rummysim report --------------------------------------------------------------------
@app.command()
def report(
    dataset: str = typer.Argument(..., help="a dataset folder: DIR/<experiment>"),
    out: str = typer.Option(None, help="output folder (default reports/<experiment>)"),
    baseline: str = typer.Option(None, help="rule set to compare with (default: manifest's)"),
    resamples: int = typer.Option(2000, min=100, help="bootstrap resamples"),
    seed: int = typer.Option(0, help="bootstrap seed"),
) -> None:
    """Write the balance report of a dataset: index.html, report.md, summary.parquet/csv
    (its benchmark, seconds to report against seconds to simulate: benchmarks/report.py)."""
    from sim.report.build import write_report
    from sim.report.dataset import DatasetError

    try:
        written = write_report(dataset, out, baseline=baseline, resamples=resamples, seed=seed)
    except DatasetError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(code=EXIT_CONFIG_ERROR) from None
    typer.echo(f"report: {written.index} ({written.seconds['total']:.1f} s)")
    if written.report.dataset.incomplete:
        typer.echo(f"warning: {written.report.dataset.incomplete}", err=True)


# ---- rummysim tune ----------------------------------------------------------------------
@app.command()
def tune(
    spec: str = typer.Argument(..., help="tuning file, or the name of a shipped one"),
    workers: int = typer.Option(0, min=0, help="worker processes (0: one per core)"),
    out: str = typer.Option("data/tune", help="folder; the search writes OUT/<name>"),
    page: str = typer.Option(None, help="page folder (default reports/tune/<name>)"),
    scheduler: str = typer.Option(None, help="Dask scheduler address: run on that cluster"),
    fresh: bool = typer.Option(False, help="start again instead of resuming"),
) -> None:
    """Find the knob value that puts an objective on its target (configs/tune/*.toml):
    a coarse scan, a narrowing search on common deals, a re-confirmation on fresh ones."""
    from pathlib import Path

    from sim.bench import cpu_count
    from sim.runner.progress import RichReporter
    from sim.runner.run import RunError
    from sim.tuning.page import write_page
    from sim.tuning.run import TuneError, run_tuning, sentence
    from sim.tuning.spec import load_spec

    with config_errors():
        tuning_spec = load_spec(spec)
    out_console = console()
    n_workers = workers if workers > 0 else cpu_count()
    o = tuning_spec.objective
    out_console.print(
        f"[bold]{tuning_spec.name}[/bold]: {tuning_spec.setting} from {tuning_spec.knob.low} to "
        f"{tuning_spec.knob.high} (step {tuning_spec.knob.step}) so that {o.text} = {o.target:g}; "
        f"{tuning_spec.per_value:,} {tuning_spec.unit} per value and round, "
        + (f"Dask scheduler {scheduler}" if scheduler else f"{n_workers} workers"),
        highlight=False,
    )

    def on_round(index: int, r) -> None:
        cells = ", ".join(f"{p.value}: {p.estimate:.3g} [{p.low:.3g}, {p.high:.3g}]"
                          for p in r.points)  # fmt: skip
        out_console.print(f"round {index} ({r.kind}): {cells}", highlight=False)

    try:
        result = run_tuning(
            tuning_spec, Path(out), workers=n_workers, scheduler=scheduler, fresh=fresh,
            reporter_for=lambda _: RichReporter(out_console), on_round=on_round,
        )  # fmt: skip
    except (RunError, TuneError) as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(code=EXIT_RUN_FAILED) from None
    except KeyboardInterrupt:
        typer.echo("interrupted: finished rounds and shards are kept; run the same command "
                   "again to resume", err=True)  # fmt: skip
        raise typer.Exit(code=EXIT_INTERRUPTED) from None
    folder = Path(page) if page else Path("reports") / "tune" / tuning_spec.name
    index = write_page(result, folder)
    out_console.print(sentence(tuning_spec, result.answer), highlight=False)
    out_console.print(f"search: {result.root}\npage: {index}", highlight=False)


# ---- rummysim ladder --------------------------------------------------------------------
@app.command()
def ladder(
    target: str = typer.Argument(
        ..., help="a variant, or an experiment file with two-bot line-ups"
    ),
    players: int = typer.Option(None, help="seats at the table (a variant's ladder; default 2)"),
    bots: str = typer.Option(
        None, help="bots to rank, a,b,c (default: every bot that fits but the mcN ones)"
    ),
    games: int = typer.Option(None, help="games per pair (default 2,000; scales an experiment)"),
    seed: int = typer.Option(None, help="the deals' seed (a variant's ladder)"),
    shard_size: int = typer.Option(
        None,
        help="games per shard, each played in every seating (a variant's ladder; "
        "default 2,000): smaller shards spread a slow pair over more workers, and the deals "
        "follow the shards, so replay a ladder with the same value",
    ),
    workers: int = typer.Option(0, min=0, help="worker processes (0: one per core)"),
    out: str = typer.Option(
        "data/ladder", help="datasets folder; the ladder plays into OUT/<name>"
    ),
    page: str = typer.Option(None, help="ladder.md/json folder (default reports/ladder/<name>)"),
    scheduler: str = typer.Option(None, help="Dask scheduler address: run on that cluster"),
    fresh: bool = typer.Option(False, help="replace an existing dataset instead of resuming"),
) -> None:
    """Rank bots: every pair on mirrored common deals, win rates with intervals,
    Bradley-Terry (Elo) ratings and how often the weaker bot still wins (docs/ladder.md)."""
    from pathlib import Path

    from rich.table import Table as RichTable

    from sim.bench import cpu_count
    from sim.ladder.run import ladder_experiment, luck_text, run_ladder, write_outputs
    from sim.runner.progress import RichReporter
    from sim.runner.run import RunError

    chosen = None if bots is None else [b.strip() for b in bots.split(",")]
    with config_errors():
        exp = ladder_experiment(target, Path(out), players=players, bots=chosen, games=games,
                                seed=seed, shard_size=shard_size)  # fmt: skip
    out_console = console()
    n_workers = workers if workers > 0 else cpu_count()
    out_console.print(
        f"[bold]{exp.name}[/bold]: {len(exp.arms)} line-ups x {exp.per_arm:,} {exp.unit}, "
        + ("on mirrored deals, " if exp.mirror else "")
        + (f"Dask scheduler {scheduler}" if scheduler else f"{n_workers} workers"),
        highlight=False,
    )
    try:
        result = run_ladder(exp, Path(out), workers=n_workers, scheduler=scheduler, fresh=fresh,
                            reporter=RichReporter(out_console))  # fmt: skip
    except RunError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(code=EXIT_RUN_FAILED) from None
    except KeyboardInterrupt:
        typer.echo("interrupted: completed shards are kept; run the same command again to "
                   "finish", err=True)  # fmt: skip
        raise typer.Exit(code=EXIT_INTERRUPTED) from None
    for t in result.tables:
        shown = RichTable(title=f"{t.ruleset}, {t.players} players", title_justify="left")
        for column in ("bot", "Elo [95% CI]", *(f"vs {b} %" for b in t.bots)):
            shown.add_column(column, justify="left" if column == "bot" else "right")
        share = {(p.a, p.b): (p.share, p.low, p.high) for p in t.pairs}
        share |= {(p.b, p.a): (1 - p.share, 1 - p.high, 1 - p.low) for p in t.pairs}
        for r in t.ratings:
            cells = [f"{100 * share[r.bot, b][0]:.1f} [{100 * share[r.bot, b][1]:.1f}, "
                     f"{100 * share[r.bot, b][2]:.1f}]" if (r.bot, b) in share else "–"
                     for b in t.bots]  # fmt: skip
            shown.add_row(r.bot, f"{r.elo:.0f} [{r.low:.0f}, {r.high:.0f}]", *cells)
        out_console.print(shown)
        out_console.print(luck_text(t), highlight=False)
    folder = Path(page) if page else Path("reports") / "ladder" / exp.name
    out_console.print(f"dataset: {result.dataset}\nladder: {write_outputs(result, folder)}",
                      highlight=False)  # fmt: skip


@app.command("ladder-diff")
def ladder_diff(
    before: str = typer.Argument(..., help="a ladder's dataset folder (OUT/<name>)"),
    after: str = typer.Argument(..., help="the same ladder played again, on the same deals"),
) -> None:
    """Compare two ladders played on the same deals, game by game: each pair's win rate
    before and after and the change with its 95% interval (docs/ladder.md)."""
    from pathlib import Path

    from rich.table import Table as RichTable

    from sim.ladder.compare import compare

    with config_errors():
        changes = compare(Path(before), Path(after))
    shown = RichTable(title=f"{before} -> {after}", title_justify="left")
    labels = ("table", "pair (a vs b)")
    for column in (*labels, "games", "a before %", "a after %", "change [95% CI]",
                   "games changed"):  # fmt: skip
        shown.add_column(column, justify="left" if column in labels else "right")
    for c in changes:
        shown.add_row(
            f"{c.ruleset}, {c.players}p",
            f"{c.a} vs {c.b}",
            f"{c.games:,}",
            f"{100 * c.before:.1f}",
            f"{100 * c.after:.1f}",
            f"{100 * c.change:+.1f} [{100 * c.low:+.1f}, {100 * c.high:+.1f}]",
            f"{c.changed:,}",
        )
    out_console = console()
    out_console.print(shown)
    out_console.print(
        "a's credited wins per game (a game nobody won counts 0); the change is the mean of "
        "after less before over the same games, its interval clustered by deal.",
        highlight=False,
    )


def main() -> None:
    """The console script: run the command, then end the process at once. The interpreter's
    teardown of numba and LLVM takes ~0.4 s; every command has flushed its output and closed
    its files and pools by the time it returns, so there is nothing left to clean up."""
    import os
    import sys

    code: int | str | None = 0
    try:
        app()
    except SystemExit as done:
        code = done.code
    except KeyboardInterrupt:  # Ctrl-C before a command set up its own handling
        print("interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    sys.stdout.flush()
    sys.stderr.flush()
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    os._exit(code or 0)


if __name__ == "__main__":
    main()
