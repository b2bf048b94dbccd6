"""Bad variant and experiment files (issue #30 point 8): a file that is not UTF-8, not TOML,
a directory, or holds over-long names or values is refused before anything runs: exit 2, one
line naming the file and the problem, no traceback, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.rules.loader import MAX_FILE_BYTES, MAX_NAME
from tests.runner.helpers import SMALL

runner = CliRunner()

VARIANT = """\
description = "a test variant (§3.1)"
section = "3.1"
players = [2, 6]
extends = "rummy_basic"
"""

LONG = 200_000


def _refused(args: list[str], named: Path | str | None, problem: str, out: Path | None = None):
    """Run the CLI in this process; check exit 2, one line naming ``named`` and
    ``problem``, no traceback, and that ``out`` (the run's folder) was not made."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert len(lines[0]) < 2_000, lines[0][:600]  # a long value is shortened, not echoed
    if named is not None:
        assert str(named) in lines[0]
    assert problem in lines[0]
    if out is not None:
        assert not out.exists()


def _run(tmp_path: Path, experiment: Path, problem: str, named: Path | None = None) -> None:
    out = tmp_path / "data"
    args = ["run", str(experiment), "--out", str(out), "--hands", "10"]
    _refused(args, named or experiment, problem, out)


def _experiment(tmp_path: Path, data: str | bytes, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


# ---- experiment files ------------------------------------------------------------------------
def test_a_non_utf8_experiment_file_is_refused(tmp_path: Path) -> None:
    path = _experiment(tmp_path, SMALL.encode("utf-8").replace(b"two rule", b"two \xff\xfe rule"))
    _run(tmp_path, path, "not UTF-8 text (byte 0xff at offset")


def test_a_binary_experiment_file_is_refused(tmp_path: Path) -> None:
    path = _experiment(tmp_path, b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    _run(tmp_path, path, "not UTF-8 text")


def test_a_binary_file_that_decodes_as_utf8_is_refused(tmp_path: Path) -> None:
    path = _experiment(tmp_path, b"seed = 1\x00\x00\x01\x02\x03")
    _run(tmp_path, path, "holds NUL bytes: a binary file, not TOML")


def test_an_experiment_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    path = _experiment(tmp_path, "this is = = not toml\n")
    _run(tmp_path, path, "not valid TOML")


def test_an_experiment_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "exp.toml"
    folder.mkdir()
    _run(tmp_path, folder, "is a directory, not a TOML file")


def test_an_over_large_experiment_file_is_refused(tmp_path: Path) -> None:
    path = _experiment(tmp_path, SMALL + "#" * MAX_FILE_BYTES + "\n")
    _run(tmp_path, path, "bytes is too large")


def test_a_200000_character_variant_name_in_an_arm_is_refused(tmp_path: Path) -> None:
    text = SMALL.replace('variant = "rummy_basic"', f'variant = "{"x" * LONG}"', 1)
    _run(tmp_path, _experiment(tmp_path, text), "key 'arms[0].variant': 200,000 characters")


def test_a_variant_name_over_the_limit_is_refused_without_touching_the_file_system(
    tmp_path: Path,
) -> None:
    """Between the value limit (1,000) and the file system's (255): still a clear error."""
    text = SMALL.replace('variant = "rummy_basic"', f'variant = "{"x" * 300}"', 1)
    problem = f"a name is at most {MAX_NAME} characters"
    _run(tmp_path, _experiment(tmp_path, text), problem)


@pytest.mark.parametrize("length", [231, 240, MAX_NAME + 1])
def test_an_over_long_arm_name_is_refused_before_anything_is_written(
    tmp_path: Path, length: int
) -> None:
    """Before: 231+ characters passed validation, failed at write time and left a manifest."""
    text = SMALL.replace('name = "ace_high"', f'name = "{"a" * length}"')
    _run(tmp_path, _experiment(tmp_path, text), f"key 'arms[1].name': {length} characters is too")


def test_grid_arm_names_too_long_for_a_folder_are_refused(tmp_path: Path) -> None:
    toggles = (
        'ace_rank = ["around_corner"], going_rummy = ["bonus:10"], '
        'dealer_rotation = ["winner_deals"], stock_exhaustion = ["shuffle_except_top"], '
        'scoring = ["pip_to_winner"], run_suit = ["same_suit"], '
        'group_duplicates = ["forbidden"], play_direction = ["clockwise"]'
    )
    text = SMALL + f'\n[[grids]]\nname = "{"g" * MAX_NAME}"\nvariant = "rummy_basic"\n'
    text += f"toggles = {{ {toggles} }}\n"
    _run(tmp_path, _experiment(tmp_path, text), "is too long for a folder name")


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ('name = "small"', f'name = "{"e" * 300}"', "key 'name': 300 characters is too long"),
        ("two rule sets", "d" * 5000, "key 'description': 5,0"),
        (
            'variant = "rummy_basic"\n',
            f'variant = "rummy_basic"\nlabel = "{"l" * 5000}"\n',
            "'arms[0].label': 5,000",
        ),
    ],
)
def test_over_long_experiment_values_are_refused(
    tmp_path: Path, old: str, new: str, problem: str
) -> None:
    _run(tmp_path, _experiment(tmp_path, SMALL.replace(old, new, 1)), problem)


def test_a_200000_character_experiment_name_on_the_command_line_is_refused(
    tmp_path: Path,
) -> None:
    out = tmp_path / "data"
    args = ["run", "x" * LONG, "--out", str(out)]
    _refused(args, None, "key 'experiment': 200,000 characters is too long", out)


def test_a_200000_character_experiment_path_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "data"
    args = ["run", str(tmp_path / ("x" * LONG + ".toml")), "--out", str(out)]
    _refused(args, str(tmp_path), "cannot read the file: File name too long", out)


# ---- variant files -----------------------------------------------------------------------------
def _variant(tmp_path: Path, data: str | bytes, name: str = "v.toml") -> Path:
    return _experiment(tmp_path, data, name)


def _both(tmp_path: Path, variant: Path, problem: str) -> None:
    """``validate`` on the variant file, and ``run`` of an experiment whose arm uses it: each
    refused naming the variant file, the run writing nothing."""
    _refused(["validate", str(variant)], variant, problem)
    text = SMALL.replace('variant = "rummy_basic"', f'variant = "{variant}"', 1)
    _run(tmp_path, _experiment(tmp_path, text), problem, named=variant)


def test_a_non_utf8_variant_file_is_refused(tmp_path: Path) -> None:
    path = _variant(tmp_path, VARIANT.encode("utf-8").replace(b"a test", b"a \xe9 test"))
    _both(tmp_path, path, "not UTF-8 text (byte 0xe9 at offset")


def test_a_binary_variant_file_is_refused(tmp_path: Path) -> None:
    _both(tmp_path, _variant(tmp_path, bytes(range(256))), "not UTF-8 text")


def test_a_variant_file_that_is_not_toml_is_refused(tmp_path: Path) -> None:
    _both(tmp_path, _variant(tmp_path, "[deal\n2 = 10\n"), "TOML syntax error")


def test_a_variant_directory_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "v.toml"
    folder.mkdir()
    _both(tmp_path, folder, "is a directory, not a TOML file")


@pytest.mark.parametrize(
    ("key", "limit"), [("name", "100"), ("description", "1,000"), ("section", "1,000")]
)
def test_over_long_variant_values_are_refused(tmp_path: Path, key: str, limit: str) -> None:
    lines = [line for line in VARIANT.splitlines() if not line.startswith(f"{key} =")]
    text = "\n".join([f'{key} = "{"n" * LONG}"', *lines]) + "\n"
    problem = f"key '{key}': 200,000 characters is too long; allowed: at most {limit} characters"
    _both(tmp_path, _variant(tmp_path, text), problem)


def test_a_200000_character_extends_is_refused(tmp_path: Path) -> None:
    text = VARIANT.replace('extends = "rummy_basic"', f'extends = "{"p" * LONG}"')
    _both(tmp_path, _variant(tmp_path, text), "key 'extends': 200,000 characters is too long")


def test_a_200000_character_variant_name_on_the_command_line_is_refused() -> None:
    _refused(["validate", "v" * LONG], None, "a name is at most 100 characters")


def test_a_non_utf8_file_a_variant_extends_is_named(tmp_path: Path) -> None:
    parent = _variant(tmp_path, b'description = "\xff"\n', "parent.toml")
    child = _variant(tmp_path, VARIANT.replace('"rummy_basic"', '"parent"'), "child.toml")
    _refused(["validate", str(child)], parent, "not UTF-8 text")


def test_an_over_long_unknown_key_is_shown_cut_short(tmp_path: Path) -> None:
    key = "k" * LONG
    text = SMALL.replace('rules = { ace_rank = "high" }', f'rules = {{ {key} = "high" }}')
    _run(tmp_path, _experiment(tmp_path, text), "(200,014 characters)': unknown toggle")
    top = _experiment(tmp_path, f"{key} = 1\n" + SMALL, "top.toml")
    _run(tmp_path, top, "(200,000 characters)': unknown key")
    variant = _variant(tmp_path, VARIANT + f"[rules]\n{key} = 1\n")
    _both(tmp_path, variant, "(200,000 characters)': unknown setting in [rules]")
