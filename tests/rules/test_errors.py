"""Every kind of ConfigError: message content, and exit code 2 through the CLI."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.engine.api import compile_rules
from sim.rules import ConfigError, load_variant, validate_file, variants_dir


def error_of(path) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        validate_file(path)
    return info.value


def cli_error(path) -> str:
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 2, result.output
    return result.stderr


def test_message_format_names_file_key_value_and_allowed(write):
    path = write("x", tables='[rules]\nace_rank = "sideways"\n')
    err = error_of(path)
    assert str(err) == (
        f"{path}: key 'ace_rank': 'sideways' is not allowed; "
        "allowed: low, high, high_or_low, around_corner"
    )
    assert (err.key, err.value) == ("ace_rank", "sideways")
    assert err.allowed == "low, high, high_or_low, around_corner"
    assert str(err) in cli_error(path)


def test_message_path_is_relative_to_project_root():
    err = ConfigError("bad", file=variants_dir() / "x.toml", key="k")
    assert str(err) == "configs/variants/x.toml: key 'k': bad"


def test_unknown_rules_key_suggests_closest_name(write):
    path = write("x", tables='[rules]\nace_rnk = "low"\n')
    message = str(error_of(path))
    assert "key 'ace_rnk': unknown setting in [rules]; did you mean 'ace_rank'?" in message
    assert "did you mean 'ace_rank'" in cli_error(path)


def test_unknown_top_level_key_suggests_closest_name(write):
    path = write("x", top="descripton = 'typo'\n")
    assert "key 'descripton': unknown key; did you mean 'description'?" in str(error_of(path))


def test_toggle_at_top_level_is_pointed_to_its_table(write):
    path = write("x", top="ace_rank = 'high'\n")
    assert "key 'ace_rank': a setting belongs in the [rules] table" in str(error_of(path))


def test_policy_setting_in_rules_table_is_pointed_to_policy(write):
    path = write("x", tables="[rules]\nturn_cap = 50\n")
    assert "key 'turn_cap': belongs in [policy], not [rules]" in str(error_of(path))


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("decks = '2'", "key 'decks': expected an integer, got string '2'; allowed: integer >= 1"),
        ("decks = 1.5", "key 'decks': expected an integer, got float 1.5; allowed: integer >= 1"),
        ("ace_rank = 3", "key 'ace_rank': expected a string, got integer 3; allowed: low, high"),
        ("upcard = 1", "expected true/false or 'on'/'off', got integer 1; allowed: on, off"),
        ("game_end = 100", "expected a string, got integer 100; allowed: target:T"),
        ("joker_points = 'x'", "expected an integer, got string 'x'; allowed: 2, 15, 25, 30"),
    ],
)
def test_wrong_type_says_what_is_allowed(write, line, expected):
    path = write("x", tables=f"[rules]\n{line}\n")
    assert expected in str(error_of(path))
    assert expected in cli_error(path)


@pytest.mark.parametrize(
    ("top", "expected"),
    [
        (
            "players = 'two'\n[deal]\n2 = 10\n",
            "key 'players': expected [low, high] player counts, got 'two'; "
            "allowed: [low, high] with low <= high within 2..12",
        ),
        (
            "players = [2, 2]\n[deal]\n2 = 'ten'\n",
            "key 'deal.2': expected an integer, got 'ten'; allowed: >= 1",
        ),
    ],
)
def test_wrong_type_of_players_or_deal_says_what_is_allowed(write, top, expected):
    path = write("x", raw=f"description = 'x'\nsection = '3.1'\n{top}")
    assert expected in str(error_of(path))
    assert expected in cli_error(path)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("decks = 0", "key 'decks': 0 is out of range; allowed: integer >= 1"),
        ("jokers = -1", "key 'jokers': -1 is out of range; allowed: integer >= 0"),
        ("joker_points = 20", "key 'joker_points': 20 is not allowed; allowed: 2, 15, 25, 30"),
        ("game_end = 'target:0'", "the number after 'target:' must be a positive integer"),
        ("game_end = 'first_to_win'", "'first_to_win' is not allowed; allowed: target:T"),
        ("going_rummy = 'double:3'", "'double' takes no number"),
    ],
)
def test_out_of_range_or_not_allowed(write, line, expected):
    path = write("x", tables=f"[rules]\n{line}\n")
    assert expected in str(error_of(path))
    assert expected in cli_error(path)


def test_policy_out_of_range(write):
    path = write("x", tables="[policy]\nturn_cap = 0\n")
    assert "key 'turn_cap': 0 is out of range; allowed: integer >= 1" in str(error_of(path))


@pytest.mark.parametrize(
    ("line", "section", "supported"),
    [
        ("decks = 5", "2A.1", "integer 1..4"),
        ("jokers = 9", "2A.2", "integer 0..8"),
    ],
)
def test_unsupported_value_names_section(write, line, section, supported):
    path = write("x", tables=f"[rules]\n{line}\n")
    message = str(error_of(path))
    assert f"is not supported by the engine yet (RULES.md §{section}); allowed: {supported}" in (
        message
    )
    assert "not supported by the engine yet" in cli_error(path)


def test_deuces_wild_outside_continental_names_3_11(write):
    path = write("x", tables="[rules]\ndeuces_wild = true\n")
    message = str(error_of(path))
    assert "key 'deuces_wild'" in message and "deuces_wild is played only by Continental" in message
    assert "(RULES.md §3.11)" in message


def test_unknown_variant_in_extends(write):
    path = write("x", top="extends = 'no_such_variant'\n")
    message = str(error_of(path))
    assert "key 'extends': unknown variant 'no_such_variant'; allowed: " in message
    assert "rummy_basic@002" in message
    assert "unknown variant" in cli_error(path)


def test_extends_cycle(write):
    write("a", raw="description = 'a'\nextends = 'b'\n")
    path = write("b", raw="description = 'b'\nextends = 'a'\n")
    message = str(error_of(path))
    assert "key 'extends': extends cycle: b -> a -> b" in message
    assert "extends cycle" in cli_error(path)


def test_extends_itself_is_a_cycle(write):
    path = write("self", raw="description = 's'\nextends = 'self'\n")
    assert "extends cycle: self -> self" in str(error_of(path))


def test_toml_syntax_error_gives_line(write):
    path = write("x", raw='description = "x"\nsection "3.1"\nplayers = [2, 6]\n')
    err = error_of(path)
    assert err.line == 2
    assert str(err).startswith(f"{path}: line 2: TOML syntax error: Expected '='")
    assert "line 2: TOML syntax error" in cli_error(path)


def test_toml_syntax_error_at_end_of_document_gives_last_line(write):
    path = write("x", raw='description = "x"\nsection = "3.1"\nplayers = [2, 6\n')
    assert str(error_of(path)).startswith(f"{path}: line 3: TOML syntax error: Unclosed array")


def test_syntax_error_in_parent_names_parent(write):
    parent = write("parent", raw="description = 'p'\nsection = \n")
    path = write("child", raw="description = 'c'\nextends = 'parent'\n")
    assert str(error_of(path)).startswith(f"{parent}: line 2: TOML syntax error")


def test_deal_bigger_than_shoe(write):
    path = write("x")
    path.write_text(path.read_text().replace("6 = 6", "6 = 9"))
    message = str(error_of(path))
    assert "key 'deal.6': 6 players x 9 cards + 1 upcard + 1 stock card = 56 cards" in message
    assert "but the shoe holds 52 (1 x 52 + 0 jokers)" in message
    assert "allowed: at most 8 cards each with 6 players and 1 pack(s)" in message
    assert "shoe holds" in cli_error(path)


def test_deal_that_exactly_fits_is_fine(write):
    path = write("x")
    path.write_text(path.read_text().replace("2 = 10", "2 = 25"))  # 50 + 1 + 1 = 52
    assert validate_file(path).deal_for(2) == (25, 1)
    path.write_text(path.read_text().replace("3 = 7", "3 = 17"))  # 51 + 1 + 1 = 53 > 52
    assert "key 'deal.3': 3 players x 17 cards + 1 upcard + 1 stock card = 53 cards" in str(
        error_of(path)
    )


def test_jokers_and_decks_count_in_the_shoe(write):
    path = write("x", tables="[rules]\njokers = 2\n")
    path.write_text(path.read_text().replace("2 = 10", "2 = 26"))  # 52 + 2 <= 54
    assert validate_file(path).deal_for(2) == (26, 1)


def test_player_range_outside_engine_limits(write):
    path = write("x", raw="description = 'x'\nsection = '3.1'\nplayers = [2, 13]\n[deal]\n2 = 1\n")
    message = str(error_of(path))
    assert (
        "key 'players': player range 2..13 is not allowed; allowed: low <= high within 2..12"
        in (message)
    )
    assert "player range" in cli_error(path)


def test_player_range_of_one_player(write):
    path = write("x", raw="description = 'x'\nsection = '3.1'\nplayers = [1, 2]\n[deal]\n2 = 1\n")
    assert "player range 1..2 is not allowed" in str(error_of(path))


def test_deal_missing_a_player_count(write):
    path = write("x")
    path.write_text(path.read_text().replace("4 = 7\n", ""))
    assert "key 'deal': no deal size for 4 players" in str(error_of(path))


def test_deal_for_a_player_count_outside_range(write):
    path = write("x", tables="")
    path.write_text(path.read_text() + "7 = 5\n")
    message = str(error_of(path))
    assert "key 'deal.7': 7 players is outside the variant's player range; allowed: 2..6" in message


def test_compile_refuses_player_count_outside_variant():
    rules = load_variant("rummy_basic")
    with pytest.raises(ConfigError) as info:
        compile_rules(rules, 7)
    assert str(info.value) == (
        "key 'players': 7 players is not allowed by variant 'rummy_basic'; allowed: 2..6"
    )
    with pytest.raises(ConfigError, match="1 players is not allowed"):
        compile_rules(rules, 1)


def test_penalty_scoring_needs_penalty_game_end(write):
    path = write("x", tables="[rules]\nscoring = 'penalty'\n")
    message = str(error_of(path))
    assert "key 'scoring': scoring 'penalty' needs a game end that counts penalties" in message
    assert "'penalty_limit:L', 'fixed_hands:N' or 'deals_each:R'" in message
    assert "needs a game end" in cli_error(path)


@pytest.mark.parametrize("end", ["penalty_limit:100", "fixed_hands:10", "penalty_limit"])
def test_penalty_scoring_with_penalty_game_end_is_fine(write, end):
    path = write("x", tables=f"[rules]\nscoring = 'penalty'\ngame_end = '{end}'\n")
    assert validate_file(path).scoring == "penalty"


@pytest.mark.parametrize("scoring", ["pip_to_winner", "per_card"])
def test_penalty_limit_needs_penalty_scoring(write, scoring):
    path = write("x", tables=f"[rules]\nscoring = '{scoring}'\ngame_end = 'penalty_limit:100'\n")
    message = str(error_of(path))
    assert f"key 'game_end': game_end 'penalty_limit' needs scoring 'penalty', not '{scoring}'" in (
        message
    )
    assert "needs scoring 'penalty'" in cli_error(path)


def test_fixed_hands_beyond_hand_cap(write):
    path = write("x", tables="[rules]\ngame_end = 'fixed_hands:50'\n[policy]\nhand_cap = 40\n")
    assert "a game of 50 hands would be cut by hand_cap = 40" in str(error_of(path))


def test_duplicate_groups_beyond_meld_capacity(write):
    path = write("x", tables="[rules]\ndecks = 4\ngroup_duplicates = 'allowed'\njokers = 1\n")
    message = str(error_of(path))
    assert "key 'group_duplicates'" in message and "17 cards" in message
    assert "not supported by the engine yet (RULES.md §2B.9)" in message


@pytest.mark.parametrize("end", ["target:100", "single_hand", "fixed_hands:5"])
def test_winner_deals_combines_with_anything(write, end):
    path = write("x", tables=f"[rules]\ndealer_rotation = 'winner_deals'\ngame_end = '{end}'\n")
    assert validate_file(path).dealer_rotation == "winner_deals"


def test_missing_description(write):
    path = write("x", raw="section = '3.1'\nplayers = [2, 2]\n[deal]\n2 = 10\n")
    assert "key 'description': missing" in str(error_of(path))


def test_multi_line_description(write):
    path = write("x", top="")
    path.write_text(path.read_text().replace('"a test variant (§3.1)"', '"""two\nlines"""'))
    assert "key 'description': expected a one-line, non-empty string" in str(error_of(path))


def test_missing_players_or_deal(write):
    path = write("x", raw="description = 'x'\nsection = '3.1'\n")
    assert "key 'players': missing (and not inherited through extends)" in str(error_of(path))


def test_bad_ace_points_auto(write):
    path = write("x", tables="[ace_points_auto]\nhigh_or_low = 12\n")
    message = str(error_of(path))
    assert "key 'ace_points_auto.high_or_low': 12 is not allowed; allowed: 1, 10, 11, 15" in message


def test_table_expected(write):
    path = write("x", top="rules = 3\n")
    # 'rules' as a scalar before [deal]
    assert "key 'rules': expected a table [rules], got 3" in str(error_of(path))


def test_unknown_variant_name():
    with pytest.raises(ConfigError, match="unknown variant 'rummy_basic@999'; allowed: "):
        load_variant("rummy_basic@999")


def test_missing_file(tmp_path):
    path = tmp_path / "nope.toml"
    with pytest.raises(ConfigError, match="file not found"):
        validate_file(path)
    assert "file not found" in cli_error(path)


def test_override_errors_name_the_source():
    source = "configs/experiments/e.toml"
    with pytest.raises(ConfigError) as info:
        load_variant("rummy_basic", overrides={"ace_rank": "sideways"}, source=source)
    assert str(info.value).startswith(f"{source}: key 'ace_rank': 'sideways' is not allowed")
    with pytest.raises(ConfigError, match="^<overrides>: key 'ace_rnk': unknown setting; did you"):
        load_variant("rummy_basic", overrides={"ace_rnk": "low"})


def test_override_contradiction_names_the_source():
    with pytest.raises(ConfigError) as info:
        load_variant("rummy_basic", overrides={"scoring": "penalty"}, source="exp.toml")
    assert str(info.value).startswith("exp.toml: key 'scoring': scoring 'penalty' needs")


def test_override_decks_beyond_engine_for_a_variant_with_decks_by_players():
    with pytest.raises(ConfigError, match="not supported by the engine yet"):
        load_variant("rummy_basic@003", overrides={"decks": 5})


def test_2D_24_initial_meld_needs_progressive_melding_and_a_one_card_draw(write):
    """Combinations the engine refuses, each naming the key (docs/variants.md)."""
    cases = [
        ("meld_timing = 'all_at_once'\ninitial_meld_min = 40\n", "initial_meld_min"),
        ("discard_draw = 'top_plus_one'\ninitial_meld_min = 40\n", "initial_meld_min"),
        ("discard_before_initial_meld = 'only_for_initial_meld'\n", "discard_before_initial_meld"),
        (
            "initial_meld_min = 40\ndiscard_draw = 'any_card'\nstock_exhaustion = 'shuffle_all'\n"
            "discard_before_initial_meld = 'only_for_initial_meld'\n",
            "discard_before_initial_meld",
        ),
    ]
    for lines, key in cases:
        path = write("x", tables=f"[rules]\n{lines}")
        assert f"key '{key}'" in str(error_of(path)), lines
