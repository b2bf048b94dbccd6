"""The kernels' params layout, generated from the one declaration table of the toggles.

Every toggle of ``sim.rules.toggles.TOGGLES`` (RULES.md §2, ids 1-59, and the engine-policy
settings) owns one slot of ``params`` (``int64[N_PARAMS]``), in declaration order; a
parametrised toggle (``game_end = "target:100"``) owns a second slot for its number. Then
come the slots that are not toggles (the table size, the resolved pack count, the
runner's settings). Nothing here is written twice: :func:`slot` and :func:`code` read the
table, and the named constants below are only their results, so that kernels (which
freeze module globals when they compile) and readers have names to use.

How a value is coded in its slot:

- ``int`` toggles and integer choices hold the number itself (``joker_points = 25`` is 25);
- word choices hold their index in the declared choices (``ace_rank``: low 0, high 1,
  high_or_low 2, around_corner 3); in a choice that mixes words and numbers
  (``knock_limit``) a word holds ``-1 - index`` so that it never equals a number;
- switches hold 0 or 1;
- parametrised toggles hold the index of their form, and their number (0 for a form
  without one) in the slot ``slot(name) + 1``.
"""

from __future__ import annotations

from sim.rules.toggles import BY_NAME, TOGGLES, Kind, split_param

ENGINE_SLOTS = (
    "players",  # seats at the table
    "hand_size",  # cards dealt to each seat at this table size (RULES.md §1.4)
    "packs",  # 52-card packs at this table size (decks, or the variant's decks_by_players)
    "audit",  # 1: check every invariant after every action (counted, never raised)
    "seat_rotation",  # runner: added to each game's drawn first dealer (mirrored deals)
    "deal_per_game",  # runner: 1 numbers deals per game (mirrored deals), 0 per hand
    "family",  # FAMILY_*: how a knock-family hand opens and scores (knock rummy §3.10 or
    # gin §3.17), until toggles.py declares their scorings as ``scoring`` values (decision 3)
    "mc_seats",  # api.play: 1 when a seat's bot is mcN (the loop stops for its decisions)
)
"""Slots that are not toggles, after the toggles' slots."""


def _slots() -> dict[str, int]:
    slots: dict[str, int] = {}
    for toggle in TOGGLES:
        slots[toggle.name] = len(slots)
        if toggle.kind is Kind.PARAM:
            slots[toggle.name + ":arg"] = len(slots)
    for name in ENGINE_SLOTS:
        slots[name] = len(slots)
    return slots


SLOTS: dict[str, int] = _slots()
N_PARAMS = len(SLOTS)


def slot(name: str) -> int:
    """The params slot of a toggle or engine setting (KeyError for an unknown name)."""
    return SLOTS[name]


def arg_slot(name: str) -> int:
    """The slot holding the number of a parametrised toggle (``target:100`` -> 100)."""
    return SLOTS[name + ":arg"]


def code(name: str, value: int | str | bool) -> int:
    """How ``value`` of toggle ``name`` is written into its slot (module docstring)."""
    toggle = BY_NAME[name]
    if toggle.kind is Kind.SWITCH:
        return int(bool(value))
    if toggle.kind is Kind.INT:
        return int(value)
    if toggle.kind is Kind.PARAM:
        forms = [split_param(str(c))[0] for c in toggle.choices]
        return forms.index(split_param(str(value))[0])
    if isinstance(value, int) and not isinstance(value, bool):
        if value not in toggle.choices and not toggle.extension_int(value):
            raise KeyError(f"{value!r} is not a declared value of {name}")
        return value
    index = toggle.choices.index(value)
    mixed = any(isinstance(c, int) for c in toggle.choices)
    return -1 - index if mixed else index


# ---- names the kernels use (each one a lookup in the table above) -------------------------
P_PLAYERS = slot("players")
P_HAND_SIZE = slot("hand_size")
P_PACKS = slot("packs")
P_AUDIT = slot("audit")
P_JOKERS = slot("jokers")
P_ACE_RANK = slot("ace_rank")
P_STRIP_8_9_10 = slot("strip_8_9_10")
P_RUN_MAX = slot("run_max")
P_REARRANGE = slot("rearrange")
P_RUN_SUIT = slot("run_suit")
P_GROUP_DUPLICATES = slot("group_duplicates")
P_JOKER_DECLARE = slot("joker_declare")
P_JOKER_REPLACE = slot("joker_replace")
P_JOKER_LIMIT = slot("joker_limit")
P_INITIAL_MELD_MIN = slot("initial_meld_min")
P_DISCARD_BEFORE_INITIAL = slot("discard_before_initial_meld")
P_OPENING_ACE_LOW = slot("opening_ace_low")
P_JOKER_SLIDE = slot("joker_slide")
P_JOKER_SLIDE_REPEAT = slot("joker_slide_repeat")
P_BORROWING = slot("borrowing")
P_GO_OUT_PATTERN = slot("go_out_pattern")
P_DEUCES_WILD = slot("deuces_wild")
P_QUICK_BONUS = slot("continental_quick_bonus")
P_SPECIAL_BONUS = slot("continental_special_bonus")
P_START_POINTS = slot("start_points")

P_UPCARD = slot("upcard")
P_CALL_RUMMY = slot("call_rummy")
P_DISCARD_DRAW = slot("discard_draw")
P_MELD_TIMING = slot("meld_timing")
P_MELDS_PER_TURN = slot("melds_per_turn")
P_LAYOFF_TARGET = slot("layoff_target")
P_LAYOFF_REQUIRES_MELD = slot("layoff_requires_meld")
P_MUST_DISCARD_TO_GO_OUT = slot("must_discard_to_go_out")
P_GOING_RUMMY = slot("going_rummy")
P_GOING_RUMMY_ARG = arg_slot("going_rummy")
P_STOCK_EXHAUSTION = slot("stock_exhaustion")
P_SCORING = slot("scoring")
P_GAME_END = slot("game_end")
P_GAME_END_ARG = arg_slot("game_end")
P_DEALER_ROTATION = slot("dealer_rotation")
P_TURN_CAP = slot("turn_cap")
P_HAND_CAP = slot("hand_cap")
P_SEAT_ROTATION = slot("seat_rotation")
P_DEAL_PER_GAME = slot("deal_per_game")
P_FAMILY = slot("family")
P_MC_SEATS = slot("mc_seats")
P_KNOCK_LIMIT = slot("knock_limit")
P_GIN_OPENING = slot("gin_opening")
P_GIN_BONUS = slot("gin_bonus")
P_UNDERCUT_BONUS = slot("undercut_bonus")
P_BOX_BONUS = slot("box_bonus")
P_SHUTOUT = slot("shutout")
P_SPADE_DOUBLE = slot("spade_double")
P_OKLAHOMA_EXTRA = slot("oklahoma_extra_bonus")
P_CHIP_STACK = slot("chip_stack")
P_TONK_FLAT_OUT = slot("tonk_flat_out_payment")
P_TONK_DROP_PENALTY = slot("tonk_drop_penalty")
P_TONK_STOCK_OUT = slot("tonk_stock_out")
P_TONK_INSTANT = slot("tonk_instant")
P_TONK_SUPER = slot("tonk_super")
P_TONK_NO_FOURTH = slot("tonk_no_fourth_in_group")
P_TONK_MELD_AT_ONCE = slot("tonk_meld_immediately")
P_TONK_STOCK_CARD = slot("tonk_stock_card_must_play")
P_TONK_ONE_LAYOFF = slot("tonk_one_layoff_per_turn")
P_TONK_LAYOFF_SKIPS_DISCARD = slot("tonk_layoff_skips_discard")
P_TONK_WAIT = slot("tonk_wait")  # off codes -1 (a word among numbers); 1 or 3: the turns
P_PHOM_LAYOFF_OTHERS = slot("phom_layoff_others")
P_PHOM_TAKEN_PENALTY = slot("phom_discard_taken_penalty")
P_PHOM_THREE_TAKEN = slot("phom_three_taken_liability")
P_PLAY_DIRECTION = slot("play_direction")
P_CAROUSEL_BONUS_TO = slot("carousel_round_bonus_to")

ACE_LOW = code("ace_rank", "low")
ACE_HIGH = code("ace_rank", "high")
ACE_HIGH_OR_LOW = code("ace_rank", "high_or_low")
ACE_AROUND_CORNER = code("ace_rank", "around_corner")
RUNS_STRIPPED = 4
"""The run layout of the 40-card pack (``strip_8_9_10``, §2A.7: ace low, 7 and J adjacent),
beside ``ace_rank``'s codes, which are the other layouts (``melds.run_layout``)."""
assert RUNS_STRIPPED not in (ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER)
RUN_SAME_SUIT = code("run_suit", "same_suit")
RUN_ANY_SUIT = code("run_suit", "any_suit")
GROUP_DUPLICATES_FORBIDDEN = code("group_duplicates", "forbidden")
GROUP_DUPLICATES_ALLOWED = code("group_duplicates", "allowed")
JDECLARE_INFERRED = code("joker_declare", "inferred")
JDECLARE_THREE_CARD_GROUP = code("joker_declare", "three_card_group")
JDECLARE_ALWAYS = code("joker_declare", "always")
JREPLACE_NONE = code("joker_replace", "none")
JREPLACE_STEAL = code("joker_replace", "steal_by_replacement")
JREPLACE_TO_HAND = code("joker_replace", "to_hand")
JREPLACE_REUSE = code("joker_replace", "reuse_same_turn")

JLIMIT_NATURALS = code("joker_limit", "not_more_than_naturals")
BORROW_OFF = code("borrowing", "off")
BORROW_OWN = code("borrowing", "own")
DBI_ONLY_FOR_INITIAL = code("discard_before_initial_meld", "only_for_initial_meld")
OPENING_ACE_LOW_ONE = code("opening_ace_low", 1)  # 1: the number itself; ace_points: -1
TIMING_PROGRESSIVE = code("meld_timing", "progressive")
TIMING_KNOCK = code("meld_timing", "knock")
TIMING_ALL_AT_ONCE = code("meld_timing", "all_at_once")
TIMING_PHOM_FINAL = code("meld_timing", "phom_final")
PATTERN_NONE = code("go_out_pattern", "none")
PATTERN_RUNS_4_3_3 = code("go_out_pattern", "runs_4_3_3")  # §3.15 Nowrang
PATTERN_CONTINENTAL = code("go_out_pattern", "continental")  # §3.11 Continental
KNOCK_UNLIMITED = code("knock_limit", "unlimited")
KNOCK_UPCARD = code("knock_limit", "upcard")
GIN_OPENING_UPCARD_OFFER = code("gin_opening", "upcard_offer")
GIN_OPENING_DEAL_11_10 = code("gin_opening", "deal_11_10")
SHUTOUT_GAME_BONUS_200 = code("shutout", "game_bonus_200")
SHUTOUT_DOUBLE_ALL = code("shutout", "double_all")
STOCK_VOID_AT_TWO = code("stock_exhaustion", "void_at_two")
MELDS_UNLIMITED = code("melds_per_turn", "unlimited")
MELDS_ONE = code("melds_per_turn", "one")
MELDS_ONE_OR_LAYOFF = code("melds_per_turn", "one_or_layoff")
LAYOFF_ANY = code("layoff_target", "any")
LAYOFF_OWN_ONLY = code("layoff_target", "own_only")
LAYOFF_NONE = code("layoff_target", "none")
LREQ_OFF = code("layoff_requires_meld", "off")
LREQ_AFTER_FIRST_MELD = code("layoff_requires_meld", "after_first_meld")
LREQ_AFTER_OWN_LAYOFF = code("layoff_requires_meld", "after_own_layoff")
RUMMY_OFF = code("going_rummy", "off")
RUMMY_DOUBLE = code("going_rummy", "double")
RUMMY_BONUS = code("going_rummy", "bonus:N")
STOCK_TURN_OVER = code("stock_exhaustion", "turn_over")
STOCK_SHUFFLE_EXCEPT_TOP = code("stock_exhaustion", "shuffle_except_top")
STOCK_BLOCK_DIFFERENCE = code("stock_exhaustion", "block_difference")
STOCK_BLOCK_TOTALS = code("stock_exhaustion", "block_totals")
STOCK_SHUFFLE_ALL = code("stock_exhaustion", "shuffle_all")  # §3.6 default (not in seed)
STOCK_DRAWN_HAND_CARRY = code("stock_exhaustion", "drawn_hand_carry")  # §3.21 Conquian
REARRANGE_OWN = code("rearrange", "own")
REARRANGE_TABLE = code("rearrange", "table")  # §3.16 Carousel
STOCK_FINAL_TURNS = code("stock_exhaustion", "final_turns")  # §3.16 Carousel
BONUS_TO_ALL_PLAYERS = code("carousel_round_bonus_to", "all_players")  # §2M.59
XD_ANY_CARD = code("discard_draw", "any_card")
XD_TOP_PLUS_ONE = code("discard_draw", "top_plus_one")
SCORE_PIP_TO_WINNER = code("scoring", "pip_to_winner")
SCORE_PER_CARD = code("scoring", "per_card")
SCORE_PENALTY = code("scoring", "penalty")
SCORE_UNMELDED = code("scoring", "unmelded_to_winner")  # §3.7 Boat House
SCORE_OWN_MELDS = code("scoring", "own_melds_from_each")  # §3.12 Queen City
SCORE_CONTINENTAL = code("scoring", "continental")  # §3.11 Continental
END_TARGET = code("game_end", "target:T")
END_FIXED_HANDS = code("game_end", "fixed_hands:N")
END_SINGLE_HAND = code("game_end", "single_hand")
END_PENALTY_LIMIT = code("game_end", "penalty_limit:L")
END_DEALS_EACH = code("game_end", "deals_each:R")
COUNTERCLOCKWISE = code("play_direction", "counterclockwise")
DEALER_LEFT = code("dealer_rotation", "left")
DEALER_WINNER_DEALS = code("dealer_rotation", "winner_deals")
DEALER_LOSER_SITS_OUT = code("dealer_rotation", "loser_sits_out")
DROP_TWO_TO_EACH_LE = code("tonk_drop_penalty", "two_to_each_le")
DROP_LOWEST_ONLY = code("tonk_drop_penalty", "lowest_only")
DROP_PER_PLAYER_TO_LOWEST = code("tonk_drop_penalty", "per_player_to_lowest")
DROP_TWO_TO_ALL = code("tonk_drop_penalty", "two_to_all")
TONK_STOCK_LOWEST = code("tonk_stock_out", "lowest_collects")
TONK_STOCK_REDEAL = code("tonk_stock_out", "redeal")
INSTANT_49_50 = code("tonk_instant", "49_50")
INSTANT_47_50 = code("tonk_instant", "47_50")
INSTANT_50 = code("tonk_instant", 50)
INSTANT_LE15 = code("tonk_instant", "le15")
INSTANT_LE11 = code("tonk_instant", "le11")
INSTANT_RANKED = code("tonk_instant", "ranked")
SUPER_LE9 = code("tonk_super", "le9")

# ---- families and the knock families' fixed amounts -------------------------------------
FAMILY_RUMMY = 0  # progressive melding (§1, §3.1-3.5)
FAMILY_KNOCK_RUMMY = 1  # §3.10: melds stay in hand, knock, differences, rum bonus
FAMILY_GIN = 2  # §3.17, §3.20: knock or gin, the defender lays off, undercut, game bonuses
FAMILY_TONK = 3  # §3.22: progressive melding settled in chips, instant tonks, the drop
FAMILY_PHOM = 4  # §3.13: concealed melds, conditional takes, four turns, a showdown, chips
FAMILY_CONQUIAN = 5  # §3.21: melds only with the exposed card, forcing, 11 melded win a tento
FAMILY_CAROUSEL = 6  # §3.16: draw up to 3, a meld action re-forms the table, knock at 5

GAME_BONUS = 100  # §3.17: bonus for winning a gin game (200 on a shutout)
SHUTOUT_GAME_BONUS = 200
RUM_BONUS = 25  # §3.10 rule 2: a hand won with 0 deadwood collects 25 from each opponent
KNOCK_PENALTY = 10  # §3.10 rule 4: an undercut knocker pays 10
CAROUSEL_UNDERCUT = 10  # §3.16: a winner who is not the knocker scores 10 more
CAROUSEL_ALL_PLAYED = 25  # §3.16: winning by playing all one's cards
CAROUSEL_GAME_BONUS = 100  # §3.16: each player at the target when the game ends
CAROUSEL_ROUND_BONUS = 25  # §3.16, §2M.59: per round won, at the game's end

# ---- how a hand ended and the bots: the dataset's codes (``sim.engine.rows``) ------------------
from sim.engine.rows import (  # noqa: E402, F401 (re-exported for the kernels)
    BOT_CAMPER,
    BOT_CAREFUL,
    BOT_CAREFUL_NODISCARDTAKE,
    BOT_CAREFUL_NOLAYOFF,
    BOT_CAREFUL_OUTFIRST,
    BOT_GREEDY,
    BOT_MC32,
    BOT_MC128,
    BOT_NAMES,
    BOT_RANDOM,
    BOT_SIMPLE,
    REASON_BLOCK,
    REASON_CAUGHT,
    REASON_DROP,
    REASON_EXHAUSTED,
    REASON_GIN,
    REASON_KNOCK,
    REASON_NAMES,
    REASON_REDEAL,
    REASON_SHOWDOWN,
    REASON_STALLED,
    REASON_STOCK_OUT,
    REASON_TONK,
    REASON_UNDERCUT,
    REASON_VOID,
    REASON_WENT_OUT,
    REASON_WENT_RUMMY,
    REASON_WENT_U,
)

# ---- what each bot plays: a base policy and restriction flags (docs/bots.md) ---------------
RESTRICT_NO_DISCARD_TAKE = 1  # never takes a discard when it has the choice
RESTRICT_NO_LAYOFF = 2  # never lays off on a table meld
RESTRICT_OUT_FIRST = 4  # knocks / goes out at the first legal chance, never holds for rummy
RESTRICT_CAMPER = 8  # knocks only early, then plays for gin; holds for rummy (``careful.py``)
RESTRICT_MC = 16  # Monte Carlo decisions (``sim.engine.mc``), its samples in the flags' high bits
MC_SAMPLES_SHIFT = 8  # flags >> MC_SAMPLES_SHIFT: the samples a candidate move (mcN's N)
BOT_PLAYS = {
    BOT_RANDOM: (BOT_RANDOM, 0),
    BOT_GREEDY: (BOT_GREEDY, 0),
    BOT_CAREFUL: (BOT_CAREFUL, 0),
    BOT_SIMPLE: (BOT_SIMPLE, 0),
    BOT_CAREFUL_NODISCARDTAKE: (BOT_CAREFUL, RESTRICT_NO_DISCARD_TAKE),
    BOT_CAREFUL_NOLAYOFF: (BOT_CAREFUL, RESTRICT_NO_LAYOFF),
    BOT_CAREFUL_OUTFIRST: (BOT_CAREFUL, RESTRICT_OUT_FIRST),
    BOT_CAMPER: (BOT_CAREFUL, RESTRICT_CAMPER),
    # where the Monte Carlo does not decide (sim.engine.mc), mcN plays greedy
    BOT_MC32: (BOT_GREEDY, RESTRICT_MC | 32 << MC_SAMPLES_SHIFT),
    BOT_MC128: (BOT_GREEDY, RESTRICT_MC | 128 << MC_SAMPLES_SHIFT),
}
"""Each bot code (``BOT_NAMES``) as the kernels play it: ``(policy, flags)``. The kernels'
``bots`` array holds every seat's policy, then every seat's flags (``api.kernel_bots``);
the policy code is the one every dispatch compares, so a restricted bot is its base policy
everywhere a flag is not read (``restrict.bot_flags``)."""
assert sorted(BOT_PLAYS) == list(range(len(BOT_NAMES)))
