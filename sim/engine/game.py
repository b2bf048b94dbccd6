"""Whole games: hands until the game-end condition, with dealer rotation (RULES.md §1.4,
§1.11, §2H). The loop over hands and games stays inside compiled code.
"""

from __future__ import annotations

import numpy as np

from sim.engine.hand import play_hand
from sim.engine.jit import allocating, kernel
from sim.engine.knock import play_knock_hand
from sim.engine.layout import (
    C_EVENTS,
    C_GAMES,
    C_HANDS,
    C_MASK_HANDS,
    C_SKIPPED_TURNS,
    C_TURNS,
    C_VIOLATIONS,
    DEALER_LOSER_SITS_OUT,
    DEALER_WINNER_DEALS,
    END_FIXED_HANDS,
    END_PENALTY_LIMIT,
    END_SINGLE_HAND,
    END_TARGET,
    FAMILY_GIN,
    FAMILY_RUMMY,
    G_CAPPED,
    G_GAME,
    G_HANDS,
    G_LEAD_CHANGES,
    G_WINNER,
    GAME_BONUS,
    GAME_DEAL_STRIDE,
    H_DEAL,
    H_DEALER,
    H_DRAWS_DISCARD,
    H_DRAWS_STOCK,
    H_END_REASON,
    H_GAME,
    H_HAND,
    H_TURNS,
    H_VIOLATIONS,
    H_WINNER,
    P_BOX_BONUS,
    P_DEAL_PER_GAME,
    P_DEALER_ROTATION,
    P_FAMILY,
    P_GAME_END,
    P_GAME_END_VALUE,
    P_HAND_CAP,
    P_PLAYERS,
    P_SEAT_ROTATION,
    P_SHUTOUT,
    REASON_VOID,
    SHUTOUT_DOUBLE_ALL,
    SHUTOUT_GAME_BONUS,
)
from sim.engine.partnership import TEAMS, play_partnership_hand
from sim.engine.rng import below, stream_seed
from sim.engine.state import (
    EV_COLS,
    SC_DRAWS_DISCARD,
    SC_DRAWS_STOCK,
    SC_LOG,
    SC_MASK_HAND,
    SC_N_EVENTS,
    SC_TURNS_SKIPPED,
    SC_VALUES_RISE,
    SC_VIOLATIONS,
    new_state,
    values_rise,
)

STREAM_GAME = 3  # the first dealer of a game


@kernel
def unique_leader(totals):
    """The seat with the strictly highest total, or -1 when the highest is shared."""
    best = totals[0]
    who = 0
    shared = False
    for p in range(1, totals.shape[0]):
        if totals[p] > best:
            best = totals[p]
            who = p
            shared = False
        elif totals[p] == best:
            shared = True
    return -1 if shared else who


@kernel
def game_over(params, totals, hands_played, hand_winner):
    """Whether the game ends now and who won it (§2H.30). Ties at the end are played off
    with extra hands (§1.11)."""
    rule = params[P_GAME_END]
    value = params[P_GAME_END_VALUE]
    leader = unique_leader(totals)
    if rule == END_SINGLE_HAND:
        return True, hand_winner
    if rule == END_TARGET:
        top = totals[0]
        for p in range(totals.shape[0]):
            top = max(top, totals[p])
        return top >= value and leader >= 0, leader
    if rule == END_FIXED_HANDS:
        return hands_played >= value and leader >= 0, leader
    if rule == END_PENALTY_LIMIT:
        low = totals[0]
        for p in range(totals.shape[0]):
            low = min(low, totals[p])
        return low <= -value and leader >= 0, leader
    return False, -1


@kernel
def gin_game_bonuses(params, totals, won, extra, winner, final):
    """§3.17 game end: the winner gets the game bonus (200 instead of 100 when every other
    player has 0, or his whole total doubled under ``shutout = "double_all"``), then every
    player the box bonus for each hand he won. Side bonuses (``extra``, §2I.39) are added;
    none of this counts toward the target. Writes ``final``."""
    players = totals.shape[0]
    shutout = True
    for p in range(players):
        final[p] = totals[p] + won[p] * params[P_BOX_BONUS] + extra[p]
        if p != winner and totals[p] != 0:
            shutout = False
    if winner < 0:
        return
    if shutout and params[P_SHUTOUT] == SHUTOUT_DOUBLE_ALL:
        final[winner] = (final[winner] - extra[winner] + GAME_BONUS) * 2 + extra[winner]
    else:
        final[winner] += SHUTOUT_GAME_BONUS if shutout else GAME_BONUS


@allocating
def play_games(
    params,
    values,
    bots,
    seed,
    shard,
    first_game,
    first_deal,
    first_dealer,
    max_hands,
    max_games,
    hand_rows,
    hand_scores,
    hand_totals,
    hand_side,
    game_rows,
    game_scores,
    counters,
    events,
    preset,
):
    """Play games until ``max_hands`` hands or ``max_games`` games are done (whichever comes
    first; a game cut short by ``max_hands`` is not written to the games table).

    Outputs (preallocated by the caller, rows per ``layout.H_*``/``G_*``):
    ``hand_rows`` int64[max_hands, N_HCOLS], ``hand_scores``/``hand_totals``/``hand_side``
    int64[max_hands, players] (``hand_side``: each seat's side bonuses of the hand, Oklahoma
    gin's §2I.39, which count in the final scores but not toward the target),
    ``game_rows`` int64[max_games, N_GCOLS], ``game_scores`` int64[max_games, players],
    ``counters`` int64[N_COUNTERS]. ``events`` (int64[E, EV_COLS]) receives the event log
    when it has more than one row. ``first_dealer`` >= 0 fixes the
    first dealer of every game (replays); otherwise it is drawn at random (engine policy, §1.4).
    Deal ``first_deal + h`` (or ``game * GAME_DEAL_STRIDE + hand`` when ``P_DEAL_PER_GAME``
    is set, so every rotation of a mirrored game starts from the same deals) uses the
    shuffle of (seed, shard, deal) whatever the rules, so arms
    share their deals.
    """
    players = params[P_PLAYERS]
    st = new_state(params, events)
    if events.shape[0] > 1:
        st.sc[SC_LOG] = 1
    st.sc[SC_VALUES_RISE] = values_rise(values)
    scores = np.zeros(players, np.int64)
    left = np.zeros(players, np.int64)
    totals = np.zeros(players, np.int64)
    extra = np.zeros(players, np.int64)  # this hand's side bonuses (knock family; 0 in rummy)
    side = np.zeros(players, np.int64)  # side bonuses of this game so far
    won = np.zeros(players, np.int64)  # hands won in this game (gin box bonus)
    final = np.zeros(players, np.int64)
    family = params[P_FAMILY]
    # 4-player gin is the partnership game (§3.19): two 2-player tables, scored by team
    partnership = family == FAMILY_GIN and players == 4
    params2 = params.copy()
    params2[P_PLAYERS] = 2
    # the tables of 4-player gin log into st2, copied into st's log after each table
    st2 = new_state(params2, np.zeros((events.shape[0], EV_COLS), np.int64))
    st2.sc[SC_LOG] = st.sc[SC_LOG]
    bots2 = np.zeros(2, np.int64)
    scores2 = np.zeros(2, np.int64)
    left2 = np.zeros(2, np.int64)
    extra2 = np.zeros(2, np.int64)
    h = 0
    g = 0
    single = params[P_GAME_END] == END_SINGLE_HAND
    next_dealer = -1
    while h < max_hands and g < max_games:
        game = first_game + g
        game_rng = np.zeros(1, np.uint64)
        game_rng[0] = stream_seed(seed, shard, game, STREAM_GAME)
        # A seat rotation r shifts the dealer, so the same shuffle reaches seat p + r.
        dealer = (below(game_rng, players) + params[P_SEAT_ROTATION]) % players
        if first_dealer >= 0:
            dealer = first_dealer
        if single and next_dealer >= 0:
            dealer = next_dealer  # one-hand games: the deal still rotates (§2H.30-31)
        totals[:] = 0
        side[:] = 0
        won[:] = 0
        leader = -1
        lead_changes = 0
        hands_in_game = 0
        finished = False
        winner = -1
        capped = 0
        while h < max_hands:
            before = st.sc[SC_VIOLATIONS]
            deal = first_deal + h
            if params[P_DEAL_PER_GAME] == 1:
                deal = game * GAME_DEAL_STRIDE + hands_in_game
            if family == FAMILY_RUMMY:
                reason, hand_winner, turns = play_hand(
                    st, params, values, bots, dealer, seed, shard, deal, preset, scores, left
                )
                counters[C_MASK_HANDS] += st.sc[SC_MASK_HAND]
                counters[C_SKIPPED_TURNS] += st.sc[SC_TURNS_SKIPPED]
            elif partnership:
                reason, hand_winner, turns = play_partnership_hand(
                    st,
                    st2,
                    params2,
                    values,
                    bots,
                    bots2,
                    dealer,
                    hands_in_game,
                    seed,
                    shard,
                    deal,
                    preset,
                    scores,
                    scores2,
                    left2,
                    extra2,
                    extra,
                )
                if hand_winner >= 0:
                    won[hand_winner % TEAMS] += 1  # box bonus: a hand the team scored in
            else:
                reason, hand_winner, turns = play_knock_hand(
                    st,
                    params,
                    values,
                    bots,
                    dealer,
                    seed,
                    shard,
                    deal,
                    preset,
                    scores,
                    left,
                    extra,
                )
                if hand_winner >= 0:
                    won[hand_winner] += 1
            for p in range(players):
                totals[p] += scores[p]
                hand_scores[h, p] = scores[p]
                hand_totals[h, p] = totals[p]
                side[p] += extra[p]
                hand_side[h, p] = extra[p]
            row = hand_rows[h]
            row[H_GAME] = game
            row[H_HAND] = hands_in_game
            row[H_DEAL] = deal
            row[H_DEALER] = dealer
            row[H_TURNS] = turns
            row[H_DRAWS_STOCK] = st.sc[SC_DRAWS_STOCK]
            row[H_DRAWS_DISCARD] = st.sc[SC_DRAWS_DISCARD]
            row[H_END_REASON] = reason
            row[H_WINNER] = hand_winner
            row[H_VIOLATIONS] = st.sc[SC_VIOLATIONS] - before
            counters[C_VIOLATIONS] += st.sc[SC_VIOLATIONS] - before
            st.sc[SC_VIOLATIONS] = 0
            counters[C_TURNS] += turns
            h += 1
            hands_in_game += 1
            # partners carry one total: the game is decided between the two teams, whose
            # totals are seats 0 (team A) and 1 (team B)
            ranked = totals[:TEAMS] if partnership else totals
            now = unique_leader(ranked)
            if now >= 0 and now != leader:
                if leader >= 0:
                    lead_changes += 1
                leader = now
            finished, winner = game_over(params, ranked, hands_in_game, hand_winner)
            if not finished and hands_in_game >= params[P_HAND_CAP]:
                finished = True
                winner = unique_leader(ranked)
                capped = 1
            if partnership:
                dealer = (dealer + 1) % players  # a void table is not redealt (§3.19)
            elif reason == REASON_VOID:
                pass  # §3.17: the same dealer deals again
            elif params[P_DEALER_ROTATION] == DEALER_LOSER_SITS_OUT:
                if hand_winner >= 0:  # §3.18: the loser deals next and sits out
                    dealer = 3 - hand_winner - dealer  # seats 0, 1, 2
            elif params[P_DEALER_ROTATION] == DEALER_WINNER_DEALS and hand_winner >= 0:
                dealer = hand_winner
            else:
                dealer = (dealer + 1) % players
            if finished:
                next_dealer = dealer
                break
        if not finished:
            break
        grow = game_rows[g]
        grow[G_GAME] = game
        grow[G_HANDS] = hands_in_game
        grow[G_WINNER] = winner
        grow[G_LEAD_CHANGES] = lead_changes
        grow[G_CAPPED] = capped
        for p in range(players):
            final[p] = totals[p]
        if partnership:
            for team in range(TEAMS):
                side[team] += side[team + TEAMS]  # partners' side bonuses, by team
            gin_game_bonuses(params, totals[:TEAMS], won[:TEAMS], side[:TEAMS], winner, final)
            final[2] = final[0]
            final[3] = final[1]
        elif family == FAMILY_GIN:
            gin_game_bonuses(params, totals, won, side, winner, final)
        for p in range(players):
            game_scores[g, p] = final[p]
        g += 1
    counters[C_HANDS] = h
    counters[C_GAMES] = g
    counters[C_EVENTS] = st.sc[SC_N_EVENTS]
    return h, g
