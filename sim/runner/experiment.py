"""Experiment files (configs/experiments/*.toml): what to simulate, validated before anything runs.

An experiment names a seed, how many hands (or games) each arm plays, the player counts, the
bot line-ups, the rule sets to compare and the baseline rule set. An *arm* is one rule set at
one player count with one line-up; its name is ``<ruleset>-<players>p-<lineup>``. See
docs/experiments.md for the format; every problem raises :class:`ConfigError` naming the file
and the key.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.dataset.bands import DEFAULT_BANDS, known_metric
from sim.dataset.timing import check_time_table
from sim.engine.api import compile_rules
from sim.engine.rows import BOT_NAMES
from sim.rules import ConfigError, Rules, load_variant
from sim.rules import fields as F
from sim.rules.errors import show, unknown_key
from sim.rules.fields import config_path
from sim.rules.loader import MAX_NAME, check_length
from sim.rules.model import KNOCK_FAMILIES, bots_for
from sim.rules.toggles import BY_NAME

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.@+]*$")
NAME_ALLOWED = "lower-case letters, digits and _ . @ +, starting with a letter or digit"
EXPERIMENT_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.@+-]*$")
EXPERIMENT_ALLOWED = "lower-case letters, digits and _ . @ + -, starting with a letter or digit"
DEFAULT_SHARD_HANDS = 50_000
DEFAULT_SHARD_GAMES = 2_000
MAX_ARMS = 10_000
MAX_ARM_NAME = 200  # arm=<name> is a folder; its temporary files add ~31 characters (< 255)
MAX_SHARDS = 100_000  # shards of the whole run (each is a task, a manifest entry, two files)
MAX_SHARD_SIZE = {"hands": 1_000_000, "games": 100_000}  # a worker holds one shard's tables

TOP_KEYS = (
    "name",
    "description",
    "seed",
    "hands",
    "games",
    "players",
    "lineups",
    "baseline",
    "mirror",
    "shard_size",
    "audit",
    "arms",
    "grids",
    "bands",
    "time",
)
ARM_KEYS = ("name", "variant", "label", "rules", "players", "seed", "baseline", "lineups")
GRID_KEYS = ("name", "variant", "label", "toggles", "players", "baseline")


def experiments_dir() -> Path:
    """The directory of the shipped experiment files (``configs/experiments/``)."""
    return Path(__file__).resolve().parents[2] / "configs" / "experiments"


@dataclass(frozen=True)
class RuleSet:
    """One rule set of the experiment: a variant plus toggle changes."""

    name: str
    variant: str
    label: str
    changes: Mapping[str, Any]
    rules: Rules
    players: tuple[int, ...]
    seed: int | None = None
    """The rule set's own seed (``seed = N`` in its ``[[arms]]``): its arms deal from it,
    not from the experiment's, and are compared with the baseline unpaired (replications,
    A/A checks). None: the experiment's seed."""
    baseline: str | None = None
    """The rule set it is compared with (``baseline = "..."`` in its ``[[arms]]`` or
    ``[[grids]]``): one experiment may hold several games, each with its own baseline.
    None: the experiment's baseline."""
    lineups: tuple[tuple[str, ...], ...] | None = None
    """Its own line-ups (``lineups = [...]`` in its ``[[arms]]``; ``rummysim ladder``'s
    pairs of bots that fit its family). None: the experiment's."""


@dataclass(frozen=True)
class Arm:
    """One rule set at one player count with one bot line-up."""

    name: str
    ruleset: RuleSet
    players: int
    bots: tuple[str, ...]
    baseline: str  # the name of the arm this one is compared with (itself for the baseline)
    seed: int = 0  # the seed its deals come from: its rule set's own, or the experiment's

    @property
    def lineup(self) -> str:
        """``greedy`` when every seat has the same bot, else ``greedy+careful+...``."""
        return self.bots[0] if len(set(self.bots)) == 1 else "+".join(self.bots)

    @property
    def rules(self) -> Rules:
        return self.ruleset.rules


@dataclass(frozen=True)
class Experiment:
    """A validated experiment file."""

    name: str
    description: str
    file: str
    text: str
    seed: int
    unit: str  # "hands" or "games"
    per_arm: int  # hands or games each arm plays
    shard_size: int  # hands or games per shard
    mirror: bool
    audit: bool
    baseline: str
    rulesets: tuple[RuleSet, ...]
    arms: tuple[Arm, ...] = field(default_factory=tuple)
    bands: Mapping[str, float] = field(default_factory=dict)
    """Practical-equivalence bands the file sets (``[bands]``, ``sim.dataset.bands``)."""
    time: Mapping[str, float] = field(default_factory=dict)
    """Seconds per action the file sets (``[time]``, ``sim.dataset.timing``)."""

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def scaled(self, *, hands: int | None = None, games: int | None = None) -> Experiment:
        """The same experiment with a different number of hands or games per arm."""
        if hands is None and games is None:
            return self
        if hands is not None and games is not None:
            raise ConfigError("give --hands or --games, not both", key="hands")
        unit, count = ("hands", hands) if hands is not None else ("games", games)
        if count < 1:
            raise ConfigError(f"{show(count)} is not allowed", key=unit, allowed=">= 1")
        size = self.shard_size if unit == self.unit else _default_shard(unit)
        scaled = _replace(self, unit=unit, per_arm=count, shard_size=size)
        _check_size(scaled, key=unit)
        return scaled


def load_experiment(name_or_path: str | Path) -> Experiment:
    """The experiment at a path, or a shipped one by name; ConfigError on any problem."""
    path = _experiment_path(name_or_path)
    raw, text = F.read_toml(path)
    return _built(raw, path, text)


def experiment_from_text(text: str, path: Path) -> Experiment:
    """The experiment ``text`` would be as the file ``path``, neither read nor written (a
    plan checked before it is saved); ConfigError naming ``path`` as ``load_experiment``."""
    return _built(tomllib.loads(text), path, text)


def _built(raw: dict[str, Any], path: Path, text: str) -> Experiment:
    """``_build``, its errors naming the file ``path``."""
    try:
        return _build(raw, path, text)
    except ConfigError as err:
        raise err.in_file(path) from None


def list_experiments() -> list[tuple[str, str]]:
    """``(name, description)`` of every shipped experiment file."""
    return [
        (p.stem, load_experiment(p).description) for p in sorted(experiments_dir().glob("*.toml"))
    ]


# ---- building -------------------------------------------------------------------------------
def _experiment_path(name_or_path: str | Path) -> Path:
    return config_path(name_or_path, experiments_dir(), "experiment")


def _build(raw: dict[str, Any], path: Path, text: str) -> Experiment:
    F.check_keys(raw, TOP_KEYS, "")
    name = raw.get("name", path.stem)
    check_length(name, "name")
    if not isinstance(name, str) or not EXPERIMENT_PATTERN.match(name):
        raise ConfigError(
            f"{show(name)} is not a usable name", key="name", allowed=EXPERIMENT_ALLOWED
        )
    description = F.string(raw.get("description", ""), "description")
    seed = F.integer(F.require(raw, "seed"), "seed", low=0, high=2**63 - 1)
    unit, per_arm = _unit(raw)
    shard_size = F.integer(raw.get("shard_size", _default_shard(unit)), "shard_size", low=1)
    mirror = F.boolean(raw.get("mirror", False), "mirror")
    audit = F.boolean(raw.get("audit", False), "audit")
    players = _players(F.require(raw, "players"), "players")
    lineups = _lineups(raw.get("lineups", ["greedy"]))
    rulesets = _rulesets(raw, players, path)
    if mirror:
        for ruleset in rulesets:
            if ruleset.rules.dealer_rotation != "left":
                raise ConfigError(
                    f"mirrored deals need the deal to pass left, but arm {show(ruleset.name)} "
                    f"has dealer_rotation = {show(ruleset.rules.dealer_rotation)}",
                    key="mirror",
                    allowed="false, or arms whose dealer_rotation is 'left'",
                )
    baseline = F.string(F.require(raw, "baseline"), "baseline")
    names = [r.name for r in rulesets]
    if baseline not in names:
        raise ConfigError(
            f"baseline {show(baseline)} is not one of the arms",
            key="baseline",
            allowed=", ".join(names),
        )
    _check_own_baselines(rulesets, baseline)
    experiment = Experiment(
        name, description, str(path), text, seed, unit, per_arm, shard_size, mirror, audit,
        baseline, tuple(rulesets),
    )  # fmt: skip
    bands = _bands(raw.get("bands", {}))
    time = check_time_table(raw.get("time", {}))
    experiment = _replace(experiment, arms=_expand(experiment, lineups), bands=bands, time=time)
    _check_size(experiment, key="shard_size")
    return experiment


def _check_own_baselines(rulesets: list[RuleSet], baseline: str) -> None:
    """A rule set's own ``baseline`` names itself (a baseline of its own game) or a rule set
    that is compared with nothing else (the experiment's baseline, or one naming itself),
    so that every comparison is with a baseline."""
    roots = [r.name for r in rulesets if r.name in (baseline, r.baseline)]
    for ruleset in rulesets:
        own = ruleset.baseline
        if own is not None and own not in (ruleset.name, *roots):
            raise ConfigError(
                f"rule set {show(ruleset.name)} is compared with {show(own)}, which is not a "
                "rule set compared with nothing else",
                key="baseline",
                allowed=", ".join(roots),
            )


def _check_size(experiment: Experiment, key: str) -> None:
    """Refuse plans too big to hold: too many shards, or shards too big for a worker."""
    limit = MAX_SHARD_SIZE[experiment.unit]
    if experiment.shard_size > limit:
        raise ConfigError(
            f"{experiment.shard_size:,} {experiment.unit} per shard is too many for a worker "
            "to hold", key="shard_size", allowed=f"at most {limit:,}",
        )  # fmt: skip
    shards = math.ceil(experiment.per_arm / experiment.shard_size) * len(experiment.arms)
    if shards > MAX_SHARDS:
        raise ConfigError(
            f"{experiment.per_arm:,} {experiment.unit} per arm in shards of "
            f"{experiment.shard_size:,} over {len(experiment.arms)} arms makes {shards:,} shards",
            key=key, allowed=f"at most {MAX_SHARDS:,} shards (fewer {experiment.unit} or a "
            "bigger shard_size)",
        )  # fmt: skip


def _expand(experiment: Experiment, lineups: list[list[str]]) -> tuple[Arm, ...]:
    arms = []
    by_name = {r.name: r for r in experiment.rulesets}
    for ruleset in experiment.rulesets:
        base = by_name[ruleset.baseline or experiment.baseline]
        if ruleset.name == experiment.baseline or ruleset.baseline == ruleset.name:
            base = ruleset
        own = ruleset.lineups is not None  # its own line-ups (keys name its [[arms]] entry)
        where = f"arms[{experiment.rulesets.index(ruleset)}].lineups" if own else "lineups"
        for players in ruleset.players:
            for key, lineup in enumerate(ruleset.lineups or lineups):
                bots = seat_bots(list(lineup), players, f"{where}[{key}]")
                check_bots_fit(bots, ruleset.rules, ruleset.name, f"{where}[{key}]")
                arm = Arm("", ruleset, players, bots, "")
                name = f"{ruleset.name}-{players}p-{arm.lineup}"
                if len(name) > MAX_ARM_NAME:  # arm=<name> is a folder of the dataset
                    raise ConfigError(
                        f"arm name {show(name)} is too long for a folder name", key="arms",
                        allowed=f"arm names of at most {MAX_ARM_NAME} characters",
                    )  # fmt: skip
                base_name = f"{base.name}-{players}p-{arm.lineup}"
                if players not in base.players or tuple(lineup) not in _lineups_of(base, lineups):
                    base_name = name  # nothing to compare with at this table and line-up
                seed = experiment.seed if ruleset.seed is None else ruleset.seed
                arms.append(Arm(name, ruleset, players, bots, base_name, seed))
    if len(arms) > MAX_ARMS:
        raise ConfigError(f"{len(arms)} arms is too many", key="arms", allowed=f"<= {MAX_ARMS}")
    seen: dict[str, Arm] = {}
    for arm in arms:
        if arm.name in seen:
            raise ConfigError(f"two arms are both named {show(arm.name)}", key="lineups")
        seen[arm.name] = arm
    return tuple(arms)


def _lineups_of(ruleset: RuleSet, lineups: list[list[str]]) -> set[tuple[str, ...]]:
    """The line-ups a rule set is played with: its own, or the experiment's."""
    return set(ruleset.lineups) if ruleset.lineups is not None else {tuple(x) for x in lineups}


def check_bots_fit(bots: tuple[str, ...], rules: Rules, name: str, key: str) -> None:
    """``simple`` is the reference gin bot: it has no policy for progressive melding."""
    if "simple" in bots and rules.family not in KNOCK_FAMILIES:
        raise ConfigError(
            f"bot 'simple' plays only the knock families, not rule set {show(name)} "
            f"(family {show(rules.family)})",
            key=key,
            allowed=f"{', '.join(bots_for(rules.family))} for this rule set",
        )


def seat_bots(lineup: list[str], players: int, key: str) -> tuple[str, ...]:
    """The bot at each seat: ``lineup`` repeated round the table (its length must divide
    ``players``)."""
    if players % len(lineup):
        raise ConfigError(
            f"a line-up of {len(lineup)} bots does not fit {players} players",
            key=key,
            allowed="one bot for every seat, or a list whose length divides the player count",
        )
    return tuple(lineup * (players // len(lineup)))


def _rulesets(raw: dict[str, Any], players: tuple[int, ...], path: Path) -> list[RuleSet]:
    arms = raw.get("arms", [])
    grids = raw.get("grids", [])
    if not isinstance(arms, list) or not all(isinstance(a, dict) for a in arms):
        raise ConfigError("must be an array of tables ([[arms]])", key="arms")
    if not isinstance(grids, list) or not all(isinstance(g, dict) for g in grids):
        raise ConfigError("must be an array of tables ([[grids]])", key="grids")
    if not arms and not grids:
        raise ConfigError("the experiment has no arms", key="arms", allowed="[[arms]] or [[grids]]")
    rulesets: list[RuleSet] = []
    for i, arm in enumerate(arms):
        where = f"arms[{i}]"
        F.check_keys(arm, ARM_KEYS, where)
        name = _name(F.require(arm, "name", where), f"{where}.name")
        changes = F.table(arm.get("rules", {}), f"{where}.rules")
        ruleset = _ruleset(name, arm, changes, players, path, where)
        if "seed" in arm:
            seed = F.integer(arm["seed"], f"{where}.seed", low=0, high=2**63 - 1)
            ruleset = dataclasses.replace(ruleset, seed=seed)
        if "baseline" in arm:
            base = F.string(arm["baseline"], f"{where}.baseline")
            ruleset = dataclasses.replace(ruleset, baseline=base)
        if "lineups" in arm:
            own = _lineups(arm["lineups"], f"{where}.lineups")
            ruleset = dataclasses.replace(ruleset, lineups=tuple(map(tuple, own)))
        rulesets.append(ruleset)
    for i, grid in enumerate(grids):
        where = f"grids[{i}]"
        F.check_keys(grid, GRID_KEYS, where)
        prefix = _name(F.require(grid, "name", where), f"{where}.name")
        toggles = F.table(F.require(grid, "toggles", where), f"{where}.toggles")
        if not toggles:
            raise ConfigError("names no toggles", key=f"{where}.toggles")
        for name, values in toggles.items():
            if not isinstance(values, list) or not values:
                raise ConfigError(
                    "must be a non-empty list of values", key=f"{where}.toggles.{name}"
                )
        keys = list(toggles)
        size = math.prod(len(toggles[k]) for k in keys)
        if len(rulesets) + size > MAX_ARMS:
            raise ConfigError(
                f"makes {size} combinations, too many", key=f"{where}.toggles",
                allowed=f"at most {MAX_ARMS} rule sets in an experiment",
            )  # fmt: skip
        label = F.string(grid.get("label", prefix), f"{where}.label")
        for combo in itertools.product(*(toggles[k] for k in keys)):
            changes = dict(zip(keys, combo, strict=True))
            name = ".".join([prefix, *(_slug(v) for v in combo)])
            text = ", ".join(f"{k} = {show(v)}" for k, v in changes.items())
            table = {**grid, "label": f"{label} ({text})"}
            ruleset = _ruleset(name, table, changes, players, path, where, "toggles", text)
            if "baseline" in grid:
                base = F.string(grid["baseline"], f"{where}.baseline")
                ruleset = dataclasses.replace(ruleset, baseline=base)
            rulesets.append(ruleset)
    seen = set()
    for ruleset in rulesets:
        if ruleset.name in seen:
            raise ConfigError(f"two arms are both named {show(ruleset.name)}", key="arms")
        seen.add(ruleset.name)
    return rulesets


def _ruleset(
    name: str,
    table: dict[str, Any],
    changes: dict[str, Any],
    players: tuple[int, ...],
    path: Path,
    where: str,
    rules_key: str = "rules",
    combination: str = "",
) -> RuleSet:
    """One rule set; errors name ``where.rules_key.<toggle>`` and, in a grid, the combination."""
    variant = F.string(F.require(table, "variant", where), f"{where}.variant")
    label = F.string(table.get("label", name), f"{where}.label")
    for key in changes:
        if key not in BY_NAME:
            err = unknown_key(key, BY_NAME, what="toggle")
            raise ConfigError(err.problem, key=f"{where}.{rules_key}.{key}", allowed=err.allowed)
    try:
        rules = load_variant(variant, changes, source=path)
    except ConfigError as err:
        if err.key is None:  # the variant itself was not found
            raise ConfigError(
                f"variant {show(variant)}: {err.problem}", key=f"{where}.variant",
                allowed=err.allowed,
            ) from None  # fmt: skip
        if err.file is not None and Path(err.file) != path and err.key not in changes:
            raise  # a problem inside the variant file: its own file and key say it best
        key = f"{where}.{rules_key}.{err.key}" if err.key in changes else err.key
        problem = err.problem
        if combination:
            problem += f" (in the combination {combination})"
        raise ConfigError(problem, key=key, value=err.value, allowed=err.allowed) from None
    counts = players
    if "players" in table:
        counts = _players(table["players"], f"{where}.players")
    for count in counts:
        try:
            compile_rules(rules, count)
        except ConfigError as err:
            raise ConfigError(
                f"{err.problem} (arm {show(name)})",
                key=f"{where}.players" if "players" in table else "players",
                value=count,
                allowed=err.allowed,
            ) from None
    return RuleSet(name, variant, label, dict(changes), rules, counts)


# ---- small checks ------------------------------------------------------------------------------
def _name(value: Any, key: str) -> str:
    check_length(value, key, MAX_NAME)
    if not isinstance(value, str) or not NAME_PATTERN.match(value):
        raise ConfigError(f"{show(value)} is not a usable name", key=key, allowed=NAME_ALLOWED)
    return value


def _bands(value: Any) -> dict[str, float]:
    """``[bands]``: metric = practical band (its units; shares in percentage points)."""
    table = F.table(value, "bands")
    out = {}
    for metric, band in table.items():
        if not known_metric(metric):
            known = ", ".join([*DEFAULT_BANDS, "share_<end reason>"])
            raise ConfigError(
                f"{show(metric)} is not a metric of the report", key=f"bands.{metric}",
                allowed=known,
            )  # fmt: skip
        if isinstance(band, bool) or not isinstance(band, int | float) or not band > 0:
            raise ConfigError(
                f"{show(band)} is not a band", key=f"bands.{metric}", value=band,
                allowed="a number > 0 (the metric's units; shares in percentage points)",
            )  # fmt: skip
        out[metric] = float(band)
    return out


def _unit(raw: dict[str, Any]) -> tuple[str, int]:
    if "hands" in raw and "games" in raw:
        raise ConfigError("give hands or games per arm, not both", key="games")
    if "games" in raw:
        return "games", F.integer(raw["games"], "games", low=1)
    return "hands", F.integer(F.require(raw, "hands"), "hands", low=1)


def _default_shard(unit: str) -> int:
    return DEFAULT_SHARD_HANDS if unit == "hands" else DEFAULT_SHARD_GAMES


def _players(value: Any, key: str) -> tuple[int, ...]:
    values = value if isinstance(value, list) else [value]
    if not values:
        raise ConfigError("is empty", key=key, allowed="player counts from 2 to 12")
    for count in values:
        F.integer(count, key, low=2, high=12)
    if len(set(values)) != len(values):
        raise ConfigError("lists a player count twice", key=key)
    return tuple(values)


def _lineups(value: Any, key: str = "lineups") -> list[list[str]]:
    if not isinstance(value, list) or not value:
        raise ConfigError(
            "must be a non-empty list of line-ups", key=key, allowed='e.g. ["greedy"]'
        )
    return [lineup_bots(lineup, f"{key}[{i}]") for i, lineup in enumerate(value)]


def lineup_bots(value: Any, key: str) -> list[str]:
    """A line-up: one bot name, or a non-empty list of them, each a bot the engine has."""
    bots = value if isinstance(value, list) else [value]
    if not bots:
        raise ConfigError("is empty", key=key)
    for bot in bots:
        if bot not in BOT_NAMES:
            raise ConfigError(f"unknown bot {show(bot)}", key=key, allowed=", ".join(BOT_NAMES))
    return list(bots)


def _slug(value: Any) -> str:
    text = show(value).strip("'").lower()
    return re.sub(r"[^a-z0-9_@+]+", "", text) or "x"


def _replace(experiment: Experiment, **changes: Any) -> Experiment:
    return dataclasses.replace(experiment, **changes)
