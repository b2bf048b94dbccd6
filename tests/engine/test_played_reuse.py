"""``api.play(into=...)``: a ``Played`` reused for another call gives the rows a fresh one
gives (the benchmark keeps one for all its calls)."""

from __future__ import annotations

import numpy as np

from sim.engine import api
from sim.engine import layout as L

FIELDS = ("hand_rows", "hand_scores", "hand_totals", "hand_side", "game_rows", "game_scores")


def test_a_reused_played_gives_the_rows_of_a_fresh_one():
    params, values = api.make_params()
    bots = np.array([L.BOT_GREEDY, L.BOT_CAREFUL], np.int64)
    kept = api.play(params, values, bots, seed=1, hands=300)
    for first in (300, 600):
        where = {"seed": 1, "first_deal": first, "first_game": first, "hands": 300}
        fresh = api.play(params, values, bots, **where)
        again = api.play(params, values, bots, **where, into=kept)
        assert again is kept
        assert (again.hands, again.games) == (fresh.hands, fresh.games)
        for name in FIELDS:
            assert np.array_equal(getattr(again, name), getattr(fresh, name)), name
        assert np.array_equal(again.counters, fresh.counters)
    other = api.play(params, values, bots, seed=1, hands=200, into=kept)  # another shape
    assert other is not kept and other.hands == 200
