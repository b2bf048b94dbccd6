"""What a ladder plays (sim/ladder/plan.py) and the shipped every-variant ladder."""

from __future__ import annotations

import tomllib

import pytest

from sim.engine.rows import MC_BOTS
from sim.ladder.plan import (
    LADDER_BOTS,
    fitting_bots,
    ladder_text,
    pair_lineups,
    shipped_ladder_text,
)
from sim.rules import ConfigError, load_variant
from sim.rules.loader import variants_dir
from sim.runner.experiment import experiments_dir, load_experiment

pytestmark = pytest.mark.nojit


def test_pairs_sit_alternately_and_an_odd_table_plays_both_ways() -> None:
    assert pair_lineups("a", "b", 2) == [["a", "b"]]
    assert pair_lineups("a", "b", 4) == [["a", "b"]]
    assert pair_lineups("a", "b", 3) == [["a", "b", "a"], ["b", "a", "b"]]
    assert pair_lineups("a", "b", 5) == [["a", "b", "a", "b", "a"], ["b", "a", "b", "a", "b"]]


def test_a_variants_ladder_is_an_experiment_of_every_pair_on_mirrored_deals(tmp_path) -> None:
    path = tmp_path / "ladder.toml"
    path.write_text(ladder_text("gin_rummy", 2, games=7, seed=3))
    exp = load_experiment(path)
    assert exp.mirror and exp.unit == "games" and exp.per_arm == 7 and exp.seed == 3
    lineups = {arm.bots for arm in exp.arms}
    bots = fitting_bots(load_variant("gin_rummy"), None, "gin_rummy")
    assert "simple" in bots and len(lineups) == len(bots) * (len(bots) - 1) // 2
    assert not set(bots) & set(MC_BOTS)  # the Monte Carlo bots play only when named
    assert all(len(set(b)) == 2 for b in lineups)
    # at 3 players each pair is played both ways round
    path.write_text(ladder_text("rummy_basic", 3, ["greedy", "careful"], games=5))
    assert {arm.bots for arm in load_experiment(path).arms} == {
        ("greedy", "careful", "greedy"),
        ("careful", "greedy", "careful"),
    }


def test_a_winner_deals_variant_is_laddered_with_the_deal_passing_left(tmp_path) -> None:
    variant = tmp_path / "wd.toml"
    variant.write_text(
        'extends = "rummy_basic"\ndescription = "winner deals"\n\n'
        '[rules]\ndealer_rotation = "winner_deals"\n'
    )
    text = ladder_text(str(variant), 2, ["greedy", "careful"], games=5)
    assert 'dealer_rotation = "left"' in text
    path = tmp_path / "l.toml"
    path.write_text(text)
    assert all(arm.rules.dealer_rotation == "left" for arm in load_experiment(path).arms)


@pytest.mark.parametrize(
    ("variant", "players", "bots", "words"),
    [
        ("gin_rummy", 3, None, "3 players is not allowed"),
        ("rummy_basic", 2, ["greedy", "simple"], "knock families"),
        ("rummy_basic", 2, ["greedy", "cheater"], "cheater"),
        ("rummy_basic", 2, ["greedy", "greedy"], "twice"),
        ("rummy_basic", 2, ["greedy"], "at least two"),
        ("no_such_variant", 2, None, "no_such_variant"),
    ],
)
def test_a_bad_ladder_is_refused_naming_the_problem(variant, players, bots, words) -> None:
    with pytest.raises(ConfigError, match=words):
        ladder_text(variant, players, bots)


def test_the_shipped_ladder_is_what_the_plan_writes_and_covers_every_variant() -> None:
    """configs/experiments/ladder.toml: every variant at 2 players, and at 4 where it allows
    4 (not gin_rummy_3p: 3 players only, a loser who sits out), with every pair of the
    ladder's bots that fit it; regenerate it with `python -m sim.ladder.plan`."""
    path = experiments_dir() / "ladder.toml"
    assert path.read_text() == shipped_ladder_text(variants_dir()), "run python -m sim.ladder.plan"
    arms = {arm["variant"]: arm for arm in tomllib.loads(path.read_text())["arms"]}
    for file in sorted(variants_dir().glob("*.toml")):
        if "@" in file.stem or file.stem == "gin_rummy_3p":
            continue
        rules = load_variant(file.stem)
        assert arms[file.stem]["players"] == [k for k in (2, 4) if k in rules.player_counts]
        bots = [b for b in LADDER_BOTS if b in fitting_bots(rules, None, file.stem)]
        assert len(arms[file.stem]["lineups"]) == len(bots) * (len(bots) - 1) // 2
    exp = load_experiment("ladder")
    assert exp.mirror and all(len(set(arm.bots)) == 2 for arm in exp.arms)
