"""``meld_timing = "all_at_once"`` (mechanic CG, RULES.md §2D.18) and the variants built on
it: Full Rummy (§3.4), Queen City Rum (§3.12) and Boat House Rum's scoring (§3.7), on
hand-built deals played by the engine with audit mode on.

Nothing is laid down during the hand; after his draw a player goes out by laying his whole
hand down in melds, or all of it but one card, which he discards (``go_out.py``); there
are no lay-offs. Going out lays the melds on the table (``E_MELD``) and ends the hand as
``went_out``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play
from sim.rules import ConfigError, load_variant

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    compiled,
    deal,
    end_of,
    events_of,
    no_violations,
    play_deal,
    turns_of,
)

# Seat 0 takes the upcard 9c and then holds As-5s, 6h 6d 6c, 9h 9d 9c: eleven cards that
# meld wholly. Seat 1's 6s would fit both of his melds (no lay-off exists).
WHOLE_HAND = ["As 2s 3s 4s 5s 6h 6d 6c 9h 9d", "7c Kh Ah 5h 5d 2c 3d Jc Jd 6s"]
SEAT1_VALUE = 7 + 10 + 1 + 5 + 5 + 2 + 3 + 10 + 10 + 6


def _cards(events) -> list[int]:
    return sorted(k for _, _, _, cards in events for k in cards)


def _first_turn(out, seat=0):
    """The event types ``seat`` logged in his first turn (up to the next seat's draw)."""
    kinds = []
    started = False
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if etype in (S.E_DRAW_STOCK, S.E_DRAW_DISCARD):
            if started and who != seat:
                break
            started = started or who == seat
        if started:
            kinds.append(etype)
    return kinds


@pytest.mark.nojit
def test_2D_18_going_out_with_the_whole_hand_lays_it_all_down_without_a_discard():
    params, values = compiled("full_rummy", 2)
    out = play_deal(deal(WHOLE_HAND, "9c"), params, values)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("9c"))
    melds = events_of(out, S.E_MELD)
    assert {seat for seat, _, _, _ in melds} == {0} and len(melds) == 3
    assert _cards(melds) == sorted(parse_cards(WHOLE_HAND[0] + " 9c"))
    assert not events_of(out, S.E_DISCARD)  # the whole hand went down: no discard
    assert end_of(out) == ("went_out", 0)
    assert turns_of(out) == 1
    no_violations(out)


@pytest.mark.nojit
def test_2D_18_going_out_with_all_but_one_card_then_discarding_it():
    hands = ["As 2s 3s 4s 6h 6d 6c 9h 9d Kc", WHOLE_HAND[1]]
    params, values = compiled("full_rummy", 2)
    out = play_deal(deal(hands, "9c"), params, values)
    melds = events_of(out, S.E_MELD)
    assert _cards(melds) == sorted(parse_cards("As 2s 3s 4s 6h 6d 6c 9h 9d 9c"))
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("Kc"), 0, [])]
    assert end_of(out) == ("went_out", 0)
    no_violations(out)


# After drawing 6s seat 0 holds As-6s and 6h 6d 6c (or As-5s and 6s 6h 6d 6c) with 9h Kc
# beside them: discarding Kc would leave 9h unmelded, so he may not go out.
ONE_LEFT = ["As 2s 3s 4s 5s 6h 6d 6c 9h Kc", "7c Kh Ah 5h 5d 2c 3d Jc Jd 4c"]


@pytest.mark.nojit
def test_2D_18_no_going_out_and_nothing_laid_down_with_one_unmelded_card_left():
    params, values = compiled("full_rummy", 2)
    out = play_deal(deal(ONE_LEFT, "Qd", stock="6s"), params, values)
    assert events_of(out, S.E_DRAW_STOCK)[0][:2] == (0, parse_card("6s"))
    assert _first_turn(out) == [S.E_DRAW_STOCK, S.E_DISCARD]
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kc"))
    melds = events_of(out, S.E_MELD)
    assert not melds or end_of(out)[0] == "went_out"  # melds only when someone goes out
    no_violations(out)


@pytest.mark.nojit
def test_2D_18_flip_progressive_lays_melds_down_where_all_at_once_keeps_them():
    fixed = deal(ONE_LEFT, "Qd", stock="6s")
    params, values = compiled("full_rummy", 2, meld_timing="progressive")
    progressive = play_deal(fixed, params, values)
    params, values = compiled("full_rummy", 2)
    concealed = play_deal(fixed, params, values)
    assert S.E_MELD in _first_turn(progressive)  # greedy lays As-6s and the 6s at once
    assert S.E_MELD not in _first_turn(concealed)
    no_violations(progressive)
    no_violations(concealed)


@pytest.mark.nojit
def test_2E_26_must_discard_to_go_out_keeps_one_card_back_to_discard():
    params, values = compiled("full_rummy", 2, must_discard_to_go_out=True)
    out = play_deal(deal(WHOLE_HAND, "9c"), params, values)
    # As is the lowest-valued card whose discard leaves the rest melded (2s-5s still a run)
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("As"), 0, [])]
    melds = events_of(out, S.E_MELD)
    assert _cards(melds) == sorted(parse_cards("2s 3s 4s 5s 6h 6d 6c 9h 9d 9c"))
    assert end_of(out) == ("went_out", 0)
    no_violations(out)


@pytest.mark.nojit
def test_3_4_no_lay_offs_and_the_winner_takes_every_card_of_the_loser():
    params, values = compiled("full_rummy", 2)
    out = play_deal(deal(WHOLE_HAND, "9c"), params, values)
    assert not events_of(out, S.E_LAYOFF)  # 6s fits both melds, and stays in hand
    assert out.hand_scores[0].tolist() == [SEAT1_VALUE, 0]
    no_violations(out)


# Three players, 7 cards: seat 0 takes 4s and goes out discarding Kc. Seat 1 holds two
# melds in hand (Qh Kh Ah runs around the corner only), seat 2 none.
THREE = ["As 2s 3s 6h 6d 6c Kc", "Qh Kh Ah 2d 7c 7d Js", "Ad 5c 5d Jh Jd 3h 8c"]


@pytest.mark.nojit
def test_3_4_full_rummy_collects_all_cards_of_each_other_player_melds_included():
    params, values = compiled("full_rummy", 3)
    out = play_deal(deal(THREE, "4s"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("Kc"), 0, [])]
    seat1 = 10 + 10 + 1 + 2 + 7 + 7 + 10
    seat2 = 1 + 5 + 5 + 10 + 10 + 3 + 8
    assert out.hand_scores[0].tolist() == [seat1 + seat2, 0, 0]
    no_violations(out)


@pytest.mark.nojit
def test_3_7_boat_house_scores_only_the_unmelded_cards_of_the_others():
    params, values = compiled(
        "full_rummy", 3, scoring="unmelded_to_winner", ace_rank="around_corner", ace_points=11
    )
    out = play_deal(deal(THREE, "4s"), params, values)
    assert end_of(out) == ("went_out", 0)
    seat1 = 2 + 7 + 7 + 10  # Qh Kh Ah is a meld around the corner: not scored
    seat2 = 11 + 5 + 5 + 10 + 10 + 3 + 8  # nothing melds; the ace is 11
    assert out.hand_scores[0].tolist() == [seat1 + seat2, 0, 0]
    shown = {seat: left for seat, _, left, _ in events_of(out, S.E_SCORE)}
    assert shown == {0: 0, 1: seat1, 2: seat2}  # the log shows each one's deadwood
    # the same deal under Full Rummy's scoring counts Qh Kh Ah too
    params, values = compiled("full_rummy", 3, ace_rank="around_corner", ace_points=11)
    full = play_deal(deal(THREE, "4s"), params, values)
    assert full.hand_scores[0, 0] == seat1 + 10 + 10 + 11 + seat2
    no_violations(out)


# Five players (7 cards each, dealer seat 4): seat 0 takes 8c and melds 9s 9h 9d and
# 5c 6c 7c 8c, 27 + 26 = 53, discarding Kd: the seed's example, 53 x 4 = 212.
QUEEN_CITY = [
    "9s 9h 9d 5c 6c 7c Kd",
    "As 2s 3h 4d Js Qh Kc",
    "Ah 2h 3d 4c Jh Qd Ks",
    "Ad 2d 3c 5s Jd Qc Kh",
    "Ac 2c 3s 5h Jc Qs Td",
]


@pytest.mark.nojit
def test_3_12_queen_city_collects_own_meld_value_from_each_other_player():
    params, values = compiled("queen_city_rum", 5)
    out = play_deal(deal(QUEEN_CITY, "8c"), params, values)
    assert end_of(out) == ("went_out", 0)
    melds = events_of(out, S.E_MELD)
    assert _cards(melds) == sorted(parse_cards("9s 9h 9d 5c 6c 7c 8c"))
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("Kd"), 0, [])]  # not counted
    assert out.hand_scores[0].tolist() == [53 * 4, 0, 0, 0, 0]
    no_violations(out)


@pytest.mark.nojit
def test_3_12_queen_city_a_whole_hand_counts_every_card_and_the_count_of_players_matters():
    hands = ["9s 9h 9d 9c 5c 6c 8c", *QUEEN_CITY[1:3]]
    params, values = compiled("queen_city_rum", 3)
    out = play_deal(deal(hands, "7c"), params, values)
    assert not events_of(out, S.E_DISCARD)
    assert out.hand_scores[0].tolist() == [(36 + 26) * 2, 0, 0]
    no_violations(out)


@pytest.mark.nojit
def test_2D_18_random_goes_out_with_probability_one_half_and_every_bot_goes_out_at_all():
    wins = {bot: 0 for bot in (RANDOM, GREEDY, CAREFUL)}
    for bot in wins:
        params, values = compiled("full_rummy", 2)
        for seed in range(12):
            out = play_deal(deal(WHOLE_HAND, "9c"), params, values, bots=[bot, GREEDY], seed=seed)
            no_violations(out)
            if turns_of(out) == 1 and end_of(out) == ("went_out", 0):
                wins[bot] += 1
    assert wins[GREEDY] == wins[CAREFUL] == 12  # they take 9c and go out at once
    # random takes 9c with probability 1/2 and then goes out with probability 1/2
    assert 0 < wins[RANDOM] < 12


@pytest.mark.nojit
def test_3_4_3_12_the_variant_files():
    full = load_variant("full_rummy")
    assert full.meld_timing == "all_at_once" and full.game_end == "target:200"
    assert full.scoring == "pip_to_winner" and full.going_rummy == "off"
    assert full.players == (2, 6) and dict(full.deal) == load_variant("rummy_basic").deal
    queen = load_variant("queen_city_rum")
    assert queen.players == (2, 6) and set(queen.deal.values()) == {7}
    assert queen.scoring == "own_melds_from_each" and queen.game_end == "fixed_hands:10"
    assert queen.ace_rank == "low" and queen.ace_value == 1


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("setting", "value", "words"),
    [
        ("decks", 2, "one pack"),
        ("jokers", 2, "no jokers"),
        ("melds_per_turn", "one", "limit of melds per turn"),
        ("layoff_requires_meld", "after_first_meld", "nothing is ever laid off"),
        ("going_rummy", "double", "§3.4 open point 2"),
        ("layoff_target", "own_only", "nothing is ever laid off"),
    ],
)
def test_2D_18_all_at_once_refuses_what_it_cannot_play(setting, value, words):
    with pytest.raises(ConfigError) as err:
        load_variant("full_rummy", {setting: value})
    assert words in str(err.value)


@pytest.mark.nojit
@pytest.mark.parametrize("scoring", ["unmelded_to_winner", "own_melds_from_each"])
def test_2G_29_whole_hand_scorings_only_under_all_at_once(scoring):
    with pytest.raises(ConfigError) as err:
        load_variant("rummy_basic", {"scoring": scoring})
    assert "only meld_timing 'all_at_once' has" in str(err.value)
    load_variant("full_rummy", {"scoring": scoring})  # accepted there


@pytest.mark.parametrize("players", [2, 6])
@pytest.mark.parametrize("ace_rank", ["high_or_low", "around_corner", "high"])
def test_2D_18_other_card_rules_play_under_all_at_once(ace_rank, players):
    params, values = compiled("full_rummy", players, ace_rank=ace_rank, run_suit="any_suit")
    bots = np.array([GREEDY, CAREFUL, RANDOM, GREEDY, CAREFUL, RANDOM][:players], np.int64)
    out = play(params, values, bots, seed=4, hands=60)
    no_violations(out)
    ended = out.hand_rows[:, R.H_END_REASON]
    assert (ended == R.REASON_WENT_OUT).mean() > 0.9
