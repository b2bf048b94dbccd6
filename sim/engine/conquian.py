"""Conquian's turn (RULES.md §3.21; mechanics XD's exposed card, RA and OT's forcing of
§4C): the one card on offer, melding only with it, on one's own melds, and going out with
11 cards melded.

Rule slots read here: ``family`` (``conquian``: this turn flow), ``rearrange``,
``players``.

**The exposed card.** A card drawn never enters a hand. The discard pile's top is on offer
while ``C_LIVE`` is 1: the card the last player discarded, or the stock card he passed.
Under it lie the rejected cards, face down and out of play (the audit still counts them
there). A turn: the player whose turn it is either uses the card on offer or rejects it;
after a rejection (or with nothing on offer, as in the first turn) he turns up the stock's
top card (``E_EXPOSE``, public) and uses it or passes it face up onto the discard pile,
which ends his turn without a discard. Using a card melds it, with hand cards, and then he
discards a card from his hand, which is on offer to his opponent; a use that leaves his
hand empty has melded 11 cards (melded and held always add up to 10 at a turn's start), so
he goes out without a discard and wins the hand. A rejection with the stock empty draws the
hand (``REASON_EXHAUSTED``; ``game.py`` carries its stake, ``drawn_hand_carry``).

**A use** is one meld action holding the exposed card (§3.21 open point 2): the player's
own melds that it touches, the exposed card and hand cards are formed into legal melds
again (one re-partition search, ``melds.arrange_keeping``: every card of the touched melds
and the exposed card melded, any hand cards). ``rearrange = "own"``: it may touch all his
melds and form one meld more than it touched (a new meld, a lay-off, or his melds
rearranged: 3-4-5-6 with a 6 in hand and a 6 exposed becomes 3-4-5 and 6-6-6). ``none``:
it touches none and forms one new meld, or touches one meld and forms it again as one (a
lay-off, possibly with hand cards); of those the one melding the most cards is taken, the
new meld first, then the melds in table order. Every card is worth 1 (``rules.values``),
so the search's melded value is a count. Of equal counts the search's declared order
decides. Touched melds that the search left as they were stay on the table; the others'
rows are freed and the search's new melds laid down (``E_REFORM``, then ``E_MELD`` each);
only melds beyond those taken up count as melds laid down.

**Forcing.** When the card on offer fits one of the melds of the player whose turn it is
(``S_FITS_OWN``), his opponent may force him first (open point 5): he must use it, then
discard (``E_FORCE``). The bots decide (``conquian_policy.py``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.bitops import lowest_bit, popcount
from sim.engine.conquian_policy import conquian_discard, forces, uses
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.layout import FAMILY_CONQUIAN, P_FAMILY, P_HAND_SIZE, P_REARRANGE, REARRANGE_OWN
from sim.engine.melds import (
    CA_TAKE,
    MAX_LAYERS,
    S_BEST_N,
    W_BEST,
    W_SCAL,
    W_TMP,
    arrange_keeping,
)
from sim.engine.piles import discard_top, pop_discard, pop_stock, push_discard
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_DISCARD_N,
    C_DISCARDS_TURN,
    C_DRAWS_DISCARD,
    C_DRAWS_STOCK,
    C_LIVE,
    C_MELDS,
    C_MELDS_TURN,
    C_N_MELDS,
    C_STOCK_N,
    C_VIOLATIONS,
    E_DISCARD,
    E_EXPOSE,
    E_FORCE,
    E_PASS,
    E_REFORM,
    E_REJECT,
    E_USE,
    EV_A,
    M_CARDS,
    M_OWNER,
    N_COLS,
    R_MELD,
    R_SC,
    R_SEAT,
    S_FITS_OWN,
    S_HAND,
    S_N,
    give,
    log_card,
    log_event,
    take,
)
from sim.engine.table import lay_down

TURN_ON = 0  # the turn ended and the hand goes on
TURN_OUT = 1  # the player went out (11 cards melded)
TURN_DRAWN = 2  # a rejection with the stock empty: the hand is drawn

TOUCH_ALL = -1  # a use touching every own meld (rearrange = own)
TOUCH_NONE = -2  # a use forming one new meld


def _conquian(value: int) -> bool:
    return value == FAMILY_CONQUIAN


@kernel
def conquian_family(fx, params):
    """Is this Conquian's turn flow (``family = "conquian"``, §3.21)?"""
    return rule(fx, params, P_FAMILY) == FAMILY_CONQUIAN


@kernel
def on_offer(st, piles):
    """The card on offer (the discard pile's top while ``C_LIVE``), or -1."""
    return discard_top(st, piles) if st[R_SC, C_LIVE] == 1 else -1


@kernel
def own_cards(st, seat, touch):
    """The cards of ``seat``'s melds that a use touching ``touch`` takes up (a mask):
    all of them (``TOUCH_ALL``), none (``TOUCH_NONE``) or meld ``touch``'s."""
    if touch == TOUCH_NONE:
        return np.int64(0)
    if touch >= 0:
        return st[R_MELD + touch, M_CARDS]
    cards = np.int64(0)
    for m in range(st[R_SC, C_N_MELDS]):
        if st[R_MELD + m, M_OWNER] == seat:
            cards |= st[R_MELD + m, M_CARDS]
    return cards


@kernel
def _own_melds(st, seat):
    """How many melds ``seat`` has on the table."""
    n = 0
    for m in range(st[R_SC, C_N_MELDS]):
        if st[R_MELD + m, M_OWNER] == seat:
            n += 1
    return n


@kernel
def _search_use(fx, params, values, st, work, seat, card, touch, limit):
    """The re-partition search of a use touching ``touch`` (``own_cards``) with at most
    ``limit`` melds; returns how many cards its melds hold, 0 when none holds them all.
    When every own meld is touched and the card fits one of them, laying it off there
    melds one card more than the table holds: the search need look only above that
    (``floor``; the same answer, found sooner)."""
    table = own_cards(st, seat, touch)
    pool = work[W_TMP, 0:MAX_LAYERS]
    pool[:] = 0
    pool[0] = st[R_SEAT + seat, S_HAND] | table | (np.int64(1) << card)
    keep = table | (np.int64(1) << card)
    floor = np.int64(-1)
    if touch == TOUCH_ALL and (st[R_SEAT + seat, S_FITS_OWN] >> card) & 1:
        floor = np.int64(popcount(table))  # the lay-off's count less one
    return arrange_keeping(fx, params, values, work, pool, np.int64(0), limit, keep, floor)


@kernel
def best_use(fx, params, values, st, work, seat, card):
    """The use of ``card`` that melds the most cards (module docstring): returns (cards its
    melds hold, what it touches), (0, ``TOUCH_NONE``) when the card melds nowhere; its
    melds are left in ``work`` rows ``W_BEST``.."""
    if rule(fx, params, P_REARRANGE) == REARRANGE_OWN:
        count = _search_use(
            fx, params, values, st, work, seat, card, np.int64(TOUCH_ALL),
            np.int64(_own_melds(st, seat) + 1),
        )  # fmt: skip
        return count, np.int64(TOUCH_ALL)
    one = np.int64(1)
    best = _search_use(fx, params, values, st, work, seat, card, np.int64(TOUCH_NONE), one)
    gain = best  # cards a use adds to the table
    where = np.int64(TOUCH_NONE)
    searched = False
    for m in range(st[R_SC, C_N_MELDS]):
        if st[R_MELD + m, M_OWNER] != seat:
            continue
        searched = True
        count = _search_use(fx, params, values, st, work, seat, card, np.int64(m), one)
        if count > 0 and count - popcount(st[R_MELD + m, M_CARDS]) > gain:
            gain = count - popcount(st[R_MELD + m, M_CARDS])
            best = count
            where = np.int64(m)
    if searched and best > 0:  # the chosen search again, so that its melds are in W_BEST
        best = _search_use(fx, params, values, st, work, seat, card, where, one)
    return best, where


@kernel
def _free_meld(st, m):
    """Table meld ``m`` leaves the table: the last meld's row takes its place."""
    last = st[R_SC, C_N_MELDS] - 1
    if m != last:
        for col in range(N_COLS):
            st[R_MELD + m, col] = st[R_MELD + last, col]
    for col in range(N_COLS):
        st[R_MELD + last, col] = 0
    st[R_SC, C_N_MELDS] = last


@kernel
def apply_use(fx, params, st, work, events, seat, card, where):
    """``seat`` uses ``card``: the melds of the search in ``work`` that are not his melds
    already are laid down, the melds ``where`` touches that the search changed being taken
    up into his hand with the card first (module docstring)."""
    taken_up = own_cards(st, seat, where)
    n_best = work[W_SCAL, S_BEST_N]
    placed = np.int64(0)  # bit i: the search's meld i is a meld of his already (it stays)
    for m in range(st[R_SC, C_N_MELDS]):
        cards = st[R_MELD + m, M_CARDS]
        if st[R_MELD + m, M_OWNER] != seat or cards & taken_up == 0:
            continue
        for i in range(n_best):
            if (placed >> i) & 1 == 0 and work[W_BEST + i, CA_TAKE] == cards:
                placed |= np.int64(1) << i
                taken_up &= ~cards
                break
    touched = 0
    if taken_up != 0:
        event = log_event(st, events, np.int64(E_REFORM), seat, np.int64(0), np.int64(0))
        for m in range(st[R_SC, C_N_MELDS] - 1, -1, -1):  # from the last: rows stay put
            if st[R_MELD + m, M_OWNER] == seat and st[R_MELD + m, M_CARDS] & taken_up != 0:
                _free_meld(st, m)
                touched += 1
        if event >= 0:
            events[event, EV_A] = touched
        rest = taken_up
        while rest != 0:
            k = lowest_bit(rest)
            give(fx, params, st, seat, k)
            log_card(events, event, k)
            rest &= rest - 1
    give(fx, params, st, seat, card)
    for i in range(n_best):
        if (placed >> i) & 1 == 0:
            lay_down(fx, params, st, events, seat, work, W_BEST + i)
    st[R_SC, C_MELDS] -= touched  # melds formed again are not laid down anew
    st[R_SC, C_MELDS_TURN] -= touched  # (lay_down refreshed the fits: the card is new)


@kernel
def _use(fx, params, bots, st, piles, rng, work, events, seat, card, where, offered):
    """``seat`` uses ``card`` (``best_use``'s melds in ``work``, touching ``where``; from the
    discard pile when ``offered``), then discards unless his hand is empty; returns
    ``TURN_OUT`` or ``TURN_ON``."""
    log_event(st, events, np.int64(E_USE), seat, card, np.int64(1 if offered else 0))
    apply_use(fx, params, st, work, events, seat, card, where)
    if st[R_SEAT + seat, S_N] == 0:
        return TURN_OUT
    kind = conquian_discard(fx, params, bots, st, rng, seat)
    take(fx, params, st, seat, kind)
    push_discard(st, piles, kind)
    st[R_SC, C_LIVE] = 1
    st[R_SC, C_DISCARDS_TURN] += 1
    log_event(st, events, np.int64(E_DISCARD), seat, kind, np.int64(0))
    return TURN_ON


@gated(P_FAMILY, _conquian, np.int64(TURN_ON))
@kernel
def conquian_turn(fx, params, values, bots, st, piles, rng, work, events, seat):
    """``seat``'s whole turn (module docstring); returns ``TURN_ON``, ``TURN_OUT`` or
    ``TURN_DRAWN``."""
    card = on_offer(st, piles)
    if card >= 0:
        bit = np.int64(1) << card
        fits = st[R_SEAT + seat, S_FITS_OWN] & bit != 0
        other = next_seat(fx, params, st, seat)
        forced = fits and forces(bots, st, rng, other, seat)
        if forced:
            log_event(st, events, np.int64(E_FORCE), other, card, seat)
        count, where = best_use(fx, params, values, st, work, seat, card)
        if forced and count == 0:  # never: a card that fits a meld has a use
            st[R_SC, C_VIOLATIONS] += 1
        if count > 0 and (forced or uses(bots, rng, seat)):
            pop_discard(st, piles)
            st[R_SC, C_LIVE] = 0
            st[R_SC, C_DRAWS_DISCARD] += 1
            return _use(
                fx, params, bots, st, piles, rng, work, events, seat, card, where, np.bool_(True)
            )
        st[R_SC, C_LIVE] = 0  # turned down: out of play, under the next card on offer
        log_event(st, events, np.int64(E_REJECT), seat, card, np.int64(0))
    if st[R_SC, C_STOCK_N] == 0:
        return TURN_DRAWN
    card = pop_stock(st, piles, rng)
    st[R_SC, C_DRAWS_STOCK] += 1
    log_event(st, events, np.int64(E_EXPOSE), seat, card, np.int64(0))
    count, where = best_use(fx, params, values, st, work, seat, card)
    if count > 0 and uses(bots, rng, seat):
        return _use(
            fx, params, bots, st, piles, rng, work, events, seat, card, where, np.bool_(False)
        )
    push_discard(st, piles, card)
    st[R_SC, C_LIVE] = 1
    log_event(st, events, np.int64(E_PASS), seat, card, np.int64(0))
    return TURN_ON


@gated(P_FAMILY, _conquian, np.int64(0))
@kernel
def check_conquian(fx, params, st, winner):
    """Audit: each seat's melded and held cards add up to the deal (``hand_size``), the
    winner's to one more with none held; a card on offer lies on a non-empty pile. Returns
    the violations."""
    bad = 0
    size = rule(fx, params, P_HAND_SIZE)
    for p in range(2):
        melded = popcount(own_cards(st, p, np.int64(TOUCH_ALL)))
        held = st[R_SEAT + p, S_N]
        if p == winner:
            if held != 0 or melded != size + 1:
                bad += 1
        elif melded + held != size:
            bad += 1
    if st[R_SC, C_LIVE] == 1 and st[R_SC, C_DISCARD_N] == 0:
        bad += 1
    return bad
