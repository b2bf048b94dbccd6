"""Carousel's turn (RULES.md §3.16, mechanics PM with RA ``rearrange = table`` and KN of
§4C): up to three draws, a meld action that ends the turn, the knock at its end, and the
stock-out's final turns (§2F.28 ``final_turns``).

Rule slots read here: ``family`` (``carousel``: this turn flow), ``knock_limit``,
``players``, ``audit`` (the meld rules through the meld library and ``table.py``).

**A turn.** The player draws one card from the stock and may make a meld action, which
ends his turn; if he did not, he draws a second card and may meld, a meld ending the
turn; if he still did not, he draws a third card and his turn ends without a meld. There
is no discard. A hand emptied by a meld action ends the round (``TURN_OUT``). A player
with ``knock_limit`` points or less (§3.16: 5) at the end of his own turn may knock, which
ends the round (``TURN_KNOCK``; the bots decide, ``carousel_policy.wants_knock``).

**A meld action** (``carousel_policy.meld_answer`` chooses, this module plays it): the
hand's own melds laid down beside the table (``table.lay_down``), one card laid off on a
table meld (``table.lay_off``), the hand's own melds and planned lay-offs, one on each of
some table melds, or the whole table formed again with hand cards
(``repartition.best_table_meld``'s melds, ``_lay_table``): the table's melds are taken
up (``E_REARRANGE``, which lists the hand cards played) and the new ones laid down
(``E_MELD`` each, their rows numbered from 0). A table joker kept as its card stands, in
the search's melds, as a natural copy of that card: it is put back as a joker in one new
meld holding that card (``_keep_jokers``), declared again as the same card in a group
(``table.declare``; a run's position fixes it); a freed joker and a hand joker are wild
and declared by the bot (``joker_choice.declare_jokers``). In audit mode the action must
leave the hand a part of what it was, fewer cards (no table card went into a hand, at
least one hand card was played; ``_check_action``), and every table meld legal
(``audit.check_state`` after the turn). The hands table counts a re-formed table as one
meld (``H_MELDS``).

A question after the second draw that follows one with no answer (and a table search not
cut by its frame cap) asks only for actions playing the card just drawn: any other was
there before (the table did not change), which lets the search's quick no answer most
such questions at once.

**The stock-out** (``final_turns``). A draw with the stock empty is skipped and the turn
goes on (a meld question after a skipped draw is not asked again: nothing changed). When
a turn ends with the stock empty and nobody has knocked, every player gets one more turn,
from the next player on, the one who took the last card last (``C_FINAL_LEFT``,
``E_FINAL``); a final turn may meld but not knock (§3.16: "one more turn in which he may
meld"; the hands are then totalled). After the last one the round ends (``TURN_OVER``).
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_NATURAL
from sim.engine.bitops import lowest_bit
from sim.engine.carousel_policy import (
    ACT_CHEAP,
    ACT_HAND,
    ACT_LAYOFF,
    ACT_NONE,
    ACT_TABLE,
    PLAN_MELD,
    meld_answer,
    searched_all,
    wants_knock,
)
from sim.engine.jit import kernel
from sim.engine.joker_choice import declare_jokers
from sim.engine.layout import FAMILY_CAROUSEL, P_AUDIT, P_FAMILY, P_KNOCK_LIMIT, P_PLAYERS
from sim.engine.melds import (
    CA_JOKERS,
    CA_LEN,
    CA_LO,
    CA_SHAPE,
    CA_SUIT,
    CA_TAKE,
    CA_TYPE,
    JOKER_DIGIT,
    MAX_LAYERS,
    MELD_GROUP,
    S_BEST_N,
    W_BEST,
    W_SCAL,
    rank_at,
    run_layout,
)
from sim.engine.piles import pop_stock
from sim.engine.repartition import (
    RP_BEST_N,
    RP_FREED,
    RW_BEST,
    RW_KEPT,
    RW_SCAL,
    TB_DECLARED,
    TB_JOKERS,
    W_PLAN,
    W_RP,
    W_TABLE,
)
from sim.engine.scoring import hand_value
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_DISCARD_N,
    C_DRAWN_TURN,
    C_DRAWS_STOCK,
    C_FINAL_LEFT,
    C_FITS,
    C_MELD_ACTS,
    C_MELDS,
    C_MELDS_TURN,
    C_N_MELDS,
    C_STOCK_N,
    C_VIOLATIONS,
    E_DRAW_STOCK,
    E_FINAL,
    E_KNOCK,
    E_REARRANGE,
    EV_B,
    M_CARDS,
    M_FITS,
    M_JOKERS,
    N_COLS,
    R_MELD,
    R_SC,
    R_SEAT,
    S_DRAWS,
    S_HAND,
    S_JOKERS,
    S_N,
    give,
    log_card,
    log_event,
)
from sim.engine.table import declare, lay_down, lay_off, refresh_fits

DRAWS = 3  # §3.16: a turn draws at most three cards, and melds after the first or second

TURN_ON = 0  # the turn ended and the round goes on
TURN_OUT = 1  # a meld action emptied the hand
TURN_KNOCK = 2  # the player knocked
TURN_OVER = 3  # the last final turn after the stock-out was played


def _carousel(value: int) -> bool:
    return value == FAMILY_CAROUSEL


@kernel
def carousel_family(fx, params):
    """Is this Carousel's turn flow (``family = "carousel"``, §3.16)?"""
    return rule(fx, params, P_FAMILY) == FAMILY_CAROUSEL


@kernel
def _draw(fx, params, st, piles, rng, events, seat, again):
    """``seat`` draws the stock's next card (``again``: not his turn's first); returns it."""
    card = pop_stock(st, piles, rng)
    give(fx, params, st, seat, card)
    st[R_SC, C_DRAWS_STOCK] += 1
    st[R_SC, C_DRAWN_TURN] += 1
    st[R_SEAT + seat, S_DRAWS] += 1
    log_event(st, events, np.int64(E_DRAW_STOCK), seat, card, np.int64(1 if again else 0))
    return card


@kernel
def _keep_one(fx, params, rp, row, d):
    """Put a kept table joker standing for natural ``d`` in the place of the copy of ``d``
    that the search's meld ``row`` holds, if it holds one; returns whether it did."""
    bit = np.int64(1) << d
    found = False
    for l in range(MAX_LAYERS - 1, -1, -1):
        if rp[row, CA_TAKE + l] & bit != 0:
            rp[row, CA_TAKE + l] &= ~bit
            found = True
            break
    if not found:
        return False
    rp[row, CA_JOKERS] += 1
    suit = d % 4
    if rp[row, CA_TYPE] == MELD_GROUP:
        rp[row, CA_SHAPE] -= np.int64(1) << (4 * suit)
    else:
        ace_rank = run_layout(fx, params)
        for i in range(rp[row, CA_LEN]):
            if rank_at(rp[row, CA_LO] + i, ace_rank) == d // 4:
                if (rp[row, CA_SHAPE] >> (3 * i)) & 0x7 == rp[row, CA_SUIT]:
                    rp[row, CA_SHAPE] &= ~(np.int64(0x7) << (3 * i))
                    rp[row, CA_SHAPE] |= np.int64(JOKER_DIGIT) << (3 * i)
                    break
    rp[row, RW_KEPT] |= bit
    return True


@kernel
def _keep_jokers(fx, params, work):
    """The search's melds (``W_RP``) with every kept table joker back as a joker (module
    docstring): each in a different meld holding its card."""
    rp = work[W_RP:W_TABLE]
    n = rp[RW_SCAL, RP_BEST_N]
    freed = rp[RW_SCAL, RP_FREED]
    for i in range(n):
        rp[RW_BEST + i, RW_KEPT] = 0
    for j in range(work[W_TABLE, TB_JOKERS]):
        if (freed >> j) & 1:
            continue
        d = work[W_TABLE, TB_DECLARED + j]
        for i in range(n):
            if _keep_one(fx, params, rp, RW_BEST + i, d):
                break


@kernel
def _take_up(fx, params, st, seat):
    """The table's melds go into ``seat``'s hand for a moment, to be laid down again at
    once (``_lay_table``); returns how many there were."""
    n = st[R_SC, C_N_MELDS]
    for m in range(n):
        row = R_MELD + m
        for l in range(MAX_LAYERS):
            rest = st[row, M_CARDS + l]
            while rest != 0:
                give(fx, params, st, seat, lowest_bit(rest))
                rest &= rest - 1
        st[R_SEAT + seat, S_JOKERS] += st[row, M_JOKERS]
        st[R_SEAT + seat, S_N] += st[row, M_JOKERS]
        for col in range(N_COLS):
            st[row, col] = 0
    st[R_SC, C_N_MELDS] = 0
    refresh_fits(fx, params, st)
    return n


@kernel
def _lay_table(fx, params, bots, st, piles, rng, work, events, seat):
    """``seat`` forms the table again with hand cards: the search's melds in ``work``
    (module docstring)."""
    _keep_jokers(fx, params, work)
    rp = work[W_RP:W_TABLE]
    event = log_event(
        st, events, np.int64(E_REARRANGE), seat, st[R_SC, C_N_MELDS], np.int64(0)
    )  # fmt: skip
    row = R_SEAT + seat
    before0 = st[row, S_HAND]
    before1 = st[row, S_HAND + 1]
    before2 = st[row, S_HAND + 2]
    before3 = st[row, S_HAND + 3]
    held = st[row, S_N]
    taken = _take_up(fx, params, st, seat)
    for i in range(rp[RW_SCAL, RP_BEST_N]):
        m = lay_down(fx, params, st, events, seat, rp, RW_BEST + i)
        if rp[RW_BEST + i, CA_TYPE] == MELD_GROUP:
            kept = rp[RW_BEST + i, RW_KEPT]
            while kept != 0:
                declare(fx, params, st, events, seat, m, lowest_bit(kept))
                kept &= kept - 1
        if rp[RW_BEST + i, CA_JOKERS] > 0:
            declare_jokers(fx, params, st, piles, rng, events, seat, m, bots[seat])
    st[R_SC, C_MELDS] -= st[R_SC, C_MELDS_TURN] - 1  # a re-formed table counts one meld
    st[R_SC, C_MELDS_TURN] = 1
    played = held - st[row, S_N]
    if event >= 0:
        events[event, EV_B] = played
        _log_played(st, events, event, before0, st[row, S_HAND])
        _log_played(st, events, event, before1, st[row, S_HAND + 1])
        _log_played(st, events, event, before2, st[row, S_HAND + 2])
        _log_played(st, events, event, before3, st[row, S_HAND + 3])
    if rule(fx, params, P_AUDIT) == 1:
        st[R_SC, C_VIOLATIONS] += _check_action(
            st, seat, before0, before1, before2, before3, held, taken
        )


@kernel
def _log_played(st, events, event, before, after):
    """List on the log's ``event`` the cards of one hand layer that were played."""
    rest = before & ~after
    while rest != 0:
        log_card(events, event, lowest_bit(rest))
        rest &= rest - 1


@kernel
def _check_action(st, seat, before0, before1, before2, before3, held, taken):
    """Audit of a re-formed table (module docstring): ``seat``'s hand after it lies inside
    his hand before it (layers ``before0``..``before3`` and ``held`` cards), with fewer
    cards, and every meld taken up was laid down again (some meld is). Returns the
    violations."""
    row = R_SEAT + seat
    bad = 0
    if (
        st[row, S_HAND] & ~before0 != 0
        or st[row, S_HAND + 1] & ~before1 != 0
        or st[row, S_HAND + 2] & ~before2 != 0
        or st[row, S_HAND + 3] & ~before3 != 0
    ):
        bad += 1  # a table card went into the hand (§3.16)
    if st[row, S_N] >= held:
        bad += 1  # no hand card was played (§3.16)
    if taken > 0 and st[R_SC, C_N_MELDS] == 0:
        bad += 1
    return bad


@kernel
def _lay_hand(fx, params, bots, st, piles, rng, work, events, seat, which):
    """``seat`` lays down his hand's own melds (``work`` rows ``W_BEST``..): all of them
    (``which`` = -1) or the one of row ``which``."""
    for i in range(work[W_SCAL, S_BEST_N]):
        if which >= 0 and i != which:
            continue
        m = lay_down(fx, params, st, events, seat, work, W_BEST + i)
        if work[W_BEST + i, CA_JOKERS] > 0:
            declare_jokers(fx, params, st, piles, rng, events, seat, m, bots[seat])


@kernel
def _lay_off_kind(fx, params, st, events, seat, kind):
    """``seat`` lays natural ``kind`` off on the first table meld it fits; returns whether
    one did."""
    bit = np.int64(1) << kind
    if st[R_SC, C_FITS] & bit == 0:
        return False
    for m in range(st[R_SC, C_N_MELDS]):
        if st[R_MELD + m, M_FITS] & bit != 0:
            lay_off(fx, params, st, events, seat, m, kind)
            return True
    return False


@kernel
def _meld(fx, params, values, bots, st, piles, rng, work, events, seat, must):
    """``seat``'s meld action, if his bot makes one (module docstring; ``must``:
    ``carousel_policy.meld_answer``'s); returns whether he melded."""
    act, arg = meld_answer(fx, params, values, bots, st, rng, work, seat, must)
    if act == ACT_NONE:
        return False
    if act == ACT_TABLE:
        _lay_table(fx, params, bots, st, piles, rng, work, events, seat)
    elif act == ACT_HAND:
        _lay_hand(fx, params, bots, st, piles, rng, work, events, seat, arg)
    elif act == ACT_CHEAP:
        _lay_hand(fx, params, bots, st, piles, rng, work, events, seat, np.int64(-1))
        for i in range(work[W_PLAN, 0]):
            entry = work[W_PLAN, 1 + i]
            m = entry // PLAN_MELD
            kind = entry % PLAN_MELD
            if st[R_MELD + m, M_FITS] & (np.int64(1) << kind) == 0:
                st[R_SC, C_VIOLATIONS] += 1  # never: one lay-off a meld, each fitting it
                continue
            lay_off(fx, params, st, events, seat, m, kind)
    elif act == ACT_LAYOFF:
        if not _lay_off_kind(fx, params, st, events, seat, arg):
            st[R_SC, C_VIOLATIONS] += 1  # never: the bots offer only kinds that fit
            return False
    st[R_SC, C_MELD_ACTS] += 1
    return True


@gated(P_FAMILY, _carousel, np.int64(TURN_ON))
@kernel
def carousel_turn(fx, params, values, bots, st, piles, rng, work, events, seat):
    """``seat``'s whole turn (module docstring); returns ``TURN_ON``, ``TURN_OUT``,
    ``TURN_KNOCK`` or ``TURN_OVER``."""
    st[R_SC, C_MELD_ACTS] = 0
    final = st[R_SC, C_FINAL_LEFT] > 0
    if final:
        log_event(st, events, np.int64(E_FINAL), seat, st[R_SC, C_FINAL_LEFT], np.int64(0))
    exact = False  # the last question found no action, and its search was not cut
    for step in range(DRAWS):
        drew = st[R_SC, C_STOCK_N] > 0
        card = np.int64(-1)
        if drew:
            card = _draw(fx, params, st, piles, rng, events, seat, step > 0)
        if step == DRAWS - 1:
            break  # §3.16: no meld after the third card
        if not drew and step > 0:
            continue  # a skipped draw: nothing changed since the last question
        must = np.int64(-1)
        if exact and card >= 0 and card < N_NATURAL:  # any action now plays the card drawn
            must = np.int64(1) << card
        if _meld(fx, params, values, bots, st, piles, rng, work, events, seat, must):
            break
        exact = searched_all(work)
    if st[R_SEAT + seat, S_N] == 0:
        return TURN_OUT
    if final:
        st[R_SC, C_FINAL_LEFT] -= 1
        return TURN_OVER if st[R_SC, C_FINAL_LEFT] == 0 else TURN_ON
    points = hand_value(fx, params, values, st, seat)
    if points <= rule(fx, params, P_KNOCK_LIMIT) and wants_knock(fx, params, bots, st, rng, seat):
        log_event(st, events, np.int64(E_KNOCK), seat, points, np.int64(0))
        return TURN_KNOCK
    if st[R_SC, C_STOCK_N] == 0:  # final_turns (§2F.28): one more turn each, from the next
        st[R_SC, C_FINAL_LEFT] = rule(fx, params, P_PLAYERS)
    return TURN_ON


@gated(P_FAMILY, _carousel, np.int64(0))
@kernel
def check_carousel_turn(fx, params, st):
    """Audit of the turn just played (module docstring): at most one meld action, at most
    three cards drawn, all three when the player did not meld and the stock lasted, none
    after a meld that ended the turn's second step (at most two then), and no discard pile.
    Returns the violations."""
    bad = 0
    drawn = st[R_SC, C_DRAWN_TURN]
    acts = st[R_SC, C_MELD_ACTS]
    if acts > 1 or drawn > DRAWS:
        bad += 1
    if acts == 0 and st[R_SC, C_STOCK_N] > 0 and drawn != DRAWS:
        bad += 1
    if acts == 1 and drawn > DRAWS - 1:
        bad += 1
    if st[R_SC, C_DISCARD_N] != 0:
        bad += 1
    return bad
