"""Jokers on the engine (sim/engine): the shoe and their points (RULES.md §2A.2,
§2A.3), what a table joker stands for and its declarations (§2B.11), laying jokers off,
and replacing a table joker by its natural card (§2B.12); then whole hands: the rules
change play on the same seed, and audit mode finds nothing over every joker count, rule,
table size and bot."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import JOKER, parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.engine.audit import check_state, declarations_legal
from sim.engine.greedy import greedy_table
from sim.engine.joker_choice import declare_jokers
from sim.engine.random_bot import random_table
from sim.engine.scoring import score_went_out
from sim.engine.specs import GENERIC
from sim.engine.table import (
    declaration_options,
    lay_down,
    lay_off,
    lay_off_joker,
    may_steal,
    meld_fits,
    stands_for,
    steal,
    takes_joker,
)
from sim.rules import load_variant

VARIANT = "rummy_basic@003"  # jokers 15, steal_by_replacement (§3.1)


def _k(text):
    (kind,) = parse_cards(text)
    return kind


def _mask(text):
    out = 0
    for k in parse_cards(text):
        out |= 1 << k
    return out


def _state(players=2, **overrides):
    rules = load_variant(VARIANT).with_values({"jokers": 2, **overrides})
    params, values = api.compile_rules(rules, players, audit=True)
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    st[S.R_SC, S.C_TAKEN] = -1
    st[S.R_SC, S.C_PLAN] = -1
    return params, values, st, piles


def _hold(params, st, seat, text, jokers=0):
    for k in parse_cards(text):
        S.give(GENERIC, params, st, seat, k)
    for _ in range(jokers):
        S.give(GENERIC, params, st, seat, JOKER)


def _tools():
    return M.new_work(), np.zeros((64, S.EV_COLS), np.int64), np.zeros(2, np.uint64)


def _meld(params, values, st, seat, text, jokers, work, events):
    """``seat`` holds exactly ``text`` and ``jokers`` more and lays down the one meld of
    its best arrangement; returns the meld's index."""
    _hold(params, st, seat, text, jokers)
    layers = st[S.R_SEAT + seat, S.S_HAND : S.S_HAND + M.MAX_LAYERS]
    M.best_arrangement(GENERIC, params, values, work, layers.copy(), jokers, 0, 0, -1, 0)
    assert work[M.W_SCAL, M.S_BEST_N] == 1
    return lay_down(GENERIC, params, st, events, seat, work, M.W_BEST)


def _events(st, events, etype):
    """``(seat, a, b)`` of the logged events of type ``etype``."""
    rows = events[: st[S.R_SC, S.C_N_EVENTS]]
    return [(int(r[S.EV_SEAT]), int(r[S.EV_A]), int(r[S.EV_B])) for r in rows if r[0] == etype]


def _log_on(st):
    st[S.R_SC, S.C_LOG] = 1
    st[S.R_SC, S.C_N_EVENTS] = 0


# ---- §2A: the shoe and the points ------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("jokers", [1, 2, 8])
def test_2A2_the_shoe_holds_the_jokers(jokers):
    params, values, st, piles = _state(jokers=jokers)
    n = st[S.R_SC, S.C_SHOE_N]
    assert n == 52 + jokers
    assert int(np.sum(piles[S.PILE_SHOE, :n] == JOKER)) == jokers


@pytest.mark.nojit
@pytest.mark.parametrize("points", [2, 15, 25, 30])
def test_2A3_a_joker_left_in_hand_scores_joker_points(points):
    params, values, st, _ = _state(players=3, joker_points=points)
    _hold(params, st, 1, "7c", jokers=1)
    _hold(params, st, 2, "5h", jokers=2)
    scores = np.zeros(3, np.int64)
    score_went_out(GENERIC, params, values, st, 0, False, scores)
    assert scores.tolist() == [7 + 5 + 3 * points, 0, 0]


# ---- §2B.11: what a table joker stands for, and its declarations -----------------------------


@pytest.mark.nojit
def test_2B11_inferred_a_run_joker_stands_for_its_position():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "5h 7h", 1, work, events)
    assert st[S.R_MELD + m, S.M_JOKERS] == 1 and st[S.R_SEAT, S.S_JOKERS] == 0
    assert stands_for(GENERIC, params, st, m) == _mask("6h")
    assert declaration_options(GENERIC, params, st, m) == 0
    assert meld_fits(GENERIC, params, st, m) == _mask("4h 8h")


@pytest.mark.nojit
def test_2B11_inferred_a_group_joker_is_fixed_only_when_the_group_has_four_cards():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "7s 7h", 1, work, events)
    assert st[S.R_MELD + m, S.M_TYPE] == M.MELD_GROUP
    assert stands_for(GENERIC, params, st, m) == 0  # 7d or 7c: not fixed
    assert meld_fits(GENERIC, params, st, m) == _mask("7d 7c")
    _hold(params, st, 1, "7d")
    lay_off(GENERIC, params, st, events, 1, m, _k("7d"))
    assert stands_for(GENERIC, params, st, m) == _mask("7c")  # the missing suit
    assert meld_fits(GENERIC, params, st, m) == 0


@pytest.mark.nojit
def test_2B11_three_card_group_greedy_declares_a_three_card_groups_joker_lowest_first():
    params, values, st, piles = _state(joker_declare="three_card_group")
    work, events, rng = _tools()
    _log_on(st)
    _hold(params, st, 0, "7s 7h Kd", jokers=1)
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 0, L.BOT_GREEDY, 0)
    assert st[S.R_SC, S.C_N_MELDS] == 1
    assert st[S.R_MELD, S.M_DECLARED] == _mask("7d")  # of 7d and 7c, the lowest kind
    assert _events(st, events, S.E_DECLARE) == [(0, 0, _k("7d"))]
    assert meld_fits(GENERIC, params, st, 0) == _mask("7c")  # 7d is the joker now
    assert stands_for(GENERIC, params, st, 0) == _mask("7d")
    assert declarations_legal(GENERIC, params, st, 0)


@pytest.mark.nojit
def test_2B11_three_card_group_asks_nothing_of_a_run_or_a_four_card_group():
    params, values, st, _ = _state(joker_declare="three_card_group")
    work, events, _ = _tools()
    run = _meld(params, values, st, 0, "5h 7h", 1, work, events)
    group = _meld(params, values, st, 0, "9s 9h 9d", 1, work, events)
    assert declaration_options(GENERIC, params, st, run) == 0
    assert declaration_options(GENERIC, params, st, group) == 0
    assert stands_for(GENERIC, params, st, group) == _mask("9c")


@pytest.mark.nojit
def test_2B11_always_declares_every_group_joker_and_any_suit_run_joker():
    params, values, st, piles = _state(joker_declare="always", run_suit="any_suit")
    work, events, rng = _tools()
    group = _meld(params, values, st, 0, "9s 9h 9d", 1, work, events)
    assert declaration_options(GENERIC, params, st, group) == _mask("9c")
    assert not declarations_legal(GENERIC, params, st, group)  # undeclared: illegal now
    declare_jokers(GENERIC, params, st, piles, rng, events, 0, group, L.BOT_GREEDY)
    assert st[S.R_MELD + group, S.M_DECLARED] == _mask("9c")
    assert declarations_legal(GENERIC, params, st, group)
    run = _meld(params, values, st, 0, "5h 7s", 1, work, events)
    assert declaration_options(GENERIC, params, st, run) == _mask("6s 6h 6d 6c")
    declare_jokers(GENERIC, params, st, piles, rng, events, 0, run, L.BOT_GREEDY)
    assert st[S.R_MELD + run, S.M_DECLARED] == _mask("6s")
    assert stands_for(GENERIC, params, st, run) == _mask("6s")
    assert declaration_options(GENERIC, params, st, run) == 0


@pytest.mark.nojit
def test_2B11_always_leaves_a_same_suit_runs_joker_to_its_position():
    params, values, st, _ = _state(joker_declare="always")
    work, events, _ = _tools()
    run = _meld(params, values, st, 0, "5h 7h", 1, work, events)
    assert declaration_options(GENERIC, params, st, run) == 0
    assert declarations_legal(GENERIC, params, st, run)


@pytest.mark.nojit
def test_2B11_careful_declares_the_card_with_fewest_unseen_copies_random_one_it_may():
    params, values, st, piles = _state(joker_declare="three_card_group")
    work, events, rng = _tools()
    m = _meld(params, values, st, 0, "7s 7h", 1, work, events)
    piles[S.PILE_DISCARD, 0] = _k("7c")  # 7c is seen: nobody could replace a joker 7c
    st[S.R_SC, S.C_DISCARD_N] = 1
    declare_jokers(GENERIC, params, st, piles, rng, events, 0, m, L.BOT_CAREFUL)
    assert st[S.R_MELD + m, S.M_DECLARED] == _mask("7c")
    m = _meld(params, values, st, 1, "8s 8h", 1, work, events)
    declare_jokers(GENERIC, params, st, piles, rng, events, 1, m, L.BOT_RANDOM)
    assert st[S.R_MELD + m, S.M_DECLARED] in (_mask("8d"), _mask("8c"))


@pytest.mark.nojit
def test_2B11_the_audit_counts_a_declaration_the_rule_does_not_allow():
    params, values, st, piles = _state()  # inferred: nothing is declared
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "7s 7h", 1, work, events)
    assert declarations_legal(GENERIC, params, st, m)
    st[S.R_MELD + m, S.M_DECLARED] = _mask("7d")
    assert not declarations_legal(GENERIC, params, st, m)


# ---- §1.6 with jokers: laying off ----------------------------------------------------------


@pytest.mark.nojit
def test_1_6_a_joker_is_laid_off_above_a_run_or_below_it_at_the_top_end():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    low = _meld(params, values, st, 0, "5h 6h 7h", 0, work, events)
    top = _meld(params, values, st, 0, "Jc Qc Kc", 0, work, events)
    _hold(params, st, 1, "", jokers=2)
    assert takes_joker(GENERIC, params, st, low) and takes_joker(GENERIC, params, st, top)
    lay_off_joker(GENERIC, params, st, events, 1, low)
    assert stands_for(GENERIC, params, st, low) == _mask("8h")
    assert meld_fits(GENERIC, params, st, low) == _mask("4h 9h")
    lay_off_joker(GENERIC, params, st, events, 1, top)
    assert stands_for(GENERIC, params, st, top) == _mask("Tc")
    assert st[S.R_SEAT + 1, S.S_JOKERS] == 0 and st[S.R_SEAT + 1, S.S_N] == 0


@pytest.mark.nojit
def test_1_6_a_joker_fills_a_group_of_three_and_a_group_of_four_takes_none():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "7s 7h 7d", 0, work, events)
    _hold(params, st, 1, "", jokers=2)
    lay_off_joker(GENERIC, params, st, events, 1, m)
    assert st[S.R_MELD + m, S.M_LEN] == 4
    assert stands_for(GENERIC, params, st, m) == _mask("7c")
    assert not takes_joker(GENERIC, params, st, m)
    assert meld_fits(GENERIC, params, st, m) == 0


@pytest.mark.nojit
def test_1_6_greedy_lays_off_a_joker_when_no_natural_card_goes():
    params, values, st, piles = _state(joker_replace="none")
    work, events, rng = _tools()
    _meld(params, values, st, 1, "5h 6h 7h", 0, work, events)
    _hold(params, st, 0, "Kd", jokers=1)
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 0, L.BOT_GREEDY, 0)
    assert st[S.R_SEAT, S.S_JOKERS] == 0 and st[S.R_MELD, S.M_JOKERS] == 1
    assert st[S.R_SEAT, S.S_N] == 1  # Kd is left to discard


# ---- §2B.12: replacing a table joker -------------------------------------------------------


@pytest.mark.nojit
def test_2B12_steal_by_replacement_any_player_puts_the_natural_card_in_and_takes_the_joker():
    params, values, st, _ = _state(layoff_requires_meld="after_first_meld")
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "5h 7h", 1, work, events)
    _hold(params, st, 1, "6h 2c")  # has laid down nothing: a replacement is no lay-off
    assert may_steal(GENERIC, params, st)
    st[S.R_SC, S.C_TAKEN] = _k("6h")
    steal(GENERIC, params, st, events, 1, m, _k("6h"))
    row = S.R_MELD + m
    assert st[row, S.M_JOKERS] == 0 and st[row, S.M_LEN] == 3
    assert st[row, S.M_CARDS] == _mask("5h 6h 7h")
    assert st[S.R_SEAT + 1, S.S_JOKERS] == 1 and st[S.R_SEAT + 1, S.S_N] == 2
    assert st[S.R_SEAT + 1, S.S_HAND] == _mask("2c")
    assert st[S.R_SC, S.C_STEALS_TURN] == 1
    assert st[S.R_SC, S.C_TAKEN] == -1  # the taken card went to the table (§1.5)


@pytest.mark.nojit
def test_2B12_a_declared_group_joker_is_replaced_by_its_declared_card_only():
    params, values, st, piles = _state(joker_declare="three_card_group")
    work, events, rng = _tools()
    m = _meld(params, values, st, 0, "7s 7h", 1, work, events)
    declare_jokers(GENERIC, params, st, piles, rng, events, 0, m, L.BOT_GREEDY)  # as 7d
    _hold(params, st, 1, "7d 7c")
    assert stands_for(GENERIC, params, st, m) & st[S.R_SEAT + 1, S.S_HAND] == _mask("7d")
    steal(GENERIC, params, st, events, 1, m, _k("7d"))
    assert st[S.R_MELD + m, S.M_DECLARED] == 0
    assert st[S.R_MELD + m, S.M_SHAPE] == 0x0111  # spades, hearts, diamonds
    assert meld_fits(GENERIC, params, st, m) == _mask("7c")


@pytest.mark.nojit
def test_2B12_greedy_replaces_a_joker_after_laying_down_and_lays_the_joker_off():
    """Today's engine's order: lay down, replace, lay off (the joker taken goes on the first
    meld that takes one, above the run)."""
    params, values, st, piles = _state()
    work, events, rng = _tools()
    _log_on(st)
    _meld(params, values, st, 1, "5h 7h", 1, work, events)
    _hold(params, st, 0, "6h 9c 9d Ks")
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 0, L.BOT_GREEDY, 0)
    assert _events(st, events, S.E_STEAL) == [(0, 0, _k("6h"))]
    assert _events(st, events, S.E_LAYOFF) == [(0, 0, JOKER)]
    assert st[S.R_SC, S.C_N_MELDS] == 1
    assert st[S.R_MELD, S.M_CARDS] == _mask("5h 6h 7h")
    assert stands_for(GENERIC, params, st, 0) == _mask("8h")
    assert st[S.R_SEAT, S.S_N] == 3 and st[S.R_SEAT, S.S_JOKERS] == 0


@pytest.mark.nojit
def test_2B12_greedy_melds_with_a_joker_it_took_on_a_later_turn():
    params, values, st, piles = _state()
    work, events, rng = _tools()
    _meld(params, values, st, 1, "5h 7h", 1, work, events)
    _hold(params, st, 0, "6h 9c 9d Ks")
    steal(GENERIC, params, st, events, 0, 0, _k("6h"))  # a turn that ended with the joker
    st[S.R_SC, S.C_STEALS_TURN] = 0
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 0, L.BOT_GREEDY, 0)
    assert st[S.R_SC, S.C_N_MELDS] == 2
    assert st[S.R_MELD + 1, S.M_CARDS] == _mask("9c 9d") and st[S.R_MELD + 1, S.M_JOKERS] == 1
    assert st[S.R_SEAT, S.S_N] == 1 and st[S.R_SEAT, S.S_HAND] == _mask("Ks")


@pytest.mark.nojit
def test_2B12_none_keeps_table_jokers_where_they_are():
    params, values, st, piles = _state(joker_replace="none")
    work, events, rng = _tools()
    _meld(params, values, st, 1, "5h 7h", 1, work, events)
    _hold(params, st, 0, "6h 9c Ks")
    assert not may_steal(GENERIC, params, st)
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 0, L.BOT_GREEDY, 0)
    random_table(GENERIC, params, values, st, piles, rng, events, work, 0)
    assert st[S.R_MELD, S.M_JOKERS] == 1 and st[S.R_SEAT, S.S_HAND] & _mask("6h") != 0


@pytest.mark.nojit
def test_2B12_the_audit_counts_a_replacement_the_rules_do_not_allow():
    params, values, st, piles = _state(joker_replace="none")
    work = M.new_work()
    st[S.R_SC, S.C_STOCK_N] = 0
    for i in range(54):  # every card in the discard pile: the places add up
        piles[S.PILE_DISCARD, i] = piles[S.PILE_SHOE, i]
    st[S.R_SC, S.C_DISCARD_N] = 54
    check_state(GENERIC, params, st, piles, work)
    assert st[S.R_SC, S.C_VIOLATIONS] == 0
    st[S.R_SC, S.C_STEALS_TURN] = 1
    check_state(GENERIC, params, st, piles, work)
    assert st[S.R_SC, S.C_VIOLATIONS] == 1


# ---- whole hands -----------------------------------------------------------------------------


def _play(players, bot, hands, *, seed=7, audit=False, **overrides):
    rules = load_variant(VARIANT).with_values(overrides)
    params, values = api.compile_rules(rules, players, audit=audit)
    return api.play(params, values, np.full(players, bot), seed=seed, hands=hands)


def _same(a, b):
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in ("hand_rows", "hand_scores"))


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_RANDOM])
def test_2B12_flip_none_and_steal_by_replacement_play_differently(bot):
    none = _play(4, bot, 300, jokers=2, joker_replace="none")
    steal_ = _play(4, bot, 300, jokers=2, joker_replace="steal_by_replacement")
    assert not _same(none, steal_)
    no_jokers = [
        _play(4, bot, 300, jokers=0, joker_replace=r) for r in ("none", "steal_by_replacement")
    ]
    assert _same(*no_jokers)  # without jokers the rule has nothing to act on


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_CAREFUL])
def test_2B11_flip_joker_declare_values_play_differently(bot):
    outs = [
        _play(4, bot, 300, jokers=2, joker_declare=d)
        for d in ("inferred", "three_card_group", "always")
    ]
    assert not _same(outs[0], outs[1])
    assert not _same(outs[0], outs[2])


RULE_SETS = [
    {"joker_replace": "none", "joker_declare": "inferred"},
    {"joker_replace": "steal_by_replacement", "joker_declare": "inferred"},
    {"joker_replace": "steal_by_replacement", "joker_declare": "three_card_group"},
    {"joker_replace": "steal_by_replacement", "joker_declare": "always"},
    {"joker_replace": "none", "joker_declare": "always", "run_suit": "any_suit"},
    {"joker_replace": "steal_by_replacement", "joker_declare": "always", "run_suit": "any_suit"},
    {
        "joker_replace": "steal_by_replacement",
        "joker_declare": "always",
        "ace_rank": "around_corner",
    },
    {
        "joker_replace": "steal_by_replacement",
        "joker_declare": "three_card_group",
        "decks": 2,
        "group_duplicates": "allowed",
    },
]


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 120), (L.BOT_CAREFUL, 80), (L.BOT_RANDOM, 25)]
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_2B_audit_finds_no_violation_with_jokers(players, bot, hands):
    """Every joker count 1..8 under every rule set above: audit mode after every turn."""
    played = 0
    for jokers in range(1, 9):
        for i, rules in enumerate(RULE_SETS):
            overrides = {"jokers": jokers, **rules}
            out = _play(players, bot, hands, seed=100 * jokers + i, audit=True, **overrides)
            assert out.counters[OUT.C_VIOLATIONS] == 0, overrides
            assert (out.hand_rows[:, OUT.H_VIOLATIONS] == 0).all(), overrides
            played += len(out.hand_rows)
    assert played == 8 * len(RULE_SETS) * hands


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_CAREFUL])
@pytest.mark.parametrize(
    ("players", "jokers", "replace"),
    [
        (2, 2, "none"),
        (2, 2, "steal_by_replacement"),
        (4, 2, "steal_by_replacement"),
        (6, 4, "steal_by_replacement"),
    ],
)
def test_issue29_bots_with_jokers_leave_at_most_2_percent_of_hands_without_a_result(
    players, jokers, replace, bot
):
    out = _play(players, bot, 3000, seed=11, jokers=jokers, joker_replace=replace)
    ended = out.hand_rows[:, OUT.H_END_REASON]
    assert np.mean(np.isin(ended, [L.REASON_STALLED, L.REASON_EXHAUSTED])) <= 0.02
