"""Variant files: extends, overrides, listing, and the resolved-TOML round trip."""

from __future__ import annotations

import pickle

import pytest

from sim.rules import (
    ConfigError,
    Rules,
    list_variants,
    load_variant,
    rules_from_toml,
    rules_to_toml,
    validate_file,
    variants_dir,
)

SHIPPED = [path.stem for path in sorted(variants_dir().glob("*.toml"))]


def test_variants_dir_holds_the_shipped_files():
    assert variants_dir().name == "variants"
    assert {
        "rummy_basic",
        "rummy_basic@000",
        "rummy_basic@002",
        "rummy_basic@003",
        "rummy_basic@004",
        "around_the_corner",
        "block_rummy",
        "block_rummy@000",
        "block_rummy@002",
        "throw_down_rummy",
    } <= set(SHIPPED)


def test_list_variants_gives_names_and_one_line_descriptions():
    listed = list_variants()
    assert [name for name, _ in listed] == sorted(SHIPPED)
    for name, description in listed:
        assert description and "\n" not in description, name
        assert "§" in description, f"{name}: the description should cite its RULES.md section"


def test_load_by_name_and_by_path_agree():
    path = variants_dir() / "rummy_basic@002.toml"
    assert load_variant("rummy_basic@002") == load_variant(path) == validate_file(path)
    assert load_variant(str(path)).name == "rummy_basic@002"


def test_extends_merges_rules_and_keeps_parent_deal(write):
    write("parent", tables="[rules]\nace_rank = 'high'\ngame_end = 'target:300'\n")
    child = write(
        "child",
        raw="""\
        description = "child (§3.1)"
        extends = "parent"
        [rules]
        game_end = "target:50"
        """,
    )
    rules = validate_file(child)
    assert rules.name == "child"
    assert rules.description == "child (§3.1)"
    assert rules.ace_rank == "high"  # inherited
    assert rules.game_end == "target:50"  # overridden
    assert rules.deal_for(3) == (7, 1)  # inherited [deal]


def test_extends_replaces_deal_whole(write):
    write("parent")
    child = write(
        "child",
        raw="""\
        description = "child"
        extends = "parent"
        players = [2, 3]
        [deal]
        2 = 9
        3 = 8
        """,
    )
    rules = validate_file(child)
    assert dict(rules.deal) == {2: 9, 3: 8}


def test_extends_a_shipped_variant_from_elsewhere(write):
    path = write("mine", raw='description = "mine"\nextends = "rummy_basic@004"\n')
    rules = validate_file(path)
    assert rules.going_rummy == "double"
    assert rules.section == "3.1"


def test_chain_of_three(write):
    write("a", tables="[rules]\nrun_suit = 'any_suit'\n[policy]\nturn_cap = 100\n")
    write("b", raw="description = 'b'\nextends = 'a'\n[rules]\nmelds_per_turn = 'one'\n")
    c = write("c", raw="description = 'c'\nextends = 'b'\n[policy]\nhand_cap = 20\n")
    rules = validate_file(c)
    assert (rules.run_suit, rules.melds_per_turn) == ("any_suit", "one")
    assert (rules.turn_cap, rules.hand_cap) == (100, 20)


def test_overrides_apply_on_top():
    rules = load_variant("rummy_basic@002", overrides={"going_rummy": "bonus", "turn_cap": 50})
    assert rules.going_rummy == "bonus:10"
    assert rules.option("going_rummy") == ("bonus", 10)
    assert rules.turn_cap == 50
    assert rules.melds_per_turn == "one"  # the file's value is kept


def test_override_changes_nothing_else():
    base = load_variant("rummy_basic@004")
    changed = load_variant("rummy_basic@004", overrides={"run_suit": "any_suit"})
    assert {k for k in base.values if base[k] != changed[k]} == {"run_suit"}


def test_switch_accepts_on_off_words():
    rules = load_variant("rummy_basic", overrides={"must_discard_to_go_out": "on"})
    assert rules.must_discard_to_go_out is True


def test_jokers_in_003_and_ace_auto_means_11_there():
    rules = load_variant("rummy_basic@003", overrides={"jokers": 2, "ace_rank": "high_or_low"})
    assert rules.ace_value == 11
    assert load_variant("rummy_basic", overrides={"ace_rank": "high_or_low"}).ace_value == 15


@pytest.mark.parametrize("name", SHIPPED)
def test_rules_to_toml_round_trip(name):
    rules = load_variant(name)
    text = rules_to_toml(rules)
    again = rules_from_toml(text)
    assert again == rules
    assert rules_to_toml(again) == text


def test_rules_to_toml_lists_every_setting():
    text = rules_to_toml(load_variant("rummy_basic"))
    for name in load_variant("rummy_basic").values:
        assert f"\n{name} = " in text


def test_round_trip_of_non_default_values(tmp_path):
    rules = load_variant(
        "rummy_basic@003",
        overrides={
            "jokers": 4,
            "ace_rank": "around_corner",
            "must_discard_to_go_out": True,
            "scoring": "penalty",
            "game_end": "fixed_hands:12",
            "dealer_rotation": "winner_deals",
            "hand_cap": 30,
        },
    )
    path = tmp_path / "resolved.toml"
    path.write_text(rules_to_toml(rules), encoding="utf-8")
    assert validate_file(path) == rules


def test_rules_pickle_and_hash():
    rules = load_variant("rummy_basic@003")
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert hash(load_variant("rummy_basic@003")) == hash(rules)
    assert len({rules, load_variant("rummy_basic@003"), load_variant("rummy_basic")}) == 2


def test_rules_are_frozen():
    rules = load_variant("rummy_basic")
    with pytest.raises(AttributeError):
        rules.name = "other"
    with pytest.raises(TypeError):
        rules.values["ace_rank"] = "high"


def test_rules_built_in_python_fill_defaults_and_validate():
    rules = Rules("t", "test", "3.1", (2, 3), {2: 10, 3: 7}, values={"ace_rank": "high"})
    assert rules.ace_value == 10 and rules.decks == 1
    with pytest.raises(ConfigError, match="key 'ace_rank'"):
        Rules("t", "test", "3.1", (2, 3), {2: 10, 3: 7}, values={"ace_rank": "x"})


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError):
        _ = load_variant("rummy_basic").no_such_toggle
