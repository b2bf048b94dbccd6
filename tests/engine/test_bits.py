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


def _three_card_melds(ace) -> list[int]:
    """The mask of every group of three and every three-card run of one pack under ``ace``."""
    from sim.engine.positions import n_positions, position_ok, rank_at

    out = []
    for rank in range(13):
        for left_out in range(4):
            out.append(mask_of([rank * 4 + s for s in range(4) if s != left_out]))
    for suit in range(4):
        for start in range(n_positions(ace)):
            ps = [position_ok(start + j, ace) for j in range(3)]
            if min(ps) >= 0:
                out.append(mask_of([rank_at(p, ace) * 4 + suit for p in ps]))
    return out


def _search_state(ws) -> tuple:
    """What a search leaves in ``ws`` that anything could read: its scalars, its best rows,
    and the first candidate row at depth 0."""
    scal = tuple(
        int(ws.scal[i])
        for i in (
            melds.S_BEST_VALUE,
            melds.S_BEST_N,
            melds.S_CUR_N,
            melds.S_DONE,
            melds.S_TOTAL,
            melds.S_OVERFLOW,
        )
    )
    cand = tuple(int(x) for x in ws.cand[0, 0, : bits.CB_VALUE + 1])
    return scal, _rows(ws), int(ws.cand_n[0]), cand, tuple(int(x) for x in ws.cur[0])


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_1_3_a_single_three_card_meld_is_recorded_as_the_search_records_it(ace):
    """§1.3: three cards that may meld are one group or one run. ``_record_single_meld``
    writes it without listing candidates; the search tree, run on the same cards, must leave
    the very same rows and state (a run around the corner starts at its king, a
    high_or_low Q-K-A at position 11), and so must ``best_meld_through_bits``."""
    params, values = api.make_params(ace_rank=ace, ace_points=ACE_POINTS[ace])
    melds_seen = _three_card_melds(ace)
    assert len(melds_seen) == 52 + 4 * (
        13 if ace == ACE_AROUND_CORNER else 12 if ace == ACE_HIGH_OR_LOW else 11
    )
    for u in melds_seen:
        tree = melds.new_search_work()
        bits._begin_search_bits(tree, values, u)
        tree.node[0, bits.N_UNDECIDED] = u
        bits.search_tree_bits(tree, params, values, melds.MAX_ARRANGEMENT)
        want = _search_state(tree)
        for how in ("arrangement", "through"):
            ws = melds.new_search_work()
            ws.cand[0, 0, :] = -7  # stale rows must be overwritten
            ws.best[0, :] = -7
            if how == "arrangement":
                bits.best_arrangement_bits(ws, params, values, u, 0)
            else:
                bits.best_meld_through_bits(ws, params, values, u)
            assert _search_state(ws) == want, (how, [k for k in range(52) if u >> k & 1])


def _separate_melds(rng: random.Random) -> int:
    """A mask of whole groups (3 or 4 cards of a rank) and same-suit runs of 3 to 9 cards,
    apart from each other: no card next to a run in its suit, no rank of a run's card held
    three times (so nothing could be both in a group and in a run)."""
    u = 0
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.4:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), rng.choice((3, 4)))
            cand = mask_of([rank * 4 + s for s in suits])
        else:
            suit = rng.randrange(4)
            length = rng.randint(3, 9)
            start = rng.randrange(13 - length + 1)
            cand = mask_of([(start + j) * 4 + suit for j in range(length)])
        trial = u | cand
        runs = bits.in_run_windows(trial, ACE_LOW)
        grouped = bits.ranks_holding(trial, 3) & trial
        if u & cand == 0 and bits.may_meld(trial, ACE_LOW) == trial and grouped & runs == 0:
            u = trial
    return u


@pytest.mark.nojit
@pytest.mark.parametrize("limit", (0, 1, 2, 3))
def test_1_3_separate_groups_and_runs_are_recorded_as_the_search_records_them(limit):
    """§1.3 under ace low: when no card could be both in a group and in a run, the search's
    first arrangement that melds everything is found without the tree
    (``_record_separate_melds``): a run of 6 is two runs of 3, of 7 a 3 and a 4, a group of
    four whole. The tree search on the same cards must leave the same rows and scalars; with
    a meld limit too small for that arrangement the shortcut must step aside."""
    params, values = api.make_params()
    rng = random.Random(limit)
    taken = 0
    for _ in range(400):
        u = _separate_melds(rng)
        tree = melds.new_search_work()
        bits._begin_search_bits(tree, values, u)
        tree.node[0, bits.N_UNDECIDED] = u
        bits.search_tree_bits(tree, params, values, bits.search_limit(limit))
        ws = melds.new_search_work()
        ws.best[:, :] = -7
        bits.best_arrangement_bits(ws, params, values, u, limit)
        assert _search_state(ws)[:2] == _search_state(tree)[:2], (
            limit,
            [k for k in range(52) if u >> k & 1],
        )
        probe = melds.new_search_work()
        bits._begin_search_bits(probe, values, u)
        taken += bool(
            bits.popcount(u) > 3
            and bits._record_separate_melds(probe, params, values, u, bits.search_limit(limit))
        )
    assert taken > 40  # the shortcut itself was exercised, not only the search


@pytest.mark.nojit
def test_1_3_separate_melds_shortcut_steps_aside_for_other_aces_and_overlaps():
    """A card in both a group and a run (7s 7h 7d with 5s 6s) needs the tree; so do other
    ace rules, whose run candidates come in another order."""
    params, values = api.make_params()
    overlap = mask_of([6 * 4 + 0, 6 * 4 + 1, 6 * 4 + 2, 4 * 4 + 0, 5 * 4 + 0])
    ws = melds.new_search_work()
    bits._begin_search_bits(ws, values, overlap)
    assert not bits._record_separate_melds(ws, params, values, overlap, 9)
    high, hvalues = api.make_params(ace_rank=ACE_HIGH, ace_points=10)
    run = mask_of([j * 4 for j in range(4)])
    bits._begin_search_bits(ws, hvalues, run)
    assert not bits._record_separate_melds(ws, high, hvalues, run, 9)
    bits._begin_search_bits(ws, values, run)
    assert bits._record_separate_melds(ws, params, values, run, 9)


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_1_3_a_drawn_card_in_one_long_meld_is_recorded_as_the_search_records_it(ace):
    """§1.3: a hand but one card holds no meld, and that card makes one group of four or a
    run of four or five (the card anywhere in it). ``best_meld_through_bits`` answers
    without the tree (under ace low, ``_record_separate_melds``): the same rows and
    scalars as the tree search, under every ace rule."""
    params, values = api.make_params(ace_rank=ace, ace_points=ACE_POINTS[ace])
    cases = [mask_of([r * 4 + s for s in range(4)]) for r in range(13)]
    for suit in range(4):
        for length in (4, 5):
            for start in range(13 - length + 1):
                cases.append(mask_of([(start + j) * 4 + suit for j in range(length)]))
    loose = mask_of([1 * 4 + 0, 5 * 4 + 1, 9 * 4 + 2])  # cards far from most melds
    for u in cases:
        hand = u | (loose & ~bits.rank_fields(u) & ~bits.run_neighbours(u, 2, ace))
        tree = melds.new_search_work()
        bits._begin_search_bits(tree, values, bits.may_meld(hand, ace))
        tree.node[0, bits.N_UNDECIDED] = bits.may_meld(hand, ace)
        bits.search_tree_bits(tree, params, values, melds.MAX_ARRANGEMENT)
        ws = melds.new_search_work()
        ws.best[:, :] = -7
        assert (
            bits.best_meld_through_bits(ws, params, values, hand) == tree.scal[melds.S_BEST_VALUE]
        )
        assert _search_state(ws)[:2] == _search_state(tree)[:2], [
            k for k in range(52) if u >> k & 1
        ]
