"""The table (mechanics PM and WJ of RULES.md §4C): laying down melds, laying off, and who
may lay off where (RULES.md §1.5, §1.6, §2D.19-21); jokers on the table: what they stand
for, their declarations, their replacement and their limit (§2B.10-12); the initial meld
(§2D.24-25).

Rule slots read here: ``melds_per_turn``, ``layoff_target``, ``layoff_requires_meld``,
``ace_rank``, ``run_suit``, ``group_duplicates``, ``packs``, ``joker_declare``,
``joker_replace``, ``joker_limit``, ``joker_slide``, ``joker_slide_repeat``,
``initial_meld_min``, ``audit``.

**The initial meld** (§2D.24-25, docs/variants.md). Under ``initial_meld_min`` a seat has
not opened (``S_OPENED``) until the melds he lays down in one turn count the threshold
(``melds.CA_OPEN``, summed in ``C_OPEN_TURN``) and, when he took the discard top for it
(``C_TOOK_UNOPENED``, ``only_for_initial_meld``), one of them holds that card
(``C_TAKEN_MELDED``). Before that he lays nothing off (``may_lay_off_on_others``), and his
arrangements must meet what is still missing (``opening_terms``, the meld search's
conditions).

A table meld is a row of ``st`` (``sim.engine.state``, ``M_*`` columns) in the same terms as
a candidate of ``sim.engine.melds``: a group is its rank and natural count per suit; a run is
its window (first position, length) and what stands on each position. ``M_FITS`` holds
the natural kinds that could be laid off on it now (a missing suit of a group; the
positions just outside a run's ends, of its suit), and ``refresh_fits`` keeps their union
per owner and for the whole table, so that "does this card fit anywhere" is one test.

**Jokers on the table** (§2B.11). A run's joker stands on its position (``M_SHAPE`` digit
``JOKER_DIGIT``): under ``same_suit`` the position fixes its card; under ``any_suit`` only
its rank, the suit being fixed by a declaration. A group's jokers are a count: a declared
joker stands for its declared card (``M_DECLARED``, a mask: the declared kinds, one per
declared joker); an undeclared joker of a full group of one card per suit stands for the
one suit of the rank that neither a natural card nor a declaration holds, when exactly one
is left (``inferred``'s "4-card groups fix it as the missing suit"); any other stands for
nothing yet. ``declaration_options`` says what the next joker of a meld must be declared
as now: never under ``inferred`` or in a run of one suit (its position fixes it); under
``three_card_group`` every joker of a group of three cards, when it is laid down or a
joker is laid off on it; under ``always`` every joker of a group (at most one per card of
its rank) and of an any-suit run (one per rank). A group's joker may be declared as a card
of its rank that no natural card of the group (one card per suit) and no other joker
already is; an any-suit run's joker as any card of its position's rank. The bots choose
(``sim.engine.joker_choice``). A natural card that a joker of a group was declared as may
not be laid off on it (one card per suit): ``meld_fits`` leaves it out.

A joker may be laid off (``lay_off_joker``) on a group with fewer than 4 cards (any group
under ``group_duplicates = allowed``) or on a run with a free end: above its last position
when there is one, else below its first.

**The slide** (§2B.13, ``joker_slide``). The natural card a run's first or last joker
stands for may be laid off in its place, the joker moving to the position beyond the run's
other end (``slide_kinds``, ``slide``; logged ``E_SLIDE``, counted as a lay-off). A joker
slides once (``M_SLID`` marks the positions of jokers that slid; the extension
``joker_slide_repeat`` lifts the limit, §3.9 open point 2); interior jokers never move.

**Replacement** (§2B.12, ``joker_replace = steal_by_replacement``; ``none``: never). In
his turn's table phase, any player holding the natural card a table joker stands for
(``stands_for``) may put it in the joker's place and take the joker into his hand
(``steal``), whoever owns the meld and whatever the lay-off rules (it is not a lay-off);
the joker is then his to meld, lay off or discard like any card (RULES.md leaves it open:
"it goes to hand as in Caloochi"). A replacement plays a card to the table: the turn
counts as played (going rummy, §2E.27), and playing the card taken from the discard pile
spends §1.5's rule as a lay-off does.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    GROUP_DUPLICATES_ALLOWED,
    JDECLARE_ALWAYS,
    JDECLARE_INFERRED,
    JDECLARE_THREE_CARD_GROUP,
    JLIMIT_NATURALS,
    JREPLACE_REUSE,
    JREPLACE_STEAL,
    JREPLACE_TO_HAND,
    LAYOFF_NONE,
    LAYOFF_OWN_ONLY,
    LREQ_AFTER_FIRST_MELD,
    LREQ_AFTER_OWN_LAYOFF,
    MELDS_ONE,
    MELDS_ONE_OR_LAYOFF,
    P_AUDIT,
    P_GROUP_DUPLICATES,
    P_INITIAL_MELD_MIN,
    P_JOKER_DECLARE,
    P_JOKER_LIMIT,
    P_JOKER_REPLACE,
    P_JOKER_SLIDE,
    P_JOKER_SLIDE_REPEAT,
    P_JOKERS,
    P_LAYOFF_REQUIRES_MELD,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_PACKS,
    P_PLAYERS,
    P_RUN_SUIT,
    P_TONK_NO_FOURTH,
    P_TONK_ONE_LAYOFF,
    P_TONK_WAIT,
    RUN_ANY_SUIT,
)
from sim.engine.legal import stays_finishable
from sim.engine.melds import (
    CA_JOKERS,
    CA_LEN,
    CA_LO,
    CA_OPEN,
    CA_SHAPE,
    CA_SUIT,
    CA_TAKE,
    CA_TYPE,
    JOKER_DIGIT,
    MAX_LAYERS,
    MAX_RUN,
    MELD_GROUP,
    n_positions,
    rank_at,
    remove_one_each,
    run_cap,
    run_layout,
)
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_CURRENT,
    C_FITS,
    C_JOKERS_OWED,
    C_LAYOFFS,
    C_LAYOFFS_TURN,
    C_LOG,
    C_MELDS,
    C_MELDS_TURN,
    C_N_EVENTS,
    C_N_MELDS,
    C_OPEN_TURN,
    C_STEALS_TURN,
    C_TAKEN,
    C_TAKEN2,
    C_TAKEN_MELDED,
    C_TOOK_UNOPENED,
    C_VIOLATIONS,
    C_WAIT_CHARGED,
    C_WAITING,
    E_DECLARE,
    E_LAYOFF,
    E_MELD,
    E_SLIDE,
    E_STEAL,
    EV_A,
    EV_B,
    EV_TYPE,
    M_CARDS,
    M_DECLARED,
    M_FITS,
    M_JOKERS,
    M_LEN,
    M_LO,
    M_OWNER,
    M_SHAPE,
    M_SLID,
    M_SUIT,
    M_TYPE,
    M_WILD,
    R_MELD,
    R_SC,
    R_SEAT,
    S_FITS_OWN,
    S_HAND,
    S_JOKERS,
    S_LAID_OWN,
    S_MELDED,
    S_N,
    S_OPENED,
    S_STOCK_SEEN,
    S_WAIT,
    log_card,
    log_event,
)


@kernel
def _run_end_kinds(fx, params, pos, suit):
    """The natural kinds that may stand on run position ``pos`` (of ``suit``, or any suit
    under any_suit), as a mask."""
    rank = rank_at(pos, run_layout(fx, params))
    if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
        return np.int64(0xF) << (rank * N_SUITS)
    return np.int64(1) << (rank * N_SUITS + suit)


@kernel
def meld_fits(fx, params, st, m):
    """The natural kinds that could be laid off on table meld ``m`` (RULES.md §1.6)."""
    row = R_MELD + m
    length = st[row, M_LEN]
    if st[row, M_TYPE] == MELD_GROUP:
        rank = st[row, M_LO]
        if rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED:
            return np.int64(0xF) << (rank * N_SUITS)
        if length >= N_SUITS or rule(fx, params, P_TONK_NO_FOURTH) == 1:
            return np.int64(0)  # tonk_no_fourth_in_group: no 4th card (§2L.50)
        fits = np.int64(0)
        shape = st[row, M_SHAPE]
        for t in range(N_SUITS):
            if (shape >> (4 * t)) & 0xF == 0:
                fits |= np.int64(1) << (rank * N_SUITS + t)
        if rule(fx, params, P_JOKERS) > 0:
            fits &= ~st[row, M_DECLARED]  # a joker was declared as that card (§2B.11)
        return fits
    if length >= run_cap(fx, params):
        return np.int64(0)
    ace_rank = run_layout(fx, params)
    lo = st[row, M_LO]
    suit = st[row, M_SUIT]
    fits = np.int64(0)
    if rule(fx, params, P_JOKER_SLIDE) == 1:
        fits |= slide_kinds(fx, params, st, m)
    if ace_rank == ACE_AROUND_CORNER:
        fits |= _run_end_kinds(fx, params, lo + MAX_RUN - 1, suit)  # position lo - 1
        fits |= _run_end_kinds(fx, params, lo + length, suit)
        return fits
    if lo > 0:
        fits |= _run_end_kinds(fx, params, lo - 1, suit)
    if lo + length < n_positions(ace_rank):
        fits |= _run_end_kinds(fx, params, lo + length, suit)
    return fits


@kernel
def refresh_fits(fx, params, st):
    """The table changed: recompute what fits it (``C_FITS`` for every meld, ``S_FITS_OWN``
    per owner) and forget what each player drew from the stock before (``S_STOCK_SEEN``)."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        st[R_SEAT + p, S_FITS_OWN] = 0
        st[R_SEAT + p, S_STOCK_SEEN] = 0
    every = np.int64(0)
    for m in range(st[R_SC, C_N_MELDS]):
        fits = st[R_MELD + m, M_FITS]
        every |= fits
        st[R_SEAT + st[R_MELD + m, M_OWNER], S_FITS_OWN] |= fits
    st[R_SC, C_FITS] = every


@kernel
def may_meld_now(fx, params, st):
    """May the player whose turn it is lay down another meld this turn (§2D.19; not while
    he waits under ``tonk_wait``, §3.22)?"""
    if rule(fx, params, P_TONK_WAIT) > 0 and st[R_SC, C_WAITING] == 1:
        return False
    rule_ = rule(fx, params, P_MELDS_PER_TURN)
    if rule_ == MELDS_ONE:
        return st[R_SC, C_MELDS_TURN] == 0
    if rule_ == MELDS_ONE_OR_LAYOFF:
        return st[R_SC, C_MELDS_TURN] == 0 and st[R_SC, C_LAYOFFS_TURN] == 0
    return True


@kernel
def may_lay_off_now(fx, params, st):
    """May the player lay off this turn at all (§2D.19 one_or_layoff, §2D.20 none)?"""
    if rule(fx, params, P_LAYOFF_TARGET) == LAYOFF_NONE:
        return False
    if rule(fx, params, P_TONK_ONE_LAYOFF) == 1 and st[R_SC, C_LAYOFFS_TURN] > 0:
        return False  # tonk_one_layoff_per_turn (§2L.51)
    if rule(fx, params, P_MELDS_PER_TURN) == MELDS_ONE_OR_LAYOFF:
        return st[R_SC, C_MELDS_TURN] == 0
    return True


@kernel
def has_opened(fx, params, st, seat):
    """Has ``seat`` made his initial meld this hand (§2D.24)? Always, without a threshold."""
    if rule(fx, params, P_INITIAL_MELD_MIN) == 0:
        return True
    return st[R_SEAT + seat, S_OPENED] == 1


@kernel
def opening_terms(fx, params, st, seat):
    """The conditions on ``seat``'s next arrangement, as ``melds.best_arrangement``'s
    (``minimum``, ``must``): before his initial meld, what this turn's melds must still
    count (§2D.24) and, under ``only_for_initial_meld``, the card he took from the discard
    pile for it and has not melded yet (§2D.25); after it, none."""
    if has_opened(fx, params, st, seat):
        return np.int64(0), np.int64(-1)
    minimum = rule(fx, params, P_INITIAL_MELD_MIN) - st[R_SC, C_OPEN_TURN]
    must = np.int64(-1)
    if st[R_SC, C_TOOK_UNOPENED] == 1:  # only_for_initial_meld, taken by choice
        must = st[R_SC, C_TAKEN]
    return minimum, must


@kernel
def may_lay_off_on_others(fx, params, st, seat):
    """May ``seat`` lay off on other players' melds (§2D.20-21)? Not before his initial
    meld (§2D.21: games with an initial-meld minimum forbid every lay-off before it; he has
    no melds of his own then)."""
    if rule(fx, params, P_LAYOFF_TARGET) == LAYOFF_OWN_ONLY:
        return False
    if not has_opened(fx, params, st, seat):
        return False
    needs = rule(fx, params, P_LAYOFF_REQUIRES_MELD)
    if needs == LREQ_AFTER_FIRST_MELD:
        return st[R_SEAT + seat, S_MELDED] == 1
    if needs == LREQ_AFTER_OWN_LAYOFF:
        return st[R_SEAT + seat, S_LAID_OWN] == 1
    return True


@kernel
def layoff_targets(fx, params, st, seat):
    """The natural kinds ``seat`` may lay off somewhere now, as a mask."""
    if not may_lay_off_now(fx, params, st):
        return np.int64(0)
    if may_lay_off_on_others(fx, params, st, seat):
        return st[R_SC, C_FITS]
    return st[R_SEAT + seat, S_FITS_OWN]


@kernel
def first_meld_taking(fx, params, st, seat, kind):
    """The first table meld ``seat`` may lay ``kind`` off on, or -1."""
    others = may_lay_off_on_others(fx, params, st, seat)
    bit = np.int64(1) << kind
    for m in range(st[R_SC, C_N_MELDS]):
        row = R_MELD + m
        if st[row, M_FITS] & bit != 0 and (others or st[row, M_OWNER] == seat):
            return m
    return -1


@kernel
def _spend_taken(st, played):
    """Playing the card taken from the discard pile (or, with several packs, a copy of it)
    to the table spends the rule that it may not be discarded this turn (§1.5); under
    ``top_plus_one`` each of the two taken cards (§3.7 open point 3), one copy a call when
    both are one kind."""
    taken = st[R_SC, C_TAKEN]
    if 0 <= taken < JOKER and (played >> taken) & 1 == 1:
        st[R_SC, C_TAKEN] = -1
        if st[R_SC, C_TAKEN2] == taken:
            return
    taken2 = st[R_SC, C_TAKEN2]
    if 0 <= taken2 < JOKER and (played >> taken2) & 1 == 1:
        st[R_SC, C_TAKEN2] = -1


@kernel
def _pay_jokers(st, played):
    """``played`` jokers went to the table: they pay back the jokers taken back this turn
    under ``reuse_same_turn`` first (jokers are identical)."""
    st[R_SC, C_JOKERS_OWED] = max(np.int64(0), st[R_SC, C_JOKERS_OWED] - played)


@kernel
def _spend_taken_joker(st):
    """A joker played to the table when a card taken from the discard pile was a joker
    (jokers are identical: he may say it was the taken one, §1.5)."""
    if st[R_SC, C_TAKEN] == JOKER:
        st[R_SC, C_TAKEN] = -1
    elif st[R_SC, C_TAKEN2] == JOKER:
        st[R_SC, C_TAKEN2] = -1


@kernel
def _count_opening(fx, params, st, seat, opening, taken):
    """A meld worth ``opening`` (``melds.CA_OPEN``) went down, and ``taken`` was the card
    taken from the discard pile this turn before it (-1: none, or played already): under
    ``initial_meld_min`` it counts toward ``seat``'s initial meld until that is made
    (§2D.24), which is when this turn's melds count enough and, under
    ``only_for_initial_meld``, hold the discard he took for it (§2D.25)."""
    if rule(fx, params, P_INITIAL_MELD_MIN) == 0:
        return
    if taken >= 0 and st[R_SC, C_TAKEN] != taken:  # this meld played it
        st[R_SC, C_TAKEN_MELDED] = 1
    if st[R_SEAT + seat, S_OPENED] == 1:
        return
    st[R_SC, C_OPEN_TURN] += opening
    pending = st[R_SC, C_TOOK_UNOPENED] == 1 and st[R_SC, C_TAKEN_MELDED] == 0
    if st[R_SC, C_OPEN_TURN] >= rule(fx, params, P_INITIAL_MELD_MIN) and not pending:
        st[R_SEAT + seat, S_OPENED] = 1


MELD_WAIT_TURNS = 3  # tonk_wait: turns a player who laid down a meld waits (§3.22)


@kernel
def charge_wait(fx, params, st, owner):
    """``tonk_wait`` (§3.22): a lay-off on ``owner``'s meld makes him wait ``tonk_wait`` more
    turns, once a turn however many cards go on his melds (open point 5)."""
    bit = np.int64(1) << owner
    if st[R_SC, C_WAIT_CHARGED] & bit == 0:
        st[R_SC, C_WAIT_CHARGED] |= bit
        st[R_SEAT + owner, S_WAIT] += rule(fx, params, P_TONK_WAIT)


@kernel
def start_waiting(fx, params, st, seat):
    """At the start of ``seat``'s turn under ``tonk_wait``: if he has turns to wait, this is
    one of them (``C_WAITING``: he may lay off and go out, but lay down no meld)."""
    if rule(fx, params, P_TONK_WAIT) > 0 and st[R_SEAT + seat, S_WAIT] > 0:
        st[R_SEAT + seat, S_WAIT] -= 1
        st[R_SC, C_WAITING] = 1


@kernel
def lay_down(fx, params, st, events, seat, work, cand):
    """``seat`` lays down the meld of workspace row ``cand`` (a ``sim.engine.melds``
    candidate) from his hand; returns its table index."""
    m = st[R_SC, C_N_MELDS]
    row = R_MELD + m
    st[row, M_TYPE] = work[cand, CA_TYPE]
    st[row, M_OWNER] = seat
    st[row, M_LO] = work[cand, CA_LO]
    st[row, M_LEN] = work[cand, CA_LEN]
    st[row, M_SUIT] = work[cand, CA_SUIT]
    st[row, M_JOKERS] = work[cand, CA_JOKERS]
    st[row, M_SHAPE] = work[cand, CA_SHAPE]
    hand = R_SEAT + seat
    n_layers = rule(fx, params, P_PACKS)
    event = log_event(st, events, np.int64(E_MELD), seat, m, np.int64(0))
    for l in range(MAX_LAYERS):
        cards = work[cand, CA_TAKE + l]
        st[row, M_CARDS + l] = cards
        if cards != 0:
            remove_one_each(st[hand, S_HAND : S_HAND + MAX_LAYERS], n_layers, cards)
            st[hand, S_N] -= popcount(cards)
            while event >= 0 and cards != 0:
                log_card(events, event, lowest_bit(cards))
                cards &= cards - 1
    taken = st[R_SC, C_TAKEN]
    _spend_taken(st, st[row, M_CARDS])
    st[row, M_DECLARED] = 0
    st[row, M_SLID] = 0
    st[row, M_WILD] = 0
    if work[cand, CA_JOKERS] > 0:
        _spend_taken_joker(st)
    _count_opening(fx, params, st, seat, work[cand, CA_OPEN], taken)
    st[hand, S_JOKERS] -= work[cand, CA_JOKERS]
    _pay_jokers(st, work[cand, CA_JOKERS])
    st[hand, S_N] -= work[cand, CA_JOKERS]
    for _ in range(work[cand, CA_JOKERS]):
        log_card(events, event, np.int64(JOKER))
    st[hand, S_MELDED] = 1
    if rule(fx, params, P_TONK_WAIT) > 0:  # §3.22: no other meld in his next 3 turns
        st[hand, S_WAIT] += MELD_WAIT_TURNS
    st[R_SC, C_N_MELDS] = m + 1
    st[R_SC, C_MELDS_TURN] += 1
    st[R_SC, C_MELDS] += 1
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)
    return m


@kernel
def mark_wild(st, events, m, wild):
    """Table meld ``m``, just laid down, holds 2s standing as wild cards (``wild``, as
    ``M_WILD``; deuces_wild, §2B.14): record them on its row, and on its ``E_MELD`` (the log's
    last event) as ``b``, so that the replay can show them."""
    st[R_MELD + m, M_WILD] = wild
    i = st[R_SC, C_N_EVENTS] - 1
    if st[R_SC, C_LOG] != 0 and i >= 0 and events[i, EV_TYPE] == E_MELD and events[i, EV_A] == m:
        events[i, EV_B] = wild


@kernel
def _hand_to_meld(st, hand, row, n_layers, kind):
    """Move one natural ``kind`` from the hand row ``hand`` into the natural cards of meld
    row ``row`` (its first free layer); returns the kind's bit. Counts and shapes are the
    caller's."""
    bit = np.int64(1) << kind
    remove_one_each(st[hand, S_HAND : S_HAND + MAX_LAYERS], n_layers, bit)
    for l in range(n_layers):
        if st[row, M_CARDS + l] & bit == 0:
            st[row, M_CARDS + l] |= bit
            break
    return bit


@kernel
def lay_off(fx, params, st, events, seat, m, kind):
    """``seat`` lays natural ``kind`` (held) off on table meld ``m`` (it must fit)."""
    row = R_MELD + m
    hand = R_SEAT + seat
    n_layers = rule(fx, params, P_PACKS)
    bit = _hand_to_meld(st, hand, row, n_layers, kind)
    st[hand, S_N] -= 1
    suit = kind % N_SUITS
    event = np.int64(E_LAYOFF)
    if st[row, M_TYPE] == MELD_GROUP:
        st[row, M_SHAPE] += np.int64(1) << (4 * suit)
    elif rule(fx, params, P_JOKER_SLIDE) == 1 and slide_kinds(fx, params, st, m) & bit != 0:
        slide(fx, params, st, m, kind)
        event = np.int64(E_SLIDE)
    else:
        ace_rank = run_layout(fx, params)
        lo = st[row, M_LO]
        length = st[row, M_LEN]
        # the position before the first one (around the corner it wraps); a card that
        # fits both ends goes before the first position
        before = lo - 1
        if ace_rank == ACE_AROUND_CORNER and lo == 0:
            before = n_positions(ace_rank) - 1
        if before >= 0 and rank_at(before, ace_rank) == kind // N_SUITS:
            st[row, M_LO] = before
            st[row, M_SHAPE] = (st[row, M_SHAPE] << 3) | suit
        else:
            st[row, M_SHAPE] |= suit << (3 * length)
    st[row, M_LEN] += 1
    if rule(fx, params, P_TONK_WAIT) > 0:
        charge_wait(fx, params, st, st[row, M_OWNER])
    if st[row, M_OWNER] == seat:
        st[hand, S_LAID_OWN] = 1
    st[R_SC, C_LAYOFFS_TURN] += 1
    st[R_SC, C_LAYOFFS] += 1
    _spend_taken(st, bit)
    log_event(st, events, event, seat, m, kind)
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)


# ---- jokers on the table (§2B.11, §2B.12; module docstring) ----------------------------------


@kernel
def _position_bit(ace_rank, pos):
    """The ``M_SLID`` bit of run position ``pos`` (around the corner positions wrap)."""
    return np.int64(1) << (pos % n_positions(ace_rank))


@kernel
def _end_joker_slides(fx, params, st, row, i):
    """May the joker at run position ``M_LO + i`` of meld ``row`` (its first or last) slide:
    is it a joker, has it not slid yet (once, unless ``joker_slide_repeat``), and is there
    a free position at the other end?"""
    shape = st[row, M_SHAPE]
    if (shape >> (3 * i)) & 0x7 != JOKER_DIGIT:
        return False
    ace_rank = run_layout(fx, params)
    lo = st[row, M_LO]
    if (
        rule(fx, params, P_JOKER_SLIDE_REPEAT) == 0
        and st[row, M_SLID] & _position_bit(ace_rank, lo + i) != 0
    ):
        return False
    if ace_rank == ACE_AROUND_CORNER:
        return True  # the caller checked that the run has a free position
    if i == 0:
        return lo + st[row, M_LEN] < n_positions(ace_rank)
    return lo > 0


@gated(P_JOKER_SLIDE, lambda v: v != 0, np.int64(0))
@kernel
def slide_kinds(fx, params, st, m):
    """The natural kinds that could be laid off on run ``m`` in the place of its first or
    last joker, that joker sliding to the other end (``joker_slide``, RULES.md §2B.13;
    interior jokers never move), as a mask. Runs of one suit only (the rules model refuses
    the slide with ``run_suit = any_suit``), so a joker's position fixes its card."""
    row = R_MELD + m
    length = st[row, M_LEN]
    if st[row, M_TYPE] == MELD_GROUP or st[row, M_JOKERS] == 0 or length >= run_cap(fx, params):
        return np.int64(0)
    ace_rank = run_layout(fx, params)
    lo = st[row, M_LO]
    suit = st[row, M_SUIT]
    out = np.int64(0)
    if _end_joker_slides(fx, params, st, row, np.int64(0)):
        out |= np.int64(1) << (rank_at(lo, ace_rank) * N_SUITS + suit)
    if _end_joker_slides(fx, params, st, row, length - 1):
        out |= np.int64(1) << (rank_at(lo + length - 1, ace_rank) * N_SUITS + suit)
    return out


@gated(P_JOKER_SLIDE, lambda v: v != 0, None)
@kernel
def slide(fx, params, st, m, kind):
    """Natural ``kind`` (one of ``slide_kinds``; already among the meld's cards) takes the
    position of the end joker of run ``m`` that stands for it, and the joker moves to the
    position beyond the run's other end (RULES.md §2B.13); its ``M_SLID`` bit moves with it.
    The caller counts the length."""
    row = R_MELD + m
    ace_rank = run_layout(fx, params)
    lo = st[row, M_LO]
    length = st[row, M_LEN]
    suit = kind % N_SUITS
    shape = st[row, M_SHAPE]
    # the first position's joker when it stands for ``kind`` (the last one's rank differs)
    if (shape & 0x7) == JOKER_DIGIT and rank_at(lo, ace_rank) == kind // N_SUITS:
        st[row, M_SLID] &= ~_position_bit(ace_rank, lo)
        shape = (shape & ~np.int64(0x7)) | suit
        st[row, M_SHAPE] = shape | (np.int64(JOKER_DIGIT) << (3 * length))
        st[row, M_SLID] |= _position_bit(ace_rank, lo + length)
        return
    last = 3 * (length - 1)
    st[row, M_SLID] &= ~_position_bit(ace_rank, lo + length - 1)
    shape = (shape & ~(np.int64(0x7) << last)) | (np.int64(suit) << last)
    before = lo - 1
    if before < 0:
        before = n_positions(ace_rank) - 1  # around the corner (the only case with lo 0)
    st[row, M_LO] = before
    st[row, M_SHAPE] = (shape << 3) | JOKER_DIGIT
    st[row, M_SLID] |= _position_bit(ace_rank, before)


@kernel
def meld_naturals(st, row):
    """The natural kinds of table meld ``row`` (one bit each, whatever the copies)."""
    out = np.int64(0)
    for l in range(MAX_LAYERS):
        out |= st[row, M_CARDS + l]
    return out


@kernel
def _rank_field(rank):
    return np.int64(0xF) << (rank * N_SUITS)


@kernel
def takes_joker(fx, params, st, m):
    """Could a joker be laid off on table meld ``m``? Not where it would hold more jokers
    than natural cards (``joker_limit``, §2B.10)."""
    row = R_MELD + m
    length = st[row, M_LEN]
    if (
        rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS
        and 2 * (st[row, M_JOKERS] + 1) > length + 1
    ):
        return False
    if st[row, M_TYPE] == MELD_GROUP:
        return rule(fx, params, P_GROUP_DUPLICATES) == GROUP_DUPLICATES_ALLOWED or length < N_SUITS
    if length >= run_cap(fx, params):
        return False
    ace_rank = run_layout(fx, params)
    if ace_rank == ACE_AROUND_CORNER:
        return True
    return st[row, M_LO] > 0 or st[row, M_LO] + length < n_positions(ace_rank)


@kernel
def may_lay_off_on(fx, params, st, seat, m):
    """May ``seat`` lay off on table meld ``m`` now (§2D.19-21)?"""
    if not may_lay_off_now(fx, params, st):
        return False
    return st[R_MELD + m, M_OWNER] == seat or may_lay_off_on_others(fx, params, st, seat)


@kernel
def first_meld_taking_joker(fx, params, st, seat):
    """The first table meld ``seat`` may lay a joker off on now, or -1."""
    if not may_lay_off_now(fx, params, st):
        return -1
    others = may_lay_off_on_others(fx, params, st, seat)
    for m in range(st[R_SC, C_N_MELDS]):
        if (others or st[R_MELD + m, M_OWNER] == seat) and takes_joker(fx, params, st, m):
            return m
    return -1


@gated(P_JOKERS, lambda v: v != 0, None)
@kernel
def lay_off_joker(fx, params, st, events, seat, m):
    """``seat`` lays a joker (held) off on table meld ``m`` (``takes_joker``): on a run
    above its last position when there is one, else below its first."""
    row = R_MELD + m
    hand = R_SEAT + seat
    st[hand, S_JOKERS] -= 1
    st[hand, S_N] -= 1
    length = st[row, M_LEN]
    if st[row, M_TYPE] != MELD_GROUP:
        ace_rank = run_layout(fx, params)
        lo = st[row, M_LO]
        if ace_rank == ACE_AROUND_CORNER or lo + length < n_positions(ace_rank):
            st[row, M_SHAPE] |= np.int64(JOKER_DIGIT) << (3 * length)
        else:
            st[row, M_LO] = lo - 1
            st[row, M_SHAPE] = (st[row, M_SHAPE] << 3) | JOKER_DIGIT
    st[row, M_JOKERS] += 1
    st[row, M_LEN] = length + 1
    if st[row, M_OWNER] == seat:
        st[hand, S_LAID_OWN] = 1
    st[R_SC, C_LAYOFFS_TURN] += 1
    st[R_SC, C_LAYOFFS] += 1
    _spend_taken_joker(st)
    _pay_jokers(st, np.int64(1))
    log_event(st, events, np.int64(E_LAYOFF), seat, m, np.int64(JOKER))
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)


@kernel
def declaration_options(fx, params, st, m):
    """The natural kinds the next undeclared joker of table meld ``m`` may be declared as,
    when ``joker_declare`` asks for one now (module docstring), as a mask; 0: none is to be
    declared."""
    rule_ = rule(fx, params, P_JOKER_DECLARE)
    row = R_MELD + m
    if rule_ == JDECLARE_INFERRED or st[row, M_JOKERS] == 0:
        return np.int64(0)
    declared = st[row, M_DECLARED]
    if st[row, M_TYPE] != MELD_GROUP:
        if rule_ != JDECLARE_ALWAYS or rule(fx, params, P_RUN_SUIT) != RUN_ANY_SUIT:
            return np.int64(0)  # a run of one suit: the position fixes the card
        ace_rank = run_layout(fx, params)
        shape = st[row, M_SHAPE]
        for i in range(st[row, M_LEN]):
            if (shape >> (3 * i)) & 0x7 == JOKER_DIGIT:
                field = _rank_field(rank_at(st[row, M_LO] + i, ace_rank))
                if declared & field == 0:
                    return field
        return np.int64(0)
    if rule_ == JDECLARE_THREE_CARD_GROUP and st[row, M_LEN] != 3:
        return np.int64(0)
    if popcount(declared) >= st[row, M_JOKERS]:
        return np.int64(0)
    options = _rank_field(st[row, M_LO]) & ~declared
    if rule(fx, params, P_GROUP_DUPLICATES) != GROUP_DUPLICATES_ALLOWED:
        options &= ~meld_naturals(st, row)
    return options


@kernel
def declare(fx, params, st, events, seat, m, kind):
    """``seat`` declares a joker of table meld ``m`` as natural ``kind`` (one of
    ``declaration_options``)."""
    row = R_MELD + m
    st[row, M_DECLARED] |= np.int64(1) << kind
    log_event(st, events, np.int64(E_DECLARE), seat, m, kind)
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)


@kernel
def may_steal(fx, params, st):
    """May a table joker be replaced by its natural card now (§2B.12)? Under
    ``steal_by_replacement`` in the table phase; under ``to_hand`` (Caloochi) only after
    drawing and before melding or laying off this turn; under ``reuse_same_turn`` (German)
    once the player whose turn it is has made his initial meld, the joker then owed to the
    table this turn (``C_JOKERS_OWED``). (Never without jokers: a spec fixing ``jokers =
    0`` folds the replacements away.)"""
    if rule(fx, params, P_JOKERS) == 0:
        return False
    replace = rule(fx, params, P_JOKER_REPLACE)
    if replace == JREPLACE_TO_HAND:
        return st[R_SC, C_MELDS_TURN] == 0 and st[R_SC, C_LAYOFFS_TURN] == 0
    if replace == JREPLACE_REUSE:
        return has_opened(fx, params, st, st[R_SC, C_CURRENT])
    return replace == JREPLACE_STEAL


@kernel
def stands_for(fx, params, st, m):
    """The natural kinds the jokers of table meld ``m`` stand for, as far as it is fixed
    (module docstring), as a mask."""
    row = R_MELD + m
    if st[row, M_JOKERS] == 0:
        return np.int64(0)
    declared = st[row, M_DECLARED]
    if st[row, M_TYPE] != MELD_GROUP:
        if rule(fx, params, P_RUN_SUIT) == RUN_ANY_SUIT:
            return declared
        ace_rank = run_layout(fx, params)
        shape = st[row, M_SHAPE]
        suit = st[row, M_SUIT]
        out = np.int64(0)
        for i in range(st[row, M_LEN]):
            if (shape >> (3 * i)) & 0x7 == JOKER_DIGIT:
                out |= np.int64(1) << (rank_at(st[row, M_LO] + i, ace_rank) * N_SUITS + suit)
        return out
    out = declared
    if (
        rule(fx, params, P_GROUP_DUPLICATES) != GROUP_DUPLICATES_ALLOWED
        and st[row, M_LEN] == N_SUITS
    ):
        missing = _rank_field(st[row, M_LO]) & ~meld_naturals(st, row) & ~declared
        if popcount(missing) == 1:
            out |= missing
    return out


@kernel
def replacement_usable(fx, params, st, seat, kind):
    """May a bot replace a table joker by its natural ``kind`` now? Under
    ``reuse_same_turn`` (German, §2B.12): could ``seat`` replace a table joker by
    his natural ``kind`` now and still play the joker back to the table this turn, as the
    rule requires (a meld he may lay it off on takes it, and the turn can still end without
    ``kind``)? Always under the other replacement rules. Never with the kind of a discard
    taken for the initial meld until it is made (§2D.25: that card goes into it)."""
    if st[R_SC, C_TOOK_UNOPENED] == 1 and kind == st[R_SC, C_TAKEN]:
        return False
    if rule(fx, params, P_JOKER_REPLACE) != JREPLACE_REUSE:
        return True
    return first_meld_taking_joker(fx, params, st, seat) >= 0 and stays_finishable(
        fx, params, st, seat, kind
    )


@gated(P_JOKERS, lambda v: v != 0, None)
@kernel
def steal(fx, params, st, events, seat, m, kind):
    """``seat`` puts natural ``kind`` (held; one of ``stands_for``) in the place of the
    joker of table meld ``m`` that stands for it and takes the joker into his hand."""
    row = R_MELD + m
    hand = R_SEAT + seat
    if rule(fx, params, P_AUDIT) == 1 and not may_steal(fx, params, st):
        st[R_SC, C_VIOLATIONS] += 1  # a replacement the rules do not allow now (§2B.12)
    n_layers = rule(fx, params, P_PACKS)
    bit = _hand_to_meld(st, hand, row, n_layers, kind)
    st[hand, S_JOKERS] += 1  # the joker comes back: the card count is unchanged
    suit = kind % N_SUITS
    if st[row, M_TYPE] == MELD_GROUP:
        st[row, M_SHAPE] += np.int64(1) << (4 * suit)
    else:
        ace_rank = run_layout(fx, params)
        shape = st[row, M_SHAPE]
        for i in range(st[row, M_LEN]):
            if (shape >> (3 * i)) & 0x7 == JOKER_DIGIT and rank_at(
                st[row, M_LO] + i, ace_rank
            ) == kind // N_SUITS:
                shape &= ~(np.int64(0x7) << (3 * i))
                shape |= np.int64(suit) << (3 * i)
                st[row, M_SLID] &= ~_position_bit(ace_rank, st[row, M_LO] + i)
                break
        st[row, M_SHAPE] = shape
    st[row, M_JOKERS] -= 1
    st[row, M_DECLARED] &= ~bit
    st[R_SC, C_STEALS_TURN] += 1
    if rule(fx, params, P_JOKER_REPLACE) == JREPLACE_REUSE:
        st[R_SC, C_JOKERS_OWED] += 1  # it goes back to the table this turn
    _spend_taken(st, bit)
    log_event(st, events, np.int64(E_STEAL), seat, m, kind)
    st[row, M_FITS] = meld_fits(fx, params, st, m)
    refresh_fits(fx, params, st)
