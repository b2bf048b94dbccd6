"""Practical-equivalence bands: how big a change of each report metric must be to matter at a
table (issue #30 point 1). Part of the runner-report contract: an experiment file may set
them (``[bands]``), the manifest records them, the report's verdicts read them.

A band is in the metric's own units: turns, hands, points, lead changes; a share (a win
rate, an end reason's share of hands) in percentage points. A change whose Holm-adjusted
interval lies wholly outside ``[-band, +band]`` is a finding, one wholly inside is "no
practical difference", anything else "inconclusive: more hands needed"
(``sim.report.answer``).

The defaults are a judgement, stated so it can be argued with: about what a player would
notice over an evening (a turn more per hand, a quarter of a hand more per game, two points
a hand, five points of final margin, one percentage point of a win rate or an ending).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from sim.engine.rows import REASON_NAMES

DEFAULT_BANDS: dict[str, float] = {
    "turns_mean": 1.0,  # turns per hand
    "turns_sd": 1.0,  # turns
    "hands_per_game": 0.25,  # hands
    "minutes_mean": 0.1,  # minutes per hand (sim.dataset.timing): one turn at its default 6 s
    "minutes_per_game": 1.0,  # minutes per game at the table
    "points_mean": 2.0,  # points per hand
    "points_sd": 2.0,  # points
    "margin_mean": 5.0,  # points of final margin
    "comeback_share": 2.0,  # percentage points of games won from behind
    "lead_changes": 0.1,  # lead changes per game
    "dealer_win": 1.0,  # percentage points
    "first_win": 1.0,  # percentage points
    "share": 1.0,  # percentage points of hands, for every end reason (share_<reason>)
    "seat_edge": 1.0,  # pp of won hands from a seat's fair share (every seat<s>_edge)
    "seat_game_edge": 2.0,  # pp of won games from a seat's fair share (seat<s>_game_edge)
    "dealer_edge": 1.0,  # pp of won hands from the dealer's fair share
    "dealer_points_edge": 1.0,  # points per hand the dealer's side wins over a side's mean
}
"""Band per metric; ``share`` covers every ``share_<reason>`` not named on its own, and
``seat_edge`` / ``seat_game_edge`` every seat's ``seat<s>_edge`` / ``seat<s>_game_edge``.
A game is won by one seat of several, over many hands, so a seat's share of games moves
more with luck and matters more to a player than its share of hands: its band is twice."""


def known_metric(name: str) -> bool:
    """Whether ``name`` can carry a band: a default's name or ``share_<end reason>``."""
    if name in DEFAULT_BANDS:
        return True
    return name.startswith("share_") and name.removeprefix("share_") in REASON_NAMES


def band_for(name: str, bands: Mapping[str, float] | None = None) -> float:
    """The band of metric ``name`` in its displayed units (percentage points for shares):
    ``bands`` (an experiment's) first, then the defaults."""
    chosen = {**DEFAULT_BANDS, **(bands or {})}
    if name in chosen:
        return float(chosen[name])
    if name.startswith("share_"):
        return float(chosen["share"])
    seat = re.fullmatch(r"seat\d+_(game_edge|edge)", name)
    if seat:
        return float(chosen[f"seat_{seat.group(1)}"])
    raise KeyError(f"no practical band for metric {name!r}")
