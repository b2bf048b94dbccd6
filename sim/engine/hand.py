"""One hand: the deal, then the one turn loop until the hand ends, then its scores
(RULES.md §1.4-1.10).

Rule slots read here: ``players``, ``turn_cap``, ``going_rummy``, ``call_rummy``, ``audit``,
``scoring`` (what the end's log shows); each phase reads its own.

A turn: the draw (``draw.py``), the table (the seat's bot through ``table.py``), the
discard. A hand ends when a hand is empty (``went_out``, or ``went_rummy`` when the player
had played no card before this turn and the rules reward it), when nothing is left to
draw (``exhausted``), when a player declines the discard top with the stock empty under a
block rule (``block``, §2F.28: that turn counts, and ``scoring.score_block`` scores the
hands; the winner is the lowest hand, -1 when it is shared) or at the turn cap
(``stalled``, no score: engine policy, §1.8).

Under ``meld_timing = "knock"`` (``go_out.knocking``) the table phase plays nothing: after
the draw the bot answers "discard which card, and knock?" (``bots.knock_discard``); a knock
is legal when the deadwood left after the discard is within the hand's limit
(``go_out.may_knock``; an illegal one is an audit violation and play goes on). A knock ends
the turns; the showdown (``showdown.py``) and the family's scoring (``scoring.score_knock``:
``knock``, ``gin`` or ``undercut``) follow. A turn that ends without a knock may void the
hand (``stock_out.voids_hand``, gin's ``void_at_two``: ``void``, no score).

Under ``call_rummy`` (§3.2) a discard that does not end the hand may be called out of turn
(``calls.py``): the caller lays the card off and discards, and that discard may be called
too; a caller whose discard empties his hand wins (``went_out``, never rummy). Then play
goes on with the player after the discarder whose turn it was.

Under ``meld_timing = "all_at_once"`` (``go_out.concealed``, §2D.18) the table phase is the
bot's answer "go out, and discard which card?" (``bots.concealed_discard``): going out lays
the whole hand but the discard down (``go_out.go_out``; an illegal go-out is an audit
violation, nothing is laid down and play goes on), then the discard, and the empty hand
ends the hand as ``went_out`` like any other. Under Continental's pattern (§3.11) a player
whose dealt cards fit goes out before his first draw (``go_out.quick_out``: ``went_out``).

Tonk (``family = "tonk"``, §3.22) is this loop with chip settlement: after the deal an
instant tonk ends the hand (``tonk``) or tied ones have it redealt (``redeal``;
``deal_events.py``); the bot may drop at the start of its turn and after its table play
(``_drops``: ``drop``, or ``caught`` when the dropper was not strictly lowest, decided by
``chips.py``); a turn that begins with the stock empty ends the hand (``stock_out``, or
``redeal`` under ``tonk_stock_out = "redeal"``). ``finish_hand`` turns every ending into
chips (``chips.settle_chips``; audited: they add up to 0). Rule slots: ``family``,
``tonk_stock_out``.

Phỏm (``meld_timing = "phom_final"``, §3.13, ``phom.py``) plays its own table phase
(``_phom_phase``): after the draw (the first player opens without one) a player who can
goes Ù (``went_u``: his melds go down, with or without a discard, and the hand ends);
otherwise he discards a card the rules allow, having first, in his fourth turn, shown his
melds and laid off on others' shown melds. After every player's fourth turn the hand ends
(``showdown``); ``phom_chips.settle_phom`` settles both.

Conquian (``family = "conquian"``, §3.21) plays its own whole turn (``conquian.py``: the
exposed card used or rejected, the stock card used or passed, forcing); a use that leaves
the hand empty goes out (``went_out``, 11 cards melded, no discard) and a rejection with
the stock empty draws the hand (``exhausted``). The winner scores 1 tento times
the hand's stake (``C_STAKE``, which ``game.py`` sets: ``drawn_hand_carry``).

Carousel (``family = "carousel"``, §3.16) plays its own whole turn too (``carousel.py``:
up to three draws, a meld action re-forming the table that ends the turn, no discard); a
meld action that empties the hand goes out (``went_out``), a knock at the turn's end ends
the round (``knock``, or ``undercut`` when the knocker did not win), and the last of the
final turns after the stock-out ends it (``stock_out``); ``carousel_score.settle_carousel``
scores all three.
"""

from __future__ import annotations

import numpy as np

from sim.engine.audit import (
    check_block_scores,
    check_call_turns,
    check_opening,
    check_out_scores,
    check_state,
    check_turn_limits,
)
from sim.engine.bots import (
    choose_discard,
    concealed_discard,
    knock_discard,
    phom_discard,
    phom_layoffs,
    play_stock_card,
    play_table,
    wants_drop,
)
from sim.engine.calls import call_discard
from sim.engine.carousel import (
    TURN_KNOCK,
    TURN_OVER,
    carousel_family,
    carousel_turn,
    check_carousel_turn,
)
from sim.engine.carousel import (
    TURN_OUT as CAROUSEL_OUT,
)
from sim.engine.carousel_score import settle_carousel
from sim.engine.chips import check_chip_scores, settle_chips
from sim.engine.conquian import (
    TURN_DRAWN,
    TURN_OUT,
    check_conquian,
    conquian_family,
    conquian_turn,
)
from sim.engine.deal import deal_cards, next_seat, reset_hand
from sim.engine.deal_events import TIED_TONKS, instant_tonk
from sim.engine.draw import DRAW_BLOCK, DRAW_EXHAUSTED, DRAW_STOCK_OUT, draw_phase
from sim.engine.go_out import OUT_NONE, concealed, go_out, knocking, may_knock, quick_out
from sim.engine.jit import kernel
from sim.engine.layout import (
    DBI_ONLY_FOR_INITIAL,
    FAMILY_CAROUSEL,
    FAMILY_CONQUIAN,
    FAMILY_PHOM,
    FAMILY_TONK,
    P_AUDIT,
    P_CALL_RUMMY,
    P_DISCARD_BEFORE_INITIAL,
    P_FAMILY,
    P_GOING_RUMMY,
    P_MC_SEATS,
    P_MELD_TIMING,
    P_PLAYERS,
    P_SCORING,
    P_TONK_LAYOFF_SKIPS_DISCARD,
    P_TONK_STOCK_CARD,
    P_TONK_STOCK_OUT,
    P_TURN_CAP,
    REASON_BLOCK,
    REASON_DROP,
    REASON_EXHAUSTED,
    REASON_KNOCK,
    REASON_REDEAL,
    REASON_SHOWDOWN,
    REASON_STALLED,
    REASON_STOCK_OUT,
    REASON_TONK,
    REASON_VOID,
    REASON_WENT_OUT,
    REASON_WENT_RUMMY,
    REASON_WENT_U,
    RUMMY_OFF,
    SCORE_UNMELDED,
    TIMING_ALL_AT_ONCE,
    TIMING_KNOCK,
    TIMING_PHOM_FINAL,
    TONK_STOCK_REDEAL,
)
from sim.engine.legal import discard_allowed
from sim.engine.melds import partial_of
from sim.engine.phom import (
    check_taken,
    final_turn,
    go_u,
    hand_over,
    phom_discard_allowed,
    phom_timing,
    show_melds,
    u_discard,
)
from sim.engine.phom_chips import settle_phom
from sim.engine.piles import discard_top, push_discard
from sim.engine.restrict import decided_card, mc_plays, mc_samples
from sim.engine.rows import (
    H_DRAWS_DISCARD,
    H_DRAWS_STOCK,
    H_LAYOFFS,
    H_MELDS,
    H_REBUILDS,
    H_TURNS,
    H_VIOLATIONS,
)
from sim.engine.scoring import (
    check_knock_scores,
    hand_value,
    score_block,
    score_knock,
    score_out,
)
from sim.engine.showdown import showdown
from sim.engine.specs import gated, rule
from sim.engine.state import (
    C_CALL_TURN,
    C_CURRENT,
    C_DISCARD_N,
    C_DISCARDS_TURN,
    C_DRAWN_TURN,
    C_DRAWS_DISCARD,
    C_DRAWS_STOCK,
    C_JOKERS_OWED,
    C_LAYOFFS,
    C_LAYOFFS_TURN,
    C_LOG,
    C_MC_ASKED,
    C_MC_CARD,
    C_MC_DRAW,
    C_MC_KNOCK,
    C_MELDS,
    C_MELDS_TURN,
    C_PLAYED_BEFORE,
    C_REBUILDS,
    C_STAGE,
    C_STAKE,
    C_STEALS_TURN,
    C_STOCK_CARD,
    C_STOCK_N,
    C_TURN,
    C_VIOLATIONS,
    E_DISCARD,
    E_DROP,
    E_END,
    E_KNOCK,
    E_SCORE,
    PILE_DISCARD,
    R_SC,
    R_SEAT,
    S_DEADWOOD,
    S_HAND,
    S_LAST_DISCARD,
    S_N,
    S_PLAYED,
    clear_turn_facts,
    log_event,
    take,
)
from sim.engine.stock_out import voids_hand
from sim.engine.table import start_waiting

# where the turn loop stands (C_STAGE): it may stop before the draw and before the discard
STAGE_START = 0  # the turn's start: nothing done yet
STAGE_DRAW = 1  # the draw comes next
STAGE_PLAY = 2  # drawn: the table, knock or go-out phase comes next
STAGE_DISCARD = 3  # progressive melding: the table phase done, the discard comes next
STAGE_END = 4  # the turn's play done (no discard phase of its own)
REASON_DECIDE = -2  # play_turns stopped for a decision (not an end; never in the dataset)
Q_DRAW = 1  # the questions the loop stops for (C_MC_ASKED): the draw,
Q_DISCARD = 2  # ... the discard (and, in the knock family, the knock)

CONQUIAN_TENTO = 1  # §3.21: the winner of a hand earns 1 tento (times the hand's stake)


@kernel
def _audit(fx, params, st, piles, work):
    """Check every invariant now, in audit mode (the test keeps the call out of the turn's
    code otherwise)."""
    if rule(fx, params, P_AUDIT) == 1:
        check_state(fx, params, st, piles, work)


@kernel
def _start_turn(fx, params, st, seat):
    """A new turn of ``seat``: the last one's facts cleared, nothing drawn yet, and under
    ``tonk_wait`` one of his turns of waiting spent."""
    clear_turn_facts(st)
    st[R_SC, C_DRAWN_TURN] = 0
    st[R_SC, C_MC_ASKED] = 0
    st[R_SC, C_MC_DRAW] = 0
    st[R_SC, C_MC_CARD] = 0
    start_waiting(fx, params, st, seat)


@kernel
def _discard_phase(fx, params, values, bots, st, piles, rng, events, seat):
    """``seat`` discards the card his bot chooses (or the one decided for this turn,
    ``C_MC_CARD``)."""
    card = decided_card(st, seat)
    if card < 0:
        card = choose_discard(fx, params, values, bots, st, piles, rng, seat)
    _discard(fx, params, st, piles, events, seat, card)


@gated(P_MELD_TIMING, lambda v: v == TIMING_KNOCK, np.bool_(False))
@kernel
def _knock_phase(fx, params, values, bots, st, piles, rng, work, events, seat):
    """``seat`` discards the card his bot chooses (or the one decided for this turn with
    its knock, ``C_MC_CARD`` and ``C_MC_KNOCK``) and knocks if it says so and he may;
    returns whether he knocked."""
    card = decided_card(st, seat)
    if card >= 0:  # mcN decided this turn's discard and knock (sim.engine.mc)
        knock = st[R_SC, C_MC_KNOCK] == 1
    else:
        card, knock = knock_discard(fx, params, values, bots, st, piles, rng, work, seat)
    _discard(fx, params, st, piles, events, seat, card)
    if not knock:
        return False
    allowed, deadwood = may_knock(fx, params, values, st, work, seat)
    if not allowed:
        st[R_SC, C_VIOLATIONS] += 1  # a knock above the limit: play goes on
        return False
    log_event(st, events, np.int64(E_KNOCK), seat, deadwood, np.int64(0))
    return True


@gated(P_MELD_TIMING, lambda v: v == TIMING_ALL_AT_ONCE, None)
@kernel
def _concealed_phase(fx, params, values, bots, st, piles, rng, work, events, seat):
    """all_at_once: ``seat`` goes out if his bot says so and he may, and discards."""
    card, out = concealed_discard(fx, params, values, bots, st, piles, rng, work, seat)
    if out and not go_out(fx, params, values, st, work, events, seat, card):
        st[R_SC, C_VIOLATIONS] += 1  # an illegal go-out: nothing laid down, play goes on
    if card >= 0:
        _discard(fx, params, st, piles, events, seat, card)


@gated(P_MELD_TIMING, lambda v: v == TIMING_PHOM_FINAL, np.bool_(False))
@kernel
def _phom_phase(fx, params, values, bots, st, piles, rng, work, events, seat):
    """Phỏm (§3.13, module docstring): ``seat`` goes Ù if he can (returns True: the hand
    ends), else discards, in his fourth turn after showing his melds and laying off."""
    card = u_discard(fx, params, values, st, work, seat)
    if card != OUT_NONE:  # every bot goes Ù when it can (docs/bots.md)
        if go_u(fx, params, values, st, work, events, seat, card):
            if card >= 0:
                _discard(fx, params, st, piles, events, seat, card)
            return True
        st[R_SC, C_VIOLATIONS] += 1  # the rules' own answer refused: never expected
    card = phom_discard(fx, params, values, bots, st, piles, rng, work, seat)
    if card < 0:  # never: a hand that allows no discard melds wholly (Ù, phom.py)
        st[R_SC, C_VIOLATIONS] += 1
        return False
    if rule(fx, params, P_AUDIT) == 1:  # a taken card, or one its meld needs (§3.13)
        if not phom_discard_allowed(fx, params, values, st, work, seat, card):
            st[R_SC, C_VIOLATIONS] += 1
    if final_turn(fx, params, st):
        show_melds(fx, params, values, st, work, events, seat, card)
        phom_layoffs(fx, params, bots, st, rng, events, seat, card)
    _discard(fx, params, st, piles, events, seat, card)
    return False


@kernel
def _discard(fx, params, st, piles, events, seat, card):
    """``seat`` discards ``card`` (an illegal choice is an audit violation and the card is
    discarded all the same, so the hand goes on)."""
    if not discard_allowed(fx, params, st, seat, card):
        st[R_SC, C_VIOLATIONS] += 1
    take(fx, params, st, seat, card)
    push_discard(st, piles, card)
    st[R_SEAT + seat, S_LAST_DISCARD] = card + 1
    st[R_SC, C_DISCARDS_TURN] += 1
    log_event(st, events, np.int64(E_DISCARD), seat, card, np.int64(0))


@gated(P_TONK_STOCK_CARD, lambda v: v == 1, np.bool_(False))
@kernel
def _stock_card_ends_turn(fx, params, values, bots, st, piles, rng, events, work, seat):
    """``tonk_stock_card_must_play`` (§2L.48): the card ``seat`` just drew from the stock
    goes to the table (his bot's choice, ``bots.play_stock_card``) or is discarded, which
    ends his turn; returns whether it was discarded."""
    card = st[R_SC, C_STOCK_CARD]
    if rule(fx, params, P_TONK_STOCK_CARD) == 0 or card < 0:
        return False
    if play_stock_card(fx, params, values, bots, st, rng, events, work, seat, card):
        return False
    _discard(fx, params, st, piles, events, seat, card)
    return True


@kernel
def _lay_off_ends_turn(fx, params, st):
    """``tonk_layoff_skips_discard`` (§2L.52): a player who laid off this turn does not
    discard."""
    return rule(fx, params, P_TONK_LAYOFF_SKIPS_DISCARD) == 1 and st[R_SC, C_LAYOFFS_TURN] > 0


@gated(P_FAMILY, lambda v: v == FAMILY_TONK, np.bool_(False))
@kernel
def _drops(fx, params, values, bots, st, piles, rng, work, events, seat):
    """Tonk (§3.22): does ``seat`` drop now (his bot's answer, ``drop_policy.py``)? A drop
    lays his hand face up and ends his turn and the hand (``chips.py`` settles it)."""
    if not wants_drop(fx, params, values, bots, st, piles, rng, seat):
        return False
    total = hand_value(fx, params, values, st, seat)
    log_event(st, events, np.int64(E_DROP), seat, total, np.int64(0))
    st[R_SC, C_TURN] += 1
    _audit(fx, params, st, piles, work)
    return True


@gated(P_CALL_RUMMY, lambda v: v == 1, np.int64(-1))
@kernel
def _calls(fx, params, values, bots, st, piles, rng, work, events, seat):
    """Call Rummy (RULES.md §3.2, ``calls.py``) after ``seat``'s discard: each caller lays
    the called card off, then discards, and his discard may be called in turn; returns the
    caller whose discard emptied his hand (he went out), or -1. No call is a turn, and the
    turn stays ``seat``'s (audited)."""
    st[R_SC, C_CALL_TURN] = st[R_SC, C_TURN]
    discarder = seat
    while True:
        caller = call_discard(fx, params, values, bots, st, piles, rng, work, events, discarder)
        if caller < 0:
            break
        _discard_phase(fx, params, values, bots, st, piles, rng, events, caller)
        _audit(fx, params, st, piles, work)
        if st[R_SEAT + caller, S_N] == 0:
            return caller
        discarder = caller
    if rule(fx, params, P_AUDIT) == 1:
        st[R_SC, C_VIOLATIONS] += check_call_turns(st, seat)
    return -1


@kernel
def _mc_asks(fx, params, bots, st, piles, seat, question):
    """Does the loop stop here for ``seat``'s bot to decide ``question`` (``mc.Q_DRAW``,
    ``mc.Q_DISCARD``) by Monte Carlo (``sim.engine.mc``)? Only an ``mcN`` seat, in a variant
    where it decides (``restrict.mc_plays``), once a question a turn; the draw only when the
    choice is free (a discard top, a stock, past the opening) and the top is in a partial
    meld of the hand with it (``melds.partial_of``)."""
    if rule(fx, params, P_MC_SEATS) == 0:  # no mcN seat (set by api.play)
        return False
    if st[R_SC, C_MC_ASKED] >= question or mc_samples(fx, params, bots, seat) == 0:
        return False
    if not mc_plays(fx, params):
        return False
    if question == Q_DRAW:
        top = discard_top(st, piles)
        if st[R_SC, C_TURN] == 0 or st[R_SC, C_STOCK_N] == 0 or top < 0:
            return False
        hand = st[R_SEAT + seat, S_HAND] | (np.int64(1) << top)  # one pack (mc_plays)
        if (partial_of(fx, params, hand) >> top) & 1 == 0:
            return False  # a card in no partial meld of the hand: not a question
        if rule(fx, params, P_DISCARD_BEFORE_INITIAL) == DBI_ONLY_FOR_INITIAL:
            return False
    return True


@kernel
def play_turns(fx, params, values, bots, st, piles, rng, work, events):
    """Turns until the hand ends; returns (end reason, winner), or (``REASON_DECIDE``,
    seat) when an ``mcN`` seat must decide (``_mc_asks``): the caller (``game.play_games``,
    through ``mc.decide``) writes the answer into the state and calls again, and the turn
    resumes where it stopped (``C_STAGE``)."""
    cap = rule(fx, params, P_TURN_CAP)
    tonk = rule(fx, params, P_FAMILY) == FAMILY_TONK
    if tonk and st[R_SC, C_TURN] == 0 and st[R_SC, C_STAGE] == STAGE_START:
        who = instant_tonk(fx, params, values, st, events)  # at the deal (§3.22)
        if who == TIED_TONKS:
            return REASON_REDEAL, -1
        if who >= 0:
            return REASON_TONK, who
    while st[R_SC, C_TURN] < cap:
        seat = st[R_SC, C_CURRENT]
        if st[R_SC, C_STAGE] == STAGE_START:
            _start_turn(fx, params, st, seat)
            if conquian_family(fx, params):  # Conquian's own turn (§3.21, conquian.py)
                outcome = conquian_turn(
                    fx, params, values, bots, st, piles, rng, work, events, seat
                )
                if outcome == TURN_DRAWN:
                    return REASON_EXHAUSTED, -1
                st[R_SC, C_TURN] += 1
                _audit(fx, params, st, piles, work)
                if outcome == TURN_OUT:
                    return REASON_WENT_OUT, seat
                if rule(fx, params, P_AUDIT) == 1:
                    st[R_SC, C_VIOLATIONS] += check_conquian(fx, params, st, np.int64(-1))
                st[R_SC, C_CURRENT] = next_seat(fx, params, st, seat)
                continue
            if carousel_family(fx, params):  # Carousel's own turn (§3.16, carousel.py)
                outcome = carousel_turn(
                    fx, params, values, bots, st, piles, rng, work, events, seat
                )
                st[R_SC, C_TURN] += 1
                _audit(fx, params, st, piles, work)
                if rule(fx, params, P_AUDIT) == 1:
                    st[R_SC, C_VIOLATIONS] += check_carousel_turn(fx, params, st)
                if outcome == CAROUSEL_OUT:
                    return REASON_WENT_OUT, seat
                if outcome == TURN_KNOCK:
                    return REASON_KNOCK, seat
                if outcome == TURN_OVER:
                    return REASON_STOCK_OUT, -1
                st[R_SC, C_CURRENT] = next_seat(fx, params, st, seat)
                continue
            st[R_SC, C_PLAYED_BEFORE] = st[R_SEAT + seat, S_PLAYED]
            if tonk and _drops(fx, params, values, bots, st, piles, rng, work, events, seat):
                return REASON_DROP, seat
            if quick_out(fx, params, values, st, work, events, seat):  # Continental (§3.11)
                st[R_SC, C_TURN] += 1
                _audit(fx, params, st, piles, work)
                return REASON_WENT_OUT, seat
            st[R_SC, C_STAGE] = STAGE_DRAW
        if st[R_SC, C_STAGE] == STAGE_DRAW:
            if _mc_asks(fx, params, bots, st, piles, seat, np.int64(Q_DRAW)):
                return REASON_DECIDE, seat
            drawn = draw_phase(fx, params, values, bots, st, piles, rng, work, events, seat)
            if drawn == DRAW_EXHAUSTED:
                return REASON_EXHAUSTED, -1
            if drawn == DRAW_STOCK_OUT:  # Tonk: the lowest collects, or a redeal (§2L.55)
                if rule(fx, params, P_TONK_STOCK_OUT) == TONK_STOCK_REDEAL:
                    return REASON_REDEAL, -1
                return REASON_STOCK_OUT, -1
            if drawn == DRAW_BLOCK:
                st[R_SC, C_TURN] += 1  # declining the discard was his turn
                return REASON_BLOCK, -1
            st[R_SC, C_STAGE] = STAGE_PLAY
        seat = st[R_SC, C_CURRENT]  # gin's opening may pass the turn to the dealer
        if st[R_SC, C_STAGE] == STAGE_PLAY:
            if phom_timing(fx, params):
                went_u = _phom_phase(fx, params, values, bots, st, piles, rng, work, events, seat)
                st[R_SC, C_STAGE] = STAGE_START
                st[R_SC, C_TURN] += 1
                _audit(fx, params, st, piles, work)
                if rule(fx, params, P_AUDIT) == 1:
                    st[R_SC, C_VIOLATIONS] += check_taken(
                        fx, params, values, st, piles[PILE_DISCARD], st[R_SC, C_DISCARD_N], work
                    )
                if went_u:
                    return REASON_WENT_U, seat
                if hand_over(fx, params, st):
                    return REASON_SHOWDOWN, -1
                st[R_SC, C_CURRENT] = next_seat(fx, params, st, seat)
                continue
            if knocking(fx, params):
                if _mc_asks(fx, params, bots, st, piles, seat, np.int64(Q_DISCARD)):
                    return REASON_DECIDE, seat
                knocked = _knock_phase(fx, params, values, bots, st, piles, rng, work, events, seat)
                st[R_SC, C_STAGE] = STAGE_START
                st[R_SC, C_TURN] += 1
                if knocked:
                    return REASON_KNOCK, seat
                if voids_hand(fx, params, st):
                    return REASON_VOID, -1
                st[R_SC, C_CURRENT] = next_seat(fx, params, st, seat)
                continue
            st[R_SC, C_STAGE] = STAGE_END  # the turn has no discard phase of its own
            if concealed(fx, params):
                _concealed_phase(fx, params, values, bots, st, piles, rng, work, events, seat)
            elif _stock_card_ends_turn(
                fx, params, values, bots, st, piles, rng, events, work, seat
            ):
                pass  # §2L.48: the card drawn from the stock was discarded, which ends the turn
            else:
                play_table(fx, params, values, bots, st, piles, rng, events, work, seat)
                if rule(fx, params, P_AUDIT) == 1:
                    st[R_SC, C_VIOLATIONS] += check_opening(fx, params, st, seat)
                    st[R_SC, C_VIOLATIONS] += check_turn_limits(fx, params, values, st, work, seat)
                    if st[R_SC, C_JOKERS_OWED] > 0:  # reuse_same_turn: a joker kept (§2B.12)
                        st[R_SC, C_VIOLATIONS] += 1
                st[R_SC, C_STAGE] = STAGE_DISCARD
        if st[R_SC, C_STAGE] == STAGE_DISCARD and st[R_SEAT + seat, S_N] > 0:
            if tonk and _drops(fx, params, values, bots, st, piles, rng, work, events, seat):
                return REASON_DROP, seat
            if not _lay_off_ends_turn(fx, params, st):
                if _mc_asks(fx, params, bots, st, piles, seat, np.int64(Q_DISCARD)):
                    return REASON_DECIDE, seat
                _discard_phase(fx, params, values, bots, st, piles, rng, events, seat)
        st[R_SC, C_STAGE] = STAGE_START
        st[R_SC, C_TURN] += 1
        _audit(fx, params, st, piles, work)
        if st[R_SEAT + seat, S_N] == 0:
            if st[R_SC, C_PLAYED_BEFORE] == 0 and rule(fx, params, P_GOING_RUMMY) != RUMMY_OFF:
                return REASON_WENT_RUMMY, seat
            return REASON_WENT_OUT, seat
        # a joker replacement puts a card on the table too (§2B.12, §2E.27)
        played = st[R_SC, C_MELDS_TURN] + st[R_SC, C_LAYOFFS_TURN] + st[R_SC, C_STEALS_TURN]
        if played > 0:
            st[R_SEAT + seat, S_PLAYED] = 1
        if rule(fx, params, P_CALL_RUMMY) == 1:
            caller = _calls(fx, params, values, bots, st, piles, rng, work, events, seat)
            if caller >= 0:
                return REASON_WENT_OUT, caller  # out by a call's discard: never rummy
        st[R_SC, C_CURRENT] = next_seat(fx, params, st, seat)
    return REASON_STALLED, -1


@kernel
def start_hand(fx, params, st, piles, rng, work, events, seed, shard, deal, dealer):
    """Deal ``deal`` with ``dealer`` dealing (``reset_hand``, ``deal_cards``); the turns
    follow (``play_turns``), then ``finish_hand``. ``game.play_games`` calls the three in
    turn, so that no kernel between it and the turn loop compiles the tree below once more
    (docs/perf-log.md, 2026-12-05)."""
    reset_hand(fx, params, st, piles, rng, seed, shard, deal, dealer)
    deal_cards(fx, params, st, piles, rng, events)
    _audit(fx, params, st, piles, work)


@kernel
def count_hand(st, row):
    """Add the hand just finished's counts to a hands-table row (``sim.engine.rows``,
    ``H_TURNS`` to ``H_VIOLATIONS``): turns, draws, melds laid down, cards laid off, stock
    rebuilds and audit violations. A partnership hand adds both tables'."""
    row[H_TURNS] += st[R_SC, C_TURN]
    row[H_DRAWS_STOCK] += st[R_SC, C_DRAWS_STOCK]
    row[H_DRAWS_DISCARD] += st[R_SC, C_DRAWS_DISCARD]
    row[H_MELDS] += st[R_SC, C_MELDS]
    row[H_LAYOFFS] += st[R_SC, C_LAYOFFS]
    row[H_REBUILDS] += st[R_SC, C_REBUILDS]
    row[H_VIOLATIONS] += st[R_SC, C_VIOLATIONS]


@kernel
def finish_hand(fx, params, values, st, piles, work, events, reason, winner, scores, side):
    """Score the hand that ended with ``reason`` and ``winner`` (``play_turns``' answer):
    writes ``scores`` and ``side`` (the hand's side bonuses, which do not count toward the
    target: Oklahoma gin's, §2I.39), both int64[players], and returns (end reason, winner);
    ``count_hand`` then reads the hand's counts."""
    players = rule(fx, params, P_PLAYERS)
    for p in range(players):
        scores[p] = 0
        side[p] = 0
    family = rule(fx, params, P_FAMILY)
    if family == FAMILY_CAROUSEL:  # §3.16 (carousel_score.py)
        reason, winner = settle_carousel(fx, params, values, st, reason, winner, scores)
    elif family == FAMILY_CONQUIAN:
        if winner >= 0:
            scores[winner] = CONQUIAN_TENTO * st[R_SC, C_STAKE]  # drawn_hand_carry
        if rule(fx, params, P_AUDIT) == 1:
            st[R_SC, C_VIOLATIONS] += check_conquian(fx, params, st, winner)
    elif family == FAMILY_TONK or family == FAMILY_PHOM:
        if family == FAMILY_PHOM:
            reason, winner = settle_phom(fx, params, values, st, reason, winner, scores)
        else:
            reason, winner = settle_chips(fx, params, values, st, reason, winner, scores)
        if rule(fx, params, P_AUDIT) == 1:
            st[R_SC, C_VIOLATIONS] += check_chip_scores(fx, params, scores)
    elif reason == REASON_KNOCK:
        showdown(fx, params, values, st, work, events, winner)
        knocker = winner
        reason, winner = score_knock(fx, params, st, knocker, scores, side)
        if rule(fx, params, P_AUDIT) == 1:
            st[R_SC, C_VIOLATIONS] += check_knock_scores(fx, params, st, knocker, reason, scores)
        _audit(fx, params, st, piles, work)
    elif reason == REASON_BLOCK:
        winner = score_block(fx, params, values, st, scores)
        if rule(fx, params, P_AUDIT) == 1:
            st[R_SC, C_VIOLATIONS] += check_block_scores(fx, params, values, st, winner, scores)
    elif winner >= 0:
        score_out(fx, params, values, st, work, winner, reason == REASON_WENT_RUMMY, scores)
        if rule(fx, params, P_AUDIT) == 1 and concealed(fx, params):
            st[R_SC, C_VIOLATIONS] += check_out_scores(fx, params, values, st, winner, scores)
    log_event(st, events, np.int64(E_END), winner, reason, np.int64(0))
    if st[R_SC, C_LOG] == 1:  # what each seat held at the end: deadwood, or all his cards
        # under unmelded_to_winner (§3.7) the seats' deadwood is what counted
        knock = knocking(fx, params) or rule(fx, params, P_SCORING) == SCORE_UNMELDED
        for p in range(players):
            left = st[R_SEAT + p, S_DEADWOOD] if knock else hand_value(fx, params, values, st, p)
            log_event(st, events, np.int64(E_SCORE), p, scores[p], left)
    return reason, winner
