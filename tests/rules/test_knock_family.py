"""The knock-family variants and the rules that keep the families apart (RULES.md §2I, §3.10,
§3.17, §3.20, §4D)."""

from __future__ import annotations

import dataclasses

import pytest

from sim.rules import ConfigError, load_variant, rules_from_toml, rules_to_toml


def test_3_10_knock_rummy_variant():
    rules = load_variant("knock_rummy")
    assert rules.family == "knock_rummy" and rules.section == "3.10"
    assert rules.players == (2, 5)
    assert dict(rules.deal) == {2: 10, 3: 7, 4: 7, 5: 6}
    assert rules.changed() == {
        "meld_timing": "knock",
        "knock_limit": "unlimited",
        "layoff_target": "none",
    }


def test_3_17_gin_rummy_variant():
    rules = load_variant("gin_rummy")
    assert rules.family == "gin" and rules.players == (2, 2) and rules.deal[2] == 10
    assert rules.changed() == {"meld_timing": "knock", "stock_exhaustion": "void_at_two"}
    assert rules.knock_limit == 10 and rules.gin_opening == "upcard_offer"
    assert rules.layoff_target == "any"


def test_3_20_oklahoma_gin_variant():
    rules = load_variant("oklahoma_gin")
    assert rules.family == "gin"
    changed = rules.changed()
    assert changed["knock_limit"] == "upcard"
    assert changed["spade_double"] is True and changed["oklahoma_extra_bonus"] is True
    assert changed["game_end"] == "target:150"


def test_family_survives_the_resolved_toml_round_trip():
    rules = load_variant("oklahoma_gin")
    again = rules_from_toml(rules_to_toml(rules))
    assert again.family == "gin" and again.values == rules.values


@pytest.mark.parametrize(
    ("variant", "overrides", "key"),
    [
        ("rummy_basic", {"gin_bonus": 25}, "gin_bonus"),  # §4D: gin only
        ("knock_rummy", {"box_bonus": 25}, "box_bonus"),
        ("rummy_basic", {"knock_limit": 5}, "knock_limit"),  # knock families only
        ("rummy_basic", {"meld_timing": "knock"}, "meld_timing"),
        ("gin_rummy", {"meld_timing": "progressive"}, "meld_timing"),
        ("rummy_basic", {"stock_exhaustion": "void_at_two"}, "stock_exhaustion"),
        ("gin_rummy", {"stock_exhaustion": "turn_over"}, "stock_exhaustion"),
        ("knock_rummy", {"stock_exhaustion": "block_totals"}, "stock_exhaustion"),
        ("gin_rummy", {"decks": 2}, "decks"),
        ("gin_rummy", {"jokers": 2}, "jokers"),
        ("gin_rummy", {"going_rummy": "double"}, "going_rummy"),
        ("knock_rummy", {"scoring": "penalty", "game_end": "fixed_hands:5"}, "scoring"),
        ("knock_rummy", {"layoff_target": "own_only"}, "layoff_target"),
        ("gin_rummy", {"run_suit": "any_suit", "ace_rank": "around_corner"}, "run_suit"),
        ("gin_rummy", {"ace_rank": "high_or_low"}, "ace_rank"),
        ("gin_rummy", {"game_end": "single_hand"}, "game_end"),
        ("gin_rummy", {"gin_opening": "deal_11_10", "knock_limit": "upcard"}, "knock_limit"),
        ("oklahoma_gin", {"gin_opening": "deal_11_10"}, "spade_double"),
        ("rummy_basic", {"dealer_rotation": "loser_sits_out"}, "dealer_rotation"),
    ],
)
def test_settings_outside_their_family_are_refused_naming_the_key(variant, overrides, key):
    with pytest.raises(ConfigError, match=f"key '{key}'"):
        load_variant(variant, overrides)


def test_unknown_family_names_the_allowed_ones(write):
    path = write("odd", top='family = "canasta"\n')
    with pytest.raises(ConfigError, match="family") as err:
        load_variant(path)
    assert "knock_rummy" in str(err.value) and "odd.toml" in str(err.value)


def test_gin_is_two_players_only(write):
    path = write(
        "gin3",
        top='family = "gin"\n',
        tables='[rules]\nmeld_timing = "knock"\nstock_exhaustion = "void_at_two"\n',
    )
    with pytest.raises(ConfigError, match="key 'players'"):
        load_variant(path)


def test_3_18_three_player_gin_variant():
    rules = load_variant("gin_rummy_3p")
    assert rules.family == "gin" and rules.players == (3, 3) and rules.deal[3] == 10
    assert rules.dealer_rotation == "loser_sits_out"


def test_3_18_loser_sits_out_needs_three_player_gin():
    with pytest.raises(ConfigError, match="key 'players'"):
        load_variant("gin_rummy", {"dealer_rotation": "loser_sits_out"})
    with pytest.raises(ConfigError, match="key 'dealer_rotation'"):
        load_variant("knock_rummy", {"dealer_rotation": "loser_sits_out"})


def test_3_19_four_player_partnership_gin_variant():
    rules = load_variant("gin_rummy_4p")
    assert rules.family == "gin" and rules.players == (4, 4) and rules.deal[4] == 10
    assert rules.game_end == "target:125" and rules.dealer_rotation == "left"


def test_3_19_winner_deals_is_refused_for_partnerships_with_the_reason():
    # the engine deals both tables from the dealer's team and passes the deal left whatever
    # dealer_rotation says, so winner_deals would be accepted and ignored
    with pytest.raises(ConfigError) as info:
        load_variant("gin_rummy_4p", {"dealer_rotation": "winner_deals"})
    message = str(info.value)
    assert "key 'dealer_rotation'" in message
    assert (
        "4-player gin deals at both tables from the dealer's team and passes the deal left "
        "each hand; winner_deals is not defined for partnerships, where each hand has a "
        "winner at each table (RULES.md §3.19)"
    ) in message


@pytest.mark.parametrize("variant", ["gin_rummy", "oklahoma_gin"])
def test_3_17_two_player_gin_takes_winner_deals(variant):
    # it plays there: the hand's winner deals the next hand (tests/engine: the knock-family games)
    rules = load_variant(variant, {"dealer_rotation": "winner_deals"})
    assert rules.dealer_rotation == "winner_deals"


@pytest.mark.parametrize("variant", ["gin_rummy", "gin_rummy_3p", "gin_rummy_4p", "oklahoma_gin"])
@pytest.mark.parametrize("ace_rank", ["low", "high"])
def test_4D_run_suit_any_suit_is_taken_by_the_gin_variants(variant, ace_rank):
    """§4D lists run_suit among gin's toggles; §3.17 open point 1 ([002]'s suit-free runs)."""
    rules = load_variant(variant, {"run_suit": "any_suit", "ace_rank": ace_rank})
    assert (rules.run_suit, rules.ace_rank) == ("any_suit", ace_rank)


def test_3_10_knock_rummy_takes_run_suit_any_suit():
    assert load_variant("knock_rummy", {"run_suit": "any_suit"}).run_suit == "any_suit"


def test_any_suit_around_the_corner_is_refused_in_the_knock_families_with_the_reason():
    with pytest.raises(ConfigError, match="around_corner") as err:
        load_variant("knock_rummy", {"run_suit": "any_suit", "ace_rank": "around_corner"})
    assert "key 'run_suit'" in str(err.value)


@pytest.mark.parametrize(
    "variant", ["knock_rummy", "tonk", "phom", "conquian", "full_rummy", "boat_house_rum"]
)
def test_one_pack_families_refuse_more_packs_per_table_size(variant):
    """The knock families, the chip games, Conquian and all_at_once play one pack (RULES.md
    §3.10, §3.13, §3.21, §3.22; the all-at-once go-out test): ``decks_by_players`` may only
    say 1, like ``decks``."""
    rules = load_variant(variant)
    players = rules.players[0]
    with pytest.raises(ConfigError) as err:
        dataclasses.replace(rules, decks_by_players={players: 2})
    assert err.value.key == "decks_by_players" and "one pack" in str(err.value)
    assert dataclasses.replace(rules, decks_by_players={players: 1}).decks_for(players) == 1
