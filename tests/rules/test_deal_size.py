"""``deal_size`` (RULES.md §1.4, a simulator extension for ``rummysim tune``): cards dealt
to each player at every table size, in place of the variant's [deal] table."""

from __future__ import annotations

import pytest

from sim.rules import ConfigError, load_variant


def test_1_4_deal_size_deals_that_many_at_every_table_size():
    """``deal_size`` (a simulator extension, §1.4): every table size deals that many; 0 keeps
    the variant's [deal] table."""
    base = load_variant("knock_rummy")
    seven = load_variant("knock_rummy", {"deal_size": 7})
    assert [seven.deal_for(p)[0] for p in seven.player_counts] == [7, 7, 7, 7]
    assert [base.deal_for(p)[0] for p in base.player_counts] == [10, 7, 7, 6]
    assert load_variant("rummy_basic", {"deal_size": 0}) == load_variant("rummy_basic")


def test_1_4_deal_size_must_fit_the_shoe():
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"deal_size": 9})  # 6 players x 9 + upcard + 1 > 52
    assert err.value.key == "deal_size" and "at most 8 cards each with 6 players" in str(err.value)


@pytest.mark.parametrize("variant", ["tonk", "phom", "conquian"])
def test_1_4_deal_size_is_refused_where_the_deal_is_the_game(variant):
    with pytest.raises(ConfigError) as err:
        load_variant(variant, {"deal_size": 7})
    assert err.value.key == "deal_size"


def test_1_4_deal_size_cannot_break_nowrangs_pattern():
    """Nowrang's pattern holds 10 cards (§3.15): another deal_size is refused by name."""
    assert load_variant("nowrang", {"deal_size": 10}).deal_for(2)[0] == 10
    with pytest.raises(ConfigError) as err:
        load_variant("nowrang", {"deal_size": 9})
    assert err.value.key == "deal_size" and "holds 10 cards" in str(err.value)


def test_1_4_deal_size_cannot_break_continentals_pattern():
    """Continental's patterns hold 15 cards (§3.11): another deal_size is refused by name."""
    assert load_variant("continental", {"deal_size": 15}).deal_for(12)[0] == 15
    with pytest.raises(ConfigError) as err:
        load_variant("continental", {"deal_size": 14})
    assert err.value.key == "deal_size" and "holds 15 cards" in str(err.value)
