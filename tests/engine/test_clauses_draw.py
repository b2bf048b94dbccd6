"""The non-standard draws (mechanic XD of RULES.md §4C): ``discard_draw = "any_card"``
(Throw Down, §2C.16, §3.6) with its stock rebuild ``shuffle_all``, and ``top_plus_one``
(Boat House's draw, §2C.16, §3.7, open points 2 and 3), on hand-built states and deals
played by the real kernels; and flip tests against ``discard_draw = "top"``."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import kernel_bots
from sim.engine.draw import DRAW_EXHAUSTED, DRAW_OK, draw_phase
from sim.engine.legal import allowed_naturals, discard_allowed
from sim.engine.specs import GENERIC
from sim.rules import load_variant

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    blank_state,
    cards_of,
    compiled,
    deal,
    events_of,
    no_violations,
    play_deal,
)

TOP_PLUS_ONE = {"discard_draw": "top_plus_one"}


def _state(variant="rummy_basic", **overrides):
    """A 2-player state between turns, nothing dealt: the tests give cards and piles."""
    params, values, st, piles = blank_state(variant, **overrides)
    st[S.R_SC, S.C_TURN] = 4
    return params, values, st, piles


def _hand(params, st, seat, text):
    for k in parse_cards(text):
        S.give(GENERIC, params, st, seat, k)


def _pile(st, piles, pile, count_col, text, ordered=None):
    cards = parse_cards(text)
    for i, k in enumerate(cards):
        piles[pile, i] = k
    st[S.R_SC, count_col] = len(cards)
    if ordered is not None:
        st[S.R_SC, S.C_STOCK_ORDERED] = ordered


def _area(st, piles, text):
    """The discard pile, the first thrown first (the top, or the last thrown, last)."""
    _pile(st, piles, S.PILE_DISCARD, S.C_DISCARD_N, text)


def _stock(st, piles, text):
    """The stock, its next card first (ordered)."""
    _pile(st, piles, S.PILE_STOCK, S.C_STOCK_N, " ".join(reversed(text.split())), ordered=1)


def _draw(params, values, st, piles, bots=(GREEDY, GREEDY), seed=0):
    rng = np.array([seed, seed + 1], np.uint64)
    events = np.zeros((20, S.EV_COLS), np.int64)
    st[S.R_SC, S.C_LOG] = 1
    st[S.R_SC, S.C_N_EVENTS] = 0
    seats = kernel_bots(np.array(bots))
    got = draw_phase(GENERIC, params, values, seats, st, piles, rng, M.new_work(), events, 0)
    n = int(st[S.R_SC, S.C_N_EVENTS])
    logged = [tuple(int(x) for x in events[i, : S.EV_N]) for i in range(n)]
    return got, logged


def _cards(piles, pile, n):
    return [int(k) for k in piles[pile, :n]]


def _held(params, st, text):
    return all(S.held(GENERIC, params, st, 0, k) == 1 for k in parse_cards(text))


# ---- any_card (§2C.16, §3.6) -------------------------------------------------------------


@pytest.mark.nojit
def test_2C16_any_card_takes_a_covered_card_of_the_area():
    # 7h lies under 2c; with 5h 6h it makes a run, so greedy takes it and the rest closes up
    params, values, st, piles = _state("throw_down_rummy")
    _hand(params, st, 0, "5h 6h Kc 2d 9s")
    _area(st, piles, "Qs 7h 2c")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_OK
    assert logged == [(S.E_DRAW_DISCARD, 0, parse_card("7h"), 0)]
    assert _held(params, st, "7h")
    assert _cards(piles, S.PILE_DISCARD, 2) == parse_cards("Qs 2c")
    assert st[S.R_SC, S.C_DISCARD_N] == 2 and st[S.R_SC, S.C_STOCK_N] == 2
    assert st[S.R_SC, S.C_TAKEN] == parse_card("7h")


@pytest.mark.nojit
def test_3_6_the_card_taken_from_the_area_may_not_be_discarded_that_turn():
    params, values, st, piles = _state("throw_down_rummy")
    _hand(params, st, 0, "5h 6h Kc 2d 9s")
    _area(st, piles, "Qs 7h 2c")
    _stock(st, piles, "4d 8c")
    _draw(params, values, st, piles)
    assert not discard_allowed(GENERIC, params, st, 0, parse_card("7h"))
    assert discard_allowed(GENERIC, params, st, 0, parse_card("Kc"))
    assert cards_of(allowed_naturals(st, 0)) == sorted(parse_cards("5h 6h Kc 2d 9s"))


@pytest.mark.nojit
@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_3_6_exactly_one_card_the_highest_valued_the_bot_wants(bot):
    # 7h (a run with 5h 6h) and Ks (a group with Kc Kd) are both wanted: Ks is worth more
    params, values, st, piles = _state("throw_down_rummy")
    _hand(params, st, 0, "5h 6h Kc Kd 2d")
    _area(st, piles, "7h Ks 2c")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles, bots=(bot, bot))
    assert got == DRAW_OK and logged == [(S.E_DRAW_DISCARD, 0, parse_card("Ks"), 0)]
    assert st[S.R_SEAT, S.S_N] == 6  # one card, not two
    assert _cards(piles, S.PILE_DISCARD, 2) == parse_cards("7h 2c")


@pytest.mark.nojit
def test_3_6_the_stock_when_no_card_of_the_area_is_wanted():
    params, values, st, piles = _state("throw_down_rummy")
    _hand(params, st, 0, "5h 6h Kc 2d 9s")
    _area(st, piles, "Qs Jd 2c")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_OK and logged == [(S.E_DRAW_STOCK, 0, parse_card("4d"), 0)]
    assert st[S.R_SC, S.C_DISCARD_N] == 3 and st[S.R_SC, S.C_TAKEN] == -1


@pytest.mark.nojit
def test_3_6_random_takes_a_uniform_card_of_the_area_or_the_stock():
    # over many streams: about half the draws come from the area, spread over its cards
    params, values, _, _ = _state("throw_down_rummy")
    taken = []
    for seed in range(200):
        _, _, st, piles = _state("throw_down_rummy")
        _hand(params, st, 0, "5h 6h Kc 2d 9s")
        _area(st, piles, "Qs 7h 2c Jd")
        _stock(st, piles, "4d 8c")
        _, logged = _draw(params, values, st, piles, bots=(RANDOM, RANDOM), seed=seed * 7919)
        taken.append(logged[0][2] if logged[0][0] == S.E_DRAW_DISCARD else -1)
    from_area = [k for k in taken if k >= 0]
    assert 70 < len(from_area) < 130
    assert set(from_area) == set(parse_cards("Qs 7h 2c Jd"))


@pytest.mark.nojit
def test_3_6_stock_rebuild_shuffles_the_whole_area_and_turns_up_a_new_upcard():
    area = "2c 3c 4c 5c 6c"
    upcards = set()
    for seed in range(12):
        params, values, st, piles = _state("throw_down_rummy")
        _hand(params, st, 0, "9h Kd Qs")  # nothing of the area melds or fits
        _area(st, piles, area)
        st[S.R_SC, S.C_STOCK_N] = 0
        got, logged = _draw(params, values, st, piles, seed=seed * 104729)
        assert got == DRAW_OK
        assert [e[0] for e in logged] == [S.E_REBUILD, S.E_DRAW_STOCK]
        up = int(piles[S.PILE_DISCARD, 0])
        assert st[S.R_SC, S.C_DISCARD_N] == 1 and logged[0][2:] == (4, up)
        assert st[S.R_SC, S.C_STOCK_ORDERED] == 0 and st[S.R_SC, S.C_REBUILDS] == 1
        drawn = logged[1][2]
        stock = _cards(piles, S.PILE_STOCK, int(st[S.R_SC, S.C_STOCK_N]))
        assert sorted([up, drawn, *stock]) == sorted(parse_cards(area))  # the whole area
        upcards.add(up)
    assert len(upcards) >= 3  # a card of the shuffled stock, not the old top (6c)


@pytest.mark.nojit
def test_3_6_no_stock_and_one_card_in_the_area_forces_it():
    params, values, st, piles = _state("throw_down_rummy")
    _hand(params, st, 0, "9h Kd Qs")
    _area(st, piles, "2c")
    st[S.R_SC, S.C_STOCK_N] = 0
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_OK and logged == [(S.E_DRAW_DISCARD, 0, parse_card("2c"), 0)]


@pytest.mark.nojit
def test_3_6_a_hand_of_throw_down_takes_a_covered_card():
    # turn 2: seat 1 wants both the upcard 7h (5h 6h) and Kh (Ks Kc) and takes Kh, worth
    # more; turn 4: the 7h lies under Jd and Td, and he takes it from there
    params, values = compiled("throw_down_rummy")
    fixed = deal(
        ["2s 4s 9c Qc Kh 3d Td 8s Ah 2d", "5h 6h Jd 3c 9s Ks 4d 8d 2h Kc"], "7h", "Jc 5s Qd 9h"
    )
    out = play_deal(fixed, params, values)
    taken = [(seat, a) for seat, a, _, _ in events_of(out, S.E_DRAW_DISCARD)]
    assert taken[:2] == [(1, parse_card("Kh")), (1, parse_card("7h"))]
    thrown = [a for _, a, _, _ in events_of(out, S.E_DISCARD)]
    assert thrown[:3] == parse_cards("Kh Jd Td")  # 7h covered by Jd and Td when taken
    melds = [sorted(cards) for _, _, _, cards in events_of(out, S.E_MELD)]
    assert melds[:2] == [sorted(parse_cards("Ks Kh Kc")), sorted(parse_cards("5h 6h 7h"))]
    no_violations(out)


# ---- top_plus_one (§2C.16, §3.7) -----------------------------------------------------------


@pytest.mark.nojit
def test_3_7_top_plus_one_the_second_card_from_the_pile_when_wanted():
    # 7h (the top) and 8h (next) both extend 5h 6h
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "Qs 8h 7h")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_OK
    assert logged == [
        (S.E_DRAW_DISCARD, 0, parse_card("7h"), 0),
        (S.E_DRAW_DISCARD, 0, parse_card("8h"), 1),
    ]
    assert st[S.R_SEAT, S.S_N] == 6 and st[S.R_SC, S.C_STOCK_N] == 2
    assert _cards(piles, S.PILE_DISCARD, 1) == parse_cards("Qs")


@pytest.mark.nojit
def test_3_7_top_plus_one_the_second_card_from_the_stock_when_the_next_is_not_wanted():
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "8h Qs 7h")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles)
    assert logged == [
        (S.E_DRAW_DISCARD, 0, parse_card("7h"), 0),
        (S.E_DRAW_STOCK, 0, parse_card("4d"), 1),
    ]
    assert st[S.R_SC, S.C_TAKEN] == parse_card("7h") and st[S.R_SC, S.C_TAKEN2] == -1


@pytest.mark.nojit
def test_3_7_open_point_2_one_discard_the_second_card_comes_from_the_stock():
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "7h")
    _stock(st, piles, "4d 8c")
    got, logged = _draw(params, values, st, piles)
    assert [e[0] for e in logged] == [S.E_DRAW_DISCARD, S.E_DRAW_STOCK]
    assert logged[1][2:] == (parse_card("4d"), 1)
    assert st[S.R_SC, S.C_DISCARD_N] == 0


@pytest.mark.nojit
def test_3_7_open_point_2_stock_empty_the_second_card_comes_from_the_pile():
    # Qs is not wanted, but with no stock the second card must be the next discard (the
    # stock is not rebuilt for it)
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "2c Qs 7h")
    st[S.R_SC, S.C_STOCK_N] = 0
    got, logged = _draw(params, values, st, piles)
    assert logged == [
        (S.E_DRAW_DISCARD, 0, parse_card("7h"), 0),
        (S.E_DRAW_DISCARD, 0, parse_card("Qs"), 1),
    ]
    assert st[S.R_SC, S.C_REBUILDS] == 0 and st[S.R_SC, S.C_DISCARD_N] == 1


@pytest.mark.nojit
def test_3_7_open_point_2_neither_there_he_may_not_take_the_discard_top():
    # one discard and no stock: under top_plus_one there is no second card, so the wanted
    # 7h may not be taken and nothing is left to draw; under top it would be forced
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "7h")
    st[S.R_SC, S.C_STOCK_N] = 0
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_EXHAUSTED and logged == [] and st[S.R_SEAT, S.S_N] == 4
    params, values, st, piles = _state()
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "7h")
    st[S.R_SC, S.C_STOCK_N] = 0
    got, logged = _draw(params, values, st, piles)
    assert got == DRAW_OK and logged == [(S.E_DRAW_DISCARD, 0, parse_card("7h"), 0)]


@pytest.mark.nojit
def test_3_7_open_point_3_neither_card_taken_from_the_pile_may_be_discarded():
    params, values, st, piles = _state(**TOP_PLUS_ONE)
    _hand(params, st, 0, "5h 6h 9c Kd")
    _area(st, piles, "Qs 8h 7h")
    _stock(st, piles, "4d 8c")
    _draw(params, values, st, piles)
    for card in ("7h", "8h"):
        assert not discard_allowed(GENERIC, params, st, 0, parse_card(card))
    assert discard_allowed(GENERIC, params, st, 0, parse_card("9c"))
    assert cards_of(allowed_naturals(st, 0)) == sorted(parse_cards("5h 6h 9c Kd"))


@pytest.mark.nojit
def test_3_7_open_point_3_a_kind_taken_twice_with_two_packs():
    params, _, st, _ = _state(decks=2, **TOP_PLUS_ONE)
    kd = parse_card("Kd")
    _hand(params, st, 0, "Kd Kd 2c")
    st[S.R_SC, S.C_TAKEN] = kd
    st[S.R_SC, S.C_TAKEN2] = kd
    assert not discard_allowed(GENERIC, params, st, 0, kd)  # both copies were taken
    assert cards_of(allowed_naturals(st, 0)) == [parse_card("2c")]
    st[S.R_SC, S.C_TAKEN2] = -1
    assert discard_allowed(GENERIC, params, st, 0, kd)  # the other copy was held before


@pytest.mark.nojit
def test_3_7_a_hand_of_top_plus_one_grows_by_one_and_discards_neither_taken_card():
    # seat 0 takes the upcard 7h and then the stock's next card (nothing else is in the pile),
    # melds 5h 6h 7h, and discards a card he held: his hand goes from 10 cards to 9 (not 8)
    params, values = compiled(**TOP_PLUS_ONE)
    fixed = deal(["5h 6h 2s 4s 9c Qc Kh 3d Td 8s", "Jd 3c 9s Ks 4d 8d 2h Kc Ac 5c"], "7h", "Jc 5s")
    out = play_deal(fixed, params, values)
    kinds = [int(row[S.EV_TYPE]) for row in out.events]
    first = kinds.index(S.E_DRAW_DISCARD)
    assert kinds[first : first + 2] == [S.E_DRAW_DISCARD, S.E_DRAW_STOCK]
    assert events_of(out, S.E_DRAW_STOCK)[0][:3] == (0, parse_card("Jc"), 1)
    discard = events_of(out, S.E_DISCARD)[0]
    assert discard[0] == 0 and discard[1] not in parse_cards("7h Jc")
    melded = events_of(out, S.E_MELD)[0]
    assert sorted(melded[3]) == sorted(parse_cards("5h 6h 7h"))
    no_violations(out)


# ---- flips against discard_draw = "top" -------------------------------------------------------


def _flip(variant, players, **overrides):
    rules = load_variant(variant, {"game_end": "single_hand", **overrides})
    params, values = api.compile_rules(rules, players, audit=True)
    out = api.play(
        params, values, np.full(players, L.BOT_GREEDY), seed=17, hands=300, events=300 * 300
    )
    assert out.counters[R.C_VIOLATIONS] == 0
    return out


def _deals(out):
    return [tuple(int(x) for x in row[: S.EV_CARDS + 10]) for row in out.events
            if row[S.EV_TYPE] == S.E_DEAL]  # fmt: skip


def test_2C16_flip_any_card_against_top_on_the_same_deals():
    anywhere = _flip("throw_down_rummy", 4)
    top = _flip("throw_down_rummy", 4, discard_draw="top")
    assert _deals(anywhere) == _deals(top)  # the same shuffles
    # any_card takes a card from the area more often (covered ones: the clause tests above)
    assert (
        anywhere.hand_rows[:, R.H_DRAWS_DISCARD].sum() > top.hand_rows[:, R.H_DRAWS_DISCARD].sum()
    )
    assert (anywhere.hand_rows[:, R.H_TURNS] != top.hand_rows[:, R.H_TURNS]).any()
    # ... and never two cards in a turn
    assert all(b == 0 for _, _, b, _ in events_of(anywhere, S.E_DRAW_DISCARD))


def test_2C16_flip_top_plus_one_against_top_on_the_same_deals():
    plus = _flip("rummy_basic", 4, discard_draw="top_plus_one")
    top = _flip("rummy_basic", 4)
    assert _deals(plus) == _deals(top)
    seconds = [
        b for _, _, b, _ in events_of(plus, S.E_DRAW_DISCARD) + events_of(plus, S.E_DRAW_STOCK)
    ]
    assert seconds.count(1) > 0  # second cards, after every take of the discard top
    firsts = [b for _, _, b, _ in events_of(plus, S.E_DRAW_DISCARD)].count(0)
    assert seconds.count(1) == firsts
    assert all(b == 0 for _, _, b, _ in events_of(top, S.E_DRAW_DISCARD))
    assert (plus.hand_rows[:, R.H_TURNS] != top.hand_rows[:, R.H_TURNS]).any()
