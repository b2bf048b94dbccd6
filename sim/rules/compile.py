"""Compile validated rules onto the kernels' integer layout (:mod:`sim.engine.layout`).

``compile_rules(rules, players)`` gives ``params`` (``int64[N_PARAMS]``, every ``P_*`` slot
filled with a layout code or number) and ``card_values`` (``int64[N_KINDS]``, the value of
each card kind left in hand, RULES.md §1.9).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sim.cards import JOKER, N_KINDS, N_NATURAL, rank_of
from sim.engine import layout as L
from sim.rules.model import Rules

# ---- toggle value -> layout code ---------------------------------------------------------
ACE_RANK_CODES = {
    "low": L.ACE_LOW,
    "high": L.ACE_HIGH,
    "high_or_low": L.ACE_HIGH_OR_LOW,
    "around_corner": L.ACE_AROUND_CORNER,
}
RUN_SUIT_CODES = {"same_suit": L.RUN_SAME_SUIT, "any_suit": L.RUN_ANY_SUIT}
GROUP_DUPLICATES_CODES = {"forbidden": 0, "allowed": 1}
JOKER_DECLARE_CODES = {
    "inferred": L.JDECLARE_INFERRED,
    "three_card_group": L.JDECLARE_THREE_CARD_GROUP,
    "always": L.JDECLARE_ALWAYS,
}
JOKER_REPLACE_CODES = {
    "none": L.JREPLACE_NONE,
    "to_hand": L.JREPLACE_TO_HAND,
    "reuse_same_turn": L.JREPLACE_REUSE_SAME_TURN,
    "steal_by_replacement": L.JREPLACE_STEAL,
}
MELDS_PER_TURN_CODES = {
    "unlimited": L.MELDS_UNLIMITED,
    "one": L.MELDS_ONE,
    "one_or_layoff": L.MELDS_ONE_OR_LAYOFF,
}
LAYOFF_TARGET_CODES = {"any": L.LAYOFF_ANY, "own_only": L.LAYOFF_OWN_ONLY, "none": L.LAYOFF_NONE}
LAYOFF_REQUIRES_CODES = {
    "off": L.LREQ_OFF,
    "after_first_meld": L.LREQ_AFTER_FIRST_MELD,
    "after_own_layoff": L.LREQ_AFTER_OWN_LAYOFF,
}
GOING_RUMMY_CODES = {"off": L.RUMMY_OFF, "double": L.RUMMY_DOUBLE, "bonus": L.RUMMY_BONUS}
STOCK_EXHAUSTION_CODES = {
    "turn_over": L.STOCK_TURN_OVER,
    "shuffle_except_top": L.STOCK_SHUFFLE_EXCEPT_TOP,
    "block_difference": L.STOCK_BLOCK_DIFFERENCE,
    "block_totals": L.STOCK_BLOCK_TOTALS,
    "void_at_two": L.STOCK_VOID_AT_TWO,
}
SCORING_CODES = {
    "pip_to_winner": L.SCORE_PIP_TO_WINNER,
    "per_card": L.SCORE_PER_CARD,
    "penalty": L.SCORE_PENALTY,
}
GAME_END_CODES = {
    "target": L.END_TARGET,
    "fixed_hands": L.END_FIXED_HANDS,
    "single_hand": L.END_SINGLE_HAND,
    "penalty_limit": L.END_PENALTY_LIMIT,
}
DEALER_ROTATION_CODES = {
    "left": L.DEALER_LEFT,
    "winner_deals": L.DEALER_WINNER_DEALS,
    "loser_sits_out": L.DEALER_LOSER_SITS_OUT,
}
GIN_OPENING_CODES = {
    "upcard_offer": L.GIN_OPENING_UPCARD_OFFER,
    "deal_11_10": L.GIN_OPENING_DEAL_11_10,
}
SHUTOUT_CODES = {
    "game_bonus_200": L.SHUTOUT_GAME_BONUS_200,
    "double_all": L.SHUTOUT_DOUBLE_ALL,
}
FAMILY_CODES = {
    "rummy": L.FAMILY_RUMMY,
    "knock_rummy": L.FAMILY_KNOCK_RUMMY,
    "gin": L.FAMILY_GIN,
}
KNOCK_LIMIT_CODES = {"unlimited": L.KNOCK_UNLIMITED, "upcard": L.KNOCK_UPCARD}
"""knock_limit words; a number is copied as it is."""
MELD_TIMING_CODES = {
    "progressive": L.TIMING_PROGRESSIVE,
    "all_at_once": L.TIMING_ALL_AT_ONCE,
    "knock": L.TIMING_KNOCK,
}

CODED_SLOTS: Mapping[str, tuple[int, Mapping[str, int]]] = {
    "ace_rank": (L.P_ACE_RANK, ACE_RANK_CODES),
    "run_suit": (L.P_RUN_SUIT, RUN_SUIT_CODES),
    "group_duplicates": (L.P_GROUP_DUPLICATES, GROUP_DUPLICATES_CODES),
    "joker_replace": (L.P_JOKER_REPLACE, JOKER_REPLACE_CODES),
    "joker_declare": (L.P_JOKER_DECLARE, JOKER_DECLARE_CODES),
    "meld_timing": (L.P_MELD_TIMING, MELD_TIMING_CODES),
    "melds_per_turn": (L.P_MELDS_PER_TURN, MELDS_PER_TURN_CODES),
    "layoff_target": (L.P_LAYOFF_TARGET, LAYOFF_TARGET_CODES),
    "layoff_requires_meld": (L.P_LAYOFF_REQUIRES, LAYOFF_REQUIRES_CODES),
    "stock_exhaustion": (L.P_STOCK_EXHAUSTION, STOCK_EXHAUSTION_CODES),
    "scoring": (L.P_SCORING, SCORING_CODES),
    "dealer_rotation": (L.P_DEALER_ROTATION, DEALER_ROTATION_CODES),
    "gin_opening": (L.P_GIN_OPENING, GIN_OPENING_CODES),
    "shutout": (L.P_SHUTOUT, SHUTOUT_CODES),
}
"""Choice toggles that map one-to-one onto a params slot through a code table."""

PARAM_SLOTS: Mapping[str, tuple[int, int, Mapping[str, int]]] = {
    "going_rummy": (L.P_GOING_RUMMY, L.P_RUMMY_BONUS, GOING_RUMMY_CODES),
    "game_end": (L.P_GAME_END, L.P_GAME_END_VALUE, GAME_END_CODES),
}
"""Parametrised toggles: (form slot, argument slot (0 when the form has none), form codes)."""

FLAG_SLOTS: Mapping[str, int] = {
    "must_discard_to_go_out": L.P_MUST_DISCARD_TO_GO_OUT,
    "upcard": L.P_UPCARD,
    "spade_double": L.P_SPADE_DOUBLE,
    "oklahoma_extra_bonus": L.P_OKLAHOMA_EXTRA,
}
"""On/off toggles stored as 0/1."""

NUMBER_SLOTS: Mapping[str, int] = {
    "jokers": L.P_JOKERS,
    "turn_cap": L.P_TURN_CAP,
    "hand_cap": L.P_HAND_CAP,
    "gin_bonus": L.P_GIN_BONUS,
    "undercut_bonus": L.P_UNDERCUT_BONUS,
    "box_bonus": L.P_BOX_BONUS,
}
"""Integer settings copied as they are (``decks`` depends on the player count)."""

SPECIAL_SLOTS: Mapping[str, int] = {"knock_limit": L.P_KNOCK_LIMIT}
"""Toggles compiled by hand in ``compile_rules`` (a word code or a number)."""

CARD_VALUE_TOGGLES = ("joker_points", "ace_points", "face_values")
"""Toggles that reach the kernels through ``card_values`` rather than ``params``."""

UNSLOTTED_TOGGLES = (
    "strip_8_9_10",
    "joker_limit",
    "joker_slide",
    "deuces_wild",
    "discard_draw",
    "call_rummy",
    "borrowing",
    "rearrange",
    "initial_meld_min",
    "discard_before_initial_meld",
    # §2J-2M: the Continental, Phỏm, Tonk and carousel options (ids 40-59)
    "continental_quick_bonus",
    "continental_special_bonus",
    "start_points",
    "phom_layoff_others",
    "phom_discard_taken_penalty",
    "phom_three_taken_liability",
    "play_direction",
    "tonk_deal",
    "tonk_stock_card_must_play",
    "tonk_meld_immediately",
    "tonk_no_fourth_in_group",
    "tonk_one_layoff_per_turn",
    "tonk_layoff_skips_discard",
    "tonk_flat_out_payment",
    "tonk_drop_penalty",
    "tonk_stock_out",
    "tonk_instant",
    "tonk_super",
    "tonk_wait",
    "carousel_round_bonus_to",
)
"""Toggles with no params slot yet: the engine supports only one value of each (tested)."""

PIP_FACE_VALUE = 10  # J, Q, K under face_values = "ten" (§1.9)
PER_CARD_NATURAL, PER_CARD_JOKER = 1, 2  # scoring = "per_card" (§2G.29)
_UNFILLED = np.iinfo(np.int64).min  # no code or number uses it


@dataclass(frozen=True, eq=False)
class CompiledRules:
    """What the kernels take for one variant at one table size.

    ``params`` is ``int64[layout.N_PARAMS]``; ``card_values`` is ``int64[layout.N_KINDS]``.
    The arrays are plain (writeable) numpy arrays so every kernel sees one array type; do not
    modify them.
    """

    params: np.ndarray
    card_values: np.ndarray
    players: int
    hand_size: int
    decks: int
    rules: Rules


def compile_rules(rules: Rules, players: int, *, audit: bool = False) -> CompiledRules:
    """``rules`` at a table of ``players`` as kernel arrays; ConfigError for a bad player count.

    ``audit`` sets ``P_AUDIT`` (check invariants after every action).
    """
    hand_size, decks = rules.deal_for(players)
    params = np.full(L.N_PARAMS, _UNFILLED, dtype=np.int64)
    params[L.P_PLAYERS] = players
    params[L.P_HAND_SIZE] = hand_size
    params[L.P_DECKS] = decks
    params[L.P_AUDIT] = int(audit)
    params[L.P_SEAT_ROTATION] = 0  # set by the runner for mirrored deals
    params[L.P_DEAL_PER_GAME] = 0  # set by the runner for mirrored deals
    for name, slot in NUMBER_SLOTS.items():
        params[slot] = rules[name]
    for name, slot in FLAG_SLOTS.items():
        params[slot] = int(bool(rules[name]))
    for name, (slot, codes) in CODED_SLOTS.items():
        params[slot] = codes[rules[name]]
    for name, (slot, arg_slot, codes) in PARAM_SLOTS.items():
        form, arg = rules.option(name)
        params[slot] = codes[form]
        params[arg_slot] = 0 if arg is None else arg
    params[L.P_FAMILY] = FAMILY_CODES[rules.family]
    limit = rules["knock_limit"]
    params[SPECIAL_SLOTS["knock_limit"]] = KNOCK_LIMIT_CODES.get(limit, limit)
    if rules["gin_opening"] == "deal_11_10" and rules.family == "gin":
        params[L.P_UPCARD] = 0  # §2C.15: the 11/10 deal has no upcard
    unfilled = np.flatnonzero(params == _UNFILLED)
    if unfilled.size:  # a slot was added to the layout without a rule behind it
        raise RuntimeError(f"params slots {unfilled.tolist()} are not filled by compile_rules")
    return CompiledRules(params, card_values(rules), players, hand_size, decks, rules)


def card_values(rules: Rules) -> np.ndarray:
    """Value of each card kind left in hand, ``int64[N_KINDS]`` (RULES.md §1.9, §2A.3–2A.5).

    Ace = resolved ``ace_points``; 2–10 = pip value; J/Q/K = 10 (or 11/12/13 with
    ``face_values = "rank"``); joker = ``joker_points``. Under ``scoring = "per_card"`` every
    natural card is worth 1 and a joker 2 (§2G.29), so the kernels can score all modes from
    this table.
    """
    values = np.zeros(N_KINDS, dtype=np.int64)
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
