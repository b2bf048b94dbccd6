"""Joker rules of issue #31 on whole games read from the event log: the joker limit and
Caloochi's joker replacement.

``joker_limit = "not_more_than_naturals"`` (RULES.md §2B.10): no meld ever holds more
jokers than natural cards, checked after every change to it (laid down, laid off on, a
joker replaced), on whole games read from the event log; and the flip: without the limit
the same deals do lay down melds with more jokers than naturals.

The meld library's search under the limit is checked against the brute-force oracle in
tests/engine/test_melds.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import JOKER
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play

from .helpers import CAREFUL, GREEDY, RANDOM, compiled

JOKER_HEAVY = dict(decks=2, jokers=8, ace_rank="high_or_low", must_discard_to_go_out=True)


def _worst_ratio_seen(out) -> tuple[int, int]:
    """Replaying the table from the event log: (the most jokers beyond the naturals any
    meld held after any change, melds laid down)."""
    naturals: dict[int, int] = {}
    jokers: dict[int, int] = {}
    worst, laid = -99, 0
    for row in out.events:
        etype, a, b = int(row[S.EV_TYPE]), int(row[S.EV_A]), int(row[S.EV_B])
        cards = [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + int(row[S.EV_N])]]
        if etype == S.E_DEAL:
            naturals.clear()
            jokers.clear()
        elif etype == S.E_MELD:
            laid += 1
            jokers[a] = cards.count(JOKER)
            naturals[a] = len(cards) - jokers[a]
        elif etype == S.E_LAYOFF:
            if b == JOKER:
                jokers[a] += 1
            else:
                naturals[a] += 1
        elif etype == S.E_STEAL:  # a natural card in a joker's place; the joker leaves
            jokers[a] -= 1
            naturals[a] += 1
        else:
            continue
        if a in jokers:
            worst = max(worst, jokers[a] - naturals[a])
    return worst, laid


@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
@pytest.mark.parametrize("replace", ["none", "steal_by_replacement"])
def test_2B_10_no_meld_ever_holds_more_jokers_than_naturals(bot, replace):
    players = 3
    params, values = compiled(
        "rummy_basic", players, joker_limit="not_more_than_naturals", joker_replace=replace,
        **JOKER_HEAVY,
    )  # fmt: skip
    out = play(params, values, np.full(players, bot, np.int64), seed=4, hands=150, events=400_000)
    assert int(out.counters[R.C_VIOLATIONS]) == 0
    worst, laid = _worst_ratio_seen(out)
    assert laid > 0
    assert worst <= 0


@pytest.mark.parametrize("bot", [RANDOM, GREEDY])
def test_2B_10_without_the_limit_jokers_outnumber_naturals_somewhere(bot):
    """The flip: the same games without the limit lay down or build melds with more jokers
    than naturals (so the test above could fail)."""
    players = 3
    params, values = compiled("rummy_basic", players, **JOKER_HEAVY)
    out = play(params, values, np.full(players, bot, np.int64), seed=4, hands=150, events=400_000)
    assert _worst_ratio_seen(out)[0] > 0


# ---- joker_replace = "to_hand" (§2B.12, Caloochi) ------------------------------------------


def _steals_after_melding(out) -> tuple[int, int]:
    """(replacements made after the player laid down or laid off in the same turn, all
    replacements), read from the event log (a turn ends with its discard)."""
    late = total = 0
    played = False
    for row in out.events:
        etype = int(row[S.EV_TYPE])
        if etype in (S.E_DISCARD, S.E_END, S.E_DEAL):
            played = False
        elif etype in (S.E_MELD, S.E_LAYOFF):
            played = True
        elif etype == S.E_STEAL:
            total += 1
            late += played
    return late, total


STEAL_RULES = dict(decks=2, jokers=6, ace_rank="high_or_low", joker_declare="always")


@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
def test_2B_12_to_hand_replaces_only_before_melding(bot):
    """Caloochi's ``to_hand``: after drawing and before melding or laying off, a player may
    put a table joker's natural card in its place and take the joker (audit: 0 violations);
    the flip: ``steal_by_replacement`` lets greedy replace after laying down too."""
    players = 3
    params, values = compiled("rummy_basic", players, joker_replace="to_hand", **STEAL_RULES)
    out = play(params, values, np.full(players, bot, np.int64), seed=6, hands=200, events=500_000)
    assert int(out.counters[R.C_VIOLATIONS]) == 0
    late, total = _steals_after_melding(out)
    assert total > 0 and late == 0


def test_2B_12_steal_by_replacement_may_replace_after_melding():
    players = 3
    params, values = compiled(
        "rummy_basic", players, joker_replace="steal_by_replacement", **STEAL_RULES
    )
    out = play(
        params, values, np.full(players, GREEDY, np.int64), seed=6, hands=200, events=500_000
    )
    late, total = _steals_after_melding(out)
    assert late > 0


# ---- joker_replace = "reuse_same_turn" (§2B.12, German Rummy) -------------------------------


def _reuse_checks(out) -> tuple[int, int]:
    """(turns that ended with a joker taken back not played again, replacements), read
    from the event log: after an E_STEAL a joker must be played (in an E_MELD, or an
    E_LAYOFF of JOKER) before the turn's discard or the hand's end. A replacement before
    the initial meld is an audit violation (``table.steal``)."""
    kept = steals = owed = 0
    for row in out.events:
        etype, b = int(row[S.EV_TYPE]), int(row[S.EV_B])
        cards = [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + int(row[S.EV_N])]]
        if etype == S.E_STEAL:
            steals += 1
            owed += 1
        elif etype == S.E_LAYOFF and b == JOKER:
            owed = max(0, owed - 1)
        elif etype == S.E_MELD:
            owed = max(0, owed - cards.count(JOKER))
        elif etype in (S.E_DISCARD, S.E_END):
            kept += owed > 0
            owed = 0
    return kept, steals


GERMAN_LIKE = dict(
    decks=2, jokers=6, ace_rank="high_or_low", ace_points=11, joker_points=30,
    joker_limit="not_more_than_naturals", initial_meld_min=40, opening_ace_low=1,
    must_discard_to_go_out=True,
)  # fmt: skip


@pytest.mark.parametrize("bot", [RANDOM, GREEDY, CAREFUL])
@pytest.mark.parametrize("players", [2, 4])
def test_2B_12_reuse_same_turn_plays_the_joker_back_the_same_turn(bot, players):
    """German's swap: only after one's initial meld, the natural from hand, and the freed
    joker back on the table in the same turn (audit: 0 violations; the event log shows
    every joker taken back played again before the turn ends)."""
    params, values = compiled(
        "rummy_basic", players, joker_replace="reuse_same_turn", **GERMAN_LIKE
    )
    seats = np.full(players, bot, np.int64)
    out = play(params, values, seats, seed=8, hands=200, events=600_000)
    assert int(out.counters[R.C_VIOLATIONS]) == 0
    kept, steals = _reuse_checks(out)
    assert steals > 0 and kept == 0


def test_2B_12_to_hand_keeps_the_joker_in_hand():
    """The flip: under to_hand the joker taken back stays in hand past the turn."""
    params, values = compiled("rummy_basic", 4, joker_replace="to_hand", **GERMAN_LIKE)
    out = play(params, values, np.full(4, GREEDY, np.int64), seed=8, hands=200, events=600_000)
    kept, steals = _reuse_checks(out)
    assert steals > 0 and kept > 0
