"""One hand of the knock family: Knock Rummy (RULES.md §3.10), Gin Rummy (§3.17) and
Oklahoma Gin (§3.20), with the §2I toggles.

Melds never reach the table during play: a turn is a draw and a discard, and a player may
knock when the deadwood left after his discard is within the knock limit. At the knock every
hand is arranged to its minimum deadwood (§1.13), the defenders lay off on the knocker's
melds where the rules allow it (gin, or ``layoff_target = "any"``), and the hand is scored by
the family's rules. ``play_knock_hand`` has the signature of ``hand.play_hand`` plus
``extra`` (side bonuses that do not count toward the target, §2I.39).
"""

from __future__ import annotations

import numpy as np

from sim.engine.audit import check_state
from sim.engine.bits import FIELD_LOW, RANK_FIELD, lowest_bit, mask_value, rank_counts, to_positions
from sim.engine.hand import (
    deal_round,
    draw_stock,
    draw_with_empty_stock,
    log_deal,
    reset_hand,
    take_discard,
    turn_upcard,
)
from sim.engine.jit import inline_kernel, kernel
from sim.engine.knock_bots import choose_turn, keep_after_discard, next_seat, takes_card
from sim.engine.knock_melds import (
    ANY_SUIT_RULE,
    N_POSITIONS,
    arrange,
    arrange_spans,
    defend,
    defend_any,
    meld_rule,
    run_reach,
)
from sim.engine.layout import (
    DEALER_LOSER_SITS_OUT,
    FAMILY_GIN,
    GIN_OPENING_DEAL_11_10,
    KNOCK_PENALTY,
    KNOCK_UPCARD,
    LAYOFF_ANY,
    N_SUITS,
    P_ACE_RANK,
    P_AUDIT,
    P_DEALER_ROTATION,
    P_FAMILY,
    P_GIN_BONUS,
    P_GIN_OPENING,
    P_KNOCK_LIMIT,
    P_LAYOFF_TARGET,
    P_OKLAHOMA_EXTRA,
    P_PLAYERS,
    P_SPADE_DOUBLE,
    P_STOCK_EXHAUSTION,
    P_TURN_CAP,
    P_UNDERCUT_BONUS,
    P_UPCARD,
    REASON_EXHAUSTED,
    REASON_GIN,
    REASON_KNOCK,
    REASON_STALLED,
    REASON_UNDERCUT,
    REASON_VOID,
    RUM_BONUS,
    STOCK_VOID_AT_TWO,
)
from sim.engine.state import (
    E_DECLINE_UPCARD,
    E_DISCARD,
    E_END,
    E_KNOCK,
    E_SCORE,
    E_SHOW,
    PL_BITS,
    SC_KNOCK_LIMIT,
    SC_SITTING_OUT,
    SC_STOCK_N,
    SC_TAKEN,
    SC_TURN,
    SC_UPCARD,
    SC_VIOLATIONS,
    discard_allowed,
    discard_top,
    give,
    log_card,
    log_event,
    pop_stock,
    push_discard,
    take,
)

SPADES = 0  # suit index of spades (cards.py: suits s h d c)
VOID_STOCK = 2  # gin: a hand is void when this many stock cards are left and nobody knocked
OKLAHOMA_UNDERCUT_SIDE = 20  # §3.20: side bonus for an undercut (doubled on a spade upcard)
OKLAHOMA_GIN_SIDE = 40  # §3.20: side bonus for gin (doubled on a spade upcard)
NO_KNOCKER = -1

# what a turn came to
TURN_ON = 0  # nobody knocked; play goes on
TURN_KNOCK = 1  # the player knocked
TURN_VOID = 2  # gin: two stock cards left without a knock
TURN_BAD = 3  # a bot made an illegal choice (counted as a violation; the hand stalls)


@inline_kernel
def _audit(st, params):
    if params[P_AUDIT] == 1:
        check_state(st, params)


@kernel
def upcard_limit(card):
    """§2I.32 ``knock_limit = upcard``: the upcard's value sets the limit; 10 and pictures
    give 10, 2-9 their pips, an ace 0 (gin only)."""
    rank = card // N_SUITS
    if rank == 0:
        return 0
    return min(rank + 1, 10)


@inline_kernel
def sits_out_dealer(params):
    """3-player gin (§3.18): the dealer does not play the hand."""
    return params[P_DEALER_ROTATION] == DEALER_LOSER_SITS_OUT


@kernel
def deal_knock(st, params, dealer):
    """Deal one card at a time from the dealer's left (3-player gin: the dealer sits out and
    gets none, §3.18); then the upcard, or with the 11/10 opening one more card to the
    non-dealer (§1.4, §3.17). Sets the hand's knock limit."""
    out = dealer if sits_out_dealer(params) else -1
    st.sc[SC_SITTING_OUT] = out
    deal_round(st, params, dealer, out)
    eleven = params[P_FAMILY] == FAMILY_GIN and params[P_GIN_OPENING] == GIN_OPENING_DEAL_11_10
    if eleven:
        give(st, next_seat(st, params, dealer), pop_stock(st))
    log_deal(st, params)
    st.sc[SC_UPCARD] = -1
    if params[P_UPCARD] == 1 and not eleven:
        st.sc[SC_UPCARD] = turn_upcard(st)
    limit = params[P_KNOCK_LIMIT]
    if limit == KNOCK_UPCARD:
        limit = upcard_limit(st.sc[SC_UPCARD])
    st.sc[SC_KNOCK_LIMIT] = limit


@inline_kernel
def _draw(st, params, values, bots, player, rule):
    """Draw the discard top or the stock top (§1.5); an empty stock is rebuilt (§1.8; gin
    never gets there, its hands are void first). Returns False when nothing is left."""
    top = discard_top(st)
    if st.sc[SC_STOCK_N] == 0:
        if top < 0:
            return False
        wants = takes_card(st, params, values, bots, player, top, rule)
        draw_with_empty_stock(st, params, player, wants)
        return True
    if top >= 0 and takes_card(st, params, values, bots, player, top, rule):
        take_discard(st, player, False)
    else:
        draw_stock(st, player)
    return True


@inline_kernel
def _finish_turn(st, params, values, bots, player, rule):
    """The player holds one card more than the deal: he discards, and knocks if he chooses
    to (§3.10, §3.17). Returns TURN_*."""
    card, knock = choose_turn(st, params, values, bots, player, rule)
    if card < 0 or not discard_allowed(st, player, card):
        st.sc[SC_VIOLATIONS] += 1
        return TURN_BAD
    keep_after_discard(st, player, st.pl[player, PL_BITS], card, values, rule)
    take(st, player, card)
    push_discard(st, card)
    log_event(st, E_DISCARD, player, card, 0)
    _audit(st, params)
    if knock:
        left = arrange(st.pl[player, PL_BITS], values, rule)[0]
        limit = st.sc[SC_KNOCK_LIMIT]
        if limit >= 0 and left > limit:
            st.sc[SC_VIOLATIONS] += 1  # the bot knocked above the limit
            return TURN_BAD
        log_event(st, E_KNOCK, player, left, 0)
        return TURN_KNOCK
    if params[P_STOCK_EXHAUSTION] == STOCK_VOID_AT_TWO and st.sc[SC_STOCK_N] <= VOID_STOCK:
        return TURN_VOID
    return TURN_ON


@kernel
def _gin_opening(st, params, values, bots, dealer, rule):
    """§3.17 upcard offer: the non-dealer may take the upcard; if he declines the dealer may;
    if both decline the non-dealer draws from the stock. Whoever takes a card finishes his
    turn. Returns (TURN_*, the player who acted, the next player)."""
    first = next_seat(st, params, dealer)
    second = next_seat(st, params, first)  # the dealer, or in 3-player gin the other player
    upcard = discard_top(st)
    for who in (first, second):
        st.sc[SC_TURN] += 1
        st.sc[SC_TAKEN] = -1
        if takes_card(st, params, values, bots, who, upcard, rule):
            take_discard(st, who, False)
            _audit(st, params)
            return (
                _finish_turn(st, params, values, bots, who, rule),
                who,
                next_seat(st, params, who),
            )
        log_event(st, E_DECLINE_UPCARD, who, upcard, 0)
    st.sc[SC_TURN] += 1
    st.sc[SC_TAKEN] = -1
    draw_stock(st, first)
    _audit(st, params)
    return _finish_turn(st, params, values, bots, first, rule), first, second


@kernel
def play_knock_turns(st, params, values, bots, dealer, rule):
    """Turns until someone knocks (returns (TURN_KNOCK, knocker)), the hand is void or
    stalls (TURN_VOID / TURN_BAD / cap: (reason code, -1))."""
    player = next_seat(st, params, dealer)
    gin = params[P_FAMILY] == FAMILY_GIN
    if gin and params[P_GIN_OPENING] == GIN_OPENING_DEAL_11_10:
        st.sc[SC_TURN] += 1
        st.sc[SC_TAKEN] = -1
        outcome = _finish_turn(st, params, values, bots, player, rule)  # opens by discarding
        if outcome != TURN_ON:
            return outcome, player
        player = next_seat(st, params, player)
    elif gin:
        outcome, who, player = _gin_opening(st, params, values, bots, dealer, rule)
        if outcome != TURN_ON:
            return outcome, who
    while True:
        if st.sc[SC_TURN] >= params[P_TURN_CAP]:
            return TURN_BAD, NO_KNOCKER
        st.sc[SC_TURN] += 1
        st.sc[SC_TAKEN] = -1
        if not _draw(st, params, values, bots, player, rule):
            return TURN_BAD, NO_KNOCKER
        _audit(st, params)
        outcome = _finish_turn(st, params, values, bots, player, rule)
        if outcome != TURN_ON:
            return outcome, player
        player = next_seat(st, params, player)


@kernel
def _log_show(st, player, deadwood, laid):
    """The E_SHOW event of ``player``: his deadwood and the cards ``laid`` off."""
    row = log_event(st, E_SHOW, player, deadwood, 0)
    m = laid
    while m != 0:
        k = lowest_bit(m)
        m &= m - 1
        log_card(st, row, k)


@kernel
def showdown(st, params, values, knocker, left):
    """Every hand laid out at its minimum deadwood (§1.13); the defenders, from the
    knocker's left, lay off on the knocker's melds where the rules allow it (gin unless the
    knocker went gin, §3.17; knock rummy only with ``layoff_target = "any"``, §3.10 open
    point 5), each after the ones before him. Writes each player's deadwood to ``left``."""
    if meld_rule(params) >= ANY_SUIT_RULE:
        showdown_any_suit(st, params, values, knocker, left)
        return
    players = params[P_PLAYERS]
    ace = params[P_ACE_RANK]
    dw, groups, runs = arrange(st.pl[knocker, PL_BITS], values, ace)
    left[knocker] = dw
    lay = params[P_LAYOFF_TARGET] == LAYOFF_ANY and dw > 0
    for off in range(1, players):
        p = (knocker + off) % players
        if p == st.sc[SC_SITTING_OUT]:
            continue
        hand = st.pl[p, PL_BITS]
        if lay:
            d, laid = defend(hand, groups, runs, values, ace)
            four = laid & ~run_reach(laid, runs, ace)
            groups |= four
            runs |= laid & ~four
        else:
            d = arrange(hand, values, ace)[0]
            laid = 0
        left[p] = d
        _log_show(st, p, d, laid)


@kernel
def showdown_any_suit(st, params, values, knocker, left):
    """``showdown`` under ``run_suit = any_suit`` (§3.17 open point 1): the knocker's runs
    are kept by where they begin and end (``knock_melds.arrange_spans``), since overlapping
    runs of any suits cannot be told apart on a card mask, and grow with each lay-off."""
    players = params[P_PLAYERS]
    ace = params[P_ACE_RANK]
    hand = st.pl[knocker, PL_BITS]
    dw, groups, runs, lows, highs = arrange_spans(hand, values, ace)
    left[knocker] = dw
    audit = params[P_AUDIT] == 1
    if audit and dw != mask_value(hand & ~(groups | runs), values):
        st.sc[SC_VIOLATIONS] += 1
    lay = params[P_LAYOFF_TARGET] == LAYOFF_ANY and dw > 0
    for off in range(1, players):
        p = (knocker + off) % players
        if p == st.sc[SC_SITTING_OUT]:
            continue
        hand = st.pl[p, PL_BITS]
        if lay:
            before = groups
            d, laid, groups, lows, highs = defend_any(hand, groups, lows, highs, values, ace)
            runs |= laid & ~(groups & ~before)
        else:
            d = arrange(hand, values, ace + ANY_SUIT_RULE)[0]
            laid = 0
        left[p] = d
        _log_show(st, p, d, laid)
    if audit:
        st.sc[SC_VIOLATIONS] += check_any_suit_melds(groups, runs, lows, highs, ace)


@kernel
def check_any_suit_melds(groups, runs, lows, highs, ace_rank):
    """Audit (written apart from ``arrange_spans``/``defend_any``): the melds on the table
    at a showdown under any-suit runs are legal. Every rank of ``groups`` holds 3 or 4
    cards, no card is in a group and a run, and the runs' cards fit their ends: at each run
    position as many run cards as runs begun and not yet ended, and the runs can be paired
    begin to end three or more positions apart (the k-th end no sooner than two positions
    after the k-th beginning). Returns the violations found."""
    bad = 0
    counts = rank_counts(groups)
    if (counts & ~(counts >> 1) & ~(counts >> 2) & FIELD_LOW) != 0:  # 1 card (0b001)
        bad += 1
    if ((counts >> 1) & ~counts & ~(counts >> 2) & FIELD_LOW) != 0:  # 2 cards (0b010)
        bad += 1
    if groups & runs != 0:
        bad += 1
    held = rank_counts(to_positions(runs, ace_rank))
    open_runs = 0
    begun = 0  # runs begun at least two positions back
    ended = 0
    for p in range(N_POSITIONS):
        shift = p * 4
        if p >= 2:
            begun += (lows >> (shift - 8)) & RANK_FIELD
        open_runs += (lows >> shift) & RANK_FIELD
        if open_runs != (held >> shift) & RANK_FIELD:
            bad += 1
        ends = (highs >> shift) & RANK_FIELD
        open_runs -= ends
        ended += ends
        if ended > begun or open_runs < 0:
            bad += 1
    if open_runs != 0:
        bad += 1
    return bad


@kernel
def score_gin(st, params, knocker, left, scores, extra):
    """§3.17, §3.20: gin scores the gin bonus plus the defender's deadwood; a knock with less
    deadwood than the defender scores the difference; otherwise the defender undercuts and
    scores the difference plus the undercut bonus. A spade upcard doubles the hand
    (``spade_double``); Oklahoma's side bonuses go to ``extra``. Returns (reason, winner)."""
    defender = next_seat(st, params, knocker)
    k = left[knocker]
    d = left[defender]
    spade = st.sc[SC_UPCARD] >= 0 and st.sc[SC_UPCARD] % N_SUITS == SPADES
    factor = 2 if spade and params[P_SPADE_DOUBLE] == 1 else 1
    side = 2 if spade else 1
    if k == 0:
        reason, winner, points = REASON_GIN, knocker, params[P_GIN_BONUS] + d
        bonus = OKLAHOMA_GIN_SIDE * side
    elif k < d:
        reason, winner, points = REASON_KNOCK, knocker, d - k
        bonus = 0
    else:
        reason, winner, points = REASON_UNDERCUT, defender, k - d + params[P_UNDERCUT_BONUS]
        bonus = OKLAHOMA_UNDERCUT_SIDE * side
    scores[winner] = points * factor
    if params[P_OKLAHOMA_EXTRA] == 1:
        extra[winner] = bonus
    return reason, winner


@kernel
def score_knock_rummy(params, knocker, left, scores):
    """§3.10: the lowest count wins the differences to every other count (+25 from each
    opponent when it is 0). The knocker wins when strictly lowest, or at 0 against 0. An
    opponent who ties him wins without penalty; opponents strictly lower win and take 10
    from the knocker, who loses 10. Tied winners split the pot (floor; open point 2).
    Returns (reason, winner), winner -1 when shared."""
    players = params[P_PLAYERS]
    k = left[knocker]
    low = -1
    for p in range(players):
        if p != knocker and (low < 0 or left[p] < low):
            low = left[p]
    if k < low or k == 0:
        pot = 0
        for p in range(players):
            pot += left[p] - k
        if k == 0:
            pot += RUM_BONUS * (players - 1)
        scores[knocker] = pot
        return (REASON_GIN if k == 0 else REASON_KNOCK), knocker
    winners = 0
    winner = -1
    pot = 0
    for p in range(players):
        if p != knocker and left[p] == low:
            winners += 1
            winner = p
    for p in range(players):
        if not (p != knocker and left[p] == low):
            pot += left[p] - low
    if low < k:
        pot += KNOCK_PENALTY
        scores[knocker] = -KNOCK_PENALTY
        if low == 0:
            pot += RUM_BONUS * (players - 1)
    for p in range(players):
        if p != knocker and left[p] == low:
            scores[p] = pot // winners
    return REASON_UNDERCUT, (winner if winners == 1 else -1)


@kernel
def play_knock_hand(
    st, params, values, bots, dealer, seed, shard, deal, preset, scores, left, extra
):
    """Deal and play one knock-family hand. Writes each player's hand score to ``scores``,
    his deadwood at the showdown to ``left`` (0 when there was none) and side bonuses to
    ``extra``; returns (reason, winner, turns)."""
    players = params[P_PLAYERS]
    reset_hand(st, params, seed, shard, deal, preset)
    deal_knock(st, params, dealer)
    _audit(st, params)
    for p in range(players):
        scores[p] = 0
        left[p] = 0
        extra[p] = 0
    if meld_rule(params) >= ANY_SUIT_RULE:
        outcome, knocker = play_knock_turns(st, params, values, bots, dealer, meld_rule(params))
    else:  # same-suit kernels, compiled apart (knock_melds.is_any_suit)
        rule = np.int32(params[P_ACE_RANK])
        outcome, knocker = play_knock_turns(st, params, values, bots, dealer, rule)
    winner = -1
    if outcome == TURN_KNOCK:
        showdown(st, params, values, knocker, left)
        if params[P_FAMILY] == FAMILY_GIN:
            reason, winner = score_gin(st, params, knocker, left, scores, extra)
        else:
            reason, winner = score_knock_rummy(params, knocker, left, scores)
        if params[P_AUDIT] == 1:
            defender = next_seat(st, params, knocker)
            st.sc[SC_VIOLATIONS] += check_knock_scores(
                params, knocker, defender, reason, left, scores
            )
    elif outcome == TURN_VOID:
        reason = REASON_VOID
    elif st.sc[SC_STOCK_N] == 0 and discard_top(st) < 0:
        reason = REASON_EXHAUSTED
    else:
        reason = REASON_STALLED
    log_event(st, E_END, winner, reason, st.sc[SC_TURN])
    for p in range(players):
        log_event(st, E_SCORE, p, left[p], scores[p])
    return reason, winner, st.sc[SC_TURN]


@kernel
def check_knock_scores(params, knocker, defender, reason, left, scores):
    """Audit (written apart from the scoring): the hand's points against RULES.md §3.10 /
    §3.17 worked out from the showdown counts. Returns the violations found."""
    players = params[P_PLAYERS]
    bad = 0
    if params[P_FAMILY] == FAMILY_GIN:
        # exactly one player scores, and by the amount his result gives
        k, d = left[knocker], left[defender]
        total = 0
        scorers = 0
        for p in range(players):
            total += scores[p]
            if scores[p] != 0:
                scorers += 1
                if p != knocker and p != defender:
                    bad += 1  # the seat sitting out scored
        if scorers > 1:
            bad += 1
        if reason == REASON_GIN and (k != 0 or total < params[P_GIN_BONUS] + d):
            bad += 1
        if reason == REASON_KNOCK and (k == 0 or k >= d or scores[knocker] < d - k):
            bad += 1
        if reason == REASON_UNDERCUT and (k == 0 or k < d or scores[knocker] != 0):
            bad += 1
        return bad
    # knock rummy: what the winners take is what the others' counts exceed theirs by,
    # plus the penalty and rum bonus; nobody but the knocker loses points
    total = 0
    for p in range(players):
        total += scores[p]
        if p != knocker and scores[p] < 0:
            bad += 1
    low = left[0]
    for p in range(players):
        low = min(low, left[p])
    if reason == REASON_UNDERCUT and left[knocker] == low and low > 0:
        tie_pot = 0
        for p in range(players):
            tie_pot += left[p] - low
        if total > tie_pot or scores[knocker] != 0:
            bad += 1
    if reason != REASON_UNDERCUT and (left[knocker] != low or scores[knocker] <= 0):
        bad += 1  # a knocker who wins holds the lowest count (0 against 0 included)
    return bad
