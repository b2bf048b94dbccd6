"""The bitmask fast path (sim/engine/bits.py) against the count-array kernels and the oracle.

RULES.md §1.3 (melds), §1.13 (deadwood), §2A.4 (ace_rank), §2B.9 (group_duplicates, which
changes only the order groups are tried in with one pack), §2D.19 (at most one meld).

The fast path must not only find the same minimum deadwood as the exact search of
``melds.py``: the bots lay down the arrangement it returns, so it must return the very same
rows (same melds, same order, same card order) for every hand, ties included.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import api, bits, melds
from sim.engine import state as S
from sim.engine.bots import in_partial_meld
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    ACE_LOW,
    RUN_ANY_SUIT,
    RUN_SAME_SUIT,
)
from tests.oracles import deadwood as oracle

from .helpers import mask_of, random_one_pack_hand

ACES = [ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER]
ACE_POINTS = {ACE_LOW: 1, ACE_HIGH: 10, ACE_HIGH_OR_LOW: 15, ACE_AROUND_CORNER: 11}
SIZES = (3, 5, 7, 8, 10, 11, 11, 12, 14, 16, 20)


def _rows(ws) -> list[tuple[int, ...]]:
    out = []
    for m in range(int(ws.scal[melds.S_BEST_N])):
        length = int(ws.best[m, melds.CC_LEN])
        out.append(tuple(int(x) for x in ws.best[m, : melds.CC_CARDS + length]))
    return out


def _compare(ace, dup, max_melds, hands, seed) -> list[str]:
    params, values = api.make_params(ace_rank=ace, group_duplicates=dup, ace_points=ACE_POINTS[ace])
    values_list = [int(v) for v in values]
    general = melds.new_search_work()
    fast = melds.new_search_work()
    rng = random.Random(seed)
    bad = []
    for i in range(hands):
        cards = random_one_pack_hand(rng, rng.choice(SIZES))
        hand = api.counts_of(cards)
        mask = mask_of(cards)
        v1 = melds.best_arrangement(general, params, values, hand, max_melds)
        v2 = bits.best_arrangement_bits(fast, params, values, mask, max_melds)
        if v1 != v2 or _rows(general) != _rows(fast):
            bad.append(f"{sorted(cards)}: {v1} {_rows(general)} != {v2} {_rows(fast)}")
        if i % 10 == 0:  # the oracle is slow; a sample is enough next to the general search
            expected = oracle.min_deadwood(
                sorted(cards), ace, RUN_SAME_SUIT, dup, values_list, max_melds
            )
            if int(hand @ values) - int(v2) != expected:
                bad.append(f"{sorted(cards)}: oracle {expected}")
        for k in cards:
            if bool(melds.forms_meld_with(general, params, hand, k)) != bool(
                bits.forms_meld_bits(params, mask, k)
            ):
                bad.append(f"{sorted(cards)}: forms_meld {k}")
    return bad[:5]


CASES = [
    pytest.param(ace, dup, max_melds, id=f"ace{ace}-dup{int(dup)}-m{max_melds}")
    for ace in ACES
    for dup in (False, True)
    for max_melds in (0, 1, 2)
]


@pytest.mark.parametrize("ace, dup, max_melds", CASES)
def test_1_13_bitmask_search_returns_the_same_arrangement(ace, dup, max_melds):
    assert _compare(ace, dup, max_melds, 3000, seed=ace * 100 + dup * 10 + max_melds) == []


@pytest.mark.nojit
@pytest.mark.parametrize("ace, dup, max_melds", CASES[::3])
def test_1_13_bitmask_search_returns_the_same_arrangement_small(ace, dup, max_melds):
    assert _compare(ace, dup, max_melds, 60, seed=7) == []


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_partial_meld_mask_matches_in_partial_meld(ace):
    params, _values = api.make_params(ace_rank=ace)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    rng = random.Random(ace)
    for _ in range(150):
        cards = random_one_pack_hand(rng, rng.choice(SIZES))
        st.hand[0, :] = api.counts_of(cards)
        partial = bits.partial_melds(mask_of(cards), ace)
        for k in cards:
            assert bool((partial >> k) & 1) == bool(in_partial_meld(st, params, 0, k)), (
                sorted(cards),
                k,
            )


@pytest.mark.nojit
def test_fast_path_applies_to_one_pack_without_jokers_and_same_suit_runs():
    assert bits.fast_path(api.make_params()[0])
    assert bits.fast_path(api.make_params(ace_rank=ACE_AROUND_CORNER, group_duplicates=True)[0])
    assert not bits.fast_path(api.make_params(decks=2)[0])
    assert not bits.fast_path(api.make_params(jokers=2)[0])
    assert not bits.fast_path(api.make_params(run_suit=RUN_ANY_SUIT)[0])


@pytest.mark.nojit
def test_bit_counting():
    for x in (1, 2, 3, 0xF0, (1 << 51) | 1, (1 << 59) - 1):
        assert bits.popcount(x) == bin(x).count("1")
        assert bits.lowest_bit(x) == (x & -x).bit_length() - 1
