"""`rummysim ladder-diff` (sim/ladder/compare.py): two ladders of the same deals compared
game by game, on datasets whose answer is known and on a real ladder played twice."""

from __future__ import annotations

import math

import polars as pl
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.ladder.compare import compare
from sim.rules import ConfigError

runner = CliRunner()


def _ladder(root, winners: list[int], *, seed: int = 1) -> None:
    """A dataset of one 2-player table, careful in seat 0 against simple, as a ladder writes
    it: game ``i`` is deal ``i // 2`` at seat rotation ``i % 2`` (the deal's hands turned
    round the seats); ``winners[i]`` the winning seat (-1: nobody)."""
    n = len(winners)
    folder = root / "games" / "arm=t-careful+simple"
    folder.mkdir(parents=True)
    pl.DataFrame(
        {
            "ruleset": ["t"] * n,
            "variant": ["gin_rummy"] * n,
            "players": pl.Series([2] * n, dtype=pl.Int8),
            "seed": [seed] * n,
            "shard": [0] * n,
            "rotation": [i % 2 for i in range(n)],
            "game": [i // 2 for i in range(n)],
            "bots": [["careful", "simple"]] * n,
            "winner": pl.Series(winners, dtype=pl.Int8),
        }
    ).write_parquet(folder / "part-0.parquet")


@pytest.mark.nojit
def test_the_change_is_the_paired_mean_with_an_interval_clustered_by_deal(tmp_path) -> None:
    # careful wins games 0, 1 and 4 of 6 before; after, game 5 and no longer game 1: -1 in
    # deal 0 and +1 in deal 2
    _ladder(tmp_path / "a", [0, 0, 1, 1, 0, 1])
    _ladder(tmp_path / "b", [0, 1, 1, 1, 0, 0])
    (c,) = compare(tmp_path / "a", tmp_path / "b")
    assert (c.ruleset, c.players, c.a, c.b, c.games) == ("t", 2, "careful", "simple", 6)
    assert c.before == pytest.approx(3 / 6) and c.after == pytest.approx(3 / 6)
    assert c.change == 0.0 and c.changed == 2
    # the deals' changes -1, 0, +1 about a mean of 0: se = sqrt(3 / 2 * 2) / 6
    half = 1.959963984540054 * math.sqrt(3.0) / 6
    assert (c.low, c.high) == pytest.approx((-half, half))


@pytest.mark.nojit
def test_a_game_nobody_won_counts_as_no_win(tmp_path) -> None:
    _ladder(tmp_path / "a", [0, 1, -1, 0])
    _ladder(tmp_path / "b", [0, 1, 0, 0])
    (c,) = compare(tmp_path / "a", tmp_path / "b")
    assert c.before == pytest.approx(2 / 4) and c.after == pytest.approx(3 / 4)
    assert c.change == pytest.approx(1 / 4) and c.changed == 1


@pytest.mark.nojit
def test_ladders_of_other_deals_are_refused_naming_why(tmp_path) -> None:
    _ladder(tmp_path / "a", [0, 1, 0, 1])
    _ladder(tmp_path / "b", [0, 1, 0, 1], seed=2)
    with pytest.raises(ConfigError, match="not played on the same deals"):
        compare(tmp_path / "a", tmp_path / "b")
    _ladder(tmp_path / "c", [0, 1])  # fewer games
    with pytest.raises(ConfigError, match="2 games of the first and 0 of the second"):
        compare(tmp_path / "a", tmp_path / "c")
    result = runner.invoke(app, ["ladder-diff", str(tmp_path / "a"), str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and "not a dataset folder" in result.output


def test_a_ladder_played_twice_on_the_same_deals_has_not_changed(tmp_path) -> None:
    """The engine is deterministic: the same ladder again is the same games, so every pair's
    change is 0 with no game changed, and the command prints it."""
    roots = []
    for name in ("one", "two"):
        args = ["ladder", "gin_rummy", "--bots", "careful,simple,random", "--games", "20",
                "--seed", "5", "--workers", "1", "--out", str(tmp_path / name),
                "--page", str(tmp_path / f"{name}-page")]  # fmt: skip
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        roots.append(tmp_path / name / "ladder-gin_rummy-2p")
    changes = compare(*roots)
    assert len(changes) == 3
    assert all(c.change == 0.0 and c.changed == 0 and c.games == 40 for c in changes)
    result = runner.invoke(app, ["ladder-diff", str(roots[0]), str(roots[1])])
    assert result.exit_code == 0, result.output
    words = result.output.split()
    assert "careful" in words and "random" in words and words.count("+0.0") >= 3
