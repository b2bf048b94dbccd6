"""Helpers for the rules tests: small variant files written into a temporary directory."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

TOP = """\
description = "a test variant (§3.1)"
section = "3.1"
players = [2, 6]
"""

DEAL = """\
[deal]
2 = 10
3 = 7
4 = 7
5 = 6
6 = 6
"""


@pytest.fixture
def write(tmp_path: Path):
    """``write(name, top="", tables="")`` -> path of ``<tmp>/<name>.toml``.

    The file is a valid 2-6 player variant (TOP, then ``top`` keys, then DEAL, then
    ``tables``); pass ``raw=...`` instead to write exactly that text.
    """

    def write_variant(name: str, top: str = "", tables: str = "", raw: str | None = None) -> Path:
        path = tmp_path / f"{name}.toml"
        if raw is None:
            body = TOP + textwrap.dedent(top) + DEAL + textwrap.dedent(tables)
        else:
            body = textwrap.dedent(raw)
        path.write_text(body, encoding="utf-8")
        return path

    return write_variant
