"""Table melds: laying down, laying off and joker replacement (RULES.md §1.5–1.6, §2B, §2D).

All functions take a ``HandState`` (``state.py``) and ``params``.
"""

from __future__ import annotations

from sim.engine.bits import RANK_FIELD, bit, fast_path, lowest_bit, nth_lowest_bit, popcount
from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import (
    JDECLARE_ALWAYS,
    JDECLARE_INFERRED,
    JDECLARE_THREE_CARD_GROUP,
    JOKER,
    JREPLACE_STEAL,
    LAYOFF_NONE,
    LAYOFF_OWN_ONLY,
    LREQ_AFTER_FIRST_MELD,
    LREQ_AFTER_OWN_LAYOFF,
    MAX_MELD_CARDS,
    MELD_GROUP,
    MELD_RUN,
    MELDS_ONE,
    MELDS_ONE_OR_LAYOFF,
    N_SUITS,
    P_ACE_RANK,
    P_GROUP_DUPLICATES,
    P_JOKER_DECLARE,
    P_JOKER_REPLACE,
    P_LAYOFF_REQUIRES,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_MUST_DISCARD_TO_GO_OUT,
    P_RUN_SUIT,
    RUN_ANY_SUIT,
)
from sim.engine.positions import MAX_RUN, position_ok, rank_at
from sim.engine.state import (
    E_DECLARE,
    E_LAYOFF,
    E_MELD,
    E_STEAL,
    F_HAS_MELDED,
    F_LAID_OFF_OWN,
    MC_CARDS,
    MC_DECLARED,
    MC_FITS,
    MC_LEN,
    MC_OWNER,
    MC_START,
    MC_SUIT,
    MC_TYPE,
    PL_BITS,
    PL_FITS_OWN,
    PL_N,
    SC_FITS_ALL,
    SC_LAYOFFS_TURN,
    SC_MELDS_TURN,
    SC_N_MELDS,
    SC_STEALS_TURN,
    SC_TAKEN,
    give,
    has_allowed_discard,
    log_card,
    log_event,
    take,
)

# where a card goes when laid off
LAY_NONE = 0
LAY_LOW = 1  # before the first card of a run
LAY_HIGH = 2  # after the last card of a run
LAY_GROUP = 3  # into a group


@inline_kernel
def meld_limit(params):
    """New melds allowed per turn (0 = unlimited), RULES.md §2D.19."""
    if params[P_MELDS_PER_TURN] == MELDS_ONE or params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF:
        return 1
    return 0


@inline_kernel
def may_meld_now(st, params):
    """Whether another new meld may be laid down this turn (§2D.19)."""
    limit = meld_limit(params)
    if limit > 0 and st.sc[SC_MELDS_TURN] >= limit:
        return False
    if params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and st.sc[SC_LAYOFFS_TURN] > 0:
        return False
    return True


@inline_kernel
def may_lay_off_on(st, params, player, m):
    """Whether ``player`` may lay off on table meld ``m`` now (§2D.19–21)."""
    if params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and st.sc[SC_MELDS_TURN] > 0:
        return False
    target = params[P_LAYOFF_TARGET]
    if target == LAYOFF_NONE:
        return False
    own = st.melds[m, MC_OWNER] == player
    if own:
        return True
    if target == LAYOFF_OWN_ONLY:
        return False
    req = params[P_LAYOFF_REQUIRES]
    if req == LREQ_AFTER_FIRST_MELD:
        return st.pl[player, F_HAS_MELDED] == 1
    if req == LREQ_AFTER_OWN_LAYOFF:
        return st.pl[player, F_LAID_OFF_OWN] == 1
    return True


@kernel
def lay_off_place(st, params, m, kind):
    """Where ``kind`` could be added to meld ``m`` keeping it legal (``LAY_*``)."""
    length = st.melds[m, MC_LEN]
    if st.melds[m, MC_TYPE] == MELD_GROUP:
        if params[P_GROUP_DUPLICATES] == 1:
            if length >= MAX_MELD_CARDS:
                return LAY_NONE
            if kind == JOKER or kind // N_SUITS == st.melds[m, MC_START]:
                return LAY_GROUP
            return LAY_NONE
        if length >= 4:
            return LAY_NONE
        if kind == JOKER:
            return LAY_GROUP
        if kind // N_SUITS != st.melds[m, MC_START]:
            return LAY_NONE
        if (st.melds[m, MC_DECLARED] >> kind) & 1 == 1:
            return LAY_NONE  # a joker of the group was declared as this card (§2B.11)
        for i in range(length):
            if st.melds[m, MC_CARDS + i] == kind:
                return LAY_NONE
        return LAY_GROUP
    if length >= MAX_RUN:
        return LAY_NONE
    ace_rank = params[P_ACE_RANK]
    start = st.melds[m, MC_START]
    high = position_ok(start + length, ace_rank)
    low = position_ok(start - 1, ace_rank)
    if kind == JOKER:
        if high >= 0:
            return LAY_HIGH
        if low >= 0:
            return LAY_LOW
        return LAY_NONE
    if params[P_RUN_SUIT] != RUN_ANY_SUIT and kind % N_SUITS != st.melds[m, MC_SUIT]:
        return LAY_NONE
    rank = kind // N_SUITS
    if high >= 0 and rank_at(high, ace_rank) == rank:
        return LAY_HIGH
    if low >= 0 and rank_at(low, ace_rank) == rank:
        return LAY_LOW
    return LAY_NONE


@inline_kernel
def turn_stays_finishable_bits(st, params, player, kind):
    """``turn_stays_finishable`` on the hand mask (one pack, no jokers: ``bits.fast_path``):
    some other held card, not the one taken from the discard pile, is left to discard."""
    if st.pl[player, PL_N] == 1:
        return params[P_MUST_DISCARD_TO_GO_OUT] == 0
    taken = st.sc[SC_TAKEN]
    left = st.pl[player, PL_BITS] & ~bit(kind)
    if taken >= 0 and taken != kind:
        left &= ~bit(taken)
    return left != 0


@kernel
def turn_stays_finishable(st, params, player, kind):
    """After ``kind`` leaves ``player``'s hand by meld or lay-off, can the turn still end
    legally: either the hand is empty and going out without a discard is allowed, or some
    card may still be discarded (§1.5 engine note, §2E.26)."""
    if fast_path(params):
        return turn_stays_finishable_bits(st, params, player, kind)
    if st.pl[player, PL_N] == 1:
        return params[P_MUST_DISCARD_TO_GO_OUT] == 0
    taken = st.sc[SC_TAKEN]
    if kind == taken:
        st.sc[SC_TAKEN] = -1  # the copy played is the one taken (identical copies)
    take(st, player, kind)
    ok = has_allowed_discard(st, player)
    give(st, player, kind)
    st.sc[SC_TAKEN] = taken
    return ok


@kernel
def _played(st, kind):
    """A card of the kind taken from the discard pile this turn went to the table: with
    identical copies the player may say it was the taken one, so the no-discard rule is
    spent (§1.5)."""
    if kind == st.sc[SC_TAKEN]:
        st.sc[SC_TAKEN] = -1


@inline_kernel
def meld_fits_bits(melds, params, m):
    """The natural kinds that could be laid off on table meld ``m`` (``melds``: the table,
    ``MC_*`` columns), as a mask (one pack, no jokers: ``bits.fast_path``). For a card not
    already on the table these are exactly the cards ``lay_off_place`` accepts; a group's
    mask also covers its own cards, which nobody holds."""
    length = melds[m, MC_LEN]
    start = melds[m, MC_START]
    if melds[m, MC_TYPE] == MELD_GROUP:
        if params[P_GROUP_DUPLICATES] == 0 and length >= 4:
            return 0
        return RANK_FIELD << (start * N_SUITS)
    if length >= MAX_RUN:
        return 0
    ace_rank = params[P_ACE_RANK]
    suit = melds[m, MC_SUIT]
    fits = 0
    high = position_ok(start + length, ace_rank)
    if high >= 0:
        fits |= bit(rank_at(high, ace_rank) * N_SUITS + suit)
    low = position_ok(start - 1, ace_rank)
    if low >= 0:
        fits |= bit(rank_at(low, ace_rank) * N_SUITS + suit)
    return fits


@inline_kernel
def refresh_fits(st, params, changed):
    """Bitmask fast path: after table meld ``changed`` was laid down or grew, recompute its
    ``MC_FITS``, then ``sc[SC_FITS_ALL]``, the kinds that fit some meld, and
    ``pl[p, PL_FITS_OWN]``, those that fit one of player ``p``'s melds."""
    if not fast_path(params):
        return
    melds = st.melds
    melds[changed, MC_FITS] = meld_fits_bits(melds, params, changed)
    for p in range(st.pl.shape[0]):
        st.pl[p, PL_FITS_OWN] = 0
    fits_all = 0
    for m in range(st.sc[SC_N_MELDS]):
        fits = melds[m, MC_FITS]
        fits_all |= fits
        st.pl[melds[m, MC_OWNER], PL_FITS_OWN] |= fits
    st.sc[SC_FITS_ALL] = fits_all


@inline_kernel
def lay_off_targets_bits(st, params, player):
    """The natural kinds ``player`` could lay off now, as a mask (``bits.fast_path``): the
    union over table melds ``m`` of ``meld_fits_bits`` where ``may_lay_off_on`` allows it,
    read from the masks ``refresh_fits`` keeps."""
    if params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and st.sc[SC_MELDS_TURN] > 0:
        return 0
    target = params[P_LAYOFF_TARGET]
    if target == LAYOFF_NONE:
        return 0
    own = st.pl[player, PL_FITS_OWN]
    if target == LAYOFF_OWN_ONLY:
        return own
    req = params[P_LAYOFF_REQUIRES]
    if req == LREQ_AFTER_FIRST_MELD and st.pl[player, F_HAS_MELDED] != 1:
        return own
    if req == LREQ_AFTER_OWN_LAYOFF and st.pl[player, F_LAID_OFF_OWN] != 1:
        return own
    return own | st.sc[SC_FITS_ALL]


@inline_kernel
def lay_off(st, params, player, m, kind, place):
    """Move ``kind`` from ``player``'s hand onto meld ``m`` at ``place``. (Inlined, as
    ``lay_down``.)"""
    take(st, player, kind)
    _played(st, kind)
    length = st.melds[m, MC_LEN]
    if place == LAY_LOW:
        for i in range(length, 0, -1):
            st.melds[m, MC_CARDS + i] = st.melds[m, MC_CARDS + i - 1]
        st.melds[m, MC_CARDS + 0] = kind
        st.melds[m, MC_START] -= 1
        if st.melds[m, MC_START] < 0:  # around the corner: wrap below the ace
            st.melds[m, MC_START] += 13
    else:
        st.melds[m, MC_CARDS + length] = kind
    st.melds[m, MC_LEN] = length + 1
    st.sc[SC_LAYOFFS_TURN] += 1
    if st.melds[m, MC_OWNER] == player:
        st.pl[player, F_LAID_OFF_OWN] = 1
    log_event(st, E_LAYOFF, player, m, kind)
    refresh_fits(st, params, m)


@inline_kernel
def lay_down(st, params, player, mtype, start, length, suit, cards):
    """Move a new meld from ``player``'s hand to the table; returns its index. (Inlined:
    bots lay down a meld in many turns, and a call carrying ``HandState`` is costly.)"""
    m = st.sc[SC_N_MELDS]
    st.melds[m, MC_TYPE] = mtype
    st.melds[m, MC_START] = start
    st.melds[m, MC_LEN] = length
    st.melds[m, MC_SUIT] = suit
    st.melds[m, MC_OWNER] = player
    st.melds[m, MC_DECLARED] = 0
    row = log_event(st, E_MELD, player, m, 0)
    for i in range(length):
        st.melds[m, MC_CARDS + i] = cards[i]
        take(st, player, cards[i])
        _played(st, cards[i])
        log_card(st, row, cards[i])
    st.sc[SC_N_MELDS] = m + 1
    st.sc[SC_MELDS_TURN] += 1
    st.pl[player, F_HAS_MELDED] = 1
    refresh_fits(st, params, m)
    return m


@kernel
def _jokers_before(melds, m, i):
    """How many jokers meld ``m`` holds before index ``i``."""
    n = 0
    for j in range(i):
        if melds[m, MC_CARDS + j] == JOKER:
            n += 1
    return n


@kernel
def _group_missing(melds, m):
    """The natural kinds of group ``m``'s rank that neither a natural card of the group nor a
    declared joker is."""
    missing = (RANK_FIELD << (melds[m, MC_START] * N_SUITS)) & ~melds[m, MC_DECLARED]
    for j in range(melds[m, MC_LEN]):
        kind = melds[m, MC_CARDS + j]
        if kind != JOKER:
            missing &= ~bit(kind)
    return missing


@kernel
def joker_stands_for(st, params, m, i):
    """The natural card a joker at index ``i`` of meld ``m`` stands for, or -1 when it is not
    fixed (§2B.11). Same-suit runs fix it by position. Declared jokers (``MC_DECLARED``)
    stand for what they were declared as: a group's k-th joker for the k-th lowest declared
    kind, an any-suit run's joker for the declared kind of its position's rank. An undeclared
    joker of a 4-card group (one pack) stands for the one card of its rank still missing."""
    if st.melds[m, MC_CARDS + i] != JOKER:
        return -1
    declared = st.melds[m, MC_DECLARED]
    if st.melds[m, MC_TYPE] == MELD_RUN:
        pos = position_ok(st.melds[m, MC_START] + i, params[P_ACE_RANK])
        rank = rank_at(pos, params[P_ACE_RANK])
        if params[P_RUN_SUIT] == RUN_ANY_SUIT:
            mine = declared & (RANK_FIELD << (rank * N_SUITS))
            return lowest_bit(mine) if mine != 0 else -1
        return rank * N_SUITS + st.melds[m, MC_SUIT]
    before = _jokers_before(st.melds, m, i)
    if before < popcount(declared):
        return nth_lowest_bit(declared, before)
    if params[P_GROUP_DUPLICATES] == 1 or st.melds[m, MC_LEN] != 4:
        return -1
    missing = _group_missing(st.melds, m)
    if popcount(missing) != 1:
        return -1
    return lowest_bit(missing)


@kernel
def declaration_options(st, params, m, i):
    """The natural kinds the joker at index ``i`` of meld ``m`` may be declared as now, as a
    mask; 0 when it is not to be declared (§2B.11): ``joker_declare = inferred``; a
    same-suit run (the position fixes it); under ``three_card_group`` anything but a group of
    three cards; or it is declared already. A group's joker may be any card of its rank that
    no natural card of the group (one pack) and no other joker already is; an any-suit run's
    joker any card of its position's rank."""
    rule = params[P_JOKER_DECLARE]
    if rule == JDECLARE_INFERRED or st.melds[m, MC_CARDS + i] != JOKER:
        return 0
    declared = st.melds[m, MC_DECLARED]
    if st.melds[m, MC_TYPE] == MELD_RUN:
        if rule != JDECLARE_ALWAYS or params[P_RUN_SUIT] != RUN_ANY_SUIT:
            return 0
        pos = position_ok(st.melds[m, MC_START] + i, params[P_ACE_RANK])
        field = RANK_FIELD << (rank_at(pos, params[P_ACE_RANK]) * N_SUITS)
        return 0 if declared & field != 0 else field
    if rule == JDECLARE_THREE_CARD_GROUP and st.melds[m, MC_LEN] != 3:
        return 0
    if _jokers_before(st.melds, m, i) < popcount(declared):
        return 0
    if params[P_GROUP_DUPLICATES] == 1:
        return (RANK_FIELD << (st.melds[m, MC_START] * N_SUITS)) & ~declared
    return _group_missing(st.melds, m)


@kernel
def declare_joker(st, player, m, kind):
    """``player`` declares a joker of meld ``m`` as the natural ``kind`` (§2B.11)."""
    st.melds[m, MC_DECLARED] |= bit(kind)
    log_event(st, E_DECLARE, player, m, kind)


@kernel
def declarations_legal(st, params, m):
    """Audit: the declarations of meld ``m`` fit its cards and ``joker_declare``: only
    declared kinds of the meld's rank (a group: not one of its natural cards, one pack) or of
    a joker position's rank (an any-suit run), no more than its jokers, and every joker the
    rule requires declared."""
    declared = st.melds[m, MC_DECLARED]
    rule = params[P_JOKER_DECLARE]
    jokers = _jokers_before(st.melds, m, st.melds[m, MC_LEN])
    if popcount(declared) > jokers or (rule == JDECLARE_INFERRED and declared != 0):
        return False
    if st.melds[m, MC_TYPE] == MELD_RUN:
        if rule != JDECLARE_ALWAYS or params[P_RUN_SUIT] != RUN_ANY_SUIT:
            return declared == 0  # the position fixes it, or nothing is declared
        fields = 0  # one declaration in the rank field of each joker's position
        for i in range(st.melds[m, MC_LEN]):
            if st.melds[m, MC_CARDS + i] != JOKER:
                continue
            pos = position_ok(st.melds[m, MC_START] + i, params[P_ACE_RANK])
            field = RANK_FIELD << (rank_at(pos, params[P_ACE_RANK]) * N_SUITS)
            if fields & field != 0:
                continue  # both aces of a 14-card high_or_low run: one declaration for the rank
            fields |= field
            if popcount(declared & field) != 1:
                return False
        return declared & ~fields == 0
    rank_kinds = RANK_FIELD << (st.melds[m, MC_START] * N_SUITS)
    if declared & ~rank_kinds != 0:
        return False
    if params[P_GROUP_DUPLICATES] == 0:
        for j in range(st.melds[m, MC_LEN]):
            kind = st.melds[m, MC_CARDS + j]
            if kind != JOKER and (declared >> kind) & 1 == 1:
                return False
    must = rule == JDECLARE_ALWAYS or (
        rule == JDECLARE_THREE_CARD_GROUP and st.melds[m, MC_LEN] == 3
    )
    return not must or popcount(declared) == min(jokers, popcount(rank_kinds))


@kernel
def steal_joker(st, player, m, i, natural):
    """Replace the joker at index ``i`` of meld ``m`` by ``natural`` from hand; the joker goes
    to the hand (``joker_replace = steal_by_replacement``, §2B.12)."""
    take(st, player, natural)
    _played(st, natural)
    st.sc[SC_STEALS_TURN] += 1
    st.melds[m, MC_CARDS + i] = natural
    st.melds[m, MC_DECLARED] &= ~bit(natural)  # the joker's declared card is there now
    give(st, player, JOKER)
    log_event(st, E_STEAL, player, m, natural)


@inline_kernel
def find_steal(st, params, player):
    """A (meld, index, natural) joker replacement ``player`` can make now, or (-1, -1, -1)."""
    if params[P_JOKER_REPLACE] != JREPLACE_STEAL:
        return -1, -1, -1
    for m in range(st.sc[SC_N_MELDS]):
        for i in range(st.melds[m, MC_LEN]):
            natural = joker_stands_for(st, params, m, i)
            if natural >= 0 and st.hand[player, natural] > 0:
                return m, i, natural
    return -1, -1, -1
