"""Hand scoring (mechanic of RULES.md §1.10, §2E.27, §2G.29).

Rule slots read here: ``scoring``, ``going_rummy``.

``pip_to_winner``: the player who goes out scores the value of every card left in the
other hands (``per_card`` is the same with every card worth 1 and a joker 2, which
``compile_rules`` writes into the values). ``penalty``: each other player loses the value
of his own cards. Going rummy doubles the winner's score or adds its bonus.
"""

from __future__ import annotations

from sim.cards import JOKER
from sim.mech.jit import kernel
from sim.mech.layout import (
    P_GOING_RUMMY,
    P_GOING_RUMMY_ARG,
    P_PACKS,
    P_PLAYERS,
    P_SCORING,
    RUMMY_BONUS,
    RUMMY_DOUBLE,
    SCORE_PENALTY,
)
from sim.mech.melds import mask_value
from sim.mech.specs import rule
from sim.mech.state import R_SEAT, S_HAND, S_JOKERS


@kernel
def hand_value(fx, params, values, st, seat):
    """The value of the cards ``seat`` holds (RULES.md §1.9)."""
    row = R_SEAT + seat
    total = st[row, S_JOKERS] * values[JOKER]
    for l in range(rule(fx, params, P_PACKS)):
        total += mask_value(values, st[row, S_HAND + l])
    return total


@kernel
def score_went_out(fx, params, values, st, winner, rummy, scores):
    """Scores of a hand ``winner`` went out of (``rummy``: he went rummy)."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        scores[p] = 0
    if rule(fx, params, P_SCORING) == SCORE_PENALTY:
        for p in range(players):
            if p != winner:
                scores[p] = -hand_value(fx, params, values, st, p)
        return
    total = 0
    for p in range(players):
        if p != winner:
            total += hand_value(fx, params, values, st, p)
    if rummy:
        bonus = rule(fx, params, P_GOING_RUMMY)
        if bonus == RUMMY_DOUBLE:
            total *= 2
        elif bonus == RUMMY_BONUS:
            total += rule(fx, params, P_GOING_RUMMY_ARG)
    scores[winner] = total
