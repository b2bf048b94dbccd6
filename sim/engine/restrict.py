"""Restricted play: which restriction flags a seat's bot plays under (docs/bots.md,
"Restricted play"; ``layout.BOT_PLAYS``).

The kernels' ``bots`` array holds each seat's base policy (``BOT_*``, which every dispatch
compares), then each seat's restriction flags (``RESTRICT_*``): ``int64[2 * players]``
(``api.kernel_bots``). ``mcN`` is greedy with ``RESTRICT_MC`` and its N in the flags' high
bits (``mc_samples``); the loop stops for its decisions (``hand.play_turns``) and takes the
answers ``sim.engine.mc`` writes into the state (``decided_card``, ``decided_draw``). A
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
    MC_SAMPLES_SHIFT,
    P_DISCARD_DRAW,
    P_FAMILY,
    P_JOKERS,
    P_MELD_TIMING,
    P_PACKS,
    P_PLAYERS,
    RESTRICT_CAMPER,
    RESTRICT_MC,
    TIMING_KNOCK,
    TIMING_PROGRESSIVE,
    XD_ANY_CARD,
    XD_TOP_PLUS_ONE,
)
from sim.engine.specs import rule
from sim.engine.state import C_CURRENT, C_MC_CARD, C_MC_DRAW, R_SC, R_SEAT, S_PICKED


@kernel
def bot_flags(fx, params, bots, seat):
    """The restriction flags of ``seat``'s bot (0: none)."""
    return bots[rule(fx, params, P_PLAYERS) + seat]


@kernel
def mc_samples(fx, params, bots, seat):
    """The deals ``seat``'s bot samples a candidate move (``mcN``'s N; 0: not a Monte Carlo
    bot, ``sim.engine.mc``)."""
    flags = bot_flags(fx, params, bots, seat)
    if flags & RESTRICT_MC == 0:
        return np.int64(0)
    return flags >> MC_SAMPLES_SHIFT


@kernel
def mc_plays(fx, params):
    """Does ``mcN`` decide by Monte Carlo here (docs/bots.md, "mcN"): the knock family, or
    progressive melding in the rummy family, with one pack, no jokers and the discard top
    (or the stock) as the draw? Elsewhere it plays greedy."""
    if rule(fx, params, P_PACKS) != 1 or rule(fx, params, P_JOKERS) != 0:
        return False
    draw = rule(fx, params, P_DISCARD_DRAW)
    if draw == XD_ANY_CARD or draw == XD_TOP_PLUS_ONE:
        return False
    timing = rule(fx, params, P_MELD_TIMING)
    if timing == TIMING_KNOCK:
        return True
    return rule(fx, params, P_FAMILY) == FAMILY_RUMMY and timing == TIMING_PROGRESSIVE


@kernel
def decided_card(st, seat):
    """The discard decided for ``seat``'s turn (``C_MC_CARD``; -1: none), used once."""
    if st[R_SC, C_MC_CARD] == 0 or st[R_SC, C_CURRENT] != seat:
        return np.int64(-1)
    card = st[R_SC, C_MC_CARD] - 1
    st[R_SC, C_MC_CARD] = 0
    return card


@kernel
def decided_draw(st, seat):
    """The draw decided for ``seat``'s turn (``C_MC_DRAW``: 0 none, 1 the stock, 2 the
    discard top), used once."""
    if st[R_SC, C_MC_DRAW] == 0 or st[R_SC, C_CURRENT] != seat:
        return np.int64(0)
    draw = st[R_SC, C_MC_DRAW]
    st[R_SC, C_MC_DRAW] = 0
    return draw


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
