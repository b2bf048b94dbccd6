"""throw_down_rummy (RULES.md §3.6), the stock rebuild it needs, and where the non-standard
draws (§2C.16) fit: the rules model refuses the combinations that do not."""

from __future__ import annotations

import pytest

from sim.rules import ConfigError, load_variant


def test_3_6_any_card_with_the_whole_area_shuffled():
    rules = load_variant("throw_down_rummy")
    assert rules.changed() == {
        "discard_draw": "any_card",
        "stock_exhaustion": "shuffle_all",
    }
    assert rules.section == "3.6"


def test_3_6_otherwise_the_baseline_2_to_6_players():
    rules, base = load_variant("throw_down_rummy"), load_variant("rummy_basic@000")
    assert rules.players == base.players == (2, 6)
    assert rules.deal == base.deal
    assert {
        k: v for k, v in rules.values.items() if k not in ("discard_draw", "stock_exhaustion")
    } == {k: v for k, v in base.values.items() if k not in ("discard_draw", "stock_exhaustion")}


@pytest.mark.parametrize(
    "stock", ["turn_over", "shuffle_except_top", "block_difference", "block_totals"]
)
def test_3_6_an_unordered_area_has_no_order_or_top_to_rebuild_by(stock):
    with pytest.raises(ConfigError) as info:
        load_variant("throw_down_rummy", {"stock_exhaustion": stock})
    assert info.value.key == "stock_exhaustion"
    assert "unordered" in str(info.value) and "shuffle_all" in str(info.value)


@pytest.mark.parametrize(
    "stock", ["turn_over", "shuffle_except_top", "shuffle_all", "block_totals"]
)
def test_2C16_top_plus_one_and_top_take_any_rummy_rebuild(stock):
    for draw in ("top", "top_plus_one"):
        rules = load_variant("rummy_basic", {"discard_draw": draw, "stock_exhaustion": stock})
        assert rules.discard_draw == draw


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy"])
@pytest.mark.parametrize("draw", ["any_card", "top_plus_one"])
def test_2C16_the_knock_families_draw_the_discard_top(variant, draw):
    with pytest.raises(ConfigError) as info:
        load_variant(variant, {"discard_draw": draw})
    assert info.value.key == "discard_draw"
