"""Audit mode: invariants checked when ``audit`` is 1 (violations are counted in
``C_VIOLATIONS``, never raised): after the deal, after every turn of progressive rummy, and
after a knock's showdown (knock-family turns are not checked one by one).

- every card of the shoe is in exactly one place: the hands, the table, the stock, the
  discard pile (the copies of each kind are added up as bit-sliced counters);
- every seat's card count matches its hand;
- every table meld holds at least 3 cards and at least one natural card, its natural cards
  and jokers agree with its shape (a group of one card per suit holds at most 4 cards, a
  run at most 13), and its ``M_FITS`` is what ``table.meld_fits`` says;
- every table meld's joker declarations fit its cards and ``joker_declare`` (RULES.md
  §2B.11, ``declarations_legal``);
- no table joker was replaced by its natural card unless ``joker_replace`` allows it
  (§2B.12); a run's slid jokers (``M_SLID``, §2B.13) stand on joker positions;
- at most one card borrowed a turn, and none unless ``borrowing`` allows it (§2D.22;
  ``borrow.borrow_meld`` counts a borrow the rules do not allow, or a new meld without
  the borrowed card; the meld left behind is checked with the table);
- Call Rummy (§3.2, ``sim.engine.calls``): a called card is laid off on a table meld it
  fits and the caller may lay off on (``call_fits``, before the lay-off; the meld is then
  checked with the table after the caller's discard), and after a chain of calls the turn
  is still the original discarder's and no call counted as a turn (``check_call_turns``:
  play goes on with the player after him, rule 5);
- after each turn of progressive rummy, the cards drawn that turn (RULES.md §1.5,
  §2C.16): exactly one, or under ``discard_draw = "top_plus_one"`` (§3.7) one from the
  stock or two (the discard top and a second card); none in the first turn of the 11/10
  opening (``deal.extra_card``: Nowrang, §3.15), nor in Continental's going out with the
  dealt cards (§3.11);
- a block's scores (``check_block_scores``, §2F.28): the players tied for the lowest total
  share the pot equally and it adds up (what they are paid is the pot less a remainder
  smaller than their number), every other player scores 0 (under penalty scoring: minus
  his own total), and the winner is the lowest player when he is alone.
- under ``meld_timing = "all_at_once"`` (§2D.18): every table meld belongs to a player
  whose hand is empty (nothing is laid down before a player goes out with his whole
  hand, nothing is laid off); under a fixed pattern (``go_out_pattern``, §3.15) the table,
  once someone went out, holds exactly the pattern's runs (``patterns.table_fits_pattern``);
  and the scores of a hand someone went out of
  (``check_out_scores``): only the winner scores; under ``pip_to_winner`` / ``per_card``
  the value of every card the others hold (``penalty``: each other loses his own),
  under ``own_melds_from_each`` (§3.12) the
  table's value times the other players, under ``unmelded_to_winner`` (§3.7) the
  others' recorded deadwood, each between 0 and the value of his hand; under
  ``continental`` (§3.11) the scores add up to 0 and every other player pays the winner
  the same, between 1 + 2 per table joker (+ 1 per wild 2, §2B.14) and that plus the §2J bonuses;
  a run's wild 2s (``M_WILD``) stand on wild places and are set apart from its natural
  places' cards.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_NATURAL, N_SUITS
from sim.engine.bitops import popcount
from sim.engine.deal import extra_card
from sim.engine.greedy import greedy_arrangement
from sim.engine.jit import kernel
from sim.engine.layout import (
    BORROW_OFF,
    FAMILY_RUMMY,
    GROUP_DUPLICATES_ALLOWED,
    JDECLARE_ALWAYS,
    JDECLARE_INFERRED,
    JDECLARE_THREE_CARD_GROUP,
    JLIMIT_NATURALS,
    JREPLACE_NONE,
    MELDS_ONE_OR_LAYOFF,
    MELDS_UNLIMITED,
    P_AUDIT,
    P_BORROWING,
    P_DEUCES_WILD,
    P_DISCARD_DRAW,
    P_FAMILY,
    P_GO_OUT_PATTERN,
    P_GROUP_DUPLICATES,
    P_INITIAL_MELD_MIN,
    P_JOKER_DECLARE,
    P_JOKER_LIMIT,
    P_JOKER_REPLACE,
    P_JOKERS,
    P_MELD_TIMING,
    P_MELDS_PER_TURN,
    P_PACKS,
    P_PLAYERS,
    P_RUN_SUIT,
    P_SCORING,
    P_STOCK_EXHAUSTION,
    P_TONK_MELD_AT_ONCE,
    P_TONK_ONE_LAYOFF,
    P_TONK_STOCK_CARD,
    P_TONK_WAIT,
    RUN_ANY_SUIT,
    SCORE_CONTINENTAL,
    SCORE_OWN_MELDS,
    SCORE_PENALTY,
    SCORE_UNMELDED,
    STOCK_BLOCK_TOTALS,
    TIMING_ALL_AT_ONCE,
    XD_TOP_PLUS_ONE,
)
from sim.engine.melds import (
    JOKER_DIGIT,
    MAX_LAYERS,
    MELD_GROUP,
    MELD_RUN,
    S_BEST_N,
    W_SCAL,
    n_positions,
    pack_kinds,
    rank_at,
    run_cap,
    run_layout,
)
from sim.engine.patterns import (
    DEUCE_RANK,
    fixed_pattern,
    pattern_lengths,
    patterned,
    table_fits_pattern,
    wild_deuces,
    wild_pattern,
)
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_BORROWS_TURN,
    C_CALL_TURN,
    C_CURRENT,
    C_DISCARD_N,
    C_DRAWN_TURN,
    C_LAYOFFS_TURN,
    C_MELDS_TURN,
    C_N_MELDS,
    C_OPEN_TURN,
    C_PLAN,
    C_STEALS_TURN,
    C_STOCK_CARD,
    C_STOCK_N,
    C_TOOK_UNOPENED,
    C_TURN,
    C_VIOLATIONS,
    C_WAITING,
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
    PILE_DISCARD,
    PILE_STOCK,
    R_MELD,
    R_SC,
    R_SEAT,
    S_DEADWOOD,
    S_DRAWS,
    S_HAND,
    S_JOKERS,
    S_N,
    S_OPENED,
)
from sim.engine.table import may_lay_off_on, may_meld_now, meld_fits, takes_joker

COUNTER_BITS = 4  # bit-sliced counters count copies up to 15
CONTINENTAL_MOST_BONUS = 30  # §2J.40-41: quick (10) + no wild (10) + one suit (10)


@kernel
def _count_in(counter, mask):
    """Add one copy of every kind of ``mask`` to the bit-sliced ``counter``."""
    carry = mask
    for b in range(COUNTER_BITS):
        if carry == 0:
            return
        next_carry = counter[b] & carry
        counter[b] ^= carry
        carry = next_carry


@kernel
def _meld_ok(fx, params, st, m):
    """Does table meld ``m`` agree with its own shape, and are its fits right?"""
    row = R_MELD + m
    length = st[row, M_LEN]
    if length < 3:
        return False
    shape = st[row, M_SHAPE]
    naturals = np.int64(0)
    n_naturals = 0
    for l in range(MAX_LAYERS):
        naturals |= st[row, M_CARDS + l]
        n_naturals += popcount(st[row, M_CARDS + l])
    wild = st[row, M_WILD]  # 2s standing as wild cards (deuces_wild, §2B.14)
    n_wild = wild_deuces(wild)
    if n_naturals + st[row, M_JOKERS] != length or n_naturals == n_wild:
        return False
    if n_wild > 0:  # set them apart: the rest must be the natural places' cards
        if rule(fx, params, P_DEUCES_WILD) != 1 or st[row, M_TYPE] != MELD_RUN:
            return False
        naturals = _without_wild_deuces(st, row, naturals, wild)
        if naturals < 0:
            return False
        n_naturals -= n_wild
    if rule(fx, params, P_JOKER_LIMIT) == JLIMIT_NATURALS and st[row, M_JOKERS] > n_naturals:
        return False  # §2B.10, after every change to the meld
    want = np.int64(0)
    if st[row, M_TYPE] == MELD_GROUP:
        rank = st[row, M_LO]
        counted = 0
        for t in range(N_SUITS):
            counted += (shape >> (4 * t)) & 0xF
            if (shape >> (4 * t)) & 0xF != 0:
                want |= np.int64(1) << (rank * N_SUITS + t)
        if counted != n_naturals:
            return False
        if rule(fx, params, P_GROUP_DUPLICATES) != GROUP_DUPLICATES_ALLOWED and (
            length > N_SUITS or n_naturals != popcount(want)
        ):
            return False
    else:
        if length > run_cap(fx, params) or shape >> (3 * length) != 0:
            return False
        ace_rank = run_layout(fx, params)
        jokers = 0
        joker_positions = np.int64(0)  # as M_SLID: a slid joker stands on one (§2B.13)
        if wild >> (3 * length) != 0:
            return False
        for i in range(length):
            digit = (shape >> (3 * i)) & 0x7
            if (wild >> (3 * i)) & 0x7 != 0 and digit != JOKER_DIGIT:
                return False  # a wild 2 stands on a wild place
            if digit == JOKER_DIGIT:
                jokers += 1
                joker_positions |= np.int64(1) << ((st[row, M_LO] + i) % n_positions(ace_rank))
            elif digit > JOKER_DIGIT:
                return False
            if digit < N_SUITS:
                if st[row, M_SUIT] >= 0 and digit != st[row, M_SUIT]:
                    return False
                want |= np.int64(1) << (rank_at(st[row, M_LO] + i, ace_rank) * N_SUITS + digit)
        if jokers != st[row, M_JOKERS] + n_wild or n_naturals != popcount(want):
            return False
        if st[row, M_SLID] & ~joker_positions != 0:
            return False
    if want != naturals:
        return False
    return st[row, M_FITS] == meld_fits(fx, params, st, m)


@kernel
def _without_wild_deuces(st, row, naturals, wild):
    """The kinds of meld row ``row``'s natural cards (``naturals``, their union over the
    layers) once its wild 2s (``wild``, as ``M_WILD``) are set apart: a 2 stays when the
    meld holds more copies of it than stand as wild cards; -1 when it holds fewer, or a
    digit names no suit. (Counts are checked by the caller: after this, the cards left must
    be the natural places' kinds, one each.)"""
    for t in range(N_SUITS):
        n = 0
        x = wild
        while x != 0:
            if x & 0x7 == t + 1:
                n += 1
            x >>= 3
        if n == 0:
            continue
        bit = np.int64(1) << (DEUCE_RANK * N_SUITS + t)
        held = 0
        for l in range(MAX_LAYERS):
            if st[row, M_CARDS + l] & bit != 0:
                held += 1
        if held < n:
            return np.int64(-1)
        if held == n:
            naturals &= ~bit
    x = wild
    while x != 0:
        if x & 0x7 > N_SUITS:
            return np.int64(-1)
        x >>= 3
    return naturals


@kernel
def declarations_legal(fx, params, st, m):
    """Do the joker declarations of table meld ``m`` fit its cards and ``joker_declare``
    (RULES.md §2B.11): only cards of the group's rank (with one card per suit, none that a
    natural card of the group is) or of a joker position's rank (an any-suit run), no more
    than its jokers, and every joker the rule asks for declared?"""
    row = R_MELD + m
    declared = st[row, M_DECLARED]
    rule_ = rule(fx, params, P_JOKER_DECLARE)
    jokers = st[row, M_JOKERS]
    if popcount(declared) > jokers or (rule_ == JDECLARE_INFERRED and declared != 0):
        return False
    if st[row, M_TYPE] != MELD_GROUP:
        if rule_ != JDECLARE_ALWAYS or rule(fx, params, P_RUN_SUIT) != RUN_ANY_SUIT:
            return declared == 0  # the position fixes it
        ace_rank = run_layout(fx, params)
        fields = np.int64(0)  # one declaration in the rank field of each joker's position
        for i in range(st[row, M_LEN]):
            if (st[row, M_SHAPE] >> (3 * i)) & 0x7 != JOKER_DIGIT:
                continue
            field = np.int64(0xF) << (rank_at(st[row, M_LO] + i, ace_rank) * N_SUITS)
            fields |= field
            if popcount(declared & field) != 1:
                return False
        return declared & ~fields == 0
    rank_kinds = np.int64(0xF) << (st[row, M_LO] * N_SUITS)
    if declared & ~rank_kinds != 0:
        return False
    if rule(fx, params, P_GROUP_DUPLICATES) != GROUP_DUPLICATES_ALLOWED:
        for l in range(MAX_LAYERS):
            if declared & st[row, M_CARDS + l] != 0:
                return False
    must = rule_ == JDECLARE_ALWAYS or (rule_ == JDECLARE_THREE_CARD_GROUP and st[row, M_LEN] == 3)
    return not must or popcount(declared) == min(jokers, N_SUITS)


@gated(P_GO_OUT_PATTERN, fixed_pattern, np.bool_(True))
@kernel
def _pattern_on_table(fx, params, st):
    """Do the table's melds hold exactly the runs of the rules' fixed pattern
    (``patterns.table_fits_pattern``)?"""
    return table_fits_pattern(st, pattern_lengths(fx, params), wild_pattern(fx, params))


@kernel
def check_state(fx, params, st, piles, work):
    """Count the invariants of the module docstring that fail now (only in audit mode)."""
    if rule(fx, params, P_AUDIT) == 0:
        return
    bad = 0
    counter = work[0, 0:COUNTER_BITS]  # the search workspace is free between searches
    for b in range(COUNTER_BITS):
        counter[b] = 0
    jokers = 0
    for p in range(rule(fx, params, P_PLAYERS)):
        row = R_SEAT + p
        n = st[row, S_JOKERS]
        for l in range(MAX_LAYERS):
            _count_in(counter, st[row, S_HAND + l])
            n += popcount(st[row, S_HAND + l])
        jokers += st[row, S_JOKERS]
        if n != st[row, S_N]:
            bad += 1
    concealed = rule(fx, params, P_MELD_TIMING) == TIMING_ALL_AT_ONCE
    for m in range(st[R_SC, C_N_MELDS]):
        for l in range(MAX_LAYERS):
            _count_in(counter, st[R_MELD + m, M_CARDS + l])
        jokers += st[R_MELD + m, M_JOKERS]
        if not _meld_ok(fx, params, st, m):
            bad += 1
        if not declarations_legal(fx, params, st, m):
            bad += 1
        if concealed and st[R_SEAT + st[R_MELD + m, M_OWNER], S_N] != 0:
            bad += 1  # all_at_once: melds reach the table only with a whole hand (§2D.18)
    if concealed and st[R_SC, C_N_MELDS] > 0 and patterned(fx, params):
        if not _pattern_on_table(fx, params, st):
            bad += 1  # a fixed pattern: exactly its runs went down (§3.11, §3.15)
    borrows = st[R_SC, C_BORROWS_TURN]
    if borrows > 1 or (borrows > 0 and rule(fx, params, P_BORROWING) == BORROW_OFF):
        bad += 1  # one card a turn, and only where the rules lend (§2D.22)
    if st[R_SC, C_STEALS_TURN] > 0 and rule(fx, params, P_JOKER_REPLACE) == JREPLACE_NONE:
        bad += 1  # a table joker taken where the rules keep it there (§2B.12)
    for pile, size in ((PILE_STOCK, st[R_SC, C_STOCK_N]), (PILE_DISCARD, st[R_SC, C_DISCARD_N])):
        for i in range(size):
            kind = piles[pile, i]
            if kind == JOKER:
                jokers += 1
            else:
                _count_in(counter, np.int64(1) << kind)
    packs = rule(fx, params, P_PACKS)
    kinds = pack_kinds(fx, params)
    for b in range(COUNTER_BITS):
        want = kinds if (packs >> b) & 1 else np.int64(0)
        if counter[b] != want:
            bad += 1
    if jokers != rule(fx, params, P_JOKERS):
        bad += 1
    if not _draw_ok(fx, params, st):
        bad += 1
    st[R_SC, C_VIOLATIONS] += bad


@gated(P_INITIAL_MELD_MIN, lambda v: v != 0, np.int64(0))
@kernel
def check_opening(fx, params, st, seat):
    """§2D.24-25 after ``seat``'s table phase: a player who has not made his initial meld
    has laid down nothing this turn (no part-made opening: his melds count it at once, and
    a discard taken for it is in it) and laid off nothing; one who took the discard top for
    his initial meld has made it. Returns the violations."""
    if rule(fx, params, P_INITIAL_MELD_MIN) == 0 or st[R_SEAT + seat, S_OPENED] == 1:
        return 0
    bad = 0
    if st[R_SC, C_OPEN_TURN] > 0 or st[R_SC, C_TOOK_UNOPENED] == 1:
        bad += 1
    if st[R_SC, C_LAYOFFS_TURN] > 0:
        bad += 1
    return bad


@kernel
def check_turn_limits(fx, params, values, st, work, seat):
    """After ``seat``'s table phase in a progressive turn: the per-turn limits held (§2D.19
    one meld, ``tonk_one_layoff_per_turn`` one lay-off, no meld while waiting under
    ``tonk_wait``, §3.22), and under ``tonk_meld_immediately`` (§2L.49) he holds no meld he
    may still lay down (greedy's arrangement search, which holds back a discard when the
    turn needs one, answers whether one exists; its planned discard is left as it was).
    Returns the violations."""
    bad = 0
    card = st[R_SC, C_STOCK_CARD]  # §2L.48: the card drawn from the stock went to the table
    if (
        rule(fx, params, P_TONK_STOCK_CARD) == 1
        and card >= 0
        and (st[R_SEAT + seat, S_HAND] >> card) & 1 == 1
    ):
        bad += 1
    if rule(fx, params, P_TONK_MELD_AT_ONCE) == 1 and may_meld_now(fx, params, st):
        plan = st[R_SC, C_PLAN]
        greedy_arrangement(fx, params, values, st, work, seat)
        st[R_SC, C_PLAN] = plan
        if work[W_SCAL, S_BEST_N] > 0:
            bad += 1
    melds = st[R_SC, C_MELDS_TURN]
    per_turn = rule(fx, params, P_MELDS_PER_TURN)
    if per_turn != MELDS_UNLIMITED and melds > 1:
        bad += 1
    if per_turn == MELDS_ONE_OR_LAYOFF and melds > 0 and st[R_SC, C_LAYOFFS_TURN] > 0:
        bad += 1
    if rule(fx, params, P_TONK_ONE_LAYOFF) == 1 and st[R_SC, C_LAYOFFS_TURN] > 1:
        bad += 1
    if rule(fx, params, P_TONK_WAIT) > 0 and st[R_SC, C_WAITING] == 1 and melds > 0:
        bad += 1
    return bad


@kernel
def call_fits(fx, params, st, caller, m, card):
    """§3.2 rule 4: may ``caller`` lay the called ``card`` off on table meld ``m`` (it fits
    and he may lay off there, §2D.19-21)?"""
    if m < 0 or not may_lay_off_on(fx, params, st, caller, m):
        return False
    if card == JOKER:
        return takes_joker(fx, params, st, m)
    return (st[R_MELD + m, M_FITS] >> card) & 1 == 1


@kernel
def check_call_turns(st, seat):
    """§3.2 rule 5, after the calls that followed ``seat``'s discard: the turn is still his
    (play goes on with the player after him) and no call counted as a turn; returns the
    violations found."""
    bad = 0
    if st[R_SC, C_CURRENT] != seat:
        bad += 1
    if st[R_SC, C_TURN] != st[R_SC, C_CALL_TURN]:
        bad += 1
    return bad


@kernel
def _draw_ok(fx, params, st):
    """Did the turn just played draw as ``discard_draw`` allows (module docstring)? Only
    progressive rummy's turns are checked (after the deal nothing was drawn)."""
    if rule(fx, params, P_FAMILY) != FAMILY_RUMMY or st[R_SC, C_TURN] == 0:
        return True
    drawn = st[R_SC, C_DRAWN_TURN]
    seat = R_SEAT + st[R_SC, C_CURRENT]
    if drawn == 0 and wild_pattern(fx, params) and st[seat, S_DRAWS] == 0 and st[seat, S_N] == 0:
        return True  # Continental: out with the dealt cards, before drawing (§3.11)
    if st[R_SC, C_TURN] == 1 and extra_card(fx, params):
        return drawn == 0  # the 11/10 opening (Nowrang, §3.15): the first turn only discards
    if rule(fx, params, P_DISCARD_DRAW) == XD_TOP_PLUS_ONE:
        return drawn == 1 or drawn == 2
    return drawn == 1


@kernel
def _total_in_hand(values, st, seat):
    """The value of every card ``seat`` holds, card by card (apart from ``scoring``)."""
    row = R_SEAT + seat
    total = st[row, S_JOKERS] * values[JOKER]
    for l in range(MAX_LAYERS):
        for k in range(N_NATURAL):
            if (st[row, S_HAND + l] >> k) & 1:
                total += values[k]
    return total


@kernel
def check_block_scores(fx, params, values, st, winner, scores):
    """A block's scores against §2F.28 (module docstring); returns the violations found."""
    players = rule(fx, params, P_PLAYERS)
    penalty = rule(fx, params, P_SCORING) == SCORE_PENALTY
    low = _total_in_hand(values, st, np.int64(0))
    for p in range(players):
        low = min(low, _total_in_hand(values, st, p))
    bad = 0
    pot = 0
    paid = 0
    tied = 0
    share = -1
    lowest = -1
    for p in range(players):
        total = _total_in_hand(values, st, p)
        if total == low:
            tied += 1
            lowest = p
            if penalty:
                if scores[p] != 0:
                    bad += 1
            elif share >= 0 and scores[p] != share:
                bad += 1  # the players tied for lowest share equally
            share = scores[p]
            paid += scores[p]
        else:
            if scores[p] != (-total if penalty else 0):
                bad += 1
            if rule(fx, params, P_STOCK_EXHAUSTION) == STOCK_BLOCK_TOTALS:
                pot += total
            else:
                pot += total - low
    if not penalty and (paid > pot or pot - paid >= tied):
        bad += 1
    if winner != (lowest if tied == 1 else -1):
        bad += 1
    return bad


@kernel
def check_out_scores(fx, params, values, st, winner, scores):
    """all_at_once: the scores of a hand ``winner`` went out of (module docstring); returns
    the violations found."""
    players = rule(fx, params, P_PLAYERS)
    scoring = rule(fx, params, P_SCORING)
    bad = 0
    want = 0
    if scoring == SCORE_CONTINENTAL:
        return _check_continental_scores(st, players, winner, scores)
    if scoring == SCORE_OWN_MELDS:
        for m in range(st[R_SC, C_N_MELDS]):
            want += st[R_MELD + m, M_JOKERS] * values[JOKER]
            for l in range(MAX_LAYERS):
                for k in range(N_NATURAL):
                    if (st[R_MELD + m, M_CARDS + l] >> k) & 1:
                        want += values[k]
        want *= players - 1
    for p in range(players):
        if p == winner:
            continue
        total = _total_in_hand(values, st, p)
        if scores[p] != (-total if scoring == SCORE_PENALTY else 0):
            bad += 1
        if scoring == SCORE_UNMELDED:
            dw = st[R_SEAT + p, S_DEADWOOD]
            if dw < 0 or dw > total:
                bad += 1
            want += dw
        elif scoring != SCORE_OWN_MELDS and scoring != SCORE_PENALTY:
            want += total
    if scores[winner] != want:
        bad += 1
    return bad


@kernel
def _check_continental_scores(st, players, winner, scores):
    """§3.11: zero-sum; every other player pays the winner the same amount, at least 1, 2
    per joker on the table and 1 per wild 2 (§2B.14), and at most that plus the §2J bonuses
    (10 + 10 + 10)."""
    bad = 0
    least = 1  # 1, 2 per joker and 1 per wild 2 (deuces_wild, §2B.14)
    for m in range(st[R_SC, C_N_MELDS]):
        least += 2 * st[R_MELD + m, M_JOKERS] + wild_deuces(st[R_MELD + m, M_WILD])
    pay = -scores[(winner + 1) % players]
    if pay < least or pay > least + CONTINENTAL_MOST_BONUS:
        bad += 1
    total = 0
    for p in range(players):
        total += scores[p]
        if p != winner and scores[p] != -pay:
            bad += 1
    if total != 0:
        bad += 1
    return bad
