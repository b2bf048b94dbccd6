"""The hands table's action counts (``rows.H_TURNS`` to ``H_VIOLATIONS``): each hand's row
counts what its event log shows, in every family, the partnership's two tables summed.

These counts feed the report's time-at-the-table model (issue #30), so a count that drifts
from what was played would misstate how long a rule makes the game."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play
from tests.engine.helpers import GREEDY, RANDOM, compiled

# (variant, players, bot): every family and the mechanics that lay down, lay off or rebuild
CASES = [
    ("rummy_basic", 2, GREEDY),
    ("rummy_basic", 4, RANDOM),
    ("call_rummy", 3, GREEDY),
    ("throw_down_rummy", 2, RANDOM),
    ("full_rummy", 3, GREEDY),
    ("gin_rummy", 2, GREEDY),
    ("gin_rummy_4p", 4, GREEDY),
    ("knock_rummy", 3, RANDOM),
]

COUNTED = {
    R.H_DRAWS_STOCK: S.E_DRAW_STOCK,
    R.H_DRAWS_DISCARD: S.E_DRAW_DISCARD,
    R.H_MELDS: S.E_MELD,
    R.H_LAYOFFS: S.E_LAYOFF,
    R.H_REBUILDS: S.E_REBUILD,
}


def _per_hand_events(events: np.ndarray, partnership: bool) -> list[np.ndarray]:
    """The event log cut into hands: a hand ends at its ``E_END`` (a partnership hand at its
    ``E_TEAMS``, after both tables' ends)."""
    last = S.E_TEAMS if partnership else S.E_END
    hands, start = [], 0
    for i, etype in enumerate(events[:, S.EV_TYPE]):
        if etype == last:
            hands.append(events[start : i + 1, S.EV_TYPE])
            start = i + 1
    return hands


@pytest.mark.parametrize(("variant", "players", "bot"), CASES)
def test_each_hand_row_counts_what_its_event_log_shows(variant, players, bot):
    params, values = compiled(variant, players)
    out = play(params, values, np.full(players, bot, np.int64), seed=7, hands=60, events=200_000)
    hands = _per_hand_events(out.events, variant == "gin_rummy_4p")
    assert len(hands) == out.hands == 60
    for row, types in zip(out.hand_rows, hands, strict=True):
        for column, etype in COUNTED.items():
            assert row[column] == np.count_nonzero(types == etype), (column, etype)
        assert row[R.H_VIOLATIONS] == 0


def test_the_counts_see_melds_layoffs_and_rebuilds_somewhere():
    """Across the cases, every counted action happens (a test of zeros would pass vacuously)."""
    seen = np.zeros(R.N_HCOLS, np.int64)
    for variant, players, bot in CASES:
        params, values = compiled(variant, players, audit=False)
        out = play(params, values, np.full(players, bot, np.int64), seed=3, hands=200)
        seen += out.hand_rows.sum(axis=0)
    for column in COUNTED:
        assert seen[column] > 0, column
