"""Block rummy on the engine (sim/engine): stock exhaustion ``block_difference`` and
``block_totals`` (RULES.md §2F.28, §3.5) on hand-built states, whole hands, and the three
stock rules flipped on the same deals."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.engine.api import kernel_bots
from sim.engine.audit import check_block_scores
from sim.engine.draw import DRAW_BLOCK, DRAW_OK, draw_phase
from sim.engine.hand import play_turns
from sim.engine.rng import N_RNG
from sim.engine.scoring import score_block
from sim.engine.specs import GENERIC
from sim.rules import load_variant
from tests.engine.helpers import blank_state

EVENT_ROWS = 64


def _state(variant="block_rummy", players=2, **overrides):
    return blank_state(variant, players, **overrides)


def _hold(params, st, seat, text):
    for k in parse_cards(text):
        S.give(GENERIC, params, st, seat, k)


def _empty_stock(st, piles, discards):
    """The stock used up, ``discards`` (oldest first) the discard pile."""
    st[S.R_SC, S.C_STOCK_N] = 0
    cards = parse_cards(discards)
    for i, k in enumerate(cards):
        piles[S.PILE_DISCARD, i] = k
    st[S.R_SC, S.C_DISCARD_N] = len(cards)


def _tools(players, st):
    """Bots (greedy), random streams, the search workspace and a logged event table."""
    st[S.R_SC, S.C_LOG] = 1
    bots = kernel_bots(np.full(players, L.BOT_GREEDY))
    return (
        bots,
        np.zeros(N_RNG, np.uint64),
        M.new_work(),
        np.zeros((EVENT_ROWS, S.EV_COLS), np.int64),
    )


def _events(st, events):
    return [tuple(int(x) for x in events[i, : S.EV_N]) for i in range(st[S.R_SC, S.C_N_EVENTS])]


def _block_scores(variant, totals_cards, **overrides):
    params, values, st, _ = _state(variant, len(totals_cards), **overrides)
    for seat, text in enumerate(totals_cards):
        _hold(params, st, seat, text)
    scores = np.zeros(len(totals_cards), np.int64)
    winner = score_block(GENERIC, params, values, st, scores)
    bad = check_block_scores(GENERIC, params, values, st, winner, scores)
    return scores.tolist(), winner, bad


# ---- the trigger (§2F.28: stock empty, the discard top declined) -----------------------------


@pytest.mark.nojit
def test_2F28_block_a_declined_discard_with_the_stock_empty_ends_the_hand():
    params, values, st, piles = _state()
    _hold(params, st, 0, "2c 5d Kh")
    _empty_stock(st, piles, "4s 9h")  # greedy does not want the 9h
    bots, rng, work, events = _tools(2, st)
    drawn = draw_phase(GENERIC, params, values, bots, st, piles, rng, work, events, 0)
    assert drawn == DRAW_BLOCK
    assert _events(st, events) == [(S.E_BLOCK, 0, parse_cards("9h")[0], 0)]
    assert st[S.R_SC, S.C_DISCARD_N] == 2 and st[S.R_SC, S.C_STOCK_N] == 0  # nothing rebuilt
    assert st[S.R_SEAT, S.S_N] == 3


@pytest.mark.nojit
def test_2F28_block_a_wanted_discard_is_taken_and_play_goes_on():
    params, values, st, piles = _state()
    _hold(params, st, 0, "7h 8h Kc")
    _empty_stock(st, piles, "9h")  # one card: under turn_over it would be forced
    bots, rng, work, events = _tools(2, st)
    drawn = draw_phase(GENERIC, params, values, bots, st, piles, rng, work, events, 0)
    assert drawn == DRAW_OK
    assert st[S.R_SC, S.C_TAKEN] == parse_cards("9h")[0]
    assert st[S.R_SC, S.C_DISCARD_N] == 0


@pytest.mark.nojit
def test_1_8_turn_over_rebuilds_where_a_block_rule_would_end_the_hand():
    params, values, st, piles = _state("rummy_basic")
    _hold(params, st, 0, "2c 5d Kh")
    _empty_stock(st, piles, "4s 9h")
    bots, rng, work, events = _tools(2, st)
    drawn = draw_phase(GENERIC, params, values, bots, st, piles, rng, work, events, 0)
    assert drawn == DRAW_OK
    assert st[S.R_SC, S.C_REBUILDS] == 1 and st[S.R_SEAT, S.S_N] == 4


@pytest.mark.nojit
@pytest.mark.parametrize(("variant", "want"), [("block_rummy", 3), ("block_rummy@002", 10)])
def test_2F28_block_the_hand_ends_at_the_first_decline_and_that_turn_counts(variant, want):
    """Seat 0 takes the 9h (it completes 7-8-9h), lays the run down and discards the Kc;
    seat 1 does not want the Kc: the hand ends, Kd (10) against 2c 5d (7)."""
    params, values, st, piles = _state(variant)
    _hold(params, st, 0, "7h 8h Kc Kd")
    _hold(params, st, 1, "2c 5d")
    _empty_stock(st, piles, "4s 9h")
    bots, rng, work, events = _tools(2, st)
    st[S.R_SC, S.C_CURRENT] = 0
    reason, winner = play_turns(GENERIC, params, values, bots, st, piles, rng, work, events)
    assert (reason, winner) == (L.REASON_BLOCK, -1)  # the winner is named by the scoring
    assert st[S.R_SC, S.C_TURN] == 2
    assert _events(st, events)[-1] == (S.E_BLOCK, 1, parse_cards("Kc")[0], 0)
    scores = np.zeros(2, np.int64)
    assert score_block(GENERIC, params, values, st, scores) == 1
    assert scores.tolist() == [0, want]  # difference 10 - 7, or the other's total 10


# ---- the scores (§2F.28, §3.5's examples) -------------------------------------------------------


@pytest.mark.nojit
def test_2F28_block_difference_lowest_hand_collects_the_differences():
    scores, winner, bad = _block_scores("block_rummy", ["3c", "8c", "Qc 2d"])  # 3, 8, 12
    assert (scores, winner, bad) == ([14, 0, 0], 0, 0)


@pytest.mark.nojit
def test_2F28_block_totals_lowest_hand_collects_the_other_totals():
    scores, winner, bad = _block_scores("block_rummy@002", ["3c", "8c", "Qc 2d"])
    assert (scores, winner, bad) == ([20, 0, 0], 0, 0)


@pytest.mark.nojit
@pytest.mark.parametrize(("variant", "want"), [("block_rummy", 10), ("block_rummy@002", 14)])
def test_2F28_block_tied_lowest_split_the_pot_and_the_odd_point_goes_to_nobody(variant, want):
    """§3.5: totals 4, 4, 10, 19: the difference pot 21 or the totals' 29, split floor."""
    hands = ["4c", "4d", "Kc", "Kd 9d"]
    scores, winner, bad = _block_scores(variant, hands)
    assert (scores, winner, bad) == ([want, want, 0, 0], -1, 0)


@pytest.mark.nojit
def test_2F28_block_all_tied_nobody_scores():
    scores, winner, bad = _block_scores("block_rummy", ["7c", "7d", "7h"])
    assert (scores, winner, bad) == ([0, 0, 0], -1, 0)


@pytest.mark.nojit
def test_2G29_block_under_penalty_scoring_each_higher_hand_loses_its_total():
    hands = ["3c", "8c", "Qc 2d"]
    scores, winner, bad = _block_scores(
        "block_rummy", hands, scoring="penalty", game_end="penalty_limit:100"
    )
    assert (scores, winner, bad) == ([0, -8, -12], 0, 0)


@pytest.mark.nojit
def test_2F28_the_audit_counts_block_scores_that_do_not_add_up():
    params, values, st, _ = _state("block_rummy", 3)
    for seat, text in enumerate(["3c", "8c", "Qc 2d"]):
        _hold(params, st, seat, text)
    check = check_block_scores
    assert check(GENERIC, params, values, st, 0, np.array([14, 0, 0])) == 0
    assert check(GENERIC, params, values, st, 0, np.array([15, 0, 0])) == 1  # more than the pot
    assert check(GENERIC, params, values, st, 0, np.array([13, 0, 0])) == 1  # a point lost
    assert check(GENERIC, params, values, st, 0, np.array([14, 1, 0])) == 1  # a loser scores
    assert check(GENERIC, params, values, st, -1, np.array([14, 0, 0])) == 1  # the winner


# ---- whole hands ---------------------------------------------------------------------------------


def _flip(stock_exhaustion, players=4, hands=400):
    rules = load_variant("rummy_basic").with_values(
        {"stock_exhaustion": stock_exhaustion, "game_end": "single_hand"}
    )
    params, values = api.compile_rules(rules, players, audit=True)
    out = api.play(params, values, np.full(players, L.BOT_GREEDY), seed=28, hands=hands)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    return out


def test_2F28_flip_block_difference_block_totals_and_turn_over_on_the_same_deals():
    diff = _flip("block_difference")
    totals = _flip("block_totals")
    over = _flip("turn_over")
    reason = OUT.H_END_REASON
    blocked = diff.hand_rows[:, reason] == L.REASON_BLOCK
    assert 0.05 < blocked.mean() < 0.95
    assert not (over.hand_rows[:, reason] == L.REASON_BLOCK).any()
    # the same deals and the same trigger: the block rules end the same hands the same way
    assert np.array_equal(diff.hand_rows, totals.hand_rows)
    assert np.array_equal(diff.hand_scores[~blocked], totals.hand_scores[~blocked])
    # ... and score the blocks differently: the others' totals are at least the differences
    won_diff = diff.hand_scores[blocked].sum(axis=1)
    won_totals = totals.hand_scores[blocked].sum(axis=1)
    assert (won_totals >= won_diff).all() and (won_totals > won_diff).any()
    # turn_over plays the blocked hands on (rebuilding the stock) instead
    assert (over.hand_rows[blocked, OUT.H_TURNS] >= diff.hand_rows[blocked, OUT.H_TURNS]).all()
    assert (over.hand_rows[blocked, OUT.H_TURNS] > diff.hand_rows[blocked, OUT.H_TURNS]).any()
