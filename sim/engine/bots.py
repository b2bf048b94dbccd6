"""Bot policies for standard rummy (docs/bots.md states them exactly).

Each policy answers three questions, dispatched on the seat's ``BOT_*`` code:

- ``wants_discard``: take the discard top (rather than the stock / rather than ending a
  block hand)?
- ``play_melds``: lay down, lay off and replace jokers, mutating the state;
- ``choose_discard``: which card to discard (the card must be allowed).
"""

from __future__ import annotations

from sim.engine.bits import (
    FULL52,
    best_arrangement_bits,
    bit,
    fast_path,
    forms_meld_bits,
    greedy_discard_mask,
    lowest_bit,
    nth_lowest_bit,
    popcount,
    rank_fields,
    run_neighbours,
)
from sim.engine.careful import (
    MELDED_POINTS,
    TAKE_MAX_VALUE,
    TAKE_MIN_OUTS,
    WANTED_POINTS,
    careful_discard_mask,
    careful_takes_mask,
    out_points,
    out_points_any_suit,
)
from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_RANDOM,
    JDECLARE_INFERRED,
    JOKER,
    JREPLACE_STEAL,
    LAYOFF_NONE,
    MELDS_ONE_OR_LAYOFF,
    N_KINDS,
    N_NATURAL,
    N_SUITS,
    P_ACE_RANK,
    P_GOING_RUMMY,
    P_GROUP_DUPLICATES,
    P_JOKER_DECLARE,
    P_JOKER_REPLACE,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_MUST_DISCARD_TO_GO_OUT,
    P_PLAYERS,
    P_RUN_SUIT,
    RUMMY_OFF,
    RUN_ANY_SUIT,
)
from sim.engine.melds import (
    CC_CARDS,
    CC_LEN,
    CC_START,
    CC_SUIT,
    CC_TYPE,
    S_BEST_N,
    S_MORE,
    best_arrangement,
    could_meld,
    forms_meld_with,
    melds_with,
)
from sim.engine.positions import (
    first_position,
    position_ok,
    rank_at,
    second_position,
)
from sim.engine.rng import below
from sim.engine.state import (
    F_PLAYED,
    KR_PICKED,
    KR_SHOE,
    KR_TMP,
    MC_CARDS,
    MC_FITS,
    MC_LEN,
    PILE_DISCARD,
    PL_BITS,
    PL_N,
    SC_DISCARD_N,
    SC_FITS_ALL,
    SC_N_MELDS,
    SC_PLAN,
    SC_STOCK_N,
    SC_TAKEN,
    SC_TURN,
    SC_VALUES_RISE,
    discard_allowed,
    give,
    take,
)
from sim.engine.table import (
    LAY_NONE,
    declaration_options,
    declare_joker,
    find_steal,
    joker_stands_for,
    lay_down,
    lay_off,
    lay_off_place,
    lay_off_targets_bits,
    may_lay_off_on,
    may_meld_now,
    meld_limit,
    steal_joker,
    turn_stays_finishable,
    turn_stays_finishable_bits,
)

HOLD_TURNS = 6  # careful holds melds for a rummy during each player's first 6 turns at most

# ---- shared helpers -----------------------------------------------------------------


@inline_kernel
def _can_lay_off_anywhere(st, params, player, kind):
    """Does ``kind`` fit a table meld ``player`` may lay off on now?"""
    if fast_path(params):
        return ((lay_off_targets_bits(st, params, player) >> kind) & 1) == 1
    for m in range(st.sc[SC_N_MELDS]):
        if may_lay_off_on(st, params, player, m) and lay_off_place(st, params, m, kind) != LAY_NONE:
            return True
    return False


@inline_kernel
def _completes_meld(st, params, player, kind):
    """Would ``kind`` belong to a meld of the hand, or fit a table meld ``player`` may lay
    off on?"""
    if fast_path(params):
        found = forms_meld_bits(params, st.pl[player, PL_BITS] | bit(kind), kind)
    else:
        give(st, player, kind)
        found = forms_meld_with(st.ws, params, st.hand[player], kind)
        take(st, player, kind)
    return found or _can_lay_off_anywhere(st, params, player, kind)


@kernel
def _rows_leave_legal_turn(st, params, player, rows, first, count):
    """After laying down the melds ``rows[first:first + count]`` (``CC_*`` rows: the best
    arrangement or one candidate), could ``player``'s turn still end legally: an empty hand
    where going out without a discard is allowed, or a card that may still be discarded?
    Melding a copy of the card taken from the discard pile spends the no-discard rule (§1.5)."""
    tmp = st.kinds[KR_TMP]
    for k in range(N_KINDS):
        tmp[k] = st.hand[player, k]
    left = st.pl[player, PL_N]
    taken = st.sc[SC_TAKEN]
    for m in range(first, first + count):
        for j in range(rows[m, CC_LEN]):
            kind = rows[m, CC_CARDS + j]
            tmp[kind] -= 1
            left -= 1
            if kind == taken:
                taken = -1
    if left == 0:
        return params[P_MUST_DISCARD_TO_GO_OUT] == 0
    for k in range(N_KINDS):
        if tmp[k] > 0 and (k != taken or tmp[k] >= 2):
            return True
    return False


@inline_kernel
def _best_leaves_legal_turn_bits(st, params, player):
    """``_rows_leave_legal_turn`` for ``ws.best`` on the hand mask (``bits.fast_path``: each
    card is held once, so a card is left or melded, and the taken card, unless melded, is
    the one card that may not be discarded)."""
    ws = st.ws
    melded = 0
    for m in range(ws.scal[S_BEST_N]):
        for j in range(ws.best[m, CC_LEN]):
            melded |= bit(ws.best[m, CC_CARDS + j])
    left = st.pl[player, PL_BITS] & ~melded
    if left == 0:
        return params[P_MUST_DISCARD_TO_GO_OUT] == 0
    taken = st.sc[SC_TAKEN]
    if taken >= 0 and ((melded >> taken) & 1) == 0:
        left &= ~bit(taken)
    return left != 0


@inline_kernel
def _arrangement_leaves_legal_turn(st, params, player):
    """After laying down ``ws.best``, could the turn still end legally?"""
    if fast_path(params):
        return _best_leaves_legal_turn_bits(st, params, player)
    return _rows_leave_legal_turn(st, params, player, st.ws.best, 0, st.ws.scal[S_BEST_N])


@inline_kernel
def _best(st, params, values, player, limit):
    """``melds.best_arrangement`` of ``player``'s hand into ``st.ws`` (the bitmask search
    when ``bits.fast_path`` holds: the same arrangement, faster); returns the melded value."""
    if fast_path(params):
        return best_arrangement_bits(st.ws, params, values, st.pl[player, PL_BITS], limit)
    return best_arrangement(st.ws, params, values, st.hand[player], limit)


@kernel
def _declare_all(st, params, player, m, bot):
    """``player`` (a ``bot``) declares every joker of meld ``m`` that must be declared now
    (§2B.11, docs/bots.md): random uniformly among the cards it may stand for; careful the
    card with the fewest copies it has not seen (in its hand, the discard pile, the table),
    so that as few unseen cards as possible could replace it; greedy the lowest card."""
    counted = False  # careful's count of the cards it has seen (a declaration adds none)
    for i in range(st.melds[m, MC_LEN]):
        options = declaration_options(st, params, m, i)
        if options == 0:
            continue
        if bot == BOT_RANDOM:
            kind = nth_lowest_bit(options, below(st.rng[1:2], popcount(options)))
        elif bot == BOT_CAREFUL:
            if not counted:
                _count_seen(st, player)
                counted = True
            kind = -1
            fewest = 1 << 30
            rest = options
            while rest != 0:
                k = lowest_bit(rest)
                rest &= rest - 1
                unseen = st.kinds[KR_SHOE, k] - min(st.kinds[KR_TMP, k], st.kinds[KR_SHOE, k])
                if unseen < fewest:
                    fewest = unseen
                    kind = k
        else:
            kind = lowest_bit(options)
        declare_joker(st, player, m, kind)


@inline_kernel
def declare_jokers(st, params, player, m, bot):
    """Declare what the jokers of meld ``m``, just laid down or laid off on, stand for where
    ``joker_declare`` asks it (``_declare_all``)."""
    if params[P_JOKER_DECLARE] != JDECLARE_INFERRED:
        _declare_all(st, params, player, m, bot)


@inline_kernel
def _lay_down_best(st, params, player, bot):
    """Lay down the melds of ``ws.best`` (declaring their jokers as ``bot``)."""
    ws = st.ws
    for m in range(ws.scal[S_BEST_N]):
        t = lay_down(
            st,
            params,
            player,
            ws.best[m, CC_TYPE],
            ws.best[m, CC_START],
            ws.best[m, CC_LEN],
            ws.best[m, CC_SUIT],
            ws.best[m, CC_CARDS:],
        )
        declare_jokers(st, params, player, t, bot)


@kernel
def in_partial_meld(st, params, player, kind):
    """Is natural ``kind`` in a partial meld: another card of its rank a group may hold, or a
    card of its suit (any suit under any_suit) at most two run positions away (docs/bots.md)?"""
    rank = kind // N_SUITS
    suit = kind % N_SUITS
    dup = params[P_GROUP_DUPLICATES] == 1
    for t in range(N_SUITS):
        other = rank * N_SUITS + t
        n = st.hand[player, other]
        if other == kind:
            if dup and n >= 2:
                return True
        elif n > 0:
            return True
    any_suit = params[P_RUN_SUIT] == RUN_ANY_SUIT
    ace_rank = params[P_ACE_RANK]
    for which in range(2):
        pc = first_position(rank, ace_rank) if which == 0 else second_position(rank, ace_rank)
        if pc < 0:
            continue
        for off in range(-2, 3):
            pos = position_ok(pc + off, ace_rank) if off != 0 else -1
            if pos < 0:
                continue
            r = rank_at(pos, ace_rank)
            if r == rank:
                continue
            for t in range(N_SUITS):
                if (any_suit or t == suit) and st.hand[player, r * N_SUITS + t] > 0:
                    return True
    return False


# ---- greedy -------------------------------------------------------------------------


@inline_kernel
def _greedy_arrangement(st, params, values, player, limit):
    """What greedy lays down, into ``ws.best``: the arrangement leaving the least value in
    hand (at most ``limit`` melds); if that would leave no legal end of turn, the best
    arrangement that keeps one allowed card back to discard (which becomes the planned
    discard, ``SC_PLAN``)."""
    ws = st.ws
    _best(st, params, values, player, limit)
    if ws.scal[S_BEST_N] == 0:
        return
    if not _arrangement_leaves_legal_turn(st, params, player):
        best_v = -1
        best_d = -1
        for d in range(N_KINDS):
            if st.hand[player, d] > 0 and discard_allowed(st, player, d):
                take(st, player, d)
                v = _best(st, params, values, player, limit)
                give(st, player, d)
                if v > best_v:
                    best_v = v
                    best_d = d
        take(st, player, best_d)
        _best(st, params, values, player, limit)
        give(st, player, best_d)
        st.sc[SC_PLAN] = best_d


@inline_kernel
def _greedy_lay_down(st, params, values, player, bot):
    """Lay down greedy's arrangement (``_greedy_arrangement``), within the per-turn meld
    limit."""
    if not may_meld_now(st, params):
        return
    _greedy_arrangement(st, params, values, player, meld_limit(params))
    _lay_down_best(st, params, player, bot)


@inline_kernel
def _lay_off_first_fit(st, params, player, kind):
    """Lay ``kind`` off on the first table meld that takes it; returns whether it did."""
    fast = fast_path(params)
    for m in range(st.sc[SC_N_MELDS]):
        if fast and ((st.melds[m, MC_FITS] >> kind) & 1) == 0:
            continue  # held, so not on the table: the meld's fits say lay_off_place refuses
        if not may_lay_off_on(st, params, player, m):
            continue
        place = lay_off_place(st, params, m, kind)
        if place != LAY_NONE:
            lay_off(st, params, player, m, kind, place)
            return True
    return False


@inline_kernel
def _greedy_lay_off_bits(st, params, player):
    """``_greedy_lay_off``'s lay-offs on masks (``bits.fast_path``): the lowest held card
    that fits a table meld and keeps the turn finishable goes on the first meld it fits,
    again and again."""
    changed = True
    while changed and st.pl[player, PL_N] > 0:
        changed = False
        cands = st.pl[player, PL_BITS] & lay_off_targets_bits(st, params, player)
        plan = st.sc[SC_PLAN]
        if plan >= 0 and plan < N_NATURAL:
            cands &= ~bit(plan)
        while cands != 0:
            k = lowest_bit(cands)
            cands &= cands - 1
            if turn_stays_finishable_bits(st, params, player, k):
                changed = _lay_off_first_fit(st, params, player, k)
                break


@inline_kernel
def _greedy_lay_off(st, params, player, bot):
    """Replace table jokers by the natural cards they stand for, then lay off every card that
    fits, until nothing more fits; never the planned discard, never emptying the hand
    illegally."""
    while True:
        m, i, natural = find_steal(st, params, player)
        if m < 0:
            break
        steal_joker(st, player, m, i, natural)
    if fast_path(params):
        _greedy_lay_off_bits(st, params, player)
        return
    changed = True
    while changed and st.pl[player, PL_N] > 0:
        changed = False
        for k in range(N_KINDS):
            if st.hand[player, k] == 0:
                continue
            if k == st.sc[SC_PLAN] and st.hand[player, k] == 1:
                continue
            for m in range(st.sc[SC_N_MELDS]):
                if not may_lay_off_on(st, params, player, m):
                    continue
                place = lay_off_place(st, params, m, k)
                if place != LAY_NONE and turn_stays_finishable(st, params, player, k):
                    lay_off(st, params, player, m, k, place)
                    if k == JOKER:
                        declare_jokers(st, params, player, m, bot)
                    changed = True
                    break
            if changed:
                break


@inline_kernel
def _allowed_bits(st, player):
    """The natural kinds ``player`` may discard, as a mask (one pack: never the card taken
    from the discard pile this turn)."""
    allowed = st.pl[player, PL_BITS]
    taken = st.sc[SC_TAKEN]
    if taken >= 0 and taken < N_NATURAL:
        allowed &= ~bit(taken)
    return allowed


@inline_kernel
def _greedy_discard_bits(st, params, values, player):
    """``_greedy_discard`` on masks (``bits.fast_path``): ``bits.greedy_discard_mask``,
    shared with ``mask_hand.greedy_choice``."""
    return greedy_discard_mask(
        values,
        st.pl[player, PL_BITS],
        _allowed_bits(st, player),
        st.sc[SC_VALUES_RISE],
        params[P_ACE_RANK],
    )


@inline_kernel
def _greedy_discard(st, params, values, player):
    """The highest-value allowed card outside every partial meld; else the highest-value
    allowed card; jokers only when nothing else is allowed. Ties: the higher kind."""
    plan = st.sc[SC_PLAN]
    if plan >= 0 and discard_allowed(st, player, plan):
        return plan
    if fast_path(params):
        return _greedy_discard_bits(st, params, values, player)
    loose = -1
    loose_v = -1
    any_k = -1
    any_v = -1
    for k in range(N_NATURAL - 1, -1, -1):
        if not discard_allowed(st, player, k):
            continue
        v = values[k]
        if v > any_v:
            any_v = v
            any_k = k
        if v > loose_v and not in_partial_meld(st, params, player, k):
            loose_v = v
            loose = k
    if loose >= 0:
        return loose
    if any_k >= 0:
        return any_k
    return JOKER


# ---- careful --------------------------------------------------------------------------


@kernel
def _fits_table(st, params, kind):
    """Does ``kind`` fit some table meld (whoever may lay off on it)?"""
    if params[P_LAYOFF_TARGET] == LAYOFF_NONE:
        return False
    if fast_path(params):  # kind is held: it is not on the table
        return ((st.sc[SC_FITS_ALL] >> kind) & 1) == 1
    for m in range(st.sc[SC_N_MELDS]):
        if lay_off_place(st, params, m, kind) != LAY_NONE:
            return True
    return False


@kernel
def _count_seen(st, player):
    """Fill ``st.kinds[KR_TMP]`` with the cards ``player`` has seen, by kind: his hand, the
    table and the discard pile."""
    seen = st.kinds[KR_TMP]
    for k in range(N_KINDS):
        seen[k] = st.hand[player, k]
    for i in range(st.sc[SC_DISCARD_N]):
        seen[st.piles[PILE_DISCARD, i]] += 1
    for m in range(st.sc[SC_N_MELDS]):
        for j in range(st.melds[m, MC_LEN]):
            seen[st.melds[m, MC_CARDS + j]] += 1


@inline_kernel
def _careful_holds_for_rummy(st, params, player):
    """Under a going-rummy reward, keep melds in hand early in the hand while nobody threatens
    to go out: this player has not played yet, the hand is within its first
    ``HOLD_TURNS`` turns per player, and every opponent holds more than 3 cards. (Without the
    turn limit two holding bots would never meld.)"""
    if params[P_GOING_RUMMY] == RUMMY_OFF or st.pl[player, F_PLAYED] == 1:
        return False
    if st.sc[SC_TURN] > HOLD_TURNS * params[P_PLAYERS]:
        return False
    for q in range(params[P_PLAYERS]):
        if q != player and st.pl[q, PL_N] <= 3:
            return False
    return True


@kernel
def _cards_left_unplayed(st, params, player):
    """After laying down ``ws.best``: how many of ``player``'s other cards (the planned
    discard ``SC_PLAN`` aside) fit no table meld he may lay off on now, and whether such a
    single card may be discarded. Returns (cards, last card allowed). Under
    ``one_or_layoff`` nothing is laid off after a meld. Single lay-offs only: cards that
    would fit only once another card is laid off, or only on the melds about to be laid
    down, count as left."""
    ws = st.ws
    tmp = st.kinds[KR_TMP]
    for k in range(N_KINDS):
        tmp[k] = st.hand[player, k]
    for m in range(ws.scal[S_BEST_N]):
        for j in range(ws.best[m, CC_LEN]):
            tmp[ws.best[m, CC_CARDS + j]] -= 1
    plan = st.sc[SC_PLAN]
    if plan >= 0:
        tmp[plan] -= 1
    no_layoffs = params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and ws.scal[S_BEST_N] > 0
    left = 0
    last = -1
    for k in range(N_KINDS):
        n = tmp[k]
        if n <= 0:
            continue
        if not no_layoffs and _can_lay_off_anywhere(st, params, player, k):
            n -= 1  # one copy goes on the table
        left += n
        if n > 0:
            last = k
    allowed = left == 1 and discard_allowed(st, player, last)
    if allowed and last == st.sc[SC_TAKEN]:  # the taken card stays in hand: not this turn
        allowed = False
        for m in range(ws.scal[S_BEST_N]):
            for j in range(ws.best[m, CC_LEN]):
                if ws.best[m, CC_CARDS + j] == last:
                    allowed = True  # melding a copy spends the rule (§1.5)
    return left, allowed


@kernel
def _careful_hold_play(st, params, values, player):
    """While careful holds for a rummy (``_careful_holds_for_rummy``): play only if the whole
    hand goes this turn, which is going rummy (§2E.27). It takes greedy's arrangement
    (keeping one card back to discard where the rules require a discard) and plays as greedy
    when every other card is melded or fits a table meld, or all but one card it may then
    discard; otherwise it plays nothing."""
    if not may_meld_now(st, params):
        return
    _greedy_arrangement(st, params, values, player, meld_limit(params))
    left, allowed = _cards_left_unplayed(st, params, player)
    if st.sc[SC_PLAN] >= 0:  # the planned card is the discard: everything else must go
        goes = left == 0
    else:
        goes = left == 0 or (left == 1 and allowed)
    if goes:
        _lay_down_best(st, params, player, BOT_CAREFUL)
        _greedy_lay_off(st, params, player, BOT_CAREFUL)
    else:
        st.sc[SC_PLAN] = -1  # nothing is played: no card is kept back


@inline_kernel
def _seen_elsewhere_bits(st):
    """The cards of the discard pile and the table melds, as a mask (``bits.fast_path``)."""
    seen = 0
    for i in range(st.sc[SC_DISCARD_N]):
        seen |= bit(st.piles[PILE_DISCARD, i])
    for m in range(st.sc[SC_N_MELDS]):
        for j in range(st.melds[m, MC_LEN]):
            seen |= bit(st.melds[m, MC_CARDS + j])
    return seen


@inline_kernel
def _picked_bits(st, player):
    """The cards ``player`` took from the discard pile this hand, as a mask."""
    picked = 0
    row = st.kinds[KR_PICKED + player]
    for k in range(N_NATURAL):
        if row[k] > 0:
            picked |= bit(k)
    return picked


@inline_kernel
def _unseen_bits(st, player):
    """The cards ``player`` has not seen, as a mask (``bits.fast_path``: one pack)."""
    return FULL52 & ~(st.pl[player, PL_BITS] | _seen_elsewhere_bits(st))


@kernel
def _unseen_counts(st, player):
    """Fill ``st.kinds[KR_TMP]`` with how many copies of each kind ``player`` has not seen:
    the shoe less his hand, the discard pile and the table."""
    _count_seen(st, player)
    tmp = st.kinds[KR_TMP]
    for k in range(N_KINDS):
        tmp[k] = max(st.kinds[KR_SHOE, k] - tmp[k], 0)


@kernel
def _is_out(cnt, params, kind):
    """Would natural ``kind``, not held in ``cnt``, be in a meld of ``cnt`` plus one
    ``kind`` (``melds.could_meld``: a group of its rank, or a run window through it, jokers
    counted)? ``bits.completers`` on counts."""
    if cnt[kind] > 0:
        return False
    cnt[kind] = 1
    found = could_meld(cnt, params, kind)
    cnt[kind] = 0
    return found


@kernel
def _outs_near(cnt, params, unseen, center):
    """The unseen copies (``unseen`` counts) of the outs of ``cnt`` among the kinds related
    to natural ``center``: its rank, and the cards at most two run positions from it in its
    suit (any suit under any_suit). Only those can change when one ``center`` card comes or
    goes, so the difference of two calls is the change in all of the hand's outs."""
    near = run_neighbours(bit(center), 2, params[P_ACE_RANK])
    if params[P_RUN_SUIT] == RUN_ANY_SUIT:
        near = rank_fields(near)
    rest = near | rank_fields(bit(center))
    n = 0
    while rest != 0:
        k = lowest_bit(rest)
        rest &= ~bit(k)
        if unseen[k] > 0 and _is_out(cnt, params, k):
            n += unseen[k]
    return n


@inline_kernel
def _careful_discard_bits(st, params, values, player):
    """``_careful_discard`` on masks (``bits.fast_path``): ``careful.careful_discard_mask``,
    shared with ``mask_hand.careful_choice``."""
    fits = st.sc[SC_FITS_ALL] if params[P_LAYOFF_TARGET] != LAYOFF_NONE else 0
    return careful_discard_mask(
        values,
        st.pl[player, PL_BITS],
        _allowed_bits(st, player),
        _unseen_bits(st, player),
        _picked_bits(st, (player + 1) % params[P_PLAYERS]),
        fits,
        params[P_PLAYERS],
        params[P_ACE_RANK],
    )


@inline_kernel
def _careful_discard(st, params, values, player):
    """The planned card if any; else each allowed card scores its value, less
    ``careful.out_points`` for each out its discard gives up, less
    ``WANTED_POINTS`` when the next player is likely to take it, less ``MELDED_POINTS`` when
    it is in a meld of the hand; the best goes (docs/bots.md)."""
    plan = st.sc[SC_PLAN]
    if plan >= 0 and discard_allowed(st, player, plan):
        return plan
    if fast_path(params):
        return _careful_discard_bits(st, params, values, player)
    return _careful_discard_counts(st, params, values, player)


@kernel
def _careful_discard_counts(st, params, values, player):
    """``_careful_discard``'s scores on the count arrays (several packs, jokers, any-suit
    runs); the same card as ``careful.careful_discard_mask`` on one pack."""
    _unseen_counts(st, player)
    unseen = st.kinds[KR_TMP]
    cnt = st.ws.cnt
    for k in range(N_KINDS):
        cnt[k] = st.hand[player, k]
    picked = st.kinds[KR_PICKED + (player + 1) % params[P_PLAYERS]]
    if params[P_RUN_SUIT] == RUN_ANY_SUIT:
        per_out = out_points_any_suit(params[P_PLAYERS])
    else:
        per_out = out_points(params[P_PLAYERS])
    best = -1
    best_s = -(10**9)
    for k in range(N_NATURAL - 1, -1, -1):
        if not discard_allowed(st, player, k):
            continue
        before = _outs_near(cnt, params, unseen, k)
        cnt[k] -= 1
        lost = before - _outs_near(cnt, params, unseen, k)
        cnt[k] += 1
        s = values[k] - per_out * lost
        if _fits_table(st, params, k) or _is_out(picked, params, k):
            s -= WANTED_POINTS
        if could_meld(cnt, params, k):
            s -= MELDED_POINTS
        if s > best_s:
            best_s = s
            best = k
    if best >= 0:
        return best
    return JOKER


@kernel
def _careful_takes_counts(st, params, values, player, kind):
    """``careful.careful_takes_mask`` on the count arrays; never under any-suit runs
    (``careful.OUT_POINTS_ANY_SUIT``)."""
    if params[P_RUN_SUIT] == RUN_ANY_SUIT:
        return False
    if kind == JOKER or values[kind] > TAKE_MAX_VALUE or st.kinds[KR_PICKED + player, kind] > 0:
        return False
    _unseen_counts(st, player)  # ``kind`` is still on the discard pile: seen
    unseen = st.kinds[KR_TMP]
    cnt = st.ws.cnt
    for k in range(N_KINDS):
        cnt[k] = st.hand[player, k]
    before = _outs_near(cnt, params, unseen, kind)
    cnt[kind] += 1
    gain = _outs_near(cnt, params, unseen, kind) - before
    cnt[kind] -= 1
    return gain >= TAKE_MIN_OUTS


@inline_kernel
def _careful_takes(st, params, values, player, kind):
    """Careful's draw beyond greedy's: a low discard that adds outs (docs/bots.md)."""
    if fast_path(params):
        return careful_takes_mask(
            values,
            st.pl[player, PL_BITS],
            _unseen_bits(st, player),
            _picked_bits(st, player),
            kind,
            params[P_ACE_RANK],
        )
    return _careful_takes_counts(st, params, values, player, kind)


# ---- random -----------------------------------------------------------------------------


@kernel
def _lowest_natural(ws, depth, i):
    low = N_KINDS
    for j in range(ws.cand[depth, i, CC_LEN]):
        k = ws.cand[depth, i, CC_CARDS + j]
        if k != JOKER and k < low:
            low = k
    return low


@kernel
def _random_actions(st, params, player, pick):
    """Count the legal table actions (pick < 0), or carry out action number ``pick``.
    Order: new melds (by lowest natural card), lay-offs (by card, then meld), joker
    replacements."""
    ws = st.ws
    count = 0
    if may_meld_now(st, params):
        for c in range(N_NATURAL):
            if st.hand[player, c] == 0:
                continue
            for k in range(N_KINDS):
                ws.cnt[k] = st.hand[player, k]
            page = 0
            more = 1
            while more == 1:  # every page of the melds through c (melds_with)
                n = melds_with(ws, params, 0, c, page)
                more = ws.scal[S_MORE]
                page += 1
                for i in range(n):
                    if _lowest_natural(ws, 0, i) != c:
                        continue  # listed under its lowest natural card
                    if not _rows_leave_legal_turn(st, params, player, ws.cand[0], i, 1):
                        continue
                    if count == pick:
                        m = lay_down(
                            st,
                            params,
                            player,
                            ws.cand[0, i, CC_TYPE],
                            ws.cand[0, i, CC_START],
                            ws.cand[0, i, CC_LEN],
                            ws.cand[0, i, CC_SUIT],
                            ws.cand[0, i, CC_CARDS:],
                        )
                        declare_jokers(st, params, player, m, BOT_RANDOM)
                        return -1
                    count += 1
    for k in range(N_KINDS):
        if st.hand[player, k] == 0:
            continue
        for m in range(st.sc[SC_N_MELDS]):
            if not may_lay_off_on(st, params, player, m):
                continue
            place = lay_off_place(st, params, m, k)
            if place == LAY_NONE or not turn_stays_finishable(st, params, player, k):
                continue
            if count == pick:
                lay_off(st, params, player, m, k, place)
                if k == JOKER:
                    declare_jokers(st, params, player, m, BOT_RANDOM)
                return -1
            count += 1
    if params[P_JOKER_REPLACE] != JREPLACE_STEAL:
        return count  # table jokers stay where they are (§2B.12)
    for m in range(st.sc[SC_N_MELDS]):
        for i in range(st.melds[m, MC_LEN]):
            natural = joker_stands_for(st, params, m, i)
            if natural >= 0 and st.hand[player, natural] > 0:
                if count == pick:
                    steal_joker(st, player, m, i, natural)
                    return -1
                count += 1
    return count


@kernel
def _random_play(st, params, player):
    """Repeatedly choose uniformly among every legal table action and stopping."""
    while st.pl[player, PL_N] > 0:
        n = _random_actions(st, params, player, -1)
        pick = below(st.rng[1:2], n + 1)
        if pick == n:
            return
        _random_actions(st, params, player, pick)


@kernel
def _random_discard(st, player):
    n = 0
    for k in range(N_KINDS):
        if discard_allowed(st, player, k):
            n += 1
    pick = below(st.rng[1:2], n)
    for k in range(N_KINDS):
        if discard_allowed(st, player, k):
            if pick == 0:
                return k
            pick -= 1
    return -1


# ---- dispatch -----------------------------------------------------------------------------


@inline_kernel
def wants_discard(st, params, values, bots, player, kind):
    """Does ``player`` take ``kind`` from the discard pile?"""
    bot = bots[player]
    if bot == BOT_RANDOM:
        return below(st.rng[1:2], 2) == 1
    if _completes_meld(st, params, player, kind):
        return True
    if bot != BOT_CAREFUL or st.sc[SC_STOCK_N] == 0:
        return False
    return _careful_takes(st, params, values, player, kind)


@inline_kernel
def play_melds(st, params, values, bots, player):
    """Meld, lay off and replace jokers for ``player`` after his draw."""
    bot = bots[player]
    if bot == BOT_RANDOM:
        _random_play(st, params, player)
    elif bot == BOT_CAREFUL and _careful_holds_for_rummy(st, params, player):
        _careful_hold_play(st, params, values, player)
    else:  # greedy, and careful when it does not hold for a rummy
        _greedy_lay_down(st, params, values, player, bot)
        _greedy_lay_off(st, params, player, bot)


@inline_kernel
def choose_discard(st, params, values, bots, player):
    """The card ``player`` discards (must be allowed)."""
    bot = bots[player]
    if bot == BOT_RANDOM:
        return _random_discard(st, player)
    if bot == BOT_CAREFUL:
        return _careful_discard(st, params, values, player)
    return _greedy_discard(st, params, values, player)
