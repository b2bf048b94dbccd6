"""compile_rules: every toggle coded into its params slot from the one declaration table
(``sim.engine.layout``), the table's size and packs, the audit switch."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.api import compile_rules
from sim.rules import ConfigError, list_variants, load_variant
from sim.rules.toggles import TOGGLES, Kind, split_param

ALL = [(name, p) for name, _ in list_variants() for p in load_variant(name).player_counts]


@pytest.mark.parametrize(("name", "players"), ALL)
def test_every_variant_compiles_at_every_allowed_player_count(name, players):
    rules = load_variant(name)
    params, values = compile_rules(rules, players)
    assert params.dtype == np.int64 and params.shape == (L.N_PARAMS,)
    for toggle in TOGGLES:
        value = rules[toggle.name]
        if toggle.name == "jokers":  # a variant's [jokers_by_players] at this table
            value = rules.jokers_for(players)
        assert params[L.slot(toggle.name)] == L.code(toggle.name, value), toggle.name
        if toggle.kind is Kind.PARAM:
            assert params[L.arg_slot(toggle.name)] == (split_param(str(value))[1] or 0)
    hand_size, packs = rules.deal_for(players)
    assert (params[L.P_PLAYERS], params[L.P_HAND_SIZE], params[L.P_PACKS]) == (
        players,
        hand_size,
        packs,
    )
    assert players * hand_size + 2 <= 52 * packs + params[L.P_JOKERS]
    assert values.dtype == np.int64


def test_1_4_the_deal_and_the_packs_follow_the_player_count():
    rules = load_variant("rummy_basic@003")
    by_players = {
        n: tuple(int(compile_rules(rules, n)[0][s]) for s in (L.P_HAND_SIZE, L.P_PACKS))
        for n in range(2, 8)
    }
    assert by_players == {2: (10, 1), 3: (7, 1), 4: (7, 1), 5: (7, 1), 6: (10, 2), 7: (10, 2)}


def test_3_11_the_jokers_follow_the_player_count():
    """Continental (§3.11): one joker a pack, 2, 3 or 4 packs by table size."""
    rules = load_variant("continental")
    jokers = {n: int(compile_rules(rules, n)[0][L.P_JOKERS]) for n in rules.player_counts}
    packs = {n: int(compile_rules(rules, n)[0][L.P_PACKS]) for n in rules.player_counts}
    assert jokers == packs == {n: 2 if n <= 5 else 3 if n <= 8 else 4 for n in range(2, 13)}


def test_the_audit_switch():
    rules = load_variant("rummy_basic")
    assert compile_rules(rules, 3, audit=True)[0][L.P_AUDIT] == 1
    assert compile_rules(rules, 3)[0][L.P_AUDIT] == 0


def test_a_player_count_the_variant_does_not_allow_is_a_config_error():
    with pytest.raises(ConfigError):
        compile_rules(load_variant("rummy_basic"), 1)


def test_the_oracles_rule_codes_are_the_engines():
    from tests.oracles import deadwood as oracle

    assert (
        L.code("ace_rank", "low"),
        L.code("ace_rank", "high"),
        L.code("ace_rank", "high_or_low"),
        L.code("ace_rank", "around_corner"),
    ) == (oracle.ACE_LOW, oracle.ACE_HIGH, oracle.ACE_HIGH_OR_LOW, oracle.ACE_AROUND_CORNER)
    assert (
        L.code("run_suit", "same_suit"),
        L.code("run_suit", "any_suit"),
    ) == (oracle.RUN_SAME_SUIT, oracle.RUN_ANY_SUIT)


def test_a_meld_fits_one_event_row():
    from sim.engine.state import EV_CARDS, EV_COLS
    from sim.rules.model import MAX_MELD_CARDS

    assert EV_COLS - EV_CARDS == MAX_MELD_CARDS
