"""A quick text summary of simulated hands (the full balance report is a later stage)."""

from __future__ import annotations

import numpy as np

from sim.engine import rows as R
from sim.engine.api import Played


def summarize(out: Played, players: int) -> dict:
    """Mean turns, outcome mix, seat and dealer win rates, hands per game, violations."""
    rows = out.hand_rows
    n = max(len(rows), 1)
    reasons = {
        name: round(float(np.mean(rows[:, R.H_END_REASON] == code)), 4)
        for code, name in enumerate(R.REASON_NAMES)
    }
    winners = rows[:, R.H_WINNER]
    seat_wins = [round(float(np.mean(winners == s)), 4) for s in range(players)]
    dealer_wins = float(np.mean(winners == rows[:, R.H_DEALER]))
    return {
        "hands": int(len(rows)),
        "games": int(len(out.game_rows)),
        "mean_turns": round(float(rows[:, R.H_TURNS].mean()) if len(rows) else 0.0, 3),
        "outcomes": reasons,
        "seat_win_rate": seat_wins,
        "dealer_win_rate": round(dealer_wins, 4),
        "mean_points_per_hand": round(float(out.hand_scores.sum() / n), 3),
        "hands_per_game": round(float(out.game_rows[:, R.G_HANDS].mean()), 3)
        if len(out.game_rows)
        else None,
        "violations": int(out.counters[R.C_VIOLATIONS]),
    }
