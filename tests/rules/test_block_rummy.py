"""block_rummy and its presets @000, @002 (RULES.md §3.5, §4B)."""

from __future__ import annotations

from sim.rules import load_variant


def test_block_rummy_is_block_difference():
    rules = load_variant("block_rummy")
    assert rules.changed() == {"stock_exhaustion": "block_difference"}
    assert rules.section == "3.5"


def test_000_equals_block_rummy():
    assert load_variant("block_rummy@000").values == load_variant("block_rummy").values


def test_002_block_totals_target_200():
    rules = load_variant("block_rummy@002")
    assert rules.changed() == {"stock_exhaustion": "block_totals", "game_end": "target:200"}
