"""Whole games: hands until the game-end rule, with dealer rotation (RULES.md §1.4,
§1.11, §2H). The loop over hands and games stays inside compiled code.

Rule slots read here: ``players``, ``game_end``, ``dealer_rotation``, ``hand_cap``,
``seat_rotation``, ``deal_per_game``, ``audit``, ``family``, ``box_bonus``, ``shutout``,
``stock_exhaustion`` (Conquian's ``drawn_hand_carry``: a drawn hand raises the next
hand's stake, ``next_stake``, which the hand reads in ``C_STAKE``).

A void hand (gin's ``void_at_two``, §3.17) and a redealt one (Tonk's tied instant tonks or
``tonk_stock_out = "redeal"``, §3.22) are dealt again by the same dealer; a redealt hand
does not count toward ``fixed_hands``. A chip game ends when a player has lost his
``chip_stack``. In 3-player
gin (``loser_sits_out``, §3.18) the loser of a hand deals the next one and sits it out. At a gin
game's end (§3.17, §2I.36-39) the winner gets the game bonus (200 on a shutout, or his
whole total doubled under ``shutout = "double_all"``), every player the box bonus per hand
he won, and the side bonuses of the game (Oklahoma's) are added; none of this counts
toward the target. A Carousel game (§3.16, ``carousel_score.py``) ends when a player has
the target after a round and a single player leads the totals with the game and round
bonuses, which are its final scores. 4-player gin (§3.19) is played by teams
(``partnership.py``): the game
is between the teams' totals (seats 0 and 1 carry them, their partners the same), the deal
passes left every hand, void or not, and the bonuses go by team.

The output rows are the dataset's (``sim.engine.rows`` ``H_*``, ``G_*``, ``C_*``).
"""

from __future__ import annotations

import numpy as np

from sim.engine.carousel_score import carousel_final, carousel_over, round_wins
from sim.engine.deal import step_seat
from sim.engine.hand import REASON_DECIDE, count_hand, finish_hand, play_turns, start_hand
from sim.engine.jit import allocating, kernel
from sim.engine.layout import (
    DEALER_LOSER_SITS_OUT,
    DEALER_WINNER_DEALS,
    END_DEALS_EACH,
    END_FIXED_HANDS,
    END_PENALTY_LIMIT,
    END_SINGLE_HAND,
    END_TARGET,
    FAMILY_CAROUSEL,
    FAMILY_GIN,
    FAMILY_PHOM,
    FAMILY_TONK,
    GAME_BONUS,
    P_BOX_BONUS,
    P_CHIP_STACK,
    P_DEAL_PER_GAME,
    P_DEALER_ROTATION,
    P_FAMILY,
    P_GAME_END,
    P_GAME_END_ARG,
    P_HAND_CAP,
    P_PLAYERS,
    P_SEAT_ROTATION,
    P_SHUTOUT,
    P_STOCK_EXHAUSTION,
    REASON_EXHAUSTED,
    REASON_REDEAL,
    REASON_VOID,
    SHUTOUT_DOUBLE_ALL,
    SHUTOUT_GAME_BONUS,
    STOCK_DRAWN_HAND_CARRY,
)
from sim.engine.mc import decide, new_mc_scratch
from sim.engine.melds import new_work
from sim.engine.partnership import N_TALLY, TABLES, TEAMS, seat_table, tally_table, team_hand
from sim.engine.phom_chips import mom_seats
from sim.engine.repartition import table_work
from sim.engine.rng import N_RNG, STREAM_GAME, below, stream_seed
from sim.engine.rows import (
    C_EVENTS,
    C_GAMES,
    C_HANDS,
    C_TURNS,
    C_VIOLATIONS,
    G_CAPPED,
    G_GAME,
    G_HANDS,
    G_LEAD_CHANGES,
    G_WINNER,
    GAME_DEAL_STRIDE,
    H_DEAL,
    H_DEALER,
    H_END_REASON,
    H_GAME,
    H_HAND,
    H_MOM_SEATS,
    H_TURNS,
    H_VIOLATIONS,
    H_WINNER,
)
from sim.engine.scoring import start_total
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_LOG,
    C_N_EVENTS,
    C_SHOE_PRESET,
    C_STAKE,
    PILE_SHOE,
    R_SC,
    fill_shoe,
    new_state,
)


@kernel
def unique_leader(totals, players):
    """The seat with the strictly highest total, or -1 when the highest is shared."""
    best = totals[0]
    who = 0
    shared = False
    for p in range(1, players):
        if totals[p] > best:
            best = totals[p]
            who = p
            shared = False
        elif totals[p] == best:
            shared = True
    return -1 if shared else who


@kernel
def game_over(fx, params, totals, players, hands_played, hand_winner):
    """Whether the game ends now and who won it (§2H.30); ties at the end are played off
    with extra hands (§1.11). A chip game (Tonk, §3.22) also ends as soon as a player has
    no chips left (``chip_stack`` lost): the most chips win, -1 when shared."""
    end = rule(fx, params, P_GAME_END)
    value = rule(fx, params, P_GAME_END_ARG)
    leader = unique_leader(totals, players)
    if rule(fx, params, P_FAMILY) == FAMILY_TONK:
        for p in range(players):
            if totals[p] <= -rule(fx, params, P_CHIP_STACK):
                return True, leader
    if end == END_SINGLE_HAND:
        return True, hand_winner
    if end == END_TARGET:
        top = totals[0]
        for p in range(players):
            top = max(top, totals[p])
        return top >= value and leader >= 0, leader
    if end == END_FIXED_HANDS:
        return hands_played >= value and leader >= 0, leader
    if end == END_DEALS_EACH:  # every player dealt ``value`` times (Phỏm, §3.13)
        return hands_played >= value * players and leader >= 0, leader
    if end == END_PENALTY_LIMIT:
        low = totals[0]
        for p in range(players):
            low = min(low, totals[p])
        return low <= -value and leader >= 0, leader
    return False, -1


@kernel
def next_stake(stake, reason):
    """``drawn_hand_carry`` (Conquian, §3.21): the tentos the next hand is worth after one
    worth ``stake`` ended with ``reason``: one more after a drawn hand (the next is worth 2,
    each further drawn hand in a row adds 1: open point 3), else 1."""
    return stake + 1 if reason == REASON_EXHAUSTED else np.int64(1)


@gated(P_FAMILY, lambda v: v == FAMILY_GIN, None)
@kernel
def gin_game_bonuses(fx, params, totals, won, side, winner, players, final):
    """``final``: a gin game's final scores (module docstring) from the ``totals`` toward
    the target, the hands each player ``won`` and his ``side`` bonuses."""
    shutout = True
    for p in range(players):
        final[p] = totals[p] + won[p] * rule(fx, params, P_BOX_BONUS) + side[p]
        if p != winner and totals[p] != 0:
            shutout = False
    if winner < 0:
        return
    if shutout and rule(fx, params, P_SHUTOUT) == SHUTOUT_DOUBLE_ALL:
        final[winner] = (final[winner] - side[winner] + GAME_BONUS) * 2 + side[winner]
    else:
        final[winner] += SHUTOUT_GAME_BONUS if shutout else GAME_BONUS


@allocating
def play_games(
    fx,
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
    """Play games until ``max_hands`` hands or ``max_games`` games are done (a game cut short
        by ``max_hands`` is not written). Deal ``first_deal + h`` (or ``game * GAME_DEAL_STRIDE
        + hand`` under ``deal_per_game``) uses the shuffle of (seed, shard, deal) whatever the
        rules, so arms share their deals; ``first_dealer`` >= 0 fixes every game's first
        dealer, else it is drawn (engine policy, §1.4). A non-empty ``preset`` (a hand-built deal:
    every card of the shoe in the order it leaves the stock, the first card last) is dealt
    instead of a shuffle (replays). Returns (hands, games) written."""
    players = rule(fx, params, P_PLAYERS)
    st, piles = new_state()
    rng = np.zeros(N_RNG, np.uint64)
    work = table_work(fx, params)  # Carousel's table search has its rows after the meld search's
    scratch, piles2 = new_state()  # the Monte Carlo bot's playouts (sim.engine.mc)
    rng2 = np.zeros(N_RNG, np.uint64)
    work2 = new_work()
    events2 = np.zeros((1, events.shape[1]), np.int64)
    mcs = new_mc_scratch()
    fill_shoe(fx, params, st, piles)
    if preset.shape[0] > 0:
        for i in range(preset.shape[0]):
            piles[PILE_SHOE, i] = preset[i]
        st[R_SC, C_SHOE_PRESET] = 1
    if events.shape[0] > 1:
        st[R_SC, C_LOG] = 1
    scores = np.zeros(players, np.int64)
    side = np.zeros(players, np.int64)  # this hand's side bonuses (Oklahoma gin)
    game_side = np.zeros(players, np.int64)  # the game's side bonuses so far
    won = np.zeros(players, np.int64)  # hands won in this game (gin's box bonus)
    final = np.zeros(players, np.int64)
    totals = np.zeros(players, np.int64)
    game_rng = np.zeros(1, np.uint64)
    # 4-player gin is the partnership game (§3.19): two 2-player tables, scored by team
    partnership = rule(fx, params, P_FAMILY) == FAMILY_GIN and players == 4
    ranked = TEAMS if partnership else players  # who the game is between
    params2 = params.copy()
    params2[P_PLAYERS] = 2
    bots2 = np.zeros(2 * (bots.shape[0] // players), np.int64)  # with the flags if given
    scores2 = np.zeros(2, np.int64)
    side2 = np.zeros(2, np.int64)
    tally = np.zeros(N_TALLY, np.int64)
    first_event = np.int64(0)
    # each table's rules, bots and scores: a partnership table is a 2-player hand
    table_params = params2 if partnership else params
    table_bots = bots2 if partnership else bots
    table_scores = scores2 if partnership else scores
    table_side = side2 if partnership else side
    h = 0
    g = 0
    single = rule(fx, params, P_GAME_END) == END_SINGLE_HAND
    next_dealer = -1
    while h < max_hands and g < max_games:
        game = first_game + g
        game_rng[0] = stream_seed(seed, shard, game, np.int64(STREAM_GAME))
        # a seat rotation r shifts the dealer, so the same shuffle reaches seat p + r
        dealer = (
            below(game_rng, np.int64(0), players) + rule(fx, params, P_SEAT_ROTATION)
        ) % players
        if first_dealer >= 0:
            dealer = first_dealer
        if single and next_dealer >= 0:
            dealer = next_dealer  # one-hand games: the deal still rotates (§2H.30-31)
        totals[:] = start_total(fx, params)  # Continental: start_points (§2J.42)
        game_side[:] = 0
        won[:] = 0
        leader = -1
        lead_changes = 0
        hands_in_game = np.int64(0)  # not a literal: kernels it is passed to compile once
        redeals = np.int64(0)  # Tonk's redealt hands, which fixed_hands does not count
        stake = np.int64(1)  # Conquian: what this hand is worth (drawn_hand_carry)
        finished = False
        winner = np.int64(-1)
        capped = 0
        while h < max_hands:
            deal = first_deal + h
            if rule(fx, params, P_DEAL_PER_GAME) == 1:
                deal = game * GAME_DEAL_STRIDE + hands_in_game
            row = hand_rows[h]
            row[:] = 0
            # one table, or the partnership's two (§3.19): each a hand of its own
            for table in range(TABLES if partnership else 1):
                table_deal, table_dealer = deal, dealer
                if partnership:
                    if table == 0:
                        tally[:] = 0
                    table_deal, table_dealer, first_event = seat_table(
                        bots, bots2, st, events, hands_in_game, table, dealer, deal
                    )
                start_hand(
                    fx, table_params, st, piles, rng, work, events, seed, shard, table_deal,
                    table_dealer,
                )  # fmt: skip
                st[R_SC, C_STAKE] = stake
                while True:  # the turns, stopping for each mcN decision (sim.engine.mc)
                    reason, hand_winner = play_turns(
                        fx, table_params, values, table_bots, st, piles, rng, work, events
                    )
                    if reason != REASON_DECIDE:
                        break
                    decide(
                        fx, table_params, values, table_bots, st, piles, rng, scratch,
                        piles2, rng2, work2, events2, mcs, hand_winner,
                    )  # fmt: skip
                reason, hand_winner = finish_hand(
                    fx, table_params, values, st, piles, work, events, reason, hand_winner,
                    table_scores, table_side,
                )  # fmt: skip
                count_hand(st, row)
                if rule(fx, table_params, P_FAMILY) == FAMILY_PHOM:
                    row[H_MOM_SEATS] = mom_seats(fx, table_params, st, reason)
                if partnership:
                    tally_table(
                        st, events, tally, hands_in_game, table, first_event, reason,
                        hand_winner, scores2, side2, side,
                    )  # fmt: skip
            if partnership:
                reason, hand_winner = team_hand(fx, params, st, events, tally, scores, row)
            if rule(fx, params, P_STOCK_EXHAUSTION) == STOCK_DRAWN_HAND_CARRY:
                stake = next_stake(stake, reason)
            if rule(fx, params, P_FAMILY) == FAMILY_CAROUSEL:
                round_wins(st, won, players)  # §3.16: tied winners each won the round
            elif hand_winner >= 0:
                won[hand_winner % ranked] += 1  # partners: the team's hands
            for p in range(players):
                totals[p] += scores[p]
                hand_scores[h, p] = scores[p]
                hand_totals[h, p] = totals[p]
                hand_side[h, p] = side[p]
                game_side[p] += side[p]
            row[H_GAME] = game
            row[H_HAND] = hands_in_game
            row[H_DEAL] = deal
            row[H_DEALER] = dealer
            row[H_END_REASON] = reason
            row[H_WINNER] = hand_winner
            counters[C_VIOLATIONS] += row[H_VIOLATIONS]
            counters[C_TURNS] += row[H_TURNS]
            h += 1
            hands_in_game += 1
            # partners carry one total: the game is between the teams, seats 0 and 1
            now = unique_leader(totals, ranked)
            if now >= 0 and now != leader:
                if leader >= 0:
                    lead_changes += 1
                leader = now
            redealt = reason == REASON_REDEAL
            if redealt:
                redeals += 1
            played = hands_in_game - redeals
            finished, winner = game_over(fx, params, totals, ranked, played, hand_winner)
            carousel = rule(fx, params, P_FAMILY) == FAMILY_CAROUSEL
            if carousel and rule(fx, params, P_GAME_END) == END_TARGET:
                finished, winner = carousel_over(fx, params, totals, won, players, final)
            if not finished and hands_in_game >= rule(fx, params, P_HAND_CAP):
                finished = True
                winner = unique_leader(totals, ranked)
                capped = 1
            if partnership:
                dealer = step_seat(fx, params, dealer)  # a void table: no redeal
            elif reason == REASON_VOID or redealt:
                pass  # §3.17, §3.22: the same dealer deals again
            elif rule(fx, params, P_DEALER_ROTATION) == DEALER_LOSER_SITS_OUT:
                if hand_winner >= 0:  # §3.18: the loser deals next and sits out
                    dealer = 3 - hand_winner - dealer  # seats 0, 1, 2
            elif rule(fx, params, P_DEALER_ROTATION) == DEALER_WINNER_DEALS and hand_winner >= 0:
                dealer = hand_winner
            else:
                dealer = step_seat(fx, params, dealer)  # the deal passes in the play direction
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
                game_side[team] += game_side[team + TEAMS]  # partners' side bonuses, by team
            gin_game_bonuses(fx, params, totals, won, game_side, winner, np.int64(TEAMS), final)
            final[2] = final[0]
            final[3] = final[1]
        elif rule(fx, params, P_FAMILY) == FAMILY_GIN:
            gin_game_bonuses(fx, params, totals, won, game_side, winner, players, final)
        elif rule(fx, params, P_FAMILY) == FAMILY_CAROUSEL:
            carousel_final(fx, params, totals, won, players, final)  # §3.16: 100 and 25s
        for p in range(players):
            game_scores[g, p] = final[p]
        g += 1
    counters[C_HANDS] = h
    counters[C_GAMES] = g
    counters[C_EVENTS] = st[R_SC, C_N_EVENTS]
    return h, g
