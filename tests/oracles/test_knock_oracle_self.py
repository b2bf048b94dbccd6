"""Self-tests of the oracle hand's knock family (tests/oracles/hand.py) against the worked
examples of RULES.md §3.10, §3.17 and §3.20 and positions built by hand: no engine here, so
a disagreement with the engine can be put down to one side."""

from __future__ import annotations

from collections import Counter

import pytest

from sim.cards import parse_card, parse_cards
from sim.rules import load_variant
from tests.oracles import hand as oracle


def hand_of(name: str, players: int, upcard: str = "Kh") -> oracle.Hand:
    played = oracle.Hand(oracle.Table.of(load_variant(name), players), 29, 0, 0)
    played.upcard = parse_card(upcard)
    return played


@pytest.mark.parametrize(
    ("counts", "knocker", "reason", "scores"),
    [
        ([6, 9, 20], 0, oracle.KNOCK, [17, 0, 0]),  # §3.10's example: A +17
        ([6, 4, 20], 0, oracle.UNDERCUT, [-10, 28, 0]),  # B +(6-4)+(20-4)+10, A -10
        ([6, 6, 20], 0, oracle.UNDERCUT, [0, 14, 0]),  # rule 3: a tie, no penalty
        ([0, 0, 5], 0, oracle.GIN, [55, 0, 0]),  # rule 3's exception: 5 + 2 × 25
        ([8, 0, 5], 0, oracle.UNDERCUT, [-10, 73, 0]),  # rule 4 with rum: 8+5+10+50
        ([9, 4, 4], 0, oracle.UNDERCUT, [-10, 7, 7]),  # open point 2: (5 + 10) // 2 each
    ],
)
def test_3_10_knock_rummy_scores(counts, knocker, reason, scores):
    played = hand_of("knock_rummy", 3)
    played.deadwood_shown = list(counts)
    got = played.score_knock_rummy(knocker, [0, 0, 0])
    assert got[0] == reason and got[2] == scores


@pytest.mark.parametrize(
    ("name", "upcard", "k", "d", "reason", "scores", "side"),
    [
        ("gin_rummy", "Kh", 7, 15, oracle.KNOCK, [8, 0], [0, 0]),  # §3.17's examples
        ("gin_rummy", "Kh", 7, 5, oracle.UNDERCUT, [0, 12], [0, 0]),
        ("gin_rummy", "Kh", 7, 7, oracle.UNDERCUT, [0, 10], [0, 0]),  # ties undercut
        ("gin_rummy", "Kh", 0, 31, oracle.GIN, [51, 0], [0, 0]),
        ("gin_rummy", "Ks", 0, 0, oracle.GIN, [20, 0], [0, 0]),  # never undercut; no double
        ("oklahoma_gin", "4s", 3, 20, oracle.KNOCK, [34, 0], [0, 0]),  # §3.20's examples
        ("oklahoma_gin", "4s", 4, 1, oracle.UNDERCUT, [0, 26], [0, 40]),
        ("oklahoma_gin", "6h", 0, 25, oracle.GIN, [45, 0], [40, 0]),
        ("oklahoma_gin", "6s", 0, 25, oracle.GIN, [90, 0], [80, 0]),
    ],
)
def test_3_17_3_20_gin_scores(name, upcard, k, d, reason, scores, side):
    played = hand_of(name, 2, upcard)
    played.deadwood_shown = [k, d]
    got = played.score_gin(0, [0, 0])
    assert got[:2] == (reason, 0 if reason != oracle.UNDERCUT else 1)
    assert got[2] == scores and played.side == side


@pytest.mark.parametrize(("upcard", "limit"), [("As", 0), ("4h", 4), ("9d", 9), ("Tc", 10)])
def test_3_20_the_upcard_sets_the_knock_limit(upcard, limit):
    played = hand_of("oklahoma_gin", 2, upcard)
    assert played.limit() == played.bot_limit() == limit
    assert hand_of("knock_rummy", 2).limit() is None
    assert hand_of("knock_rummy", 2).bot_limit() == 10  # greedy's own (docs/bots.md)


def test_3_17_open_point_3_lay_offs_chain_and_fill_groups():
    """The defender lays 2c off on the 2s-2h-2d group, 8h on 5h-6h-7h and then 9h after it
    (on the run, which takes it before the 9s-9d-9c group does): lowest kind first."""
    played = hand_of("gin_rummy", 2)
    played.hands[0] = Counter(parse_cards("5h 6h 7h 9s 9d 9c 2s 2h 2d Ac"))
    played.hands[1] = Counter(parse_cards("8h 9h 2c Kd Qd 3c 3d 5s 6c Ts"))
    played.showdown(0)
    layoffs = [e for e in played.events if e[0] == oracle.E_LAYOFF]
    assert [e[3] for e in layoffs] == parse_cards("2c 8h 9h")
    assert played.melds[layoffs[0][2]].kind == "group"
    assert played.melds[layoffs[1][2]].kind == "run" and layoffs[2][2] == layoffs[1][2]
    assert played.deadwood_shown == [1, 10 + 10 + 3 + 3 + 5 + 6 + 10]
    shown = [e for e in played.events if e[0] == oracle.E_SHOW]
    assert shown[1][4] == tuple(sorted(parse_cards("2c 8h 9h")))


def test_the_lay_off_tie_break_keeps_cards_that_gain_nothing():
    """A lay-off that leaves the same deadwood is not made (the fewest cards): with all
    four 8s the defender's 8h melds in his own group as well as on the knocker's run."""
    played = hand_of("gin_rummy", 2)
    played.hands[0] = Counter(parse_cards("5h 6h 7h Ks Kh Kd 2s 3s 4s Ac"))
    played.hands[1] = Counter(parse_cards("8h 8s 8d 8c Jc Jd Qc 3d 4c 6d"))
    played.showdown(0)
    assert not [e for e in played.events if e[0] == oracle.E_LAYOFF]
    assert played.deadwood_shown == [1, 10 + 10 + 10 + 3 + 4 + 6]
