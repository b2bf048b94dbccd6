"""The joker slide (RULES.md §2B.13, Double Rum §3.9): the natural card a run's end joker
stands for is laid off in its place and the joker moves beyond the other end, once per
joker (§3.9 open point 2; the extension ``joker_slide_repeat`` lifts the limit); interior
jokers never move. Kernel-level clauses on hand-built tables, then whole games: the toggle
changes play on the same seed, audit mode finds nothing, and the rules model refuses the
combinations the engine does not play.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import api
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.audit import _meld_ok
from sim.engine.specs import GENERIC
from sim.engine.table import lay_off, lay_off_joker, meld_fits, slide_kinds, stands_for
from sim.replay import _describe
from sim.rules import ConfigError, load_variant

from .helpers import CAREFUL, GREEDY, RANDOM, blank_state, compiled
from .test_jokers import _events, _hold, _k, _log_on, _mask, _meld, _tools


def _state(variant="double_rum", **overrides):
    """A blank 2-player table of ``variant`` in audit mode (``helpers.blank_state``)."""
    return blank_state(variant, 2, audit=True, **overrides)


def _run_with_top_joker(params, values, st, work, events):
    """Seat 0 lays down 5-6-7♥ and lays a joker off on it: 5♥ 6♥ 7♥ ★ (★ = 8♥)."""
    m = _meld(params, values, st, 0, "5h 6h 7h", 0, work, events)
    _hold(params, st, 0, "", 1)
    lay_off_joker(GENERIC, params, st, events, 0, m)
    assert stands_for(GENERIC, params, st, m) == _mask("8h")
    return m


@pytest.mark.nojit
def test_2B_13_the_end_jokers_card_is_laid_off_in_its_place_and_the_joker_slides():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    _log_on(st)
    m = _run_with_top_joker(params, values, st, work, events)
    assert meld_fits(GENERIC, params, st, m) == _mask("4h 8h 9h")  # the ends; 8♥ slides
    _hold(params, st, 1, "8h 2c")
    lay_off(GENERIC, params, st, events, 1, m, _k("8h"))
    row = S.R_MELD + m
    assert st[row, S.M_CARDS] == _mask("5h 6h 7h 8h") and st[row, S.M_JOKERS] == 1
    assert st[row, S.M_LEN] == 5
    assert stands_for(GENERIC, params, st, m) == _mask("4h")  # ★ 5♥ 6♥ 7♥ 8♥
    assert _events(st, events, S.E_SLIDE) == [(1, m, _k("8h"))]
    assert st[S.R_SC, S.C_LAYOFFS] == 2  # the joker, then the slide: a lay-off too
    assert _meld_ok(GENERIC, params, st, m)  # the audit's check of a table meld


@pytest.mark.nojit
def test_2B_13_a_joker_slides_once():
    """§3.9 open point 2 (default once): after its slide the joker's card (4♥) no longer
    fits in its place; the run's ends (3♥, 9♥) still do."""
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _run_with_top_joker(params, values, st, work, events)
    _hold(params, st, 1, "8h")
    lay_off(GENERIC, params, st, events, 1, m, _k("8h"))
    assert slide_kinds(GENERIC, params, st, m) == 0
    assert meld_fits(GENERIC, params, st, m) == _mask("3h 9h")


@pytest.mark.nojit
def test_2B_13_joker_slide_repeat_lets_it_slide_again():
    """The extension's flip of the test above: 4♥ takes the joker's place and it goes back
    to the top (9♥)."""
    params, values, st, _ = _state("double_rum@slide_repeat")
    work, events, _ = _tools()
    m = _run_with_top_joker(params, values, st, work, events)
    _hold(params, st, 1, "8h 4h")
    lay_off(GENERIC, params, st, events, 1, m, _k("8h"))
    assert slide_kinds(GENERIC, params, st, m) == _mask("4h")
    lay_off(GENERIC, params, st, events, 1, m, _k("4h"))
    assert stands_for(GENERIC, params, st, m) == _mask("9h")
    assert st[S.R_MELD + m, S.M_CARDS] == _mask("4h 5h 6h 7h 8h")


@pytest.mark.nojit
def test_2B_13_without_the_slide_the_jokers_card_does_not_fit():
    params, values, st, _ = _state(joker_slide=False)
    work, events, _ = _tools()
    m = _run_with_top_joker(params, values, st, work, events)
    assert meld_fits(GENERIC, params, st, m) == _mask("4h 9h")


@pytest.mark.nojit
def test_2B_13_interior_jokers_never_move():
    """5♥ ★ 7♥ (★ = 6♥): 6♥ fits nowhere but the ends' 4♥ and 8♥."""
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "5h 7h", 1, work, events)
    assert stands_for(GENERIC, params, st, m) == _mask("6h")
    assert slide_kinds(GENERIC, params, st, m) == 0
    assert meld_fits(GENERIC, params, st, m) == _mask("4h 8h")


@pytest.mark.nojit
def test_2B_13_a_joker_slides_only_where_the_other_end_has_room():
    """Q♥ K♥ A♥ (ace high, no wrap under high_or_low) takes a joker only below: ★ Q♥ K♥ A♥
    (★ = J♥). There is no position beyond the ace, so J♥ cannot slide the joker; 10♥ fits
    below it as usual."""
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "Qh Kh Ah", 0, work, events)
    _hold(params, st, 0, "", 1)
    lay_off_joker(GENERIC, params, st, events, 0, m)
    assert stands_for(GENERIC, params, st, m) == _mask("Jh")
    assert meld_fits(GENERIC, params, st, m) == _mask("Th")


@pytest.mark.nojit
def test_2B_13_the_bottom_joker_slides_to_the_top():
    """T♥ J♥ Q♥ ★ (★ = K♥): K♥ slides the joker to the bottom (9♥); under
    ``joker_slide_repeat`` 9♥ then slides it back above, to the ace high."""
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _meld(params, values, st, 0, "Th Jh Qh", 0, work, events)
    row = S.R_MELD + m
    _hold(params, st, 0, "", 1)
    lay_off_joker(GENERIC, params, st, events, 0, m)  # T J Q ★ (★ = K♥)
    _hold(params, st, 1, "Kh")
    lay_off(GENERIC, params, st, events, 1, m, _k("Kh"))  # ★ T J Q K (★ = 9♥), slid once
    assert stands_for(GENERIC, params, st, m) == _mask("9h")
    params2, _, _, _ = _state("double_rum@slide_repeat")
    assert slide_kinds(GENERIC, params2, st, m) == _mask("9h")  # the bottom joker, repeat on
    _hold(params, st, 1, "9h")
    lay_off(GENERIC, params2, st, events, 1, m, _k("9h"))  # 9 T J Q K ★ (★ = A♥ high)
    assert stands_for(GENERIC, params, st, m) == _mask("Ah")
    assert st[row, S.M_LO] == 8 and st[row, S.M_LEN] == 6


@pytest.mark.nojit
def test_2B_13_the_audit_flags_a_slide_mark_off_a_joker():
    params, values, st, _ = _state()
    work, events, _ = _tools()
    m = _run_with_top_joker(params, values, st, work, events)
    row = S.R_MELD + m
    st[row, S.M_SLID] = 1 << 7  # the joker's position (8♥; the low ace is position 0)
    st[row, S.M_FITS] = meld_fits(GENERIC, params, st, m)  # 8♥ no longer slides it
    assert _meld_ok(GENERIC, params, st, m)
    st[row, S.M_SLID] = 1 << 4  # the position of 5♥, a natural card
    st[row, S.M_FITS] = meld_fits(GENERIC, params, st, m)
    assert not _meld_ok(GENERIC, params, st, m)


def test_2B_13_replay_shows_the_slide():
    events = np.zeros((1, S.EV_COLS), np.int64)
    events[0, : S.EV_N + 1] = (S.E_SLIDE, 1, 0, _k("8h"), 0)
    (line,) = _describe(events, ["greedy", "greedy"])
    assert "8♥" in line or "8h" in line
    assert "slides to the other end" in line


# ---- whole games -----------------------------------------------------------------------------


def _slides(out) -> int:
    return int((out.events[:, S.EV_TYPE] == S.E_SLIDE).sum())


@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
def test_2B_13_the_slide_changes_double_rum(bot):
    """Every bot slides jokers in Double Rum, with no violation; without the slide the same
    seed plays different hands and never slides."""
    players = 4
    outs = []
    for slide in (True, False):
        params, values = compiled("double_rum", players, joker_slide=slide)
        out = api.play(params, values, np.full(players, bot, np.int64), seed=3, hands=200,
                       events=2_000_000)  # fmt: skip
        assert int(out.counters[R.C_VIOLATIONS]) == 0
        outs.append(out)
    assert _slides(outs[0]) > 0 and _slides(outs[1]) == 0
    assert not np.array_equal(outs[0].hand_rows, outs[1].hand_rows)


@pytest.mark.nojit
def test_2B_13_the_rules_model_refuses_what_the_engine_does_not_play():
    with pytest.raises(ConfigError, match="joker_slide"):
        load_variant("double_rum", {"run_suit": "any_suit"})
    with pytest.raises(ConfigError, match="joker_slide_repeat"):
        load_variant("double_rum", {"joker_slide": False, "joker_slide_repeat": True})


@pytest.mark.nojit
def test_3_9_double_rum_plays_its_rules():
    rules = load_variant("double_rum")
    values = rules.values
    assert (values["decks"], values["jokers"], values["group_duplicates"]) == (2, 4, "allowed")
    assert values["joker_slide"] and not values["joker_slide_repeat"]
    assert list(rules.player_counts) == [2, 3, 4, 5, 6]
    assert all(rules.deal[p] == 10 for p in rules.player_counts)
