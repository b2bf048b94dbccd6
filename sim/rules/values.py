"""The value of each card kind left in hand (RULES.md §1.9, §2A.3-2A.5, §2G.29), from the
validated rules. The engine turns the rest of the rules into its params
(``sim.engine.api.compile_rules``).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_KINDS, N_NATURAL, rank_of
from sim.rules.model import Rules

PIP_FACE_VALUE = 10  # J, Q, K under face_values = "ten" (§1.9)
PER_CARD_NATURAL, PER_CARD_JOKER = 1, 2  # scoring = "per_card" (§2G.29)


def card_values(rules: Rules) -> np.ndarray:
    """Value of each card kind left in hand, ``int64[N_KINDS]`` (RULES.md §1.9, §2A.3–2A.5).

    Ace = resolved ``ace_points``; 2–10 = pip value; J/Q/K = 10 (or 11/12/13 with
    ``face_values = "rank"``); joker = ``joker_points``. Under ``scoring = "per_card"`` every
    natural card is worth 1 and a joker 2 (§2G.29), so the kernels can score all modes from
    this table. In Conquian (§3.21) every card is worth 1: its meld searches count cards.
    """
    values = np.zeros(N_KINDS, dtype=np.int64)
    if rules.family == "conquian":  # §3.21 counts cards, never points: 11 melded win
        values[:N_NATURAL] = 1
        return values
    if rules.scoring == "per_card":
        values[:N_NATURAL] = PER_CARD_NATURAL
        values[JOKER] = PER_CARD_JOKER
        return values
    for kind in range(N_NATURAL):
        values[kind] = _natural_value(rank_of(kind), rules)
    values[JOKER] = rules.joker_points
    return values


def _natural_value(rank: int, rules: Rules) -> int:
    """Value of a natural card of ``rank`` (0 = ace .. 12 = king)."""
    if rank == 0:
        return rules.ace_value
    if rank <= 9:
        return rank + 1
    return rank + 1 if rules.face_values == "rank" else PIP_FACE_VALUE
