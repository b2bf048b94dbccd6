"""The bots' answers to the questions of the turn loop, dispatched on each seat's bot
(docs/bots.md states each policy; ``greedy.py``, ``careful.py``, ``random_bot.py``).

Every bot answers the same questions, each asked by the phase that owns it:

- ``wants_discard``: take the discard top rather than the stock? Before his initial meld
  under ``discard_before_initial_meld = "only_for_initial_meld"`` (§2D.25) he may take it
  only to use it in that meld this turn (``greedy.opens_with`` says whether he can; no
  bot is asked otherwise): then random tosses its coin, greedy and careful take it.
- ``area_card`` (``discard_draw = "any_card"``, §3.6): which card of the discard area, or
  the stock? Greedy and careful take, of the cards their own take-test
  (``wants_discard``) accepts, the highest-valued; ties: the higher kind, then the one
  thrown last. Random: ``random_bot.random_area_card``.
- ``wants_top_plus_one`` (``top_plus_one``, §3.7): take the discard top (and then a second
  card) rather than the stock? Never when the next player would have nothing left to
  draw (``greedy.leaves_a_draw``); else random: a fair coin; greedy and careful: their
  own take-test (``wants_discard``), or greedy's pass breaker (``greedy.breaks_the_pass``).
- ``wants_second`` (``top_plus_one``, §3.7): having taken the discard top, take the next
  discard (rather than the stock top) as the second card? Each bot's take-test on that card
  (random: a fair coin).
- ``play_table``: what to lay down, lay off and which table jokers to replace this turn,
  and what its jokers are declared as (it plays through ``table.py``);
- ``choose_discard``: which card to discard (an allowed one);
- ``knock_discard`` (``meld_timing = "knock"``): which card to discard, and knock?
  (``knock_policy.py``, which also answers ``wants_discard`` there);
- ``wants_call`` (``call_rummy``, ``calls.py``): call this discard, which he may lay off?
  (then his discard is ``choose_discard``'s).
- ``play_stock_card`` (``tonk_stock_card_must_play``, §2L.48): play the card just drawn
  from the stock to the table, or discard it and end the turn?
- ``wants_drop`` (Tonk, §3.22): lay the hand down and end the hand on the totals?
  (``drop_policy.py``);
- ``concealed_discard`` (``meld_timing = "all_at_once"``): go out, and which card to
  discard? (``knock_policy.py`` too, which answers ``wants_discard`` there as well, but
  for greedy, who takes as in progressive rummy).
- under a fixed go-out pattern (``go_out_pattern``, Nowrang §3.15): ``wants_discard``
  and the discard of ``concealed_discard`` are ``pattern_policy.py``'s.
- Phỏm (``meld_timing = "phom_final"``, §3.13; ``phom_policy.py``): ``wants_discard`` when
  the rules allow the take, ``phom_discard`` (which card, among the allowed) and
  ``phom_layoffs`` (what to lay off in the fourth turn).

Restricted play (docs/bots.md, "Restricted play"): a bot is a base policy plus restriction
flags (``layout.BOT_PLAYS``, ``restrict.bot_flags``); ``bots[seat]`` is the base policy.
``RESTRICT_NO_DISCARD_TAKE`` is read here (``wants_discard``, ``wants_top_plus_one``,
``wants_call``: no discard is taken by choice; a take the rules force, ``draw.py``, is
never asked), ``RESTRICT_NO_LAYOFF`` by ``wants_call`` (a call is a lay-off) and where
careful lays off (``greedy.greedy_table``, ``greedy.greedy_stock_card``,
``phom_policy.phom_layoffs``), ``RESTRICT_OUT_FIRST`` and ``RESTRICT_CAMPER`` where careful
holds for a rummy (``careful.holds``) and knocks (``knock_policy.knocks``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.careful import careful_discard, careful_table, careful_wants, holds
from sim.engine.drop_policy import wants_drop  # noqa: F401 (the loop's question, Tonk)
from sim.engine.go_out import concealed, knocking
from sim.engine.greedy import (
    breaks_the_pass,
    greedy_discard,
    greedy_stock_card,
    greedy_table,
    greedy_wants,
    leaves_a_draw,
    opens_with,
)
from sim.engine.jit import kernel
from sim.engine.knock_policy import concealed_turn, knock_turn, knock_wants
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_GREEDY,
    BOT_RANDOM,
    DBI_ONLY_FOR_INITIAL,
    P_DISCARD_BEFORE_INITIAL,
    P_DISCARD_DRAW,
    RESTRICT_NO_DISCARD_TAKE,
    RESTRICT_NO_LAYOFF,
    XD_ANY_CARD,
    XD_TOP_PLUS_ONE,
)
from sim.engine.pattern_policy import pattern_wants
from sim.engine.patterns import patterned
from sim.engine.phom import phom_timing
from sim.engine.phom_policy import phom_discard, phom_layoffs, phom_wants  # noqa: F401
from sim.engine.random_bot import (
    random_area_card,
    random_discard,
    random_stock_card,
    random_table,
    random_wants,
)
from sim.engine.restrict import bot_flags, camper_took, decided_draw
from sim.engine.specs import gated, rule
from sim.engine.state import C_DISCARD_N, PILE_DISCARD, R_SC
from sim.engine.table import has_opened


@kernel
def wants_discard(fx, params, values, bots, st, piles, rng, work, seat, top):
    """Does ``seat`` take ``top`` from the discard pile? (The draw decided for this turn,
    ``restrict.decided_draw``, when there is one.)"""
    decided = decided_draw(st, seat)
    if decided != 0:
        return decided == 2
    if bot_flags(fx, params, bots, seat) & RESTRICT_NO_DISCARD_TAKE != 0:
        return False  # asked only when he has the choice (a forced take is not asked)
    if camper_took(fx, params, bots, st, seat, top):
        return False
    if phom_timing(fx, params):  # asked only when the rules allow the take (§3.13)
        return phom_wants(bots, rng, seat)
    if patterned(fx, params):  # a fixed go-out pattern (§3.15): pattern_policy.py
        return pattern_wants(fx, params, values, bots, st, rng, work, seat, top)
    # all_at_once: greedy takes as in progressive rummy (its knock-family rule, "whenever
    # it lowers the deadwood", passed cards back and forth between two greedy players)
    if knocking(fx, params) or (concealed(fx, params) and bots[seat] != BOT_GREEDY):
        return knock_wants(fx, params, values, bots, st, piles, rng, work, seat, top)
    if rule(fx, params, P_DISCARD_BEFORE_INITIAL) == DBI_ONLY_FOR_INITIAL and not has_opened(
        fx, params, st, seat
    ):
        if not opens_with(fx, params, values, st, work, seat, top):
            return False
        return random_wants(rng) if bots[seat] == BOT_RANDOM else True
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    if bots[seat] == BOT_CAREFUL:
        flags = bot_flags(fx, params, bots, seat)
        return careful_wants(fx, params, values, st, piles, work, seat, top, flags)
    return greedy_wants(fx, params, values, st, work, seat, top, np.int64(0))


@gated(P_DISCARD_DRAW, lambda v: v == XD_ANY_CARD, np.int64(-1))
@kernel
def area_card(fx, params, values, bots, st, piles, rng, work, seat):
    """``any_card``: the place in the discard area of the card ``seat`` takes, or -1 for
    the stock (module docstring)."""
    n = st[R_SC, C_DISCARD_N]
    if bots[seat] == BOT_RANDOM:
        return random_area_card(rng, n)
    best = -1
    for i in range(n):
        k = piles[PILE_DISCARD, i]
        if best >= 0:
            b = piles[PILE_DISCARD, best]
            if values[k] < values[b] or (values[k] == values[b] and k < b):
                continue  # it would lose the tie-break: no need to ask
        if wants_discard(fx, params, values, bots, st, piles, rng, work, seat, k):
            best = i
    return best


@gated(P_DISCARD_DRAW, lambda v: v == XD_TOP_PLUS_ONE, np.bool_(False))
@kernel
def wants_top_plus_one(fx, params, values, bots, st, piles, rng, work, seat, top):
    """``top_plus_one``: does ``seat`` take ``top``, and then a second card (module
    docstring)?"""
    if bot_flags(fx, params, bots, seat) & RESTRICT_NO_DISCARD_TAKE != 0:
        return False
    if not leaves_a_draw(st):
        return False
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    if wants_discard(fx, params, values, bots, st, piles, rng, work, seat, top):
        return True
    return breaks_the_pass(fx, params, st, seat, top)


wants_second = wants_discard
"""``top_plus_one``: having taken the discard top, does ``seat`` take ``card``, the next
discard, as his second card rather than the stock top? Each bot's take-test on that card
(module docstring). The question's own name, the same kernel: a kernel that only passes its
arguments on would compile, with everything under it, once more."""


@kernel
def play_table(fx, params, values, bots, st, piles, rng, events, work, seat):
    """``seat`` lays down, lays off and replaces table jokers after his draw."""
    if bots[seat] == BOT_RANDOM:
        random_table(fx, params, values, st, piles, rng, events, work, seat)
    elif bots[seat] == BOT_CAREFUL:
        flags = bot_flags(fx, params, bots, seat)
        careful_table(fx, params, values, st, piles, rng, events, work, seat, flags)
    else:
        greedy_table(
            fx, params, values, st, piles, rng, events, work, seat, np.int64(BOT_GREEDY),
            np.int64(0),
        )  # fmt: skip


@kernel
def choose_discard(fx, params, values, bots, st, piles, rng, seat):
    """The card ``seat`` discards (an allowed one)."""
    if bots[seat] == BOT_RANDOM:
        return random_discard(fx, params, st, rng, seat)
    if bots[seat] == BOT_CAREFUL:
        flags = bot_flags(fx, params, bots, seat)
        return careful_discard(fx, params, values, st, piles, seat, flags)
    return greedy_discard(fx, params, values, st, seat)


@kernel
def play_stock_card(fx, params, values, bots, st, rng, events, work, seat, card):
    """``tonk_stock_card_must_play`` (§2L.48): does ``seat`` play ``card``, just drawn from
    the stock, to the table (and does, by his bot's policy), rather than discard it?"""
    if bots[seat] == BOT_RANDOM:
        return random_stock_card(fx, params, values, st, rng, events, work, seat, card)
    flags = bot_flags(fx, params, bots, seat)
    return greedy_stock_card(fx, params, values, st, events, work, seat, card, flags)


knock_discard = knock_turn
"""``(card, knock)``: the card ``seat`` discards and whether he knocks (``knock_policy``
answers for every bot; the question's name, the same kernel, as ``wants_second``)."""


@kernel
def wants_call(fx, params, values, bots, st, piles, rng, work, seat, card):
    """Does ``seat`` call ``card``, another player's discard that he may lay off (RULES.md
    §3.2, docs/bots.md)? ``greedy`` always (a call sheds a card); ``careful`` unless it holds
    its melds for a rummy (a call plays a card, §2E.27); ``random`` on a fair coin (the
    bots' stream, drawn only for a card it may call). A bot that takes no discard or lays
    nothing off never calls (a call is both)."""
    flags = bot_flags(fx, params, bots, seat)
    if flags & (RESTRICT_NO_DISCARD_TAKE | RESTRICT_NO_LAYOFF) != 0:
        return False
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)  # the same fair coin as its draw
    if bots[seat] == BOT_CAREFUL:
        return not holds(fx, params, st, seat, flags)
    return True


concealed_discard = concealed_turn
"""``(card, out)``: whether ``seat`` goes out and the card he discards (``go_out.OUT_WHOLE``:
none, his whole hand goes down); ``knock_policy`` answers for every bot."""
