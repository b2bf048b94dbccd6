"""One test per RULES.md clause the standard-rummy engine implements, on hand-built deals.

Each deal is played by the real kernels (``play_deal``) with audit mode on; assertions read
the event log and the hand row. Tests are named after the section they check.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.cards import card_kind, parse_card, parse_cards
from sim.engine import hand as H
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.api import make_params

from .helpers import CAREFUL, GREEDY, compiled, deal, end_of, events_of, play_deal

pytestmark = pytest.mark.nojit

# Seat 0 holds a 9-card spade run and Kd; the upcard Ts completes the run: seat 0 takes it,
# melds As..Ts and discards Kd on the first turn.
RUMMY_HANDS = ["As 2s 3s 4s 5s 6s 7s 8s 9s Kd", "7c Kh Ah 5h 5d 2c 3d 9c Jd 4c"]
SEAT1_VALUE = 7 + 10 + 1 + 5 + 5 + 2 + 3 + 9 + 10 + 4


def _no_violations(out):
    assert int(out.counters[L.C_VIOLATIONS]) == 0


def test_1_4_deal_one_card_at_a_time_and_left_of_dealer_starts():
    params, values = compiled()
    fixed = deal(RUMMY_HANDS, "Ts", dealer=1)
    out = play_deal(fixed, params, values)
    dealt = {p: sorted(cards) for p, _, _, cards in events_of(out, S.E_DEAL)}
    assert dealt[0] == sorted(parse_cards(RUMMY_HANDS[0]))
    assert dealt[1] == sorted(parse_cards(RUMMY_HANDS[1]))
    assert events_of(out, S.E_UPCARD)[0][1] == parse_card("Ts")
    first = out.events[[int(r[S.EV_TYPE]) for r in out.events].index(S.E_DRAW_DISCARD)]
    assert int(first[S.EV_PLAYER]) == 0  # dealer 1's left neighbour plays first
    _no_violations(out)


def test_1_5_draw_the_discard_top_then_meld_then_discard():
    params, values = compiled()
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("Ts"))
    melded = sorted(k for player, _, _, cards in events_of(out, S.E_MELD) for k in cards)
    assert melded == sorted(parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts"))
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    _no_violations(out)


def test_1_5_card_taken_from_discard_may_not_be_discarded_same_turn():
    params, values = make_params()
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    kd = parse_card("Kd")
    st.hand[0, kd] = 1
    st.hand[0, parse_card("2c")] = 1
    st.sc[S.SC_TAKEN] = kd
    assert not S.discard_allowed(st, 0, kd)
    assert S.discard_allowed(st, 0, parse_card("2c"))
    st.hand[0, kd] = 2  # an identical card from a second pack may go
    assert S.discard_allowed(st, 0, kd)


def test_1_6_lay_off_on_another_players_meld():
    params, values = compiled()
    fixed = deal(
        ["5h 6h 7h Kc Qd 9s 2c 3d Jc 4s", "8h As 3c 5d 7s Jh Ks 2d 4d 6c"], "9d", "2s 3h 4h"
    )
    out = play_deal(fixed, params, values)
    layoffs = events_of(out, S.E_LAYOFF)
    assert layoffs and layoffs[0][:3] == (1, 0, parse_card("8h"))
    _no_violations(out)


@pytest.mark.parametrize(
    "override",
    [
        {"layoff_target": "own_only"},
        {"layoff_target": "none"},
        {"layoff_requires_meld": "after_first_meld"},
        {"layoff_requires_meld": "after_own_layoff"},
    ],
)
def test_2D_20_21_layoff_restrictions(override):
    """Seat 1 lays off 8h on seat 0's meld on turn 2 without restrictions (test above); under
    each restriction, every lay-off on another player's meld must be one the rule allows."""
    params, values = compiled(**override)
    fixed = deal(
        ["5h 6h 7h Kc Qd 9s 2c 3d Jc 4s", "8h As 3c 5d 7s Jh Ks 2d 4d 6c"], "9d", "2s 3h 4h"
    )
    out = play_deal(fixed, params, values)
    owner: dict[int, int] = {}
    melded: set[int] = set()
    laid_own: set[int] = set()
    others = 0
    for row in out.events:
        etype, player, a = int(row[S.EV_TYPE]), int(row[S.EV_PLAYER]), int(row[S.EV_A])
        if etype == S.E_MELD:
            owner[a] = player
            melded.add(player)
        elif etype == S.E_LAYOFF:
            if owner[a] == player:
                assert override.get("layoff_target") != "none"
                laid_own.add(player)
                continue
            others += 1
            assert "layoff_target" not in override
            if override.get("layoff_requires_meld") == "after_first_meld":
                assert player in melded
            else:
                assert player in laid_own
    turn2 = [e for e in events_of(out, S.E_LAYOFF) if e[0] == 1 and e[2] == parse_card("8h")]
    assert not turn2 or others == 0 or "layoff_requires_meld" in override
    _no_violations(out)


def test_1_7_going_out_by_discard_ends_the_hand_and_scores_opponents_cards():
    params, values = compiled()
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [SEAT1_VALUE, 0]
    assert out.hand_rows[0, L.H_TURNS] == 1
    _no_violations(out)


FULL_MELD = ["As 2s 3s 4s 5s 6s 7s 8s 9h 9d", "7c Kh Ah 5h 5d 2c 3d Jc Jd 4c"]


def test_1_7_going_out_by_melding_the_whole_hand():
    params, values = compiled()
    out = play_deal(deal(FULL_MELD, "9c"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert events_of(out, S.E_DISCARD) == []
    _no_violations(out)


def test_2E_26_must_discard_to_go_out_keeps_a_card_for_the_last_discard():
    params, values = compiled(must_discard_to_go_out=True)
    out = play_deal(deal(FULL_MELD, "9c"), params, values)
    assert end_of(out) == ("went_out", 0)
    discards = events_of(out, S.E_DISCARD)
    assert len(discards) == 1 and discards[0][0] == 0
    _no_violations(out)


@pytest.mark.parametrize(
    ("going_rummy", "reason", "score"),
    [
        ("off", "went_out", SEAT1_VALUE),
        ("double", "went_rummy", 2 * SEAT1_VALUE),
        ("bonus:10", "went_rummy", SEAT1_VALUE + 10),
    ],
)
def test_2E_27_going_rummy_doubles_or_adds_a_bonus(going_rummy, reason, score):
    params, values = compiled(going_rummy=going_rummy)
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == (reason, 0)
    assert out.hand_scores[0, 0] == score
    _no_violations(out)


def test_2E_27_no_rummy_after_an_earlier_meld():
    # seat 0 melds on turn 1 and cannot go out; on turn 3 Jd completes Jd Qd Kd and he goes
    # out by melding: a plain win, not doubled
    params, values = compiled(going_rummy="double")
    fixed = deal(
        ["7s 7d 7c 2h 3h 4h 5h 6h Kd Qd", "Ah 2c 3d 4c 5s 5d Jh 8d Tc 6s"], "8s", "9c Ts Jd"
    )
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("went_out", 0)
    assert out.hand_rows[0, L.H_TURNS] == 3
    held = {p: a for p, a, _, _ in events_of(out, S.E_SCORE)}
    assert out.hand_scores[0, 0] == held[1] > 0  # not doubled
    _no_violations(out)


def _state_with_discards(params, discards: str):
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    for kind in parse_cards(discards):
        S.push_discard(st, kind)
    return st


def test_1_8_turn_over_keeps_the_discard_order_and_turns_up_the_oldest():
    params, values = make_params(stock_exhaustion=L.STOCK_TURN_OVER)
    st = _state_with_discards(params, "2c 3c 4c 5c 6c")  # 6c is the top
    H.rebuild_stock(st, params)
    assert S.discard_top(st) == parse_card("2c") and st.sc[S.SC_DISCARD_N] == 1
    drawn = [S.pop_stock(st) for _ in range(4)]
    assert drawn == parse_cards("3c 4c 5c 6c")  # the new stock is fully known


def test_2F_28_shuffle_except_top_keeps_the_top_discard():
    params, values = make_params(stock_exhaustion=L.STOCK_SHUFFLE_EXCEPT_TOP)
    st = _state_with_discards(params, "2c 3c 4c 5c 6c")
    st.rng[0] = 12345
    H.rebuild_stock(st, params)
    assert S.discard_top(st) == parse_card("6c") and st.sc[S.SC_DISCARD_N] == 1
    drawn = sorted(S.pop_stock(st) for _ in range(4))
    assert drawn == sorted(parse_cards("2c 3c 4c 5c"))


def _empty_stock_state(params, hand: str, discards: str):
    st = _state_with_discards(params, discards)
    for kind in parse_cards(hand):
        S.give(st, 0, kind)
    st.sc[S.SC_TAKEN] = -1
    return st


@pytest.mark.parametrize("rule", [L.STOCK_BLOCK_DIFFERENCE, L.STOCK_BLOCK_TOTALS])
def test_2F_28_block_ends_when_the_discard_is_declined_with_an_empty_stock(rule):
    params, values = make_params(stock_exhaustion=rule)
    bots = np.array([GREEDY, GREEDY], np.int64)
    st = _empty_stock_state(params, "2h 3h Kc", "9d Qs")  # Qs completes nothing
    assert H.draw_phase(st, params, values, bots, 0) == H.DRAW_BLOCK
    st = _empty_stock_state(params, "2h 3h Kc", "9d 4h")  # 4h completes 2h 3h 4h
    assert H.draw_phase(st, params, values, bots, 0) == H.DRAW_OK
    assert st.hand[0, parse_card("4h")] == 1


def test_1_8_turn_over_happens_when_the_discard_is_declined():
    params, values = make_params(stock_exhaustion=L.STOCK_TURN_OVER)
    bots = np.array([GREEDY, GREEDY], np.int64)
    st = _empty_stock_state(params, "2h 3h Kc", "9d Ts Qs")
    assert H.draw_phase(st, params, values, bots, 0) == H.DRAW_OK
    # pile 9d Ts Qs turned over: 9d is the new upcard, Ts was the stock top and is drawn
    assert S.discard_top(st) == parse_card("9d")
    assert st.hand[0, parse_card("Ts")] == 1 and st.sc[S.SC_STOCK_N] == 1


def _left(values_by_seat):
    return np.array(values_by_seat, np.int64)


def test_1_10_winner_scores_the_cards_left_in_all_opponents_hands():
    # §3.1 example: opponents hold 7c Kd As (18) and 5h 5d (10): the winner scores 28
    params, values = make_params(players=3)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    scores = np.zeros(3, np.int64)
    H.score_went_out(st, params, values, 0, False, scores, _left([0, 18, 10]))
    assert list(scores) == [28, 0, 0]
    params[L.P_GOING_RUMMY] = L.RUMMY_DOUBLE
    H.score_went_out(st, params, values, 0, True, scores, _left([0, 18, 10]))
    assert list(scores) == [56, 0, 0]  # @004: doubled for going rummy


def test_2G_29_penalty_scoring_each_loser_loses_his_own_cards():
    params, values = make_params(players=3, scoring=L.SCORE_PENALTY)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    scores = np.zeros(3, np.int64)
    H.score_went_out(st, params, values, 1, False, scores, _left([18, 0, 10]))
    assert list(scores) == [-18, 0, -10]


def test_2G_29_per_card_scoring_counts_cards_and_jokers_two():
    params, values = compiled(scoring="per_card", game_end="target:25", jokers=2)
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert out.hand_scores[0, 0] == 10  # seat 1 still holds ten cards


@pytest.mark.parametrize(
    ("rule", "left", "expected"),
    [
        # §3.5 examples: totals A 3, B 8, C 12
        (L.STOCK_BLOCK_DIFFERENCE, [3, 8, 12], [14, 0, 0]),
        (L.STOCK_BLOCK_TOTALS, [3, 8, 12], [20, 0, 0]),
        # totals A 4, B 4, C 10, D 19: shared, one point lost
        (L.STOCK_BLOCK_DIFFERENCE, [4, 4, 10, 19], [10, 10, 0, 0]),
        (L.STOCK_BLOCK_TOTALS, [4, 4, 10, 19], [14, 14, 0, 0]),
    ],
)
def test_3_5_block_scoring_examples(rule, left, expected):
    params, values = make_params(players=len(left), stock_exhaustion=rule)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    scores = np.zeros(len(left), np.int64)
    winner = H.score_block(st, params, scores, _left(left))
    assert list(scores) == expected
    assert winner == (0 if expected[1] == 0 else -1)


@pytest.mark.parametrize(
    ("rule", "value", "totals", "hands", "expected"),
    [
        (L.END_TARGET, 100, [99, 40], 3, (False, 0)),
        (L.END_TARGET, 100, [100, 40], 3, (True, 0)),
        (L.END_TARGET, 100, [120, 120], 3, (False, -1)),  # §1.11: a tie plays extra hands
        (L.END_FIXED_HANDS, 10, [5, 50], 9, (False, 1)),
        (L.END_FIXED_HANDS, 10, [5, 50], 10, (True, 1)),
        (L.END_PENALTY_LIMIT, 100, [-100, -20], 4, (True, 1)),
        (L.END_PENALTY_LIMIT, 100, [-99, -20], 4, (False, 1)),
    ],
)
def test_2H_30_game_end(rule, value, totals, hands, expected):
    from sim.engine.game import game_over

    params, _ = make_params(game_end=rule, game_end_value=value)
    done, winner = game_over(params, np.array(totals, np.int64), hands, 0)
    assert done == expected[0]
    if done:
        assert winner == expected[1]


def test_2H_30_single_hand_each_hand_is_a_game():
    params, values = compiled(game_end="single_hand")
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert out.games == 1 and out.game_rows[0, L.G_WINNER] == 0


@pytest.mark.parametrize("rotation", ["left", "winner_deals"])
def test_2H_31_dealer_rotation(rotation):
    from sim.engine.api import play

    params, values = compiled(players=3, dealer_rotation=rotation)
    out = play(params, values, np.array([GREEDY] * 3), seed=5, games=5)
    rows = out.hand_rows
    for prev, row in zip(rows[:-1], rows[1:], strict=True):
        if row[L.H_GAME] != prev[L.H_GAME]:
            continue
        if rotation == "winner_deals" and prev[L.H_WINNER] >= 0:
            assert row[L.H_DEALER] == prev[L.H_WINNER]
        else:
            assert row[L.H_DEALER] == (prev[L.H_DEALER] + 1) % 3


TWO_MELDS = ["As 2s 3s 7h 7d 7c Kd Qc 9h 5c", "8c Jh Ah 5d 5s 2c 3d Jc Jd 4c"]


@pytest.mark.parametrize(("rule", "first_turn_melds"), [("unlimited", 2), ("one", 1)])
def test_2D_19_melds_per_turn(rule, first_turn_melds):
    params, values = compiled(melds_per_turn=rule)
    out = play_deal(deal(TWO_MELDS, "Td", "6d 9d"), params, values)
    first_turn = []
    for row in out.events:
        etype, player = int(row[S.EV_TYPE]), int(row[S.EV_PLAYER])
        if etype == S.E_MELD and player == 0:
            first_turn.append(row)
        if etype == S.E_DISCARD and player == 0:
            break
    assert len(first_turn) == first_turn_melds
    _no_violations(out)


def test_2A_1_two_packs_hold_and_meld_the_same_card_twice():
    # decks = 2: seat 0 holds 5h 6h 7h twice and lays both runs down on its first turn
    params, values = compiled(decks=2)
    fixed = deal(["5h 6h 7h 5h 6h 7h 9s Kd Qc 2d", "8c Th Ah 5d 5s 2c 3s Jc Jd 4c"], "3c", "Ks")
    out = play_deal(fixed, params, values)
    first_two = [(p, cards) for p, _, _, cards in events_of(out, S.E_MELD)[:2]]
    assert first_two == [(0, parse_cards("5h 6h 7h")), (0, parse_cards("5h 6h 7h"))]
    _no_violations(out)


def test_2A_2_a_joker_is_wild():
    # jokers = 2: Jk stands for the missing 6h of seat 0's 5h _ 7h
    params, values = compiled(jokers=2)
    fixed = deal(["5h 7h Jk 2c 9s Qd As 4d Jc 8c", "6h 3c 5d 7s Th 2d 4s Kd Qs 9c"], "Ks", "2s")
    out = play_deal(fixed, params, values)
    assert events_of(out, S.E_MELD)[0][3] == parse_cards("5h Jk 7h")
    _no_violations(out)


@pytest.mark.parametrize("joker_points", [15, 25])
def test_2A_3_a_joker_left_in_hand_counts_joker_points(joker_points):
    # seat 0 goes out on the first turn; seat 1 is caught with 52 points and a joker
    params, values = compiled(jokers=2, joker_points=joker_points)
    fixed = deal([RUMMY_HANDS[0], "7c Kh Ah 5h 5d 2c 3d 9c Jd Jk"], "Ts")
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [52 + joker_points, 0]
    _no_violations(out)


def test_2A_4_around_the_corner_melds_K_A_2():
    params, values = compiled("around_the_corner")
    fixed = deal(["Kd Ad 2d 9s 9h 5c 7c Jh Qs 4h", "8c Th Ah 5d 5s 2c 3s Jc Jd 4c"], "3d")
    out = play_deal(fixed, params, values)
    melds = events_of(out, S.E_MELD)
    assert melds[0][3] == parse_cards("Kd Ad 2d 3d")
    _no_violations(out)


def test_2A_6_any_suit_runs():
    params, values = compiled(run_suit="any_suit")
    fixed = deal(["5h 6s 9s 9h Kc 2c Jd Qs 3h As", "8c Th Ah 5d 5s 2h 3s Jc Jh 4c"], "7d")
    out = play_deal(fixed, params, values)
    assert any(sorted(m[3]) == sorted(parse_cards("5h 6s 7d")) for m in events_of(out, S.E_MELD))
    _no_violations(out)


def test_2B_12_steal_by_replacement_takes_a_table_joker():
    params, values = compiled(jokers=2, joker_replace="steal_by_replacement")
    fixed = deal(
        ["5h 7h Jk 2c 9s Qd As 4d Jc 8c", "6h 3c 5d 7s Jh 2d 4s Kd Qs 9c"], "Ks", "2s 3h 4h"
    )
    out = play_deal(fixed, params, values)
    assert events_of(out, S.E_MELD)[0][3] == parse_cards("5h Jk 7h")
    steals = events_of(out, S.E_STEAL)
    assert steals and steals[0][0] == 1 and steals[0][2] == card_kind(5, 1)  # 6h
    _no_violations(out)
    params, values = compiled(jokers=2)
    assert events_of(play_deal(fixed, params, values), S.E_STEAL) == []


def test_2E_27_a_joker_replacement_is_a_card_played_so_no_rummy_after_it():
    # turn 2: seat 1 puts 6h and 9c in place of seat 0's jokers; turn 4 it melds everything:
    # it played cards before, so this is a plain win, not a doubled rummy (review finding)
    params, values = compiled(
        "rummy_basic@003", jokers=2, going_rummy="double", layoff_target="own_only"
    )
    fixed = deal(
        ["5h Jk 7h 8c Jk Tc As 3s 9d Qd", "6h 9c 2c 3c Ks Kd 5d 6d 8d 7s"], "Kc", "4s 2h 9h"
    )
    out = play_deal(fixed, params, values)
    assert [e[0] for e in events_of(out, S.E_STEAL)] == [1, 1]
    reason, winner = end_of(out)
    assert winner == 1 and reason == "went_out"
    _no_violations(out)


def test_2H_30_31_single_hand_games_still_pass_the_deal():
    from sim.engine.api import play

    for rotation in ("left", "winner_deals"):
        params, values = compiled(players=3, game_end="single_hand", dealer_rotation=rotation)
        out = play(params, values, np.array([GREEDY] * 3), seed=4, games=200)
        rows = out.hand_rows
        for prev, row in zip(rows[:-1], rows[1:], strict=True):
            if rotation == "winner_deals" and prev[L.H_WINNER] >= 0:
                assert row[L.H_DEALER] == prev[L.H_WINNER]
            else:
                assert row[L.H_DEALER] == (prev[L.H_DEALER] + 1) % 3


def test_bots_careful_holding_for_rummy_never_lays_down_part_of_its_hand():
    # seat 0 takes 6c; all but 6c melds, but 6c may not be discarded this turn: a careful bot
    # holding for a rummy keeps everything rather than lay down part of its hand
    params, values = compiled("rummy_basic@004")
    fixed = deal(
        ["4d 4h 4c 5d 5h 5c Ts Js Qs Ks", "As 3s 7h 9c Jd Kh 2d 8c Td Qc"], "6c", "2s 9h 8d 7s"
    )
    out = play_deal(fixed, params, values, bots=[CAREFUL, CAREFUL])
    first_turn = []
    for row in out.events:
        etype, player = int(row[S.EV_TYPE]), int(row[S.EV_PLAYER])
        if etype in (S.E_MELD, S.E_LAYOFF) and player == 0:
            first_turn.append(etype)
        if etype == S.E_DISCARD and player == 0:
            break
    assert first_turn == [] or end_of(out)[1] == 0 and out.hand_rows[0, L.H_TURNS] == 1
    _no_violations(out)


def _first_turn_plays(out, player):
    """(event type, cards) of ``player``'s melds and lay-offs up to his first discard."""
    plays = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_PLAYER])
        if who == player and etype in (S.E_MELD, S.E_LAYOFF):
            plays.append(etype)
        if who == player and etype == S.E_DISCARD:
            break
    return plays


@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_bots_careful_2E_27_counts_lay_offs_toward_going_rummy(bot):
    # Seat 1 (greedy) melds 5h 6h 7h and discards Ks. Seat 0 draws 2s: three melds
    # (4d 4s 4c, 6d 7d 8d, 2c 2d 2s), 8h laid off on the hearts run and Kd discarded play
    # his whole hand, a rummy (§2E.27). Careful, holding for a rummy, must see that the
    # lay-off completes it, as greedy does.
    params, values = compiled(going_rummy="double")
    fixed = deal(
        ["4d 4s 4c 6d 7d 8d 8h 2c 2d Kd", "5h 6h 7h Ac 3d 6c 9d Jh Ks Qd"],
        "Qh",
        "Tc 2s 3h 9s 5c 5s Th 3c",
        dealer=0,
    )
    out = play_deal(fixed, params, values, bots=[bot, GREEDY])
    assert end_of(out) == ("went_rummy", 0)
    assert out.hand_rows[0, L.H_TURNS] == 2
    assert _first_turn_plays(out, 0) == [S.E_MELD] * 3 + [S.E_LAYOFF]
    assert events_of(out, S.E_LAYOFF)[0][2] == parse_card("8h")
    _no_violations(out)


@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_bots_careful_2E_26_keeps_a_card_back_to_go_rummy_when_a_discard_is_required(bot):
    # Seat 0 takes the upcard 9d: 4d 4s 4c 4h, 6d 7d 8d 9d and 2c 2d 2s meld all eleven
    # cards, but must_discard_to_go_out requires a discard (§2E.26). Greedy keeps a 4 back and
    # goes rummy; careful, holding for a rummy, must do the same rather than keep holding.
    params, values = compiled(going_rummy="double", must_discard_to_go_out=True)
    fixed = deal(
        ["4d 4s 4c 4h 6d 7d 8d 2c 2d 2s", "5h 6h Ac 3d 6c 9c Jh Ks Qd 8s"],
        "9d",
        "Tc 3s 3h 9s 5c 5s Th 3c",
        dealer=1,
    )
    out = play_deal(fixed, params, values, bots=[bot, GREEDY])
    assert end_of(out) == ("went_rummy", 0)
    assert out.hand_rows[0, L.H_TURNS] == 1
    assert len(events_of(out, S.E_MELD)) == 3
    discarded = events_of(out, S.E_DISCARD)[0][1]
    assert discarded in parse_cards("4d 4s 4c 4h")
    _no_violations(out)


def _game_should_end(rule: str, value: int, totals: np.ndarray, hands: int) -> bool:
    """§2H.30 with §1.11's play-off of ties: the rule's condition, and one player ahead."""
    top = totals.max()
    alone = int((totals == top).sum()) == 1
    if rule == "target":
        return top >= value and alone
    if rule == "fixed_hands":
        return hands >= value and alone
    return totals.min() <= -value and alone  # penalty_limit


@pytest.mark.parametrize(
    ("game_end", "scoring"),
    [("target:100", "pip_to_winner"), ("fixed_hands:3", "pip_to_winner"),
     ("penalty_limit:60", "penalty")],
)  # fmt: skip
def test_2H_30_1_11_played_games_end_on_the_first_hand_that_decides_them(game_end, scoring):
    # every game of 300 played ends on the first hand after which its rule holds with one
    # player ahead (ties are played off, §1.11), and that player wins it
    from sim.engine.api import play

    rule, _, value = game_end.partition(":")
    params, values = compiled(players=3, game_end=game_end, scoring=scoring)
    games = 20 if numba.config.DISABLE_JIT else 300
    out = play(params, values, np.array([GREEDY] * 3), seed=9, games=games)
    _no_violations(out)
    assert out.games == games
    rows, totals = out.hand_rows, out.hand_totals
    first = 0
    for g in range(out.games):
        hands = int(out.game_rows[g, L.G_HANDS])
        assert out.game_rows[g, L.G_CAPPED] == 0
        for h in range(hands):
            assert rows[first + h, L.H_GAME] == out.game_rows[g, L.G_GAME]
            ends = _game_should_end(rule, int(value), totals[first + h], h + 1)
            assert ends == (h == hands - 1), (g, h)
        last = totals[first + hands - 1]
        assert out.game_rows[g, L.G_WINNER] == int(np.argmax(last))
        first += hands
    if rule == "fixed_hands" and games == 300:  # some game was tied after 3 hands
        assert out.game_rows[:, L.G_HANDS].max() > int(value)
