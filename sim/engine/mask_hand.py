"""A whole hand of standard rummy on the bitmask fast path, with the turn's state in locals.

``play_mask_hand`` deals and plays one hand exactly as ``hand.reset_hand``, ``deal_cards``
and ``play_turns`` do, card for card and decision for decision, when every seat is a
``greedy`` or ``careful`` bot, the hand is on the fast path (``bits.fast_path``: one pack,
no jokers, runs of one suit) and nothing is logged (RULES.md §1.4–1.10, §2C–2F; the bots of
docs/bots.md). It only keeps less: a hand is its mask ``pl[p, PL_BITS]`` (no count rows),
the piles' sizes and the table's masks live in a stack array that LLVM keeps in registers
(``T_*`` slots), and a per-player cache of a card set known to hold no meld
(``PL_MELD_FREE``) answers most turns' "what can I lay down?" without a search.

Why: a greedy turn of the general loop re-derived facts about the whole hand every turn
(the meld search after each draw, ~17 ns a turn, and the count-array bookkeeping), about
80 ns a turn against ~28 here (docs/engine.md, Speed).

The general loop stays the reference: audit mode plays every such hand both ways and counts a
difference as a violation (``hand.play_hand``), event logs and hand-built deals use it, and
``tests/engine/test_mask_hand.py`` compares the two over random rules.

Arrays (shared with ``state.HandState``): ``pl`` int64[P, N_PL] (per player: ``PL_BITS``,
``F_PLAYED``, ``F_HAS_MELDED``, ``F_LAID_OFF_OWN``, ``PL_FITS_OWN``, ``PL_MELD_FREE``,
``PL_PICKED_BITS``; ``PL_N`` is written at the end), ``piles`` int64[N_PILES, S] (stock,
discard pile, shoe, and the position ``watch_for_cycle`` keeps), ``melds`` int64[M, N_MC]
(the table rows, as ``table.lay_down`` writes them), ``sc`` int64[N_SC] (the hand's
counters are written at the end, as the general loop leaves them), ``rng`` uint64[2]
(the deal stream is row 0), ``ws`` the meld search workspace.
"""

from __future__ import annotations

from sim.engine.bits import (
    FULL52,
    RANK_FIELD,
    arranged_without_search_bits,
    best_arrangement_bits,
    best_meld_through_bits,
    bit,
    greedy_discard_mask,
    highest_bit,
    lowest_bit,
    popcount,
    positions_down,
    positions_up,
    search_limit,
    search_tree_bits,
    stack_int64,
    to_positions,
)
from sim.engine.bots import HOLD_TURNS
from sim.engine.careful import careful_discard_mask, careful_takes_mask
from sim.engine.fixed_rules import is_standard, standard_params
from sim.engine.jit import inline_kernel, kernel
from sim.engine.layout import (
    ACE_LOW,
    BOT_CAREFUL,
    BOT_GREEDY,
    JOKER,
    LAYOFF_NONE,
    LAYOFF_OWN_ONLY,
    LREQ_AFTER_FIRST_MELD,
    LREQ_AFTER_OWN_LAYOFF,
    MELD_GROUP,
    MELDS_ONE_OR_LAYOFF,
    N_RANKS,
    N_SUITS,
    P_ACE_RANK,
    P_GOING_RUMMY,
    P_HAND_SIZE,
    P_LAYOFF_REQUIRES,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_MUST_DISCARD_TO_GO_OUT,
    P_PLAYERS,
    P_STOCK_EXHAUSTION,
    P_TURN_CAP,
    P_UPCARD,
    REASON_BLOCK,
    REASON_EXHAUSTED,
    REASON_STALLED,
    REASON_WENT_OUT,
    REASON_WENT_RUMMY,
    RUMMY_OFF,
    STOCK_BLOCK_DIFFERENCE,
    STOCK_BLOCK_TOTALS,
    STOCK_SHUFFLE_EXCEPT_TOP,
    STOCK_TURN_OVER,
)
from sim.engine.melds import CC_CARDS, CC_LEN, CC_START, CC_SUIT, CC_TYPE, S_BEST_N, S_OVERFLOW
from sim.engine.positions import position_ok, rank_at
from sim.engine.rng import STREAM_DEAL, below, stream_seed
from sim.engine.state import (
    F_HAS_MELDED,
    F_LAID_OFF_OWN,
    F_PLAYED,
    MC_CARDS,
    MC_DECLARED,
    MC_FITS,
    MC_LEN,
    MC_OWNER,
    MC_START,
    MC_SUIT,
    MC_TYPE,
    N_PL,
    PILE_DISCARD,
    PILE_SNAPSHOT,
    PILE_STOCK,
    PL_BITS,
    PL_FITS_OWN,
    PL_MELD_FREE,
    PL_N,
    PL_PICKED_BITS,
    SC_DISCARD_N,
    SC_DRAWS_DISCARD,
    SC_DRAWS_STOCK,
    SC_LOG,
    SC_N_MELDS,
    SC_STOCK_N,
    SC_STOCK_RANDOM,
    SC_TURN,
    SC_TURNS_SKIPPED,
    SC_VALUES_RISE,
    SC_VIOLATIONS,
)
from sim.engine.table import meld_fits_bits

# ---- the turn state: slots of a stack array (constant indices: LLVM keeps them in registers)

T_STOCK_N = 0  # cards in the stock, piles[PILE_STOCK, :n], top last
T_STOCK_RANDOM = 1  # 1 while the stock is unordered: each draw picks a uniform card
T_DISCARD_N = 2  # cards in the discard pile, piles[PILE_DISCARD, :n], top last
T_DISCARD_BITS = 3  # the cards of the discard pile (one pack: a set)
T_TABLE_BITS = 4  # the cards on the table
T_FITS_ALL = 5  # cards that would fit some table meld (table.refresh_fits' SC_FITS_ALL)
T_N_MELDS = 6  # table melds, rows melds[:n]
T_TURN = 7  # turns begun this hand
T_DRAWS_STOCK = 8
T_DRAWS_DISCARD = 9
T_TAKEN = 10  # the card taken from the discard pile this turn, -1 if none
T_PLAN = 11  # the card the bot keeps back to discard this turn, -1 if none
T_MELDS_TURN = 12  # melds laid down this turn
T_LAYOFFS_TURN = 13  # cards laid off this turn
T_VIOLATIONS = 14  # a bot's illegal choice (never expected; the general loop counts it too)
T_REBUILDS = 15  # stock rebuilds this hand
T_SNAPSHOT = 16  # 1 while PILE_SNAPSHOT holds a position; -1 once a repeat was skipped
T_SKIPPED = 17  # turns counted without being played (watch_for_cycle)
N_T = 18

# PILE_SNAPSHOT: a position right after a stock rebuild (watch_for_cycle)
SN_TURN = 0
SN_DRAWS_STOCK = 1
SN_DRAWS_DISCARD = 2
SN_PLAYER = 3  # whose draw it is
SN_STOCK_N = 4
SN_TABLE_BITS = 5  # the table's cards: it only grows, so these and SN_N_MELDS fix its rows
SN_N_MELDS = 6
SN_DISCARD = 7  # the discard pile: one card just after a rebuild
SN_PLAYERS = 8  # per player: hand, flags (F_PLAYED, F_HAS_MELDED, F_LAID_OFF_OWN), picked
SN_PER_PLAYER = 3

# outcomes of the draw
DRAWN = 0
DRAW_BLOCK = 1  # empty stock, discard declined under a block rule: the hand ends (§2F.28)
DRAW_EXHAUSTED = 2  # nothing left to draw anywhere

NO_CARD = -1


@inline_kernel
def mask_hand_applies(params, bots, sc, preset):
    """Whether ``play_mask_hand`` plays this hand: the fast path, every seat greedy or
    careful, no event log and no hand-built deal."""
    if sc[SC_LOG] != 0 or preset.shape[0] > 0:
        return False
    for p in range(params[P_PLAYERS]):
        if bots[p] != BOT_GREEDY and bots[p] != BOT_CAREFUL:
            return False
    return True


# ---- melds and the table, on masks ---------------------------------------------------------


@inline_kernel
def meld_through(hand, kind, ace_rank):
    """Is ``kind`` (held in ``hand``) in some meld of ``hand``: three or more cards of its
    rank, or three consecutive run positions of its suit through it (§1.3)? The same answer
    as ``bits.meldable(hand) >> kind & 1``, looking at one card."""
    if popcount(hand & (RANK_FIELD << (kind - kind % N_SUITS))) >= 3:
        return True
    held = to_positions(hand, ace_rank)
    here = to_positions(bit(kind), ace_rank)  # two positions for an ace under high_or_low
    above1 = positions_down(held, 1, ace_rank)  # bit q: position q + 1 is held
    above2 = positions_down(held, 2, ace_rank)
    below1 = positions_up(held, 1, ace_rank)  # bit q: position q - 1 is held
    below2 = positions_up(held, 2, ace_rank)
    return (here & ((above1 & above2) | (below1 & above1) | (below2 & below1))) != 0


@inline_kernel
def lay_off_targets(params, t, pl, player):
    """The cards ``player`` may lay off now (``table.lay_off_targets_bits``)."""
    if params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and t[T_MELDS_TURN] > 0:
        return 0
    target = params[P_LAYOFF_TARGET]
    if target == LAYOFF_NONE:
        return 0
    own = pl[player, PL_FITS_OWN]
    if target == LAYOFF_OWN_ONLY:
        return own
    req = params[P_LAYOFF_REQUIRES]
    if req == LREQ_AFTER_FIRST_MELD and pl[player, F_HAS_MELDED] != 1:
        return own
    if req == LREQ_AFTER_OWN_LAYOFF and pl[player, F_LAID_OFF_OWN] != 1:
        return own
    return own | t[T_FITS_ALL]


@inline_kernel
def may_lay_off_on(params, t, pl, melds, player, m):
    """Whether ``player`` may lay off on table meld ``m`` now (``table.may_lay_off_on``)."""
    if params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and t[T_MELDS_TURN] > 0:
        return False
    target = params[P_LAYOFF_TARGET]
    if target == LAYOFF_NONE:
        return False
    if melds[m, MC_OWNER] == player:
        return True
    if target == LAYOFF_OWN_ONLY:
        return False
    req = params[P_LAYOFF_REQUIRES]
    if req == LREQ_AFTER_FIRST_MELD:
        return pl[player, F_HAS_MELDED] == 1
    if req == LREQ_AFTER_OWN_LAYOFF:
        return pl[player, F_LAID_OFF_OWN] == 1
    return True


@inline_kernel
def refresh_fits(params, t, pl, melds, changed):
    """Meld ``changed`` was laid down or grew: its fit mask, then the union of every meld's
    (``T_FITS_ALL``) and each player's own (``PL_FITS_OWN``), as ``table.refresh_fits``."""
    melds[changed, MC_FITS] = meld_fits_bits(melds, params, changed)
    for p in range(params[P_PLAYERS]):
        pl[p, PL_FITS_OWN] = 0
    fits_all = 0
    for m in range(t[T_N_MELDS]):
        fits = melds[m, MC_FITS]
        fits_all |= fits
        pl[melds[m, MC_OWNER], PL_FITS_OWN] |= fits
    t[T_FITS_ALL] = fits_all


@inline_kernel
def lay_down_best(params, t, pl, melds, ws, player, hand):
    """Lay down the melds of ``ws.best`` (``table.lay_down``, row for row); returns the
    hand left. A new meld only adds to what fits the table, so the fit masks grow by its
    own (``refresh_fits`` recomputes them only when a meld changes)."""
    for b in range(ws.scal[S_BEST_N]):
        m = t[T_N_MELDS]
        length = ws.best[b, CC_LEN]
        melds[m, MC_TYPE] = ws.best[b, CC_TYPE]
        melds[m, MC_START] = ws.best[b, CC_START]
        melds[m, MC_LEN] = length
        melds[m, MC_SUIT] = ws.best[b, CC_SUIT]
        melds[m, MC_OWNER] = player
        melds[m, MC_DECLARED] = 0
        for i in range(length):
            card = ws.best[b, CC_CARDS + i]
            melds[m, MC_CARDS + i] = card
            hand &= ~bit(card)
            t[T_TABLE_BITS] |= bit(card)
            if card == t[T_TAKEN]:
                t[T_TAKEN] = NO_CARD  # the taken card is played: the no-discard rule is spent
        t[T_N_MELDS] = m + 1
        t[T_MELDS_TURN] += 1
        pl[player, F_HAS_MELDED] = 1
        fits = meld_fits_bits(melds, params, m)
        melds[m, MC_FITS] = fits
        t[T_FITS_ALL] |= fits
        pl[player, PL_FITS_OWN] |= fits
    return hand


@inline_kernel
def lay_off_card(params, t, pl, melds, player, m, kind, ace_rank):
    """Add ``kind`` to table meld ``m`` (``table.lay_off``): a group takes it last; a run
    takes it after its last card when it is the next rank up, else before its first."""
    length = melds[m, MC_LEN]
    below_run = False
    if melds[m, MC_TYPE] != MELD_GROUP:
        high = position_ok(melds[m, MC_START] + length, ace_rank)
        below_run = high < 0 or rank_at(high, ace_rank) != kind // N_SUITS
    if below_run:
        for i in range(length, 0, -1):
            melds[m, MC_CARDS + i] = melds[m, MC_CARDS + i - 1]
        melds[m, MC_CARDS] = kind
        start = melds[m, MC_START] - 1
        if start < 0:  # around the corner: wrap below the ace
            start += N_RANKS
        melds[m, MC_START] = start
    else:
        melds[m, MC_CARDS + length] = kind
    melds[m, MC_LEN] = length + 1
    t[T_TABLE_BITS] |= bit(kind)
    if kind == t[T_TAKEN]:
        t[T_TAKEN] = NO_CARD
    t[T_LAYOFFS_TURN] += 1
    if melds[m, MC_OWNER] == player:
        pl[player, F_LAID_OFF_OWN] = 1
    refresh_fits(params, t, pl, melds, m)


# ---- the bots' decisions (docs/bots.md), on masks -----------------------------------------


@inline_kernel
def wants_discard(params, t, pl, player, hand, top, ace_rank):
    """Greedy's and careful's draw: take ``top`` only if it belongs to a meld of the hand
    plus it, or fits a table meld the player may lay off on now."""
    if meld_through(hand | bit(top), top, ace_rank):
        return True
    return ((lay_off_targets(params, t, pl, player) >> top) & 1) == 1


@inline_kernel
def finishable_without(params, t, hand, kind):
    """After laying ``kind`` off, could the turn still end (``turn_stays_finishable_bits``)?"""
    if popcount(hand) == 1:
        return params[P_MUST_DISCARD_TO_GO_OUT] == 0
    left = hand & ~bit(kind)
    taken = t[T_TAKEN]
    if taken >= 0 and taken != kind:
        left &= ~bit(taken)
    return left != 0


@inline_kernel
def melded_bits(ws):
    """The cards of the melds in ``ws.best``."""
    melded = 0
    for b in range(ws.scal[S_BEST_N]):
        for i in range(ws.best[b, CC_LEN]):
            melded |= bit(ws.best[b, CC_CARDS + i])
    return melded


@kernel
def search(ws, params, values, hand, limit):
    """``bits.best_arrangement_bits`` as a call of its own, for the rare arrangements of a
    hand but one card (one compiled copy keeps ``play_mask_hand``'s compile short)."""
    return best_arrangement_bits(ws, params, values, hand, limit)


@inline_kernel
def arrangement(params, values, pl, ws, player, hand, limit, ace_rank):
    """``bots._best`` of ``hand`` into ``ws`` (the best arrangement within ``limit`` melds,
    0 = any number); returns the number of melds. ``pl[player, PL_MELD_FREE]`` is a card set
    known to hold no meld, so every meld of ``hand`` holds a card from outside it: inside it,
    nothing melds; one card outside it, every meld goes through that card
    (``bits.best_meld_through_bits``, no search tree, and nothing at all when the card is in
    no meld); otherwise the full search."""
    new = hand & ~pl[player, PL_MELD_FREE]
    if (new & (new - 1)) == 0:  # at most one card outside the meld-free set
        if new == 0 or not meld_through(hand, lowest_bit(new), ace_rank):
            ws.scal[S_BEST_N] = 0
            pl[player, PL_MELD_FREE] = hand
            return 0
        best_meld_through_bits(ws, params, values, hand)
        return ws.scal[S_BEST_N]
    tree_limit = search_limit(limit)
    if not arranged_without_search_bits(ws, params, values, hand, tree_limit):  # a dealt hand
        search_tree_bits(ws, params, values, tree_limit)
    n = ws.scal[S_BEST_N]
    if n == 0:
        pl[player, PL_MELD_FREE] = hand
    return n


@inline_kernel
def remember_meld_free(pl, ws, player, hand, limit, plan):
    """After the best arrangement of ``hand`` (minus ``plan``) is laid down, what is left
    (but ``plan``) holds no meld, unless the meld limit cut the arrangement short: a meld
    left could have been added to it."""
    if ws.scal[S_OVERFLOW] != 0 or (limit > 0 and ws.scal[S_BEST_N] >= limit):
        return
    if plan >= 0:
        hand &= ~bit(plan)
    pl[player, PL_MELD_FREE] = hand


@inline_kernel
def greedy_arrangement(params, values, t, pl, ws, player, hand, limit, ace_rank):
    """What greedy lays down, into ``ws.best`` (``bots._greedy_arrangement``): the best
    arrangement; if it would leave no legal end of turn, the best one of the hand without
    the allowed card that leaves the most melded, which becomes the planned discard
    (``T_PLAN``). Returns the number of melds."""
    n = arrangement(params, values, pl, ws, player, hand, limit, ace_rank)
    if n == 0:
        return 0
    melded = melded_bits(ws)
    left = hand & ~melded
    if left == 0:
        legal = params[P_MUST_DISCARD_TO_GO_OUT] == 0
    else:
        taken = t[T_TAKEN]
        if taken >= 0 and ((melded >> taken) & 1) == 0:
            left &= ~bit(taken)
        legal = left != 0
    if legal:
        return n
    best_v = -1
    best_d = NO_CARD
    rest = hand
    while rest != 0:
        d = lowest_bit(rest)
        rest &= rest - 1
        if d == t[T_TAKEN]:
            continue  # not an allowed discard
        v = search(ws, params, values, hand & ~bit(d), limit)
        if v > best_v:
            best_v = v
            best_d = d
    search(ws, params, values, hand & ~bit(best_d), limit)
    t[T_PLAN] = best_d
    return ws.scal[S_BEST_N]


@inline_kernel
def greedy_lay_offs(params, t, pl, melds, player, hand, ace_rank):
    """``bots._greedy_lay_off_bits``: the lowest held card that fits a table meld the player
    may lay off on and keeps the turn finishable goes on the first such meld, again and
    again; never the planned discard. Returns the hand left."""
    changed = True
    while changed and hand != 0:
        changed = False
        cands = hand & lay_off_targets(params, t, pl, player)
        plan = t[T_PLAN]
        if plan >= 0:
            cands &= ~bit(plan)
        while cands != 0:
            k = lowest_bit(cands)
            cands &= cands - 1
            if finishable_without(params, t, hand, k):
                for m in range(t[T_N_MELDS]):
                    if (melds[m, MC_FITS] >> k) & 1 == 1 and may_lay_off_on(
                        params, t, pl, melds, player, m
                    ):
                        lay_off_card(params, t, pl, melds, player, m, k, ace_rank)
                        hand &= ~bit(k)
                        changed = True
                        break
                break
    return hand


@inline_kernel
def careful_holds_for_rummy(params, t, pl, player):
    """``bots._careful_holds_for_rummy``: under a going-rummy reward, early in the hand, while
    this player has played nothing and every opponent holds more than 3 cards."""
    if params[P_GOING_RUMMY] == RUMMY_OFF or pl[player, F_PLAYED] == 1:
        return False
    if t[T_TURN] > HOLD_TURNS * params[P_PLAYERS]:
        return False
    for q in range(params[P_PLAYERS]):
        if q != player and popcount(pl[q, PL_BITS]) <= 3:
            return False
    return True


@inline_kernel
def careful_hold_goes(params, t, pl, ws, player, hand):
    """``bots._careful_hold_play``'s test on greedy's arrangement in ``ws.best``: does the
    whole hand go this turn (every other card melded or fitting a table meld, or all but one
    card it may then discard)?"""
    rest = hand & ~melded_bits(ws)
    plan = t[T_PLAN]
    if plan >= 0:
        rest &= ~bit(plan)
    no_layoffs = params[P_MELDS_PER_TURN] == MELDS_ONE_OR_LAYOFF and ws.scal[S_BEST_N] > 0
    if not no_layoffs:
        rest &= ~lay_off_targets(params, t, pl, player)
    left = popcount(rest)
    if plan >= 0:
        return left == 0
    return left == 0 or (left == 1 and highest_bit(rest) != t[T_TAKEN])


@inline_kernel
def play_table(params, values, t, pl, melds, ws, bots, player, hand, ace_rank):
    """The table phase of ``bots.play_melds`` for greedy and careful; returns the hand left."""
    limit = 1 if params[P_MELDS_PER_TURN] != 0 else 0  # table.meld_limit
    if bots[player] == BOT_CAREFUL and careful_holds_for_rummy(params, t, pl, player):
        n = greedy_arrangement(params, values, t, pl, ws, player, hand, limit, ace_rank)
        if not careful_hold_goes(params, t, pl, ws, player, hand):
            t[T_PLAN] = NO_CARD  # nothing is played: no card is kept back
            return hand
    else:
        n = greedy_arrangement(params, values, t, pl, ws, player, hand, limit, ace_rank)
    if n > 0:
        hand = lay_down_best(params, t, pl, melds, ws, player, hand)
        remember_meld_free(pl, ws, player, hand, limit, t[T_PLAN])
    return greedy_lay_offs(params, t, pl, melds, player, hand, ace_rank)


@inline_kernel
def allowed_discards(t, hand):
    """The cards that may be discarded: never the one taken from the discard pile this turn."""
    if t[T_TAKEN] >= 0:
        return hand & ~bit(t[T_TAKEN])
    return hand


@inline_kernel
def greedy_choice(values, t, hand, values_rise, ace_rank):
    """``bots._greedy_discard_bits``: ``bits.greedy_discard_mask`` on this hand."""
    return greedy_discard_mask(values, hand, allowed_discards(t, hand), values_rise, ace_rank)


@inline_kernel
def careful_unseen(t, hand):
    """The cards the player has not seen: not in his hand, the discard pile or the table."""
    return FULL52 & ~(hand | t[T_DISCARD_BITS] | t[T_TABLE_BITS])


@inline_kernel
def careful_choice(params, values, t, pl, player, hand, ace_rank):
    """``bots._careful_discard_bits``: ``careful.careful_discard_mask`` on this hand."""
    nxt = player + 1
    if nxt == params[P_PLAYERS]:
        nxt = 0
    fits = t[T_FITS_ALL] if params[P_LAYOFF_TARGET] != LAYOFF_NONE else 0
    return careful_discard_mask(
        values,
        hand,
        allowed_discards(t, hand),
        careful_unseen(t, hand),
        pl[nxt, PL_PICKED_BITS],
        fits,
        params[P_PLAYERS],
        ace_rank,
    )


@inline_kernel
def choose_discard(params, values, t, pl, bots, player, hand, values_rise, ace_rank):
    """The planned card if any, else the bot's choice."""
    plan = t[T_PLAN]
    if plan >= 0 and plan != t[T_TAKEN] and (hand >> plan) & 1 == 1:
        return plan
    if bots[player] == BOT_CAREFUL:
        return careful_choice(params, values, t, pl, player, hand, ace_rank)
    return greedy_choice(values, t, hand, values_rise, ace_rank)


# ---- the stock and the discard pile --------------------------------------------------------


@inline_kernel
def pop_stock(piles, rng, t):
    """The stock's top card (a uniform remaining card while it is unordered)."""
    n = t[T_STOCK_N]
    if t[T_STOCK_RANDOM] == 1:
        j = below(rng, n)
        card = piles[PILE_STOCK, j]
        piles[PILE_STOCK, j] = piles[PILE_STOCK, n - 1]
        piles[PILE_STOCK, n - 1] = card
    t[T_STOCK_N] = n - 1
    return piles[PILE_STOCK, n - 1]


@inline_kernel
def push_discard(piles, t, card):
    piles[PILE_DISCARD, t[T_DISCARD_N]] = card
    t[T_DISCARD_N] += 1
    t[T_DISCARD_BITS] |= bit(card)


@inline_kernel
def take_discard(piles, t, pl, player):
    """``player`` takes the discard top; returns it."""
    n = t[T_DISCARD_N] - 1
    card = piles[PILE_DISCARD, n]
    t[T_DISCARD_N] = n
    t[T_DISCARD_BITS] &= ~bit(card)
    t[T_TAKEN] = card
    t[T_DRAWS_DISCARD] += 1
    pl[player, PL_PICKED_BITS] |= bit(card)
    return card


@inline_kernel
def rebuild_stock(params, piles, t):
    """``hand.rebuild_stock``: the discard pile, but its top (shuffle_except_top) or its
    oldest card (turn_over, the pile turned face down unshuffled), becomes the stock."""
    n = t[T_DISCARD_N]
    if params[P_STOCK_EXHAUSTION] == STOCK_SHUFFLE_EXCEPT_TOP:
        kept = piles[PILE_DISCARD, n - 1]
        for i in range(n - 1):
            piles[PILE_STOCK, i] = piles[PILE_DISCARD, i]
        t[T_STOCK_RANDOM] = 1
    else:
        kept = piles[PILE_DISCARD, 0]
        for i in range(n - 1):
            piles[PILE_STOCK, i] = piles[PILE_DISCARD, n - 1 - i]
        t[T_STOCK_RANDOM] = 0
    piles[PILE_DISCARD, 0] = kept
    t[T_STOCK_N] = n - 1
    t[T_DISCARD_N] = 1
    t[T_DISCARD_BITS] = bit(kept)


@inline_kernel
def _player_flags(pl, p):
    return pl[p, F_PLAYED] | (pl[p, F_HAS_MELDED] << 1) | (pl[p, F_LAID_OFF_OWN] << 2)


@inline_kernel
def _stock_at(players):
    """Where the snapshot's stock cards begin in ``PILE_SNAPSHOT``."""
    return SN_PLAYERS + SN_PER_PLAYER * players


@inline_kernel
def _same_position(params, piles, t, pl, player):
    """Is the position now (just after a rebuild) the one in ``PILE_SNAPSHOT``?"""
    snap = piles[PILE_SNAPSHOT]
    if (
        snap[SN_PLAYER] != player
        or snap[SN_STOCK_N] != t[T_STOCK_N]
        or snap[SN_TABLE_BITS] != t[T_TABLE_BITS]
        or snap[SN_N_MELDS] != t[T_N_MELDS]
        or snap[SN_DISCARD] != piles[PILE_DISCARD, 0]
    ):
        return False
    players = params[P_PLAYERS]
    for p in range(players):
        at = SN_PLAYERS + SN_PER_PLAYER * p
        if (
            snap[at] != pl[p, PL_BITS]
            or snap[at + 1] != _player_flags(pl, p)
            or snap[at + 2] != pl[p, PL_PICKED_BITS]
        ):
            return False
    first = _stock_at(players)
    for i in range(t[T_STOCK_N]):
        if snap[first + i] != piles[PILE_STOCK, i]:
            return False
    return True


@inline_kernel
def _keep_position(params, piles, t, pl, player):
    """Record the position now in ``PILE_SNAPSHOT``."""
    snap = piles[PILE_SNAPSHOT]
    snap[SN_TURN] = t[T_TURN]
    snap[SN_DRAWS_STOCK] = t[T_DRAWS_STOCK]
    snap[SN_DRAWS_DISCARD] = t[T_DRAWS_DISCARD]
    snap[SN_PLAYER] = player
    snap[SN_STOCK_N] = t[T_STOCK_N]
    snap[SN_TABLE_BITS] = t[T_TABLE_BITS]
    snap[SN_N_MELDS] = t[T_N_MELDS]
    snap[SN_DISCARD] = piles[PILE_DISCARD, 0]
    players = params[P_PLAYERS]
    for p in range(players):
        at = SN_PLAYERS + SN_PER_PLAYER * p
        snap[at] = pl[p, PL_BITS]
        snap[at + 1] = _player_flags(pl, p)
        snap[at + 2] = pl[p, PL_PICKED_BITS]
    first = _stock_at(players)
    for i in range(t[T_STOCK_N]):
        snap[first + i] = piles[PILE_STOCK, i]
    t[T_SNAPSHOT] = 1


@inline_kernel
def watch_for_cycle(params, piles, t, pl, player):
    """Under ``turn_over`` (§1.8) a rebuilt stock is in a known order and greedy and careful
    draw no random numbers, so a position that comes back after a rebuild comes back for
    ever: the hand can only stall at the turn cap. Called just after each rebuild: when the
    position is the one kept at an earlier rebuild, every turn from here to the cap repeats
    the last cycle, so whole cycles are skipped (turns and draws counted) and play goes on
    to the cap from the same position, ending exactly as turn-by-turn play would. Positions
    are kept at the 1st, 2nd, 4th, 8th... rebuild (Brent's cycle finding), and only once
    careful has stopped holding for a rummy (a rule of the turn number)."""
    if params[P_STOCK_EXHAUSTION] != STOCK_TURN_OVER or t[T_SNAPSHOT] < 0:
        return
    t[T_REBUILDS] += 1
    if t[T_TURN] <= HOLD_TURNS * params[P_PLAYERS]:
        return
    snap = piles[PILE_SNAPSHOT]
    if t[T_SNAPSHOT] == 1 and _same_position(params, piles, t, pl, player):
        cycle = t[T_TURN] - snap[SN_TURN]
        skipped = (params[P_TURN_CAP] - t[T_TURN]) // cycle
        t[T_TURN] += skipped * cycle
        t[T_SKIPPED] = skipped * cycle
        t[T_DRAWS_STOCK] += skipped * (t[T_DRAWS_STOCK] - snap[SN_DRAWS_STOCK])
        t[T_DRAWS_DISCARD] += skipped * (t[T_DRAWS_DISCARD] - snap[SN_DRAWS_DISCARD])
        t[T_SNAPSHOT] = -1
        return
    r = t[T_REBUILDS]
    if (r & (r - 1)) == 0:
        _keep_position(params, piles, t, pl, player)


@inline_kernel
def draw(params, values, piles, rng, t, pl, bots, player, hand, ace_rank):
    """``hand.draw_phase``: returns (outcome, the card drawn)."""
    top = piles[PILE_DISCARD, t[T_DISCARD_N] - 1] if t[T_DISCARD_N] > 0 else NO_CARD
    if t[T_STOCK_N] == 0:
        if top < 0:
            return DRAW_EXHAUSTED, NO_CARD
        wants = wants_discard(params, t, pl, player, hand, top, ace_rank)
        block = params[P_STOCK_EXHAUSTION]
        if not wants and (block == STOCK_BLOCK_DIFFERENCE or block == STOCK_BLOCK_TOTALS):
            return DRAW_BLOCK, NO_CARD
        if wants or t[T_DISCARD_N] < 2:  # one discard left: it must be taken
            return DRAWN, take_discard(piles, t, pl, player)
        rebuild_stock(params, piles, t)
        watch_for_cycle(params, piles, t, pl, player)
    elif top >= 0 and (
        wants_discard(params, t, pl, player, hand, top, ace_rank)
        or (
            bots[player] == BOT_CAREFUL
            and careful_takes_mask(
                values,
                hand,
                careful_unseen(t, hand),
                pl[player, PL_PICKED_BITS],
                top,
                ace_rank,
            )
        )
    ):
        return DRAWN, take_discard(piles, t, pl, player)
    t[T_DRAWS_STOCK] += 1
    return DRAWN, pop_stock(piles, rng, t)


# ---- the hand ------------------------------------------------------------------------------


@inline_kernel
def deal(params, pl, piles, rng, t, dealer):
    """Fill the stock from the shoe, deal one card at a time clockwise from the dealer's
    left, then turn the upcard (``reset_hand``, ``fill_stock``, ``deal_cards``; §1.4)."""
    players = params[P_PLAYERS]
    for p in range(players):
        for f in range(N_PL):
            pl[p, f] = 0
    n = popcount(FULL52)  # one pack: the shoe is every kind once, in kind order
    for i in range(n):
        piles[PILE_STOCK, i] = i
    for i in range(N_T):
        t[i] = 0
    t[T_STOCK_N] = n
    t[T_STOCK_RANDOM] = 1
    for _ in range(params[P_HAND_SIZE]):
        seat = dealer
        for _ in range(players):
            seat += 1
            if seat == players:
                seat = 0
            pl[seat, PL_BITS] |= bit(pop_stock(piles, rng, t))
    if params[P_UPCARD] == 1:
        push_discard(piles, t, pop_stock(piles, rng, t))


@inline_kernel
def write_back(pl, sc, t, params):
    """Leave the counters and sizes the general loop leaves (``play_hand`` scores from them)."""
    for p in range(params[P_PLAYERS]):
        pl[p, PL_N] = popcount(pl[p, PL_BITS])
    sc[SC_STOCK_N] = t[T_STOCK_N]
    sc[SC_STOCK_RANDOM] = t[T_STOCK_RANDOM]
    sc[SC_DISCARD_N] = t[T_DISCARD_N]
    sc[SC_N_MELDS] = t[T_N_MELDS]
    sc[SC_TURN] = t[T_TURN]
    sc[SC_DRAWS_STOCK] = t[T_DRAWS_STOCK]
    sc[SC_DRAWS_DISCARD] = t[T_DRAWS_DISCARD]
    sc[SC_VIOLATIONS] += t[T_VIOLATIONS]
    sc[SC_TURNS_SKIPPED] = t[T_SKIPPED]


@inline_kernel
def play_turn(params, values, piles, rng, t, pl, melds, ws, bots, player, values_rise, ace_rank):
    """One turn of ``player`` (``hand.play_turns``' loop body): draw, table, discard.
    Returns the hand's end reason, or -1 when play goes on."""
    t[T_TAKEN] = NO_CARD
    t[T_PLAN] = NO_CARD
    t[T_MELDS_TURN] = 0
    t[T_LAYOFFS_TURN] = 0
    hand = pl[player, PL_BITS]
    outcome, card = draw(params, values, piles, rng, t, pl, bots, player, hand, ace_rank)
    if outcome == DRAW_BLOCK:
        return REASON_BLOCK
    if outcome == DRAW_EXHAUSTED:
        return REASON_EXHAUSTED
    hand = play_table(params, values, t, pl, melds, ws, bots, player, hand | bit(card), ace_rank)
    played = t[T_MELDS_TURN] + t[T_LAYOFFS_TURN] > 0
    if hand != 0:
        out = choose_discard(params, values, t, pl, bots, player, hand, values_rise, ace_rank)
        if out < 0 or out == JOKER or (hand >> out) & 1 == 0 or out == t[T_TAKEN]:
            t[T_VIOLATIONS] += 1  # a bot chose an illegal discard
            pl[player, PL_BITS] = hand
            return REASON_STALLED
        hand &= ~bit(out)
        push_discard(piles, t, out)
    elif params[P_MUST_DISCARD_TO_GO_OUT] == 1:
        t[T_VIOLATIONS] += 1  # went out without the required discard (§2E.26)
    pl[player, PL_BITS] = hand
    if hand == 0:
        return REASON_WENT_RUMMY if pl[player, F_PLAYED] == 0 else REASON_WENT_OUT
    if played:
        pl[player, F_PLAYED] = 1
    return -1


@inline_kernel
def play_mask_hand(
    pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
):
    """Deal and play one hand (see the module docstring); returns (reason, winner) as
    ``hand.play_turns`` does, and leaves ``pl``, ``piles``, ``melds`` and ``sc`` as the
    general loop would for ``play_hand``'s scoring.

    The hand is compiled three times, as three kernels, all making the same plays:
    ``play_mask_hand_standard`` when every toggle it reads has its default
    (``fixed_rules.is_standard``: ``rummy_basic``), with those toggles constants
    (``fixed_rules.standard_params``), so that LLVM drops every other rule's code (~11%
    faster than the next one in a loop calling the kernel alone, docs/engine.md, Speed);
    ``play_mask_hand_ace_low`` with only the ace rule a constant, ``ACE_LOW`` (the default of
    RULES.md §2A.4 and the rule of most variants), so that LLVM folds every position-space
    step of a turn (``to_positions`` is then the mask itself, a run step one shift; ~10%
    faster than reading it); and ``play_mask_hand_any_ace``, which reads every rule from
    ``params``. (One kernel holding two copies behind a branch was slower than either.)"""
    if is_standard(params):
        return play_mask_hand_standard(
            pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
        )
    if params[P_ACE_RANK] == ACE_LOW:
        return play_mask_hand_ace_low(
            pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
        )
    return play_mask_hand_any_ace(
        pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
    )


@kernel
def play_mask_hand_standard(
    pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
):
    """``play_mask_hand`` when ``fixed_rules.is_standard(params)``: every toggle it reads is
    a constant (``fixed_rules.standard_params``)."""
    return _play_mask_hand(
        pl, piles, melds, sc, rng, ws, standard_params(params), values, bots, dealer, seed,
        shard, deal_no, ACE_LOW,
    )  # fmt: skip


@kernel
def play_mask_hand_ace_low(
    pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
):
    """``play_mask_hand`` when ``params[P_ACE_RANK]`` is ``ACE_LOW``."""
    return _play_mask_hand(
        pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no,
        ACE_LOW,
    )  # fmt: skip


@kernel
def play_mask_hand_any_ace(
    pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no
):
    """``play_mask_hand`` under any ace rule, read from ``params``."""
    return _play_mask_hand(
        pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no,
        params[P_ACE_RANK],
    )  # fmt: skip


@inline_kernel
def _play_mask_hand(
    pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard, deal_no, ace_rank
):
    """``play_mask_hand`` under the ace rule ``ace_rank`` (``params[P_ACE_RANK]``, passed
    apart so that a constant can be folded in)."""
    t = stack_int64(N_T)
    # greedy and careful draw no random numbers: only the deal stream is seeded (the bots'
    # stream, rng[1], is left as it is; the general loop seeds both, reset_hand)
    rng[0] = stream_seed(seed, shard, deal_no, STREAM_DEAL)
    deal(params, pl, piles, rng[0:1], t, dealer)
    values_rise = sc[SC_VALUES_RISE]
    players = params[P_PLAYERS]
    cap = params[P_TURN_CAP]
    player = dealer + 1
    if player == players:
        player = 0
    while True:
        if t[T_TURN] >= cap:
            write_back(pl, sc, t, params)
            return REASON_STALLED, -1
        t[T_TURN] += 1
        reason = play_turn(
            params, values, piles, rng[0:1], t, pl, melds, ws, bots, player, values_rise, ace_rank
        )
        if reason >= 0:
            write_back(pl, sc, t, params)
            if reason == REASON_WENT_OUT or reason == REASON_WENT_RUMMY:
                return reason, player
            return reason, -1
        player += 1
        if player == players:
            player = 0
