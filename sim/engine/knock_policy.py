"""The bots' answers in the knock family (docs/bots.md, "The knock family"; RULES.md §3.10,
§3.17, §3.20): take the offered card, and, holding one card more than the deal, which card
to discard and whether to knock; and the same answers under all_at_once (§2D.18, below).

Every policy works on the best arrangement of the hand (``layoffs.seat_arrangement``);
"outside" is the cards outside it. A card taken from the discard pile this turn is never
discarded (``C_TAKEN``). Where the rules set no knock limit the simple and greedy bots use
10 (``go_out.bot_limit``); random knocks with any count there.

- ``simple``: takes the card when it is in the best arrangement of the hand with it, or
  when he could then knock (his deadwood after discarding the highest-valued other card
  outside is within his limit); discards the highest-valued card outside (ties: the higher
  kind), or with none outside the card whose removal leaves the least deadwood (ties: the
  higher kind); knocks as soon as the deadwood after that discard is within his limit.
- ``greedy``: takes the card when his deadwood after the best discard (as simple's, not the
  taken card) is lower than his deadwood now; discards the highest-valued card outside,
  among equal values one in no partial meld (``melds.partial_melds``), then the higher
  kind; knocks as soon as he may.
- ``careful``: takes the card when it could then knock (as simple), or when its deadwood
  after taking it and discarding the highest-valued other card outside is no more than the
  deadwood it expects after a stock draw instead (``draw_outlook`` of its hand over the
  cards it has not seen, divided by their count; ``_takes_over_stock``; with no unseen card,
  as simple): a card that melds but leaves more than the stock promises is let go, and a low
  card that replaces a high one is taken. When it knocks this turn (below) or has fewer than
  two cards outside, it discards as simple; otherwise the card outside (never the taken
  card) that leaves the best *outlook* (``draw_outlook``: the deadwood it expects after its
  next stock draw and simple's discard, every card it has not seen equally likely) plus
  ``DANGER_POINTS`` times the chance that the next player melds the card (``meld_danger``,
  from the discard pile, his takes and his hand size) plus the card's value times
  ``KEEP_EARLY - KEEP_FADE * turn - KEEP_PICK * picks`` (``C_TURN``; ``picks`` the discards
  the next player has taken this hand: early a high card is kept, since what it may meld
  weighs more than its count, which scores only at a knock; later, and the nearer his knock,
  the count weighs more); neither term once the stock has been turned over, where defending
  can keep a hand going round; ties to the higher value, then the higher kind. Knocks always
  with gin; within its limit at once with 3 or less, while more than 10 stock cards are
  left, or once the next player has taken 2 or more discards; otherwise it waits.
- ``random``: takes with probability 1/2; discards a uniform allowed card (kind order); when
  the deadwood after it is within the limit, knocks with probability 1/2.
- restricted careful (docs/bots.md, "Restricted play"; ``knocks`` reads the seat's flags):
  ``careful-outfirst`` knocks as soon as its deadwood after the discard is within its
  limit (``bot_limit``); ``camper`` knocks within its limit only during the hand's first
  ``CAMPER_KNOCK_TURNS * players`` turns (``C_TURN``, as the engine counts them: a
  declined upcard is a turn), and afterwards only with gin (no deadwood); its take is
  careful's but for ``restrict.camper_took`` (``bots.wants_discard``). Otherwise both play
  as careful (their discard is careful's for the knock they decide).

Under ``meld_timing = "all_at_once"`` (RULES.md §2D.18; docs/bots.md, "All at once") the
take is ``knock_wants`` with a limit of 0 (``go_out.knock_limit``: out with no deadwood),
careful's there simple's (no comparison with the stock draw), but greedy's is its
progressive one (``greedy.greedy_wants``: the card melds with the hand).
``concealed_turn`` goes out whenever ``go_out.out_discard`` says the hand can (random: with
probability 1/2), laying the whole hand when it melds wholly and no discard is required,
else keeping back the lowest-valued card that leaves the rest melded. Otherwise it
discards (``_concealed_card``) from the allowed cards outside the best arrangement (all
allowed cards when none is outside): ``random`` a uniform one; ``greedy`` and ``careful``
never the card that came round while another may go (``greedy.discard_candidates``), and
among those a card in no partial meld when there is one; of these greedy the
highest-valued (ties: the higher kind), careful, with two or more to choose from, the one
that leaves the best outlook (``draw_outlook``, without the knock family's danger term;
ties: the higher value, then kind). Under
a fixed go-out pattern (``go_out_pattern``, Nowrang §3.15) the discard is
``pattern_policy.pattern_discard``'s instead.
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_NATURAL, N_RANKS, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.deal import next_seat
from sim.engine.go_out import NO_LIMIT, OUT_NONE, bot_limit, knock_limit, out_discard
from sim.engine.greedy import discard_candidates
from sim.engine.jit import kernel
from sim.engine.layoffs import arrange_mask, cannot_meld, keep_arrangement, seat_arrangement
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_GREEDY,
    BOT_RANDOM,
    P_MELD_TIMING,
    P_PLAYERS,
    RESTRICT_CAMPER,
    RESTRICT_OUT_FIRST,
    TIMING_ALL_AT_ONCE,
    TIMING_KNOCK,
)
from sim.engine.legal import allowed_naturals
from sim.engine.melds import MAX_LAYERS, partial_melds
from sim.engine.pattern_policy import pattern_discard
from sim.engine.patterns import patterned
from sim.engine.random_bot import random_discard, random_wants, uniform_kind
from sim.engine.restrict import bot_flags
from sim.engine.rng import RNG_BOTS, below
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_DISCARD_N,
    C_REBUILDS,
    C_STOCK_N,
    C_TAKEN,
    C_TURN,
    PILE_DISCARD,
    R_SC,
    R_SEAT,
    S_HAND,
    S_N,
    S_PICKED,
)

NO_CARD = -1
HUGE = 1 << 40
CAREFUL_SAFE_KNOCK = 3  # careful always knocks with this much deadwood or less
CAREFUL_LATE_STOCK = 10  # ... and with more, only while more stock cards than this are left
CAREFUL_OPPONENT_PICKS = 2  # ... or once the next player has picked up this many discards
TAKE_MARGIN = 0  # careful takes the offered card when the deadwood it leaves, less this, is
# no more than a stock draw's expected deadwood (``_takes_over_stock``; measured in
# docs/bots.md, "careful")
CAMPER_KNOCK_TURNS = 3  # camper knocks (within its limit) only in its first 3 turns
DANGER_POINTS = 4.0  # careful: the expected deadwood points that feeding the next player a
# card he surely melds is worth, against the outlook (``meld_danger``; 3 to 5 measured best)
KEEP_EARLY = 0.9  # careful: at the hand's first turn, the expected deadwood points that a
# discarded card's value costs per point (a high card kept early: its melds to come weigh
# more than its count, which scores only once someone knocks) ...
KEEP_FADE = 0.07  # ... less this much a turn (``C_TURN``): later the count weighs more and
# high cards go first (measured against simple: docs/bots.md, "careful") ...
KEEP_PICK = 0.15  # ... and this much less for each discard the next player has taken
# (``S_PICKED``, public): each brings his knock nearer, and a high card held costs its count
VALUE_SCALE = 64  # above any card value: a sort key of (outlook, -value) in one number
FULL52 = (np.int64(1) << 52) - 1


@kernel
def _highest(values, cards, avoid):
    """The card of ``cards`` with the highest value; among equals one outside ``avoid``,
    then the higher kind (-1: none)."""
    best = NO_CARD
    best_key = -HUGE
    m = cards
    while m != 0:  # lowest kind first: ">=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        key = values[k] * 2 + 1 - ((avoid >> k) & 1)
        if key >= best_key:
            best_key = key
            best = k
    return best


@kernel
def discard_from(fx, params, values, st, work, seat, hand, taken, avoid, dw, melded):
    """``(card, deadwood after it)``: the highest-valued card outside the best arrangement
    (``dw``, ``melded``) of ``seat``'s hand ``hand`` (never ``taken``; among equal values one
    outside ``avoid``), or, with none outside, the card whose removal leaves the least
    deadwood (ties: the higher kind)."""
    taken_bit = np.int64(1) << taken if taken >= 0 else np.int64(0)
    outside = hand & ~melded & ~taken_bit
    if outside != 0:
        card = _highest(values, outside, avoid)
        return card, dw - values[card]
    best = NO_CARD
    best_dw = HUGE
    m = hand & ~taken_bit
    while m != 0:  # lowest kind first: "<=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        left, _ = seat_arrangement(
            fx, params, values, st, work, seat, hand & ~(np.int64(1) << k), np.bool_(False),
            np.int64(0),
        )  # fmt: skip
        if left <= best_dw:
            best_dw = left
            best = k
    return best, best_dw


@gated(P_MELD_TIMING, lambda v: v in (TIMING_KNOCK, TIMING_ALL_AT_ONCE), np.bool_(False))
@kernel
def knock_wants(fx, params, values, bots, st, piles, rng, work, seat, card):
    """Does ``seat`` take the offered ``card`` (the upcard at gin's opening or the discard
    top)?"""
    bot = bots[seat]
    if bot == BOT_RANDOM:
        return random_wants(rng)
    hand = st[R_SEAT + seat, S_HAND]
    bit = np.int64(1) << card
    with_card = hand | bit
    if bot == BOT_GREEDY:
        now, _ = seat_arrangement(
            fx, params, values, st, work, seat, hand, np.bool_(True), np.int64(0)
        )
    dw, melded = seat_arrangement(
        fx, params, values, st, work, seat, with_card, np.bool_(False), np.int64(0)
    )
    melds = melded & bit != 0
    if melds:  # a card that melds is mostly taken: the discard starts from here
        keep_arrangement(st, seat, with_card, dw, melded)
    weighs = bot == BOT_CAREFUL and rule(fx, params, P_MELD_TIMING) == TIMING_KNOCK
    if bot != BOT_GREEDY and not weighs and melds:
        return True
    _, after = discard_from(
        fx, params, values, st, work, seat, with_card, card, np.int64(0), dw, melded
    )
    if bot == BOT_GREEDY:
        return after < now
    if after <= bot_limit(fx, params, st):
        return True
    if weighs:
        return _takes_over_stock(fx, params, values, st, piles, work, seat, hand, after, melds)
    return False


@kernel
def _takes_over_stock(fx, params, values, st, piles, work, seat, hand, after, melds):
    """careful in the knock family, holding ``hand`` and offered a card that leaves
    ``after`` deadwood once taken (with simple's discard after it; ``melds``: the card is
    in the best arrangement of the hand with it), and that does not let it knock: does it
    take the card rather than draw from the stock? When ``after`` is no more than the
    deadwood it expects after a stock draw and simple's discard, every card it has not seen
    equally likely (``draw_outlook`` over ``_unseen``, per card; ``TAKE_MARGIN``). With no
    unseen card, as simple: when it melds."""
    unseen = _unseen(fx, params, st, _pile(st, piles), seat, hand)
    n = popcount(unseen)
    if n == 0:
        return melds
    return (after - TAKE_MARGIN) * n <= draw_outlook(fx, params, values, work, hand, unseen)


@kernel
def _max_value(values, cards):
    """The highest value among ``cards`` (0: none)."""
    best = 0
    m = cards
    while m != 0:
        k = lowest_bit(m)
        m &= m - 1
        if values[k] > best:
            best = values[k]
    return best


@kernel
def draw_outlook(fx, params, values, work, hand, unseen):
    """The sum, over every card ``u`` of ``unseen``, of the deadwood ``hand`` keeps after
    drawing ``u`` and discarding the highest card outside its best arrangement (simple's
    discard). Only a ``u`` that melds with ``hand`` needs a new arrangement: any other is
    deadwood in ``hand + u``, whose arrangement is then ``hand``'s with ``u`` left in hand."""
    dw, melded = arrange_mask(fx, params, values, work, hand)
    highest = _max_value(values, hand & ~melded)
    total = 0
    m = unseen
    while m != 0:
        u = lowest_bit(m)
        m &= m - 1
        with_u = hand | (np.int64(1) << u)
        if not cannot_meld(fx, params, work, with_u, np.int64(1) << u):
            dw_u, melded_u = arrange_mask(fx, params, values, work, with_u)
            total += dw_u - _max_value(values, with_u & ~melded_u)
        else:
            total += dw - max(highest - values[u], 0)
    return total


@kernel
def _pile(st, piles):
    """The kinds in the discard pile."""
    pile = np.int64(0)
    for i in range(st[R_SC, C_DISCARD_N]):
        pile |= np.int64(1) << piles[PILE_DISCARD, i]
    return pile


@kernel
def _unseen(fx, params, st, pile, seat, hand):
    """The cards ``seat`` has not seen: not his, not in the discard pile (``pile``, its
    kinds), and not taken from the pile by another player (public)."""
    known = np.int64(0)
    for other in range(rule(fx, params, P_PLAYERS)):
        if other != seat:
            known |= st[R_SEAT + other, S_PICKED]
    return FULL52 & ~hand & ~pile & ~known


@kernel
def _careful_knocks(fx, params, st, seat, left):
    """careful's knock with ``left`` deadwood after its discard (module docstring)."""
    if left == 0:
        return True
    if left > bot_limit(fx, params, st):
        return False
    if left <= CAREFUL_SAFE_KNOCK or st[R_SC, C_STOCK_N] > CAREFUL_LATE_STOCK:
        return True
    picked = st[R_SEAT + next_seat(fx, params, st, seat), S_PICKED]
    return popcount(picked) >= CAREFUL_OPPONENT_PICKS


@kernel
def knocks(fx, params, st, seat, left, flags):
    """Does a careful bot with restriction ``flags`` knock with ``left`` deadwood after its
    discard (module docstring)?"""
    if flags & RESTRICT_OUT_FIRST != 0:
        return left <= bot_limit(fx, params, st)
    if flags & RESTRICT_CAMPER != 0:
        early = st[R_SC, C_TURN] < CAMPER_KNOCK_TURNS * rule(fx, params, P_PLAYERS)
        return left == 0 or (early and left <= bot_limit(fx, params, st))
    return _careful_knocks(fx, params, st, seat, left)


@kernel
def _careful_turn(fx, params, values, st, piles, work, seat, flags):
    """careful's ``(discard, knock)`` (module docstring), under restriction ``flags``."""
    hand = st[R_SEAT + seat, S_HAND]
    taken = st[R_SC, C_TAKEN]
    dw, melded = seat_arrangement(
        fx, params, values, st, work, seat, hand, np.bool_(True), np.int64(0)
    )
    card, left = discard_from(
        fx, params, values, st, work, seat, hand, taken, np.int64(0), dw, melded
    )
    knock = knocks(fx, params, st, seat, left, flags)
    taken_bit = np.int64(1) << taken if taken >= 0 else np.int64(0)
    outside = hand & ~melded & ~taken_bit
    if knock or popcount(outside) < 2:
        return card, knock
    danger = np.float64(DANGER_POINTS)
    picks = popcount(st[R_SEAT + next_seat(fx, params, st, seat), S_PICKED])
    keep = np.float64(KEEP_EARLY - KEEP_FADE * st[R_SC, C_TURN] - KEEP_PICK * picks)
    if st[R_SC, C_REBUILDS] > 0:  # a turned-over stock: defending can hold the hand in a cycle
        danger = np.float64(0.0)
        keep = np.float64(0.0)
    best = _outlook_discard(fx, params, values, st, piles, work, seat, hand, outside, danger, keep)
    return best, knocks(fx, params, st, seat, dw - values[best], flags)


@kernel
def _outlook_discard(fx, params, values, st, piles, work, seat, hand, cards, danger_points,
                     keep_points):  # fmt: skip
    """The card of ``cards`` whose discard leaves ``hand`` the best outlook
    (``draw_outlook``), each card's expected deadwood raised by ``danger_points`` times the
    chance that the next player melds it (``meld_danger``) and by ``keep_points`` times its
    value (both 0: the outlook alone), ties to the higher value, then the higher kind
    (``outlook_choice``). What it reads is public: the discard pile, the cards each player
    took from it, and how many cards the next player holds."""
    pile = _pile(st, piles)
    unseen = _unseen(fx, params, st, pile, seat, hand)
    nxt = next_seat(fx, params, st, seat)
    known = st[R_SEAT + nxt, S_PICKED] & ~pile & ~hand  # taken by him and not let go since
    return outlook_choice(
        fx, params, values, work, hand, cards, unseen, known, pile,
        st[R_SEAT + nxt, S_N], danger_points, keep_points,
    )  # fmt: skip


@kernel
def outlook_choice(fx, params, values, work, hand, cards, unseen, known, pile, held,
                   danger_points, keep_points):  # fmt: skip
    """``_outlook_discard``'s choice among ``cards`` (kinds, a mask) for ``hand``: ``unseen``
    the cards its player has not seen, and of the next player ``known`` the cards he is
    known to hold, ``pile`` the discard pile's kinds (cards he let go), ``held`` how many
    cards he holds. Each unseen card is in his hand with the same chance, his ``held``
    cards less those known spread over the unseen ones. A card's key: its outlook plus,
    for each of the ``n`` unseen draws the outlook sums, ``danger_points`` times the chance
    that the next player melds it and ``keep_points`` times its value."""
    n_unseen = popcount(unseen)
    p = np.float64(0.0)
    if n_unseen > 0:
        p = min(1.0, max(0.0, (held - popcount(known)) / n_unseen))
    best = NO_CARD
    best_key = 1e300
    m = cards
    while m != 0:  # lowest kind first: "<=" lets the higher kind win a tie
        c = lowest_bit(m)
        m &= m - 1
        rest = hand & ~(np.int64(1) << c)
        outlook = float(draw_outlook(fx, params, values, work, rest, unseen))
        if danger_points > 0.0:  # the outlook sums n_unseen draws: the penalty once per draw
            outlook += danger_points * n_unseen * meld_danger(unseen, known, pile, p, c)
        outlook += keep_points * n_unseen * values[c]
        key = outlook * VALUE_SCALE - values[c]
        if key <= best_key:
            best_key = key
            best = c
    return best


@kernel
def _held(unseen, known, p, kind):
    """The chance that the next player holds ``kind`` (``-1`` or past the king: none): 1
    when he is known to (``known``), ``p`` when it is ``unseen``, else 0."""
    if kind < 0 or kind >= N_NATURAL:
        return 0.0
    bit = np.int64(1) << kind
    if known & bit != 0:
        return 1.0
    if unseen & bit != 0:
        return p
    return 0.0


@kernel
def _in(mask, kind):
    """Is ``kind`` a natural card of ``mask`` (``kind`` may be off the pack: no)?"""
    return 0 <= kind < N_NATURAL and (mask >> kind) & 1 != 0


@kernel
def meld_danger(unseen, known, pile, p, card):
    """The chance that the natural ``card`` melds with the next player's hand, each card
    held by him independently (``_held``: surely if ``known``, with chance ``p`` if
    ``unseen``): two more cards of its rank, or two run neighbours in its suit (ace low: the
    pairs below, around and above it). A pair that would have melded with a card of the
    discard ``pile``, which he let go, is taken as not held: no group when its rank is in
    the pile, no run of the two cards below (above) when the card below (above) them is."""
    r = card // N_SUITS
    s = card % N_SUITS
    group = 0.0
    if (pile >> (r * N_SUITS)) & 0xF == 0:
        q0 = _held(unseen, known, p, r * N_SUITS + (s + 1) % N_SUITS)
        q1 = _held(unseen, known, p, r * N_SUITS + (s + 2) % N_SUITS)
        q2 = _held(unseen, known, p, r * N_SUITS + (s + 3) % N_SUITS)
        group = q0 * q1 + q0 * q2 + q1 * q2 - 2.0 * q0 * q1 * q2  # two of three or more
    step = N_SUITS  # one rank up, same suit
    a = _held(unseen, known, p, card - 2 * step) if r >= 2 else 0.0
    b = _held(unseen, known, p, card - step) if r >= 1 else 0.0
    d = _held(unseen, known, p, card + step) if r <= N_RANKS - 2 else 0.0
    e = _held(unseen, known, p, card + 2 * step) if r <= N_RANKS - 3 else 0.0
    below = 0.0 if _in(pile, card - 3 * step) and r >= 3 else 1.0
    above = 0.0 if _in(pile, card + 3 * step) and r <= N_RANKS - 4 else 1.0
    # P(below pair or middle pair or above pair), by inclusion-exclusion
    run = below * a * b + b * d + above * d * e - below * a * b * d - above * b * d * e
    return 1.0 - (1.0 - group) * (1.0 - run)


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, (np.int64(-1), np.bool_(False)))
@kernel
def knock_turn(fx, params, values, bots, st, piles, rng, work, seat):
    """``seat`` holds one card more than the deal: ``(discard, knock)``."""
    bot = bots[seat]
    if bot == BOT_CAREFUL:
        flags = bot_flags(fx, params, bots, seat)
        return _careful_turn(fx, params, values, st, piles, work, seat, flags)
    hand = st[R_SEAT + seat, S_HAND]
    if bot == BOT_RANDOM:
        card = random_discard(fx, params, st, rng, seat)
        left, _ = seat_arrangement(
            fx, params, values, st, work, seat, hand & ~(np.int64(1) << card), np.bool_(False),
            np.int64(0),
        )  # fmt: skip
        limit = knock_limit(fx, params, st)
        knock = (limit == NO_LIMIT or left <= limit) and below(
            rng, np.int64(RNG_BOTS), np.int64(2)
        ) == 1
        return card, knock
    avoid = np.int64(0)
    if bot == BOT_GREEDY:
        avoid = partial_melds(
            fx, params, st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS], np.int64(1)
        )
    dw, melded = seat_arrangement(
        fx, params, values, st, work, seat, hand, np.bool_(True), np.int64(0)
    )
    card, left = discard_from(
        fx, params, values, st, work, seat, hand, st[R_SC, C_TAKEN], avoid, dw, melded
    )
    return card, left <= bot_limit(fx, params, st)


@gated(P_MELD_TIMING, lambda v: v == TIMING_ALL_AT_ONCE, (np.int64(-1), np.bool_(False)))
@kernel
def concealed_turn(fx, params, values, bots, st, piles, rng, work, seat):
    """all_at_once: ``(card, out)``: ``seat`` goes out (``out``) keeping back ``card`` to
    discard (``go_out.OUT_WHOLE``: none), or discards ``card`` (module docstring)."""
    out = out_discard(fx, params, values, st, work, seat)
    if out != OUT_NONE and (
        bots[seat] != BOT_RANDOM or below(rng, np.int64(RNG_BOTS), np.int64(2)) == 1
    ):
        return out, True
    if patterned(fx, params):  # a fixed pattern (§3.15): pattern_policy.py
        return pattern_discard(fx, params, values, bots, st, rng, work, seat), False
    return _concealed_card(fx, params, values, bots, st, piles, rng, work, seat), False


@kernel
def _concealed_card(fx, params, values, bots, st, piles, rng, work, seat):
    """all_at_once: the card ``seat`` discards when he does not go out (module docstring)."""
    hand = st[R_SEAT + seat, S_HAND]
    _, melded = seat_arrangement(
        fx, params, values, st, work, seat, hand, np.bool_(True), np.int64(0)
    )
    if bots[seat] == BOT_RANDOM:
        allowed = allowed_naturals(st, seat)
        pool = allowed & ~melded
        return uniform_kind(rng, pool if pool != 0 else allowed, np.bool_(False))
    allowed = discard_candidates(st, seat)
    pool = allowed & ~melded
    if pool == 0:
        pool = allowed
    loose = pool & ~partial_melds(
        fx, params, st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS], np.int64(1)
    )
    if loose != 0:
        pool = loose
    if bots[seat] == BOT_CAREFUL and popcount(pool) >= 2:
        return _outlook_discard(
            fx, params, values, st, piles, work, seat, hand, pool, np.float64(0.0),
            np.float64(0.0),
        )  # fmt: skip
    return _highest(values, pool, np.int64(0))
