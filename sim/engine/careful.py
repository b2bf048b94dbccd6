"""The ``careful`` bot (docs/bots.md): greedy, plus memory of what is public.

**Seen, unseen, outs.** Careful has *seen* its hand, the natural cards of the table melds
and the discard pile; every other card of the shoe (each copy, with several packs) is
*unseen*, jokers aside. As layers: ``unseen[l]`` holds the kinds with more than ``l``
unseen copies. The *completers* of a hand are the natural kinds it does not hold that
would be in a meld of the hand plus that card (jokers not counted): a third (or fourth)
card of a rank whose group may hold it (two suits of the rank held; with
``group_duplicates = allowed``, two copies of the rank held, whatever their suits), or a
card on a run position whose window of three under the ace rule has its two other
positions held in its suit (any suits under ``run_suit = any_suit``). A hand's *outs* are
the unseen copies of its completers. Every unseen card is taken as equally likely next.

- **Draw**: greedy's rule (``greedy.greedy_wants``); and, while the stock is not empty,
  not under any-suit runs, it also takes the discard top when it is worth at most
  ``TAKE_MAX_VALUE`` points, is not a kind it took from the discard pile earlier in the
  hand, and adds at least ``TAKE_MIN_OUTS`` outs to the hand (the top still counts as
  seen). Under ``discard_draw = "any_card"`` the same test is asked of each card of the
  discard area, and under ``top_plus_one`` of the top and of the next discard, as greedy
  asks its own (``bots.py``, docs/bots.md); careful breaks a dead pass as greedy does.
- **Table**: it *holds for a rummy* when ``going_rummy`` is not off, it has played no card
  this hand, this turn is among the hand's first ``HOLD_TURNS * players`` turns and every
  opponent holds more than 3 cards. Holding, it plays nothing unless a meld may be laid
  down now and the whole hand can go: it takes greedy's arrangement (with its planned
  discard where one is needed), then counts the cards left outside it, the planned
  discard aside, one copy of each kind that fits a table meld it may lay off on now taken
  away (none under ``one_or_layoff`` when the arrangement lays a meld down). With a
  planned discard that count must be 0; without, 0, or 1 card that it may discard now
  (the card taken from the discard pile only if the arrangement melds a copy of it). Then
  it plays as greedy (``greedy.greedy_table``); else it plays nothing and keeps no
  planned discard. Not holding, it plays as greedy. While it holds and plays nothing it
  replaces no table joker either (a replacement plays a card, §2B.12). It declares a
  joker as the card with the fewest copies it has not seen (``joker_choice``).
- **Discard**: the planned card if any; else each allowed natural kind scores its value,
  less ``out_points`` (``OUT_POINTS``, under any-suit runs ``OUT_POINTS_ANY_SUIT``, per
  opponent, at most ``MAX_OPPONENTS``) for each out the hand loses without one copy of
  it, less ``WANTED_POINTS`` when it fits a table meld (whoever may lay off on it; no
  table meld takes lay-offs under ``layoff_target = none``) or is a completer of the
  kinds the next player took from the discard pile this hand, less ``MELDED_POINTS`` when
  it is in a meld of the hand (``melds.meldable``). The highest score goes; ties go to
  the higher kind; a joker only when no natural card may go. As greedy, a card that came
  round (``C_COME_ROUND``, ``greedy.py``) is not discarded while another card may be.

The weights were chosen by measuring careful against greedy on the previous engine
(docs/bots.md has the tables); they are points, the unit of ``values``.

**Restricted play** (docs/bots.md, "Restricted play"; the seat's ``flags``,
``sim.engine.restrict``): ``holds`` is careful's holding rule with the bot's restriction:
``careful-outfirst`` (``RESTRICT_OUT_FIRST``) never holds (it lays down all it can at
once, as greedy); ``camper`` (``RESTRICT_CAMPER``) in progressive rummy (``FAMILY_RUMMY``)
holds, whatever ``going_rummy`` says, while it has played no card this hand, every
opponent holds more than ``CAMPER_SAFE_CARDS`` cards, the stock has not been rebuilt this
hand and holds more than ``CAMPER_STOCK_PER_PLAYER`` cards per player: no turn limit.
``careful-nolayoff`` (``RESTRICT_NO_LAYOFF``) counts no lay-off when it tests whether its
whole hand can go, lays nothing off (``greedy.greedy_table``), takes no discard to lay it
off (``greedy.greedy_wants``) and does not hold back as wanted a card that fits a table
meld (``careful_discard``): a card it may only lay off is a card it cannot use.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER
from sim.engine.bitops import highest_bit, popcount
from sim.engine.deal import next_seat
from sim.engine.greedy import (
    discard_candidates,
    greedy_arrangement,
    greedy_table,
    greedy_wants,
)
from sim.engine.jit import kernel
from sim.engine.layout import (
    BOT_CAREFUL,
    GROUP_DUPLICATES_ALLOWED,
    LAYOFF_NONE,
    MELDS_ONE_OR_LAYOFF,
    P_GOING_RUMMY,
    P_GROUP_DUPLICATES,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_PACKS,
    P_PLAYERS,
    P_RUN_SUIT,
    RESTRICT_CAMPER,
    RESTRICT_NO_LAYOFF,
    RESTRICT_OUT_FIRST,
    RUMMY_OFF,
    RUN_ANY_SUIT,
)
from sim.engine.legal import discard_allowed
from sim.engine.melds import (
    CA_JOKERS,
    CA_TAKE,
    FULL,
    MAX_LAYERS,
    S_BEST_N,
    SUIT0,
    W_BEST,
    W_SCAL,
    W_TMP,
    _from_positions,
    _to_positions,
    _window_starts,
    meldable,
    pack_kinds,
    remove_one_each,
    run_layout,
)
from sim.engine.restrict import camper_style
from sim.engine.specs import rule
from sim.engine.state import (
    C_DISCARD_N,
    C_FITS,
    C_N_MELDS,
    C_PLAN,
    C_REBUILDS,
    C_STOCK_N,
    C_TAKEN,
    C_TAKEN2,
    C_TOOK_UNOPENED,
    C_TURN,
    M_CARDS,
    PILE_DISCARD,
    R_MELD,
    R_SC,
    R_SEAT,
    S_HAND,
    S_JOKERS,
    S_N,
    S_PICKED,
    S_PLAYED,
)
from sim.engine.table import layoff_targets, may_meld_now

OUT_POINTS = 4
"""An out given up by a discard costs ``OUT_POINTS`` points per opponent, counting at most
``MAX_OPPONENTS`` (2 players: 4, 3 players: 8, 4 or more: 12)."""
MAX_OPPONENTS = 3
OUT_POINTS_ANY_SUIT = 2
"""Under ``run_suit = any_suit`` nearly every card has several outs: an out is worth
``OUT_POINTS_ANY_SUIT`` per opponent, and the extra take is never made."""
WANTED_POINTS = 25
"""A card the next player is likely to take scores this much less."""
MELDED_POINTS = 100
"""A card in a meld of the hand scores this much less: it goes only when every allowed card
is melded."""
TAKE_MAX_VALUE = 5
"""Careful also takes a discard worth at most this many points ..."""
TAKE_MIN_OUTS = 2
"""... when it adds at least this many outs to the hand."""
HOLD_TURNS = 6
"""Careful holds its melds for a rummy during each player's first 6 turns at most (without
a limit two holding bots would never meld)."""
CAMPER_SAFE_CARDS = 2
"""Camper stops holding for a rummy once an opponent holds this many cards or fewer ..."""
CAMPER_STOCK_PER_PLAYER = 2
"""... or the stock holds this many cards per player or fewer, or has been rebuilt."""


@kernel
def completers(fx, params, present, second):
    """The natural kinds outside ``present`` (the kinds held) that would be in a meld of
    the hand plus that card (module docstring); ``second`` holds the kinds held twice or
    more (the groups' copies under ``group_duplicates = allowed``)."""
    x0 = present & SUIT0
    x1 = (present >> 1) & SUIT0
    x2 = (present >> 2) & SUIT0
    x3 = (present >> 3) & SUIT0
    pairs = (x0 & (x1 | x2 | x3)) | (x1 & (x2 | x3)) | (x2 & x3)
    if rule(fx, params, P_PACKS) > 1 and (
        rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED
    ):
        pairs |= (second | (second >> 1) | (second >> 2) | (second >> 3)) & SUIT0
    out = pairs * 0xF
    ace_rank = run_layout(fx, params)
    e = _to_positions(present, ace_rank)
    starts = _window_starts(ace_rank)
    if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        e = (e | (e >> 1) | (e >> 2) | (e >> 3)) & (SUIT0 | (SUIT0 << 52))
    a = e & starts  # bit s * 4 + suit: the first position of the window at s is held
    b = (e >> 4) & starts
    c = (e >> 8) & starts
    runs = (b & c) | ((a & c) << 4) | ((a & b) << 8)
    if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        runs *= 0xF
    out |= _from_positions(runs, ace_rank)
    return out & ~present & FULL


@kernel
def _add_copies(n_layers, s0, s1, s2, s3, x):
    """The layered set (``s0`` .. ``s3``) with one more copy of every kind of ``x``."""
    if n_layers == 1:
        return s0 | x, s1, s2, s3
    c = x & s0
    s0 |= x
    x = c
    c = x & s1
    s1 |= x
    x = c
    c = x & s2
    s2 |= x
    s3 |= c
    return s0, s1, s2, s3


@kernel
def unseen_layers(fx, params, st, piles, seat):
    """The natural cards ``seat`` has not seen (not in his hand, on the table or in the
    discard pile) as layers ``(u0, u1, u2, u3)``: ``u_l`` holds the kinds with more than
    ``l`` unseen copies (layers past ``packs`` are empty)."""
    n = rule(fx, params, P_PACKS)
    s0 = np.int64(0)
    s1 = np.int64(0)
    s2 = np.int64(0)
    s3 = np.int64(0)
    for l in range(n):
        s0, s1, s2, s3 = _add_copies(n, s0, s1, s2, s3, st[R_SEAT + seat, S_HAND + l])
    for m in range(st[R_SC, C_N_MELDS]):
        for l in range(n):
            s0, s1, s2, s3 = _add_copies(n, s0, s1, s2, s3, st[R_MELD + m, M_CARDS + l])
    for i in range(st[R_SC, C_DISCARD_N]):
        k = piles[PILE_DISCARD, i]
        if k != JOKER:
            s0, s1, s2, s3 = _add_copies(n, s0, s1, s2, s3, np.int64(1) << k)
    # more than l unseen copies: fewer than n - l seen, i.e. not in seen layer n - 1 - l
    kinds = pack_kinds(fx, params)
    u0 = ~(s0 if n == 1 else s1 if n == 2 else s2 if n == 3 else s3) & kinds
    u1 = np.int64(0)
    u2 = np.int64(0)
    u3 = np.int64(0)
    if n >= 2:
        u1 = ~(s0 if n == 2 else s1 if n == 3 else s2) & kinds
    if n >= 3:
        u2 = ~(s0 if n == 3 else s1) & kinds
    if n >= 4:
        u3 = ~s0 & kinds
    return u0, u1, u2, u3


@kernel
def _count(mask, u0, u1, u2, u3):
    """The unseen copies of the kinds of ``mask``."""
    return popcount(mask & u0) + popcount(mask & u1) + popcount(mask & u2) + popcount(mask & u3)


@kernel
def _hand_layers(fx, params, st, seat):
    """The first three layers of ``seat``'s hand (0 past ``packs``)."""
    n = rule(fx, params, P_PACKS)
    row = R_SEAT + seat
    h1 = st[row, S_HAND + 1] if n > 1 else np.int64(0)
    h2 = st[row, S_HAND + 2] if n > 2 else np.int64(0)
    return st[row, S_HAND], h1, h2


@kernel
def out_points(fx, params):
    """What one out given up costs a discard's score."""
    per = OUT_POINTS_ANY_SUIT if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT else OUT_POINTS
    return per * min(rule(fx, params, P_PLAYERS) - 1, MAX_OPPONENTS)


@kernel
def careful_discard(fx, params, values, st, piles, seat, flags):
    """Careful's discard (module docstring); under ``RESTRICT_NO_LAYOFF`` in ``flags`` a
    card that fits a table meld is not held back as wanted (careful lays such a card off
    before it discards; kept, it would never leave the hand)."""
    plan = st[R_SC, C_PLAN]
    if plan >= 0 and discard_allowed(fx, params, st, seat, plan):
        return plan
    allowed = discard_candidates(st, seat)
    if allowed == 0:
        return JOKER
    u0, u1, u2, u3 = unseen_layers(fx, params, st, piles, seat)
    h0, h1, h2 = _hand_layers(fx, params, st, seat)
    now = _count(completers(fx, params, h0, h1), u0, u1, u2, u3)
    picked = st[R_SEAT + next_seat(fx, params, st, seat), S_PICKED]
    wanted = completers(fx, params, picked, np.int64(0))
    if rule(fx, params, P_LAYOFF_TARGET) != LAYOFF_NONE and flags & RESTRICT_NO_LAYOFF == 0:
        wanted |= st[R_SC, C_FITS]
    melded = meldable(
        fx,
        params,
        st[R_SEAT + seat, S_HAND : S_HAND + MAX_LAYERS],
        rule(fx, params, P_PACKS),
        st[R_SEAT + seat, S_JOKERS],
    )
    per_out = out_points(fx, params)
    best = JOKER
    best_s = -(10**9)
    rest = allowed
    while rest != 0:
        k = highest_bit(rest)
        bit = np.int64(1) << k
        rest &= ~bit
        # one copy of k goes: k stays in a layer when the next layer up holds it
        g0 = (h0 & ~bit) | (h1 & bit)
        g1 = (h1 & ~bit) | (h2 & bit)
        lost = now - _count(completers(fx, params, g0, g1), u0, u1, u2, u3)
        s = values[k] - per_out * lost
        if wanted & bit != 0:
            s -= WANTED_POINTS
        if melded & bit != 0:
            s -= MELDED_POINTS
        if s > best_s:
            best_s = s
            best = k
    return best


@kernel
def careful_wants(fx, params, values, st, piles, work, seat, top, flags):
    """Does careful take ``top`` from the discard pile (module docstring; ``flags``: the
    take-test's restriction, ``greedy.greedy_wants``)?"""
    if greedy_wants(fx, params, values, st, work, seat, top, flags):
        return True
    if st[R_SC, C_STOCK_N] == 0 or rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        return False
    bit = np.int64(1) << top
    if values[top] > TAKE_MAX_VALUE or st[R_SEAT + seat, S_PICKED] & bit != 0:
        return False
    u0, u1, u2, u3 = unseen_layers(fx, params, st, piles, seat)  # top still seen
    h0, h1, _ = _hand_layers(fx, params, st, seat)
    before = _count(completers(fx, params, h0, h1), u0, u1, u2, u3)
    after = _count(completers(fx, params, h0 | bit, h1 | (h0 & bit)), u0, u1, u2, u3)
    return after - before >= TAKE_MIN_OUTS


@kernel
def holds_for_rummy(fx, params, st, seat):
    """Does careful hold its melds for a rummy this turn (module docstring)?"""
    if rule(fx, params, P_GOING_RUMMY) == RUMMY_OFF or st[R_SEAT + seat, S_PLAYED] == 1:
        return False
    players = rule(fx, params, P_PLAYERS)
    if st[R_SC, C_TURN] >= HOLD_TURNS * players:  # turns played before this one
        return False
    for q in range(players):
        if q != seat and st[R_SEAT + q, S_N] <= 3:
            return False
    return True


@kernel
def holds(fx, params, st, seat, flags):
    """Does a careful bot with restriction ``flags`` hold its melds for a rummy this turn
    (module docstring, "Restricted play")?"""
    if flags & RESTRICT_OUT_FIRST != 0:
        return False
    if flags & RESTRICT_CAMPER != 0 and camper_style(fx, params):
        return _camper_holds(fx, params, st, seat)
    return holds_for_rummy(fx, params, st, seat)


@kernel
def _camper_holds(fx, params, st, seat):
    """Camper's hold in progressive rummy (module docstring, "Restricted play")."""
    if st[R_SEAT + seat, S_PLAYED] == 1:
        return False
    players = rule(fx, params, P_PLAYERS)
    if st[R_SC, C_REBUILDS] > 0 or st[R_SC, C_STOCK_N] <= CAMPER_STOCK_PER_PLAYER * players:
        return False
    for q in range(players):
        if q != seat and st[R_SEAT + q, S_N] <= CAMPER_SAFE_CARDS:
            return False
    return True


@kernel
def _whole_hand_goes(fx, params, st, work, seat, flags):
    """After greedy's arrangement (``work`` rows ``W_BEST``..): would the whole hand go
    this turn (module docstring, the count of the cards left; no lay-off under
    ``RESTRICT_NO_LAYOFF``)?"""
    n_layers = rule(fx, params, P_PACKS)
    n_best = work[W_SCAL, S_BEST_N]
    left = work[W_TMP, 0:MAX_LAYERS]
    for l in range(MAX_LAYERS):
        left[l] = st[R_SEAT + seat, S_HAND + l] if l < n_layers else 0
    jokers = st[R_SEAT + seat, S_JOKERS]
    melded = np.int64(0)
    for row in range(W_BEST, W_BEST + n_best):
        for l in range(n_layers):
            if work[row, CA_TAKE + l] != 0:
                remove_one_each(left, n_layers, work[row, CA_TAKE + l])
                melded |= work[row, CA_TAKE + l]
        jokers -= work[row, CA_JOKERS]
    plan = st[R_SC, C_PLAN]
    if plan == JOKER:
        jokers -= 1
    elif plan >= 0:
        remove_one_each(left, n_layers, np.int64(1) << plan)
    targets = np.int64(0)
    if flags & RESTRICT_NO_LAYOFF == 0 and not (
        rule(fx, params, P_MELDS_PER_TURN) == MELDS_ONE_OR_LAYOFF and n_best > 0
    ):
        targets = layoff_targets(fx, params, st, seat)
    count = jokers - popcount(left[0] & targets)
    for l in range(n_layers):
        count += popcount(left[l])
    if plan >= 0:
        return count == 0
    if count != 1:
        return count == 0
    rem = left[0] & ~targets
    if n_layers > 1:
        rem |= left[1]  # a second copy stays when one is laid off
    last = highest_bit(rem) if rem != 0 else JOKER
    if not discard_allowed(fx, params, st, seat, last):
        return False
    if last == st[R_SC, C_TAKEN] or last == st[R_SC, C_TAKEN2]:
        return last != JOKER and (melded >> last) & 1 == 1  # melding a copy spends §1.5
    return True


@kernel
def careful_table(fx, params, values, st, piles, rng, events, work, seat, flags):
    """Careful's lay-downs and lay-offs (module docstring), under restriction ``flags``."""
    bot = np.int64(BOT_CAREFUL)
    # a discard taken for the initial meld is melded this turn (§2D.25): nothing is held
    if not holds(fx, params, st, seat, flags) or st[R_SC, C_TOOK_UNOPENED] == 1:
        greedy_table(fx, params, values, st, piles, rng, events, work, seat, bot, flags)
        return
    if not may_meld_now(fx, params, st):
        return
    greedy_arrangement(fx, params, values, st, work, seat)
    if _whole_hand_goes(fx, params, st, work, seat, flags):
        greedy_table(fx, params, values, st, piles, rng, events, work, seat, bot, flags)
    else:
        st[R_SC, C_PLAN] = -1  # nothing is played: no card is kept back
