"""Opening a dataset for the report: its folders, manifest and arms (docs/schema.md).

A dataset written by ``rummysim run`` has a ``manifest.json``; one without (for example
one built by hand) still reports, with the arms read from the Parquet files and the
baseline rule set given by ``baseline`` or taken as the first rule set in name order.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset import summaries
from sim.dataset.files import TABLES, file_digest, shard_path
from sim.dataset.schema import schema_version_problem
from sim.rules import ConfigError, Rules, load_variant, rules_from_toml
from sim.rules.diff import Change, rules_diff


class DatasetError(Exception):
    """The folder is not a dataset the report can read (the message says why)."""


@dataclass(frozen=True)
class Arm:
    """One arm: a rule set at one table with one bot line-up, and the arm it is compared with."""

    name: str
    ruleset: str
    variant: str
    players: int
    bots: tuple[str, ...]
    lineup: str
    baseline: str
    label: str
    rules_toml: str = ""
    changes: dict = field(default_factory=dict)
    teams: bool = False
    """The seats play as two teams, seats 0 and 2 against 1 and 3 (4-player gin, §3.19): the
    report then reads each team as one seat (seat 0 = team A, seat 1 = team B)."""
    seed: int | None = None
    """The seed the arm's deals come from (the hands' ``seed`` column)."""
    own_seed: bool = False
    """Its seed differs from its baseline arm's (:func:`_with_rule_changes`): it shares no
    deals with it and is compared unpaired."""
    rule_changes: tuple[Change, ...] = ()
    """Every resolved setting in which the arm differs from its baseline arm
    (``sim.rules.diff``): what the comparison really changes, ``auto`` values included."""

    @property
    def seats(self) -> int:
        """The sides the report compares: the players, or the two teams."""
        return 2 if self.teams else self.players

    @property
    def is_baseline(self) -> bool:
        return self.baseline == self.name


@dataclass(frozen=True)
class Dataset:
    """A dataset folder with its manifest (possibly empty) and arms."""

    root: Path
    name: str
    manifest: dict
    arms: tuple[Arm, ...]
    gaps: tuple[str, ...] = ()
    """What the manifest planned that the folder lacks (:func:`missing_parts`), one sentence
    each; empty when the dataset is complete (or has no manifest to say)."""

    @property
    def baseline_text(self) -> str:
        """The report's first line about what every arm is compared with: the baseline rule
        set(s), and where that choice came from."""
        bases = sorted({self.arm(a.baseline).ruleset for a in self.arms if a.baseline != a.name})
        names = ", ".join(bases) if bases else "none (no arm has a baseline to compare with)"
        if not self.manifest:
            return (
                "No manifest.json: the files could not be checked against a manifest, and arms "
                f"and baselines were read from the Parquet files. Baseline rule set: {names} "
                "(--baseline, or else the first rule set in name order)."
            )
        return f"Baseline rule set: {names}."

    @property
    def incomplete(self) -> str | None:
        """``The dataset is incomplete: ...`` when something planned is missing, else None."""
        return "The dataset is incomplete: " + "; ".join(self.gaps) + "." if self.gaps else None

    def hands(self) -> pl.LazyFrame:
        """Every hand, lazily, with the ``arm`` column from the folder names."""
        return scan(self.root / "hands")

    def games(self) -> pl.LazyFrame:
        """Every completed game, lazily, with the ``arm`` column."""
        return scan(self.root / "games")

    def arm(self, name: str) -> Arm:
        return next(a for a in self.arms if a.name == name)

    @property
    def seed(self) -> object:
        return self.manifest.get("experiment", {}).get("seed")

    @property
    def version(self) -> object:
        return self.manifest.get("rummysim_version")


def scan(folder: Path) -> pl.LazyFrame:
    """A Hive-partitioned Parquet folder as a lazy frame."""
    return pl.scan_parquet(
        str(folder / "arm=*" / "*.parquet"), hive_partitioning=True, hive_schema={"arm": pl.String}
    )


def _parts(folder: Path) -> list[Path]:
    return sorted(folder.glob("arm=*/*.parquet")) if folder.is_dir() else []


READS = {"hands": summaries.HAND_COLUMNS, "games": summaries.GAME_COLUMNS}
"""Columns the report reads from every file of each table."""


def _check_columns(root: Path, manifest: dict) -> None:
    """Raise :class:`DatasetError` when a table's first file lacks a column the report reads
    (a dataset written by an older rummysim), naming the file and the columns."""
    for table, names in READS.items():
        first = _parts(root / table)[0]
        try:
            schema = pq.read_schema(first)
        except (OSError, ValueError) as err:
            raise DatasetError(f"{first}: cannot read the Parquet schema: {err}") from None
        have = set(schema.names)
        marked = (schema.metadata or {}).get(b"rummysim.schema_version")
        if not manifest and marked is not None:  # with a manifest, verify_parts checked it
            version: object = marked.decode(errors="replace")
            version = int(version) if str(version).isdigit() else version
            problem = schema_version_problem(version)
            if problem is not None:
                raise DatasetError(f"{first}: {problem}; {AGAIN}")
        missing = [n for n in names if n not in have]
        if missing:
            version = manifest.get("schema_version", "unknown")
            raise DatasetError(
                f"{first}: no column {', '.join(repr(n) for n in missing)}: the dataset was "
                f"written with schema version {version} by an older rummysim; run the "
                "experiment again to report on it"
            )


def open_dataset(root: str | Path, baseline: str | None = None) -> Dataset:
    """Check ``root`` is a dataset and read its arms; raise :class:`DatasetError` if not.

    ``baseline`` (a rule set name) overrides the manifest's baselines.
    """
    root = Path(root)
    if not root.is_dir():
        raise DatasetError(f"{root} is not a folder")
    if not _parts(root / "hands"):
        raise DatasetError(f"{root} has no hands/arm=*/*.parquet files: not a rummysim dataset")
    if not _parts(root / "games"):
        raise DatasetError(f"{root} has no games/arm=*/*.parquet files: not a rummysim dataset")
    manifest: dict = {}
    path = root / "manifest.json"
    if path.exists():
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise DatasetError(f"{path}: cannot read the manifest: {err}") from None
        if not isinstance(manifest, dict):
            raise DatasetError(f"{path}: the manifest is not a JSON object")
    if manifest:
        verify_parts(root, manifest, path)
    _check_columns(root, manifest)
    present = sorted(p.name.removeprefix("arm=") for p in (root / "hands").glob("arm=*"))
    try:
        arms = _arms(root, manifest, present, baseline)
    except pl.exceptions.PolarsError as err:
        raise DatasetError(f"{root}: cannot read the Parquet files: {err}") from None
    name = manifest.get("experiment", {}).get("name") or root.name
    return Dataset(root, str(name), manifest, tuple(arms), missing_parts(root, manifest))


def missing_parts(root: Path, manifest: dict) -> tuple[str, ...]:
    """What the manifest planned that the run has not done yet: shards of a stopped run
    (running it again finishes them). The report still reads what is there, and says so on
    its first lines. (A shard recorded as done whose file is gone is an error of
    :func:`verify_parts`, not a gap.)"""
    shards = [e for e in manifest.get("shards", []) if isinstance(e, dict)]
    if not shards:
        return () if manifest.get("complete", True) else ("the run did not finish",)
    done = [e for e in shards if e.get("status") == "done"]
    if len(done) < len(shards):
        return (f"{len(done)} of {len(shards)} planned shards were run",)
    return ()


AGAIN = "run the experiment again (it replays what is missing or damaged) to report on it"


def verify_parts(root: Path, manifest: dict, manifest_path: Path) -> None:
    """Check the folder against its manifest before anything is read; raise
    :class:`DatasetError` naming the first file that fails:

    - the manifest's schema version is one the reader does not accept
      (:func:`sim.dataset.schema.schema_version_problem`);
    - a part file the manifest does not record as a done shard (a stray copy, or a file of
      an arm or shard it never planned);
    - a done shard's file that is missing, or whose row count or SHA-256 differs from the
      manifest's (another file put in its place, or a damaged one).

    Shards the manifest lists as pending (not run yet) are not errors: they are the
    incomplete-run banner (:func:`missing_parts`). The row count comes from the Parquet
    footer; the digest reads every byte once (about 1 GB/s)."""
    problem = schema_version_problem(manifest.get("schema_version"))
    if problem is not None:
        raise DatasetError(f"{manifest_path}: {problem}; {AGAIN}")
    entries = manifest.get("shards")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise DatasetError(f"{manifest_path}: the manifest has no list of shards")
    expected: dict[Path, tuple[str, object, object]] = {}
    for entry in entries:
        if entry.get("status") != "done":
            continue
        try:
            arm, shard = str(entry["arm"]), int(entry["shard"])
        except (KeyError, TypeError, ValueError):
            raise DatasetError(f"{manifest_path}: a shard entry without arm and shard") from None
        for table, rows in (("hands", "hands"), ("games", "games")):
            path = shard_path(root, table, arm, shard)
            expected[path] = (table, entry.get(rows), entry.get(f"{table}_sha256"))
    for table in TABLES:
        for path in _parts(root / table):
            if path not in expected:
                raise DatasetError(
                    f"{path}: a part file the manifest does not record as a done shard (a "
                    f"stray copy?); move it out of the dataset, or {AGAIN}"
                )
    for path, (table, rows, digest) in expected.items():
        if not path.is_file():
            raise DatasetError(
                f"{path}: missing, though the manifest records its shard as done; {AGAIN}"
            )
        try:
            have = pq.ParquetFile(path).metadata.num_rows
        except (OSError, pa.ArrowException) as err:
            raise DatasetError(f"{path}: cannot read the Parquet file: {err}; {AGAIN}") from None
        if have != rows:
            raise DatasetError(
                f"{path}: {have:,} rows, but the manifest records {rows} {table} for its "
                f"shard (a file of another arm or run?); {AGAIN}"
            )
        if not isinstance(digest, str) or file_digest(path) != digest:
            raise DatasetError(
                f"{path}: its SHA-256 differs from the manifest's (a file of another arm or "
                f"run, or a damaged one); {AGAIN}"
            )


def _arms(root: Path, manifest: dict, present: list[str], baseline: str | None) -> list[Arm]:
    listed = {a["name"]: a for a in manifest.get("arms", []) if isinstance(a, dict)}
    rows = _first_rows(root / "hands")
    rulesets = sorted({r["ruleset"] for r in rows.values()})
    base_ruleset = baseline or (rulesets[0] if rulesets else "")
    if baseline is not None and baseline not in rulesets:
        raise DatasetError(f"--baseline {baseline!r} is not a rule set of this dataset")
    by_table = {(r["ruleset"], int(r["players"]), r["lineup"]): a for a, r in rows.items()}
    arms = []
    for name in present:
        row = rows.get(name)
        if row is None:
            continue
        meta = listed.get(name, {})
        players = int(row["players"])
        lineup = str(row["lineup"])
        rules_toml = str(meta.get("rules_toml", ""))
        if baseline is not None or "baseline" not in meta:
            base = by_table.get((base_ruleset, players, lineup), name)
        else:
            base = str(meta["baseline"])
        arms.append(
            Arm(
                name=name,
                ruleset=str(row["ruleset"]),
                variant=str(row["variant"]),
                players=players,
                bots=tuple(meta.get("bots") or row["bots"]),
                lineup=str(meta.get("lineup") or _short_lineup(lineup)),
                baseline=base if base in rows else name,
                label=str(meta.get("label") or row["ruleset"]),
                rules_toml=rules_toml,
                changes=dict(meta.get("changes") or {}),
                seed=int(row["seed"]) if row.get("seed") is not None else None,
            )
        )
    return _with_rule_changes(arms)


def _arm_rules(rules_toml: str, variant: str) -> Rules | None:
    """An arm's resolved rules: those the manifest recorded, or, without a manifest, its
    variant file's (the experiment's overrides are then unknown)."""
    try:
        return rules_from_toml(rules_toml) if rules_toml else load_variant(variant)
    except ConfigError:
        return None


def _with_rule_changes(arms: list[Arm]) -> list[Arm]:
    """``arms`` with each one's :attr:`Arm.rule_changes` against its baseline arm, whether it
    has its own seed (:attr:`Arm.own_seed`) and whether its table plays in partnerships
    (:attr:`Arm.teams`: a variant's family is not a toggle, so overrides cannot change it)."""
    rules = {arm.name: _arm_rules(arm.rules_toml, arm.variant) for arm in arms}
    out = []
    seeds = {arm.name: arm.seed for arm in arms}
    for arm in arms:
        mine, base = rules[arm.name], rules.get(arm.baseline)
        changes = () if mine is None or base is None else rules_diff(base, mine, arm.players)
        own_seed = seeds.get(arm.baseline, arm.seed) != arm.seed
        teams = mine is not None and mine.in_partnerships(arm.players)
        out.append(replace(arm, rule_changes=changes, own_seed=own_seed, teams=teams))
    return out


ARM_COLUMNS = ("ruleset", "variant", "players", "lineup", "bots", "seed")


def _first_rows(folder: Path) -> dict[str, dict]:
    """Per arm folder, the :data:`ARM_COLUMNS` of its first hand (the first row of its first
    non-empty file in name order): one row read per arm, not a scan of every hand."""
    rows: dict[str, dict] = {}
    for arm in sorted(folder.glob("arm=*")):
        for part in sorted(arm.glob("*.parquet")):
            try:  # pyarrow reads one row in about half the time polars takes
                batches = pq.ParquetFile(part).iter_batches(batch_size=1, columns=list(ARM_COLUMNS))
                first = next((b for b in batches if b.num_rows), None)
            except (OSError, pa.ArrowException) as err:
                raise DatasetError(f"{part}: cannot read the Parquet file: {err}") from None
            if first is not None:
                rows[arm.name.removeprefix("arm=")] = first.slice(0, 1).to_pylist()[0]
                break
    return rows


def _short_lineup(lineup: str) -> str:
    """``greedy,greedy`` -> ``greedy`` (the arm names' form); a mixed line-up stays whole."""
    bots = lineup.split(",")
    return bots[0] if len(set(bots)) == 1 else lineup
