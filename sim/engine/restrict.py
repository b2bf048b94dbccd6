"""Restricted play: which restriction flags a seat's bot plays under (docs/bots.md,
"Restricted play"; ``layout.BOT_PLAYS``).

The kernels' ``bots`` array holds each seat's base policy (``BOT_*``, which every dispatch
compares), then, when the caller gives them (``api.kernel_bots`` always does), each seat's
restriction flags (``RESTRICT_*``): ``int64[players]`` or ``int64[2 * players]``. A
restriction is read only where its decision is made (``bots.py``, ``greedy.greedy_table``,
``greedy.greedy_stock_card``, ``careful.py``, ``knock_policy.py``, ``phom_policy.py``).

Camper's style (gin and the knock family: knock only early, then play for gin; progressive
rummy: hold for a rummy) applies where ``camper_style`` says; there it also never takes from
the discard pile a kind it took earlier in the hand (``camper_took``, asked by
``bots.wants_discard``): two campers, each waiting for gin or holding its melds, passed the
same cards back and forth and never drew the stock down (31% of 2-player gin hands and 52%
of 2-player German Rummy hands reached the turn cap). Elsewhere camper plays as careful.

Rule slots read here: ``players``, ``meld_timing``, ``family``.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import kernel
from sim.engine.layout import (
    FAMILY_RUMMY,
    P_FAMILY,
    P_MELD_TIMING,
    P_PLAYERS,
    RESTRICT_CAMPER,
    TIMING_KNOCK,
    TIMING_PROGRESSIVE,
)
from sim.engine.specs import rule
from sim.engine.state import R_SEAT, S_PICKED


@kernel
def bot_flags(fx, params, bots, seat):
    """The restriction flags of ``seat``'s bot (0: none, or no flags given)."""
    n = rule(fx, params, P_PLAYERS)
    if bots.shape[0] < 2 * n:
        return np.int64(0)
    return bots[n + seat]


@kernel
def camper_style(fx, params):
    """Does camper play its own style here (module docstring): the knock family, or
    progressive melding in the rummy family?"""
    timing = rule(fx, params, P_MELD_TIMING)
    if timing == TIMING_KNOCK:
        return True
    return rule(fx, params, P_FAMILY) == FAMILY_RUMMY and timing == TIMING_PROGRESSIVE


@kernel
def camper_took(fx, params, bots, st, seat, card):
    """Is ``seat`` a camper, playing its style, that took the kind ``card`` from the discard
    pile earlier in the hand (module docstring)? ``S_PICKED`` holds natural kinds only (a
    joker, kind 52, is never in it)."""
    if bot_flags(fx, params, bots, seat) & RESTRICT_CAMPER == 0 or not camper_style(fx, params):
        return False
    return (st[R_SEAT + seat, S_PICKED] >> card) & 1 == 1
