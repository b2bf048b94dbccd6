"""``fixed_rules``: the standard rules as compile-time constants, and the hand kernel compiled
on them (``mask_hand.play_mask_hand_standard``) against the one that reads every rule.

RULES.md §1 with the defaults of §2A.1-2 (one pack, no jokers), §2A.4 (ace low), §2A.6 (runs
of one suit), §2B.9, §2C.15 (upcard), §2D.19-21, §2E.26-27 and §2F.28 (turn over).
The constants change how the hand is compiled, never what it does: the two kernels must
leave every array exactly alike, hand after hand.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from sim.engine import fixed_rules, mask_hand
from sim.engine import layout as L
from sim.engine.state import EV_COLS, SC_VALUES_RISE, new_state, values_rise
from sim.rules import compile_rules, load_variant

STANDARD_VARIANTS = [("rummy_basic", players) for players in range(2, 7)] + [
    ("rummy_basic@000", 4),
    ("rummy_basic@003", 5),  # joker_replace is set, but without jokers it plays no part
]

OTHER_VALUE = {  # a legal value other than the standard one, for each fixed toggle
    L.P_DECKS: 2,
    L.P_JOKERS: 2,
    L.P_ACE_RANK: L.ACE_HIGH,
    L.P_RUN_SUIT: L.RUN_ANY_SUIT,
    L.P_GROUP_DUPLICATES: 1,
    L.P_UPCARD: 0,
    L.P_MELDS_PER_TURN: L.MELDS_ONE,
    L.P_LAYOFF_TARGET: L.LAYOFF_OWN_ONLY,
    L.P_LAYOFF_REQUIRES: L.LREQ_AFTER_FIRST_MELD,
    L.P_MUST_DISCARD_TO_GO_OUT: 1,
    L.P_GOING_RUMMY: L.RUMMY_DOUBLE,
    L.P_STOCK_EXHAUSTION: L.STOCK_BLOCK_TOTALS,
}


def _params(variant: str, players: int, **overrides) -> tuple[np.ndarray, np.ndarray]:
    c = compile_rules(load_variant(variant, overrides or None), players)
    return c.params, c.card_values


@numba.njit
def _standard_tuple(params):
    return fixed_rules.standard_params(params)


def test_every_fixed_toggle_has_another_value_here():
    assert set(OTHER_VALUE) == set(fixed_rules.STANDARD)
    assert all(OTHER_VALUE[i] != v for i, v in fixed_rules.STANDARD.items())


@pytest.mark.nojit
@pytest.mark.parametrize(("variant", "players"), STANDARD_VARIANTS)
def test_2_the_default_toggles_are_the_standard_rules(variant, players):
    params, _ = _params(variant, players)
    assert fixed_rules.is_standard(params)


@pytest.mark.nojit
@pytest.mark.parametrize("index", sorted(OTHER_VALUE))
def test_2_any_fixed_toggle_off_its_default_is_not_standard(index):
    params, _ = _params("rummy_basic", 2)
    params[index] = OTHER_VALUE[index]
    assert not fixed_rules.is_standard(params)


@pytest.mark.nojit  # compiled: the intrinsic; without the JIT: the plain-Python tuple
@pytest.mark.parametrize(("variant", "players"), [("rummy_basic", 2), ("rummy_basic", 5)])
def test_standard_params_holds_the_same_values_as_the_array(variant, players):
    params, _ = _params(variant, players, turn_cap=137)
    assert _standard_tuple(params) == tuple(int(x) for x in params)


def _fresh(params, values):
    st = new_state(params, np.zeros((1, EV_COLS), np.int64))
    st.sc[SC_VALUES_RISE] = values_rise(values)
    return st


def _play_both(params, values, bots, hands: int, seed: int) -> int:
    """Play ``hands`` hands with each kernel on its own reused state; assert that every
    hand ends alike and leaves every array alike. Returns the hands that stalled."""
    a, b = _fresh(params, values), _fresh(params, values)
    players = int(params[L.P_PLAYERS])
    stalled = 0
    for deal in range(hands):
        dealer = deal % players
        out = []
        for kernel, st in (
            (mask_hand.play_mask_hand_standard, a),
            (mask_hand.play_mask_hand_ace_low, b),
        ):
            ended = kernel(
                st.pl, st.piles, st.melds, st.sc, st.rng, st.ws,
                params, values, bots, dealer, seed, 0, deal,
            )  # fmt: skip
            out.append(ended)
        assert out[0] == out[1], deal
        for name in ("pl", "piles", "melds", "sc", "rng"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (deal, name)
        for field in a.ws._fields:
            assert np.array_equal(getattr(a.ws, field), getattr(b.ws, field)), (deal, field)
        stalled += out[0][0] == L.REASON_STALLED
    return stalled


@pytest.mark.parametrize(("variant", "players"), STANDARD_VARIANTS)
def test_2_the_standard_kernel_plays_as_the_kernel_that_reads_the_rules(variant, players):
    rng = random.Random(players)
    params, values = _params(variant, players, turn_cap=rng.choice([61, 137, 500]))
    assert fixed_rules.is_standard(params)
    for lineup in ((L.BOT_GREEDY,), (L.BOT_CAREFUL,), (L.BOT_GREEDY, L.BOT_CAREFUL)):
        bots = np.array([rng.choice(lineup) for _ in range(players)], np.int64)
        _play_both(params, values, bots, 600, seed=rng.randrange(1 << 30))


def test_1_8_the_standard_kernel_stalls_as_the_kernel_that_reads_the_rules():
    params, values = _params("rummy_basic", 2, turn_cap=61)
    bots = np.array([L.BOT_GREEDY, L.BOT_GREEDY], np.int64)
    assert _play_both(params, values, bots, 3000, seed=5) >= 10


@pytest.mark.nojit
def test_2_the_standard_kernel_plays_as_the_kernel_that_reads_the_rules_small():
    params, values = _params("rummy_basic", 3)
    bots = np.array([L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_GREEDY], np.int64)
    _play_both(params, values, bots, 4, seed=9)
