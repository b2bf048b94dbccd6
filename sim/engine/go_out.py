"""Going out by knocking (mechanic KN of RULES.md §4C; §2I.32, §3.10, §3.17, §3.20) or all
at once (mechanic CG; §2D.18, §3.4, §3.7, §3.12): may this player end the hand now?

Rule slots read here: ``meld_timing``, ``knock_limit``, ``must_discard_to_go_out``,
``go_out_pattern`` (and through ``layoffs.py``, ``legal.py``, ``patterns.py`` and
``table.py`` the card and table rules they read).

Under ``meld_timing = "knock"`` no meld reaches the table during play; after his draw a
player discards and may knock when the deadwood he keeps after the discard (the best
arrangement of his hand, ``layoffs.seat_arrangement``) is within the hand's knock limit:
``unlimited`` (any count), 10, 5, or ``upcard`` (Oklahoma: the upcard's value, 10 for a
ten or a picture, 2-9 their pips, an ace gin only).

Under ``meld_timing = "all_at_once"`` (mechanic CG, §2D.18, §3.4, §3.7, §3.12;
``concealed``) nothing reaches the table during play either; after his draw a player may go
out by laying his whole hand down in melds, or all of it but one card, which he then
discards (with ``must_discard_to_go_out`` only the latter, §2E.26; never the card taken
from the discard pile this turn, §1.5). ``out_discard`` says whether and how he can
(exactly, whatever his bot would see); ``go_out`` lays the whole arrangement on the table
through ``table.lay_down`` (each meld an ``E_MELD``), after which the loop's discard and its
``went_out`` ending follow. There are no lay-offs. The knock limit the bots' knock-family
answers read (``knock_limit``) is 0 there: the go-out condition is no deadwood.

Under a fixed pattern (``go_out_pattern``, mechanic PT; Nowrang §3.15: exactly a run of 4
and two runs of 3, each of one suit, groups not counting) "melds wholly" means "is exactly
the pattern" (``patterns.fit_pattern``): ``pattern_out`` answers as ``whole_hand_out`` does,
and ``go_out`` lays down the pattern's runs. Under Continental's pattern set (§3.11: 15
cards as runs of 5+4+3+3, 4+4+4+3 or 3+3+3+3+3, jokers wild, several packs) the test is
``patterns.wild_fit``, which also chooses the discard (``wild_out``); a player whose dealt
cards fit goes out at the start of his first turn, before drawing (``quick_out``).
"""

from __future__ import annotations

import numpy as np

from sim.cards import N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.jit import kernel
from sim.engine.layoffs import arrange_apart, meldable_mask, seat_arrangement
from sim.engine.layout import (
    KNOCK_UNLIMITED,
    KNOCK_UPCARD,
    P_GO_OUT_PATTERN,
    P_KNOCK_LIMIT,
    P_MELD_TIMING,
    P_MUST_DISCARD_TO_GO_OUT,
    P_PACKS,
    TIMING_ALL_AT_ONCE,
    TIMING_KNOCK,
)
from sim.engine.legal import allowed_naturals, discard_allowed
from sim.engine.melds import MAX_LAYERS, S_BEST_N, W_BEST, W_SCAL, run_layout
from sim.engine.patterns import (
    CA_DEUCES,
    DEUCES,
    FIT_NONE,
    FIT_WHOLE,
    continental_pattern,
    cover,
    deuces_wild,
    fit_pattern,
    fixed_pattern,
    pattern_lengths,
    pattern_size,
    patterned,
    wild_fit,
    wild_pattern,
)
from sim.engine.specs import gated, rule
from sim.engine.state import C_UPCARD, R_SC, R_SEAT, S_DRAWS, S_HAND, S_JOKERS
from sim.engine.table import lay_down, mark_wild

NO_LIMIT = -1  # knock_limit = unlimited: any deadwood may knock
BOT_OWN_LIMIT = 10  # the bots' own limit where the rules set none (docs/bots.md)
OUT_NONE = -2  # all_at_once: he cannot go out now
OUT_WHOLE = -1  # all_at_once: he goes out by laying his whole hand down (no discard)


@kernel
def knocking(fx, params):
    """Do players knock rather than meld during play (``meld_timing = "knock"``)?"""
    return rule(fx, params, P_MELD_TIMING) == TIMING_KNOCK


@kernel
def concealed(fx, params):
    """Is nothing laid down until a player goes out with his whole hand
    (``meld_timing = "all_at_once"``, §2D.18)?"""
    return rule(fx, params, P_MELD_TIMING) == TIMING_ALL_AT_ONCE


@kernel
def upcard_limit(card):
    """§2I.32 ``upcard``: the limit an upcard sets (an ace: 0, gin only)."""
    rank = card // N_SUITS
    if rank == 0:
        return 0
    return min(rank + 1, 10)


@kernel
def knock_limit(fx, params, st):
    """This hand's knock limit, or ``NO_LIMIT`` (all_at_once: 0, out with no deadwood)."""
    if concealed(fx, params):
        return 0
    limit = rule(fx, params, P_KNOCK_LIMIT)
    if limit == KNOCK_UNLIMITED:
        return NO_LIMIT
    if limit == KNOCK_UPCARD:
        up = st[R_SC, C_UPCARD]
        return upcard_limit(up) if up >= 0 else 10
    return limit


@kernel
def bot_limit(fx, params, st):
    """The most deadwood the simple and greedy bots knock with: the hand's limit, or 10
    where the rules set none."""
    limit = knock_limit(fx, params, st)
    return BOT_OWN_LIMIT if limit == NO_LIMIT else limit


@kernel
def within_limit(fx, params, st, deadwood):
    """May a player keeping ``deadwood`` after his discard knock?"""
    limit = knock_limit(fx, params, st)
    return limit == NO_LIMIT or deadwood <= limit


@kernel
def may_knock(fx, params, values, st, work, seat):
    """May ``seat``, his discard made, knock now? Returns (allowed, his deadwood)."""
    hand = st[R_SEAT + seat, S_HAND]
    deadwood, _ = seat_arrangement(
        fx, params, values, st, work, seat, hand, np.bool_(True), np.int64(0)
    )
    return within_limit(fx, params, st, deadwood), deadwood


@gated(P_MELD_TIMING, lambda v: v == TIMING_ALL_AT_ONCE, np.int64(OUT_NONE))
@kernel
def out_discard(fx, params, values, st, work, seat):
    """How ``seat``, his draw made, may go out under all_at_once (module docstring):
    ``whole_hand_out`` with the cards he may discard, going out without a discard allowed
    unless ``must_discard_to_go_out``."""
    whole = rule(fx, params, P_MUST_DISCARD_TO_GO_OUT) == 0
    if wild_pattern(fx, params):
        return wild_out(fx, params, values, st, work, seat, allowed_naturals(st, seat))
    if patterned(fx, params):
        return pattern_out(fx, params, values, st, work, seat, allowed_naturals(st, seat), whole)
    return whole_hand_out(
        fx, params, values, st, work, seat, allowed_naturals(st, seat), np.int64(0), whole
    )


@gated(P_GO_OUT_PATTERN, fixed_pattern, np.int64(OUT_NONE))
@kernel
def pattern_out(fx, params, values, st, work, seat, allowed, whole):
    """How ``seat``'s hand goes out under a fixed pattern (``go_out_pattern``, §3.15): as
    ``whole_hand_out``, with "melds wholly" read as "is exactly the pattern"
    (``patterns.fit_pattern``): ``OUT_WHOLE``, else the lowest-valued card of ``allowed``
    whose removal leaves the pattern (ties: the higher kind), else ``OUT_NONE``."""
    hand = st[R_SEAT + seat, S_HAND]
    lengths = pattern_lengths(fx, params)
    layout = run_layout(fx, params)
    size, _ = cover(work, hand, lengths, layout)
    if size < pattern_size(lengths)[1]:  # no card's discard leaves the pattern
        return OUT_NONE
    if whole and fit_pattern(values, work, hand, layout, lengths, np.bool_(False)) > 0:
        return OUT_WHOLE
    best = OUT_NONE
    m = allowed & hand
    while m != 0:  # lowest kind first: "<=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        if best >= 0 and values[k] > values[best]:
            continue
        rest = hand & ~(np.int64(1) << k)
        if fit_pattern(values, work, rest, layout, lengths, np.bool_(False)) > 0:
            best = k
    return best


@gated(P_GO_OUT_PATTERN, continental_pattern, np.int64(OUT_NONE))
@kernel
def wild_out(fx, params, values, st, work, seat, allowed):
    """How ``seat``'s hand goes out under a pattern with wild cards (Continental §3.11,
    ``patterns.wild_fit``): the discard the search sets aside (a card of ``allowed``),
    ``OUT_WHOLE`` when the hand fits as it is, else ``OUT_NONE``. With ``deuces_wild`` a
    discard other than a 2 is preferred when one fits (a 2 kept may be paid for as wild,
    §2B.14)."""
    out = fit_hand(fx, params, values, st, work, seat, allowed, np.bool_(False))
    if out == FIT_NONE:
        return OUT_NONE
    if out == FIT_WHOLE:
        return OUT_WHOLE
    others = allowed & ~DEUCES
    if deuces_wild(fx, params) and (np.int64(1) << out) & DEUCES != 0 and others != 0:
        other = fit_hand(fx, params, values, st, work, seat, others, np.bool_(False))
        if other >= 0:
            return other
    return out


@kernel
def fit_hand(fx, params, values, st, work, seat, allowed, write):
    """``patterns.wild_fit`` of ``seat``'s hand under the rules' pattern set."""
    hand = R_SEAT + seat
    return wild_fit(
        values, work, st[hand, S_HAND : S_HAND + MAX_LAYERS], rule(fx, params, P_PACKS),
        st[hand, S_JOKERS], run_layout(fx, params), pattern_lengths(fx, params),
        deuces_wild(fx, params), allowed, write,
    )  # fmt: skip


@gated(P_GO_OUT_PATTERN, continental_pattern, np.bool_(False))
@kernel
def quick_out(fx, params, values, st, work, events, seat):
    """Continental (§3.11): ``seat``, before drawing in his first turn, goes out when his
    dealt cards already fit the pattern (every bot does; allowed with or without the quick
    bonus, §2J.40); lays the runs down and returns True, else False."""
    if not wild_pattern(fx, params) or st[R_SEAT + seat, S_DRAWS] != 0:
        return False
    if fit_hand(fx, params, values, st, work, seat, np.int64(0), np.bool_(True)) != FIT_WHOLE:
        return False
    lay_arrangement(fx, params, st, work, events, seat, np.bool_(True))
    return True


@kernel
def whole_hand_out(fx, params, values, st, work, seat, allowed, apart, whole):
    """How ``seat``'s hand goes out all at once (all_at_once's go-out; Phỏm's Ù, §3.13):
    ``OUT_WHOLE`` when it melds wholly and ``whole`` allows going out without a discard; else
    the card of ``allowed`` to discard whose removal leaves a hand that melds wholly, the
    lowest-valued one (the most value in melds, Queen City's score; ties: the higher kind);
    else ``OUT_NONE``. The cards of ``apart`` (0: none; Phỏm's taken cards) must each be in
    a meld of their own. Exact: a hand less one card melds wholly only if every other card
    is in some meld of the hand, and only if the card is worth at least the hand's least
    deadwood, so few searches are made."""
    hand = st[R_SEAT + seat, S_HAND]
    loose = hand & ~meldable_mask(fx, params, work, hand)
    if popcount(loose) > 1:
        return OUT_NONE
    dw, _ = seat_arrangement(fx, params, values, st, work, seat, hand, np.bool_(True), apart)
    if loose != 0:  # the one card in no meld: the others must meld wholly
        c = lowest_bit(loose)
        return c if loose & allowed != 0 and dw == values[c] else OUT_NONE
    if dw == 0 and whole:
        return OUT_WHOLE
    best = OUT_NONE
    m = allowed
    while m != 0:  # lowest kind first: "<=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        if values[k] < dw or (best >= 0 and values[k] > values[best]):
            continue
        left, _ = arrange_apart(fx, params, values, work, hand & ~(np.int64(1) << k), apart)
        if left == 0:
            best = k
    return best


@gated(P_MELD_TIMING, lambda v: v == TIMING_ALL_AT_ONCE, np.bool_(False))
@kernel
def go_out(fx, params, values, st, work, events, seat, card):
    """``seat`` goes out under all_at_once: lays down the best arrangement of his hand less
    ``card`` (``OUT_WHOLE``: none; ``card`` is then his discard). Returns whether that was
    legal: the rest melds wholly, ``card`` may be discarded, and without a discard going
    out so is allowed; an illegal go-out lays nothing down (the caller counts a
    violation)."""
    hand = st[R_SEAT + seat, S_HAND]
    rest = hand
    if card >= 0:
        if not discard_allowed(fx, params, st, seat, card):
            return False
        rest = hand & ~(np.int64(1) << card)
    elif rule(fx, params, P_MUST_DISCARD_TO_GO_OUT) == 1:
        return False
    if patterned(fx, params):
        return lay_pattern(fx, params, values, st, work, events, seat, card, rest)
    return lay_whole(fx, params, values, st, work, events, seat, rest, np.int64(0))


@gated(P_GO_OUT_PATTERN, fixed_pattern, np.bool_(False))
@kernel
def lay_pattern(fx, params, values, st, work, events, seat, card, rest):
    """``go_out`` under a fixed pattern: ``seat`` lays down his hand less ``card`` (``rest``;
    ``OUT_WHOLE``: none) when it is the pattern; returns whether it was (else nothing is laid
    down)."""
    if wild_pattern(fx, params):  # §3.11: runs of one of the pattern's alternatives
        allowed = np.int64(1) << card if card >= 0 else np.int64(0)
        if fit_hand(fx, params, values, st, work, seat, allowed, np.bool_(True)) != (
            card if card >= 0 else FIT_WHOLE
        ):
            return False
        lay_arrangement(fx, params, st, work, events, seat, np.bool_(True))
        return True
    lengths = pattern_lengths(fx, params)  # §3.15: exactly the pattern's runs go down
    if fit_pattern(values, work, rest, run_layout(fx, params), lengths, np.bool_(True)) == 0:
        return False
    lay_arrangement(fx, params, st, work, events, seat, np.bool_(False))
    return True


@kernel
def lay_whole(fx, params, values, st, work, events, seat, rest, apart):
    """``seat`` lays ``rest`` (his hand, or his hand less his discard) down in melds, the
    cards of ``apart`` each in a meld of its own, when it melds wholly so; returns whether
    it did (else nothing is laid down)."""
    dw, _ = arrange_apart(fx, params, values, work, rest, apart)
    if dw != 0:
        return False
    lay_arrangement(fx, params, st, work, events, seat, np.bool_(False))
    return True


@kernel
def lay_arrangement(fx, params, st, work, events, seat, wild):
    """``seat`` lays down every meld of the arrangement in ``work`` rows ``W_BEST``...;
    ``wild``: the arrangement is a run set ``patterns.wild_fit`` wrote (Continental, §3.11),
    so each run's 2s standing as wild cards (``CA_DEUCES``; deuces_wild, §2B.14) are recorded
    on its table meld (``table.mark_wild``). Only ``wild_fit`` writes that column: the other
    searches leave it stale, hence the flag."""
    for m in range(work[W_SCAL, S_BEST_N]):
        at = lay_down(fx, params, st, events, seat, work, W_BEST + m)
        if wild and work[W_BEST + m, CA_DEUCES] != 0:
            mark_wild(st, events, at, work[W_BEST + m, CA_DEUCES])
