"""Plain reference of a Carousel round's settlement and its game end (RULES.md §3.16 and its
open points 4-6, §2M.59 ``carousel_round_bonus_to``), written from RULES.md for the engine's
scoring to be checked against once Carousel plays (not played yet: docs/variants.md).

A round ends by a knock (a player with 5 or fewer points in hand at the end of his own
turn), by a player emptying his hand by melding, or after the stock-out's final turns
(``final_turns``). ``points`` are the values left in each hand (§3.16: joker 25, J/Q/K 10,
2-10 their pips, ace 1).
"""

from __future__ import annotations

KNOCK = "knock"
OUT = "out"  # a player emptied his hand by melding (default, not in seed)
STOCK_OUT = "stock_out"  # the final turns after the stock ran out

UNDERCUT = 10
ALL_PLAYED = 25
GAME_TARGET = 150
GAME_BONUS = 100
ROUND_BONUS = 25


def round_winners(points: list[int], ender: int | None, how: str) -> list[int]:
    """The round's winners: every player tied on the fewest points (open point 4), except
    the knocker when he ties with others (§3.16: "if the knocker ties with one other
    player, that player wins"; with two others "both score as winners")."""
    low = min(points)
    tied = [p for p, v in enumerate(points) if v == low]
    if how == KNOCK and ender in tied and len(tied) > 1:
        tied.remove(ender)
    return tied


def round_scores(points: list[int], ender: int | None, how: str) -> list[int]:
    """What each player scores for the round: each winner the sum of his differences to
    every other player (2 players: the difference), +10 when the knocker is undercut (a
    winner who is not the knocker: each such winner; never after the stock-out), +25 for
    winning by playing all one's cards."""
    scores = [0] * len(points)
    for w in round_winners(points, ender, how):
        scores[w] = sum(v - points[w] for p, v in enumerate(points) if p != w)
        if how == KNOCK and w != ender:
            scores[w] += UNDERCUT
        if how == OUT and w == ender and points[w] == 0:
            scores[w] += ALL_PLAYED
    return scores


def game_end(totals: list[int], rounds_won: list[int], bonus_to: str = "others_only"):
    """None while no total has reached 150; else the final totals: +100 to each player at
    150 or more, +25 per round won to every other player (``others_only``) or to every
    player (``all_players``). The highest final total wins; a tie plays extra rounds (open
    point 6), which the caller sees as two or more leaders."""
    if max(totals) < GAME_TARGET:
        return None
    final = []
    for total, won in zip(totals, rounds_won, strict=True):
        reached = total >= GAME_TARGET
        bonus = GAME_BONUS if reached else 0
        if not reached or bonus_to == "all_players":
            bonus += ROUND_BONUS * won
        final.append(total + bonus)
    return final
