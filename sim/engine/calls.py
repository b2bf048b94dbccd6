"""Call Rummy (mechanic OT of RULES.md §4C; §2C.17, §3.2): a discard that could be laid off
on a table meld is claimed out of turn.

Rule slots read here: ``call_rummy``, ``jokers``, ``audit`` (and, through ``table.py``, the
lay-off rules ``layoff_target``, ``layoff_requires_meld``, ``melds_per_turn``).

``hand.play_turns`` asks ``call_discard`` after every discard that does not end the hand
(§3.2 rule 6: never the going-out discard). It polls the players other than the discarder
in the direction of play from the discarder's next seat (clockwise: his left; rule 3: the
nearest caller wins); a player *may* call when the card could be laid off now on a table
meld he may lay off on (rule 1, and the active ``layoff_target`` /
``layoff_requires_meld``: §3.2's default); the first whose bot calls (``bots.wants_call``)
takes the card (``E_CALL``) and lays it off at once (rule 4) on the first table meld
(lowest row) he may lay it off on (``table.first_meld_taking``; a called joker:
``table.first_meld_taking_joker``, declared by his bot when the rules ask). He then
discards (``hand.py``, his bot's ordinary discard), and that discard may be called in
turn: a chain, which ends because every call shrinks the caller's hand by one. A caller
whose discard empties his hand has gone out (``went_out``, scored normally). Play then
goes on with the player after the original discarder (rule 5). Calls are allowed with the
stock empty and under the block rules (§3.2 defaults): nothing here reads the stock.

Readings (docs/variants.md, "Call Rummy"):

- Only a player's discard is callable, not the upcard nor the card turned up when the stock
  is rebuilt.
- A call is no one's turn: it does not count in ``C_TURN`` (the caller gets no extra turn,
  rule 5) and it starts from a turn's facts cleared (``state.clear_turn_facts``): the turn's melds,
  lay-offs and replacements are 0, so ``melds_per_turn`` (a limit on the caller's own
  turns) never forbids the call's lay-off, but ``layoff_target = "none"`` does; no card was
  taken from the discard pile (the called card goes to the table at once: it is neither a
  draw, ``C_DRAWS_DISCARD``, nor one of the caller's public picks, ``S_PICKED``), nothing
  is planned and nothing came round.
- A call's lay-off is a card played (``S_PLAYED``): the caller cannot go rummy later in
  the hand (§2E.27), and going out by a call's discard is ``went_out``, never rummy.
- The lay-off changes the table, so it clears every player's come-round memory
  (``S_STOCK_SEEN``) as any lay-off does (``table.refresh_fits``).
- ``C_CALLS`` counts the hand's calls.

In audit mode each call's lay-off is checked to fit a meld the caller may lay off on
(``audit.call_fits``), the table after his discard by ``audit.check_state``, and after a
chain the turn order (``audit.check_call_turns``).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.audit import call_fits
from sim.engine.bots import wants_call
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.joker_choice import declare_jokers
from sim.engine.layout import P_AUDIT, P_CALL_RUMMY, P_JOKERS, P_PLAYERS
from sim.engine.piles import discard_top, pop_discard
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_CALLS,
    C_VIOLATIONS,
    E_CALL,
    R_SC,
    R_SEAT,
    S_PLAYED,
    clear_turn_facts,
    give,
    log_event,
)
from sim.engine.table import (
    first_meld_taking,
    first_meld_taking_joker,
    lay_off,
    lay_off_joker,
    layoff_targets,
)


@kernel
def may_call(fx, params, st, seat, card):
    """Could ``seat`` lay ``card`` off now on a table meld he may lay off on (§3.2 rule 1
    and its default: the active lay-off restrictions)?"""
    if card == JOKER:
        return rule(fx, params, P_JOKERS) > 0 and first_meld_taking_joker(fx, params, st, seat) >= 0
    return layoff_targets(fx, params, st, seat) & (np.int64(1) << card) != 0


@kernel
def _take_call(fx, params, bots, st, piles, rng, events, caller, discarder, card):
    """``caller`` takes ``card`` (the discard top) and lays it off at once (§3.2 rule 4)."""
    if card == JOKER:
        m = first_meld_taking_joker(fx, params, st, caller)
    else:
        m = first_meld_taking(fx, params, st, caller, card)
    if rule(fx, params, P_AUDIT) == 1 and not call_fits(fx, params, st, caller, m, card):
        st[R_SC, C_VIOLATIONS] += 1
    pop_discard(st, piles)
    give(fx, params, st, caller, card)
    st[R_SC, C_CALLS] += 1
    log_event(st, events, np.int64(E_CALL), caller, card, discarder)
    if card == JOKER:
        lay_off_joker(fx, params, st, events, caller, m)
        declare_jokers(fx, params, st, piles, rng, events, caller, m, bots[caller])
    else:
        lay_off(fx, params, st, events, caller, m, card)
    st[R_SEAT + caller, S_PLAYED] = 1  # a card played earlier in the hand (§2E.27)


@gated(P_CALL_RUMMY, lambda v: v == 1, np.int64(-1))
@kernel
def call_discard(fx, params, values, bots, st, piles, rng, work, events, discarder):
    """After ``discarder``'s discard (the discard top; not a going-out discard): the first
    player in the direction of play from his next seat who may and will call it takes it
    and lays it off; returns that caller, who must now discard, or -1 when nobody calls (or
    calls are off)."""
    if rule(fx, params, P_CALL_RUMMY) == 0:
        return -1
    card = discard_top(st, piles)
    if card < 0:
        return -1
    clear_turn_facts(st)  # a call is no one's turn: none of a turn's facts apply
    seat = discarder
    for _ in range(rule(fx, params, P_PLAYERS) - 1):
        seat = next_seat(fx, params, st, seat)
        if seat == discarder:
            break
        if may_call(fx, params, st, seat, card) and wants_call(
            fx, params, values, bots, st, piles, rng, work, seat, card
        ):
            _take_call(fx, params, bots, st, piles, rng, events, seat, discarder, card)
            return seat
    return -1
