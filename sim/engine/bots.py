"""The bots' answers to the questions of the turn loop, dispatched on each seat's bot
(docs/bots.md states each policy; ``greedy.py``, ``careful.py``, ``random_bot.py``).

Every bot answers the same questions, each asked by the phase that owns it:

- ``wants_discard``: take the discard top rather than the stock?
- ``play_table``: what to lay down, lay off and which table jokers to replace this turn,
  and what its jokers are declared as (it plays through ``table.py``);
- ``choose_discard``: which card to discard (an allowed one);
- ``knock_discard`` (``meld_timing = "knock"``): which card to discard, and knock?
  (``knock_policy.py``, which also answers ``wants_discard`` there);
- ``concealed_discard`` (``meld_timing = "all_at_once"``): go out, and which card to
  discard? (``knock_policy.py`` too, which answers ``wants_discard`` there as well, but
  for greedy, who takes as in progressive rummy).
"""

from __future__ import annotations

from sim.engine.careful import careful_discard, careful_table, careful_wants
from sim.engine.go_out import concealed, knocking
from sim.engine.greedy import greedy_discard, greedy_table, greedy_wants
from sim.engine.jit import kernel
from sim.engine.knock_policy import concealed_turn, knock_turn, knock_wants
from sim.engine.layout import BOT_CAREFUL, BOT_GREEDY, BOT_RANDOM
from sim.engine.random_bot import random_discard, random_table, random_wants


@kernel
def wants_discard(fx, params, values, bots, st, piles, rng, work, seat, top):
    """Does ``seat`` take ``top`` from the discard pile?"""
    # all_at_once: greedy takes as in progressive rummy (its knock-family rule, "whenever
    # it lowers the deadwood", passed cards back and forth between two greedy players)
    if knocking(fx, params) or (concealed(fx, params) and bots[seat] != BOT_GREEDY):
        return knock_wants(fx, params, values, bots, st, rng, work, seat, top)
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    if bots[seat] == BOT_CAREFUL:
        return careful_wants(fx, params, values, st, piles, work, seat, top)
    return greedy_wants(fx, params, values, st, work, seat, top)


@kernel
def play_table(fx, params, values, bots, st, piles, rng, events, work, seat):
    """``seat`` lays down, lays off and replaces table jokers after his draw."""
    if bots[seat] == BOT_RANDOM:
        random_table(fx, params, values, st, piles, rng, events, work, seat)
    elif bots[seat] == BOT_CAREFUL:
        careful_table(fx, params, values, st, piles, rng, events, work, seat)
    else:
        greedy_table(fx, params, values, st, piles, rng, events, work, seat, BOT_GREEDY)


@kernel
def choose_discard(fx, params, values, bots, st, piles, rng, seat):
    """The card ``seat`` discards (an allowed one)."""
    if bots[seat] == BOT_RANDOM:
        return random_discard(fx, params, st, rng, seat)
    if bots[seat] == BOT_CAREFUL:
        return careful_discard(fx, params, values, st, piles, seat)
    return greedy_discard(fx, params, values, st, seat)


@kernel
def knock_discard(fx, params, values, bots, st, piles, rng, work, seat):
    """``(card, knock)``: the card ``seat`` discards and whether he knocks."""
    return knock_turn(fx, params, values, bots, st, piles, rng, work, seat)


@kernel
def concealed_discard(fx, params, values, bots, st, piles, rng, work, seat):
    """``(card, out)``: whether ``seat`` goes out and the card he discards
    (``go_out.OUT_WHOLE``: none, his whole hand goes down)."""
    return concealed_turn(fx, params, values, bots, st, piles, rng, work, seat)
