"""Variant files: TOML in ``configs/variants/`` that override the RULES.md defaults.

The format is documented in ``docs/variants.md``. In short::

    description = "Basic rummy, preset @002 (RULES.md §3.1)"   # one line, required
    section = "3.1"                 # RULES.md section
    players = [2, 6]                # allowed player counts, inclusive
    extends = "rummy_basic"         # optional: start from another variant
    name = "..."                    # optional: defaults to the file name without .toml
    family = "gin"                  # optional: rummy (default), knock_rummy or gin

    [deal]                          # players -> cards dealt to each player
    2 = 10
    [decks_by_players]              # optional: players -> packs, overriding rules.decks
    [jokers_by_players]             # optional: players -> jokers, overriding rules.jokers
    [ace_points_auto]               # optional: ace_rank -> what ace_points = "auto" means
    [rules]                         # toggle overrides (sim.rules.toggles)
    [policy]                        # engine-policy overrides: turn_cap, hand_cap

With ``extends``, the child's scalars replace the parent's, ``[deal]``,
``[decks_by_players]`` and ``[jokers_by_players]`` replace the parent's tables whole, and
``[rules]``, ``[policy]`` and ``[ace_points_auto]`` are merged key by key.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sim.rules.errors import ConfigError, shorten, show, unknown_key
from sim.rules.model import Rules
from sim.rules.toggles import BY_NAME, POLICY_NAMES, RULE_NAMES, toggle

TOP_KEYS = (
    "name",
    "description",
    "section",
    "players",
    "extends",
    "deal",
    "decks_by_players",
    "jokers_by_players",
    "ace_points_auto",
    "family",
    "rules",
    "policy",
)
MAX_NAME = 100
"""Longest variant, rule set or experiment name (characters). RULES.md sets none; a name
becomes part of file and folder names (``arm=<rule set>-<players>p-<line-up>``, whose
temporary files add ~31 characters), which most file systems cap at 255 bytes."""
MAX_TEXT = 1_000
"""Longest description, label or RULES.md section (characters): one line of a report."""
MAX_FILE_BYTES = 1_000_000
"""Largest variant or experiment file; the shipped ones are under 10 kB."""
TEXT_KEYS = {"name": MAX_NAME, "extends": MAX_NAME + 5, "description": MAX_TEXT,
             "section": MAX_TEXT, "family": MAX_NAME}  # fmt: skip
REPLACED_TABLES = (
    "deal",
    "decks_by_players",
    "jokers_by_players",
)  # a child's table replaces the parent's
MERGED_TABLES = ("ace_points_auto", "rules", "policy")  # merged key by key
OVERRIDES_SOURCE = "<overrides>"


def variants_dir() -> Path:
    """The directory of the shipped variant files (``configs/variants/``)."""
    return Path(__file__).resolve().parents[2] / "configs" / "variants"


def list_variants() -> list[tuple[str, str]]:
    """``(name, description)`` of every variant file, sorted by name."""
    return [(path.stem, load_variant(path).description) for path in _variant_files()]


def load_variant(
    name_or_path: str | Path,
    overrides: Mapping[str, object] | None = None,
    source: str | Path | None = None,
) -> Rules:
    """The rules of a variant (a name in :func:`variants_dir` or a path to a TOML file).

    ``overrides`` maps toggle or policy names to values applied on top of the file and
    checked the same way; errors in them name ``source`` (e.g. the experiment file) as
    their file.
    """
    rules = _load_path(_variant_path(name_or_path))
    if not overrides:
        return rules
    label = source if source is not None else OVERRIDES_SOURCE
    try:
        checked = {name: toggle(name).check(value) for name, value in overrides.items()}
        return rules.with_values(checked)
    except ConfigError as err:
        raise err.in_file(label) from None


def validate_file(path: str | Path) -> Rules:
    """The rules of the variant file at ``path``; ConfigError on any problem."""
    return _load_path(check_file(Path(path)))


def check_length(value: object, key: str, limit: int = MAX_NAME) -> None:
    """Raise ConfigError when ``value`` is a string longer than ``limit`` characters."""
    if isinstance(value, str) and len(value) > limit:
        raise ConfigError(
            f"{len(value):,} characters is too long", key=key, value=shorten(value),
            allowed=f"at most {limit:,} characters",
        )  # fmt: skip


def check_file(path: Path, missing: str = "file not found") -> Path:
    """``path`` if it is a readable regular file; else ConfigError naming it and saying
    what it is instead (missing, a directory, a path the file system refuses)."""
    try:
        if path.is_dir():
            raise ConfigError("is a directory, not a TOML file", file=path)
        if not path.is_file():
            raise ConfigError(missing, file=path)
    except OSError as err:  # e.g. a name longer than the file system allows
        raise ConfigError(f"cannot read the file: {err.strerror}", file=path) from None
    except ValueError:  # a NUL character in the path
        raise ConfigError("not a usable path (it holds a NUL character)", file=path) from None
    return path


def _is_file(path: Path) -> bool:
    """``path.is_file()``, False where the file system refuses the path itself."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def read_config(path: Path) -> str:
    """The text of a variant or experiment file: UTF-8 TOML of at most
    :data:`MAX_FILE_BYTES`. A directory, an unreadable, over-large, non-UTF-8 or binary
    (NUL bytes) file is a ConfigError naming it."""
    check_file(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ConfigError(
                f"{size:,} bytes is too large for a variant or experiment file", file=path,
                allowed=f"at most {MAX_FILE_BYTES:,} bytes",
            )  # fmt: skip
        data = path.read_bytes()
    except OSError as err:
        raise ConfigError(f"cannot read the file: {err.strerror}", file=path) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ConfigError(
            f"not UTF-8 text (byte 0x{data[err.start]:02x} at offset {err.start}); variant and "
            "experiment files are TOML, which is UTF-8",
            file=path,
        ) from None
    if "\x00" in text:
        raise ConfigError("holds NUL bytes: a binary file, not TOML", file=path)
    return text


def rules_from_toml(text: str, source: str = "<string>") -> Rules:
    """Rules from TOML text in the variant format (e.g. the output of :func:`rules_to_toml`)."""
    raw = _parse(text, source)
    merged = _resolve(raw, source, near=None, chain=())
    return _build(merged, default_name=None, file=source)


def rules_to_toml(rules: Rules) -> str:
    """Every resolved setting of ``rules`` as TOML in the variant format, with no ``extends``.

    Loading the text back (:func:`rules_from_toml`) gives equal rules. Each toggle line
    carries its RULES.md section as a comment.
    """
    lines = [
        f"# Resolved rules of variant '{rules.name}': every setting, RULES.md section in comments",
        f"name = {toml_value(rules.name)}",
        f"description = {toml_value(rules.description)}",
        f"section = {toml_value(rules.section)}",
        f"players = [{rules.players[0]}, {rules.players[1]}]",
        f"family = {toml_value(rules.family)}",
        "",
        "[deal]",
        *(f"{p} = {n}" for p, n in rules.deal.items()),
    ]
    if rules.decks_by_players:
        lines += ["", "[decks_by_players]"]
        lines += [f"{p} = {n}" for p, n in rules.decks_by_players.items()]
    if rules.jokers_by_players:
        lines += ["", "[jokers_by_players]"]
        lines += [f"{p} = {n}" for p, n in rules.jokers_by_players.items()]
    lines += ["", "[ace_points_auto]"]
    lines += [f"{rank} = {points}" for rank, points in rules.ace_points_auto.items()]
    for table, names in (("rules", RULE_NAMES), ("policy", POLICY_NAMES)):
        lines += ["", f"[{table}]"]
        for name in names:
            lines.append(f"{name} = {toml_value(rules[name])}  # {BY_NAME[name].section}")
    return "\n".join(lines) + "\n"


# ---- finding files ------------------------------------------------------------------------
def _variant_files() -> list[Path]:
    return sorted(variants_dir().glob("*.toml"), key=lambda p: p.stem)


def _known_variants() -> str:
    return ", ".join(p.stem for p in _variant_files())


def _looks_like_path(text: str) -> bool:
    return text.endswith(".toml") or "/" in text or "\\" in text


def _variant_path(name_or_path: str | Path) -> Path:
    if isinstance(name_or_path, Path) or _looks_like_path(name_or_path):
        return check_file(Path(name_or_path))
    if len(name_or_path) > MAX_NAME:
        raise ConfigError(
            f"unknown variant {show(name_or_path)}: a name is at most {MAX_NAME} characters",
            value=shorten(name_or_path),
        )
    path = variants_dir() / f"{name_or_path}.toml"
    if not _is_file(path):
        raise ConfigError(
            f"unknown variant {show(name_or_path)}", value=name_or_path, allowed=_known_variants()
        )
    return path


def _extends_path(name: str, near: Path | None) -> Path:
    """The file a variant extends: next to the extending file first, then in variants_dir()."""
    folders = [near] if near is not None else []
    folders.append(variants_dir())
    for folder in folders:
        path = folder / (name if name.endswith(".toml") else f"{name}.toml")
        if _is_file(path):
            return path.resolve()
    raise ConfigError(
        f"unknown variant {show(name)}", key="extends", value=name, allowed=_known_variants()
    )


# ---- reading and merging ------------------------------------------------------------------
def _load_path(path: Path) -> Rules:
    path = path.resolve()
    raw = _parse(read_config(path), path)
    merged = _resolve(raw, path, near=path.parent, chain=(path,))
    return _build(merged, default_name=path.stem, file=path)


def _parse(text: str, file: str | Path) -> dict[str, Any]:
    """TOML text as a dict; a syntax error becomes ConfigError with its line."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        line = None
        if where := re.search(r"\s*\(at line (\d+), column (\d+)\)$", message):
            line = int(where.group(1))
            message = f"{message[: where.start()]} (column {where.group(2)})"
        elif where := re.search(r"\s*\(at end of document\)$", message):
            line = max(1, len(text.rstrip("\n").splitlines()))
            message = f"{message[: where.start()]} (at end of file)"
        raise ConfigError(f"TOML syntax error: {message}", file=file, line=line) from None
    _check_shape(raw, file)
    return raw


def _check_shape(raw: dict[str, Any], file: str | Path) -> None:
    """Keys, types and setting values that can be checked in one file on its own."""
    try:
        for key in raw:
            if key in BY_NAME:
                table = "policy" if BY_NAME[key].policy else "rules"
                raise ConfigError(f"a setting belongs in the [{table}] table", key=key)
            if key not in TOP_KEYS:
                raise unknown_key(key, _suggestable_keys())
        if "description" not in raw:
            raise ConfigError(
                "missing; every variant file needs a one-line description", key="description"
            )
        for key, limit in TEXT_KEYS.items():
            check_length(raw.get(key), key, limit)
        if "extends" in raw and not isinstance(raw["extends"], str):
            extends = raw["extends"]
            raise ConfigError(
                f"expected a variant name, got {show(extends)}", key="extends", value=extends
            )
        for table in (*REPLACED_TABLES, *MERGED_TABLES):
            if table in raw and not isinstance(raw[table], dict):
                value = raw[table]
                raise ConfigError(
                    f"expected a table [{table}], got {show(value)}", key=table, value=value
                )
        _check_settings(raw.get("rules", {}), RULE_NAMES, "rules")
        _check_settings(raw.get("policy", {}), POLICY_NAMES, "policy")
    except ConfigError as err:
        raise err.in_file(file) from None


def _suggestable_keys() -> list[str]:
    # A toggle written at top level is a common slip: suggest it too (message says where).
    return [*TOP_KEYS, *BY_NAME]


def _check_settings(table: dict[str, Any], names: tuple[str, ...], where: str) -> None:
    for name, value in table.items():
        if name in BY_NAME and name not in names:
            other = "policy" if where == "rules" else "rules"
            raise ConfigError(f"belongs in [{other}], not [{where}]", key=name, value=value)
        if name not in names:
            raise unknown_key(name, names, what=f"setting in [{where}]")
        BY_NAME[name].check(value)


def _resolve(
    raw: dict[str, Any], file: str | Path, near: Path | None, chain: tuple[Path, ...]
) -> dict[str, Any]:
    """``raw`` merged over the variant it extends (recursively); cycles are errors."""
    if "extends" not in raw:
        return raw
    try:
        parent_path = _extends_path(raw["extends"], near)
        if parent_path in chain:
            names = " -> ".join(p.stem for p in (*chain, parent_path))
            raise ConfigError(f"extends cycle: {names}", key="extends", value=raw["extends"])
    except ConfigError as err:
        raise err.in_file(file) from None
    parent_raw = _parse(read_config(parent_path), parent_path)
    parent = _resolve(parent_raw, parent_path, parent_path.parent, (*chain, parent_path))
    return _merge(parent, raw)


def _merge(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in parent.items() if k not in ("name", "extends")}
    for key, value in child.items():
        if key in MERGED_TABLES:
            merged[key] = {**parent.get(key, {}), **value}
        elif key != "extends":
            merged[key] = value
    return merged


_REQUIRED = ("section", "players", "deal")


def _build(merged: dict[str, Any], default_name: str | None, file: str | Path) -> Rules:
    """The Rules of a merged variant dict; every error names ``file``."""
    try:
        # Tonk's deal is its tonk_deal toggle (RULES.md §2L.47): no [deal] table
        required = ("section", "players") if merged.get("family") == "tonk" else _REQUIRED
        for key in required:
            if key not in merged:
                raise ConfigError("missing (and not inherited through extends)", key=key)
        name = merged.get("name", default_name)
        if name is None:
            raise ConfigError("missing", key="name")
        players = merged["players"]
        return Rules(
            name=name,
            description=merged["description"],
            section=merged["section"],
            players=tuple(players) if isinstance(players, list) else players,
            deal=merged.get("deal", {}),
            values={**merged.get("rules", {}), **merged.get("policy", {})},
            decks_by_players=merged.get("decks_by_players", {}),
            jokers_by_players=merged.get("jokers_by_players", {}),
            ace_points_auto=merged.get("ace_points_auto", {}),
            family=merged.get("family", "rummy"),
        )
    except ConfigError as err:
        raise err.in_file(file) from None


def toml_value(value: object) -> str:
    """``value`` as TOML: a boolean, a number, a list, an inline table, else a string (a JSON
    string is a TOML basic string); what rummysim writes its generated files with."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in value.items()) + " }"
    return json.dumps(str(value), ensure_ascii=False)
