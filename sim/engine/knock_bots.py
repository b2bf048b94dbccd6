"""The bots' decisions in the knock family (RULES.md §3.10, §3.17, §3.20; docs/bots.md).

A knock-family turn asks two questions: take the offered card (the upcard at the gin
opening, or the discard top), and, holding one card more than the deal, which card to
discard and whether to knock. Every policy answers them on the hand bitmask with
``knock_melds.arrange`` (exact minimum deadwood). The kernels take the meld ``rule``
(``knock_melds.meld_rule``: the ace rank, and whether runs may mix suits; typed ``int32``
for same-suit play, see ``knock_melds.is_any_suit``) and use the ``knock_melds`` helpers
that follow it.

- ``simple``: the reference gin bot. Takes the card only if it then belongs to the
  minimum-deadwood arrangement or if it could then knock; discards the highest-ranked card
  outside the arrangement (with none outside, the card whose removal leaves the least
  deadwood); knocks as soon as it may.
- ``greedy``: takes the card when that lowers its deadwood after the best discard; discards
  the highest-valued card outside the arrangement, preferring one in no partial meld;
  knocks as soon as it may.
- ``careful``: simple's taking; when it does not knock, the discard after which its next
  draw from the stock leaves the least deadwood on average over the cards it has not seen
  (``draw_outlook``); a knock at once with little deadwood, early in the hand, or once the
  opponent has picked up discards, and otherwise a wait for a better knock or gin.
- ``random``: every choice uniform among the legal ones.

Under ``knock_limit = unlimited`` (Knock Rummy) the simple and greedy bots treat 10 as their
own limit: "knock as soon as you may" would otherwise mean knocking at once with any hand.
"""

from __future__ import annotations

from sim.engine.bits import FULL52, bit, lowest_bit, popcount
from sim.engine.jit import inline_kernel, kernel
from sim.engine.knock_melds import (
    arrange,
    completers,
    deadwood,
    knock_meldable,
    knock_partial_melds,
    max_value,
)
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_GREEDY,
    BOT_RANDOM,
    N_NATURAL,
    P_PLAYERS,
)
from sim.engine.rng import below
from sim.engine.state import (
    KR_PICKED,
    PILE_DISCARD,
    PL_ARR_DW,
    PL_ARR_GROUPS,
    PL_ARR_MASK,
    PL_ARR_RUNS,
    PL_BITS,
    SC_DISCARD_N,
    SC_KNOCK_LIMIT,
    SC_SITTING_OUT,
    SC_STOCK_N,
    SC_TAKEN,
)

BOT_OWN_LIMIT = 10  # simple/greedy knock threshold when the rules set no limit
NO_CARD = -1
CAREFUL_SAFE_KNOCK = 3  # careful always knocks with this much deadwood or less
CAREFUL_LATE_STOCK = 10  # ... and with more, only while more stock cards than this are left
CAREFUL_OPPONENT_PICKS = 2  # ... or once the next player has picked up this many discards
VALUE_SCALE = 64  # above any card value: a sort key of (outlook, -value) in one integer
HUGE = 1 << 40


@inline_kernel
def next_seat(st, params, player):
    """The next seat in play after ``player`` (3-player gin skips the dealer, §3.18)."""
    seat = (player + 1) % params[P_PLAYERS]
    if seat == st.sc[SC_SITTING_OUT]:
        seat = (seat + 1) % params[P_PLAYERS]
    return seat


@inline_kernel
def knock_threshold(st, bot):
    """The most deadwood ``bot`` knocks with: the rules' limit for this hand, or its own
    when there is none."""
    limit = st.sc[SC_KNOCK_LIMIT]
    if limit < 0:
        return BOT_OWN_LIMIT if bot != BOT_RANDOM else HUGE
    return limit


@kernel
def _best_card(cards, values, tie_avoid):
    """The card of ``cards`` with the highest value; among equals one outside the mask
    ``tie_avoid``, then the highest card kind. -1 when ``cards`` is empty."""
    best = NO_CARD
    best_key = -HUGE
    m = cards
    while m != 0:  # lowest kind first; ">=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        key = values[k] * 2 + 1 - ((tie_avoid >> k) & 1)
        if key >= best_key:
            best_key = key
            best = k
    return best


@inline_kernel
def arrange_kept(st, player, mask, values, rule, keep):
    """``knock_melds.arrange(mask)`` for ``player``'s hand, reusing the arrangement kept for
    him (``PL_ARR_*``) when ``mask`` is that hand or that hand plus one card in no meld of
    ``mask``. Then the minimum arrangement is the kept one with that card as deadwood: the
    card changes none of the candidate groups and runs, so ``arrange`` would make the same
    choices, ties included. ``keep``: remember this result for the next call."""
    pl = st.pl[player]
    kept = pl[PL_ARR_MASK]
    extra = mask & ~kept
    if kept != 0 and kept & ~mask == 0 and extra & (extra - 1) == 0:
        if extra == 0:
            return pl[PL_ARR_DW], pl[PL_ARR_GROUPS], pl[PL_ARR_RUNS]
        if knock_meldable(mask, rule) & extra == 0:
            dw = pl[PL_ARR_DW] + values[lowest_bit(extra)]
            if keep:
                pl[PL_ARR_MASK] = mask
                pl[PL_ARR_DW] = dw
            return dw, pl[PL_ARR_GROUPS], pl[PL_ARR_RUNS]
    dw, groups, runs = arrange(mask, values, rule)
    if keep:
        pl[PL_ARR_MASK] = mask
        pl[PL_ARR_DW] = dw
        pl[PL_ARR_GROUPS] = groups
        pl[PL_ARR_RUNS] = runs
    return dw, groups, runs


@inline_kernel
def keep_after_discard(st, player, hand, card, values, rule):
    """``player`` discarded ``card`` from ``hand``. When the card was in no meld of ``hand``
    and ``hand``'s arrangement is kept, the arrangement of what is left is the same less that
    card (the mirror of ``arrange_kept``): keep it for his next turn."""
    pl = st.pl[player]
    if pl[PL_ARR_MASK] == hand and (knock_meldable(hand, rule) >> card) & 1 == 0:
        pl[PL_ARR_MASK] = hand & ~bit(card)
        pl[PL_ARR_DW] -= values[card]


@kernel
def discard_from(hand, taken, values, rule, tie_avoid, dw, groups, runs):
    """The discard that leaves the least deadwood among the cards outside the minimum
    arrangement (``dw``, ``groups``, ``runs``) of ``hand`` (never ``taken``, the card just
    taken from the discard pile): the highest-valued one, preferring cards outside
    ``tie_avoid`` among equals. With no such card, the card whose removal leaves the least
    deadwood (ties: the highest kind). Returns ``(card, deadwood after discarding it)``."""
    taken_bit = bit(taken) if taken >= 0 else 0
    outside = hand & ~(groups | runs) & ~taken_bit
    if outside != 0:
        card = _best_card(outside, values, tie_avoid)
        return card, dw - values[card]
    best = NO_CARD
    best_dw = HUGE
    m = hand & ~taken_bit
    while m != 0:  # lowest kind first; "<=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        left = deadwood(hand & ~bit(k), values, rule)
        if left <= best_dw:
            best_dw = left
            best = k
    return best, best_dw


@kernel
def _picked_mask(st, who):
    """Cards ``who`` has taken from the discard pile this hand (public)."""
    m = 0
    for k in range(N_NATURAL):
        if st.kinds[KR_PICKED + who, k] > 0:
            m |= bit(k)
    return m


@inline_kernel
def takes_card(st, params, values, bots, player, card, rule):
    """Whether ``player`` takes ``card`` (the offered upcard or the discard top)."""
    bot = bots[player]
    if bot == BOT_RANDOM:
        return below(st.rng[1:2], 2) == 1
    hand = st.pl[player, PL_BITS]
    with_card = hand | bit(card)
    now = arrange_kept(st, player, hand, values, rule, True)[0]
    dw, groups, runs = arrange_kept(st, player, with_card, values, rule, False)
    if bot == BOT_GREEDY:
        _, after = discard_from(with_card, card, values, rule, 0, dw, groups, runs)
        return after < now
    # simple and careful: the card melds in the minimum arrangement, or lets him knock
    if ((groups | runs) >> card) & 1:
        return True
    _, after = discard_from(with_card, card, values, rule, 0, dw, groups, runs)
    return after <= knock_threshold(st, bot)


@inline_kernel
def _random_turn(st, player, values, rule):
    hand = st.pl[player, PL_BITS]
    taken = st.sc[SC_TAKEN]
    allowed = hand & ~(bit(taken) if taken >= 0 else 0)
    pick = below(st.rng[1:2], popcount(allowed))
    m = allowed
    for _ in range(pick):
        m &= m - 1
    card = lowest_bit(m)
    left = deadwood(hand & ~bit(card), values, rule)
    knock = left <= knock_threshold(st, BOT_RANDOM) and below(st.rng[1:2], 2) == 1
    return card, knock


@inline_kernel
def _careful_knocks(st, params, player, left):
    """The careful bot's knock: gin always; a knock within the limit early in the hand; late
    in the hand (few stock cards left, the opponent's hand has had time to form) only with
    little deadwood, since an undercut is then likely, or once waiting has become riskier
    still (the next player has taken several discards)."""
    if left == 0:
        return True
    if left > knock_threshold(st, BOT_CAREFUL):
        return False
    if left <= CAREFUL_SAFE_KNOCK or st.sc[SC_STOCK_N] > CAREFUL_LATE_STOCK:
        return True
    return popcount(_picked_mask(st, next_seat(st, params, player))) >= CAREFUL_OPPONENT_PICKS


@kernel
def _unseen(st, params, player, hand):
    """The cards ``player`` (holding ``hand``) has not seen, each as likely as the others to
    be his next stock card: not his, not in the discard pile, and not known to be another
    player's (taken from the pile and not thrown back)."""
    pile = 0
    for i in range(st.sc[SC_DISCARD_N]):
        pile |= bit(st.piles[PILE_DISCARD, i])
    known = 0
    for other in range(params[P_PLAYERS]):
        if other != player:
            known |= _picked_mask(st, other)
    return FULL52 & ~hand & ~pile & ~known


@kernel
def draw_outlook(hand, unseen, values, rule):
    """The sum, over every card ``u`` of ``unseen``, of the deadwood ``hand`` keeps after
    drawing ``u`` and discarding the highest card outside the minimum arrangement (the
    discard simple makes); divided by the number of unseen cards, the expected deadwood
    after the next stock draw.

    Only cards that meld with ``hand`` (``completers``) need a new arrangement: any other
    ``u`` is deadwood in ``hand + u``, whose arrangement is then ``hand``'s plus ``u`` (as in
    ``arrange_kept``), so the discard is the higher of ``u`` and ``hand``'s highest deadwood
    card."""
    dw, groups, runs = arrange(hand, values, rule)
    highest = max_value(hand & ~(groups | runs), values)
    melding = completers(hand, rule) & unseen
    total = 0
    m = unseen
    while m != 0:
        u = lowest_bit(m)
        m &= m - 1
        if (melding >> u) & 1:
            with_u = hand | bit(u)
            dw_u, g, r = arrange(with_u, values, rule)
            total += dw_u - max_value(with_u & ~(g | r), values)
        else:
            total += dw - max(highest - values[u], 0)
    return total


@kernel
def _careful_discard(st, params, values, player, hand, outside, rule):
    """careful's discard when it does not knock: the card of ``outside`` (the cards outside
    the minimum arrangement of ``hand``) that leaves the best ``draw_outlook``; among equal
    outlooks the highest value, then the highest card kind."""
    unseen = _unseen(st, params, player, hand)
    best = NO_CARD
    best_key = HUGE
    m = outside
    while m != 0:  # lowest kind first; "<=" lets the higher kind win a tie
        c = lowest_bit(m)
        m &= m - 1
        key = draw_outlook(hand & ~bit(c), unseen, values, rule) * VALUE_SCALE - values[c]
        if key <= best_key:
            best_key = key
            best = c
    return best


@inline_kernel
def choose_turn(st, params, values, bots, player, rule):
    """``player`` holds one card more than the deal: returns ``(discard, knock)``."""
    bot = bots[player]
    if bot == BOT_RANDOM:
        return _random_turn(st, player, values, rule)
    hand = st.pl[player, PL_BITS]
    taken = st.sc[SC_TAKEN]
    dw, groups, runs = arrange_kept(st, player, hand, values, rule, True)
    if bot == BOT_GREEDY:
        partial = knock_partial_melds(hand, rule)
        card, left = discard_from(hand, taken, values, rule, partial, dw, groups, runs)
        return card, left <= knock_threshold(st, bot)
    if bot == BOT_CAREFUL:
        card, left = discard_from(hand, taken, values, rule, 0, dw, groups, runs)
        knock = _careful_knocks(st, params, player, left)
        outside = hand & ~(groups | runs) & ~(bit(taken) if taken >= 0 else 0)
        if knock or popcount(outside) < 2:
            return card, knock
        card = _careful_discard(st, params, values, player, hand, outside, rule)
        return card, _careful_knocks(st, params, player, dw - values[card])
    card, left = discard_from(hand, taken, values, rule, 0, dw, groups, runs)
    return card, left <= knock_threshold(st, bot)
