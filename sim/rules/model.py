"""The rules model: one frozen, validated description of a variant (RULES.md §1, §2, §3).

:class:`Rules` holds the variant's identity (name, description, RULES.md section), who may
play (player range, deal size and packs per player count) and the value of every toggle of
:mod:`sim.rules.toggles`. Constructing one validates everything and raises
:class:`~sim.rules.errors.ConfigError` on the first problem; the loader adds the file name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from sim.cards import N_NATURAL
from sim.rules.errors import ConfigError, show
from sim.rules.toggles import BY_NAME, DEFAULTS, Value, check_values, split_param

MAX_MELD_CARDS = 16
"""Cards one meld may hold: the event log lists a meld in one row of 16 cards
(``sim.engine.state.EV_COLS``; a test keeps the two equal)."""

STRIPPED_PACK = N_NATURAL - 12  # the 40-card pack without 8s, 9s and 10s (§2A.7)
MIN_PLAYERS = 2
MAX_PLAYERS = 12  # the engine's seat limit (layout.P_PLAYERS)
_PLAYER_RANGE_ALLOWED = f"low <= high within {MIN_PLAYERS}..{MAX_PLAYERS}"  # for messages

ACE_POINTS_AUTO: Mapping[str, int] = MappingProxyType(
    {"low": 1, "high": 10, "high_or_low": 15, "around_corner": 11}
)
"""What ``ace_points = "auto"`` means for each ``ace_rank`` (RULES.md §2A.5)."""

ACE_POINT_VALUES = (1, 10, 11, 15)  # the ace values RULES.md §1.9 knows

FAMILIES: Mapping[str, str] = MappingProxyType(
    {
        "rummy": "progressive melding and laying off (RULES.md §1, §3.1-3.5)",
        "knock_rummy": "melds stay in hand until someone knocks; differences and rum bonus (§3.10)",
        "gin": "two-player knock or gin; the defender lays off; undercut and game bonuses (§3.17)",
        "tonk": "progressive melding settled in chips: instant tonks at the deal, going out, "
        "the drop and the stock-out (§3.22)",
        "phom": "melds kept concealed, a discard taken only into a meld, four turns each, "
        "then the melds shown and the garbage counts ranked; Ù wins at once; chips (§3.13)",
        "conquian": "two players meld only with the exposed card (the discard or the stock "
        "card, which never enters a hand), on their own melds, forcing; 11 cards melded win "
        "a tento (§3.21)",
        "carousel": "no discards: a turn draws up to three cards and a meld action ends it, "
        "the whole table formed again with hand cards; knock with 5 points or less, the "
        "stock-out's final turns, differences to the lowest hand (§3.16)",
    }
)
"""What the ``family`` key of a variant file may say: which game the toggles apply to."""

KNOCK_FAMILIES = ("knock_rummy", "gin")


def bots_for(family: str) -> tuple[str, ...]:
    """The bots (``sim.engine.rows.BOT_NAMES``, the one list) that play rule sets of
    ``family``: all of them in the knock families, all but ``simple`` (it has no melding
    policy) elsewhere."""
    from sim.engine.rows import BOT_NAMES  # constants only: no numba

    return BOT_NAMES if family in KNOCK_FAMILIES else tuple(b for b in BOT_NAMES if b != "simple")


GIN_ONLY = (
    "gin_opening",
    "gin_bonus",
    "undercut_bonus",
    "box_bonus",
    "shutout",
    "spade_double",
    "oklahoma_extra_bonus",
)
"""§2I toggles that only gin has (RULES.md §4D); other families keep their defaults."""
KNOCK_ONLY = ("knock_limit",)
"""§2I toggles of every knock family (RULES.md §4D), and Carousel's knock at 5 (§3.16)."""
CHIP_FAMILIES = ("tonk", "phom")
"""Families settled in chips (RULES.md §4C, CH): a hand's scores are chips won and lost."""
CHIP_ONLY = ("chip_stack",)
"""Tonk's bankruptcy (§2H.30 extension): Phỏm's games end after a number of deals."""
TONK_ONLY = tuple(name for name in BY_NAME if name.startswith("tonk_"))
"""§2L toggles: Tonk's only (RULES.md §4D)."""
PHOM_ONLY = tuple(name for name in BY_NAME if name.startswith("phom_"))
"""§2K toggles but ``play_direction``: Phỏm's only (RULES.md §4D)."""
FAMILY_VALUES = (
    ("meld_timing", "phom_final", ("phom",), "RULES.md §2D.18, §3.13"),
    ("meld_timing", "knock", KNOCK_FAMILIES, "RULES.md §2D.18, §3.10, §3.17"),
    ("stock_exhaustion", "void_at_two", ("gin",), "RULES.md §3.17"),
    ("stock_exhaustion", "drawn_hand_carry", ("conquian",), "RULES.md §3.21"),
    ("stock_exhaustion", "final_turns", ("carousel",), "RULES.md §2F.28, §3.16"),
    ("rearrange", "table", ("carousel",), "RULES.md §2D.23, §3.16"),
)
"""Values exactly some families have, each with where RULES.md says so: refused elsewhere,
and those families refuse any other value of the setting."""
CONQUIAN_ONLY = ("run_max",)
"""Settings the engine plays only in Conquian (§3.21): its run cap."""
REARRANGING = ("conquian", "carousel")
"""Families that rearrange table melds (§2D.23): Conquian its own (``own``), Carousel the
whole table (``table``, which ``FAMILY_VALUES`` keeps to it)."""
CAROUSEL_ONLY = ("carousel_round_bonus_to",)
"""§2M toggles: Carousel's only (RULES.md §4D)."""
FAMILY_ONLY: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        **{name: ("gin",) for name in GIN_ONLY},
        **{name: (*KNOCK_FAMILIES, "carousel") for name in KNOCK_ONLY},
        **{name: ("tonk",) for name in TONK_ONLY},
        **{name: ("tonk",) for name in CHIP_ONLY},
        **{name: ("phom",) for name in PHOM_ONLY},
        **{name: ("conquian",) for name in CONQUIAN_ONLY},
        "rearrange": REARRANGING,
        **{name: ("carousel",) for name in CAROUSEL_ONLY},
    }
)
"""Each family-only setting and the families it belongs to; elsewhere it keeps its default."""
TONK_FIXED = {
    "decks": "Tonk plays one pack (RULES.md §3.22)",
    "jokers": "Tonk plays no jokers (§3.22)",
    "scoring": "Tonk settles in chips (§3.22), not in points",
    "going_rummy": "Tonk pays 2 chips for going out without a discard instead (§3.22)",
    "stock_exhaustion": "Tonk's stock-out is tonk_stock_out (§2L.55), its one declaration",
    "discard_draw": "Tonk draws the discard top or the stock (§3.22)",
    "call_rummy": "Tonk has no calls (§3.22)",
    "borrowing": "Tonk does not rearrange the table (§3.22: no rearranging)",
    "initial_meld_min": "Tonk has no initial meld (§3.22)",
    "must_discard_to_go_out": "Tonk pays 2 chips for going out without a discard (§3.22)",
    "deal_size": "Tonk's deal is tonk_deal (§2L.47)",
}
"""Settings the tonk family does not use, each with the reason given when a file changes it."""
PHOM_FIXED = {
    "decks": "Phỏm plays one pack (RULES.md §3.13)",
    "jokers": "Phỏm plays no jokers (§3.13)",
    "scoring": "Phỏm settles in chips (§3.13), not in points",
    "going_rummy": "Phỏm's Ù is its own settlement (§3.13)",
    "stock_exhaustion": "the stock holds a draw for every turn (§3.13 stock check)",
    "discard_draw": "Phỏm draws the discard top, only into a meld, or the stock (§3.13)",
    "call_rummy": "Phỏm has no calls (§3.13)",
    "borrowing": "Phỏm does not rearrange the table (§3.13)",
    "initial_meld_min": "Phỏm has no initial meld (§3.13)",
    "must_discard_to_go_out": "Ù is allowed with or without a discard, paid 6 or 12 (§3.13)",
    "melds_per_turn": "Phỏm shows all its melds at once, in the fourth turn (§3.13)",
    "layoff_target": "Phỏm's lay-offs are phom_layoff_others (§2K.43)",
    "layoff_requires_meld": "Phỏm's lay-offs are phom_layoff_others (§2K.43)",
    "discard_before_initial_meld": "Phỏm has no initial meld (§3.13)",
    "deal_size": "Phỏm's four turns are counted on its deal of 9 and a 10th (§3.13)",
}
"""Settings the phom family does not use, each with the reason given when a file changes it."""
CONQUIAN_FIXED = {
    "decks": "Conquian plays one pack (RULES.md §3.21)",
    "jokers": "Conquian plays no jokers (§3.21)",
    "scoring": "Conquian's winner earns a tento (§3.21), not points",
    "going_rummy": "Conquian scores a tento a hand (§3.21)",
    "discard_draw": "Conquian offers the one exposed card (§3.21)",
    "call_rummy": "Conquian has no calls (§3.21)",
    "borrowing": "Conquian rearranges its own melds instead (rearrange, §3.21)",
    "initial_meld_min": "Conquian has no initial meld (§3.21)",
    "discard_before_initial_meld": "Conquian has no initial meld (§3.21)",
    "must_discard_to_go_out": "Conquian goes out with the 11th card melded, no discard (§3.21)",
    "melds_per_turn": "Conquian's one meld action a turn holds the exposed card (§3.21 open "
    "point 2)",
    "layoff_requires_meld": "Conquian lays off only its own melds (§3.21)",
    "meld_timing": "Conquian melds during play, only with the exposed card (§3.21)",
    "dealer_rotation": "Conquian's deal alternates (§3.21)",
    "deal_size": "Conquian goes out with 11 cards melded from its deal of 10 (§3.21)",
}
"""Settings the conquian family does not use, each with the reason given when a file
changes it (``upcard``, ``layoff_target`` and ``stock_exhaustion`` are checked apart: its
values differ from the defaults)."""
CAROUSEL_FIXED = {
    "scoring": "Carousel scores differences to the lowest hand (RULES.md §3.16)",
    "going_rummy": "Carousel's bonus for playing all one's cards is +25 (§3.16)",
    "discard_draw": "Carousel has no discard pile (§3.16)",
    "call_rummy": "Carousel has no discards to call (§3.16)",
    "borrowing": "Carousel re-forms the whole table instead (rearrange, §3.16)",
    "initial_meld_min": "Carousel's first meld needs only a meld of three (§3.16 open point 2)",
    "discard_before_initial_meld": "Carousel has no discard pile (§3.16)",
    "must_discard_to_go_out": "Carousel has no discarding (§3.16)",
    "melds_per_turn": "a meld action re-forms the whole table at once (§3.16)",
    "layoff_target": "a meld action re-forms the whole table, everyone's (§3.16)",
    "layoff_requires_meld": "a meld action re-forms the whole table, everyone's (§3.16)",
    "meld_timing": "Carousel melds during play, one meld action a turn (§3.16)",
    "joker_limit": "a Carousel joker may stand for any card (§3.16)",
    "joker_slide": "a Carousel joker moves only as part of a re-formed table (§3.16)",
    "group_duplicates": "a Carousel group holds no two identical cards (§3.16)",
    "run_suit": "a Carousel run is of one suit (§3.16 open point 7)",
    "strip_8_9_10": "Carousel plays full packs (§3.16)",
    "dealer_rotation": "Carousel's deal passes left (§3.16)",
}
"""Settings the carousel family does not use, each with the reason given when a file
changes it (``upcard``, ``joker_declare`` and ``joker_replace`` are checked apart: its
values differ from the defaults)."""
PHOM_TURNS = 4
"""Turns each player plays in a Phỏm hand without an Ù (§3.13)."""
TONK_STOCK_OUTS = ("lowest_collects", "redeal")
"""``stock_exhaustion`` values that are Tonk's, declared once as ``tonk_stock_out``."""
KNOCK_WHY = "the knock families play one pack without jokers and score by deadwood (§3.10, §3.17)"
KNOCK_FIXED = {
    name: KNOCK_WHY
    for name in (
        "decks",
        "jokers",
        "scoring",
        "going_rummy",
        "melds_per_turn",
        "layoff_requires_meld",
        "must_discard_to_go_out",
        "joker_replace",
        "joker_declare",
    )
}
"""Settings the knock families do not use (one pack, no jokers, their own scoring): they must
stay at their defaults so that a file cannot look as if it changed something it does not."""

ALL_AT_ONCE_FIXED = {
    "decks": "the go-out test and the bots' arrangement (sim/engine/layoffs.py) play one pack",
    "jokers": "the go-out test and the bots' arrangement (sim/engine/layoffs.py) play no jokers",
    "melds_per_turn": "going out lays the whole hand down at once, so a limit of melds per "
    "turn would only forbid going out with more than one meld",
    "layoff_requires_meld": "nothing is ever laid off: there are no table melds during play",
    "going_rummy": "every player who goes out has played nothing before, so going rummy would "
    "always be met (RULES.md §3.4 open point 2: off)",
    "joker_replace": "there are no jokers",
    "joker_declare": "there are no jokers",
}
"""Settings ``meld_timing = "all_at_once"`` does not use or cannot play yet, each with the
reason given when a file changes it from its default (RULES.md §2D.18, §3.4, §3.7, §3.12)."""
ALL_AT_ONCE_SCORINGS = ("unmelded_to_winner", "own_melds_from_each", "continental")
"""Scorings that only mean something when a player goes out with his whole hand melded
(Boat House §3.7, Queen City §3.12)."""


@dataclass(frozen=True)
class Rules:
    """A validated variant: identity, players and deal, and every toggle value.

    ``values`` maps every toggle and engine-policy name to its normalised value; pass only
    the ones that differ from the defaults. ``deal`` maps each allowed player count to the
    cards dealt per player; ``decks_by_players`` and ``jokers_by_players`` override the
    ``decks`` and ``jokers`` toggles for some player counts. ``ace_points_auto`` overrides
    what ``ace_points = "auto"`` means for some ace ranks (the @003 preset makes high_or_low
    worth 11, RULES.md §3.1 open point 7).
    ``family`` says which game the toggles apply to (:data:`FAMILIES`).
    Toggles read as attributes too: ``rules.ace_rank``.
    """

    name: str
    description: str
    section: str
    players: tuple[int, int]
    deal: Mapping[int, int]
    values: Mapping[str, Value] = field(default_factory=dict)
    decks_by_players: Mapping[int, int] = field(default_factory=dict)
    jokers_by_players: Mapping[int, int] = field(default_factory=dict)
    ace_points_auto: Mapping[str, int] = field(default_factory=dict)
    family: str = "rummy"

    def __post_init__(self) -> None:
        _check_identity(self.name, self.description, self.section)
        players = _check_players(self.players)
        values = check_values(self.values)
        deal = _tonk_deal(self, players, values) if self.family == "tonk" else None
        deal = deal or _check_deal(self.deal, players)
        decks_by_players = _check_counts_by_players(
            self.decks_by_players, players, "decks", "packs"
        )
        jokers_by_players = _check_counts_by_players(
            self.jokers_by_players, players, "jokers", "jokers"
        )
        auto = _check_ace_points_auto(self.ace_points_auto)
        _set(self, "players", players)
        _set(self, "deal", MappingProxyType(deal))
        _set(self, "values", MappingProxyType(values))
        _set(self, "decks_by_players", MappingProxyType(decks_by_players))
        _set(self, "jokers_by_players", MappingProxyType(jokers_by_players))
        _set(self, "ace_points_auto", MappingProxyType(auto))
        _check_contradictions(self)

    # ---- reading ------------------------------------------------------------------
    def __getitem__(self, name: str) -> Value:
        return self.values[name]

    def __getattr__(self, name: str) -> Value:
        # Only called when normal lookup fails: toggles read as attributes.
        if not name.startswith("_") and name in BY_NAME:
            return self.__dict__["values"][name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __hash__(self) -> int:
        return hash((self.name, self.players, *self._items()))

    def __reduce__(self):
        # MappingProxyType does not pickle: rebuild (and re-validate) from plain dicts.
        args = [getattr(self, f.name) for f in dataclasses.fields(self)]
        args = [dict(a) if isinstance(a, Mapping) else a for a in args]
        return (type(self), tuple(args))

    def _items(self) -> tuple:
        return (
            tuple(self.deal.items()),
            tuple(self.values.items()),
            tuple(self.decks_by_players.items()),
            tuple(self.jokers_by_players.items()),
            tuple(self.ace_points_auto.items()),
            self.family,
        )

    @property
    def player_counts(self) -> range:
        """The allowed player counts."""
        return range(self.players[0], self.players[1] + 1)

    def deal_for(self, players: int) -> tuple[int, int]:
        """``(hand_size, decks)`` for ``players`` seats; ConfigError if not allowed (§1.4)."""
        if players not in self.player_counts:
            raise ConfigError(
                f"{show(players)} players is not allowed by variant '{self.name}'",
                key="players",
                value=players,
                allowed=_range_text(self.players),
            )
        return self.hand_size(players), self.decks_for(players)

    def hand_size(self, players: int) -> int:
        """Cards dealt to each seat at ``players`` seats: ``deal_size`` where set (a
        simulator extension), else the variant's ``[deal]`` table (§1.4)."""
        return self.values["deal_size"] or self.deal[players]

    def in_partnerships(self, players: int) -> bool:
        """Whether ``players`` seats play as two teams of partners, seats 0 and 2 against 1
        and 3 (4-player gin, RULES.md §3.19)."""
        return self.family == "gin" and players == 4

    def decks_for(self, players: int) -> int:
        """Packs in the shoe for ``players`` seats (``decks_by_players`` or the decks toggle)."""
        return self.decks_by_players.get(players, self.values["decks"])

    def jokers_for(self, players: int) -> int:
        """Jokers in the shoe for ``players`` seats (``jokers_by_players`` or the jokers
        toggle; Continental: one a pack, §3.11)."""
        return self.jokers_by_players.get(players, self.values["jokers"])

    @property
    def ace_value(self) -> int:
        """Penalty value of an ace in hand, with ``auto`` resolved (RULES.md §2A.5)."""
        points = self.values["ace_points"]
        if points != "auto":
            return points
        return self.ace_points_auto.get(self.values["ace_rank"], ACE_POINTS_AUTO[self.ace_rank])

    def option(self, name: str) -> tuple[str, int | None]:
        """A parametrised toggle split: ``option("game_end")`` -> ``("target", 100)``."""
        return split_param(str(self.values[name]))

    def changed(self) -> dict[str, Value]:
        """The settings that differ from the RULES.md defaults."""
        return {k: v for k, v in self.values.items() if v != DEFAULTS[k]}

    def with_values(self, overrides: Mapping[str, object]) -> Rules:
        """A copy with some settings changed (checked like a variant file's ``[rules]``)."""
        values = {**self.values, **overrides}
        if self.family == "tonk":  # its deal follows tonk_deal (§2L.47)
            return dataclasses.replace(self, values=values, deal={})
        return dataclasses.replace(self, values=values)

    @property
    def pack_size(self) -> int:
        """Cards in one pack: 52, or 40 without the 8s, 9s and 10s (RULES.md §2A.7)."""
        return STRIPPED_PACK if self.values["strip_8_9_10"] else N_NATURAL

    @property
    def chips(self) -> bool:
        """Whether hands are settled in chips (RULES.md §4C, CH)."""
        return self.family in CHIP_FAMILIES


def _tonk_deal(rules: Rules, players: tuple[int, int], values: Mapping) -> dict[int, int]:
    """Tonk's deal: ``tonk_deal`` cards at every table size (RULES.md §2L.47), written once,
    so a variant file gives no ``[deal]`` table (ConfigError if it gives another size)."""
    size = values["tonk_deal"]
    deal = {p: size for p in range(players[0], players[1] + 1)}
    given = dict(rules.deal)
    if given and {int(p): n for p, n in given.items()} != deal:
        raise ConfigError(
            f"Tonk deals tonk_deal = {size} cards at every table size; leave [deal] out",
            key="deal",
            value=given,
            allowed="no [deal] table in the tonk family (set tonk_deal, RULES.md §2L.47)",
        )
    return deal


def _set(rules: Rules, name: str, value: object) -> None:
    object.__setattr__(rules, name, value)


def _range_text(players: tuple[int, int]) -> str:
    low, high = players
    return f"{low}..{high}" if low != high else str(low)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_identity(name: object, description: object, section: object) -> None:
    if not isinstance(name, str) or not name:
        raise ConfigError("a variant needs a non-empty name", key="name", value=name)
    if not isinstance(description, str) or not description.strip() or "\n" in description:
        raise ConfigError(
            "expected a one-line, non-empty string", key="description", value=description
        )
    if not isinstance(section, str) or not section.strip():
        raise ConfigError(
            "expected the RULES.md section as a string, e.g. '3.1'", key="section", value=section
        )


def _check_players(players: object) -> tuple[int, int]:
    if (
        not isinstance(players, tuple | list)
        or len(players) != 2
        or not all(_is_int(p) for p in players)
    ):
        raise ConfigError(
            f"expected [low, high] player counts, got {show(players)}",
            key="players",
            value=players,
            allowed=f"[low, high] with {_PLAYER_RANGE_ALLOWED}",
        )
    low, high = players
    if not MIN_PLAYERS <= low <= high <= MAX_PLAYERS:
        raise ConfigError(
            f"player range {low}..{high} is not allowed",
            key="players",
            value=players,
            allowed=_PLAYER_RANGE_ALLOWED,
        )
    return low, high


def _check_per_player_table(
    table: object, players: tuple[int, int], key: str, what: str
) -> dict[int, int]:
    """A players -> positive integer table whose keys lie in the player range."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"expected a table of players -> {what}", key=key, value=table)
    checked = {}
    for count, value in table.items():
        count = _player_count(count, key)
        entry = f"{key}.{count}"
        if not players[0] <= count <= players[1]:
            raise ConfigError(
                f"{count} players is outside the variant's player range",
                key=entry,
                value=count,
                allowed=_range_text(players),
            )
        if not _is_int(value):
            raise ConfigError(
                f"expected an integer, got {show(value)}", key=entry, value=value, allowed=">= 1"
            )
        if value < 1:
            raise ConfigError(f"{value} is out of range", key=entry, value=value, allowed=">= 1")
        checked[count] = value
    return dict(sorted(checked.items()))


def _player_count(count: object, key: str) -> int:
    """A table key as a player count: TOML keys are strings ("2"), Python callers pass ints."""
    if _is_int(count):
        return count
    if isinstance(count, str) and count.isdigit():
        return int(count)
    raise ConfigError(
        f"expected a player count as key, got {show(count)}",
        key=f"{key}.{count}",
        value=count,
    )


def _check_deal(deal: object, players: tuple[int, int]) -> dict[int, int]:
    checked = _check_per_player_table(deal, players, "deal", "cards per player")
    missing = [p for p in range(players[0], players[1] + 1) if p not in checked]
    if missing:
        raise ConfigError(
            f"no deal size for {', '.join(map(str, missing))} players",
            key="deal",
            value=missing,
            allowed=f"one entry per player count in the player range {_range_text(players)}",
        )
    return checked


def _check_counts_by_players(
    table: object, players: tuple[int, int], setting: str, what: str
) -> dict[int, int]:
    """A ``<setting>_by_players`` table (``decks``: packs, ``jokers``: jokers per player
    count), each value checked as the toggle ``setting`` checks its own."""
    key = f"{setting}_by_players"
    checked = _check_per_player_table(table, players, key, what)
    for count, value in checked.items():
        try:
            BY_NAME[setting].check(value)
        except ConfigError as err:
            raise ConfigError(
                err.problem, key=f"{key}.{count}", value=value, allowed=err.allowed
            ) from None
    return checked


def _check_ace_points_auto(table: object) -> dict[str, int]:
    if not isinstance(table, Mapping):
        raise ConfigError("expected a table of ace_rank -> points", key="ace_points_auto")
    checked = dict(ACE_POINTS_AUTO)
    for rank, points in table.items():
        if rank not in ACE_POINTS_AUTO:
            raise ConfigError(
                f"{show(rank)} is not an ace_rank",
                key=f"ace_points_auto.{rank}",
                value=rank,
                allowed=", ".join(ACE_POINTS_AUTO),
            )
        if points not in ACE_POINT_VALUES or not _is_int(points):
            raise ConfigError(
                f"{show(points)} is not allowed",
                key=f"ace_points_auto.{rank}",
                value=points,
                allowed=", ".join(map(str, ACE_POINT_VALUES)),
            )
        checked[rank] = points
    return checked


def _check_contradictions(rules: Rules) -> None:
    """Settings that are fine alone but not together."""
    _check_family(rules)
    _check_discard_draw(rules)
    for players in rules.player_counts:
        _check_shoe(rules, players)
    _check_meld_capacity(rules)
    _check_stripped_pack(rules)
    _check_scoring_and_end(rules)
    _check_initial_meld(rules)
    _check_joker_slide(rules)
    _check_borrowing(rules)


def _listed(names: tuple[str, ...]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _check_family(rules: Rules) -> None:
    """The family and the settings that only some families have (RULES.md §2D.18, §2I, §4D)."""
    family = rules.family
    if family not in FAMILIES:
        raise ConfigError(
            f"unknown family {show(family)}",
            key="family",
            value=family,
            allowed=", ".join(FAMILIES),
        )
    values = rules.values
    knock = family in KNOCK_FAMILIES
    timing = values["meld_timing"]
    for name, value, owners, where in FAMILY_VALUES:
        if (family in owners) != (values[name] == value):
            names = _listed(owners)
            raise ConfigError(
                f"{name} {show(values[name])} does not fit family {show(family)}",
                key=name,
                value=values[name],
                allowed=f"{show(value)} exactly in the {names} famil"
                f"{'ies' if len(owners) > 1 else 'y'} ({where})",
            )
    for name, owners in FAMILY_ONLY.items():
        if values[name] != DEFAULTS[name] and family not in owners:
            names = _listed(owners)
            raise ConfigError(
                f"{name} applies only to the {names} families, not to {show(family)}",
                key=name,
                value=values[name],
                allowed=f"the default {show(DEFAULTS[name])} outside {names}",
            )
    if values["upcard"] and family == "phom":
        raise ConfigError(
            "Phỏm has no upcard: the first player is dealt a 10th card and opens by discarding",
            key="upcard",
            value=True,
            allowed="off in the phom family (RULES.md §3.13)",
        )
    nowrang_opening = family == "rummy" and timing == "all_at_once"
    if values["upcard"] and family == "carousel":
        raise ConfigError(
            "Carousel has no upcard and no discard pile",
            key="upcard",
            value=True,
            allowed="off in the carousel family (RULES.md §3.16)",
        )
    no_upcard = ("tonk", "phom", "conquian", "carousel")
    if not values["upcard"] and family not in no_upcard and not nowrang_opening:
        raise ConfigError(
            f"upcard off is not supported by the engine yet in family {show(family)} with "
            f"meld_timing {show(timing)}",
            key="upcard",
            value=False,
            allowed="on (off: Tonk's option, RULES.md §3.22: the first player draws from the "
            "stock; the rummy family under meld_timing 'all_at_once': Nowrang's 11/10 "
            "opening, §3.15)",
        )
    if values["go_out_pattern"] != "none":
        _check_pattern(rules)
    if values["face_values"] != "ten" and knock:
        raise ConfigError(
            f"face_values {show(values['face_values'])} is not supported by the engine yet in "
            "the knock families (their upcard knock limit counts a picture card 10, §2I.32)",
            key="face_values",
            value=values["face_values"],
            allowed="ten in the knock families",
        )
    if values["dealer_rotation"] == "loser_sits_out" and family != "gin":
        raise ConfigError(
            f"dealer_rotation 'loser_sits_out' is 3-player gin's, not family {show(family)}'s",
            key="dealer_rotation",
            value="loser_sits_out",
            allowed="left, winner_deals (RULES.md §3.18)",
        )
    if values["call_rummy"] and timing != "progressive":
        raise ConfigError(
            f"call_rummy needs lay-offs during play, and meld_timing {show(timing)} has none",
            key="call_rummy",
            value=True,
            allowed="off, or on with meld_timing 'progressive' (a called discard is laid off"
            " at once on a table meld, RULES.md §3.2 rule 4)",
        )
    stock = values["stock_exhaustion"]
    if stock in TONK_STOCK_OUTS:
        raise ConfigError(
            f"stock_exhaustion {show(stock)} is Tonk's, declared once as tonk_stock_out",
            key="stock_exhaustion",
            value=stock,
            allowed="family 'tonk' with tonk_stock_out = 'lowest_collects' or 'redeal' "
            "(RULES.md §2L.55)",
        )
    scoring = values["scoring"]
    if scoring in ALL_AT_ONCE_SCORINGS and timing != "all_at_once":
        raise ConfigError(
            f"scoring {show(scoring)} scores a hand someone went out of with his whole hand "
            f"melded, which only meld_timing 'all_at_once' has, not {show(timing)}",
            key="scoring",
            value=scoring,
            allowed="pip_to_winner, per_card, penalty (unmelded_to_winner: Boat House §3.7, "
            "own_melds_from_each: Queen City §3.12, both with meld_timing 'all_at_once')",
        )
    _check_continental_scoring(rules)
    if timing == "all_at_once":
        _check_all_at_once(rules)
    if family == "tonk":
        _check_tonk(rules)
    if family == "phom":
        _check_phom(rules)
    if family == "conquian":
        _check_conquian(rules)
    if family == "carousel":
        _check_carousel(rules)
    if not knock:
        return
    _check_knock_family(rules)


PATTERN_CARDS = {"runs_4_3_3": 10, "continental": 15}
"""Cards in each ``go_out_pattern`` (§3.15: Nowrang's 4 + 3 + 3; §3.11: Continental's 15)."""
PATTERN_ACE_RANKS = {"runs_4_3_3": ("low", "high"), "continental": ("low", "high", "high_or_low")}
"""Ace ranks each pattern test plays (``sim/engine/patterns.py``): Nowrang's places each card on
one run position; Continental's (``wild_fit``) counts an ace on either end."""
WILD_PATTERNS = ("continental",)
"""Patterns whose test plays several packs and jokers (``patterns.wild_fit``, §3.11)."""


def _check_pattern(rules: Rules) -> None:
    """A fixed go-out pattern (``go_out_pattern``, extension 105; Nowrang §3.15) is a way to
    go out all at once: the rummy family under ``meld_timing = "all_at_once"``, runs of one
    suit, an ace with one place in a run, and a deal of as many cards as the pattern holds
    (the player goes out holding one card more: the pattern and his discard)."""
    values = rules.values
    pattern = values["go_out_pattern"]
    if rules.family != "rummy" or values["meld_timing"] != "all_at_once":
        raise ConfigError(
            f"go_out_pattern {show(pattern)} is a way to go out all at once, not in family "
            f"{show(rules.family)} with meld_timing {show(values['meld_timing'])}",
            key="go_out_pattern",
            value=pattern,
            allowed="none, or a pattern in the rummy family with meld_timing 'all_at_once' "
            "(RULES.md §3.15)",
        )
    if values["run_suit"] != "same_suit":
        raise ConfigError(
            f"go_out_pattern {show(pattern)} is made of runs of one suit (RULES.md §3.15)",
            key="run_suit",
            value=values["run_suit"],
            allowed="same_suit with a go-out pattern",
        )
    ranks = PATTERN_ACE_RANKS[pattern]
    if values["ace_rank"] not in ranks and not values["strip_8_9_10"]:
        raise ConfigError(
            f"ace_rank {show(values['ace_rank'])} is not supported by the engine yet with "
            f"go_out_pattern {show(pattern)}",
            key="ace_rank",
            value=values["ace_rank"],
            allowed=", ".join(ranks) + f" with go_out_pattern {show(pattern)}",
        )
    if values["discard_draw"] == "top_plus_one" and pattern in WILD_PATTERNS:
        raise ConfigError(
            f"go_out_pattern {show(pattern)} goes out holding the pattern and one discard, and "
            "discard_draw 'top_plus_one' takes two cards for one discard: the hand would grow "
            "past it and never go out",
            key="discard_draw",
            value="top_plus_one",
            allowed=f"top, any_card with go_out_pattern {show(pattern)}",
        )
    if values["strip_8_9_10"] and pattern in WILD_PATTERNS:
        raise ConfigError(
            f"go_out_pattern {show(pattern)} is played with full packs (RULES.md §3.11)",
            key="strip_8_9_10",
            value=True,
            allowed=f"off with go_out_pattern {show(pattern)}",
        )
    cards = PATTERN_CARDS[pattern]
    for players in rules.player_counts:
        hand, _ = rules.deal_for(players)
        if hand != cards:
            raise ConfigError(
                f"go_out_pattern {show(pattern)} holds {cards} cards, and {players} players are "
                f"dealt {hand}: the player going out holds the pattern and one card to discard",
                key="deal_size" if values["deal_size"] else "deal",
                value=hand,
                allowed=f"{cards} cards a player with go_out_pattern {show(pattern)}",
            )


CONTINENTAL_ONLY = ("start_points",)
"""Settings only Continental's zero-sum scoring reads (RULES.md §2J.42)."""
CONTINENTAL_ENDS = ("fixed_hands", "single_hand")
"""How a game scored in Continental's zero-sum payments may end: every total starts at
``start_points``, so a target would be met at once (§3.11: an agreed number of hands)."""


def _check_continental_scoring(rules: Rules) -> None:
    """``scoring = "continental"`` (§3.11) pays for Continental's runs and wild cards: it
    needs ``go_out_pattern = "continental"``, ends after a number of hands, and is the only
    scoring that reads ``start_points``; the §2J bonuses need it too, and ``deuces_wild``
    (§2B.14) needs Continental's pattern, the only one that plays it."""
    values = rules.values
    continental = values["scoring"] == "continental"
    if continental and values["go_out_pattern"] != "continental":
        raise ConfigError(
            "scoring 'continental' pays for Continental's runs and jokers, which only "
            "go_out_pattern 'continental' lays down",
            key="scoring",
            value="continental",
            allowed="continental with go_out_pattern 'continental' (RULES.md §3.11)",
        )
    for name in (*CONTINENTAL_ONLY, "continental_quick_bonus", "continental_special_bonus"):
        if not continental and values[name] != DEFAULTS[name]:
            raise ConfigError(
                f"{name} is part of Continental's scoring, not {show(values['scoring'])}",
                key=name,
                value=values[name],
                allowed=f"the default {show(DEFAULTS[name])} without scoring 'continental' "
                "(RULES.md §2J)",
            )
    if values["deuces_wild"] and values["go_out_pattern"] not in WILD_PATTERNS:
        raise ConfigError(
            "deuces_wild is played only by Continental's pattern test and payment: a 2 "
            "standing as a wild card has no place in any other variant's melds yet",
            key="deuces_wild",
            value=True,
            allowed="false, or true with go_out_pattern 'continental' (RULES.md §3.11)",
        )
    end, _ = rules.option("game_end")
    if continental and end not in CONTINENTAL_ENDS:
        raise ConfigError(
            f"scoring 'continental' starts every total at start_points, so game_end "
            f"{show(values['game_end'])} does not fit",
            key="game_end",
            value=values["game_end"],
            allowed="fixed_hands:N, single_hand (RULES.md §3.11)",
        )


def _check_tonk(rules: Rules) -> None:
    """What the tonk family does not use (:data:`TONK_FIXED`), and how its games end."""
    values = rules.values
    _keep_defaults(rules, TONK_FIXED, "the tonk family", "in the tonk family")
    if values["meld_timing"] != "progressive":
        raise ConfigError(
            f"Tonk melds during play, not {show(values['meld_timing'])}",
            key="meld_timing",
            value=values["meld_timing"],
            allowed="progressive (RULES.md §3.22)",
        )
    end, _ = rules.option("game_end")
    if end not in ("fixed_hands", "single_hand"):
        raise ConfigError(
            f"a chip game ends after a number of hands or when a player has no chips left "
            f"(chip_stack), not by {show(end)}",
            key="game_end",
            value=values["game_end"],
            allowed="fixed_hands:N, single_hand (RULES.md §3.22 game end)",
        )


def _check_phom(rules: Rules) -> None:
    """What the phom family does not use (:data:`PHOM_FIXED`), its deal and how its games
    end (RULES.md §3.13)."""
    values = rules.values
    _keep_defaults(rules, PHOM_FIXED, "the phom family", "in the phom family")
    for players, size in rules.deal.items():
        stock = rules.pack_size - size * players - 1  # one player gets a 10th card
        draws = PHOM_TURNS * players - 1  # the first player's opening turn draws nothing
        if stock < draws:
            raise ConfigError(
                f"{size} cards each to {players} players (and a 10th to the first) leave "
                f"{max(stock, 0)} cards in the stock, short of the {draws} draws of four "
                "turns each",
                key="deal",
                value=dict(rules.deal),
                allowed="a deal that leaves a draw for every turn (§3.13 stock check: 9 "
                "cards each at 2-4 players)",
            )
    end, _ = rules.option("game_end")
    if end not in ("deals_each", "fixed_hands", "single_hand"):
        raise ConfigError(
            f"a Phỏm game ends after a number of hands, not by {show(end)}",
            key="game_end",
            value=values["game_end"],
            allowed="deals_each:R, fixed_hands:N, single_hand (RULES.md §3.13 game end)",
        )


def _check_conquian(rules: Rules) -> None:
    """What the conquian family does not use (:data:`CONQUIAN_FIXED`), its table and how
    its games end (RULES.md §3.21)."""
    values = rules.values
    _keep_defaults(rules, CONQUIAN_FIXED, "the conquian family", "in the conquian family")
    if rules.players != (2, 2):
        raise ConfigError(
            f"Conquian is a game for exactly 2 players, not {_range_text(rules.players)}",
            key="players",
            value=list(rules.players),
            allowed="[2, 2] (RULES.md §3.21: each forces his one opponent)",
        )
    fixed = {"upcard": False, "layoff_target": "own_only"}
    for name, want in fixed.items():
        if values[name] != want:
            raise ConfigError(
                f"Conquian plays {name} = {show(want)}, not {show(values[name])}",
                key=name,
                value=values[name],
                allowed=f"{show(want)} in the conquian family (RULES.md §3.21)",
            )
    end, _ = rules.option("game_end")
    if end not in ("target", "single_hand"):
        raise ConfigError(
            f"a Conquian game is won by tentos, not ended by {show(end)}",
            key="game_end",
            value=values["game_end"],
            allowed="target:N (first to N tentos; §3.21: 3, best of five), single_hand",
        )


def _check_carousel(rules: Rules) -> None:
    """What the carousel family does not use (:data:`CAROUSEL_FIXED`), its jokers and how
    its games end (RULES.md §3.16)."""
    values = rules.values
    _keep_defaults(rules, CAROUSEL_FIXED, "the carousel family", "in the carousel family")
    fixed = {"joker_declare": "always", "joker_replace": "reuse_same_turn"}
    for name, want in fixed.items():
        if values[name] != want:
            raise ConfigError(
                f"Carousel plays {name} = {show(want)}, not {show(values[name])}",
                key=name,
                value=values[name],
                allowed=f"{show(want)} in the carousel family (RULES.md §3.16, §2B.11-12)",
            )
    if isinstance(values["knock_limit"], str):
        raise ConfigError(
            f"Carousel knocks at a number of points, not {show(values['knock_limit'])}",
            key="knock_limit",
            value=values["knock_limit"],
            allowed="an integer 0..10 in the carousel family (RULES.md §3.16: 5)",
        )
    if any(rules.jokers_for(p) > 4 for p in rules.player_counts):
        raise ConfigError(
            "the table re-partition search plays at most 4 jokers (sim/engine/repartition.py)",
            key="jokers_by_players",
            value=dict(rules.jokers_by_players),
            allowed="at most 4 jokers at every table size (RULES.md §3.16: 1 or 2)",
        )
    end, _ = rules.option("game_end")
    if end not in ("target", "single_hand"):
        raise ConfigError(
            f"a Carousel game ends at a target, not by {show(end)}",
            key="game_end",
            value=values["game_end"],
            allowed="target:T (§3.16: 150), single_hand",
        )


UNORDERED_AREA_STOCK = ("shuffle_all",)
"""The stock rebuilds an unordered discard area (``discard_draw = "any_card"``) allows: the
whole area shuffled into a new stock (RULES.md §3.6 default, not in seed)."""


def _check_discard_draw(rules: Rules) -> None:
    """``discard_draw`` (RULES.md §2C.16) against the family and the stock rebuild (§3.6,
    §3.7)."""
    draw = rules.values["discard_draw"]
    if draw == "top":
        return
    if rules.family != "rummy":
        raise ConfigError(
            f"discard_draw {show(draw)} does not fit family {show(rules.family)}: the knock "
            "families draw the discard top (RULES.md §2C.16, §4D)",
            key="discard_draw",
            value=draw,
            allowed="'top' in the knock_rummy and gin families",
        )
    stock = rules.values["stock_exhaustion"]
    if draw == "any_card" and stock not in UNORDERED_AREA_STOCK:
        raise ConfigError(
            f"stock_exhaustion {show(stock)} does not fit discard_draw 'any_card': its discard "
            "area is unordered (RULES.md §3.6), so it has no order to turn over and no top "
            "card to keep or to decline; the area is shuffled whole into a new stock",
            key="stock_exhaustion",
            value=stock,
            allowed=", ".join(UNORDERED_AREA_STOCK) + " with discard_draw 'any_card' (§3.6)",
        )


def _keep_defaults(rules: Rules, fixed: Mapping[str, str], who: str, where: str) -> None:
    """Every setting of ``fixed`` (name -> why) at its default, else ConfigError saying that
    ``who`` cannot use it, and why. Where ``fixed`` holds ``decks`` (one pack), so does
    ``decks_by_players``: 1 at every table size or nothing."""
    values = rules.values
    if "decks" in fixed and any(n != 1 for n in rules.decks_by_players.values()):
        raise ConfigError(
            f"{who} plays one pack: {fixed['decks']}",
            key="decks_by_players",
            value=dict(rules.decks_by_players),
            allowed=f"1 or nothing {where}",
        )
    for name, why in fixed.items():
        if values[name] != DEFAULTS[name]:
            raise ConfigError(
                f"{who} cannot use {name} {show(values[name])}: {why}",
                key=name,
                value=values[name],
                allowed=f"{show(DEFAULTS[name])} {where}",
            )


def _check_all_at_once(rules: Rules) -> None:
    """What ``meld_timing = "all_at_once"`` does not use or cannot play yet
    (:data:`ALL_AT_ONCE_FIXED`; a pattern with wild cards, Continental's, plays several
    packs and jokers)."""
    values = rules.values
    fixed = ALL_AT_ONCE_FIXED
    if values["go_out_pattern"] in WILD_PATTERNS:
        fixed = {k: v for k, v in fixed.items() if k not in ("decks", "jokers")}
    _keep_defaults(rules, fixed, "meld_timing 'all_at_once'", "with meld_timing 'all_at_once'")
    if rules.jokers_by_players and values["go_out_pattern"] not in WILD_PATTERNS:
        raise ConfigError(
            "meld_timing 'all_at_once' cannot use jokers: the go-out test and the bots' "
            "arrangement (sim/engine/layoffs.py) play no jokers",
            key="jokers_by_players",
            value=dict(rules.jokers_by_players),
            allowed="nothing, or go_out_pattern 'continental' (RULES.md §3.11)",
        )
    if values["layoff_target"] not in ("any", "none"):
        raise ConfigError(
            f"layoff_target {show(values['layoff_target'])} means nothing under meld_timing "
            "'all_at_once': nothing is ever laid off",
            key="layoff_target",
            value=values["layoff_target"],
            allowed="any (the default) or none, both meaning no lay-offs here (RULES.md §2D.20)",
        )


def _check_knock_family(rules: Rules) -> None:
    values = rules.values
    _keep_defaults(rules, KNOCK_FIXED, f"the {rules.family} family", "in the knock families")
    if any(n != 1 for n in rules.decks_by_players.values()):
        raise ConfigError(
            "the knock families play one pack", key="decks_by_players", allowed="1 or nothing"
        )
    if values["layoff_target"] not in ("any", "none"):
        raise ConfigError(
            f"layoff_target {show(values['layoff_target'])} does not fit the knock families",
            key="layoff_target",
            value=values["layoff_target"],
            allowed="any (defenders lay off on the knocker's melds), none (no lay-offs)",
        )
    if values["ace_rank"] == "high_or_low":
        raise ConfigError(
            "ace_rank 'high_or_low' is not supported by the engine yet in the knock families",
            key="ace_rank",
            value="high_or_low",
            allowed="anything but 'high_or_low' (the showdown's arrangement and lay-off search"
            " do not play it yet)",
        )
    if values["run_suit"] == "any_suit" and values["ace_rank"] == "around_corner":
        raise ConfigError(
            "run_suit 'any_suit' with ace_rank 'around_corner' is not supported by the engine "
            "yet in the knock families: their any-suit runs are arranged by a pass over the "
            "ranks from the lowest to the highest, which runs around the corner do not have",
            key="run_suit",
            value="any_suit",
            allowed="'same_suit' with around_corner, or ace_rank 'low' or 'high' with any_suit",
        )
    stock = values["stock_exhaustion"]
    if rules.family == "knock_rummy" and stock not in ("turn_over", "shuffle_except_top"):
        raise ConfigError(
            f"stock_exhaustion {show(stock)} does not fit knock rummy",
            key="stock_exhaustion",
            value=stock,
            allowed="turn_over, shuffle_except_top",
        )
    end, _ = rules.option("game_end")
    if end != "target":
        raise ConfigError(
            f"the knock families end a game at a target, not by {show(end)}",
            key="game_end",
            value=values["game_end"],
            allowed="target:T",
        )
    sits_out = values["dealer_rotation"] == "loser_sits_out"
    allowed = ((3, 3),) if sits_out else ((2, 2), (4, 4))
    if rules.family == "gin" and rules.players not in allowed:
        raise ConfigError(
            "gin is played by 2 players, by 3 with dealer_rotation 'loser_sits_out' (RULES.md "
            "§3.18), or by 4 in partnerships with the deal passing left (§3.19)",
            key="players",
            value=list(rules.players),
            allowed="[2, 2], [3, 3] with loser_sits_out, [4, 4] with left",
        )
    rotation = values["dealer_rotation"]
    if rotation == "winner_deals" and any(rules.in_partnerships(p) for p in rules.player_counts):
        raise ConfigError(
            "4-player gin deals at both tables from the dealer's team and passes the deal left "
            "each hand; winner_deals is not defined for partnerships, where each hand has a "
            "winner at each table (RULES.md §3.19)",
            key="dealer_rotation",
            value=rotation,
            allowed="left with 4-player gin (winner_deals plays in 2-player gin, §3.17 open "
            "point 2)",
        )
    limit, opening = values["knock_limit"], values["gin_opening"]
    if opening == "deal_11_10":
        for name in ("spade_double", "oklahoma_extra_bonus"):
            if values[name]:
                raise ConfigError(
                    f"{name} needs an upcard, and gin_opening 'deal_11_10' has none",
                    key=name,
                    value=True,
                    allowed="off with deal_11_10 (RULES.md §3.20 open point 3)",
                )
        if limit == "upcard":
            raise ConfigError(
                "knock_limit 'upcard' needs an upcard, and gin_opening 'deal_11_10' has none",
                key="knock_limit",
                value=limit,
                allowed="unlimited, 10, 5 with deal_11_10 (RULES.md §3.20 open point 3)",
            )


def _check_shoe(rules: Rules, players: int) -> None:
    """The deal, the upcard and at least one stock card must fit in the shoe (§1.4)."""
    hand, decks = rules.hand_size(players), rules.decks_for(players)
    jokers = rules.jokers_for(players)
    upcard = 1 if rules.values["upcard"] else 0
    needed = players * hand + upcard + 1
    shoe = rules.pack_size * decks + jokers
    if needed > shoe:
        most = (shoe - upcard - 1) // players
        raise ConfigError(
            f"{players} players x {hand} cards + {upcard} upcard + 1 stock card = {needed} cards, "
            f"but the shoe holds {shoe} ({decks} x {rules.pack_size} + {jokers} jokers)",
            key="deal_size" if rules.values["deal_size"] else f"deal.{players}",
            value=hand,
            allowed=f"at most {most} cards each with {players} players and {decks} pack(s)",
        )


def _check_stripped_pack(rules: Rules) -> None:
    """The 40-card pack (RULES.md §2A.7) ranks A, 2, ..., 7, J, Q, K with the ace low, and
    in it a dealt 49 is impossible, so Tonk's instant tonk is 47 or 50 (§2L.56)."""
    values = rules.values
    if not values["strip_8_9_10"]:
        return
    if values["ace_rank"] != "low":
        raise ConfigError(
            f"the 40-card pack ranks the ace low, not {show(values['ace_rank'])}",
            key="ace_rank",
            value=values["ace_rank"],
            allowed="low with strip_8_9_10 (RULES.md §2A.7: A, 2, ..., 7, J, Q, K)",
        )
    if rules.family == "tonk" and values["tonk_instant"] == "49_50":
        raise ConfigError(
            "without 8s, 9s and 10s a dealt hand never totals 49 (48 and 49 are impossible)",
            key="tonk_instant",
            value="49_50",
            allowed="47_50 with strip_8_9_10 (RULES.md §2L.56), or 50, le15, le11, ranked",
        )


def _check_meld_capacity(rules: Rules) -> None:
    """A group of identical-rank cards must fit in the engine's meld slots."""
    if rules.values["group_duplicates"] != "allowed":
        return
    decks = max(rules.decks_for(p) for p in rules.player_counts)
    largest = 4 * decks + rules.values["jokers"]
    if largest > MAX_MELD_CARDS:
        raise ConfigError(
            f"with {decks} packs and {rules.values['jokers']} jokers a group could hold "
            f"{largest} cards, more than the engine's {MAX_MELD_CARDS} cards per meld; "
            "this is not supported by the engine yet (RULES.md §2B.9)",
            key="group_duplicates",
            value="allowed",
            allowed=f"forbidden, or at most {MAX_MELD_CARDS} cards of one rank in the shoe",
        )


def _check_initial_meld(rules: Rules) -> None:
    """The opening threshold and its discard rule (RULES.md §2D.24-25) need melds laid down
    during play, and the discard rule a single discard top to take."""
    values = rules.values
    minimum = values["initial_meld_min"]
    timing = values["meld_timing"]
    if minimum > 0 and timing != "progressive":
        raise ConfigError(
            f"initial_meld_min {minimum} counts the melds of a player's first lay-down turn, "
            f"and meld_timing {show(timing)} lays none down during play",
            key="initial_meld_min",
            value=minimum,
            allowed="0, or any threshold with meld_timing 'progressive' (RULES.md §2D.24)",
        )
    if minimum > 0 and values["discard_draw"] == "top_plus_one":
        raise ConfigError(
            f"initial_meld_min {minimum} with discard_draw 'top_plus_one' is not supported by "
            "the engine yet: a hand that takes two cards and discards one grows each turn "
            "while its melds wait for the threshold, past what the meld search handles",
            key="initial_meld_min",
            value=minimum,
            allowed="0 with discard_draw 'top_plus_one' (RULES.md §2D.24, §2C.16)",
        )
    before = values["discard_before_initial_meld"]
    if before == "free":
        return
    if minimum == 0:
        raise ConfigError(
            f"discard_before_initial_meld {show(before)} restricts the discard before an "
            "initial meld, and initial_meld_min 0 has none",
            key="discard_before_initial_meld",
            value=before,
            allowed="free, or only_for_initial_meld with initial_meld_min > 0 (RULES.md §2D.25)",
        )
    if values["discard_draw"] != "top":
        raise ConfigError(
            f"discard_before_initial_meld {show(before)} is about taking the discard top, "
            f"not discard_draw {show(values['discard_draw'])}",
            key="discard_before_initial_meld",
            value=before,
            allowed="free, or only_for_initial_meld with discard_draw 'top' (RULES.md §2D.25)",
        )


def _check_joker_slide(rules: Rules) -> None:
    """The slide (RULES.md §2B.13) moves a run's end joker to the card its new position
    fixes, which a run of one suit gives; its repeat extension needs the slide."""
    values = rules.values
    if values["joker_slide"] and values["run_suit"] == "any_suit":
        raise ConfigError(
            "joker_slide moves a run's end joker to the other end, where its position fixes "
            "its card; in a run of any suits a joker is a rank (or a declared card) and the "
            "engine does not play the slide there",
            key="joker_slide",
            value=True,
            allowed="off with run_suit 'any_suit', or run_suit 'same_suit' (RULES.md §2B.13)",
        )
    if values["joker_slide_repeat"] and not values["joker_slide"]:
        raise ConfigError(
            "joker_slide_repeat lets a joker slide again, and joker_slide is off",
            key="joker_slide_repeat",
            value=True,
            allowed="off, or on with joker_slide on (RULES.md §2B.13, §3.9 open point 2)",
        )


def _check_borrowing(rules: Rules) -> None:
    """Borrowing (RULES.md §2D.22) takes a card from a table meld during play."""
    borrowing, timing = rules.values["borrowing"], rules.values["meld_timing"]
    if borrowing != "off" and timing != "progressive":
        raise ConfigError(
            f"borrowing {show(borrowing)} takes a card from a meld on the table during play, "
            f"and meld_timing {show(timing)} lays none down then",
            key="borrowing",
            value=borrowing,
            allowed="off, or own / any with meld_timing 'progressive' (RULES.md §2D.22)",
        )


def _check_scoring_and_end(rules: Rules) -> None:
    """scoring and game_end must agree (RULES.md §2G.29, §2H.30)."""
    scoring = rules.values["scoring"]
    end, end_value = rules.option("game_end")
    if scoring == "penalty" and end not in ("penalty_limit", "fixed_hands", "deals_each"):
        raise ConfigError(
            f"scoring 'penalty' needs a game end that counts penalties, not {show(end)}",
            key="scoring",
            value=scoring,
            allowed="game_end = 'penalty_limit:L', 'fixed_hands:N' or 'deals_each:R' with "
            "scoring 'penalty'",
        )
    if end == "penalty_limit" and scoring != "penalty":
        raise ConfigError(
            f"game_end 'penalty_limit' needs scoring 'penalty', not {show(scoring)}",
            key="game_end",
            value=rules.values["game_end"],
            allowed="target:T, fixed_hands:N, deals_each:R or single_hand with this scoring",
        )
    cap = rules.values["hand_cap"]
    if end == "fixed_hands" and end_value > cap:
        raise ConfigError(
            f"a game of {end_value} hands would be cut by hand_cap = {cap}",
            key="game_end",
            value=rules.values["game_end"],
            allowed=f"fixed_hands:N with N <= hand_cap ({cap})",
        )
    most = max(rules.player_counts)
    if end == "deals_each" and (end_value < 1 or end_value * most > cap):
        raise ConfigError(
            f"deals_each:{end_value} at {most} players is {end_value * most} hands; a game "
            f"needs at least one deal each, within hand_cap = {cap}",
            key="game_end",
            value=rules.values["game_end"],
            allowed=f"deals_each:R with 1 <= R and R x {most} players <= hand_cap ({cap})",
        )
