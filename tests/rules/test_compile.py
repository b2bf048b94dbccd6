"""compile_rules: every params slot filled with layout codes; card values (RULES.md §1.9)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import JOKER, N_KINDS, parse_card
from sim.engine import layout as L
from sim.rules import compile_rules, list_variants, load_variant
from sim.rules.compile import (
    CARD_VALUE_TOGGLES,
    CODED_SLOTS,
    FLAG_SLOTS,
    NUMBER_SLOTS,
    PARAM_SLOTS,
    SPECIAL_SLOTS,
    UNSLOTTED_TOGGLES,
)
from sim.rules.toggles import TOGGLES, Kind, split_param

ALL = [(name, p) for name, _ in list_variants() for p in load_variant(name).player_counts]


@pytest.mark.parametrize(("name", "players"), ALL)
def test_every_variant_compiles_at_every_allowed_player_count(name, players):
    compiled = compile_rules(load_variant(name), players)
    params = compiled.params
    assert params.dtype == np.int64 and params.shape == (L.N_PARAMS,)
    assert compiled.card_values.dtype == np.int64 and compiled.card_values.shape == (N_KINDS,)
    coded_negative = {L.P_KNOCK_LIMIT: (L.KNOCK_UNLIMITED, L.KNOCK_UPCARD)}
    for slot, value in enumerate(params):
        assert value >= 0 or value in coded_negative.get(slot, ()), slot
    assert params[L.P_PLAYERS] == players == compiled.players
    assert params[L.P_HAND_SIZE] == compiled.hand_size
    shoe = 52 * params[L.P_DECKS] + params[L.P_JOKERS]
    assert players * params[L.P_HAND_SIZE] + 2 <= shoe


def test_baseline_slots_are_the_layout_defaults():
    p = compile_rules(load_variant("rummy_basic"), 2).params
    expected = {
        L.P_PLAYERS: 2,
        L.P_HAND_SIZE: 10,
        L.P_DECKS: 1,
        L.P_JOKERS: 0,
        L.P_ACE_RANK: L.ACE_LOW,
        L.P_RUN_SUIT: L.RUN_SAME_SUIT,
        L.P_GROUP_DUPLICATES: 0,
        L.P_JOKER_REPLACE: L.JREPLACE_NONE,
        L.P_MELDS_PER_TURN: L.MELDS_UNLIMITED,
        L.P_LAYOFF_TARGET: L.LAYOFF_ANY,
        L.P_LAYOFF_REQUIRES: L.LREQ_OFF,
        L.P_MUST_DISCARD_TO_GO_OUT: 0,
        L.P_GOING_RUMMY: L.RUMMY_OFF,
        L.P_RUMMY_BONUS: 0,
        L.P_STOCK_EXHAUSTION: L.STOCK_TURN_OVER,
        L.P_SCORING: L.SCORE_PIP_TO_WINNER,
        L.P_GAME_END: L.END_TARGET,
        L.P_GAME_END_VALUE: 100,
        L.P_DEALER_ROTATION: L.DEALER_LEFT,
        L.P_TURN_CAP: 500,
        L.P_HAND_CAP: 1000,
        L.P_AUDIT: 0,
        L.P_MELD_TIMING: L.TIMING_PROGRESSIVE,
        L.P_FAMILY: L.FAMILY_RUMMY,
        L.P_KNOCK_LIMIT: 10,
        L.P_GIN_OPENING: L.GIN_OPENING_UPCARD_OFFER,
        L.P_GIN_BONUS: 20,
        L.P_UNDERCUT_BONUS: 10,
        L.P_BOX_BONUS: 20,
        L.P_SHUTOUT: L.SHUTOUT_GAME_BONUS_200,
        L.P_SPADE_DOUBLE: 0,
        L.P_OKLAHOMA_EXTRA: 0,
        L.P_JOKER_DECLARE: L.JDECLARE_INFERRED,
        L.P_UPCARD: 1,
        L.P_SEAT_ROTATION: 0,
        L.P_DEAL_PER_GAME: 0,
    }
    assert len(expected) == L.N_PARAMS
    assert {slot: int(p[slot]) for slot in expected} == expected


def test_audit_flag():
    rules = load_variant("rummy_basic")
    assert compile_rules(rules, 3, audit=True).params[L.P_AUDIT] == 1
    assert compile_rules(rules, 3).params[L.P_AUDIT] == 0


def test_002_slots():
    p = compile_rules(load_variant("rummy_basic@002"), 4).params
    assert p[L.P_MELDS_PER_TURN] == L.MELDS_ONE
    assert p[L.P_RUN_SUIT] == L.RUN_SAME_SUIT
    assert (p[L.P_GAME_END], p[L.P_GAME_END_VALUE]) == (L.END_TARGET, 200)
    assert p[L.P_HAND_SIZE] == 7


def test_003_slots_by_player_count():
    rules = load_variant("rummy_basic@003")
    by_players = {
        n: (
            compile_rules(rules, n).params[L.P_HAND_SIZE],
            compile_rules(rules, n).params[L.P_DECKS],
        )
        for n in range(2, 8)
    }
    assert by_players == {2: (10, 1), 3: (7, 1), 4: (7, 1), 5: (7, 1), 6: (10, 2), 7: (10, 2)}
    p = compile_rules(rules, 6).params
    assert p[L.P_JOKER_REPLACE] == L.JREPLACE_STEAL
    assert p[L.P_JOKERS] == 0


def test_004_slots():
    p = compile_rules(load_variant("rummy_basic@004"), 5).params
    assert p[L.P_STOCK_EXHAUSTION] == L.STOCK_SHUFFLE_EXCEPT_TOP
    assert (p[L.P_GOING_RUMMY], p[L.P_RUMMY_BONUS]) == (L.RUMMY_DOUBLE, 0)
    assert p[L.P_GAME_END_VALUE] == 150
    assert p[L.P_HAND_SIZE] == 6


def test_parametrised_slots():
    rules = load_variant(
        "rummy_basic",
        overrides={
            "going_rummy": "bonus:25",
            "scoring": "penalty",
            "game_end": "penalty_limit:80",
            "dealer_rotation": "winner_deals",
            "must_discard_to_go_out": True,
            "layoff_requires_meld": "after_own_layoff",
            "layoff_target": "own_only",
            "melds_per_turn": "one_or_layoff",
            "group_duplicates": "allowed",
            "decks": 2,
            "jokers": 4,
        },
    )
    p = compile_rules(rules, 2).params
    assert (p[L.P_GOING_RUMMY], p[L.P_RUMMY_BONUS]) == (L.RUMMY_BONUS, 25)
    assert (p[L.P_SCORING], p[L.P_GAME_END], p[L.P_GAME_END_VALUE]) == (
        L.SCORE_PENALTY,
        L.END_PENALTY_LIMIT,
        80,
    )
    assert p[L.P_DEALER_ROTATION] == L.DEALER_WINNER_DEALS
    assert p[L.P_MUST_DISCARD_TO_GO_OUT] == 1
    assert p[L.P_LAYOFF_REQUIRES] == L.LREQ_AFTER_OWN_LAYOFF
    assert p[L.P_LAYOFF_TARGET] == L.LAYOFF_OWN_ONLY
    assert p[L.P_MELDS_PER_TURN] == L.MELDS_ONE_OR_LAYOFF
    assert (p[L.P_GROUP_DUPLICATES], p[L.P_DECKS], p[L.P_JOKERS]) == (1, 2, 4)


def test_single_hand_has_no_game_end_value():
    p = compile_rules(load_variant("rummy_basic", {"game_end": "single_hand"}), 2).params
    assert (p[L.P_GAME_END], p[L.P_GAME_END_VALUE]) == (L.END_SINGLE_HAND, 0)


@pytest.mark.parametrize(
    ("rank", "code"),
    [
        ("low", L.ACE_LOW),
        ("high", L.ACE_HIGH),
        ("high_or_low", L.ACE_HIGH_OR_LOW),
        ("around_corner", L.ACE_AROUND_CORNER),
    ],
)
def test_ace_rank_codes(rank, code):
    assert (
        compile_rules(load_variant("rummy_basic", {"ace_rank": rank}), 2).params[L.P_ACE_RANK]
        == code
    )


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("turn_over", L.STOCK_TURN_OVER),
        ("shuffle_except_top", L.STOCK_SHUFFLE_EXCEPT_TOP),
        ("block_difference", L.STOCK_BLOCK_DIFFERENCE),
        ("block_totals", L.STOCK_BLOCK_TOTALS),
    ],
)
def test_stock_exhaustion_codes(value, code):
    rules = load_variant("rummy_basic", {"stock_exhaustion": value})
    assert compile_rules(rules, 2).params[L.P_STOCK_EXHAUSTION] == code


def test_every_rule_toggle_reaches_the_kernels_or_is_fixed():
    """A toggle without a slot must have exactly one supported value (widen it with a slot)."""
    slotted = {*CODED_SLOTS, *PARAM_SLOTS, *FLAG_SLOTS, *NUMBER_SLOTS, *SPECIAL_SLOTS, "decks"}
    for t in TOGGLES:
        if t.name in slotted or t.name in CARD_VALUE_TOGGLES:
            continue
        assert t.name in UNSLOTTED_TOGGLES, f"{t.name} reaches neither params nor card_values"
        assert len(t.supported_values()) == 1, f"{t.name} is supported but has no params slot"


def test_every_supported_value_has_a_code():
    for t in TOGGLES:
        if t.name in CODED_SLOTS:
            assert set(t.supported_values()) <= set(CODED_SLOTS[t.name][1]), t.name
        if t.name in PARAM_SLOTS:
            forms = {split_param(str(c))[0] for c in t.choices}
            assert set(t.supported_values()) <= forms <= set(PARAM_SLOTS[t.name][2]), t.name
        if t.name in FLAG_SLOTS:
            assert t.kind is Kind.SWITCH


def test_card_values_baseline():
    values = compile_rules(load_variant("rummy_basic"), 2).card_values
    assert values[parse_card("As")] == 1
    assert values[parse_card("7h")] == 7
    assert values[parse_card("Td")] == 10
    assert values[parse_card("Jc")] == values[parse_card("Qs")] == values[parse_card("Kh")] == 10
    assert values[JOKER] == 15
    # §3.1 example: 7c Kd As + 5h 5d = 28
    hand = [parse_card(c) for c in ("7c", "Kd", "As", "5h", "5d")]
    assert values[hand].sum() == 28


@pytest.mark.parametrize(
    ("variant", "overrides", "ace"),
    [
        ("rummy_basic", {}, 1),
        ("rummy_basic", {"ace_rank": "high"}, 10),
        ("rummy_basic", {"ace_rank": "high_or_low"}, 15),
        ("rummy_basic", {"ace_rank": "around_corner"}, 11),
        ("rummy_basic@003", {"ace_rank": "high_or_low"}, 11),
        ("rummy_basic@003", {"ace_rank": "high"}, 10),
        ("around_the_corner", {}, 11),
        ("rummy_basic", {"ace_rank": "high", "ace_points": 15}, 15),
    ],
)
def test_ace_value(variant, overrides, ace):
    values = compile_rules(load_variant(variant, overrides), 2).card_values
    assert all(values[parse_card("A" + s)] == ace for s in "shdc")


def test_joker_points_reach_card_values():
    rules = load_variant("rummy_basic", {"jokers": 2, "joker_points": 25})
    assert compile_rules(rules, 2).card_values[JOKER] == 25


def test_per_card_scoring_values_every_card_1_and_jokers_2():
    values = compile_rules(load_variant("rummy_basic", {"scoring": "per_card"}), 2).card_values
    assert (values[:JOKER] == 1).all() and values[JOKER] == 2
