"""Experiment files: the shipped ones load, grids expand, and every kind of mistake is named
with its file and key before anything runs (exit code 2)."""

from __future__ import annotations

import pytest

from sim.rules import ConfigError
from sim.runner.experiment import list_experiments, load_experiment
from tests.runner.helpers import SMALL, cli, write_experiment


def test_the_default_experiment_compares_every_house_rule_at_2_and_4_players():
    exp = load_experiment("house-rules")
    assert exp.per_arm == 500_000 and exp.unit == "hands"
    names = {r.name for r in exp.rulesets}
    assert names == {
        "basic",
        "ace_high",
        "ace_high_10",
        "ace_high_or_low",
        "ace_high_or_low_15",
        "around_the_corner",
        "around_the_corner_11",
        "block_difference",
        "block_totals",
        "rummy_double",
        "rummy_bonus10",
    }
    assert {a.players for a in exp.arms} == {2, 4}
    # three styles of play (issue #34): the mixed line-up goes round the table
    assert {a.lineup for a in exp.arms} == {
        "greedy",
        "careful",
        "careful+greedy",
        "careful+greedy+careful+greedy",
    }
    assert len(exp.arms) == 11 * 2 * 3
    for arm in exp.arms:
        assert arm.baseline == f"basic-{arm.players}p-{arm.lineup}"
    rules = {r.name: r.rules for r in exp.rulesets}
    assert rules["ace_high"].ace_rank == "high"
    assert rules["around_the_corner"].ace_rank == "around_corner"
    # the rank alone, then rank and points together (issue #30 point 2, RULES.md §2A.5)
    assert [rules[n].ace_value for n in ("ace_high", "ace_high_or_low", "around_the_corner")] == [
        1,
        1,
        1,
    ]
    assert [
        rules[n].ace_value for n in ("ace_high_10", "ace_high_or_low_15", "around_the_corner_11")
    ] == [10, 15, 11]
    assert rules["block_difference"].stock_exhaustion == "block_difference"
    assert rules["block_totals"].stock_exhaustion == "block_totals"
    assert rules["rummy_double"].going_rummy == "double"
    assert rules["rummy_bonus10"].going_rummy == "bonus:10"


def test_the_gin_experiment_compares_gin_house_rules_with_the_reference_bot():
    exp = load_experiment("gin-rules")
    assert exp.unit == "games"
    assert {r.rules.family for r in exp.rulesets} == {"gin"}
    assert {a.lineup for a in exp.arms} >= {"simple", "careful"}
    for arm in exp.arms:
        assert arm.baseline == f"gin-2p-{arm.lineup}"


def test_every_shipped_experiment_is_valid():
    names = [name for name, _ in list_experiments()]
    assert names == [
        "chip-games",
        "fast",
        "gin-rules",
        "house-rules",
        "ladder",
        "restricted-bots",
        "wild-cards",
    ]
    for name in names:
        assert load_experiment(name).arms


def test_a_grid_makes_one_rule_set_per_combination(tmp_path):
    text = (
        SMALL
        + """
[[grids]]
name = "g"
variant = "rummy_basic"
toggles = { ace_rank = ["high", "around_corner"], going_rummy = ["off", "bonus:10"] }
"""
    )
    exp = load_experiment(write_experiment(tmp_path, text))
    grid = [r for r in exp.rulesets if r.name.startswith("g.")]
    assert sorted(r.name for r in grid) == [
        "g.around_corner.bonus10",
        "g.around_corner.off",
        "g.high.bonus10",
        "g.high.off",
    ]
    cell = next(r for r in grid if r.name == "g.around_corner.bonus10")
    assert cell.rules.ace_rank == "around_corner" and cell.rules.going_rummy == "bonus:10"
    assert len(exp.arms) == 6


def test_mixed_lineups_repeat_round_the_table(tmp_path):
    text = SMALL.replace("players = [2]", "players = [2, 4]").replace(
        'lineups = ["greedy"]', 'lineups = [["careful", "greedy"]]'
    )
    exp = load_experiment(write_experiment(tmp_path, text))
    four = next(a for a in exp.arms if a.players == 4)
    assert four.bots == ("careful", "greedy", "careful", "greedy")
    assert four.name == "basic-4p-careful+greedy+careful+greedy"


def test_scaling_changes_only_the_amount():
    exp = load_experiment("house-rules").scaled(hands=5000)
    assert exp.per_arm == 5000 and exp.unit == "hands" and len(exp.arms) == 66
    games = exp.scaled(games=10)
    assert games.unit == "games" and games.per_arm == 10


BAD = [
    # (what to change in SMALL, the key the message must name, words it must contain)
    (("seed = 7", "sed = 7"), "sed", "did you mean 'seed'"),
    (("seed = 7\n", ""), "seed", "missing"),
    (("hands = 3000", "hands = -5"), "hands", ">= 1"),
    (("hands = 3000", 'hands = "many"'), "hands", "'many'"),
    (('rules = { ace_rank = "high" }', 'rules = { ace_rank = "sideways" }'), "ace_rank", "low"),
    (('rules = { ace_rank = "high" }', "rules = { ace_rnk = 1 }"), "ace_rnk", "ace_rank"),
    (('variant = "rummy_basic"\n\n[[arms]]', 'variant = "nope"\n\n[[arms]]'), "variant", "nope"),
    (("players = [2]", "players = [9]"), "players", "2..6"),
    (("players = [2]", "players = [1]"), "players", "2"),
    (('baseline = "basic"', 'baseline = "base"'), "baseline", "ace_high"),
    (('lineups = ["greedy"]', 'lineups = ["cheater"]'), "lineups[0]", "careful"),
    (('lineups = ["greedy"]', 'lineups = [["greedy", "greedy", "careful"]]'), "lineups[0]", "3"),
    (('name = "basic"', 'name = "Basic Rummy"'), "arms[0].name", "lower-case"),
    (('name = "ace_high"', 'name = "basic"'), "arms", "both named"),
    (("shard_size = 1000", "shard_size = 1000\ngames = 5"), "games", "not both"),
    (('lineups = ["greedy"]', 'lineups = ["simple"]'), "lineups[0]", "knock families"),
]


@pytest.mark.parametrize(("change", "key", "words"), BAD, ids=[b[1] for b in BAD])
def test_a_bad_experiment_names_the_file_and_key(tmp_path, change, key, words):
    old, new = change
    assert old in SMALL
    path = write_experiment(tmp_path, SMALL.replace(old, new, 1))
    with pytest.raises(ConfigError) as caught:
        load_experiment(path)
    message = str(caught.value)
    assert "small.toml" in message and f"{key}'" in message and words in message, message


def test_toml_syntax_errors_name_the_line(tmp_path):
    path = write_experiment(tmp_path, SMALL + "\n[[arms]\n")
    with pytest.raises(ConfigError) as caught:
        load_experiment(path)
    assert "small.toml" in str(caught.value) and "line" in str(caught.value)


def test_the_cli_exits_2_and_writes_nothing_on_a_bad_experiment(tmp_path):
    path = write_experiment(tmp_path, SMALL.replace('"high"', '"sideways"'))
    done = cli("run", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "small.toml" in done.stderr and "sideways" in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_unknown_experiment_name_lists_the_shipped_ones(tmp_path):
    done = cli("run", "no-such-experiment", "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "house-rules" in done.stderr


def test_validate_lists_the_arms_of_an_experiment():
    done = cli("validate", "house-rules")
    assert done.returncode == 0 and done.stdout.rstrip().endswith("valid")
    assert "66 arms" in done.stdout and "rummy_bonus10-4p-careful" in done.stdout


def test_validate_rejects_a_bad_experiment_with_exit_2(tmp_path):
    path = write_experiment(tmp_path, SMALL.replace("seed = 7", "seed = -7"))
    done = cli("validate", str(path))
    assert done.returncode == 2 and "small.toml" in done.stderr and "'seed'" in done.stderr


def test_a_grid_error_names_the_toggle_and_the_combination(tmp_path):
    text = (
        SMALL
        + """
[[grids]]
name = "g"
variant = "rummy_basic"
toggles = { game_end = ["penalty_limit:50"], ace_rank = ["high"] }
"""
    )
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, text))
    message = str(caught.value)
    assert "'grids[0].toggles.game_end'" in message and "ace_rank = 'high'" in message


def test_a_missing_variant_file_is_named_at_its_key(tmp_path):
    text = SMALL.replace(
        'variant = "rummy_basic"', 'variant = "configs/variants/rummy_basc.toml"', 1
    )
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, text))
    message = str(caught.value)
    assert "small.toml" in message and "'arms[0].variant'" in message and "rummy_basc" in message


def test_a_huge_grid_is_refused_before_it_is_built(tmp_path):
    values = ", ".join(str(100 + i) for i in range(300))
    grid = f"""
[[grids]]
name = "g"
variant = "rummy_basic"
toggles = {{ turn_cap = [{values}], hand_cap = [{values}] }}
"""
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, SMALL + grid))
    assert "90000 combinations" in str(caught.value)


def test_a_plan_with_too_many_shards_is_refused(tmp_path):
    text = SMALL.replace("hands = 3000", "hands = 10_000_000_000").replace(
        "shard_size = 1000", "shard_size = 10"
    )
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, text))
    assert "shards" in str(caught.value) and "'shard_size'" in str(caught.value)
    with pytest.raises(ConfigError):
        load_experiment("house-rules").scaled(hands=10**12)


def test_the_experiments_command_lists_every_shipped_file_with_its_description():
    """Issue #30 point 7: a user finds the shipped experiments without reading the repo."""
    done = cli("experiments")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for name, _ in list_experiments():
        assert name in text
    assert "66" in text and "500,000 hands" in text  # house-rules: arms and amount
    assert "A one-minute first look" in text


def test_the_fast_experiment_is_small():
    exp = load_experiment("fast")
    assert len(exp.arms) == 3 and exp.per_arm * len(exp.arms) <= 1_000_000


def test_an_experiment_may_set_practical_bands(tmp_path):
    """Issue #30 point 1: ``[bands]`` sets a metric's practical-equivalence band; unknown
    metrics and bands that are not positive numbers are refused, naming the key."""
    exp = load_experiment(write_experiment(tmp_path, SMALL + "\n[bands]\nturns_mean = 2.5\n"))
    assert exp.bands == {"turns_mean": 2.5}
    for text, key in (
        ("[bands]\nturns = 2\n", "bands.turns"),
        ("[bands]\nshare_stalled = 0\n", "bands.share_stalled"),
        ('[bands]\nturns_mean = "wide"\n', "bands.turns_mean"),
    ):
        with pytest.raises(ConfigError) as err:
            load_experiment(write_experiment(tmp_path, SMALL + "\n" + text, name="b.toml"))
        assert err.value.key == key


def test_an_experiment_may_set_the_time_model(tmp_path):
    """Issue #30 point 1: ``[time]`` sets the seconds an action takes at the table
    (``sim.dataset.timing``), recorded in the manifest for the report; unknown actions and
    times that are not 0 to 3,600 seconds are refused, naming the key."""
    from sim.dataset.timing import DEFAULT_SECONDS, time_model

    text = SMALL + "\n[time]\nturn = 9\nrebuild = 0\n"
    exp = load_experiment(write_experiment(tmp_path, text))
    assert exp.time == {"turn": 9.0, "rebuild": 0.0}
    manifest = {"experiment": {"time": dict(exp.time)}}
    assert time_model(manifest) == DEFAULT_SECONDS | {"turn": 9.0, "rebuild": 0.0}
    assert time_model({}) == DEFAULT_SECONDS
    for text, key in (
        ("[time]\nshuffle = 20\n", "time.shuffle"),
        ("[time]\nmeld = -1\n", "time.meld"),
        ("[time]\nlayoff = 3601\n", "time.layoff"),
        ('[time]\nturn = "slow"\n', "time.turn"),
    ):
        with pytest.raises(ConfigError) as err:
            load_experiment(write_experiment(tmp_path, SMALL + "\n" + text, name="b.toml"))
        assert err.value.key == key


def test_an_arm_may_have_its_own_seed(tmp_path):
    """Issue #30 point 3: replications and A/A checks: an arm's ``seed`` replaces the
    experiment's for its deals; the other arms keep the experiment's."""
    text = SMALL + '\n[[arms]]\nname = "again"\nvariant = "rummy_basic"\nseed = 99\n'
    exp = load_experiment(write_experiment(tmp_path, text))
    seeds = {a.name: a.seed for a in exp.arms}
    assert seeds == {"basic-2p-greedy": 7, "ace_high-2p-greedy": 7, "again-2p-greedy": 99}
    with pytest.raises(ConfigError) as err:
        load_experiment(write_experiment(tmp_path, text.replace("99", "-1"), name="b.toml"))
    assert err.value.key == "arms[2].seed"


def test_an_arm_may_have_its_own_lineups(tmp_path):
    """``lineups`` in an ``[[arms]]`` entry replaces the experiment's for that rule set (a
    ladder's pairs of the bots that fit each game); an arm whose line-up its baseline does not
    play is compared with nothing; a line-up that does not fit is refused at its own key."""
    text = SMALL + (
        '\n[[arms]]\nname = "gin"\nvariant = "gin_rummy"\nbaseline = "gin"\n'
        'lineups = [["careful", "simple"], "greedy"]\n'
    )
    exp = load_experiment(write_experiment(tmp_path, text))
    assert {a.name: a.baseline for a in exp.arms} == {
        "basic-2p-greedy": "basic-2p-greedy",
        "ace_high-2p-greedy": "basic-2p-greedy",
        "gin-2p-careful+simple": "gin-2p-careful+simple",
        "gin-2p-greedy": "gin-2p-greedy",
    }
    mine = text + '\n[[arms]]\nname = "own"\nvariant = "rummy_basic"\nlineups = [["careful"]]\n'
    arms = {a.name: a.baseline for a in load_experiment(write_experiment(tmp_path, mine)).arms}
    assert arms["own-2p-careful"] == "own-2p-careful"  # the baseline plays greedy only
    bad = text.replace('["careful", "simple"]', '["careful", "simple", "greedy"]')
    with pytest.raises(ConfigError, match="does not fit 2 players") as err:
        load_experiment(write_experiment(tmp_path, bad, name="b.toml"))
    assert err.value.key == "arms[2].lineups[0]"
    unfit = text.replace('variant = "gin_rummy"', 'variant = "rummy_basic"')
    with pytest.raises(ConfigError, match="knock families") as err:
        load_experiment(write_experiment(tmp_path, unfit, name="c.toml"))
    assert err.value.key == "arms[2].lineups[0]"


def test_a_rule_set_may_be_compared_with_a_baseline_of_its_own_game(tmp_path):
    """One experiment, two games (configs/experiments/wild-cards.toml): a rule set naming
    itself as ``baseline`` is its game's baseline, and the rule sets naming it are compared
    with it; the others with the experiment's baseline."""
    text = SMALL + (
        '\n[[arms]]\nname = "block"\nvariant = "block_rummy"\nbaseline = "block"\n'
        '\n[[arms]]\nname = "block_totals"\nvariant = "block_rummy@002"\nbaseline = "block"\n'
        '\n[[grids]]\nname = "g"\nvariant = "block_rummy"\nbaseline = "block"\n'
        'toggles = { going_rummy = ["double"] }\n'
    )
    exp = load_experiment(write_experiment(tmp_path, text))
    bases = {a.name: a.baseline for a in exp.arms}
    assert bases == {
        "basic-2p-greedy": "basic-2p-greedy",
        "ace_high-2p-greedy": "basic-2p-greedy",
        "block-2p-greedy": "block-2p-greedy",
        "block_totals-2p-greedy": "block-2p-greedy",
        "g.double-2p-greedy": "block-2p-greedy",
    }
    wrong = text.replace(
        'name = "block_totals"\nvariant = "block_rummy@002"\nbaseline = "block"',
        'name = "block_totals"\nvariant = "block_rummy@002"\nbaseline = "ace_high"',
    )
    with pytest.raises(ConfigError, match="'ace_high', which is not a rule set compared") as err:
        load_experiment(write_experiment(tmp_path, wrong, name="b.toml"))
    assert err.value.key == "baseline"


def test_the_wild_cards_experiment_compares_each_game_with_its_own_rules():
    exp = load_experiment("wild-cards")
    thresholds = {
        r.name: r.rules.values["initial_meld_min"] for r in exp.rulesets if "open" in r.name
    }
    assert sorted(set(thresholds.values())) == [0, 30, 40, 51]
    for arm in exp.arms:
        game = arm.ruleset.name.split(".")[0]
        assert arm.baseline.startswith(game + "-"), arm.name
    assert {a.players for a in exp.arms} == {2, 3, 4}


NEW_BOTS = ("careful-nodiscardtake", "careful-nolayoff", "careful-outfirst", "camper")


def test_the_restricted_bots_and_camper_make_arms_and_folders(tmp_path):
    # docs/bots.md, "Restricted play": the names come from rows.BOT_NAMES; their "-" is
    # safe in arm names and the dataset's arm=<name> folders
    lineups = ", ".join(f'["{b}", "simple"]' for b in NEW_BOTS)
    text = (
        SMALL.replace('variant = "rummy_basic"', 'variant = "gin_rummy"')
        .replace('rules = { ace_rank = "high" }', "rules = { gin_bonus = 20 }")
        .replace('lineups = ["greedy"]', f'lineups = [{lineups}, "camper"]')
        .replace("hands = 3000\nshard_size = 1000", "games = 4\nshard_size = 4")
    )
    path = write_experiment(tmp_path, text)
    exp = load_experiment(path)
    names = {a.name for a in exp.arms}
    for bot in NEW_BOTS:
        assert f"basic-2p-{bot}+simple" in names
    assert "basic-2p-camper" in names
    done = cli("run", str(path), "--out", str(tmp_path / "out"), "--workers", "1")
    assert done.returncode == 0, done.stderr
    games = tmp_path / "out" / "small" / "games"
    assert (games / "arm=basic-2p-careful-nolayoff+simple").is_dir()
    assert (games / "arm=ace_high-2p-camper").is_dir()


def test_a_rummy_experiment_accepts_the_new_bots_and_names_them_when_refusing_simple(tmp_path):
    text = SMALL.replace('lineups = ["greedy"]', 'lineups = [["camper", "careful-outfirst"]]')
    exp = load_experiment(write_experiment(tmp_path, text))
    assert {a.bots for a in exp.arms} == {("camper", "careful-outfirst")}
    bad = SMALL.replace('lineups = ["greedy"]', 'lineups = [["simple", "camper"]]')
    with pytest.raises(ConfigError) as caught:
        load_experiment(write_experiment(tmp_path, bad))
    assert "careful-nodiscardtake" in str(caught.value) and "simple," not in str(caught.value)
