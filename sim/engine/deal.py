"""The deal (RULES.md §1.4, §2C.15, §2I.33): a fresh hand state, the cards dealt one at a
time in the direction of play from the dealer's next seat (clockwise: his left), then the
upcard.

Rule slots read here: ``players``, ``hand_size``, ``upcard``, ``family``, ``gin_opening``,
``dealer_rotation``, ``play_direction``.

``play_direction`` (§2K.46): clockwise, each seat's next is ``seat + 1``; counterclockwise
``seat - 1``. The deal, the turns, whose discard a player takes (the previous player's) and
the next dealer (``game.py``: the deal passes in the direction of play) all follow it.

3-player gin (``dealer_rotation = "loser_sits_out"``, §3.18): the dealer sits the hand out
(his side is -1): he gets no cards and plays no turn (``next_seat`` passes him by).

Gin's ``deal_11_10`` opening (§3.17): the non-dealer gets an eleventh card and no upcard is
turned (he opens by discarding, ``draw.py``). Phỏm's first player gets a 10th card the same
way (§3.13), and so does the rummy family's first player with ``upcard`` off (Nowrang,
§3.15, §2C.15: "the first player only discards; that player was dealt one extra card").

The deal stream is seeded from (seed, shard, deal) only, so two arms with other rules deal
the same cards (common random numbers).
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_KINDS
from sim.engine.jit import kernel
from sim.engine.layout import (
    COUNTERCLOCKWISE,
    DEALER_LOSER_SITS_OUT,
    FAMILY_GIN,
    FAMILY_PHOM,
    FAMILY_RUMMY,
    GIN_OPENING_DEAL_11_10,
    P_DEALER_ROTATION,
    P_FAMILY,
    P_GIN_OPENING,
    P_HAND_SIZE,
    P_PLAY_DIRECTION,
    P_PLAYERS,
    P_UPCARD,
)
from sim.engine.piles import fill_stock, pop_stock, push_discard
from sim.engine.rng import RNG_BOTS, RNG_DEAL, STREAM_BOTS, STREAM_DEAL, stream_seed
from sim.engine.specs import rule
from sim.engine.state import (
    C_CURRENT,
    C_DEALER,
    C_LOG,
    C_N_EVENTS,
    C_SHOE_N,
    C_SHOE_PRESET,
    C_UPCARD,
    E_DEAL,
    E_UPCARD,
    N_C,
    N_S,
    R_SC,
    R_SEAT,
    S_SIDE,
    clear_turn_facts,
    give,
    held,
    log_card,
    log_event,
)


@kernel
def reset_hand(fx, params, st, piles, rng, seed, shard, deal, dealer):
    """Clear the seats and the table, refill the stock and seed this deal's streams."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        for col in range(N_S):
            st[R_SEAT + p, col] = 0
        st[R_SEAT + p, S_SIDE] = p
    log = st[R_SC, C_LOG]
    n_events = st[R_SC, C_N_EVENTS]
    shoe = st[R_SC, C_SHOE_N]
    preset = st[R_SC, C_SHOE_PRESET]
    for col in range(N_C):
        st[R_SC, col] = 0
    st[R_SC, C_LOG] = log
    st[R_SC, C_N_EVENTS] = n_events
    st[R_SC, C_SHOE_N] = shoe
    st[R_SC, C_SHOE_PRESET] = preset
    clear_turn_facts(st)
    st[R_SC, C_DEALER] = dealer
    st[R_SC, C_UPCARD] = -1
    if rule(fx, params, P_DEALER_ROTATION) == DEALER_LOSER_SITS_OUT:
        st[R_SEAT + dealer, S_SIDE] = -1  # §3.18: the dealer sits this hand out
    fill_stock(st, piles)
    rng[RNG_DEAL] = stream_seed(seed, shard, deal, np.int64(STREAM_DEAL))
    rng[RNG_BOTS] = stream_seed(seed, shard, deal, np.int64(STREAM_BOTS))


@kernel
def step_seat(fx, params, seat):
    """The seat after ``seat`` in the direction of play (``play_direction``, §2K.46):
    clockwise the seat to his left, ``seat + 1``; counterclockwise ``seat - 1``."""
    players = rule(fx, params, P_PLAYERS)
    if rule(fx, params, P_PLAY_DIRECTION) == COUNTERCLOCKWISE:
        return seat - 1 if seat > 0 else players - 1
    return seat + 1 if seat + 1 < players else 0


@kernel
def next_seat(fx, params, st, seat):
    """The next seat after ``seat`` that plays this hand (a seat sitting out is passed)."""
    nxt = step_seat(fx, params, seat)
    if st[R_SEAT + nxt, S_SIDE] < 0:
        nxt = step_seat(fx, params, nxt)
    return nxt


@kernel
def extra_card(fx, params):
    """Does the first player get one card more than the others, and no upcard is turned, so
    that he opens by discarding? Gin's ``deal_11_10`` (§3.17: 11 to the non-dealer, 10 to
    the dealer), Phỏm's 10th card (§3.13) and, in the rummy family, ``upcard`` off (Nowrang,
    §3.15: the same 11/10 deal; the rules model allows it only under all_at_once)."""
    family = rule(fx, params, P_FAMILY)
    if family == FAMILY_PHOM:
        return True
    if family == FAMILY_RUMMY:  # Nowrang (§3.15, §2C.15): no upcard, 11 to the non-dealer
        return rule(fx, params, P_UPCARD) == 0
    return family == FAMILY_GIN and rule(fx, params, P_GIN_OPENING) == GIN_OPENING_DEAL_11_10


@kernel
def deal_cards(fx, params, st, piles, rng, events):
    """Deal ``hand_size`` cards to each seat, one at a time from the dealer's left, then
    turn the upcard (when the rules have one); the first player is the dealer's left."""
    players = rule(fx, params, P_PLAYERS)
    dealer = st[R_SC, C_DEALER]
    size = rule(fx, params, P_HAND_SIZE)
    first = next_seat(fx, params, st, dealer)
    for _ in range(size):
        seat = first
        while True:  # one card to each seat that plays, from the dealer's left
            give(fx, params, st, seat, pop_stock(st, piles, rng))
            seat = next_seat(fx, params, st, seat)
            if seat == first:
                break
    eleven = extra_card(fx, params)
    if eleven:
        give(fx, params, st, first, pop_stock(st, piles, rng))
    if st[R_SC, C_LOG] == 1:
        for p in range(players):
            event = log_event(st, events, np.int64(E_DEAL), p, np.int64(0), np.int64(0))
            for k in range(N_KINDS):
                for _ in range(held(fx, params, st, p, k)):
                    log_card(events, event, k)
    if rule(fx, params, P_UPCARD) == 1 and not eleven:
        up = pop_stock(st, piles, rng)
        push_discard(st, piles, up)
        st[R_SC, C_UPCARD] = up
        log_event(st, events, np.int64(E_UPCARD), np.int64(-1), up, np.int64(0))
    st[R_SC, C_CURRENT] = first
