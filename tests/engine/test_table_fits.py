"""The fit masks the bitmask fast path keeps for the table (``table.refresh_fits``:
``sc[SC_FITS_ALL]`` and each owner's ``pl[p, PL_FITS_OWN]``) against ``table.lay_off_place``,
the count-array rule, on legal table melds laid down and grown by lay-offs.

RULES.md §1.6 (laying off: a card joins a group of its rank or extends a run of its suit at
either end), §2A.4 (every ace_rank moves a run's ends), §2B.9 (group_duplicates). Greedy,
careful and ``mask_hand`` read what fits the table only from these masks on the fast path (one
pack), and the count-array code only from ``lay_off_place``; both must name the same cards.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import api, melds, table
from sim.engine import layout as L
from sim.engine import state as S

from .helpers import mask_of

ACES = [L.ACE_LOW, L.ACE_HIGH, L.ACE_HIGH_OR_LOW, L.ACE_AROUND_CORNER]


def _deal_to_table(st, params, values, rng: random.Random) -> None:
    """Two players each lay down the best arrangement of a random set of cards, then lay off
    held cards wherever they fit, in random order (runs grow at both ends, groups to four)."""
    cards = rng.sample(range(L.N_NATURAL), rng.randint(14, 30))
    st.hand[:, :] = 0
    st.pl[:, :] = 0
    st.sc[:] = 0
    held = [cards[: len(cards) // 2], cards[len(cards) // 2 :]]
    for p in range(2):
        st.hand[p, :] = api.counts_of(held[p])
        st.pl[p, S.PL_N] = len(held[p])
        st.pl[p, S.PL_BITS] = mask_of(held[p])
    ws = melds.new_search_work()
    for p in range(2):
        melds.best_arrangement(ws, params, values, st.hand[p].copy(), 0)
        for b in range(int(ws.scal[melds.S_BEST_N])):
            row = ws.best[b]
            length = int(row[melds.CC_LEN])
            meld_cards = row[melds.CC_CARDS : melds.CC_CARDS + length].copy()
            table.lay_down(
                st, params, p, row[melds.CC_TYPE], row[melds.CC_START], length,
                row[melds.CC_SUIT], meld_cards,
            )  # fmt: skip
    for _ in range(3):
        for p in rng.sample(range(2), 2):
            for k in rng.sample(range(L.N_NATURAL), L.N_NATURAL):
                if st.hand[p, k] == 0:
                    continue
                for m in range(int(st.sc[S.SC_N_MELDS])):
                    place = table.lay_off_place(st, params, m, k)
                    if place != table.LAY_NONE:
                        table.lay_off(st, params, p, m, k, place)
                        break


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_1_6_the_kept_fit_masks_are_the_cards_lay_off_place_accepts(ace):
    params, values = api.make_params(ace_rank=ace)
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    rng = random.Random(100 + ace)
    grown = 0
    for _ in range(150):
        _deal_to_table(st, params, values, rng)
        n_melds = int(st.sc[S.SC_N_MELDS])
        on_table = {int(st.melds[m, S.MC_CARDS + i]) for m in range(n_melds)
                    for i in range(int(st.melds[m, S.MC_LEN]))}  # fmt: skip
        grown += sum(int(st.melds[m, S.MC_LEN]) > 3 for m in range(n_melds))
        for k in range(L.N_NATURAL):
            if k in on_table:
                continue
            fits = [table.lay_off_place(st, params, m, k) != table.LAY_NONE for m in range(n_melds)]
            assert (int(st.sc[S.SC_FITS_ALL]) >> k) & 1 == any(fits), (k, n_melds)
            for p in range(2):
                own = any(f and int(st.melds[m, S.MC_OWNER]) == p for m, f in enumerate(fits))
                assert (int(st.pl[p, S.PL_FITS_OWN]) >> k) & 1 == own, (k, p)
    assert grown > 50  # lay-offs grew melds, so refresh_fits ran on changed melds too
