"""Tonk (RULES.md §3.22, §2L): instant tonks at the deal, going out for 1 or 2 chips, the
drop and its payment tables, the stock-out, the redeal and the end of a chip game.

The payments are checked on hand-built tables through ``chips.settle_chips`` (each worked
case of §3.22), the deal-time ranks through ``deal_events``; whole hands of hand-built deals
show each ending in play; whole games show each option changes play, that chips are zero-sum
and that the rules model refuses what Tonk does not use.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_cards, rank_of
from sim.engine import melds as M
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import compile_rules, play
from sim.engine.audit import check_turn_limits
from sim.engine.chips import settle_chips
from sim.engine.deal_events import NO_TONK, TIED_TONKS, instant_tonk, tonk_rank
from sim.engine.scoring import hand_value
from sim.engine.specs import GENERIC
from sim.engine.table import (
    charge_wait,
    lay_down,
    lay_off,
    may_lay_off_now,
    may_meld_now,
    meld_fits,
    start_waiting,
)
from sim.rules import ConfigError, load_variant
from sim.rules.loader import rules_from_toml, rules_to_toml

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    blank_state,
    compiled,
    deal,
    end_of,
    events_of,
    no_violations,
    play_deal,
    turns_of,
)


def _table(hands: list[str], **overrides):
    """A blank Tonk table whose seats hold ``hands``; (params, values, st)."""
    params, values, st, _ = blank_state("tonk", len(hands), audit=True, **overrides)
    for seat, text in enumerate(hands):
        for k in parse_cards(text):
            S.give(GENERIC, params, st, seat, k)
    return params, values, st


def _settle(hands: list[str], reason: int, winner: int, discarded: bool = True, **overrides):
    """(scores, end reason name, winner) of ``settle_chips`` on a table holding ``hands``."""
    params, values, st = _table(hands, **overrides)
    st[S.R_SC, S.C_DISCARDS_TURN] = 1 if discarded else 0
    scores = np.zeros(len(hands), np.int64)
    reason, winner = settle_chips(GENERIC, params, values, st, reason, winner, scores)
    return list(scores), R.REASON_NAMES[int(reason)], int(winner)


# ---- going out -------------------------------------------------------------------------------


@pytest.mark.nojit
def test_3_22_going_out_by_a_final_discard_collects_1_chip_from_each_other_player():
    scores, reason, winner = _settle(["", "Kd 2c", "5h"], R.REASON_WENT_OUT, 0, discarded=True)
    assert (scores, reason, winner) == ([2, -1, -1], "went_out", 0)


@pytest.mark.nojit
def test_3_22_going_out_without_a_discard_collects_2_chips_from_each_other_player():
    scores, _, _ = _settle(["", "Kd 2c", "5h"], R.REASON_WENT_OUT, 0, discarded=False)
    assert scores == [4, -2, -2]


@pytest.mark.nojit
def test_2L_53_flat_out_payment_pays_1_chip_even_without_a_discard():
    hands = ["", "Kd 2c", "5h"]
    scores, _, _ = _settle(hands, R.REASON_WENT_OUT, 0, discarded=False, tonk_flat_out_payment=True)
    assert scores == [2, -1, -1]


# ---- the drop (§3.22 and its payment tables, §2L.54) ------------------------------------------


@pytest.mark.nojit
def test_3_22_a_strictly_lowest_dropper_collects_1_chip_from_each_other_player():
    scores, reason, winner = _settle(["As 2s", "Kd 2c", "5h 9c"], R.REASON_DROP, 0)
    assert (scores, reason, winner) == ([2, -1, -1], "drop", 0)


@pytest.mark.nojit
def test_3_22_a_dropper_tied_for_lowest_pays_3_to_each_tied_player_who_collects_1_from_the_rest():
    # totals: dropper 0 has 8, seats 1 and 2 have 8 too, seat 3 has 20
    hands = ["3s 5s", "4d 4c", "Ac 7h", "Kd Qd"]
    scores, reason, winner = _settle(hands, R.REASON_DROP, 0)
    # seats 1 and 2: +3 from the dropper, +1 from seat 3 (tied players do not pay each other)
    assert scores == [-6, 4, 4, -2]
    assert (reason, winner) == ("caught", -1)
    scores, _, winner = _settle(hands[:2] + hands[3:], R.REASON_DROP, 0)
    assert (scores, winner) == ([-3, 4, -1], 1)


# four players, the dropper (seat 0, 12) not lowest: seat 1 has 12 (equal), seat 2 has 5
# (the lowest), seat 3 has 30
CAUGHT = ["2s Th", "5c 7d", "5d", "Kh Qh Jh"]


@pytest.mark.nojit
def test_3_22_a_dropper_not_lowest_pays_2_to_each_player_at_or_below_him_and_the_lowest_collects():
    scores, reason, winner = _settle(CAUGHT, R.REASON_DROP, 0)
    # dropper: -2 to seat 1, -2 to seat 2, then -1 to the lowest; seat 1: +2 -1; seat 2:
    # +2 +1 +1 +1; seat 3: -1
    assert scores == [-5, 1, 5, -1]
    assert (reason, winner) == ("caught", 2)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("penalty", "expected"),
    [
        ("lowest_only", [-3, -1, 5, -1]),  # 2 to the lowest only
        ("per_player_to_lowest", [-5, -1, 7, -1]),  # 4 players: 4 chips to the lowest
        ("two_to_all", [-7, 1, 5, 1]),  # 2 to every other player
    ],
)
def test_2L_54_the_drop_penalty_tables_replace_only_the_droppers_penalty(penalty, expected):
    scores, reason, winner = _settle(CAUGHT, R.REASON_DROP, 0, tonk_drop_penalty=penalty)
    assert (scores, reason, winner) == (expected, "caught", 2)  # the lowest still collects


@pytest.mark.nojit
def test_3_22_several_players_tied_for_lowest_all_collect_after_a_caught_drop():
    hands = ["Ts", "5c", "5d", "Kh Qh"]  # dropper 10; seats 1 and 2 lowest at 5; seat 3 20
    scores, reason, winner = _settle(hands, R.REASON_DROP, 0)
    # dropper: 2 to each of seats 1, 2; then 1 to each of them; seat 3 pays 1 to each
    assert scores == [-6, 4, 4, -2]
    assert (reason, winner) == ("caught", -1)


# ---- the stock-out (§2L.55) -------------------------------------------------------------------


@pytest.mark.nojit
def test_2L_55_at_the_stock_out_the_lowest_collects_1_chip_from_each_other_player():
    scores, reason, winner = _settle(["Kd 2c", "As 2s", "9h"], R.REASON_STOCK_OUT, -1)
    assert (scores, reason, winner) == ([-1, 2, -1], "stock_out", 1)


@pytest.mark.nojit
def test_2L_55_players_tied_for_lowest_each_collect_from_every_player_not_tied():
    scores, _, winner = _settle(["Kd 2c", "As 2s", "3h"], R.REASON_STOCK_OUT, -1)
    assert (scores, winner) == ([-2, 1, 1], -1)


# ---- instant tonks (§3.22, §2L.56-57) ---------------------------------------------------------


def _rank(total: int, **overrides) -> int:
    params, _ = compiled("tonk", 2, **overrides)
    return int(tonk_rank(GENERIC, params, total))


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("instant", "tonks", "not_tonks"),
    [
        ("49_50", [49, 50], [48, 15, 5]),
        ("47_50", [47, 50], [48, 49, 15]),
        (50, [50], [49, 15]),
        ("le15", [15, 11, 5], [16, 49, 50]),
        ("le11", [11, 5], [12, 15, 50]),
        ("ranked", [49, 50, 15, 3], [16, 48]),
    ],
)
def test_2L_56_which_dealt_totals_are_an_instant_tonk(instant, tonks, not_tonks):
    assert all(_rank(t, tonk_instant=instant) > 0 for t in tonks)
    assert all(_rank(t, tonk_instant=instant) == 0 for t in not_tonks)


@pytest.mark.nojit
def test_2L_56_ranked_tonks_50_beats_49_15_beats_50_and_lower_beats_higher_below_15():
    ranks = [_rank(t, tonk_instant="ranked") for t in (49, 50, 15, 14, 6)]
    assert ranks == sorted(ranks) and len(set(ranks)) == 5


@pytest.mark.nojit
def test_2L_57_a_super_tonk_of_9_or_less_outranks_every_tonk():
    assert _rank(9, tonk_super="le9") > _rank(50, tonk_super="le9", tonk_instant="ranked")
    assert _rank(9, tonk_super="off") == 0


def _instant(hands: list[str], **overrides) -> int:
    params, values, st = _table(hands, **overrides)
    return int(instant_tonk(GENERIC, params, values, st, np.zeros((8, S.EV_COLS), np.int64)))


@pytest.mark.nojit
def test_3_22_one_tonk_wins_and_two_tonks_are_redealt():
    tonk_49 = "Ks Qs Js Ts 9s"
    tonk_50 = "Kh Qh Jh Th Td"
    plain, other = "As 2s 3d 4c 6h", "Ad 2d 3c 4h 6d"  # 16 each
    assert _instant([plain, tonk_49, other]) == 1
    assert _instant([tonk_50, tonk_49]) == TIED_TONKS  # 49 and 50: both tonks, nobody paid
    assert _instant([plain, other]) == NO_TONK
    assert _instant([tonk_50, tonk_49], tonk_instant="ranked") == 0  # 50 beats 49


@pytest.mark.nojit
def test_2L_57_a_super_tonk_collects_3_chips_from_each_other_player():
    hands = ["As 2s 3d Ac 2c", "Kd Qd Jd 8c 7c"]  # 9 points
    assert _instant(hands, tonk_super="le9") == 0
    scores, reason, winner = _settle(hands, R.REASON_TONK, 0, tonk_super="le9")
    assert (scores, reason, winner) == ([3, -3], "tonk", 0)
    scores, _, _ = _settle(["Ks Qs Js Ts 9s", "As 2s"], R.REASON_TONK, 0)
    assert scores == [2, -2]


# ---- whole hands of hand-built deals -------------------------------------------------------


def test_3_22_an_instant_tonk_ends_the_hand_at_the_deal():
    params, values = compiled("tonk", 2)
    out = play_deal(deal(["Ks Qs Js Ts 9s", "As 3d 5c 7h 9d"], "2c"), params, values)
    assert end_of(out) == ("tonk", 0) and turns_of(out) == 0
    assert list(out.hand_scores[0]) == [2, -2]
    assert events_of(out, S.E_TONK) == [(0, 49, 0, [])]
    no_violations(out)


def test_3_22_tied_instant_tonks_redeal_without_payment():
    params, values = compiled("tonk", 2)
    out = play_deal(deal(["Ks Qs Js Ts 9s", "Kh Qh Jh Th Td"], "2c"), params, values)
    assert end_of(out) == ("redeal", -1) and list(out.hand_scores[0]) == [0, 0]
    assert [e[2] for e in events_of(out, S.E_TONK)] == [1, 1]


def test_3_22_greedy_drops_a_low_hand_at_its_first_turn():
    params, values = compiled("tonk", 2)
    fixed = deal(["As 2h 3d 4c 5s", "Kd Qh Jc 8s 7s"], "2c", stock="9h 9c", dealer=1)
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("drop", 0) and turns_of(out) == 1
    assert list(out.hand_scores[0]) == [1, -1]
    assert events_of(out, S.E_DROP) == [(0, 15, 0, [])]
    no_violations(out)


def test_3_22_a_drop_that_is_not_lowest_is_caught():
    params, values = compiled("tonk", 3)
    fixed = deal(["As 2h 3d 4c 5s", "Ac 2c 4d 2s 3h", "Kd Qh Jc 8s 7s"], "6c", dealer=2)
    out = play_deal(fixed, params, values)
    # seat 0 (15) drops; seat 1 (12) is lower: +2 (at or below 15) +1 +1 (the lowest collects)
    assert end_of(out) == ("caught", 1)
    assert list(out.hand_scores[0]) == [-3, 4, -1]
    no_violations(out)


def test_3_22_going_out_after_a_meld_and_a_final_discard_pays_1_chip():
    params, values = compiled("tonk", 2)
    # seat 0 draws 5s, lays down A-5 of spades (one meld a turn) and discards the king
    fixed = deal(["As 2s 3s 4s Kd", "Kc Qh Jc 8d 7d"], "9h", stock="5s", dealer=1)
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [1, -1]
    no_violations(out)


def test_3_22_going_out_with_the_last_card_melded_pays_2_chips():
    params, values = compiled("tonk", 2)
    # seat 0 (20 points: no drop) draws 7s and melds all six spades: nothing to discard
    fixed = deal(["2s 3s 4s 5s 6s", "Kc Qh Jc 8d 7d"], "9h", stock="7s", dealer=1)
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [2, -2]
    assert events_of(out, S.E_DISCARD) == []


def test_2L_55_a_turn_that_begins_with_the_stock_empty_ends_the_hand():
    for stock_out, name in (("lowest_collects", "stock_out"), ("redeal", "redeal")):
        rules = load_variant("tonk", {"tonk_stock_out": stock_out})
        params, values = compile_rules(rules, 4, audit=True)
        out = play(params, values, np.full(4, GREEDY), seed=3, hands=1000)
        ended = out.hand_rows[:, R.H_END_REASON] == R.REASON_NAMES.index(name)
        assert ended.sum() >= 5
        # it comes exactly when every stock card was drawn (4 x 5 dealt, the upcard)
        assert (out.hand_rows[ended, R.H_DRAWS_STOCK] == 52 - 4 * 5 - 1).all()
        assert (out.hand_rows[ended, R.H_REBUILDS] == 0).all()
        scores = out.hand_scores[ended]
        assert (scores == 0).all() if name == "redeal" else (scores.max(axis=1) > 0).all()
        no_violations(out)


# ---- the table options (§2L.50-52, §2L.58) and the engine-wide ones Tonk uses ------------------


def _group_on_table(**overrides):
    """Seat 0 has laid down 7♠ 7♥ 7♦; (params, values, st, meld index, events)."""
    params, values, st = _table(["7s 7h 7d", "7c 2c"], **overrides)
    work, events = M.new_work(), np.zeros((64, S.EV_COLS), np.int64)
    layers = st[S.R_SEAT, S.S_HAND : S.S_HAND + M.MAX_LAYERS]
    M.best_arrangement(GENERIC, params, values, work, layers.copy(), 0, 0, 0, -1, 0)
    m = lay_down(GENERIC, params, st, events, 0, work, M.W_BEST)
    return params, values, st, m, events


@pytest.mark.nojit
def test_2L_50_a_3_card_group_on_the_table_takes_no_4th_card():
    params, _, st, m, _ = _group_on_table()
    assert meld_fits(GENERIC, params, st, m) == 1 << parse_cards("7c")[0]
    params, _, st, m, _ = _group_on_table(tonk_no_fourth_in_group=True)
    assert meld_fits(GENERIC, params, st, m) == 0


@pytest.mark.nojit
def test_2L_51_at_most_one_card_is_laid_off_a_turn():
    for one, after in ((False, True), (True, False)):
        params, _, st, m, events = _group_on_table(tonk_one_layoff_per_turn=one)
        S.clear_turn_facts(st)
        assert may_lay_off_now(GENERIC, params, st)
        lay_off(GENERIC, params, st, events, 1, m, parse_cards("7c")[0])
        assert may_lay_off_now(GENERIC, params, st) == after


def test_2L_48_a_card_drawn_from_the_stock_is_played_or_discarded_ending_the_turn():
    # seat 0 (27 points: no drop) holds 7-7-7 and plays first; the upcard Q♣ is of no use
    hands = ["7s 7h 7d 2c 4h", "Ac 3c 5d 9s Jh"]
    for stock, rule in (("Kd", False), ("Kd", True), ("7c", True)):
        params, values = compiled("tonk", 2, tonk_stock_card_must_play=rule)
        out = play_deal(deal(hands, "Qc", stock=stock + " 2s 3s", dealer=1), params, values)
        turn1 = []  # seat 0's first turn: its events up to its first discard or drop
        for row in out.events:
            if int(row[S.EV_SEAT]) == 0 and int(row[S.EV_TYPE]) != S.E_DEAL:
                turn1.append((int(row[S.EV_TYPE]), int(row[S.EV_A]), list(row[S.EV_CARDS :])))
                if turn1[-1][0] in (S.E_DISCARD, S.E_DROP):
                    break
        kinds = [e[0] for e in turn1]
        melded = [k for e in turn1 if e[0] == S.E_MELD for k in e[2][:4]]
        if rule and stock == "Kd":  # K♦ fits nothing: discarded at once, 7-7-7 kept
            assert kinds == [S.E_DRAW_STOCK, S.E_DISCARD]
            assert turn1[-1][1] == parse_cards("Kd")[0]
        elif rule:  # 7♣ goes down at once, in the group of sevens; 2♣ 4♥ left: a drop
            assert kinds == [S.E_DRAW_STOCK, S.E_MELD, S.E_DROP]
            assert sorted(melded) == sorted(parse_cards("7s 7h 7d 7c"))
        else:  # K♦ is kept like any card: 7-7-7 goes down, then a discard
            assert kinds == [S.E_DRAW_STOCK, S.E_MELD, S.E_DISCARD]
            assert sorted(melded[:3]) == sorted(parse_cards("7s 7h 7d"))
        no_violations(out)


@pytest.mark.nojit
def test_2L_49_holding_a_meld_that_may_go_down_is_a_violation():
    for rule, expected in ((False, 0), (True, 1)):
        params, values, st = _table(["7s 7h 7d 2c Kd", "9c"], tonk_meld_immediately=rule)
        S.clear_turn_facts(st)
        work = M.new_work()
        assert check_turn_limits(GENERIC, params, values, st, work, np.int64(0)) == expected
        assert st[S.R_SC, S.C_PLAN] == -1  # the audit's search leaves the plan alone
    params, values, st = _table(["7s 7h 7d 2c Kd", "9c"], tonk_meld_immediately=True)
    S.clear_turn_facts(st)
    st[S.R_SC, S.C_MELDS_TURN] = 1  # one meld already laid this turn: the next may wait
    assert check_turn_limits(GENERIC, params, values, st, M.new_work(), np.int64(0)) == 0


def test_2L_49_random_lays_down_every_meld_it_may_and_so_differs():
    for rule in (False, True):
        out = _games(players=3, bots=[RANDOM] * 3, games=20, tonk_meld_immediately=rule)
        no_violations(out)
    held = _games(players=3, bots=[RANDOM] * 3, games=20)
    forced = _games(players=3, bots=[RANDOM] * 3, games=20, tonk_meld_immediately=True)
    assert forced.hand_rows[:, R.H_MELDS].sum() > held.hand_rows[:, R.H_MELDS].sum()


def test_2L_52_a_player_who_laid_off_does_not_discard():
    # seat 0 lays off 7♣ on seat 1's group of sevens? No table yet at turn 1: seat 1 (first,
    # dealer 0) melds 7-7-7 and discards; seat 0 draws 9h, lays 7♣ off and keeps 5 cards
    hands = ["7c 2d 4h 6s Kd", "7s 7h 7d 9s 8c"]
    fixed = deal(hands, "Qc", stock="2s 9h", dealer=0)
    for skips, seat0_discards in ((False, 1), (True, 0)):
        params, values = compiled("tonk", 2, tonk_layoff_skips_discard=skips)
        out = play_deal(fixed, params, values)
        layoffs = [e for e in events_of(out, S.E_LAYOFF) if e[0] == 0]
        assert layoffs and layoffs[0][2] == parse_cards("7c")[0]
        discards = [e for e in events_of(out, S.E_DISCARD) if e[0] == 0]
        assert len(discards[:1]) == seat0_discards
        no_violations(out)


@pytest.mark.nojit
def test_2L_58_waiting_a_meld_costs_3_turns_a_lay_off_turn_costs_its_owner_the_option():
    for wait in (1, 3):
        params, _, st, m, events = _group_on_table(tonk_wait=wait)
        assert st[S.R_SEAT + 0, S.S_WAIT] == 3  # the meld: his next 3 turns
        S.clear_turn_facts(st)  # seat 1's turn: two cards onto seat 0's meld, one charge
        lay_off(GENERIC, params, st, events, 1, m, parse_cards("7c")[0])
        charge_wait(GENERIC, params, st, np.int64(0))
        assert st[S.R_SEAT + 0, S.S_WAIT] == 3 + wait
        S.clear_turn_facts(st)
        start_waiting(GENERIC, params, st, np.int64(0))  # his turn: he waits (one spent)
        assert st[S.R_SEAT + 0, S.S_WAIT] == 2 + wait
        assert not may_meld_now(GENERIC, params, st)
        assert may_lay_off_now(GENERIC, params, st)  # a waiting player may still lay off
    params, _, st, _, _ = _group_on_table()
    assert st[S.R_SEAT + 0, S.S_WAIT] == 0  # off: nobody waits


def test_2C_15_without_an_upcard_the_first_player_draws_from_the_stock():
    params, values = compiled("tonk", 2, upcard=False)
    fixed = deal(["As 3d 5c 7h 9d", "2s 4d 6c 8h Tc"], None, stock="Kd Qs", dealer=1)
    out = play_deal(fixed, params, values)
    assert events_of(out, S.E_UPCARD) == []
    first = next(e for e in events_of(out, S.E_DRAW_STOCK))
    assert first[:2] == (0, parse_cards("Kd")[0])
    assert events_of(out, S.E_DRAW_DISCARD)[:1] != [(0, parse_cards("Kd")[0], 0, [])]
    no_violations(out)


@pytest.mark.nojit
def test_2A_8_face_values_rank_counts_j_q_k_11_12_13_and_makes_other_tonks():
    assert _rank(50) > 0
    params, values, st = _table(["Ks Qs Js Ts 5s", "2c"], face_values="rank")  # 13+12+11+10+5
    assert hand_value(GENERIC, params, values, st, 0) == 51
    params, values, st = _table(["Ks Qs Js Ts 5s", "2c"])
    assert hand_value(GENERIC, params, values, st, 0) == 45


# ---- whole games -------------------------------------------------------------------------------


def _games(seed: int = 5, games: int = 40, players: int = 3, bots=None, **overrides):
    rules = load_variant("tonk", overrides or None)
    params, values = compile_rules(rules, players, audit=True)
    bots = np.array(bots or [GREEDY, CAREFUL, RANDOM][:players], np.int64)
    return play(params, values, bots, seed=seed, games=games)


def test_3_22_chips_are_zero_sum_every_hand_and_audit_finds_nothing():
    out = _games()
    assert (out.hand_scores.sum(axis=1) == 0).all()
    assert int(out.counters[R.C_VIOLATIONS]) == 0


def test_3_22_a_game_ends_at_the_first_bankruptcy_or_after_its_hands():
    out = _games(chip_stack=5, game_end="fixed_hands:50")
    games = out.hand_rows[:, R.H_GAME]
    for game in np.unique(games):
        rows = out.hand_rows[games == game]
        totals = out.hand_totals[games == game]
        played = int((rows[:, R.H_END_REASON] != R.REASON_REDEAL).sum())
        assert (totals[:-1] > -5).all()  # everyone solvent until the last hand
        assert totals[-1].min() <= -5 or played >= 50
    assert (out.hand_totals.min(axis=1) <= -5).any()  # some game ended by a bankruptcy


def test_3_22_redealt_hands_keep_the_dealer_and_do_not_count_as_hands_played():
    out = _games(seed=11, games=300, players=5, bots=[GREEDY] * 5, tonk_instant="le15")
    rows = out.hand_rows
    redeals = np.flatnonzero(rows[:, R.H_END_REASON] == R.REASON_REDEAL)
    assert redeals.size > 0
    for i in redeals:
        if i + 1 < len(rows) and rows[i + 1, R.H_GAME] == rows[i, R.H_GAME]:
            assert rows[i + 1, R.H_DEALER] == rows[i, R.H_DEALER]
    for game in np.unique(rows[redeals, R.H_GAME]):  # 50 hands played, redeals aside
        mine = rows[:, R.H_GAME] == game
        totals = out.hand_totals[mine]
        if totals[-1].min() <= -50:
            continue  # ended by a bankruptcy
        played = np.cumsum(rows[mine, R.H_END_REASON] != R.REASON_REDEAL)
        fiftieth = int(np.flatnonzero(played == 50)[-1])
        top = np.sort(totals[fiftieth])
        # over after its 50th hand played, unless the lead was shared then (§1.11)
        assert fiftieth == len(totals) - 1 or top[-1] == top[-2]


TONK_OPTIONS = [
    {"tonk_deal": 7},
    {"tonk_flat_out_payment": True},
    {"tonk_drop_penalty": "lowest_only"},
    {"tonk_drop_penalty": "per_player_to_lowest"},
    {"tonk_drop_penalty": "two_to_all"},
    {"tonk_stock_out": "redeal"},
    {"tonk_instant": 50},
    {"tonk_instant": "le15"},
    {"tonk_instant": "le11"},
    {"tonk_instant": "ranked"},
    {"tonk_super": "le9"},
    {"chip_stack": 10},
    {"tonk_no_fourth_in_group": True},
    {"tonk_meld_immediately": True},
    {"tonk_stock_card_must_play": True},
    {"tonk_one_layoff_per_turn": True},
    {"tonk_layoff_skips_discard": True},
    {"tonk_wait": 1},
    {"tonk_wait": 3},
    {"upcard": False},
    {"face_values": "rank"},
    {"strip_8_9_10": True, "tonk_instant": "47_50"},
]


@pytest.mark.parametrize("option", TONK_OPTIONS, ids=lambda o: "-".join(map(str, o.items())))
def test_2L_each_tonk_option_changes_the_games(option):
    base = _games(players=4, bots=[RANDOM, GREEDY, CAREFUL, GREEDY], games=60)
    flipped = _games(players=4, bots=[RANDOM, GREEDY, CAREFUL, GREEDY], games=60, **option)
    assert int(flipped.counters[R.C_VIOLATIONS]) == 0
    assert (flipped.hand_scores.sum(axis=1) == 0).all()
    assert not np.array_equal(base.hand_totals, flipped.hand_totals) or not np.array_equal(
        base.hand_rows, flipped.hand_rows
    )


# ---- the rules model ---------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"jokers": 2}, "jokers"),
        ({"scoring": "penalty"}, "scoring"),
        ({"stock_exhaustion": "shuffle_except_top"}, "stock_exhaustion"),
        ({"game_end": "target:100"}, "game_end"),
        ({"initial_meld_min": 30}, "initial_meld_min"),
    ],
)
def test_3_22_the_model_refuses_what_tonk_does_not_use(overrides, key):
    with pytest.raises(ConfigError) as err:
        load_variant("tonk", overrides)
    assert err.value.key == key


@pytest.mark.nojit
def test_2A_7_the_40_card_pack_ranks_the_ace_low_and_tonks_at_47_or_50():
    with pytest.raises(ConfigError) as err:
        load_variant("tonk", {"strip_8_9_10": True})  # 49_50: a 49 cannot be dealt
    assert err.value.key == "tonk_instant" and "47_50" in str(err.value)
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"strip_8_9_10": True, "ace_rank": "high"})
    assert err.value.key == "ace_rank"
    with pytest.raises(ConfigError) as err:  # 7 x 6 + 1 + 1 = 44 cards of 40
        load_variant("tonk", {"strip_8_9_10": True, "tonk_instant": "47_50", "tonk_deal": 7})
    assert err.value.key == "deal.6" and "40" in str(err.value)


def test_2A_7_the_40_card_pack_deals_no_8_9_or_10():
    rules = load_variant("tonk", {"strip_8_9_10": True, "tonk_instant": "47_50"})
    params, values = compile_rules(rules, 4, audit=True)
    out = play(params, values, np.array([GREEDY] * 4), seed=3, hands=50, events=20_000)
    assert int(out.counters[R.C_VIOLATIONS]) == 0  # the audit counts the shoe's 40 cards
    dealt = [k for event in events_of(out, S.E_DEAL) for k in event[3]]
    assert {rank_of(k) for k in dealt} == set(range(13)) - {7, 8, 9}


@pytest.mark.nojit
def test_2L_tonk_options_belong_to_tonk_and_its_stock_out_is_declared_once():
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"tonk_deal": 7})
    assert err.value.key == "tonk_deal"
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"chip_stack": 10})
    assert err.value.key == "chip_stack"
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"stock_exhaustion": "lowest_collects"})
    assert err.value.key == "stock_exhaustion" and "tonk_stock_out" in str(err.value)


@pytest.mark.nojit
def test_2L_47_the_deal_is_tonk_deal_at_every_table_size():
    rules = load_variant("tonk", {"tonk_deal": 7})
    assert all(rules.deal_for(p)[0] == 7 for p in rules.player_counts)
    assert rules_from_toml(rules_to_toml(rules)) == rules  # the resolved file round-trips
