"""The compile-time mechanism (sim/engine/specs.py) and the generated params layout
(sim/engine/layout.py)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import audit, carousel, carousel_score, conquian, game, go_out, partnership
from sim.engine import layout as L
from sim.engine.api import kernel_bots, with_bots
from sim.engine.jit import kernel
from sim.engine.layout import P_ACE_RANK, P_CALL_RUMMY
from sim.engine.specs import (
    FOLD_HANDS,
    GENERIC,
    ONE_PACK_KNOCK,
    ONE_PACK_RUMMY,
    RUNTIME,
    STANDARD,
    compiled_under,
    fixed,
    gated,
    plan_specs,
    rule,
    spec_for,
    spec_named,
)
from sim.rules.toggles import TOGGLES, Kind


@kernel
def _read_ace_rank(fx, params):
    return rule(fx, params, P_ACE_RANK)


@kernel
def _read_call_rummy(fx, params):
    return rule(fx, params, P_CALL_RUMMY)


@gated(P_CALL_RUMMY, lambda v: v == 1, np.int64(-7))
@kernel
def _calls_phase(fx, params, x):
    """Stands for a mechanic that runs only under ``call_rummy = on``."""
    return x + 1


@kernel
def _turn(fx, params, x):
    return _calls_phase(fx, params, x)


@pytest.mark.nojit
def test_every_toggle_has_its_own_slot_and_param_toggles_a_number_slot():
    slots = [L.slot(t.name) for t in TOGGLES]
    assert len(set(slots)) == len(slots)
    for t in TOGGLES:
        if t.kind is Kind.PARAM:
            assert L.arg_slot(t.name) == L.slot(t.name) + 1
    assert max(L.SLOTS.values()) == L.N_PARAMS - 1


@pytest.mark.nojit
def test_codes_tell_every_declared_value_apart():
    for t in TOGGLES:
        if t.kind is Kind.CHOICE:
            codes = [L.code(t.name, v) for v in t.choices]
            assert len(set(codes)) == len(codes), t.name


def test_a_fixed_slot_is_a_constant_and_an_unfixed_slot_is_read():
    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_ACE_RANK] = L.ACE_AROUND_CORNER
    assert _read_ace_rank(GENERIC, params) == L.ACE_AROUND_CORNER
    assert _read_ace_rank(STANDARD, params) == L.ACE_LOW  # the constant, whatever params say
    assert STANDARD.values[L.P_PLAYERS] == RUNTIME


@pytest.mark.nojit
def test_spec_for_takes_the_most_specific_matching_spec():
    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_PACKS] = 1
    params[L.P_UPCARD] = 1  # zero is upcard off
    params[L.P_TONK_WAIT] = L.code("tonk_wait", "off")
    params[L.P_RUN_MAX] = 13  # runs of up to 13 cards (run_max's default)
    assert spec_for(params) is STANDARD
    params[L.P_ACE_RANK] = L.ACE_HIGH  # ONE_PACK_RUMMY reads the ace's rank at run time
    assert spec_for(params) is ONE_PACK_RUMMY
    params[L.P_MELD_TIMING] = L.TIMING_ALL_AT_ONCE  # one of the timings it is limited to
    assert spec_for(params) is ONE_PACK_RUMMY
    params[L.P_MELD_TIMING] = L.TIMING_KNOCK
    assert spec_for(params) is GENERIC
    params[L.P_MELD_TIMING] = L.TIMING_PROGRESSIVE
    params[L.P_MC_SEATS] = 1  # an mcN seat: its playouts are compiled only by GENERIC
    assert spec_for(params) is GENERIC
    custom = fixed("high", {"ace_rank": "high"})
    assert custom.matches(params) and not STANDARD.matches(params)


def _params(variant: str, players: int, bots: list[int]) -> np.ndarray:
    from sim.engine.api import compile_rules
    from sim.rules import load_variant

    params, _ = compile_rules(load_variant(variant), players)
    return with_bots(params, kernel_bots(np.array(bots)))


@pytest.mark.nojit
def test_a_plan_folds_standard_into_one_pack_rummy_only_when_it_compiles_that_anyway():
    """``plan_specs``: a plan with STANDARD's and ONE_PACK_RUMMY's rule sets compiles
    ONE_PACK_RUMMY alone (``make run``'s default experiment: one spec on a first run), but
    STANDARD's sets alone keep STANDARD, past ``FOLD_HANDS`` hands they keep it too, and
    nothing folds into another spec (gin keeps ONE_PACK_KNOCK beside Tonk's GENERIC)."""
    g = L.BOT_GREEDY
    basic = _params("rummy_basic", 2, [g, g])
    corner = _params("around_the_corner", 2, [g, g])
    gin = _params("gin_rummy", 2, [g, g])
    tonk = _params("tonk", 2, [g, g])
    assert plan_specs([(basic, 1000), (corner, 1000)]) == [ONE_PACK_RUMMY, ONE_PACK_RUMMY]
    assert plan_specs([(basic, 1000), (basic, 5)]) == [STANDARD, STANDARD]
    big = FOLD_HANDS // 2
    kept = [STANDARD, STANDARD, ONE_PACK_RUMMY]
    assert plan_specs([(basic, big), (basic, big), (corner, 1)]) == kept
    assert plan_specs([(basic, big), (basic, big - 1), (corner, 1)])[0] is ONE_PACK_RUMMY
    assert plan_specs([(gin, 10), (tonk, 10), (basic, 10)]) == [ONE_PACK_KNOCK, GENERIC, STANDARD]
    assert spec_named("one_pack_rummy") is ONE_PACK_RUMMY
    with pytest.raises(ValueError, match="no spec 'fast'"):
        spec_named("fast")


@pytest.mark.nojit
def test_an_mc_seat_sets_the_engine_slot_that_specs_read():
    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_PLAYERS] = 2
    plain = kernel_bots(np.array([L.BOT_GREEDY, L.BOT_CAREFUL]))
    assert with_bots(params, plain)[L.P_MC_SEATS] == 0
    mc = kernel_bots(np.array([L.BOT_GREEDY, L.BOT_MC32]))
    assert with_bots(params, mc)[L.P_MC_SEATS] == 1
    assert params[L.P_MC_SEATS] == 0  # a copy


def test_a_gated_kernel_is_a_stand_in_where_the_spec_fixes_its_rule_off():
    params = np.zeros(L.N_PARAMS, np.int64)
    assert STANDARD.values[P_CALL_RUMMY] == 0  # STANDARD fixes call_rummy off
    # GENERIC compiles the kernel itself (the caller reads the rule before calling it)
    assert _turn(GENERIC, params, np.int64(5)) == 6
    # STANDARD compiles the stand-in, whose value shows it is the one compiled
    assert _turn(STANDARD, params, np.int64(5)) == -7
    # called from Python, the gated kernel is the kernel
    assert _calls_phase(STANDARD, params, np.int64(5)) == 6


def test_a_gated_kernel_is_a_stand_in_where_the_spec_limits_its_rule_to_values_it_never_runs():
    params = np.zeros(L.N_PARAMS, np.int64)
    params[P_CALL_RUMMY] = 1
    limited = fixed("no_calls", {"call_rummy": (False,)})
    both = fixed("calls_or_not", {"call_rummy": (False, True)})
    assert both.matches(params) and not limited.matches(params)
    assert _read_call_rummy(both, params) == 1  # a limited slot is read at run time
    assert _turn(limited, params, np.int64(5)) == -7  # none of its values runs the phase
    assert _turn(both, params, np.int64(5)) == 6  # one of them does


def test_compiled_under_says_which_specs_compile_a_gated_kernel():
    assert not compiled_under(_calls_phase, STANDARD)
    assert compiled_under(_calls_phase, GENERIC)
    assert not compiled_under(_calls_phase, fixed("no_calls", {"call_rummy": (False,)}))
    assert compiled_under(_calls_phase, fixed("calls_or_not", {"call_rummy": (False, True)}))
    assert compiled_under(_turn, STANDARD)  # not gated: every spec compiles it


FIXED_PATTERN = (go_out.pattern_out, go_out.lay_pattern, audit._pattern_on_table)
CONTINENTAL = (go_out.wild_out, go_out.quick_out)
CAROUSEL = (carousel_score.carousel_over, carousel_score.carousel_final,
            carousel.check_carousel_turn)  # fmt: skip
GIN = (game.gin_game_bonuses, partnership.team_hand)
NOT_MAKE_RUN = (*FIXED_PATTERN, *CONTINENTAL, *CAROUSEL, conquian.check_conquian, *GIN)


def test_make_runs_specs_compile_no_fixed_pattern_carousel_conquian_or_gin_code():
    """§3.11, §3.15-16, §3.19, §3.21 are compiled only where they can be played: ``make run``
    compiles ONE_PACK_RUMMY (issue #29's cold-compile bar; STANDARD for ``make bench``), which fix
    ``go_out_pattern = "none"`` and the rummy family; the pattern searches alone took ~22 s
    of its ~200 s (docs/perf-log.md, 2026-12-07)."""
    for spec in (STANDARD, ONE_PACK_RUMMY):
        for gated_kernel in NOT_MAKE_RUN:
            assert not compiled_under(gated_kernel, spec), (gated_kernel.__name__, spec.name)
    for gated_kernel in NOT_MAKE_RUN:
        assert compiled_under(gated_kernel, GENERIC), gated_kernel.__name__
    for gated_kernel in GIN:  # 2-player gin, and 4-player gin's partnership game
        assert compiled_under(gated_kernel, ONE_PACK_KNOCK), gated_kernel.__name__


def test_a_gated_kernel_takes_the_spec_first():
    with pytest.raises(TypeError, match="takes the spec"):
        gated(P_CALL_RUMMY, lambda v: v == 1, None)(lambda params, fx: 0)


def test_a_slot_that_is_not_a_literal_does_not_compile():
    from numba import njit
    from numba.core.errors import TypingError

    @njit
    def read(fx, params):
        return rule(fx, params, L.P_ACE_RANK)  # a module attribute: not a literal

    with pytest.raises(TypingError, match="rule"):
        read(GENERIC, np.zeros(L.N_PARAMS, np.int64))
