"""Every rule toggle of RULES.md §2A–2M (ids 1–59), declared once, plus two engine-policy settings.

A toggle declaration says what values exist in RULES.md (``choices`` or ``low``/``high``) and,
separately, which of them the engine can play today (``supported`` / ``supported_high``).
Values that exist but are not supported are rejected by :meth:`Toggle.check` with a message
naming the RULES.md section; later engine work only widens ``supported``.

Value kinds, as written in TOML:

- ``int``: an integer in ``low..high`` (``decks = 2``).
- ``choice``: one of ``choices`` (``ace_rank = "high_or_low"``; ``joker_points = 25``); a
  choice with ``low``/``high`` also takes any integer in that range, a simulator extension
  listed in docs/variants.md (``knock_limit = 7``: what ``rummysim tune`` turns).
- ``switch``: on/off, written ``true``/``false`` or ``"on"``/``"off"``; stored as ``bool``.
- ``param``: a choice whose options may carry an integer, ``"form:N"``
  (``game_end = "target:150"``, ``going_rummy = "bonus:10"``). A bare form that has a default
  argument (``"bonus"``) means ``"bonus:<default>"``. Stored normalised as ``"form:N"``.

Variant-only values marked † in RULES.md are declared with the toggle they belong to
(``stock_exhaustion = "void_at_two"``); the rules model allows them only in their family.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from sim.rules.errors import ConfigError, show, unknown_key

Value = int | str | bool

MAX_INT = 2**31 - 1  # every integer setting must fit the kernels' int64 params comfortably
EXTENSION_IDS_FROM = 101  # ids of simulator extensions (``Toggle.extension``)


class Kind(StrEnum):
    """How a toggle's value is written and checked."""

    INT = "int"
    """An integer in a range."""
    CHOICE = "choice"
    """One of a fixed set of strings or integers."""
    SWITCH = "switch"
    """On or off."""
    PARAM = "param"
    """One of a fixed set of forms, some carrying an integer argument (``target:100``)."""


@dataclass(frozen=True)
class Toggle:
    """One setting: its name, kind, allowed and supported values, default and meaning.

    ``section`` is the RULES.md section (``"2A.4"``); ``id`` is the toggle number in RULES.md
    §2 (``None`` for engine-policy settings, which are not rules). For ``param`` toggles,
    ``choices`` holds forms such as ``"bonus:N"`` and ``arg_defaults`` the argument used when
    the form is written bare.
    """

    id: int | None
    name: str
    kind: Kind
    default: Value
    meaning: str
    section: str
    choices: tuple[Value, ...] = ()
    low: int | None = None
    high: int | None = None
    supported: tuple[Value, ...] | None = None  # None: every declared value (int: listed ones)
    supported_high: int | None = None  # int toggles: the engine's upper limit
    arg_defaults: tuple[tuple[str, int], ...] = ()

    @property
    def extension(self) -> bool:
        """True for simulator extensions (ids from 101): rules a variant of RULES.md §3 needs
        that §2 has no toggle for, each listed in docs/variants.md."""
        return self.id is not None and self.id >= EXTENSION_IDS_FROM

    @property
    def policy(self) -> bool:
        """True for engine-policy settings (turn and hand caps), which are not game rules."""
        return self.id is None

    def allowed_text(self) -> str:
        """What RULES.md declares, for messages: ``low, high`` or ``integer >= 1``."""
        if self.kind is Kind.INT:
            return _range_text(self.low, self.high)
        if self.kind is Kind.SWITCH:
            return "on, off (or true, false)"
        return ", ".join(str(c) for c in self.choices) + self._extension_text()

    def _extension_text(self) -> str:
        """A choice's integer range (simulator extension), for messages."""
        if self.kind is not Kind.CHOICE or self.low is None:
            return ""
        return f"; simulator extension: {_range_text(self.low, self.high)}"

    def extension_int(self, value: object) -> bool:
        """Is ``value`` an integer a choice takes beyond its RULES.md values (``low..high``)?"""
        return (
            self.kind is Kind.CHOICE
            and self.low is not None
            and _is_int(value)
            and value not in self.choices
            and self.low <= value <= (MAX_INT if self.high is None else self.high)
        )

    def supported_text(self) -> str:
        """What the engine plays today, for messages."""
        if self.kind is Kind.INT and self.supported is None:
            return _range_text(self.low, self.supported_high)
        if self.kind is Kind.SWITCH:
            return ", ".join("on" if v else "off" for v in self.supported_values())
        return ", ".join(str(c) for c in self.supported_values()) + self._extension_text()

    def supported_values(self) -> tuple[Value, ...]:
        """Supported choices (``param``: supported form names without arguments)."""
        if self.supported is not None:
            return self.supported
        if self.kind is Kind.SWITCH:
            return (False, True)
        if self.kind is Kind.PARAM:
            return tuple(split_param(str(c))[0] for c in self.choices)
        return self.choices

    def check(self, value: object) -> Value:
        """``value`` normalised; ConfigError (key = this toggle) if wrong or unsupported."""
        checker = {
            Kind.INT: self._check_int,
            Kind.CHOICE: self._check_choice,
            Kind.SWITCH: self._check_switch,
            Kind.PARAM: self._check_param,
        }[self.kind]
        return checker(value)

    def _error(self, problem: str, value: object, allowed: str | None = None) -> ConfigError:
        return ConfigError(problem, key=self.name, value=value, allowed=allowed)

    def _unsupported(self, value: object) -> ConfigError:
        problem = f"{show(value)} is not supported by the engine yet (RULES.md §{self.section})"
        return self._error(problem, value, self.supported_text())

    def _check_int(self, value: object) -> int:
        if not _is_int(value):
            raise self._error(
                f"expected an integer, got {_type_name(value)} {show(value)}",
                value,
                self.allowed_text(),
            )
        high = MAX_INT if self.high is None else self.high
        if (self.low is not None and value < self.low) or value > high:
            raise self._error(f"{value} is out of range", value, self.allowed_text())
        if self.supported_high is not None and value > self.supported_high:
            raise self._unsupported(value)
        if self.supported is not None and value not in self.supported:
            raise self._unsupported(value)
        return value

    def _check_choice(self, value: object) -> Value:
        kinds = {type(c) for c in self.choices}
        if not (isinstance(value, str) and str in kinds) and not (_is_int(value) and int in kinds):
            wanted = " or ".join(sorted({"a string" if k is str else "an integer" for k in kinds}))
            raise self._error(
                f"expected {wanted}, got {_type_name(value)} {show(value)}",
                value,
                self.allowed_text(),
            )
        if self.extension_int(value):
            return value
        if value not in self.choices:
            raise self._error(f"{show(value)} is not allowed", value, self.allowed_text())
        if value not in self.supported_values():
            raise self._unsupported(value)
        return value

    def _check_switch(self, value: object) -> bool:
        words = {"on": True, "off": False}
        if isinstance(value, bool):
            flag = value
        elif isinstance(value, str) and value in words:
            flag = words[value]
        elif isinstance(value, str):
            raise self._error(f"{show(value)} is not allowed", value, self.allowed_text())
        else:
            raise self._error(
                f"expected true/false or 'on'/'off', got {_type_name(value)} {show(value)}",
                value,
                self.allowed_text(),
            )
        if flag not in self.supported_values():
            raise self._unsupported("on" if flag else "off")
        return flag

    def _check_param(self, value: object) -> str:
        if not isinstance(value, str):
            raise self._error(
                f"expected a string, got {_type_name(value)} {show(value)}",
                value,
                self.allowed_text(),
            )
        forms = dict(
            split_param(str(c)) for c in self.choices
        )  # form -> None if it takes no number
        form, _, arg_text = value.partition(":")
        if form not in forms:
            raise self._error(f"{show(value)} is not allowed", value, self.allowed_text())
        if forms[form] is None:
            if arg_text:
                raise self._error(f"{show(form)} takes no number", value, self.allowed_text())
            normalised = form
        else:
            arg = self._param_arg(form, arg_text.strip(), value)
            normalised = f"{form}:{arg}"
        if form not in self.supported_values():
            raise self._unsupported(value)
        return normalised

    def _param_arg(self, form: str, arg_text: str, value: str) -> int:
        if not arg_text:
            default = dict(self.arg_defaults).get(form)
            if default is None:
                raise self._error(f"{show(form)} needs a number", value, self.allowed_text())
            return default
        if not arg_text.isdigit() or not 1 <= int(arg_text) <= MAX_INT:
            raise self._error(
                f"{show(value)}: the number after '{form}:' must be a positive integer",
                value,
                self.allowed_text(),
            )
        return int(arg_text)


def split_param(value: str) -> tuple[str, int | None]:
    """``"target:100"`` -> ``("target", 100)``; ``"single_hand"`` -> ``("single_hand", None)``.

    A declared form such as ``"bonus:N"`` gives ``("bonus", 0)`` (it takes an argument).
    """
    form, sep, arg = value.partition(":")
    if not sep:
        return form, None
    return form, int(arg) if arg.isdigit() else 0


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _type_name(value: object) -> str:
    names = {bool: "boolean", int: "integer", str: "string", float: "float", list: "array"}
    return names.get(type(value), "table" if isinstance(value, Mapping) else type(value).__name__)


def _range_text(low: int | None, high: int | None) -> str:
    if high is None:
        return f"integer >= {low}"
    return f"integer {low}..{high}"


def _int(id: int | None, name: str, default: int, section: str, meaning: str, **kw) -> Toggle:
    return Toggle(id, name, Kind.INT, default, meaning, section, **kw)


def _choice(id: int, name: str, default: Value, section: str, meaning: str, **kw) -> Toggle:
    return Toggle(id, name, Kind.CHOICE, default, meaning, section, **kw)


def _switch(id: int, name: str, default: bool, section: str, meaning: str, **kw) -> Toggle:
    return Toggle(id, name, Kind.SWITCH, default, meaning, section, **kw)


def _param(id: int, name: str, default: str, section: str, meaning: str, **kw) -> Toggle:
    return Toggle(id, name, Kind.PARAM, default, meaning, section, **kw)


# fmt: off
TOGGLES: tuple[Toggle, ...] = (
    # ---- 2A. Cards, ranking, values -------------------------------------------------------
    _int(1, "decks", 1, "2A.1", "number of 52-card packs shuffled together",
         low=1, supported_high=4),
    _int(2, "jokers", 0, "2A.2", "jokers in the whole shoe (wild)",
         low=0, supported_high=8),
    _choice(3, "joker_points", 15, "2A.3", "penalty value of a joker left in hand",
            choices=(2, 15, 25, 30)),
    _choice(4, "ace_rank", "low", "2A.4",
            "where the ace sits in runs: A-2-3 only, Q-K-A only, either end, or wrapping",
            choices=("low", "high", "high_or_low", "around_corner")),
    _choice(5, "ace_points", "auto", "2A.5",
            "penalty value of an ace in hand; auto follows ace_rank (low 1, high 10, "
            "high_or_low 15, around_corner 11)",
            choices=("auto", 1, 10, 11, 15)),
    _choice(6, "run_suit", "same_suit", "2A.6", "whether the cards of a run must share one suit",
            choices=("same_suit", "any_suit")),
    _switch(7, "strip_8_9_10", False, "2A.7",
            "40-card pack without 8s, 9s and 10s (7 and J adjacent; the ace low)"),
    _choice(8, "face_values", "ten", "2A.8", "J/Q/K count 10 each, or 11/12/13",
            choices=("ten", "rank")),
    # ---- 2B. Melds and wild cards ---------------------------------------------------------
    _choice(9, "group_duplicates", "forbidden", "2B.9",
            "whether identical cards (multi-pack) may sit in one group",
            choices=("forbidden", "allowed")),
    _choice(10, "joker_limit", "none", "2B.10",
            "a meld may not hold more jokers than natural cards",
            choices=("none", "not_more_than_naturals")),
    _choice(11, "joker_declare", "inferred", "2B.11",
            "when a melded joker's represented card must be stated",
            choices=("inferred", "three_card_group", "always")),
    _choice(12, "joker_replace", "none", "2B.12",
            "whether and how a melded joker may be taken back by supplying its natural card",
            choices=("none", "to_hand", "reuse_same_turn", "steal_by_replacement"),
            supported=("none", "to_hand", "reuse_same_turn", "steal_by_replacement")),
    _switch(13, "joker_slide", False, "2B.13",
            "a joker at the end of a run may move to the other end on a lay-off"),
    _switch(14, "deuces_wild", False, "2B.14",
            "2s are wild as well as jokers (played under go_out_pattern 'continental', §3.11)"),
    # ---- 2C. Drawing and discarding -------------------------------------------------------
    _switch(15, "upcard", True, "2C.15",
            "turn one card face up after the deal to start the discard pile (off: Tonk, where "
            "the first player draws from the stock, and Phỏm and Nowrang (the rummy family "
            "under all_at_once), where he is dealt one card more and opens by discarding)"),
    _choice(16, "discard_draw", "top", "2C.16", "which discard-pile cards a player may draw",
            choices=("top", "any_card", "top_plus_one")),
    _switch(17, "call_rummy", False, "2C.17",
            "out-of-turn claim of a discard that could be laid off (§3.2)"),
    # ---- 2D. Melding and laying off -------------------------------------------------------
    _choice(18, "meld_timing", "progressive", "2D.18",
            "when melds reach the table: during play, all at once, or never (knock)",
            choices=("progressive", "all_at_once", "knock", "phom_final")),
    _choice(19, "melds_per_turn", "unlimited", "2D.19",
            "new melds a player may lay down in one turn",
            choices=("unlimited", "one", "one_or_layoff")),
    _choice(20, "layoff_target", "any", "2D.20", "whose melds a player may lay off on",
            choices=("any", "own_only", "none")),
    _choice(21, "layoff_requires_meld", "off", "2D.21",
            "what a player must have done before laying off on others' melds",
            choices=("off", "after_first_meld", "after_own_layoff")),
    _choice(22, "borrowing", "off", "2D.22", "take one card from a table meld into a new meld",
            choices=("off", "own", "any")),
    _choice(23, "rearrange", "none", "2D.23", "whether table melds may be rearranged",
            choices=("none", "own", "table")),
    _int(24, "initial_meld_min", 0, "2D.24",
         "minimum card value of the melds of a player's first lay-down turn (RULES.md: 0, 40, "
         "51; any other integer up to 200 is a declared simulator extension, docs/variants.md)",
         low=0, high=200),
    _choice(25, "discard_before_initial_meld", "free", "2D.25",
            "whether the discard top may be taken before one's initial meld",
            choices=("free", "only_for_initial_meld")),
    # ---- 2E. Going out ---------------------------------------------------------------------
    _switch(26, "must_discard_to_go_out", False, "2E.26", "the last card must be discarded"),
    _param(27, "going_rummy", "off", "2E.27",
           "bonus for going out in one turn with nothing played earlier: double, or +N points",
           choices=("off", "double", "bonus:N"), arg_defaults=(("bonus", 10),)),
    # ---- 2F. Stock exhaustion -------------------------------------------------------------
    _choice(28, "stock_exhaustion", "turn_over", "2F.28",
            "what happens when the stock runs out (shuffle_all: Throw Down's whole discard area "
            "shuffled, its top turned up, §3.6; Tonk's lowest_collects and redeal are set "
            "through tonk_stock_out, §2L.55)",
            choices=("turn_over", "shuffle_except_top", "block_difference", "block_totals",
                     "void_at_two", "final_turns", "lowest_collects", "redeal",
                     "drawn_hand_carry", "shuffle_all"),
            supported=("turn_over", "shuffle_except_top", "block_difference", "block_totals",
                       "void_at_two", "shuffle_all", "lowest_collects", "redeal",
                       "drawn_hand_carry", "final_turns")),
    # ---- 2G. Scoring ----------------------------------------------------------------------
    _choice(29, "scoring", "pip_to_winner", "2G.29",
            "winner takes opponents' pips, 1 per card, or each player loses his own pips; "
            "all_at_once only: the opponents' unmelded pips (Boat House, §3.7), his own "
            "melds' pips from each opponent (Queen City, §3.12), or Continental's zero-sum "
            "payment from each opponent: 1, 2 per joker melded, and the §2J bonuses (§3.11)",
            choices=("pip_to_winner", "per_card", "penalty", "unmelded_to_winner",
                     "own_melds_from_each", "continental")),
    # ---- 2H. Game end and dealing ---------------------------------------------------------
    _param(30, "game_end", "target:100", "2H.30",
           "first to T points, most after N hands, every hand a game, first to lose L, or "
           "most after every player dealt R times (fixed_hands = R x players, Phỏm §3.13)",
           choices=("target:T", "fixed_hands:N", "single_hand", "penalty_limit:L",
                    "deals_each:R"),
           arg_defaults=(("target", 100), ("fixed_hands", 10), ("penalty_limit", 100),
                         ("deals_each", 3))),
    _choice(31, "dealer_rotation", "left", "2H.31", "who deals the next hand",
            choices=("left", "winner_deals", "loser_sits_out")),
    # ---- 2I. Knock / Gin family -----------------------------------------------------------
    _choice(32, "knock_limit", 10, "2I.32",
            "most deadwood a knocker may keep after his discard (upcard: the upcard's value; "
            "any other integer 0..10 is a simulator extension)",
            choices=("unlimited", 10, 5, "upcard"), low=0, high=10),
    _choice(33, "gin_opening", "upcard_offer", "2I.33",
            "gin's first turn: the upcard is offered to each player, or 11/10 cards and no upcard",
            choices=("upcard_offer", "deal_11_10")),
    _choice(34, "gin_bonus", 20, "2I.34",
            "gin: bonus for going gin (any other integer 0..200 is a simulator extension)",
            choices=(20, 25), low=0, high=200),
    _choice(35, "undercut_bonus", 10, "2I.35",
            "gin: bonus for undercutting the knocker (any other integer 0..200 is a simulator "
            "extension)", choices=(10, 25), low=0, high=200),
    _choice(36, "box_bonus", 20, "2I.36",
            "gin: bonus per hand won, added at game end (not toward the target)",
            choices=(20, 25)),
    _choice(37, "shutout", "game_bonus_200", "2I.37",
            "gin: when the loser has 0 points, the game bonus is 200 or the winner's total doubles",
            choices=("game_bonus_200", "double_all")),
    _switch(38, "spade_double", False, "2I.38",
            "gin: a spade upcard doubles that hand's score, bonuses included"),
    _switch(39, "oklahoma_extra_bonus", False, "2I.39",
            "gin: side bonuses (undercut +20/+40, gin +40/+80), not counted toward the target"),
    # ---- 2J. Continental ------------------------------------------------------------------
    _switch(40, "continental_quick_bonus", False, "2J.40",
            "going out before drawing: +10 from each opponent; after one draw: +7"),
    _switch(41, "continental_special_bonus", False, "2J.41",
            "+10 from each opponent for going out with no wild card, +10 for all 15 in one suit"),
    _int(42, "start_points", 100, "2J.42",
         "points every player starts the game with (scoring 'continental' only)", low=0),
    # ---- 2K. Phỏm -------------------------------------------------------------------------
    _switch(43, "phom_layoff_others", True, "2K.43",
            "in the final turn a player may lay off on other players' melds"),
    _switch(44, "phom_discard_taken_penalty", False, "2K.44",
            "the discarder gives 1 chip to a player who takes his discard"),
    _switch(45, "phom_three_taken_liability", False, "2K.45",
            "a discarder whose discards were taken 3 times pays the whole settlement of an Ù"),
    _choice(46, "play_direction", "clockwise", "2K.46", "the direction of play",
            choices=("clockwise", "counterclockwise")),
    # ---- 2L. Tonk -------------------------------------------------------------------------
    _choice(47, "tonk_deal", 5, "2L.47", "tonk: cards dealt to each player",
            choices=(5, 7)),
    _switch(48, "tonk_stock_card_must_play", False, "2L.48",
            "tonk: a card drawn from the stock must be played on the table or discarded"),
    _switch(49, "tonk_meld_immediately", False, "2L.49",
            "tonk: a complete meld may not be held in hand; it is laid down at once"),
    _switch(50, "tonk_no_fourth_in_group", False, "2L.50",
            "tonk: a 3-card group on the table cannot receive a 4th card"),
    _switch(51, "tonk_one_layoff_per_turn", False, "2L.51",
            "tonk: at most one card laid off per turn"),
    _switch(52, "tonk_layoff_skips_discard", False, "2L.52",
            "tonk: a player who laid off this turn does not discard"),
    _switch(53, "tonk_flat_out_payment", False, "2L.53",
            "tonk: going out always pays 1 chip from each opponent"),
    _choice(54, "tonk_drop_penalty", "two_to_each_le", "2L.54",
            "tonk: what a dropper who is not lowest pays (§3.22)",
            choices=("two_to_each_le", "lowest_only", "per_player_to_lowest", "two_to_all")),
    _choice(55, "tonk_stock_out", "lowest_collects", "2L.55",
            "tonk: an empty stock pays the lowest hand, or the hand is redealt",
            choices=("lowest_collects", "redeal")),
    _choice(56, "tonk_instant", "49_50", "2L.56",
            "tonk: which dealt hands are an instant tonk (47_50 with strip_8_9_10)",
            choices=("49_50", "47_50", 50, "le15", "le11", "ranked")),
    _choice(57, "tonk_super", "off", "2L.57",
            "tonk: a dealt hand of 9 points or less collects 3 chips from each opponent",
            choices=("off", "le9")),
    _choice(58, "tonk_wait", "off", "2L.58",
            "tonk: turns a meld owner waits when someone lays off on his melds (espera)",
            choices=("off", 1, 3)),
    # ---- 2M. [001] ------------------------------------------------------------------------
    _choice(59, "carousel_round_bonus_to", "others_only", "2M.59",
            "carousel: who receives the end-of-game 25-per-round-won bonus",
            choices=("others_only", "all_players")),
    # ---- simulator extensions (ids 101+: values RULES.md needs but lacks a toggle for) -----
    _choice(101, "opening_ace_low", "ace_points", "2D.24",
            "simulator extension: what an ace low in a run (A-2-3) counts toward "
            "initial_meld_min: the ace's value (Caloochi, literal) or 1 (German Rummy, §3.14)",
            choices=("ace_points", 1)),
    _switch(102, "joker_slide_repeat", False, "2B.13",
            "simulator extension: a joker that has slid may slide again (Double Rum, §3.9 "
            "open point 2; RULES.md's default is once)"),
    _int(103, "chip_stack", 50, "2H.30",
         "simulator extension: chips each player starts a chip game with (Tonk); a player "
         "left with none ends the game (Tonk §3.22 open point 6: 'when someone runs out of chips')",
         low=1),
    _int(104, "run_max", 13, "1.3",
         "simulator extension: the most cards a run may hold (Conquian: 8, §3.21; RULES.md "
         "states the cap but has no toggle for it)",
         low=3, high=13),
    _choice(105, "go_out_pattern", "none", "2D.18",
            "simulator extension: under all_at_once, going out needs the hand (less its "
            "discard) to be exactly these same-suit runs, groups not counting (runs_4_3_3: "
            "Nowrang, §3.15: one run of 4 and two of 3; continental: §3.11, 15 cards as runs "
            "of 5+4+3+3, 4+4+4+3 or 3+3+3+3+3, jokers wild, and a dealt hand that fits may go "
            "out before drawing); none: any melds",
            choices=("none", "runs_4_3_3", "continental")),
    _int(106, "deal_size", 0, "1.4",
         "simulator extension: cards dealt to each player at every table size (0: the "
         "variant's [deal] table); an uneven deal keeps its extra card (what rummysim tune "
         "turns, docs/tune.md)",
         low=0, high=30),
    # ---- engine policy (not rules) --------------------------------------------------------
    _int(None, "turn_cap", 500, "1.8",
         "engine policy: turns per hand before the hand is recorded as stalled", low=1),
    _int(None, "hand_cap", 1000, "1.11",
         "engine policy: hands per game before the game is cut", low=1),
)
# fmt: on

BY_NAME: Mapping[str, Toggle] = MappingProxyType({t.name: t for t in TOGGLES})
RULE_NAMES: tuple[str, ...] = tuple(t.name for t in TOGGLES if not t.policy)
POLICY_NAMES: tuple[str, ...] = tuple(t.name for t in TOGGLES if t.policy)
DEFAULTS: Mapping[str, Value] = MappingProxyType({t.name: t.default for t in TOGGLES})


def toggle(name: str) -> Toggle:
    """The declaration of ``name``, or ConfigError suggesting the closest name."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise unknown_key(name, BY_NAME, what="setting") from None


def check_values(values: Mapping[str, object]) -> dict[str, Value]:
    """Every setting normalised: declared defaults overridden by ``values`` (each checked)."""
    resolved = dict(DEFAULTS)
    for name, value in values.items():
        resolved[name] = toggle(name).check(value)
    return resolved


def markdown_table() -> str:
    """Every setting as a Markdown table (pasted into docs/variants.md; a test keeps it in sync)."""
    rows = [
        "| id | setting | kind | values (RULES.md) | engine supports | default | § | meaning |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for t in TOGGLES:
        default = ("on" if t.default else "off") if isinstance(t.default, bool) else t.default
        rows.append(
            f"| {t.id or '–'} | `{t.name}` | {t.kind} | {t.allowed_text()} | "
            f"{t.supported_text()} | `{default}` | {t.section} | {t.meaning} |"
        )
    return "\n".join(rows) + "\n"
