"""around_the_corner (RULES.md §3.3)."""

from __future__ import annotations

from sim.rules import load_variant


def test_runs_wrap_and_ace_is_11():
    rules = load_variant("around_the_corner")
    assert rules.changed() == {"ace_rank": "around_corner", "ace_points": 11}
    assert rules.ace_value == 11
    assert rules.section == "3.3"


def test_otherwise_baseline():
    rules, base = load_variant("around_the_corner"), load_variant("rummy_basic")
    assert rules.players == base.players and rules.deal == base.deal
