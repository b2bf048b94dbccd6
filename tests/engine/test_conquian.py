"""Conquian (RULES.md §3.21): the 40-card deal without an upcard, the exposed card that never
enters a hand, melding only with it and only on one's own melds, rearranging one's own
melds, forcing, going out with 11 cards melded, drawn hands and their stake, the run cap,
and games of first to 3 tentos.

Rules on hand-built tables go through ``conquian.py``'s kernels (``best_use``,
``apply_use``, ``conquian_turn``); whole hands of hand-built deals and whole games show
them in play; flips show each setting changes the games; the rules model refuses what
Conquian does not use.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards, rank_of
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import kernel_bots, play
from sim.engine.conquian import (
    TURN_DRAWN,
    TURN_ON,
    TURN_OUT,
    apply_use,
    best_use,
    conquian_turn,
    own_cards,
)
from sim.engine.game import next_stake
from sim.engine.melds import new_work
from sim.engine.specs import GENERIC
from sim.rules import ConfigError, load_variant
from sim.rules.model import Rules

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    blank_state,
    compiled,
    deal,
    events_of,
    mask_of,
    no_violations,
    play_deal,
)

WORK = new_work()
EVENTS = np.zeros((200, S.EV_COLS), np.int64)


def _table(hands: list[str], **overrides):
    """A blank Conquian table: seats 0 and 1 hold ``hands``. (params, values, st, piles)"""
    params, values, st, piles = blank_state("conquian", 2, audit=True, **overrides)
    for seat, text in enumerate(hands):
        for k in parse_cards(text):
            S.give(GENERIC, params, st, seat, k)
    st[S.R_SC, S.C_STOCK_N] = 0
    return params, values, st, piles


def _use(params, values, st, seat: int, card: str) -> int:
    """``seat`` uses ``card`` in its best use (which must exist); returns the cards melded."""
    kind = parse_card(card)
    count, where = best_use(GENERIC, params, values, st, WORK, seat, kind)
    assert count > 0, f"{card} has no use"
    apply_use(GENERIC, params, st, WORK, EVENTS, seat, kind, where)
    return int(count)


def _melds(st, seat: int) -> list[list[int]]:
    """``seat``'s table melds, each as its sorted kinds."""
    out = []
    for m in range(int(st[S.R_SC, S.C_N_MELDS])):
        if st[S.R_MELD + m, S.M_OWNER] == seat:
            cards = int(st[S.R_MELD + m, S.M_CARDS])
            out.append(sorted(k for k in range(52) if cards >> k & 1))
    return sorted(out)


def _kinds(text: str) -> list[int]:
    return sorted(parse_cards(text))


def _offer(st, piles, card: str) -> None:
    """``card`` lies face up on the discard pile, on offer."""
    n = int(st[S.R_SC, S.C_DISCARD_N])
    piles[S.PILE_DISCARD, n] = parse_card(card)
    st[S.R_SC, S.C_DISCARD_N] = n + 1
    st[S.R_SC, S.C_LIVE] = 1


def _stock(st, piles, cards: str) -> None:
    """The stock holds ``cards``, the first on top (ordered)."""
    kinds = parse_cards(cards)
    for i, k in enumerate(reversed(kinds)):
        piles[S.PILE_STOCK, i] = k
    st[S.R_SC, S.C_STOCK_N] = len(kinds)
    st[S.R_SC, S.C_STOCK_ORDERED] = 1


def _turn(params, values, st, piles, bots, seat: int = 0) -> int:
    rng = np.zeros(4, np.uint64)
    st[S.R_SC, S.C_LOG] = 1
    st[S.R_SC, S.C_N_EVENTS] = 0
    return int(
        conquian_turn(
            GENERIC,
            params,
            values,
            kernel_bots(np.array(bots)),
            st,
            piles,
            rng,
            WORK,
            EVENTS,
            np.int64(seat),
        )  # fmt: skip
    )


def _events(st, etype: int) -> list[tuple[int, int, int]]:
    n = int(st[S.R_SC, S.C_N_EVENTS])
    return [
        (int(e[S.EV_SEAT]), int(e[S.EV_A]), int(e[S.EV_B])) for e in EVENTS[:n] if e[0] == etype
    ]


# ---- the deal and the turn (§3.21) -------------------------------------------------------------


def test_3_21_forty_cards_ten_each_no_upcard_and_the_non_dealer_starts():
    params, values = compiled("conquian", 2)
    out = play(params, values, np.array([GREEDY, GREEDY]), seed=4, hands=30, events=20_000)
    no_violations(out)
    dealt = events_of(out, S.E_DEAL)
    assert all(len(cards) == 10 for _, _, _, cards in dealt)
    assert all(not 7 <= rank_of(k) <= 9 for _, _, _, cards in dealt for k in cards)
    assert events_of(out, S.E_UPCARD) == []
    first = events_of(out, S.E_EXPOSE)[0]  # the first turn turns up the stock's top card
    assert first[0] != int(out.hand_rows[0, R.H_DEALER])


def test_3_21_hand_cards_never_meld_on_their_own_and_an_unusable_stock_card_is_passed():
    """Seat 0 holds 3-4-5♠, a meld, but the stock card 4♦ melds with nothing he holds: he
    passes it face up, melds nothing and discards nothing; seat 1 may then take it."""
    fixed = deal(["3S 4S 5S KH QD 2C 6H JD AC 7D", "AS 2S 6S 7S JS QS KS AH 2H 3H"], None, "4D 5H")
    params, values = compiled("conquian", 2)
    out = play_deal(fixed, params, values)
    no_violations(out)
    first = [e for e in out.events if e[S.EV_SEAT] == 0][:3]
    types = [int(e[S.EV_TYPE]) for e in out.events[: int(out.counters[R.C_EVENTS])]]
    assert tuple(types[2:4]) == (S.E_EXPOSE, S.E_PASS)  # after the two deals
    assert all(int(e[S.EV_TYPE]) != S.E_MELD for e in first)
    assert events_of(out, S.E_PASS)[0][:2] == (0, parse_card("4D"))


def test_3_21_the_exposed_card_melds_with_hand_cards_then_a_discard_goes_on_offer():
    params, values, st, piles = _table(["3S 4S KH QD 2C", "AH"])
    _stock(st, piles, "5S")
    assert _turn(params, values, st, piles, [GREEDY, GREEDY]) == TURN_ON
    assert _melds(st, 0) == [_kinds("3S 4S 5S")]
    assert int(st[S.R_SEAT, S.S_N]) == 2  # 5 - 2 melded - 1 discarded
    assert st[S.R_SC, S.C_LIVE] == 1 and _events(st, S.E_DISCARD)[0][0] == 0


def test_3_21_a_rejected_card_leaves_play_and_the_stock_card_is_turned_up():
    params, values, st, piles = _table(["3S 4S KH QD 2C", "AH"])
    _offer(st, piles, "JC")  # melds with nothing
    _stock(st, piles, "5S")
    assert _turn(params, values, st, piles, [GREEDY, GREEDY]) == TURN_ON
    assert _events(st, S.E_REJECT) == [(0, parse_card("JC"), 0)]
    assert _events(st, S.E_EXPOSE) == [(0, parse_card("5S"), 0)]
    assert piles[S.PILE_DISCARD, 0] == parse_card("JC")  # face down under the new discard
    assert int(st[S.R_SC, S.C_DISCARD_N]) == 2


# ---- one's own melds and rearranging (§3.21, §2D.23) -----------------------------------------


def test_3_21_rearranging_seed_example_3_4_5_6_and_two_6s_become_3_4_5_and_6_6_6():
    params, values, st, _ = _table(["3S 4S 5S 6H KD", ""])
    _use(params, values, st, 0, "6S")
    assert _melds(st, 0) == [_kinds("3S 4S 5S 6S")]
    assert _use(params, values, st, 0, "6D") == 6
    assert _melds(st, 0) == [_kinds("3S 4S 5S"), _kinds("6S 6H 6D")]
    assert int(st[S.R_SEAT, S.S_N]) == 1  # KD


def test_3_21_from_4_5_6_the_split_is_illegal_because_4_5_is_no_meld():
    params, values, st, _ = _table(["4S 5S 6H KD", ""])
    _use(params, values, st, 0, "6S")
    count, _ = best_use(GENERIC, params, values, st, WORK, 0, parse_card("6D"))
    assert count == 0


def test_2D_23_without_rearranging_the_6_6_6_cannot_be_formed():
    params, values, st, _ = _table(["3S 4S 5S 6H KD", ""], rearrange="none")
    _use(params, values, st, 0, "6S")
    count, _ = best_use(GENERIC, params, values, st, WORK, 0, parse_card("6D"))
    assert count == 0
    assert _use(params, values, st, 0, "7S") == 5  # a lay-off: the run grows to 3-7
    assert _melds(st, 0) == [_kinds("3S 4S 5S 6S 7S")]


def test_3_21_lay_offs_go_only_on_ones_own_melds():
    params, values, st, _ = _table(["3S 4S KD", "3H 4H QC"])
    _use(params, values, st, 0, "5S")  # seat 0's 3-4-5♠
    count, _ = best_use(GENERIC, params, values, st, WORK, 1, parse_card("6S"))
    assert count == 0  # fits seat 0's run, not seat 1's
    assert _use(params, values, st, 0, "6S") == 4


def test_3_21_one_meld_action_a_turn_holds_the_exposed_card():
    """Hand cards that meld on their own stay in hand: a use forms at most one meld more
    than it touched (open point 2), and every meld it forms holds the exposed card or a
    touched table card."""
    params, values, st, _ = _table(["3S 4S JH QH KH 2C", ""])
    assert _use(params, values, st, 0, "5S") == 3
    assert _melds(st, 0) == [_kinds("3S 4S 5S")]  # J-Q-K♥ stays in hand


# ---- forcing (§3.21) ---------------------------------------------------------------------------


def test_3_21_forcing_seed_example_the_owner_of_5_5_5_must_add_the_5_and_discard():
    params, values, st, piles = _table(["5S 5H KD 2C", "AH"])
    _use(params, values, st, 0, "5D")
    _offer(st, piles, "5C")
    _stock(st, piles, "JS")
    # seat 0 plays at random (who may reject); careful seat 1 forces him
    assert _turn(params, values, st, piles, [RANDOM, CAREFUL]) == TURN_ON
    assert _events(st, S.E_FORCE) == [(1, parse_card("5C"), 0)]
    assert _melds(st, 0) == [_kinds("5S 5H 5D 5C")]
    assert _events(st, S.E_DISCARD)[0][0] == 0 and _events(st, S.E_EXPOSE) == []


def test_3_21_a_card_that_fits_none_of_his_melds_cannot_be_forced():
    params, values, st, piles = _table(["5S 5H KD 2C", "AH"])
    _use(params, values, st, 0, "5D")
    _offer(st, piles, "JC")
    _stock(st, piles, "JS")
    _turn(params, values, st, piles, [GREEDY, CAREFUL])
    assert _events(st, S.E_FORCE) == []
    assert _events(st, S.E_REJECT)[0][:2] == (0, parse_card("JC"))


# ---- going out, drawn hands, the stake (§3.21) ---------------------------------------------------


def _ten_melded(**overrides):
    params, values, st, piles = _table(["AS 2S 3S JH QH 7S 7H", "AH"], **overrides)
    _use(params, values, st, 0, "4S")
    _use(params, values, st, 0, "KH")
    _use(params, values, st, 0, "7D")
    assert int(st[S.R_SEAT, S.S_N]) == 0 and len(_melds(st, 0)) == 3
    return params, values, st, piles


def test_3_21_going_out_takes_11_melded_cards_and_no_discard():
    params, values, st, piles = _ten_melded()
    _stock(st, piles, "5S")
    assert _turn(params, values, st, piles, [GREEDY, GREEDY]) == TURN_OUT
    assert sum(len(m) for m in _melds(st, 0)) == 11 and _events(st, S.E_DISCARD) == []


def test_3_21_with_10_melded_and_an_empty_hand_he_keeps_drawing_until_a_card_fits():
    params, values, st, piles = _ten_melded()
    _stock(st, piles, "2D 5S")
    assert _turn(params, values, st, piles, [GREEDY, GREEDY]) == TURN_ON
    assert _events(st, S.E_PASS) == [(0, parse_card("2D"), 0)]


def test_3_21_a_rejection_with_the_stock_empty_draws_the_hand():
    params, values, st, piles = _table(["3S 4S KH QD 2C", "AH"])
    _offer(st, piles, "JC")
    assert _turn(params, values, st, piles, [GREEDY, GREEDY]) == TURN_DRAWN


@pytest.mark.nojit
def test_3_21_a_drawn_hand_makes_the_next_worth_2_and_each_further_one_adds_1():
    stake = 1
    seen = []
    for reason in (R.REASON_EXHAUSTED, R.REASON_EXHAUSTED, R.REASON_WENT_OUT):
        stake = int(next_stake(np.int64(stake), np.int64(reason)))
        seen.append(stake)
    assert seen == [2, 3, 1]


def _games(seed: int = 3, games: int = 60, bots=(GREEDY, CAREFUL), **overrides):
    rules = load_variant("conquian", overrides or None)
    params, values = compiled("conquian", 2, **overrides)
    return play(params, values, np.array(bots, np.int64), seed=seed, games=games), rules


def test_3_21_the_winner_earns_the_stake_in_tentos_and_a_game_is_first_to_3():
    out, _ = _games(games=200)
    no_violations(out)
    rows = out.hand_rows[: out.hands]
    stake = 1
    for h in range(out.hands):
        if h and rows[h, R.H_GAME] != rows[h - 1, R.H_GAME]:
            stake = 1
        want = [stake if seat == rows[h, R.H_WINNER] else 0 for seat in range(2)]
        assert list(out.hand_scores[h]) == want
        stake = stake + 1 if rows[h, R.H_END_REASON] == R.REASON_EXHAUSTED else 1
    assert (rows[:, R.H_END_REASON] == R.REASON_EXHAUSTED).any()
    for g in range(out.games):
        mine = np.flatnonzero(rows[:, R.H_GAME] == out.game_rows[g, R.G_GAME])
        final = out.hand_totals[mine[-1]]
        assert final.max() >= 3 and (out.hand_totals[mine[:-1]] < 3).all()
        assert out.game_rows[g, R.G_WINNER] == int(np.argmax(final))


@pytest.mark.parametrize("bots", [(RANDOM, RANDOM), (GREEDY, GREEDY), (CAREFUL, CAREFUL),
                                  (RANDOM, CAREFUL)])  # fmt: skip
def test_3_21_every_bot_plays_whole_games_with_no_violation(bots):
    out, _ = _games(seed=7, games=40, bots=bots)
    no_violations(out)
    assert out.games == 40


# ---- the run cap (§1.3, extension run_max) and the flips ---------------------------------------


def test_1_3_conquian_caps_runs_at_8():
    params, values, st, _ = _table(["AS 2S 3S 4S 5S 6S 7S JS", ""])
    assert _use(params, values, st, 0, "QS") == 8  # A..J or 2..Q: 8 of the 9
    params, values, st, _ = _table(["AS 2S 3S 4S 5S 6S 7S JS", ""], run_max=13)
    assert _use(params, values, st, 0, "QS") == 9


CONQUIAN_OPTIONS = [{"rearrange": "none"}, {"run_max": 5}, {"strip_8_9_10": False}]


@pytest.mark.parametrize("option", CONQUIAN_OPTIONS, ids=lambda o: "-".join(map(str, o.items())))
def test_3_21_each_option_changes_the_games(option):
    base, _ = _games(bots=(GREEDY, CAREFUL))
    flipped, _ = _games(bots=(GREEDY, CAREFUL), **option)
    no_violations(flipped)
    assert not np.array_equal(base.hand_rows, flipped.hand_rows)


def test_3_21_forcing_changes_the_games_of_a_bot_that_may_reject():
    never, _ = _games(bots=(RANDOM, GREEDY), seed=5)
    always, _ = _games(bots=(RANDOM, CAREFUL), seed=5)
    assert not np.array_equal(never.hand_rows, always.hand_rows)


# ---- the rules model ------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"upcard": True}, "upcard"),
        ({"layoff_target": "any"}, "layoff_target"),
        ({"stock_exhaustion": "turn_over"}, "stock_exhaustion"),
        ({"jokers": 2}, "jokers"),
        ({"melds_per_turn": "one"}, "melds_per_turn"),
        ({"game_end": "fixed_hands:5"}, "game_end"),
        ({"rearrange": "table"}, "rearrange"),
        ({"strip_8_9_10": True, "ace_rank": "high"}, "ace_rank"),
    ],
)
def test_3_21_the_model_refuses_what_conquian_does_not_use(overrides, key):
    with pytest.raises(ConfigError) as err:
        load_variant("conquian", overrides)
    assert err.value.key == key


@pytest.mark.nojit
def test_3_21_conquian_is_for_exactly_2_players_and_its_settings_belong_to_it():
    rules = load_variant("conquian")
    with pytest.raises(ConfigError) as err:
        Rules(
            name="c3", description="x", section="3.21", players=(2, 3), deal={2: 10, 3: 10},
            values=dict(rules.changed()), family="conquian",
        )  # fmt: skip
    assert err.value.key == "players"
    for name, value in (("rearrange", "own"), ("run_max", 8)):
        with pytest.raises(ConfigError) as err:
            load_variant("rummy_basic", {name: value})
        assert err.value.key == name
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"stock_exhaustion": "drawn_hand_carry"})
    assert err.value.key == "stock_exhaustion"


def test_3_21_own_cards_lists_every_meld_of_a_seat():
    params, values, st, _ = _table(["3S 4S KD", "3H 4H QC"])
    _use(params, values, st, 0, "5S")
    _use(params, values, st, 1, "5H")
    assert own_cards(st, 0, np.int64(-1)) == mask_of(parse_cards("3S 4S 5S"))
    assert own_cards(st, 1, np.int64(-1)) == mask_of(parse_cards("3H 4H 5H"))
