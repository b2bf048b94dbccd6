"""One hand of progressive rummy: deal, turns, ending and scoring (RULES.md §1.4–1.10, §2E–2G).

``play_hand`` runs a whole hand inside compiled code and returns how it ended; the hand's
scores are written to ``scores`` (int64[P]).
"""

from __future__ import annotations

import numpy as np

from sim.engine.audit import check_scores, check_state
from sim.engine.bits import fast_params, fast_path, mask_value, popcount
from sim.engine.bots import choose_discard, play_melds, wants_discard
from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import (
    JOKER,
    N_KINDS,
    P_AUDIT,
    P_GOING_RUMMY,
    P_HAND_SIZE,
    P_MUST_DISCARD_TO_GO_OUT,
    P_PLAYERS,
    P_RUMMY_BONUS,
    P_SCORING,
    P_STOCK_EXHAUSTION,
    P_TURN_CAP,
    P_UPCARD,
    REASON_BLOCK,
    REASON_EXHAUSTED,
    REASON_STALLED,
    REASON_WENT_OUT,
    REASON_WENT_RUMMY,
    RUMMY_BONUS,
    RUMMY_DOUBLE,
    SCORE_PENALTY,
    SCORE_PER_CARD,
    STOCK_BLOCK_DIFFERENCE,
    STOCK_BLOCK_TOTALS,
    STOCK_SHUFFLE_EXCEPT_TOP,
)
from sim.engine.mask_hand import mask_hand_applies, play_mask_hand
from sim.engine.rng import STREAM_BOTS, STREAM_DEAL, mix64, stream_seed
from sim.engine.state import (
    E_DEAL,
    E_DECLINE,
    E_DISCARD,
    E_DRAW_DISCARD,
    E_DRAW_STOCK,
    E_END,
    E_FORCED_TAKE,
    E_REBUILD,
    E_SCORE,
    E_UPCARD,
    F_PLAYED,
    KR_PICKED,
    MC_CARDS,
    MC_FITS,
    MC_LEN,
    N_PL,
    PILE_DISCARD,
    PILE_STOCK,
    PL_BITS,
    PL_N,
    SC_DISCARD_N,
    SC_DRAWS_DISCARD,
    SC_DRAWS_STOCK,
    SC_LAYOFFS_TURN,
    SC_LOG,
    SC_MASK_HAND,
    SC_MELDS_TURN,
    SC_N_MELDS,
    SC_PLAN,
    SC_REBUILDS,
    SC_STEALS_TURN,
    SC_STOCK_N,
    SC_STOCK_RANDOM,
    SC_TAKEN,
    SC_TURN,
    SC_TURNS_SKIPPED,
    SC_VALUES_RISE,
    SC_VIOLATIONS,
    discard_allowed,
    discard_top,
    fill_stock,
    give,
    log_card,
    log_event,
    pop_discard,
    pop_stock,
    push_discard,
    take,
)

# outcomes of the draw phase
DRAW_OK = 0
DRAW_BLOCK = 1  # stock empty and the discard declined: the hand ends (block_*)
DRAW_EXHAUSTED = 2  # nothing left to draw anywhere


@inline_kernel
def _block_rule(params):
    s = params[P_STOCK_EXHAUSTION]
    return s == STOCK_BLOCK_DIFFERENCE or s == STOCK_BLOCK_TOTALS


@inline_kernel
def reset_hand(st, params, seed, shard, deal, preset):
    """Empty the table and hands and seed this deal's random streams. (Each array row is
    cleared by a loop of its own, which LLVM turns into a memset: clearing the hands and the
    picked rows in one loop took ~80 ns a hand, about as long as the rest of the reset.)"""
    players = params[P_PLAYERS]
    for p in range(players):
        held = st.hand[p]
        for k in range(N_KINDS):
            held[k] = 0
        picked = st.kinds[KR_PICKED + p]
        for k in range(N_KINDS):
            picked[k] = 0
        facts = st.pl[p]
        for f in range(N_PL):
            facts[f] = 0
    log = st.sc[SC_LOG]  # set by the caller, once per call, as is SC_VALUES_RISE
    values_rise = st.sc[SC_VALUES_RISE]
    for i in range(st.sc.shape[0]):
        st.sc[i] = 0
    st.sc[SC_LOG] = log
    st.sc[SC_VALUES_RISE] = values_rise
    st.sc[SC_TAKEN] = -1
    st.sc[SC_PLAN] = -1
    st.rng[0] = stream_seed(seed, shard, deal, STREAM_DEAL)
    st.rng[1] = stream_seed(seed, shard, deal, STREAM_BOTS)
    fill_stock(st, params, preset)


@kernel
def deal_round(st, params, dealer, sitting_out):
    """Deal ``P_HAND_SIZE`` cards one at a time clockwise from the dealer's left, skipping
    the seat ``sitting_out`` (-1: nobody; 3-player gin's dealer, §3.18) (§1.4)."""
    players = params[P_PLAYERS]
    first = dealer % players
    for _ in range(params[P_HAND_SIZE]):
        seat = first  # the seats (dealer + 1) % players ... dealer, without a division each
        for _ in range(players):
            seat += 1
            if seat == players:
                seat = 0
            if seat != sitting_out:
                give(st, seat, pop_stock(st))


@kernel
def log_deal(st, params):
    """Log every player's dealt hand (when the event log is on)."""
    for p in range(params[P_PLAYERS]):
        row = log_event(st, E_DEAL, p, 0, 0)
        if row < 0:
            return
        for k in range(N_KINDS):
            for _ in range(st.hand[p, k]):
                log_card(st, row, k)


@kernel
def turn_upcard(st):
    """Turn the stock top face up to start the discard pile (§1.4); returns it."""
    card = pop_stock(st)
    push_discard(st, card)
    log_event(st, E_UPCARD, -1, card, 0)
    return card


@inline_kernel
def deal_cards(st, params, dealer):
    """Deal one card at a time clockwise from the dealer's left, then turn the upcard (§1.4)."""
    deal_round(st, params, dealer, -1)
    log_deal(st, params)
    if params[P_UPCARD] == 1:
        turn_upcard(st)


@kernel
def rebuild_stock(st, params):
    """Stock exhaustion (§1.8, §2F.28) with at least two discards: ``turn_over`` turns the
    pile face down unshuffled and turns its top (the oldest discard) up as the new pile;
    ``shuffle_except_top`` shuffles all but the top card into a new stock."""
    n = st.sc[SC_DISCARD_N]
    if params[P_STOCK_EXHAUSTION] == STOCK_SHUFFLE_EXCEPT_TOP:
        top = st.piles[PILE_DISCARD, n - 1]
        for i in range(n - 1):
            st.piles[PILE_STOCK, i] = st.piles[PILE_DISCARD, i]
        st.sc[SC_STOCK_N] = n - 1
        st.sc[SC_STOCK_RANDOM] = 1
        st.piles[PILE_DISCARD, 0] = top
    else:
        oldest = st.piles[PILE_DISCARD, 0]
        # new stock, top first: discard[1], discard[2], ..., discard[n-1]; the top is last
        for i in range(n - 1):
            st.piles[PILE_STOCK, i] = st.piles[PILE_DISCARD, n - 1 - i]
        st.sc[SC_STOCK_N] = n - 1
        st.sc[SC_STOCK_RANDOM] = 0
        st.piles[PILE_DISCARD, 0] = oldest
    st.sc[SC_DISCARD_N] = 1
    st.sc[SC_REBUILDS] += 1
    log_event(st, E_REBUILD, -1, n - 1, st.piles[PILE_DISCARD, 0])


@inline_kernel
def take_discard(st, player, forced):
    """``player`` takes the discard top (``forced``: it was the only card left to draw)."""
    card = pop_discard(st)
    give(st, player, card)
    st.kinds[KR_PICKED + player, card] += 1
    st.sc[SC_TAKEN] = card
    st.sc[SC_DRAWS_DISCARD] += 1
    log_event(st, E_FORCED_TAKE if forced else E_DRAW_DISCARD, player, card, 0)


@inline_kernel
def draw_stock(st, player):
    """``player`` draws the stock top."""
    card = pop_stock(st)
    give(st, player, card)
    st.sc[SC_DRAWS_STOCK] += 1
    log_event(st, E_DRAW_STOCK, player, card, 0)


@inline_kernel
def draw_with_empty_stock(st, params, player, wants):
    """The stock is empty and the discard pile is not (§1.8, §2F.28, not a block rule): take
    the discard top when wanted; with one discard left it must be taken (no stock can be
    rebuilt from one card); otherwise rebuild the stock and draw from it."""
    if wants:
        take_discard(st, player, False)
    elif st.sc[SC_DISCARD_N] < 2:
        take_discard(st, player, True)
    else:
        rebuild_stock(st, params)
        draw_stock(st, player)


@inline_kernel
def draw_phase(st, params, values, bots, player):
    """Draw one card: the discard top or the stock top; handle an empty stock (§1.5, §1.8,
    §2F.28)."""
    top = discard_top(st)
    if st.sc[SC_STOCK_N] == 0:
        if top < 0:
            return DRAW_EXHAUSTED
        wants = wants_discard(st, params, values, bots, player, top)
        if _block_rule(params) and not wants:
            log_event(st, E_DECLINE, player, top, 0)
            return DRAW_BLOCK
        draw_with_empty_stock(st, params, player, wants)
        return DRAW_OK
    if top >= 0 and wants_discard(st, params, values, bots, player, top):
        take_discard(st, player, False)
    else:
        draw_stock(st, player)
    return DRAW_OK


@inline_kernel
def _value_left(st, params, values, player):
    """What ``player``'s remaining cards count under the scoring rule (§1.9, §2G.29)."""
    per_card = params[P_SCORING] == SCORE_PER_CARD
    if fast_path(params):  # a set of natural cards: its mask says it all
        held = st.pl[player, PL_BITS]
        return popcount(held) if per_card else mask_value(held, values)
    v = 0
    for k in range(N_KINDS):
        n = st.hand[player, k]
        if n > 0:
            if per_card:
                v += n * (2 if k == JOKER else 1)
            else:
                v += n * values[k]
    return v


@inline_kernel
def score_went_out(st, params, values, winner, rummy, scores, left):
    """§1.10, §2E.27, §2G.29: the winner takes what the others hold (per card or by value),
    or, under penalty scoring, each other player loses what he holds. Going rummy doubles
    the hand score or adds the bonus."""
    players = params[P_PLAYERS]
    factor = 2 if rummy and params[P_GOING_RUMMY] == RUMMY_DOUBLE else 1
    bonus = params[P_RUMMY_BONUS] if rummy and params[P_GOING_RUMMY] == RUMMY_BONUS else 0
    pot = 0
    for p in range(players):
        scores[p] = 0
        if p != winner:
            pot += left[p]
    if params[P_SCORING] == SCORE_PENALTY:
        for p in range(players):
            if p != winner:
                scores[p] = -left[p] * factor
        scores[winner] = bonus
    else:
        scores[winner] = pot * factor + bonus


@inline_kernel
def score_block(st, params, scores, left):
    """§2F.28 / §3.5: the lowest total wins the difference to each other total
    (block_difference) or the sum of the other totals (block_totals); tied lowest players
    split it, indivisible points go to nobody. Under penalty scoring every other player
    loses his total. Returns the single winner, or -1 when the lowest is shared."""
    players = params[P_PLAYERS]
    low = left[0]
    for p in range(players):
        low = min(low, left[p])
    tied = 0
    pot = 0
    winner = -1
    for p in range(players):
        if left[p] == low:
            tied += 1
            winner = p
        elif params[P_STOCK_EXHAUSTION] == STOCK_BLOCK_TOTALS:
            pot += left[p]
        else:
            pot += left[p] - low
    for p in range(players):
        if left[p] == low:
            scores[p] = 0 if params[P_SCORING] == SCORE_PENALTY else pot // tied
        else:
            scores[p] = -left[p] if params[P_SCORING] == SCORE_PENALTY else 0
    return winner if tied == 1 else -1


@inline_kernel
def _audit(st, params):
    if params[P_AUDIT] == 1:
        check_state(st, params)


@inline_kernel
def _start_turn(st):
    st.sc[SC_TAKEN] = -1
    st.sc[SC_PLAN] = -1
    st.sc[SC_MELDS_TURN] = 0
    st.sc[SC_LAYOFFS_TURN] = 0
    st.sc[SC_STEALS_TURN] = 0


@kernel
def play_turns(st, params, values, bots, dealer):
    """Play turns from the dealer's left until the hand ends. Returns (reason, winner).

    A kernel of its own, not inlined into ``play_hand``: it is compiled twice (for
    ``params`` and for ``bits.fast_params(params)``), the two largest compiles of the
    engine, and as separate overloads ``sim.engine.precompile`` can compile them in two
    processes at once. The call costs one call per hand; everything it calls per turn is
    inlined into it."""
    players = params[P_PLAYERS]
    player = (dealer + 1) % players
    while True:
        if st.sc[SC_TURN] >= params[P_TURN_CAP]:
            return REASON_STALLED, -1
        st.sc[SC_TURN] += 1
        _start_turn(st)
        drawn = draw_phase(st, params, values, bots, player)
        _audit(st, params)
        if drawn == DRAW_BLOCK:
            return REASON_BLOCK, -1
        if drawn == DRAW_EXHAUSTED:
            return REASON_EXHAUSTED, -1
        play_melds(st, params, values, bots, player)
        _audit(st, params)
        # a joker replacement puts a card on the table too: no going rummy after it (§2E.27)
        played = st.sc[SC_MELDS_TURN] + st.sc[SC_LAYOFFS_TURN] + st.sc[SC_STEALS_TURN] > 0
        if st.pl[player, PL_N] > 0:
            card = choose_discard(st, params, values, bots, player)
            if card < 0 or not discard_allowed(st, player, card):
                st.sc[SC_VIOLATIONS] += 1  # a bot chose an illegal discard
                return REASON_STALLED, -1
            take(st, player, card)
            push_discard(st, card)
            log_event(st, E_DISCARD, player, card, 0)
            _audit(st, params)
        elif params[P_MUST_DISCARD_TO_GO_OUT] == 1:
            st.sc[SC_VIOLATIONS] += 1  # went out without the required discard (§2E.26)
        if st.pl[player, PL_N] == 0:
            if st.pl[player, F_PLAYED] == 0:
                return REASON_WENT_RUMMY, player
            return REASON_WENT_OUT, player
        if played:
            st.pl[player, F_PLAYED] = 1
        player += 1  # the next seat; no division in the turn loop
        if player == players:
            player = 0


@kernel
def _mix_in(z, value):
    """Fold a non-negative ``value`` into the hash ``z`` (uint64)."""
    return mix64(z ^ np.uint64(value))


@kernel
def hand_digest(st, params, reason, winner):
    """A hash of how a hand ended and everything it left: hands, piles in order, table rows,
    counters (audit mode compares ``play_mask_hand`` with the general loop by it)."""
    z = _mix_in(np.uint64(reason), winner + 1)
    z = _mix_in(z, st.sc[SC_TURN])
    z = _mix_in(z, st.sc[SC_DRAWS_STOCK])
    z = _mix_in(z, st.sc[SC_DRAWS_DISCARD])
    for p in range(params[P_PLAYERS]):
        z = _mix_in(z, st.pl[p, PL_BITS])
        z = _mix_in(z, st.pl[p, PL_N] * 2 + st.pl[p, F_PLAYED])
    z = _mix_in(z, st.sc[SC_STOCK_N])
    for i in range(st.sc[SC_STOCK_N]):
        z = _mix_in(z, st.piles[PILE_STOCK, i])
    z = _mix_in(z, st.sc[SC_DISCARD_N])
    for i in range(st.sc[SC_DISCARD_N]):
        z = _mix_in(z, st.piles[PILE_DISCARD, i])
    z = _mix_in(z, st.sc[SC_N_MELDS])
    for m in range(st.sc[SC_N_MELDS]):
        for c in range(MC_CARDS + st.melds[m, MC_LEN]):
            if c != MC_FITS:
                z = _mix_in(z, st.melds[m, c] + 1)  # a group's suit is -1
    return z


@kernel
def _check_mask_hand(st, params, values, bots, dealer, seed, shard, deal, preset, reason, winner):
    """Audit mode: play the hand ``play_mask_hand`` just played again with the general loop,
    checked after every action, and count a different ending or final state as a violation.
    Returns the general loop's (reason, winner)."""
    digest = hand_digest(st, params, reason, winner)
    violations = st.sc[SC_VIOLATIONS]
    reset_hand(st, params, seed, shard, deal, preset)
    deal_cards(st, params, dealer)
    _audit(st, params)
    again, who = play_turns(st, fast_params(params), values, bots, dealer)
    st.sc[SC_VIOLATIONS] += violations
    if hand_digest(st, params, again, who) != digest:
        st.sc[SC_VIOLATIONS] += 1
    return again, who


@kernel
def play_hand(st, params, values, bots, dealer, seed, shard, deal, preset, scores, left):
    """Deal and play one hand. ``preset`` (int64, top card last) fixes the stock order, or is
    empty for a shuffled deal. Writes each player's score to ``scores`` and the value he still
    holds to ``left``; returns (reason, winner, turns).

    On the fast path with greedy and careful seats and no event log the hand is played by
    ``mask_hand.play_mask_hand``; in audit mode it is then played again by the general loop
    (``_check_mask_hand``)."""
    if fast_path(params) and mask_hand_applies(params, bots, st.sc, preset):
        reason, winner = play_mask_hand(
            st.pl, st.piles, st.melds, st.sc, st.rng, st.ws,
            params, values, bots, dealer, seed, shard, deal,
        )  # fmt: skip
        skipped = st.sc[SC_TURNS_SKIPPED]
        if params[P_AUDIT] == 1:
            reason, winner = _check_mask_hand(
                st, params, values, bots, dealer, seed, shard, deal, preset, reason, winner
            )
        st.sc[SC_MASK_HAND] = 1
        st.sc[SC_TURNS_SKIPPED] = skipped
    else:
        reset_hand(st, params, seed, shard, deal, preset)
        deal_cards(st, params, dealer)
        _audit(st, params)
        if fast_path(params):  # the turns compiled with the fast path fixed (bits.fast_params)
            reason, winner = play_turns(st, fast_params(params), values, bots, dealer)
        else:
            reason, winner = play_turns(st, params, values, bots, dealer)
        st.sc[SC_MASK_HAND] = 0
        st.sc[SC_TURNS_SKIPPED] = 0
    players = params[P_PLAYERS]
    for p in range(players):
        left[p] = _value_left(st, params, values, p)
        scores[p] = 0
    if reason == REASON_WENT_OUT or reason == REASON_WENT_RUMMY:
        rummy = reason == REASON_WENT_RUMMY and params[P_GOING_RUMMY] != 0
        score_went_out(st, params, values, winner, rummy, scores, left)
        if reason == REASON_WENT_RUMMY and params[P_GOING_RUMMY] == 0:
            reason = REASON_WENT_OUT  # a rummy only counts where the rules reward it
    elif reason == REASON_BLOCK:
        winner = score_block(st, params, scores, left)
    if params[P_AUDIT] == 1:
        st.sc[SC_VIOLATIONS] += check_scores(params, reason, winner, left, scores)
    log_event(st, E_END, winner, reason, st.sc[SC_TURN])
    for p in range(players):
        log_event(st, E_SCORE, p, left[p], scores[p])
    return reason, winner, st.sc[SC_TURN]
