"""`rummysim ladder` as a user meets it: a variant's ladder, an experiment's, bad input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def test_a_variants_ladder_ranks_its_bots_and_writes_json_and_markdown(tmp_path) -> None:
    out, page = tmp_path / "data", tmp_path / "page"
    args = ["ladder", "gin_rummy", "--bots", "careful,simple,random", "--games", "60",
            "--workers", "1", "--out", str(out), "--page", str(page)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (out / "ladder-gin_rummy-2p.toml").is_file()
    assert (out / "ladder-gin_rummy-2p" / "manifest.json").is_file()
    data = json.loads((page / "ladder.json").read_text())
    (table,) = data["tables"]
    assert table["ruleset"] == "gin_rummy" and table["players"] == 2
    assert {r["bot"] for r in table["ratings"]} == {"careful", "simple", "random"}
    assert len(table["pairs"]) == 3
    for pair in table["pairs"]:
        assert pair["games"] == 120  # 60 games, each once per seat rotation
        assert 0.0 <= pair["low"] <= pair["a_share"] <= pair["high"] <= 1.0
    # random never beats careful at gin: careful rates above it, beyond both intervals
    rating = {r["bot"]: r for r in table["ratings"]}
    assert rating["careful"]["low"] > rating["random"]["high"]
    assert "Elo" in (page / "ladder.md").read_text() and "careful" in result.output
    assert (page / "ladder.png").stat().st_size > 0 and (page / "ladder.svg").is_file()
    # the same command again resumes: nothing is played twice, the same ladder comes out
    again = runner.invoke(app, args)
    assert again.exit_code == 0, again.output
    assert json.loads((page / "ladder.json").read_text()) == data


def test_a_ladder_of_four_seats_plays_the_pair_alternately(tmp_path) -> None:
    args = ["ladder", "knock_rummy", "--players", "4", "--bots", "greedy,careful", "--games",
            "20", "--workers", "1", "--out", str(tmp_path / "d"),
            "--page", str(tmp_path / "p")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (table,) = json.loads((tmp_path / "p" / "ladder.json").read_text())["tables"]
    assert table["players"] == 4 and table["pairs"][0]["games"] == 80


def test_bad_ladders_exit_2_naming_the_problem_and_write_nothing(tmp_path) -> None:
    out = tmp_path / "data"
    solo = tmp_path / "solo.toml"  # an experiment whose line-ups are one bot each
    solo.write_text('name = "solo"\nseed = 1\nhands = 10\nplayers = [2]\n'
                    'lineups = ["greedy", "careful"]\nbaseline = "b"\n\n'
                    '[[arms]]\nname = "b"\nvariant = "rummy_basic"\n')  # fmt: skip
    for args, words in [
        (["gin_rummy", "--players", "3"], "3 players is not allowed"),
        (["rummy_basic", "--bots", "greedy,simple"], "knock families"),
        (["no_such_thing"], "no_such_thing"),
        ([str(solo)], "no line-up of two bots"),
        ([str(solo), "--bots", "greedy,careful"], "go with a variant"),
        ([str(solo), "--shard-size", "10"], "go with a variant"),
        (["gin_rummy", "--shard-size", "0"], "shard_size"),
        (["gin_rummy", "--games", "100000", "--shard-size", "1"], "shards"),
    ]:
        result = runner.invoke(app, ["ladder", *args, "--out", str(out)])
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output, (args, result.output)
        assert "Traceback" not in result.output
    assert not out.exists()


def test_a_shard_size_spreads_a_ladder_over_shards(tmp_path) -> None:
    """``--shard-size``: a ladder of 30 games in shards of 10 plays 3 shards (each game in
    both seatings), which the workers share; without it the same ladder is one shard."""
    args = ["ladder", "gin_rummy", "--bots", "simple,random", "--games", "30",
            "--shard-size", "10", "--workers", "2", "--out", str(tmp_path / "d"),
            "--page", str(tmp_path / "p")]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    manifest = json.loads((tmp_path / "d" / "ladder-gin_rummy-2p" / "manifest.json").read_text())
    assert [s["planned"] for s in manifest["shards"]] == [20, 20, 20]
    (table,) = json.loads((tmp_path / "p" / "ladder.json").read_text())["tables"]
    assert table["pairs"][0]["games"] == 60
    whole = ["ladder", "gin_rummy", "--bots", "simple,random", "--games", "30", "--workers",
             "1", "--out", str(tmp_path / "d1"), "--page", str(tmp_path / "p1")]  # fmt: skip
    assert runner.invoke(app, whole).exit_code == 0
    one = json.loads((tmp_path / "d1" / "ladder-gin_rummy-2p" / "manifest.json").read_text())
    assert [s["planned"] for s in one["shards"]] == [60]
