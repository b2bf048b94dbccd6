"""The initial meld (RULES.md §2D.24) and the discard before it (§2D.25), on hand-built
deals played by the engine with audit mode on, and the toggles' effect on whole games.

The meld library's constrained search is checked against the brute-force oracle in
tests/engine/test_melds.py; here, the rules of play: melds held back until they count the
threshold, no lay-offs before the initial meld, the discard top taken before it only to be
melded in it.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play

from .helpers import CAREFUL, GREEDY, RANDOM, compiled, deal, no_violations, play_deal

# seat 0 holds 5-6-7♥ (18 points); seat 1 holds 8♥, which fits it, and no meld
LAYOFF_DEAL = (["5h 6h 7h Kc Qd 9s 2c 3d Jc 4s", "8h As 3c 5d 7s Jh Ks 2d 4d 6c"], "9d", "2s 3h 4h")


def _first_turn(out, seat: int) -> list[tuple[int, int, int, list[int]]]:
    """(type, a, b, cards) of ``seat``'s events up to his first discard."""
    rows = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if who != seat or etype in (S.E_DEAL, S.E_SCORE):
            continue
        n = int(row[S.EV_N])
        rows.append((etype, int(row[S.EV_A]), int(row[S.EV_B]), [int(k) for k in row[5 : 5 + n]]))
        if etype == S.E_DISCARD:
            break
    return rows


def _types(events) -> list[int]:
    return [e[0] for e in events]


@pytest.mark.nojit
@pytest.mark.parametrize("minimum", [0, 18])
def test_2D_24_melds_that_reach_the_threshold_go_down(minimum):
    params, values = compiled(initial_meld_min=minimum)
    out = play_deal(deal(*LAYOFF_DEAL), params, values)
    melds = [e for e in _first_turn(out, 0) if e[0] == S.E_MELD]
    assert len(melds) == 1 and sorted(melds[0][3]) == sorted(parse_cards("5h 6h 7h"))
    no_violations(out)


@pytest.mark.nojit
def test_2D_24_melds_below_the_threshold_are_held_back():
    """5-6-7♥ counts 18: under a threshold of 19 seat 0 keeps it in hand (flip of the test
    above: the same deal melds at 0 and 18)."""
    params, values = compiled(initial_meld_min=19)
    out = play_deal(deal(*LAYOFF_DEAL), params, values)
    assert S.E_MELD not in _types(_first_turn(out, 0))
    no_violations(out)


@pytest.mark.nojit
def test_2D_24_no_lay_off_before_ones_initial_meld():
    """At 0 seat 1 lays 8♥ off on seat 0's 5-6-7♥ (§1.6); at 18 seat 0 still opens with it,
    but seat 1, who has not made his initial meld, may not lay off (§2D.21's note)."""
    params, values = compiled()
    free = _first_turn(play_deal(deal(*LAYOFF_DEAL), params, values), 1)
    assert (S.E_LAYOFF, 0, parse_card("8h"), []) in free
    params, values = compiled(initial_meld_min=18)
    out = play_deal(deal(*LAYOFF_DEAL), params, values)
    assert S.E_LAYOFF not in _types(_first_turn(out, 1))
    no_violations(out)


# seat 0 holds 5-6♥; the upcard 7♥ makes 5-6-7♥ (18)
TAKE_DEAL = (["5h 6h Kc Qd 9s 2c 3d Jc 4s 8d", "8h As 3c 5d 7s Jh Ks 2d 4d 6c"], "7h", "2s 3h 4h")


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("minimum", "before", "takes"),
    [
        (30, "free", True),  # greedy takes a card that melds, opening or not
        (30, "only_for_initial_meld", False),  # 18 < 30: he may not take it
        (18, "only_for_initial_meld", True),  # it opens: he takes it and melds it
    ],
)
def test_2D_25_the_discard_before_the_initial_meld(minimum, before, takes):
    params, values = compiled(initial_meld_min=minimum, discard_before_initial_meld=before)
    out = play_deal(deal(*TAKE_DEAL), params, values)
    turn = _first_turn(out, 0)
    assert (S.E_DRAW_DISCARD in _types(turn)) == takes
    if takes and minimum == 18:
        melds = [e for e in turn if e[0] == S.E_MELD]
        assert sorted(melds[0][3]) == sorted(parse_cards("5h 6h 7h"))
    no_violations(out)


ONLY = "only_for_initial_meld"
GERMAN_LIKE = dict(
    decks=2,
    jokers=6,
    ace_rank="high_or_low",
    ace_points=11,
    joker_points=30,
    initial_meld_min=40,
    opening_ace_low=1,
    must_discard_to_go_out=True,
)


@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
@pytest.mark.parametrize(
    "overrides",
    [
        {"initial_meld_min": 30},
        {"initial_meld_min": 30, "discard_before_initial_meld": ONLY},
        GERMAN_LIKE,
        {
            **GERMAN_LIKE,
            "initial_meld_min": 51,
            "discard_before_initial_meld": "only_for_initial_meld",
        },
    ],
    ids=["30", "30-only", "german-like", "51-only"],
)
def test_2D_24_25_every_bot_plays_whole_hands_without_a_violation(overrides, bot):
    players = 4 if overrides.get("decks") == 2 else 2
    params, values = compiled("rummy_basic", players, **overrides)
    out = play(params, values, np.full(players, bot, np.int64), seed=11, hands=300)
    assert int(out.counters[R.C_VIOLATIONS]) == 0
    melds = out.hand_rows[:, R.H_MELDS]
    assert melds.sum() > 0  # they do open


@pytest.mark.parametrize("bot", [RANDOM, GREEDY])
def test_2D_24_the_threshold_changes_the_game(bot):
    """Flipping initial_meld_min from 0 to 40 (German-like shoe) changes how hands go: fewer
    melds are laid down and hands last longer."""
    rows = {}
    for minimum in (0, 40):
        params, values = compiled("rummy_basic", 4, **{**GERMAN_LIKE, "initial_meld_min": minimum})
        out = play(params, values, np.full(4, bot, np.int64), seed=5, hands=400)
        rows[minimum] = out.hand_rows
    assert rows[40][:, R.H_TURNS].mean() > rows[0][:, R.H_TURNS].mean()
    assert rows[40][:, R.H_MELDS].mean() < rows[0][:, R.H_MELDS].mean()


@pytest.mark.nojit
def test_2D_24_replay_marks_the_initial_meld():
    """`rummysim replay` (issue #31 point 5): the melds of the turn a seat first lays down
    are marked as his initial meld; his melds of later turns are not."""
    from sim.replay import _describe

    rows = [
        (S.E_DEAL, 0, 0, 0, 0),
        (S.E_MELD, 0, 0, 0, 0),  # seat 0 opens with two melds in one turn
        (S.E_MELD, 0, 1, 0, 0),
        (S.E_DRAW_STOCK, 1, 0, 0, 0),
        (S.E_MELD, 1, 2, 0, 0),  # seat 1 opens
        (S.E_DRAW_STOCK, 0, 0, 0, 0),
        (S.E_MELD, 0, 3, 0, 0),  # seat 0, a later turn
    ]
    events = np.zeros((len(rows), S.EV_COLS), np.int64)
    for i, row in enumerate(rows):
        events[i, : S.EV_N + 1] = row
    lines = [x for x in _describe(events, ["a", "b"], opening=40) if "melds" in x]
    marked = ["(initial meld, at least 40 together)" in x for x in lines]
    assert marked == [True, True, True, False]
    assert not [x for x in _describe(events, ["a", "b"]) if "initial" in x]  # no threshold
