"""Boat House Rum (RULES.md §3.7) as its file plays it: Boat House's draw (``top_plus_one``,
§2C.16), aces high, low or around the corner worth 11, melds only all at once (§2D.18) and
the others' unmelded cards scored (``unmelded_to_winner``, open point 4), on hand-built
deals with audit mode on. The draw's and the go-out's own clauses are tested on their own
in test_clauses_draw.py and test_clauses_all_at_once.py."""

from __future__ import annotations

import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import state as S
from sim.rules import load_variant

from .helpers import compiled, deal, end_of, events_of, no_violations, play_deal, turns_of

# Seat 0 takes the upcard Ad (Qd Kd Ad: a run around the corner) and, the pile then empty,
# the stock's Js as his second card (open point 2): all twelve cards meld.
HANDS = ["Qd Kd 5s 6s 7s 9h 9c 9d Jc Jh", "As 2s 3s 8d 8h 4c 6c Tc Kc Qh"]
SEAT1_UNMELDED = 8 + 8 + 4 + 6 + 10 + 10 + 10  # As 2s 3s melds around the corner
SEAT1_ALL = SEAT1_UNMELDED + 11 + 2 + 3  # the ace is 11 (§3.7)


@pytest.mark.nojit
def test_3_7_the_file_sets_the_draw_the_ace_the_timing_and_the_scoring():
    rules = load_variant("boat_house_rum")
    assert rules.discard_draw == "top_plus_one"
    assert rules.ace_rank == "around_corner" and rules.ace_value == 11
    assert rules.meld_timing == "all_at_once"
    assert rules.scoring == "unmelded_to_winner"
    assert rules.game_end == "target:100"  # §3.7: not in seed, default 100


@pytest.mark.nojit
def test_3_7_taking_the_top_brings_a_second_card_and_the_whole_hand_goes_down():
    params, values = compiled("boat_house_rum", 2)
    out = play_deal(deal(HANDS, "Ad", "Js 4h 5h"), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    draws = events_of(out, S.E_DRAW_DISCARD) + events_of(out, S.E_DRAW_STOCK)
    assert sorted((a, b) for _, a, b, _ in draws) == [
        (parse_card("Ad"), 0),  # the discard top
        (parse_card("Js"), 1),  # ... and the second card, from the stock (open point 2)
    ]
    laid = sorted(k for _, _, _, cards in events_of(out, S.E_MELD) for k in cards)
    assert laid == sorted(parse_cards(HANDS[0]) + parse_cards("Ad Js"))
    assert events_of(out, S.E_DISCARD) == []  # the whole hand went down
    assert out.hand_scores[0].tolist() == [SEAT1_UNMELDED, 0]
    no_violations(out)


@pytest.mark.nojit
def test_3_7_open_point_4_only_the_unmelded_cards_count_against_full_rummys_all():
    params, values = compiled("boat_house_rum", 2, scoring="pip_to_winner")
    out = play_deal(deal(HANDS, "Ad", "Js 4h 5h"), params, values)
    assert out.hand_scores[0].tolist() == [SEAT1_ALL, 0]  # As 2s 3s counted too
    no_violations(out)


@pytest.mark.nojit
def test_3_7_flip_the_draw_without_the_second_card_he_cannot_go_out():
    """With the standard draw seat 0 takes only Ad: Jc Jh stay loose and the hand goes on."""
    params, values = compiled("boat_house_rum", 2, discard_draw="top")
    out = play_deal(deal(HANDS, "Ad", "Js 4h 5h 6h 7h Th Jd Td 2c 3c"), params, values)
    assert turns_of(out) > 1
    first = events_of(out, S.E_DRAW_DISCARD)[0]
    assert first[0] == 0 and first[1] == parse_card("Ad")
    no_violations(out)
