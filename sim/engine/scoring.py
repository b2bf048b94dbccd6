"""Hand scoring (mechanic of RULES.md §1.10, §2E.27, §2F.28, §2G.29).

Rule slots read here: ``scoring``, ``going_rummy``, ``packs``, ``players``,
``continental_quick_bonus``, ``continental_special_bonus``, ``start_points``,
``stock_exhaustion`` (a block's scores); in the knock family ``family``, ``gin_bonus``,
``undercut_bonus``, ``spade_double``, ``oklahoma_extra_bonus``; through ``layoffs.py``
``ace_rank`` and ``run_suit`` (Boat House's deadwood).

``pip_to_winner``: the player who goes out scores the value of every card left in the
other hands (``per_card`` is the same with every card worth 1 and a joker 2, which
``compile_rules`` writes into the values). ``penalty``: each other player loses the value
of his own cards. Going rummy doubles the winner's score or adds its bonus.

Under ``meld_timing = "all_at_once"`` only (``sim.rules.model`` refuses them elsewhere):
``unmelded_to_winner`` (Boat House, §3.7): each other player lays his hand out at its
minimum deadwood (open point 4; ``layoffs.arrange_mask``, one pack, no jokers) and the
winner scores the deadwood of them all (``S_DEADWOOD``); ``own_melds_from_each`` (Queen
City, §3.12): the winner collects the value of the melds he laid down (the table, all his;
the discard does not count, open point 2) from each other player, that value times
``players - 1`` (open point 1); ``continental`` (§3.11, zero-sum): each other player pays
the winner ``continental_pay`` (1, 2 per joker in his runs, the §2J bonuses), and every
total starts the game at ``start_points`` (``start_total``).

A hand ended by a block (``block_difference`` / ``block_totals``, §2F.28, §3.5): every
player totals all the cards in his hand (``hand_value``); the lowest total wins the
difference to each other total, or the sum of the other totals; players tied for lowest
split it, floor, the remainder going to nobody. Under ``penalty`` each player above the
lowest loses his own total instead and the lowest score 0.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_SUITS
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.layoffs import arrange_mask
from sim.engine.layout import (
    FAMILY_GIN,
    KNOCK_PENALTY,
    P_FAMILY,
    P_GIN_BONUS,
    P_GOING_RUMMY,
    P_GOING_RUMMY_ARG,
    P_MELD_TIMING,
    P_OKLAHOMA_EXTRA,
    P_PACKS,
    P_PLAYERS,
    P_QUICK_BONUS,
    P_SCORING,
    P_SPADE_DOUBLE,
    P_SPECIAL_BONUS,
    P_START_POINTS,
    P_STOCK_EXHAUSTION,
    P_UNDERCUT_BONUS,
    REASON_GIN,
    REASON_KNOCK,
    REASON_UNDERCUT,
    RUM_BONUS,
    RUMMY_BONUS,
    RUMMY_DOUBLE,
    SCORE_CONTINENTAL,
    SCORE_OWN_MELDS,
    SCORE_PENALTY,
    SCORE_UNMELDED,
    STOCK_BLOCK_TOTALS,
    TIMING_KNOCK,
)
from sim.engine.melds import mask_value
from sim.engine.patterns import wild_deuces
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_N_MELDS,
    C_UPCARD,
    M_CARDS,
    M_JOKERS,
    M_SUIT,
    M_WILD,
    R_MELD,
    R_SC,
    R_SEAT,
    S_DEADWOOD,
    S_DRAWS,
    S_HAND,
    S_JOKERS,
    S_SIDE,
)

SPADES = 0  # suit index of spades (sim.cards: suits s h d c)
CONTINENTAL_BASE = 1  # §3.11: each opponent pays 1 ...
CONTINENTAL_JOKER = 2  # ... and 2 per joker in the winner's runs
CONTINENTAL_DEUCE = 1  # ... and 1 per 2 used as wild in them (deuces_wild, §2B.14)
QUICK_BEFORE_DRAW = 10  # §2J.40: out before drawing any card
QUICK_ONE_DRAW = 7  # §2J.40: out after drawing exactly one card
SPECIAL_NO_WILD = 10  # §2J.41: no wild card used
SPECIAL_ONE_SUIT = 10  # §2J.41: all 15 cards of one suit
OKLAHOMA_UNDERCUT_SIDE = 20  # §3.20: side bonus for an undercut (doubled on a spade upcard)
OKLAHOMA_GIN_SIDE = 40  # §3.20: side bonus for gin (doubled on a spade upcard)


@kernel
def _set_value(fx, params, values, st, row, layers, jokers):
    """The value (RULES.md §1.9) of the card set in row ``row`` of ``st``: its layers from
    column ``layers``, its joker count in column ``jokers`` (a hand or a table meld)."""
    total = st[row, jokers] * values[JOKER]
    for l in range(rule(fx, params, P_PACKS)):
        total += mask_value(values, st[row, layers + l])
    return total


@kernel
def hand_value(fx, params, values, st, seat):
    """The value of the cards ``seat`` holds (RULES.md §1.9)."""
    return _set_value(fx, params, values, st, R_SEAT + seat, np.int64(S_HAND), np.int64(S_JOKERS))


@kernel
def score_went_out(fx, params, values, st, winner, rummy, scores):
    """Scores of a hand ``winner`` went out of (``rummy``: he went rummy)."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        scores[p] = 0
    if rule(fx, params, P_SCORING) == SCORE_PENALTY:
        for p in range(players):
            if p != winner:
                scores[p] = -hand_value(fx, params, values, st, p)
        return
    total = 0
    for p in range(players):
        if p != winner:
            total += hand_value(fx, params, values, st, p)
    if rummy:
        bonus = rule(fx, params, P_GOING_RUMMY)
        if bonus == RUMMY_DOUBLE:
            total *= 2
        elif bonus == RUMMY_BONUS:
            total += rule(fx, params, P_GOING_RUMMY_ARG)
    scores[winner] = total


@kernel
def table_value(fx, params, values, st):
    """The value of every card on the table (RULES.md §1.9)."""
    total = 0
    for m in range(st[R_SC, C_N_MELDS]):
        total += _set_value(
            fx, params, values, st, R_MELD + m, np.int64(M_CARDS), np.int64(M_JOKERS)
        )
    return total


@kernel
def score_out(fx, params, values, st, work, winner, rummy, scores):
    """Scores of a hand ``winner`` went out of, by the ``scoring`` rule (module
    docstring)."""
    scoring = rule(fx, params, P_SCORING)
    if scoring == SCORE_OWN_MELDS:
        players = rule(fx, params, P_PLAYERS)
        for p in range(players):
            scores[p] = 0
        scores[winner] = table_value(fx, params, values, st) * (players - 1)
    elif scoring == SCORE_UNMELDED:
        players = rule(fx, params, P_PLAYERS)
        total = 0
        for p in range(players):
            scores[p] = 0
            if p != winner:
                dw, _ = arrange_mask(fx, params, values, work, st[R_SEAT + p, S_HAND])
                st[R_SEAT + p, S_DEADWOOD] = dw
                total += dw
        scores[winner] = total
    elif scoring == SCORE_CONTINENTAL:
        pay = continental_pay(fx, params, st, winner)
        players = rule(fx, params, P_PLAYERS)
        for p in range(players):
            scores[p] = -pay
        scores[winner] = pay * (players - 1)
    else:
        score_went_out(fx, params, values, st, winner, rummy, scores)


@kernel
def continental_pay(fx, params, st, winner):
    """What each opponent pays the winner of a Continental hand (§3.11, §2J): 1, 2 for
    each joker in his runs (the table: all his), 1 for each 2 used as wild in them
    (``deuces_wild``, §2B.14), and with ``continental_quick_bonus`` 10 when he went out
    before drawing, 7 after one draw; with ``continental_special_bonus`` 10 for runs
    without a wild card (no joker, no wild 2, §2J.41) and 10 for runs all of one suit."""
    jokers = 0
    deuces = 0  # 2s used as wild cards (deuces_wild, §2B.14)
    suits = 0  # the suits of the runs, as bits
    for m in range(st[R_SC, C_N_MELDS]):
        jokers += st[R_MELD + m, M_JOKERS]
        deuces += wild_deuces(st[R_MELD + m, M_WILD])
        suits |= 1 << st[R_MELD + m, M_SUIT]
    pay = CONTINENTAL_BASE + CONTINENTAL_JOKER * jokers + CONTINENTAL_DEUCE * deuces
    if rule(fx, params, P_QUICK_BONUS) == 1:
        draws = st[R_SEAT + winner, S_DRAWS]
        if draws == 0:
            pay += QUICK_BEFORE_DRAW
        elif draws == 1:
            pay += QUICK_ONE_DRAW
    if rule(fx, params, P_SPECIAL_BONUS) == 1:
        if jokers == 0 and deuces == 0:
            pay += SPECIAL_NO_WILD
        if suits & (suits - 1) == 0:
            pay += SPECIAL_ONE_SUIT
    return pay


@kernel
def start_total(fx, params):
    """What every player's total starts a game at: ``start_points`` under Continental's
    zero-sum scoring (§2J.42), else 0."""
    if rule(fx, params, P_SCORING) == SCORE_CONTINENTAL:
        return rule(fx, params, P_START_POINTS)
    return np.int64(0)


@kernel
def score_block(fx, params, values, st, scores):
    """Scores of a hand ended by a block (module docstring); returns the winner, -1 when the
    lowest total is shared."""
    players = rule(fx, params, P_PLAYERS)
    low = hand_value(fx, params, values, st, np.int64(0))
    for p in range(1, players):
        low = min(low, hand_value(fx, params, values, st, p))
    totals = rule(fx, params, P_STOCK_EXHAUSTION) == STOCK_BLOCK_TOTALS
    penalty = rule(fx, params, P_SCORING) == SCORE_PENALTY
    tied = 0
    winner = -1
    pot = 0
    for p in range(players):
        v = hand_value(fx, params, values, st, p)
        scores[p] = 0
        if v == low:
            tied += 1
            winner = p
        elif penalty:
            scores[p] = -v
        else:
            pot += v if totals else v - low
    if not penalty:
        for p in range(players):
            if hand_value(fx, params, values, st, p) == low:
                scores[p] = pot // tied
    return winner if tied == 1 else -1


@kernel
def score_knock_rummy(fx, params, st, knocker, scores):
    """§3.10, from the showdown's deadwood (``S_DEADWOOD``): the lowest count wins the
    differences to every other count (+25 from each opponent when it is 0). The knocker
    wins when strictly lowest, or at 0 against 0 (rule 3's exception). An opponent who ties
    him wins without a penalty; opponents strictly lower win and take 10 from the knocker,
    who loses 10. Tied winners split the pot (floor; open point 2), the rum bonus applies
    to a winner other than the knocker (open point 3) and only the knocker's 10 is deducted
    (open point 4). Returns (reason, winner), winner -1 when shared."""
    players = rule(fx, params, P_PLAYERS)
    k = st[R_SEAT + knocker, S_DEADWOOD]
    low = -1
    for p in range(players):
        d = st[R_SEAT + p, S_DEADWOOD]
        if p != knocker and st[R_SEAT + p, S_SIDE] >= 0 and (low < 0 or d < low):
            low = d
    if k < low or k == 0:
        pot = 0
        for p in range(players):
            if st[R_SEAT + p, S_SIDE] >= 0:
                pot += st[R_SEAT + p, S_DEADWOOD] - k
        if k == 0:
            pot += RUM_BONUS * (players - 1)
        scores[knocker] = pot
        return (REASON_GIN if k == 0 else REASON_KNOCK), knocker
    winners = 0
    winner = -1
    pot = 0
    for p in range(players):
        d = st[R_SEAT + p, S_DEADWOOD]
        if p != knocker and d == low:
            winners += 1
            winner = p
        else:
            pot += d - low
    if low < k:
        pot += KNOCK_PENALTY
        scores[knocker] = -KNOCK_PENALTY
    if low == 0:
        pot += RUM_BONUS * (players - 1)
    for p in range(players):
        if p != knocker and st[R_SEAT + p, S_DEADWOOD] == low:
            scores[p] = pot // winners
    return REASON_UNDERCUT, (winner if winners == 1 else -1)


@kernel
def score_gin(fx, params, st, knocker, scores, side):
    """§3.17, §3.20 (K the knocker's deadwood, D the defender's after his lay-offs): gin
    (K = 0) scores the gin bonus plus D and is never undercut; K < D scores D - K;
    otherwise the defender undercuts and scores K - D plus the undercut bonus. A spade
    upcard doubles the hand, bonuses included (``spade_double``); Oklahoma's side bonuses
    (``oklahoma_extra_bonus``: undercut 20, gin 40, doubled on a spade upcard) go to
    ``side``, which does not count toward the target. Returns (reason, winner)."""
    defender = next_seat(fx, params, st, knocker)
    k = st[R_SEAT + knocker, S_DEADWOOD]
    d = st[R_SEAT + defender, S_DEADWOOD]
    up = st[R_SC, C_UPCARD]
    spade = up >= 0 and up % N_SUITS == SPADES
    factor = 2 if spade and rule(fx, params, P_SPADE_DOUBLE) == 1 else 1
    side_factor = 2 if spade else 1
    if k == 0:
        reason, winner = REASON_GIN, knocker
        points = rule(fx, params, P_GIN_BONUS) + d
        bonus = OKLAHOMA_GIN_SIDE * side_factor
    elif k < d:
        reason, winner = REASON_KNOCK, knocker
        points = d - k
        bonus = 0
    else:
        reason, winner = REASON_UNDERCUT, defender
        points = k - d + rule(fx, params, P_UNDERCUT_BONUS)
        bonus = OKLAHOMA_UNDERCUT_SIDE * side_factor
    scores[winner] = points * factor
    if rule(fx, params, P_OKLAHOMA_EXTRA) == 1:
        side[winner] = bonus
    return reason, winner


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, (np.int64(-1), np.int64(-1)))
@kernel
def score_knock(fx, params, st, knocker, scores, side):
    """The scores of a hand ``knocker`` knocked in, by the family's rules (gin §3.17 or
    knock rummy §3.10); returns (reason, winner)."""
    if rule(fx, params, P_FAMILY) == FAMILY_GIN:
        return score_gin(fx, params, st, knocker, scores, side)
    return score_knock_rummy(fx, params, st, knocker, scores)


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, np.int64(0))
@kernel
def check_knock_scores(fx, params, st, knocker, reason, scores):
    """Audit (written apart from the scoring): the hand's points against RULES.md §3.10 /
    §3.17 worked out from the showdown's deadwood. Returns the violations found."""
    players = rule(fx, params, P_PLAYERS)
    bad = 0
    k = st[R_SEAT + knocker, S_DEADWOOD]
    if rule(fx, params, P_FAMILY) == FAMILY_GIN:
        defender = next_seat(fx, params, st, knocker)
        d = st[R_SEAT + defender, S_DEADWOOD]
        scorers = 0
        for p in range(players):
            if scores[p] != 0:
                scorers += 1
            if scores[p] < 0:
                bad += 1
        # one scorer, or none where the winner's points come to 0 (a bonus of 0, a
        # simulator extension: an undercut on equal deadwood, a gin against no deadwood)
        owed = -1
        if reason == REASON_GIN:
            owed = rule(fx, params, P_GIN_BONUS) + d
        elif reason == REASON_UNDERCUT:
            owed = k - d + rule(fx, params, P_UNDERCUT_BONUS)
        if scorers != (0 if owed == 0 else 1):
            bad += 1
        if reason == REASON_GIN and (k != 0 or scores[knocker] < rule(fx, params, P_GIN_BONUS) + d):
            bad += 1
        if reason == REASON_KNOCK and (k == 0 or k >= d or scores[knocker] < d - k):
            bad += 1
        if reason == REASON_UNDERCUT and (k == 0 or k < d or scores[knocker] != 0):
            bad += 1
        return bad
    low = k
    for p in range(players):
        low = min(low, st[R_SEAT + p, S_DEADWOOD])
        if p != knocker and scores[p] < 0:
            bad += 1  # only the knocker ever loses points
    if reason != REASON_UNDERCUT and (k != low or scores[knocker] <= 0):
        bad += 1  # a knocker who wins holds the lowest count
    if reason == REASON_UNDERCUT and (scores[knocker] > 0 or (k == 0 and low == 0)):
        bad += 1
    return bad
