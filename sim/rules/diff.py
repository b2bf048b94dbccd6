"""What one rule set changes against another, every setting resolved (issue #30 point 2).

An experiment arm states only its overrides (``rules = { ace_rank = "high" }``), but what it
plays is the resolved rule set: its variant's settings, presets and ``extends`` applied,
and ``ace_points = "auto"`` turned into a number (RULES.md §2A.5). A comparison is only
honest when the reader sees every setting that differs, so "ace high" shows that it also
raises the ace's penalty: ``ace_rank low → high; ace_points 1 → 10``.

:func:`resolved_settings` lists every game rule of a rule set at one table size (engine
policy such as the turn cap is left out: it is not a rule); :func:`rules_diff` compares two
of them setting by setting, in the declaration order of ``sim.rules.toggles``.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.rules.model import Rules
from sim.rules.toggles import BY_NAME, RULE_NAMES

TABLE_SETTINGS = (("family", "4A"), ("hand_size", "1.4"), ("packs", "2A.1"))
"""Settings of a table that are not toggles: the family, the cards dealt and the packs in
play at that player count (a variant's ``[deal]`` and ``[decks_by_players]``; its
``[jokers_by_players]`` is the ``jokers`` setting's value at that count)."""


@dataclass(frozen=True)
class Change:
    """One setting that differs: its name, RULES.md section, and both values as text."""

    name: str
    section: str
    before: str
    after: str

    def text(self) -> str:
        """``ace_points 1 → 10``."""
        return f"{self.name} {self.before} → {self.after}"


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def resolved_settings(rules: Rules, players: int) -> dict[str, tuple[str, str]]:
    """Every game setting of ``rules`` at a table of ``players``: name -> (RULES.md section,
    value as text), ``ace_points = "auto"`` resolved to its points."""
    hand_size, _ = rules.deal_for(players)
    table = {"family": rules.family, "hand_size": hand_size, "packs": rules.decks_for(players)}
    settings = {name: (section, _text(table[name])) for name, section in TABLE_SETTINGS}
    for name in RULE_NAMES:
        value = rules.ace_value if name == "ace_points" else rules[name]
        if name == "jokers":  # a variant's [jokers_by_players] at this table
            value = rules.jokers_for(players)
        settings[name] = (BY_NAME[name].section, _text(value))
    return settings


def rules_diff(base: Rules, other: Rules, players: int) -> tuple[Change, ...]:
    """The settings in which ``other`` differs from ``base`` at a table of ``players``."""
    before = resolved_settings(base, players)
    after = resolved_settings(other, players)
    return tuple(
        Change(name, section, before[name][1], value)
        for name, (section, value) in after.items()
        if before[name][1] != value
    )


def diff_text(changes: tuple[Change, ...]) -> str:
    """The changes as one line (``ace_rank low → high; ace_points 1 → 10``), or
    ``"same rules"`` when there are none."""
    return "; ".join(c.text() for c in changes) or "same rules"
