"""rummysim variants / validate."""

from __future__ import annotations

from typer.testing import CliRunner

from sim.cli import app
from sim.rules import list_variants, variants_dir

runner = CliRunner()


def test_variants_lists_every_variant_with_players():
    result = runner.invoke(app, ["variants"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    for name, description in list_variants():
        assert name in result.stdout
        assert description in result.stdout
    assert "2-7" in result.stdout  # rummy_basic@003
    assert "2-6" in result.stdout


def test_validate_prints_summary_and_exits_0():
    path = variants_dir() / "rummy_basic@004.toml"
    result = runner.invoke(app, ["validate", str(path)], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "rummy_basic@004" in result.stdout
    assert "shuffle_except_top" in result.stdout
    assert "target:150" in result.stdout
    assert "valid" in result.stdout
    assert result.stderr == ""


def test_validate_accepts_a_variant_name():
    result = runner.invoke(app, ["validate", "block_rummy@002"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    assert "block_totals" in result.stdout


def test_validate_invalid_file_exits_2_with_message_on_stderr(write):
    path = write("bad", tables="[rules]\nace_rank = 'sideways'\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "key 'ace_rank': 'sideways' is not allowed" in result.stderr


def test_no_command_shows_help():
    result = runner.invoke(app, [])
    assert "variants" in result.output and "validate" in result.output


def test_run_refuses_a_negative_worker_count(tmp_path):
    """0 means one worker per core; below 0 is a usage error (review finding: -1 was taken
    as 0), and nothing is written."""
    out = tmp_path / "data"
    result = runner.invoke(app, ["run", "house-rules", "--workers", "-1", "--out", str(out)])
    assert result.exit_code == 2
    assert not out.exists()
