"""Melds through one card beyond one page of the search's candidate buffer (``MAX_CAND``).

With runs of any suit (RULES.md §2A.6) and several jokers (§2A.2), one card can be in
thousands of melds. ``melds.melds_with`` lists them a page at a time; the search, the
random bot's list of actions and ``forms_meld_with`` read every page, so the deadwood is
still the least (§1.13) and every legal meld stays a choice. Found by an audit sweep: a
random bot's hand of 8 naturals and 3 jokers had more than 512 melds through its lowest
card, and the rest were silently dropped.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.cards import JOKER, N_KINDS, parse_cards
from sim.engine import api, melds
from sim.engine import layout as L
from sim.engine.melds import (
    CC_CARDS,
    CC_LEN,
    CC_START,
    CC_TYPE,
    S_MORE,
    S_OVERFLOW,
    forms_meld_with,
    melds_with,
    new_search_work,
)
from sim.rules import compile_rules, load_variant
from tests.oracles import deadwood as oracle

pytestmark = pytest.mark.nojit  # quick enough to run with the JIT off too

# The random bot's hand of the audit sweep (ace high, runs of any suit), and its card with
# the most melds through it: 528.
HAND = parse_cards("3d 4h 5s 6h 7h 7d 8s 9s Jk Jk Jk")
CARD = parse_cards("6h")[0]
# A hand whose lowest card, where the search branches first, is in 645 melds.
SEARCHED = parse_cards("6h 7h 7d 8s 8c 9s 9d Ts Js Jk Jk Jk")
RULES = dict(ace_rank=L.ACE_HIGH, run_suit=L.RUN_ANY_SUIT, jokers=4, ace_points=10)


def _every_page(ws, params, card: int) -> tuple[list[tuple], int]:
    """All rows ``melds_with`` lists through ``card``, page after page, and the pages."""
    rows: list[tuple] = []
    page = 0
    more = 1
    while more == 1:
        n = melds_with(ws, params, 0, card, page)
        more = int(ws.scal[S_MORE])
        assert n == melds.MAX_CAND or more == 0  # only a full page says there is more
        for i in range(n):
            length = int(ws.cand[0, i, CC_LEN])
            cards = tuple(int(k) for k in ws.cand[0, i, CC_CARDS : CC_CARDS + length])
            rows.append((int(ws.cand[0, i, CC_TYPE]), int(ws.cand[0, i, CC_START]), cards))
        page += 1
    return rows, page


def test_1_3_every_meld_through_a_card_is_listed_once_over_several_pages():
    params, _ = api.make_params(**RULES)
    ws = new_search_work()
    ws.cnt[:] = api.counts_of(HAND)
    rows, pages = _every_page(ws, params, CARD)
    assert pages == 2 and len(rows) == 528
    assert len(set(rows)) == len(rows)  # no meld twice, none lost between pages
    expected = {m for m in oracle.all_melds(HAND, L.ACE_HIGH, L.RUN_ANY_SUIT, False) if CARD in m}
    assert {tuple(sorted(cards)) for _, _, cards in rows} == expected


@pytest.mark.parametrize("max_melds", [0, 1])
def test_1_13_least_deadwood_of_a_hand_with_two_pages_at_its_first_node(max_melds):
    """The old buffer flagged this search as cut short (S_OVERFLOW); it found the value
    anyway, on the first page, so the small-page tests below are what shows pages matter."""
    params, values = api.make_params(**RULES)
    ws = new_search_work()
    ws.cnt[:] = api.counts_of(SEARCHED)
    assert _every_page(ws, params, min(SEARCHED))[1] == 2
    value, melds = api.min_deadwood(SEARCHED, params, values, max_melds)
    assert int(api._work().scal[S_OVERFLOW]) == 0
    values_list = [int(v) for v in values]
    expected = oracle.min_deadwood(
        SEARCHED, L.ACE_HIGH, L.RUN_ANY_SUIT, False, values_list, max_melds
    )
    assert value == expected
    assert oracle.deadwood_of(SEARCHED, melds, values_list) == value
    assert all(oracle.is_meld(m, L.ACE_HIGH, L.RUN_ANY_SUIT, False) for m in melds)
    assert len(melds) <= max_melds or max_melds == 0


SMALL_PAGE = 5
"""A page size that makes nearly every listing span several pages (JIT off only: compiled
kernels keep ``MAX_CAND`` as a constant)."""
needs_python = pytest.mark.skipif(
    not numba.config.DISABLE_JIT, reason="MAX_CAND can only be patched with NUMBA_DISABLE_JIT=1"
)


def _play(rules: dict, seats: list[int], hands: int):
    compiled = compile_rules(load_variant("rummy_basic", rules), len(seats), audit=True)
    return api.play(compiled.params, compiled.card_values, np.array(seats), seed=5, hands=hands)


@needs_python
@pytest.mark.parametrize(
    "seats", [[L.BOT_RANDOM, L.BOT_RANDOM], [L.BOT_GREEDY, L.BOT_CAREFUL]], ids=["random", "bots"]
)
def test_2A_6_play_is_the_same_whatever_the_page_size(monkeypatch, seats):
    """Pages change nothing: with pages of 5 melds, the random bot's actions (every page
    counted, then the chosen one found), the search of greedy and careful, and
    ``forms_meld_with`` make the same plays as with pages of 512. Without the page loops
    these hands play differently."""
    rules = {"jokers": 2, "run_suit": "any_suit", "ace_rank": "high_or_low"}
    reference = _play(rules, seats, 30)
    monkeypatch.setattr(melds, "MAX_CAND", SMALL_PAGE)
    paged = _play(rules, seats, 30)
    assert int(paged.counters[L.C_VIOLATIONS]) == 0
    for name in ("hand_rows", "hand_scores", "game_rows"):
        assert np.array_equal(getattr(paged, name), getattr(reference, name)), name


@needs_python
def test_1_3_a_joker_melds_when_every_meld_with_it_is_past_the_first_page(monkeypatch):
    """``forms_meld_with(JOKER)`` reads every page: a hand whose first listed melds hold no
    joker (groups of naturals come first) still melds its joker."""
    monkeypatch.setattr(melds, "MAX_CAND", 1)
    params, _ = api.make_params(jokers=2)
    hand = np.zeros(N_KINDS, np.int64)
    hand[:] = api.counts_of(parse_cards("7s 7h 7d Jk"))
    ws = new_search_work()
    ws.cnt[:] = hand
    assert _every_page(ws, params, parse_cards("7s")[0])[1] > 1
    assert forms_meld_with(ws, params, hand, JOKER)
