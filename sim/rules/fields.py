"""Checks of the fields of a configuration file (experiment files, tuning files), each a
ConfigError naming the key and what is allowed; and the lookup of a shipped file by name.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sim.rules.errors import ConfigError, show, unknown_key
from sim.rules.loader import MAX_TEXT, check_file, check_length, read_config


def config_path(name_or_path: str | Path, folder: Path, what: str) -> Path:
    """A path (it ends in .toml or holds a /), or the name of a shipped file in ``folder``;
    ConfigError naming it, and listing the shipped ones, otherwise."""
    text = str(name_or_path)
    if text.endswith(".toml") or "/" in text:
        return check_file(Path(text), f"{what} not found")
    check_length(text, what)
    path = folder / f"{text}.toml"
    if "\0" in text or not path.is_file():
        known = ", ".join(p.stem for p in sorted(folder.glob("*.toml")))
        raise ConfigError(f"unknown {what} {show(text)}", allowed=known or "(none)")
    return path


def check_keys(table: dict[str, Any], known: Sequence[str], where: str) -> None:
    """Every key of ``table`` (at ``where``, "" for the top) is one of ``known``."""
    for key in table:
        if key not in known:
            err = unknown_key(key, known)
            full = f"{where}.{key}" if where else key
            raise ConfigError(err.problem, key=full, allowed=err.allowed)


def require(table: dict[str, Any], key: str, where: str = "") -> Any:
    """``table[key]``, or ConfigError: it is missing."""
    if key not in table:
        full = f"{where}.{key}" if where else key
        raise ConfigError("is missing", key=full)
    return table[key]


def string(value: Any, key: str, limit: int = MAX_TEXT) -> str:
    """A string of at most ``limit`` characters."""
    if not isinstance(value, str):
        raise ConfigError(f"{show(value)} is not a string", key=key)
    check_length(value, key, limit)
    return value


def boolean(value: Any, key: str) -> bool:
    """true or false."""
    if not isinstance(value, bool):
        raise ConfigError(f"{show(value)} is not allowed", key=key, allowed="true, false")
    return value


def integer(value: Any, key: str, *, low: int, high: int | None = None) -> int:
    """An integer (not a boolean) in ``low..high``."""
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= low
    if ok and high is not None:
        ok = value <= high
    if not ok:
        allowed = f"an integer >= {low}" + ("" if high is None else f" and <= {high}")
        raise ConfigError(f"{show(value)} is not allowed", key=key, allowed=allowed)
    return value


def table(value: Any, key: str) -> dict[str, Any]:
    """A TOML table."""
    if not isinstance(value, dict):
        raise ConfigError(f"{show(value)} is not a table", key=key)
    return value


def read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """A configuration file's table and text: ConfigError naming it when it cannot be read
    (a directory, non-UTF-8, binary or over-large: ``read_config``) or is not TOML."""
    text = read_config(path)
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as err:
        line = getattr(err, "lineno", None)
        raise ConfigError(f"not valid TOML: {err}", file=path, line=line) from None
