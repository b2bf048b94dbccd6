"""rummy_basic and its presets @000, @002, @003, @004 (RULES.md §1.4, §3.1)."""

from __future__ import annotations

from sim.rules import DEFAULTS, load_variant


def test_baseline_is_every_default_with_target_100():
    rules = load_variant("rummy_basic")
    assert dict(rules.values) == dict(DEFAULTS)
    assert rules.game_end == "target:100"
    assert rules.section == "3.1"


def test_baseline_players_and_deal_1_4():
    rules = load_variant("rummy_basic")
    assert rules.players == (2, 6)
    assert {n: rules.deal_for(n) for n in rules.player_counts} == {
        2: (10, 1),
        3: (7, 1),
        4: (7, 1),
        5: (6, 1),
        6: (6, 1),
    }


def test_000_is_the_baseline():
    base, preset = load_variant("rummy_basic"), load_variant("rummy_basic@000")
    assert preset.values == base.values
    assert preset.deal == base.deal and preset.players == base.players
    assert preset.name == "rummy_basic@000"


def test_002_one_meld_per_turn_target_200_same_suit_runs():
    rules = load_variant("rummy_basic@002")
    assert rules.changed() == {"melds_per_turn": "one", "game_end": "target:200"}
    assert rules.run_suit == "same_suit"  # open point 1
    assert rules.stock_exhaustion == "turn_over"
    assert rules.players == (2, 6)


def test_003_players_deal_and_packs():
    rules = load_variant("rummy_basic@003")
    assert rules.players == (2, 7)
    assert {n: rules.deal_for(n) for n in rules.player_counts} == {
        2: (10, 1),
        3: (7, 1),
        4: (7, 1),
        5: (7, 1),
        6: (10, 2),
        7: (10, 2),
    }


def test_003_jokers_optional_worth_15_stolen_by_replacement():
    rules = load_variant("rummy_basic@003")
    assert rules.jokers == 0
    assert rules.joker_points == 15
    assert rules.joker_replace == "steal_by_replacement"
    assert rules.game_end == "target:100"
    with_jokers = load_variant("rummy_basic@003", {"jokers": 4})
    assert with_jokers.jokers == 4


def test_003_high_or_low_ace_is_11_open_point_7():
    assert load_variant("rummy_basic@003").ace_points_auto["high_or_low"] == 11
    assert load_variant("rummy_basic@003", {"ace_rank": "high_or_low"}).ace_value == 11
    assert load_variant("rummy_basic@003").ace_value == 1


def test_004_shuffle_double_rummy_target_150():
    rules = load_variant("rummy_basic@004")
    assert rules.changed() == {
        "stock_exhaustion": "shuffle_except_top",
        "going_rummy": "double",
        "game_end": "target:150",
    }
