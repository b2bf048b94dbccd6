"""The one error type of the rules layer: a bad variant file, override or player count."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """A rules setting that cannot be used, with where it came from and what is allowed.

    ``str()`` reads ``<file>: line <n>: key '<key>': <problem>; allowed: <allowed>``,
    each part present only when known, e.g.
    ``configs/variants/x.toml: key 'ace_rank': 'sideways' is not allowed;
    allowed: low, high, high_or_low, around_corner``.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | Path | None = None,
        key: str | None = None,
        value: Any = None,
        allowed: str | None = None,
        line: int | None = None,
    ) -> None:
        super().__init__(problem)
        self.problem = problem
        self.file = None if file is None else str(file)
        self.key = key
        self.value = value
        self.allowed = allowed
        self.line = line

    def __str__(self) -> str:
        parts = []
        if self.file:
            parts.append(display_path(self.file))
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.key:
            parts.append(f"key '{shorten(self.key, 2 * SHOWN_CHARACTERS)}'")
        text = self.problem if self.allowed is None else f"{self.problem}; allowed: {self.allowed}"
        return ": ".join([*parts, text])

    def in_file(self, file: str | Path | None) -> ConfigError:
        """This error with ``file`` filled in, unless it already names a file."""
        if self.file is not None or file is None:
            return self
        return replace(self, file=file)


SHOWN_CHARACTERS = 80
"""Longer names, values and paths are cut to this many characters in messages, so a message
stays one readable line whatever the file holds."""


def shorten(text: str, limit: int = SHOWN_CHARACTERS) -> str:
    """``text``, or its first ``limit`` characters and how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def display_path(path: str | Path) -> str:
    """``path`` relative to the project root when it lies inside it (as in error messages);
    a path too long for the file system is shortened (:func:`shorten`)."""
    text = str(path)
    if text.startswith("<"):  # a label such as "<overrides>", not a file
        return text
    root = Path(__file__).resolve().parents[2]
    try:
        return str(Path(path).resolve().relative_to(root))
    except ValueError:
        return text if len(text) <= 1000 else shorten(text)
    except OSError:  # resolve() of a path too long for the file system
        return shorten(text)


def show(value: Any) -> str:
    """A value as it is written in TOML, for messages: strings quoted, booleans lower-case;
    a long string is shortened (:func:`shorten`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{shorten(value)}'"
    return shorten(str(value))


def unknown_key(key: str, known: Iterable[str], *, what: str = "key") -> ConfigError:
    """A ConfigError for an unknown name, suggesting the closest known one (difflib)."""
    known = sorted(known)
    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    return ConfigError(f"unknown {what}{hint}", key=key, allowed=", ".join(known))


def replace(error: ConfigError, **changes: Any) -> ConfigError:
    """A copy of ``error`` with some of its parts changed (for re-raising with context)."""
    fields = {
        "problem": error.problem,
        "file": error.file,
        "key": error.key,
        "value": error.value,
        "allowed": error.allowed,
        "line": error.line,
    }
    fields.update(changes)
    return ConfigError(fields.pop("problem"), **fields)
