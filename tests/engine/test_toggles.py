"""Every supported toggle changes play or scoring when it flips (RULES.md §2A–2H).

Each case plays the same deals (same seed) under the baseline and under the flipped value
and requires the recorded hands or games to differ. ``decks`` and ``jokers`` change the shoe,
hence the deals themselves: what they do in play is shown on hand-built deals by
``test_rules_clauses.test_2A_1_*``, ``test_2A_2_*`` and ``test_2A_3_*``.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine.api import play

from .helpers import GREEDY, RANDOM, compiled

# (section, base overrides, flipped overrides, bots)
CASES = [
    ("2A_1_decks", {}, {"decks": 2}, GREEDY),
    ("2A_2_jokers", {}, {"jokers": 2}, GREEDY),
    ("2A_3_joker_points", {"jokers": 2}, {"jokers": 2, "joker_points": 25}, RANDOM),
    ("2A_4_ace_high", {}, {"ace_rank": "high"}, GREEDY),
    ("2A_4_ace_high_or_low", {}, {"ace_rank": "high_or_low"}, GREEDY),
    ("2A_4_ace_around_corner", {}, {"ace_rank": "around_corner"}, GREEDY),
    ("2A_5_ace_points", {}, {"ace_points": 10}, GREEDY),
    ("2A_6_run_suit", {}, {"run_suit": "any_suit"}, GREEDY),
    ("2B_9_group_duplicates", {"decks": 2}, {"decks": 2, "group_duplicates": "allowed"}, GREEDY),
    (
        "2B_11_joker_declare_three_card_group",
        {"jokers": 2},
        {"jokers": 2, "joker_declare": "three_card_group"},
        GREEDY,
    ),
    (
        "2B_11_joker_declare_always",
        {"jokers": 2, "run_suit": "any_suit", "joker_replace": "steal_by_replacement"},
        {
            "jokers": 2,
            "run_suit": "any_suit",
            "joker_replace": "steal_by_replacement",
            "joker_declare": "always",
        },
        GREEDY,
    ),
    (
        "2B_12_joker_replace",
        {"jokers": 2},
        {"jokers": 2, "joker_replace": "steal_by_replacement"},
        GREEDY,
    ),
    ("2D_19_melds_one", {}, {"melds_per_turn": "one"}, GREEDY),
    ("2D_19_melds_one_or_layoff", {}, {"melds_per_turn": "one_or_layoff"}, GREEDY),
    ("2D_20_layoff_own_only", {}, {"layoff_target": "own_only"}, GREEDY),
    ("2D_20_layoff_none", {}, {"layoff_target": "none"}, GREEDY),
    ("2D_21_after_first_meld", {}, {"layoff_requires_meld": "after_first_meld"}, GREEDY),
    ("2D_21_after_own_layoff", {}, {"layoff_requires_meld": "after_own_layoff"}, GREEDY),
    ("2E_26_must_discard", {}, {"must_discard_to_go_out": True}, GREEDY),
    ("2E_27_going_rummy_double", {}, {"going_rummy": "double"}, GREEDY),
    ("2E_27_going_rummy_bonus", {}, {"going_rummy": "bonus:10"}, GREEDY),
    ("2F_28_shuffle_except_top", {}, {"stock_exhaustion": "shuffle_except_top"}, RANDOM),
    ("2F_28_block_difference", {}, {"stock_exhaustion": "block_difference"}, GREEDY),
    ("2F_28_block_totals", {}, {"stock_exhaustion": "block_totals"}, GREEDY),
    ("2G_29_per_card", {}, {"scoring": "per_card"}, GREEDY),
    (
        "2G_29_penalty",
        {"game_end": "fixed_hands:10"},
        {"game_end": "fixed_hands:10", "scoring": "penalty"},
        GREEDY,
    ),
    ("2H_30_fixed_hands", {}, {"game_end": "fixed_hands:5"}, GREEDY),
    ("2H_30_single_hand", {}, {"game_end": "single_hand"}, GREEDY),
    (
        "2H_30_penalty_limit",
        {"scoring": "penalty", "game_end": "fixed_hands:10"},
        {"scoring": "penalty", "game_end": "penalty_limit:100"},
        GREEDY,
    ),
    ("2H_31_winner_deals", {}, {"dealer_rotation": "winner_deals"}, GREEDY),
]


def _run(overrides, bots, players=3):
    params, values = compiled(players=players, **overrides)
    out = play(params, values, np.array([bots] * players), seed=11, games=40)
    assert int(out.counters[L.C_VIOLATIONS]) == 0
    return out


def _same(x, y):
    return x.shape == y.shape and np.array_equal(x, y)


@pytest.mark.parametrize(("name", "base", "flipped", "bots"), CASES, ids=[c[0] for c in CASES])
def test_toggle_changes_the_game(name, base, flipped, bots):
    a = _run(base, bots)
    b = _run(flipped, bots)
    same_hands = _same(a.hand_rows, b.hand_rows)
    same_scores = _same(a.hand_scores, b.hand_scores)
    same_games = _same(a.game_rows, b.game_rows)
    assert not (same_hands and same_scores and same_games), f"{name} changed nothing"
