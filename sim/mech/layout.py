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
        if value not in toggle.choices:
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
P_RUN_SUIT = slot("run_suit")
P_GROUP_DUPLICATES = slot("group_duplicates")

ACE_LOW = code("ace_rank", "low")
ACE_HIGH = code("ace_rank", "high")
ACE_HIGH_OR_LOW = code("ace_rank", "high_or_low")
ACE_AROUND_CORNER = code("ace_rank", "around_corner")
RUN_SAME_SUIT = code("run_suit", "same_suit")
RUN_ANY_SUIT = code("run_suit", "any_suit")
GROUP_DUPLICATES_FORBIDDEN = code("group_duplicates", "forbidden")
GROUP_DUPLICATES_ALLOWED = code("group_duplicates", "allowed")
