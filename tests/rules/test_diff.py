"""``sim.rules.diff``: every resolved setting an arm changes, ``auto`` values included
(issue #30 point 2; RULES.md §2A.5)."""

from __future__ import annotations

from sim.rules import load_variant
from sim.rules.diff import diff_text, resolved_settings, rules_diff


def test_identical_rules_change_nothing() -> None:
    base = load_variant("rummy_basic")
    assert rules_diff(base, load_variant("rummy_basic@000"), 4) == ()
    assert diff_text(()) == "same rules"


def test_2A5_ace_high_also_raises_the_aces_points_through_auto() -> None:
    base = load_variant("rummy_basic")
    high = base.with_values({"ace_rank": "high"})
    assert diff_text(rules_diff(base, high, 2)) == "ace_rank low → high; ace_points 1 → 10"


def test_2A5_holding_the_ace_at_one_point_leaves_only_the_rank() -> None:
    base = load_variant("rummy_basic")
    high = base.with_values({"ace_rank": "high", "ace_points": 1})
    assert diff_text(rules_diff(base, high, 2)) == "ace_rank low → high"


def test_3_3_around_the_corner_changes_the_rank_and_the_points() -> None:
    changes = rules_diff(load_variant("rummy_basic"), load_variant("around_the_corner"), 4)
    assert {c.name: (c.before, c.after) for c in changes} == {
        "ace_rank": ("low", "around_corner"),
        "ace_points": ("1", "11"),
    }
    assert {c.section for c in changes} == {"2A.4", "2A.5"}


def test_a_variant_names_its_family_deal_and_settings() -> None:
    base = load_variant("rummy_basic")
    gin = load_variant("gin_rummy")
    changes = {c.name: (c.before, c.after) for c in rules_diff(base, gin, 2)}
    assert changes["family"] == ("rummy", "gin")
    assert changes["meld_timing"] == ("progressive", "knock")
    assert "hand_size" not in changes  # both deal 10 at two players
    assert resolved_settings(gin, 2)["hand_size"] == ("1.4", "10")


def test_switches_read_on_and_off() -> None:
    base = load_variant("rummy_basic")
    other = base.with_values({"must_discard_to_go_out": True})
    assert diff_text(rules_diff(base, other, 3)) == "must_discard_to_go_out off → on"
