"""Digests of the rows the engine writes for fixed seeds, to pin its results.

Speed work must not change what a seed plays. ``CASES`` spans the variants, player counts,
bots and the toggles the kernels branch on; ``digest`` hashes every output table of
``api.play`` for one case. ``pinned_results.json`` holds the digests recorded before the
bitmask fast paths went in; ``test_pinned_results.py`` asserts them.

Regenerate (only when a change of results is intended and explained):

    .venv/bin/python -m tests.engine.pinned_results > tests/engine/pinned_results.json
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from sim.engine import layout as L
from sim.engine.api import play

from .helpers import compiled

FIXTURE = Path(__file__).with_name("pinned_results.json")

G, C, R, S = "greedy", "careful", "random", "simple"

# (case id, variant, players, bots per seat, toggle overrides, hands)
CASES = [
    ("basic-2-greedy", "rummy_basic", 2, (G, G), {}, 3000),
    ("basic-2-careful", "rummy_basic", 2, (C, C), {}, 2000),
    ("basic-2-random", "rummy_basic", 2, (R, R), {}, 500),
    ("basic-2-greedy-careful", "rummy_basic", 2, (G, C), {}, 2000),
    ("basic-3-mixed", "rummy_basic", 3, (G, R, C), {}, 1000),
    ("basic-4-greedy", "rummy_basic", 4, (G, G, G, G), {}, 2000),
    ("basic-4-careful", "rummy_basic", 4, (C, C, C, C), {}, 1000),
    ("basic-6-greedy", "rummy_basic", 6, (G,) * 6, {}, 1000),
    ("basic002-2-greedy", "rummy_basic@002", 2, (G, G), {}, 2000),
    ("basic002-2-careful", "rummy_basic@002", 2, (C, C), {}, 1000),
    ("basic002-4-mixed", "rummy_basic@002", 4, (G, C, R, G), {}, 500),
    ("basic003-2-greedy", "rummy_basic@003", 2, (G, G), {}, 1000),
    ("basic003-6-greedy-2packs", "rummy_basic@003", 6, (G,) * 6, {}, 300),
    ("basic003-2-greedy-jokers", "rummy_basic@003", 2, (G, G), {"jokers": 2}, 1000),
    ("basic003-2-careful-jokers", "rummy_basic@003", 2, (C, C), {"jokers": 2}, 500),
    ("basic003-3-random-jokers", "rummy_basic@003", 3, (R, G, C), {"jokers": 2}, 300),
    ("basic003-7-greedy-jokers", "rummy_basic@003", 7, (G,) * 7, {"jokers": 4}, 100),
    ("basic004-2-greedy", "rummy_basic@004", 2, (G, G), {}, 2000),
    ("basic004-2-careful", "rummy_basic@004", 2, (C, C), {}, 1000),
    ("basic004-5-mixed", "rummy_basic@004", 5, (C, G, C, G, R), {}, 300),
    ("corner-2-greedy", "around_the_corner", 2, (G, G), {}, 2000),
    ("corner-2-careful", "around_the_corner", 2, (C, C), {}, 1000),
    ("corner-3-mixed", "around_the_corner", 3, (R, G, C), {}, 300),
    ("block-2-greedy", "block_rummy", 2, (G, G), {}, 2000),
    ("block002-3-mixed", "block_rummy@002", 3, (G, C, R), {}, 500),
    ("high-2-greedy", "rummy_basic", 2, (G, G), {"ace_rank": "high"}, 2000),
    ("high-2-careful", "rummy_basic", 2, (C, C), {"ace_rank": "high"}, 1000),
    ("highlow-2-greedy", "rummy_basic", 2, (G, G), {"ace_rank": "high_or_low"}, 2000),
    ("highlow-3-mixed", "rummy_basic", 3, (C, G, R), {"ace_rank": "high_or_low"}, 500),
    ("anysuit-2-greedy", "rummy_basic", 2, (G, G), {"run_suit": "any_suit"}, 1000),
    ("anysuit-2-careful", "rummy_basic", 2, (C, C), {"run_suit": "any_suit"}, 500),
    ("onemeld-lowhigh-2", "rummy_basic", 2, (G, C), {"melds_per_turn": "one_or_layoff"}, 1000),
    ("own-only-2", "rummy_basic", 2, (G, G), {"layoff_target": "own_only"}, 1000),
    ("no-layoff-2", "rummy_basic", 2, (G, C), {"layoff_target": "none"}, 1000),
    (
        "after-meld-3",
        "rummy_basic",
        3,
        (G, G, C),
        {"layoff_requires_meld": "after_first_meld"},
        500,
    ),
    ("after-own-2", "rummy_basic", 2, (G, G), {"layoff_requires_meld": "after_own_layoff"}, 1000),
    ("must-discard-2", "rummy_basic", 2, (G, G), {"must_discard_to_go_out": True}, 1000),
    ("must-discard-3", "rummy_basic", 3, (C, C, G), {"must_discard_to_go_out": True}, 500),
    (
        "two-packs-dup-2",
        "rummy_basic",
        2,
        (G, C),
        {"decks": 2, "jokers": 4, "group_duplicates": "allowed"},
        300,
    ),
    ("two-packs-4", "rummy_basic", 4, (G, G, C, C), {"decks": 2}, 300),
    (
        "corner-onemeld-steal",
        "around_the_corner",
        2,
        (G, G),
        {"melds_per_turn": "one", "jokers": 2, "joker_replace": "steal_by_replacement"},
        500,
    ),
    # the knock family (recorded with the code as it landed and again after the kept
    # arrangements went in: the same digests)
    ("gin-2-simple", "gin_rummy", 2, (S, S), {}, 3000),
    ("gin-2-careful-greedy", "gin_rummy", 2, (C, G), {}, 2000),
    ("gin-2-simple-random", "gin_rummy", 2, (S, R), {}, 1000),
    (
        "gin-2-1110-bonuses",
        "gin_rummy",
        2,
        (S, C),
        {"gin_opening": "deal_11_10", "gin_bonus": 25},
        1000,
    ),
    ("oklahoma-2-careful-simple", "oklahoma_gin", 2, (C, S), {}, 2000),
    ("gin3-3-mixed", "gin_rummy_3p", 3, (S, C, G), {}, 1000),
    ("knock-4-mixed", "knock_rummy", 4, (S, C, G, R), {}, 1000),
    ("knock-2-careful-layoff", "knock_rummy", 2, (C, C), {"layoff_target": "any"}, 1000),
    ("gin4-4-mixed", "gin_rummy_4p", 4, (S, C, G, S), {}, 1000),  # pinned when it landed
    # any-suit runs in the knock family (§3.17 open point 1), pinned when they landed
    ("gin-2-anysuit", "gin_rummy", 2, (S, C), {"run_suit": "any_suit"}, 2000),
    (
        "knock-3-anysuit-layoff",
        "knock_rummy",
        3,
        (C, G, S),
        {"run_suit": "any_suit", "layoff_target": "any"},
        1000,
    ),
]

# A few small cases for the reduced suite under NUMBA_DISABLE_JIT=1.
NOJIT_CASES = [
    "basic-2-greedy",
    "basic-2-careful",
    "highlow-3-mixed",
    "corner-2-greedy",
    "gin-2-simple",
    "gin-2-careful-greedy",
    "knock-4-mixed",
    "gin-2-anysuit",
]
NOJIT_HANDS = 20

BOT_CODES = {"random": 0, "greedy": 1, "careful": 2, "simple": 3}


def digest(case_id: str, hands: int | None = None, seed: int = 11, audit: bool = True) -> str:
    """sha256 of every output table of ``api.play`` for case ``case_id``. The counters
    leave out ``C_MASK_HANDS`` and ``C_SKIPPED_TURNS``, which say how the hands were
    played, not what they gave.

    ``audit`` (the way the digests were recorded): every hand is checked after every
    action, and a hand ``mask_hand.play_mask_hand`` plays is played again by the general
    loop, whose rows are kept (a difference is a violation). Without it the rows are
    ``play_mask_hand``'s wherever it applies."""
    by_id = {case[0]: case for case in CASES}
    _cid, variant, players, bots, overrides, n = by_id[case_id]
    params, values = compiled(variant, players, audit=audit, **overrides)
    codes = np.array([BOT_CODES[b] for b in bots], np.int64)
    out = play(params, values, codes, seed=seed, hands=hands or n)
    h = hashlib.sha256()
    for table in (
        out.hand_rows,
        out.hand_scores,
        out.hand_totals,
        out.game_rows,
        out.game_scores,
        np.delete(out.counters, [L.C_MASK_HANDS, L.C_SKIPPED_TURNS]),
    ):
        h.update(np.ascontiguousarray(table, np.int64).tobytes())
    return h.hexdigest()


def record() -> dict:
    """Digests of every case (full size), and of the small no-JIT runs."""
    return {
        "full": {cid: digest(cid) for cid, *_ in CASES},
        "nojit": {cid: digest(cid, NOJIT_HANDS) for cid in NOJIT_CASES},
    }


def load() -> dict:
    return json.loads(FIXTURE.read_text())


if __name__ == "__main__":
    print(json.dumps(record(), indent=1, sort_keys=True))
