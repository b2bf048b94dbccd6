"""The bots' answers in Carousel (RULES.md §3.16, docs/bots.md, "Carousel"): which meld
action, if any, after each of the first two draws of a turn, and whether to knock at its
end.

Rule slots read here: ``players``, ``packs`` (the knock limit is the caller's, and the
meld rules are the meld library's: ``ace_rank``, ``run_suit``, ``group_duplicates``).

**The table as the search takes it** (``table_in``): the table's natural cards as one
layered set, and for each table joker the card it stands for (a group's declaration,
``M_DECLARED``; a run's position, ``table.stands_for``), written to the workspace row
``repartition.W_TABLE``.

**The answers**, each a candidate of the meld action (``ACT_*``, applied by
``sim.engine.carousel``):

- ``ACT_HAND``: new melds from the hand alone, the table left as it is: the hand's best
  arrangement (``melds.best_arrangement``, its declared tie-break), all of its melds or
  one of them; the cheap first answer, one search of a hand of at most ~13 cards;
- ``ACT_LAYOFF``: one natural card of the hand laid off on the first table meld it fits
  (``M_FITS``);
- ``ACT_CHEAP``: the hand's own melds, then lay-offs of the cards left on the table's
  melds as they are, at most one on each (``layoff_plan``: the most valuable card left
  that fits it; one lay-off a meld, so none can take another's place: a 3-card group
  takes only one of its missing suits);
- ``ACT_TABLE``: the re-partition of the whole table with hand cards that the table
  search returns (``repartition.best_table_meld`` under a frame cap, ``NODE_CAP``: a
  search cut there plays the best it found, and may miss an action that exists).

**greedy** plays the most hand value it can. Its cheap first answer is ``ACT_CHEAP``, the
hand's own melds and the planned lay-offs: when that plays the whole hand it plays it
(nothing can play more); otherwise it asks the table search for a re-partition that plays
more (``better_than``: the search's bound starts there, which is what makes it cheap), and
plays that, else the cheap answer, else nothing. It knocks whenever it may
(5 points or less at the end of its turn).

**careful** melds as greedy and knocks only when it is likely lowest: with 5 points or
less and every opponent holding more cards than it does (a player with as few cards may
hold as few points, and a knocker tied or beaten pays the undercut).

**random** chooses uniformly (the bots' stream) among a bounded candidate set: each meld
of the hand's best arrangement alone, each natural kind of its hand that fits a table
meld (one lay-off), and the re-partition the table search returns (when it plays a
card); with none it does not meld. It knocks with probability 1/2 when it may.
"""

from __future__ import annotations

import numpy as np

from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import BOT_CAREFUL, BOT_RANDOM, P_PLAYERS
from sim.engine.melds import (
    CA_TAKE,
    MAX_LAYERS,
    MELD_GROUP,
    S_BEST_N,
    W_BEST,
    W_SCAL,
    best_arrangement,
    remove_one_each,
)
from sim.engine.repartition import (
    MAX_TABLE_JOKERS,
    RP_CAPPED,
    RW_SCAL,
    TB_DECLARED,
    TB_JOKERS,
    W_LEFT,
    W_PLAN,
    W_RP,
    W_TABLE,
    best_table_meld,
)
from sim.engine.rng import RNG_BOTS, below
from sim.engine.scoring import hand_value
from sim.engine.specs import rule
from sim.engine.state import (
    C_FITS,
    C_N_MELDS,
    M_CARDS,
    M_DECLARED,
    M_FITS,
    M_JOKERS,
    M_TYPE,
    R_MELD,
    R_SC,
    R_SEAT,
    S_HAND,
    S_JOKERS,
    S_N,
)
from sim.engine.table import stands_for

ACT_NONE = 0  # no meld action
ACT_HAND = 1  # the hand's own melds (workspace rows W_BEST..): arg -1 all, else row arg
ACT_LAYOFF = 2  # lay natural kind arg off on the first table meld it fits
ACT_TABLE = 3  # the table search's re-partition (repartition.W_RP)
ACT_CHEAP = 4  # the hand's own melds, then the lay-offs planned in repartition.W_PLAN
PLAN_MAX = 15  # lay-offs one plan holds
PLAN_MELD = 64  # a plan entry: meld * PLAN_MELD + kind

NODE_CAP = 300  # frames one table search may push (docs/engine.md, "Carousel": at 1,000
# greedy played 630-950 hands/s at 3-5 players, at 300 1,400-1,900)


@kernel
def add_set(layers, mask):
    """Add one copy of every natural kind of ``mask`` to the nested layered set."""
    for l in range(MAX_LAYERS):
        if mask == 0:
            return
        put = mask & ~layers[l]
        layers[l] |= put
        mask &= ~put


@kernel
def table_in(fx, params, st, work):
    """Write the table (module docstring) to row ``W_TABLE`` of ``work``: its natural cards
    as layers, the cards its jokers stand for from ``TB_DECLARED`` and their number at
    ``TB_JOKERS``; returns that number."""
    row = W_TABLE
    for l in range(MAX_LAYERS):
        work[row, l] = 0
    n = 0
    for m in range(st[R_SC, C_N_MELDS]):
        r = R_MELD + m
        for l in range(MAX_LAYERS):
            add_set(work[row, 0:MAX_LAYERS], st[r, M_CARDS + l])
        if st[r, M_JOKERS] == 0:
            continue
        stands = st[r, M_DECLARED]
        if st[r, M_TYPE] != MELD_GROUP:
            stands = stands_for(fx, params, st, m)
        for _ in range(st[r, M_JOKERS]):
            if stands == 0 or n == MAX_TABLE_JOKERS:
                break  # never: every Carousel joker stands for a card (joker_declare always)
            work[row, TB_DECLARED + n] = lowest_bit(stands)
            stands &= stands - 1
            n += 1
    work[row, TB_JOKERS] = n
    return n


@kernel
def hand_answer(fx, params, values, st, work, seat):
    """The hand's own melds (``ACT_HAND``) into ``work``'s rows ``W_BEST``..; returns the
    value they play."""
    row = R_SEAT + seat
    return best_arrangement(
        fx, params, values, work, st[row, S_HAND : S_HAND + MAX_LAYERS], st[row, S_JOKERS],
        np.int64(0), np.int64(0), np.int64(-1), np.int64(0),
    )  # fmt: skip


@kernel
def layoff_plan(fx, params, values, st, work, seat):
    """After the hand's own melds (``work`` rows ``W_BEST``.., ``hand_answer``): plan one
    lay-off on each table meld that a natural card left in ``seat``'s hand fits, the most
    valuable such card (module docstring), into row ``W_PLAN``; returns their value."""
    row = R_SEAT + seat
    left = work[W_LEFT, 0:MAX_LAYERS]
    for l in range(MAX_LAYERS):
        left[l] = st[row, S_HAND + l]
    for i in range(work[W_SCAL, S_BEST_N]):
        for l in range(MAX_LAYERS):
            if work[W_BEST + i, CA_TAKE + l] != 0:
                remove_one_each(left, np.int64(MAX_LAYERS), work[W_BEST + i, CA_TAKE + l])
    n = 0
    total = np.int64(0)
    for m in range(st[R_SC, C_N_MELDS]):
        if n == PLAN_MAX or left[0] == 0:
            break
        fits = st[R_MELD + m, M_FITS] & left[0]
        best = np.int64(-1)
        while fits != 0:
            k = lowest_bit(fits)
            fits &= fits - 1
            if best < 0 or values[k] > values[best]:
                best = k
        if best < 0:
            continue
        remove_one_each(left, np.int64(MAX_LAYERS), np.int64(1) << best)
        n += 1
        work[W_PLAN, n] = m * PLAN_MELD + best
        total += values[best]
    work[W_PLAN, 0] = n
    return total


@kernel
def table_answer(fx, params, values, st, work, seat, better_than, must):
    """The table search (``ACT_TABLE``) for a re-partition playing more than
    ``better_than`` of ``seat``'s hand value and, when he holds no joker, a natural card of
    ``must`` (-1: any; ``repartition.best_table_meld``); returns what it plays (0: none),
    its melds in the workspace's rows from ``W_RP``."""
    n = table_in(fx, params, st, work)
    row = R_SEAT + seat
    return best_table_meld(
        fx, params, values, work, work[W_RP:W_TABLE], st[row, S_HAND : S_HAND + MAX_LAYERS],
        st[row, S_JOKERS], work[W_TABLE, 0:MAX_LAYERS],
        work[W_TABLE, TB_DECLARED : TB_DECLARED + MAX_TABLE_JOKERS], n,
        np.int64(NODE_CAP), better_than, must,
    )  # fmt: skip


@kernel
def _greedy_answer(fx, params, values, st, work, seat, must):
    """greedy's and careful's meld action (module docstring): (``ACT_*``, argument)."""
    own = hand_answer(fx, params, values, st, work, seat)
    if own == 0:
        work[W_SCAL, S_BEST_N] = 0
    own += layoff_plan(fx, params, values, st, work, seat)
    if own > 0 and own == hand_value(fx, params, values, st, seat):
        return ACT_CHEAP, np.int64(0)
    if table_answer(fx, params, values, st, work, seat, own, must) > 0:
        return ACT_TABLE, np.int64(0)
    if own > 0:
        return ACT_CHEAP, np.int64(0)
    return ACT_NONE, np.int64(0)


@kernel
def _random_answer(fx, params, values, st, rng, work, seat, must):
    """random's meld action: uniform among its candidates (module docstring)."""
    hand_melds = np.int64(0)
    if hand_answer(fx, params, values, st, work, seat) > 0:
        hand_melds = work[W_SCAL, S_BEST_N]
    fits = st[R_SEAT + seat, S_HAND] & st[R_SC, C_FITS]
    table = np.int64(0)
    if table_answer(fx, params, values, st, work, seat, np.int64(0), must) > 0:
        table = np.int64(1)
    n = hand_melds + popcount(fits) + table
    if n == 0:
        return ACT_NONE, np.int64(0)
    pick = below(rng, np.int64(RNG_BOTS), n)
    if pick < hand_melds:
        return ACT_HAND, pick
    pick -= hand_melds
    if pick < popcount(fits):
        for _ in range(pick):
            fits &= fits - 1
        return ACT_LAYOFF, lowest_bit(fits)
    return ACT_TABLE, np.int64(0)


@kernel
def meld_answer(fx, params, values, bots, st, rng, work, seat, must):
    """``seat``'s bot's meld action now (module docstring): (``ACT_*``, argument), its
    melds left in ``work``. ``must`` (-1: any): the natural cards one of which any meld
    action must play (the caller knows that none existed before he drew one of them), which
    spares the table search where none of them melds."""
    if bots[seat] == BOT_RANDOM:
        return _random_answer(fx, params, values, st, rng, work, seat, must)
    return _greedy_answer(fx, params, values, st, work, seat, must)


@kernel
def searched_all(work):
    """Did the last table search finish within its frame cap (its answer is exact)?"""
    return work[W_RP + RW_SCAL, RP_CAPPED] == 0


@kernel
def wants_knock(fx, params, bots, st, rng, seat):
    """Does ``seat``'s bot knock, now that he may (module docstring)?"""
    bot = bots[seat]
    if bot == BOT_RANDOM:
        return below(rng, np.int64(RNG_BOTS), np.int64(2)) == 0
    if bot == BOT_CAREFUL:
        held = st[R_SEAT + seat, S_N]
        for p in range(rule(fx, params, P_PLAYERS)):
            if p != seat and st[R_SEAT + p, S_N] <= held:
                return False
    return True
