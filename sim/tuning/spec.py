"""Tuning files (configs/tune/*.toml): which knob ``rummysim tune`` turns, over what range,
toward which objective; validated before anything runs (docs/tune.md has the format).

Every problem raises :class:`ConfigError` naming the file and the key. A knob is an integer
setting (``initial_meld_min``, ``chip_stack``), the number of a parametrised one
(``game_end = "target:N"``, ``going_rummy = "bonus:N"``) or a choice that also takes
integers as a simulator extension (``knock_limit``, ``gin_bonus``, ``undercut_bonus``).
The objective is one of the report's per-arm statistics (``sim.tuning.objective.statistics``),
or the difference of two of the same level, in the report's units (shares and seat edges
in percent or percentage points).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sim.dataset.timing import DEFAULT_SECONDS, check_time_table
from sim.engine.rows import REASON_NAMES
from sim.rules import ConfigError, load_variant
from sim.rules import fields as F
from sim.rules.errors import show, unknown_key
from sim.rules.fields import config_path
from sim.rules.loader import check_length
from sim.rules.toggles import BY_NAME, Kind, Toggle, split_param
from sim.runner.experiment import check_bots_fit, lineup_bots, seat_bots
from sim.tuning.objective import statistics
from sim.tuning.search import Knob, Settings

NAME_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_.@+-]*$")
NAME_ALLOWED = "lower-case letters, digits and _ . @ + -, starting with a letter or digit"
TOP_KEYS = (
    "name", "description", "seed", "confirm_seed", "variant", "rules", "players", "lineup",
    "hands", "games", "shard_size", "knob", "objective", "search", "time",
)  # fmt: skip
KNOB_KEYS = ("setting", "form", "low", "high", "step")
OBJECTIVE_KEYS = ("metric", "minus", "target")
SEARCH_KEYS = ("scan", "rounds", "resamples")
MAX_KNOB_VALUES = 100_000  # values low..high in steps: each is checked before anything runs
CONFIRM_SEED_OFFSET = 1_000_003  # the default fresh seed of the re-confirmation: seed + this


def tune_dir() -> Path:
    """The directory of the shipped tuning files (``configs/tune/``)."""
    return Path(__file__).resolve().parents[2] / "configs" / "tune"


@dataclass(frozen=True)
class Objective:
    """What the search aims at: ``metric`` (minus ``minus``) equal to ``target``, in the
    report's units (``scale`` times the statistic), estimated at ``level`` (hand or game)."""

    metric: str
    minus: str | None
    target: float
    level: str
    scale: float

    @property
    def text(self) -> str:
        return self.metric if self.minus is None else f"{self.metric} - {self.minus}"


@dataclass(frozen=True)
class TuneSpec:
    """A validated tuning file."""

    name: str
    description: str
    file: str
    text: str
    seed: int
    confirm_seed: int
    variant: str
    rules: Mapping[str, Any]  # the fixed changes to the variant, every value
    players: int
    lineup: tuple[str, ...]  # the bots in seat order (a shorter list repeats)
    unit: str  # "hands" or "games" per knob value and round
    per_value: int
    shard_size: int | None
    setting: str  # the knob's setting
    form: str | None  # a parametrised setting's form ("target" of game_end)
    knob: Knob
    objective: Objective
    settings: Settings
    resamples: int
    time: Mapping[str, float] = field(default_factory=dict)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def value_of(self, x: int) -> int | str:
        """The setting's value at knob value ``x`` (``"target:150"`` for game_end's form)."""
        return x if self.form is None else f"{self.form}:{x}"

    def knob_text(self, x: int) -> str:
        return f"{self.setting} = {show(self.value_of(x))}"


def load_spec(name_or_path: str | Path) -> TuneSpec:
    """The tuning file at a path, or a shipped one by name; ConfigError on any problem."""
    path = _spec_path(name_or_path)
    raw, text = F.read_toml(path)
    try:
        return _build(raw, path, text)
    except ConfigError as err:
        raise err.in_file(path) from None


def list_specs() -> list[tuple[str, str]]:
    """``(name, description)`` of every shipped tuning file."""
    return [(p.stem, load_spec(p).description) for p in sorted(tune_dir().glob("*.toml"))]


def _spec_path(name_or_path: str | Path) -> Path:
    return config_path(name_or_path, tune_dir(), "tuning file")


def _build(raw: dict[str, Any], path: Path, text: str) -> TuneSpec:
    F.check_keys(raw, TOP_KEYS, "")
    name = raw.get("name", path.stem)
    check_length(name, "name")
    if not isinstance(name, str) or not NAME_PATTERN.match(name):
        raise ConfigError(f"{show(name)} is not a usable name", key="name", allowed=NAME_ALLOWED)
    description = F.string(raw.get("description", ""), "description")
    seed = F.integer(F.require(raw, "seed"), "seed", low=0, high=2**62)
    confirm_seed = F.integer(raw.get("confirm_seed", seed + CONFIRM_SEED_OFFSET),
                             "confirm_seed", low=0, high=2**63 - 1)  # fmt: skip
    if confirm_seed == seed:
        raise ConfigError("must differ from seed (the re-confirmation plays fresh deals)",
                          key="confirm_seed", value=confirm_seed)  # fmt: skip
    variant = F.string(F.require(raw, "variant"), "variant")
    rules = F.table(raw.get("rules", {}), "rules")
    for key in rules:
        if key not in BY_NAME:
            err = unknown_key(key, BY_NAME, what="setting")
            raise ConfigError(err.problem, key=f"rules.{key}", allowed=err.allowed)
    players = F.integer(F.require(raw, "players"), "players", low=2, high=12)
    unit, per_value = _unit(raw)
    shard_size = raw.get("shard_size")
    if shard_size is not None:
        shard_size = F.integer(shard_size, "shard_size", low=1)
    setting, form, knob = _knob(F.table(F.require(raw, "knob"), "knob"), rules)
    base = _variant(variant, rules, path)
    lineup = _lineup(raw.get("lineup", "greedy"), players, base, variant)
    _check_knob_values(variant, rules, setting, form, knob, path)
    objective = _objective(F.table(F.require(raw, "objective"), "objective"), players,
                           base.in_partnerships(players))  # fmt: skip
    search = F.table(raw.get("search", {}), "search")
    F.check_keys(search, SEARCH_KEYS, "search")
    settings = Settings(
        scan=F.integer(search.get("scan", Settings.scan), "search.scan", low=3, high=50),
        rounds=F.integer(search.get("rounds", Settings.rounds), "search.rounds", low=0, high=50),
    )
    resamples = F.integer(search.get("resamples", 2000), "search.resamples", low=100, high=100_000)
    time = check_time_table(raw.get("time", {}))
    return TuneSpec(
        name, description, str(path), text, seed, confirm_seed, variant, dict(rules), players,
        lineup, unit, per_value, shard_size, setting, form, knob, objective, settings,
        resamples, time,
    )  # fmt: skip


def _variant(variant: str, rules: Mapping[str, Any], path: Path):
    try:
        return load_variant(variant, rules, source=path)
    except ConfigError as err:
        if err.key is None:
            raise ConfigError(f"variant {show(variant)}: {err.problem}", key="variant",
                              allowed=err.allowed) from None  # fmt: skip
        if err.key in rules:
            raise ConfigError(err.problem, key=f"rules.{err.key}", value=err.value,
                              allowed=err.allowed) from None  # fmt: skip
        raise


def knob_toggle_text() -> str:
    """The settings a knob may turn, for messages."""
    return ", ".join(t.name for t in _knob_toggles())


def _knob_toggles() -> list[Toggle]:
    out = []
    for t in BY_NAME.values():
        if t.policy:  # turn and hand caps are not rules
            continue
        integer = t.kind is Kind.INT or (t.kind is Kind.CHOICE and t.low is not None)
        if integer or (t.kind is Kind.PARAM and _number_forms(t)):
            out.append(t)
    return out


def _number_forms(t: Toggle) -> list[str]:
    return [f for f, arg in (split_param(str(c)) for c in t.choices) if arg is not None]


def _knob(table: dict[str, Any], rules: Mapping[str, Any]) -> tuple[str, str | None, Knob]:
    F.check_keys(table, KNOB_KEYS, "knob")
    setting = F.string(F.require(table, "setting", "knob"), "knob.setting")
    toggle = BY_NAME.get(setting)
    if toggle is None or toggle not in _knob_toggles():
        raise ConfigError(f"{show(setting)} is not a setting with integer values",
                          key="knob.setting", allowed=knob_toggle_text())  # fmt: skip
    if setting in rules:
        raise ConfigError(f"{show(setting)} is the knob; the fixed rules cannot set it too",
                          key=f"rules.{setting}")  # fmt: skip
    form = None
    if toggle.kind is Kind.PARAM:
        forms = _number_forms(toggle)
        form = table.get("form", forms[0] if len(forms) == 1 else None)
        if form not in forms:
            raise ConfigError(f"{show(form)} is not a form of {setting} that takes a number",
                              key="knob.form", allowed=", ".join(forms))  # fmt: skip
    elif "form" in table:
        raise ConfigError(f"{setting} has no forms", key="knob.form")
    low = F.integer(F.require(table, "low", "knob"), "knob.low", low=0)
    high = F.integer(F.require(table, "high", "knob"), "knob.high", low=low + 1)
    step = F.integer(table.get("step", 1), "knob.step", low=1)
    if (high - low) % step:
        raise ConfigError(f"{high} - {low} is not a whole number of steps of {step}",
                          key="knob.step", allowed="a step that divides high - low")  # fmt: skip
    if (high - low) // step + 1 > MAX_KNOB_VALUES:
        raise ConfigError("the range holds too many values", key="knob.step",
                          allowed=f"at most {MAX_KNOB_VALUES:,} values")  # fmt: skip
    return setting, form, Knob(low, high, step)


def _check_knob_values(variant, rules, setting, form, knob: Knob, path: Path) -> None:
    """Every knob value must be a value of the setting; its ends must fit the variant."""
    toggle = BY_NAME[setting]
    for x in range(knob.low, knob.high + 1, knob.step):
        value = x if form is None else f"{form}:{x}"
        try:
            toggle.check(value)
        except ConfigError as err:
            key = "knob.low" if x == knob.low else "knob.high" if x == knob.high else "knob.step"
            raise ConfigError(f"{setting} = {show(value)}: {err.problem}", key=key,
                              allowed=err.allowed) from None  # fmt: skip
    for x, key in ((knob.low, "knob.low"), (knob.high, "knob.high")):
        value = x if form is None else f"{form}:{x}"
        try:
            load_variant(variant, {**rules, setting: value}, source=path)
        except ConfigError as err:
            raise ConfigError(f"{setting} = {show(value)}: {err.problem}", key=key,
                              allowed=err.allowed) from None  # fmt: skip


def _objective(table: dict[str, Any], players: int, teams: bool) -> Objective:
    F.check_keys(table, OBJECTIVE_KEYS, "objective")
    known = statistics(players, REASON_NAMES, teams, DEFAULT_SECONDS)
    allowed = ", ".join(known)
    metric = F.string(F.require(table, "metric", "objective"), "objective.metric")
    if metric not in known:
        raise ConfigError(f"{show(metric)} is not a statistic of the report at {players} players",
                          key="objective.metric", allowed=allowed)  # fmt: skip
    minus = table.get("minus")
    if minus is not None:
        minus = F.string(minus, "objective.minus")
        if minus not in known:
            raise ConfigError(f"{show(minus)} is not a statistic of the report",
                              key="objective.minus", allowed=allowed)  # fmt: skip
        if known[minus][:2] != known[metric][:2]:
            raise ConfigError(
                f"{minus} is not of the same level and units as {metric}", key="objective.minus",
                allowed=", ".join(n for n, v in known.items() if v[:2] == known[metric][:2]),
            )  # fmt: skip
    target = F.require(table, "target", "objective")
    if isinstance(target, bool) or not isinstance(target, int | float) or target != target:
        raise ConfigError(f"{show(target)} is not a number", key="objective.target",
                          allowed="a number in the metric's units (shares in percent)")  # fmt: skip
    level, scale, _ = known[metric]
    return Objective(metric, minus, float(target), level, scale)


def _lineup(value: Any, players: int, rules, variant: str) -> tuple[str, ...]:
    """The line-up as written (the runner repeats it round the table), checked as an
    experiment's: known bots, a length that divides the player count, bots the family has."""
    bots = lineup_bots(value, "lineup")
    check_bots_fit(seat_bots(bots, players, "lineup"), rules, variant, "lineup")
    return tuple(bots)


def _unit(raw: dict[str, Any]) -> tuple[str, int]:
    if "hands" in raw and "games" in raw:
        raise ConfigError("give hands or games per knob value, not both", key="games")
    if "games" in raw:
        return "games", F.integer(raw["games"], "games", low=1)
    return "hands", F.integer(F.require(raw, "hands"), "hands", low=1)
