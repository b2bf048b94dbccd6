"""The fit masks the engine keeps for the table (``table.meld_fits`` in each
meld's ``M_FITS``, their union ``C_FITS`` and each owner's ``S_FITS_OWN``, kept by
``table.refresh_fits``) against the deadwood oracle's meld rule, on legal table melds laid
down and grown by lay-offs: ported from the old engine's test_table_fits.py.

RULES.md §1.6 (laying off: a card joins a group of its rank or extends a run of its suit at
either end), §2A.4 (every ace_rank moves a run's ends). Greedy and careful read what fits
the table only from these masks, so a card fits a meld exactly when the meld plus it is a
meld.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import melds as M
from sim.engine import state as S
from sim.engine.specs import GENERIC
from sim.engine.table import lay_down, lay_off
from tests.oracles import deadwood as oracle

from .helpers import cards_of, compiled

ACE_CODES = {name: code for code, name in oracle.ACE_RANK_NAMES.items()}  # the oracle's codes


def _deal_to_table(params, values, rng: random.Random):
    """Two players each lay down the best arrangement of a random set of cards, then lay off
    held cards wherever they fit, in random order (runs grow at both ends, groups to four)."""
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    st[S.R_SC, S.C_TAKEN] = -1
    events = np.zeros((1, S.EV_COLS), np.int64)
    work = M.new_work()
    cards = rng.sample(range(52), rng.randint(14, 30))
    held = [cards[: len(cards) // 2], cards[len(cards) // 2 :]]
    for p in range(2):
        for k in held[p]:
            S.give(GENERIC, params, st, p, k)
    for p in range(2):
        layers = st[S.R_SEAT + p, S.S_HAND : S.S_HAND + M.MAX_LAYERS].copy()
        M.best_arrangement(GENERIC, params, values, work, layers, 0, 0, 0, -1, 0)
        for b in range(int(work[M.W_SCAL, M.S_BEST_N])):
            lay_down(GENERIC, params, st, events, p, work, M.W_BEST + b)
    for _ in range(3):
        for p in rng.sample(range(2), 2):
            for k in rng.sample(range(52), 52):
                if not (int(st[S.R_SEAT + p, S.S_HAND]) >> k) & 1:
                    continue
                for m in range(int(st[S.R_SC, S.C_N_MELDS])):
                    if (int(st[S.R_MELD + m, S.M_FITS]) >> k) & 1:
                        lay_off(GENERIC, params, st, events, p, m, k)
                        break
    return st


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ["low", "high", "high_or_low", "around_corner"])
def test_1_6_the_kept_fit_masks_are_the_cards_that_make_a_meld_with_it(ace):
    params, values = compiled(ace_rank=ace, audit=False)
    code = ACE_CODES[ace]
    rng = random.Random(100 + code)
    grown = 0
    for _ in range(150):
        st = _deal_to_table(params, values, rng)
        n_melds = int(st[S.R_SC, S.C_N_MELDS])
        table = [cards_of(st[S.R_MELD + m, S.M_CARDS]) for m in range(n_melds)]
        on_table = {k for meld in table for k in meld}
        grown += sum(len(meld) > 3 for meld in table)
        every = 0
        own = [0, 0]
        for m, meld in enumerate(table):
            assert oracle.is_meld(meld, code, oracle.RUN_SAME_SUIT, False), meld
            assert int(st[S.R_MELD + m, S.M_LEN]) == len(meld)
            fits = int(st[S.R_MELD + m, S.M_FITS])
            want = [k for k in range(52) if k not in on_table
                    and oracle.is_meld([*meld, k], code, oracle.RUN_SAME_SUIT, False)]  # fmt: skip
            # (a card on another meld may be named: nobody can hold it with one pack)
            assert [k for k in cards_of(fits) if k not in on_table] == want, (meld, want)
            every |= fits
            own[int(st[S.R_MELD + m, S.M_OWNER])] |= fits
        assert int(st[S.R_SC, S.C_FITS]) == every
        assert [int(st[S.R_SEAT + p, S.S_FITS_OWN]) for p in range(2)] == own
    assert grown > 50  # lay-offs grew melds, so the masks were kept on changed melds too
