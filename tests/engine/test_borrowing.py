"""Borrowing (RULES.md §2D.22): a player takes one natural card from a table meld and uses
it at once in a new meld with cards from his hand; the meld left behind stays legal.
Kernel-level clauses on hand-built tables (sim/engine/borrow.py's readings), greedy's
choice, then whole games: the toggle changes every bot's play on the same seed, audit mode
finds nothing, and the rules model refuses what the engine does not play. The oracle hand
(tests/oracles) checks greedy's borrowing against a plain-Python reading too.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.audit import _meld_ok
from sim.engine.borrow import borrow_meld, borrowable
from sim.engine.greedy import greedy_table
from sim.engine.specs import GENERIC
from sim.replay import _describe
from sim.rules import ConfigError, load_variant

from .helpers import CAREFUL, GREEDY, RANDOM, blank_state, compiled
from .test_jokers import _events, _hold, _k, _log_on, _mask, _meld, _tools


def _state(variant="rummy_basic", borrowing="any", **overrides):
    """A blank 2-player table of ``variant`` in audit mode (``helpers.blank_state``)."""
    return blank_state(variant, 2, audit=True, borrowing=borrowing, **overrides)


def _candidate(params, values, st, seat, kind, work):
    """The one meld of ``seat``'s hand with ``kind`` added, in workspace row W_BEST."""
    layers = st[S.R_SEAT + seat, S.S_HAND : S.S_HAND + M.MAX_LAYERS].copy()
    layers[0] |= 1 << kind
    M.best_arrangement(GENERIC, params, values, work, layers, 0, 0, 0, -1, 0)
    assert work[M.W_SCAL, M.S_BEST_N] == 1
    return M.W_BEST


@pytest.mark.nojit
def test_2D_22_a_group_of_four_lends_any_of_its_cards_and_one_of_three_none():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    four = _meld(params, values, st, 0, "7s 7h 7d 7c", 0, work, events)
    three = _meld(params, values, st, 0, "9s 9h 9d", 0, work, events)
    assert borrowable(GENERIC, params, st, 1, four) == _mask("7s 7h 7d 7c")
    assert borrowable(GENERIC, params, st, 1, three) == 0


@pytest.mark.nojit
def test_2D_22_a_run_lends_only_its_ends_never_splitting_in_two():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    assert borrowable(GENERIC, params, st, 1, m) == _mask("4h 7h")


@pytest.mark.nojit
def test_2D_22_own_lends_only_from_melds_one_laid_down():
    params, values, st, _ = _state(borrowing="own")
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    assert borrowable(GENERIC, params, st, 1, m) == 0
    assert borrowable(GENERIC, params, st, 0, m) == _mask("4h 7h")
    params, values, st, _ = _state(borrowing="off")
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    assert borrowable(GENERIC, params, st, 0, m) == 0


@pytest.mark.nojit
def test_2D_22_the_borrowed_card_goes_into_a_new_meld_and_the_old_one_stays_legal():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    _log_on(st)
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    _hold(params, st, 1, "7s 7d Kc")
    cand = _candidate(params, values, st, 1, _k("7h"), work)
    t = borrow_meld(GENERIC, params, st, events, 1, m, _k("7h"), work, cand)
    assert st[S.R_MELD + m, S.M_CARDS] == _mask("4h 5h 6h") and st[S.R_MELD + m, S.M_LEN] == 3
    assert st[S.R_MELD + t, S.M_CARDS] == _mask("7s 7h 7d")
    assert st[S.R_SEAT + 1, S.S_HAND] == _mask("Kc") and st[S.R_SEAT + 1, S.S_N] == 1
    assert _meld_ok(GENERIC, params, st, m) and _meld_ok(GENERIC, params, st, t)
    assert _events(st, events, S.E_BORROW) == [(1, m, _k("7h"))]
    assert st[S.R_SC, S.C_VIOLATIONS] == 0
    assert borrowable(GENERIC, params, st, 1, t) == 0  # one card a turn


@pytest.mark.nojit
def test_2D_22_the_first_card_of_a_run_leaves_it_one_position_up():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    _hold(params, st, 1, "4s 4d")
    cand = _candidate(params, values, st, 1, _k("4h"), work)
    borrow_meld(GENERIC, params, st, events, 1, m, _k("4h"), work, cand)
    assert st[S.R_MELD + m, S.M_LO] == 4 and st[S.R_MELD + m, S.M_CARDS] == _mask("5h 6h 7h")
    assert _meld_ok(GENERIC, params, st, m)


@pytest.mark.nojit
def test_2D_22_the_audit_counts_a_borrow_not_used_in_the_new_meld():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    _hold(params, st, 1, "9s 9d 9c")
    cand = _candidate(params, values, st, 1, _k("9h"), work)  # 9s 9d 9c (and 9h) ...
    work[cand, M.CA_TAKE] &= ~_mask("9h")  # ... a meld without the borrowed card
    work[cand, M.CA_LEN] = 3
    borrow_meld(GENERIC, params, st, events, 1, m, _k("7h"), work, cand)
    assert st[S.R_SC, S.C_VIOLATIONS] == 1


@pytest.mark.nojit
@pytest.mark.parametrize("limit", ["none", "not_more_than_naturals"])
def test_2D_22_under_the_joker_limit_a_meld_is_not_left_with_more_jokers(limit):
    """5♥ ★ ★ 8♥: two jokers, two naturals. Lending a natural would leave one natural and
    two jokers, which the joker limit forbids (§2B.10)."""
    params, values, st, _ = _state(jokers=2, joker_limit=limit)
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "5h 8h", 2, work, events)
    lent = borrowable(GENERIC, params, st, 1, m)
    assert lent == (0 if limit == "not_more_than_naturals" else _mask("5h 8h"))


@pytest.mark.nojit
def test_2D_22_a_group_is_not_left_with_three_cards_and_an_undeclared_joker():
    """Under three_card_group (§2B.11) a 3-card group's joker must be declared."""
    params, values, st, _ = _state(jokers=2, joker_declare="three_card_group")
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "7s 7h 7d", 1, work, events)  # 4 cards: not declared
    assert borrowable(GENERIC, params, st, 1, m) == 0
    st[S.R_MELD + m, S.M_DECLARED] = _mask("7c")
    assert borrowable(GENERIC, params, st, 1, m) == _mask("7s 7h 7d")


@pytest.mark.nojit
def test_2D_22_no_borrowing_before_ones_initial_meld_or_past_the_meld_limit():
    params, values, st, _ = _state(initial_meld_min=30)
    work, events, _ = _tools()
    st[S.R_SEAT, S.S_OPENED] = 1
    m = _meld(params, values, st, 0, "Ts Js Qs Ks", 0, work, events)
    S.clear_turn_facts(st)
    assert borrowable(GENERIC, params, st, 1, m) == 0  # seat 1 has not opened
    st[S.R_SEAT + 1, S.S_OPENED] = 1
    assert borrowable(GENERIC, params, st, 1, m) == _mask("Ts Ks")
    params, values, st, _ = _state(melds_per_turn="one")
    m = _meld(params, values, st, 0, "Ts Js Qs Ks", 0, work, events)
    assert borrowable(GENERIC, params, st, 0, m) == 0  # he laid a meld down this turn
    S.clear_turn_facts(st)
    assert borrowable(GENERIC, params, st, 0, m) == _mask("Ts Ks")


@pytest.mark.nojit
@pytest.mark.parametrize("borrowing", ["off", "any"])
def test_2D_22_greedy_borrows_a_card_that_melds_its_own(borrowing):
    """Seat 1 holds 7♠ 7♦ K♣ 2♠ and nothing melds; 7♥ from seat 0's 4-5-6-7♥ makes 7♠ 7♥
    7♦, so greedy borrows it (14 points of its own melded); without borrowing it keeps its
    hand."""
    params, values, st, piles = _state(borrowing=borrowing)
    work, events, rng = _tools()
    m = _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    S.clear_turn_facts(st)
    _log_on(st)
    _hold(params, st, 1, "7s 7d Kc 2s")
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 1, L.BOT_GREEDY, 0)
    if borrowing == "off":
        assert st[S.R_SEAT + 1, S.S_N] == 4 and st[S.R_SC, S.C_N_MELDS] == 1
        return
    assert _events(st, events, S.E_BORROW) == [(1, m, _k("7h"))]
    assert st[S.R_MELD + 1, S.M_CARDS] == _mask("7s 7h 7d")
    assert st[S.R_SEAT + 1, S.S_HAND] == _mask("Kc 2s")


@pytest.mark.nojit
def test_2D_22_greedy_borrows_nothing_that_melds_none_of_its_own():
    """Nothing of seat 1's hand melds with 4♥ or 7♥ (the cards 4-5-6-7♥ lends), so it
    borrows nothing."""
    params, values, st, piles = _state()
    work, events, rng = _tools()
    _meld(params, values, st, 0, "4h 5h 6h 7h", 0, work, events)
    S.clear_turn_facts(st)
    _log_on(st)
    _hold(params, st, 1, "9s 9d Kc 2s")
    greedy_table(GENERIC, params, values, st, piles, rng, events, work, 1, L.BOT_GREEDY, 0)
    assert _events(st, events, S.E_BORROW) == []


def test_2D_22_replay_shows_the_borrow():
    events = np.zeros((1, S.EV_COLS), np.int64)
    events[0, : S.EV_N + 1] = (S.E_BORROW, 1, 0, _k("7h"), 0)
    (line,) = _describe(events, ["greedy", "greedy"])
    assert line.strip().startswith("borrows") and line.endswith("from #0")


# ---- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("borrowing", ["own", "any"])
@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
def test_2D_22_borrowing_changes_every_bots_game(bot, borrowing):
    players = 4
    outs = []
    for value in (borrowing, "off"):
        params, values = compiled("rummy_basic", players, borrowing=value)
        out = api.play(params, values, np.full(players, bot, np.int64), seed=5, hands=200,
                       events=2_000_000)  # fmt: skip
        assert int(out.counters[R.C_VIOLATIONS]) == 0
        outs.append(out)
    borrows = [int((o.events[:, S.EV_TYPE] == S.E_BORROW).sum()) for o in outs]
    assert borrows[0] > 0 and borrows[1] == 0
    assert not np.array_equal(outs[0].hand_rows, outs[1].hand_rows)


@pytest.mark.nojit
def test_2D_22_the_rules_model_refuses_borrowing_without_progressive_melding():
    with pytest.raises(ConfigError, match="borrowing"):
        load_variant("full_rummy", {"borrowing": "any"})
