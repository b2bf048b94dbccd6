"""The state of one hand in three flat arrays, and the card movements every phase uses.

``st`` (``int64[N_ROWS, N_COLS]``) holds everything of a hand but its piles:

- seat rows ``R_SEAT + p``: the hand as layers (``S_HAND + l``, as in ``sim.engine.melds``)
  and jokers, how many cards, this hand's facts (played before, has melded, laid off on
  an own meld), the natural cards taken from the discard pile (public), the seat's side
  (its team; -1: sits this hand out) and which kinds fit one of its table melds;
- the scalar row ``R_SC``: the piles' sizes, this turn's facts, counters (the random
  streams' states are a separate ``uint64`` array, ``sim.engine.rng``);
- meld rows ``R_MELD + m``: the table, one meld a row: its type, owner, window or rank,
  length, suit, jokers, shape (as ``sim.engine.melds`` candidates), natural cards as
  layers, the natural kinds that could be laid off on it (``M_FITS``) and the kinds its
  jokers were declared as (``M_DECLARED``, ``sim.engine.table``), and which 2s of a run
  stand as wild cards (``M_WILD``, Continental with ``deuces_wild``).

``piles`` (``int64[N_PILES, MAX_SHOE]``): row ``PILE_STOCK`` is the stock, its top the last
of ``C_STOCK_N`` cards (while ``C_STOCK_ORDERED`` is 0 the stock is unordered and a draw
takes a uniform card of it: a lazy shuffle, so a deal costs only the cards dealt);
``PILE_DISCARD`` the discard pile, top last; ``PILE_SHOE`` every card of the shoe in kind
order (filled once per call), or a hand-built deal in the order its cards leave the stock,
the first card last (``C_SHOE_PRESET`` = 1: the stock is then ordered from the start).

``events`` (``int64[E, EV_COLS]``) receives the event log when ``C_LOG`` is 1: one row an
event, its type, seat (-1: none), two numbers ``a``/``b`` (0 when unused) and a list of
cards (``E_*`` below say what each holds). The deal logs one ``E_DEAL`` per seat, seat 0
first, after the whole deal and before the upcard, his cards in kind order (copies
repeated); a meld lists its natural cards in kind order, then its jokers.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_NATURAL
from sim.engine.jit import allocating, kernel
from sim.engine.layout import P_JOKERS, P_PACKS
from sim.engine.melds import MAX_LAYERS, pack_kinds
from sim.engine.specs import rule

MAX_SEATS = 12
MAX_SHOE = 4 * N_NATURAL + 16
MAX_MELDS = MAX_SHOE // 3 + 1

# ---- seat columns ---------------------------------------------------------------------------
S_HAND = 0  # S_HAND + l: the hand's layer l
S_JOKERS = MAX_LAYERS  # jokers held
S_N = MAX_LAYERS + 1  # cards held
S_PLAYED = MAX_LAYERS + 2  # laid down or laid off a card in an earlier turn (going rummy)
S_MELDED = MAX_LAYERS + 3  # has laid down a meld this hand (layoff_requires_meld)
S_LAID_OWN = MAX_LAYERS + 4  # has laid off on one of his own melds (layoff_requires_meld)
S_PICKED = MAX_LAYERS + 5  # natural kinds taken from the discard pile this hand (public)
S_SIDE = MAX_LAYERS + 6  # the seat's side this hand (its team); -1: sits out
S_FITS_OWN = MAX_LAYERS + 7  # natural kinds that fit one of his table melds
S_STOCK_SEEN = MAX_LAYERS + 8  # kinds he drew from the stock since the table last changed
S_DEADWOOD = MAX_LAYERS + 9  # knock family: his deadwood at the showdown (0 before it)
S_ARR_MASK = MAX_LAYERS + 10  # knock family: the hand whose arrangement is kept (0: none)
S_ARR_DW = MAX_LAYERS + 11  # ... its deadwood
S_ARR_MELDED = MAX_LAYERS + 12  # ... the cards its best arrangement melds
S_OPENED = MAX_LAYERS + 13  # initial_meld_min: has made his initial meld this hand (§2D.24)
S_WAIT = MAX_LAYERS + 14  # tonk_wait: his turns still to wait before he may meld (§3.22)
S_DRAWS = MAX_LAYERS + 15  # cards he drew this hand (Continental's quick bonus, §2J.40)
S_LAST_DISCARD = MAX_LAYERS + 16  # his last discard this hand plus 1 (0: none; public, mcN)
N_S = MAX_LAYERS + 17

# ---- scalar columns -------------------------------------------------------------------------
C_STOCK_N = 0
C_STOCK_ORDERED = 1  # 0: the stock is unordered (lazy shuffle); 1: ordered (turned over)
C_DISCARD_N = 2
C_N_MELDS = 3
C_TAKEN = 4  # kind taken from the discard pile this turn, -1 if none
C_PLAN = 5  # a card the bot set aside to discard this turn, -1 if none
C_MELDS_TURN = 6  # melds laid down this turn
C_LAYOFFS_TURN = 7  # cards laid off this turn
C_DRAWS_STOCK = 8
C_DRAWS_DISCARD = 9
C_VIOLATIONS = 10  # audit: invariant violations seen this hand
C_LOG = 11  # 1: write the event log
C_N_EVENTS = 12
C_TURN = 13  # turns played this hand
C_CURRENT = 14  # the seat whose turn it is
C_DEALER = 15
C_REBUILDS = 16  # stock rebuilt from the discard pile
C_MELDS = 17  # melds laid down this hand
C_LAYOFFS = 18  # cards laid off this hand
C_FITS = 19  # natural kinds that fit some table meld
C_SHOE_N = 20  # cards in the shoe
C_COME_ROUND = 21  # the card just drawn from the stock, if it came round (bots.md), else -1
C_UPCARD = 22  # the upcard turned at the deal, -1 if none (Oklahoma's knock limit, spades)
C_SHOE_PRESET = 23  # 1: ``PILE_SHOE`` is a hand-built deal in stock order (replay), dealt as is
C_STEALS_TURN = 24  # table jokers replaced by their natural card this turn (§2B.12)
C_TAKEN2 = 25  # top_plus_one: the second kind taken from the discard pile this turn, -1 if none
C_DRAWN_TURN = 26  # cards drawn this turn (the stock and the discard pile; audit, §2C.16)
C_CALLS = 27  # call_rummy: discards called this hand (§3.2, sim.engine.calls)
C_CALL_TURN = 28  # call_rummy: C_TURN when the current chain of calls began (audit)
C_OPEN_TURN = 29  # initial_meld_min: what this turn's melds count toward the initial meld
C_TOOK_UNOPENED = 30  # only_for_initial_meld: took the discard top before his initial meld
C_TAKEN_MELDED = 31  # a meld laid down this turn holds the card taken from the discard pile
C_JOKERS_OWED = 32  # reuse_same_turn: jokers taken back this turn not yet played (§2B.12)
C_BORROWS_TURN = 33  # borrowing: cards borrowed from table melds this turn (§2D.22)
C_DISCARDS_TURN = 34  # discards this turn (Tonk: going out with or without one, §3.22)
C_WAITING = 35  # tonk_wait: 1 when the player whose turn it is may not meld (§3.22)
C_WAIT_CHARGED = 36  # tonk_wait: the owners (a bit a seat) charged a wait this turn
C_STOCK_CARD = 37  # the card drawn from the stock this turn, -1 if none (§2L.48)
C_LIVE = 38  # Conquian: 1 when the discard pile's top is the exposed card on offer; the
# cards under it were rejected and are out of play (§3.21)
C_STAKE = 39  # Conquian: tentos the hand's winner earns (drawn_hand_carry; game.py sets it)
# where the turn loop stands, so that it can stop for a decision and resume (hand.py, mc.py)
C_STAGE = 40  # hand.STAGE_*: 0 at a turn's start
C_PLAYED_BEFORE = 41  # S_PLAYED of the turn's player at its start (going rummy)
C_MC_ASKED = 42  # mc.Q_*: the last question this turn's player was asked by the loop (0: none)
C_MC_DRAW = 43  # the decided draw: 0 none, 1 the stock, 2 the discard top (used once)
C_MC_CARD = 44  # the decided discard plus 1 (0: none; used once)
C_MC_KNOCK = 45  # with C_MC_CARD: 1 to knock after it
C_FINAL_LEFT = 46  # Carousel: final turns still to play after the stock ran out (§3.16)
C_ROUND_WINNERS = 47  # Carousel: the round's winners, a bit a seat (game.py counts them)
C_MELD_ACTS = 48  # Carousel: meld actions this turn (a meld ends the turn, §3.16)
N_C = 49

# ---- meld columns ---------------------------------------------------------------------------
M_TYPE = 0  # melds.MELD_GROUP or MELD_RUN
M_OWNER = 1
M_LO = 2  # group: its rank; run: its first position
M_LEN = 3
M_SUIT = 4  # run of one suit: the suit; otherwise -1
M_JOKERS = 5
M_SHAPE = 6  # as melds.CA_SHAPE
M_FITS = 7  # natural kinds that could be laid off on it
M_CARDS = 8  # M_CARDS + l: its natural cards' layer l
M_DECLARED = M_CARDS + MAX_LAYERS  # the natural kinds its jokers were declared as (§2B.11)
M_SLID = M_DECLARED + 1  # run: bit p (p = position mod n_positions) holds a joker that slid
M_WILD = M_SLID + 1  # run: 3 bits per position from lo up, the suit + 1 of a 2 standing there
# as a wild card (deuces_wild, §2B.14; its shape digit is JOKER_DIGIT, the 2 itself is among
# the natural cards M_CARDS, M_JOKERS counts the jokers only); 0: none
N_M = M_WILD + 1

# ---- rows -----------------------------------------------------------------------------------
R_SEAT = 0
R_SC = MAX_SEATS
R_MELD = R_SC + 1
N_ROWS = R_MELD + MAX_MELDS
N_COLS = max(N_S, N_C, N_M)

PILE_STOCK = 0
PILE_DISCARD = 1
PILE_SHOE = 2
N_PILES = 3

# ---- the event log ---------------------------------------------------------------------------
EV_TYPE = 0
EV_SEAT = 1
EV_A = 2
EV_B = 3
EV_N = 4  # cards listed from EV_CARDS
EV_CARDS = 5
EV_COLS = EV_CARDS + 16

E_DEAL = 0  # seat, cards = his dealt hand
E_UPCARD = 1  # seat -1, a = card
E_DRAW_STOCK = 2  # a = card, b = 1 for top_plus_one's second card of the turn (§3.7)
E_DRAW_DISCARD = 3  # a = card, b = 1 for top_plus_one's second card of the turn (§3.7)
E_REBUILD = 4  # seat = the player about to draw, a = new stock size, b = new discard top
E_MELD = 5  # a = meld row index, cards
E_LAYOFF = 6  # a = meld row index, b = card
E_DISCARD = 7  # a = card
E_END = 8  # seat = the winner (-1: none), a = end reason
E_SCORE = 9  # seat, a = his points this hand, b = his deadwood
E_KNOCK = 10  # seat, a = his deadwood after the discard
E_SHOW = 11  # seat, a = his deadwood at the showdown, cards = the cards he laid off
E_DECLINE_UPCARD = 12  # seat, a = the upcard he let go (gin's upcard offer)
E_TABLE = 13  # 4-player gin: seat = its team A seat, a = table, b = its team B seat
E_TEAMS = 14  # 4-player gin: a = team A's hand score, b = team B's
E_BLOCK = 15  # seat, a = the discard top he let go with the stock empty (block_*: the end)
E_DECLARE = 16  # a = meld row index, b = the natural card one of its jokers is declared as
E_STEAL = 17  # a = meld row index, b = the natural card put in place of a joker (§2B.12)
E_CALL = 18  # seat = the caller, a = the card he called, b = its discarder (§3.2); then
# the caller's E_LAYOFF of that card and his E_DISCARD
E_SLIDE = 19  # a = meld row index, b = the natural card laid off in the place of an end
# joker of its run, the joker moving to the other end (joker_slide, §2B.13); a lay-off
E_BORROW = 20  # a = the meld row index borrowed from, b = the natural card borrowed
# (borrowing, §2D.22); the E_MELD of the new meld that holds it follows
E_TONK = 21  # seat = an instant tonk (Tonk, §3.22), a = his dealt total, b = 1 when tied
# at the best (the hand is redealt)
E_DROP = 22  # seat = the dropper (Tonk, §3.22), a = his hand total
E_EXPOSE = 23  # seat, a = the stock card he turned up (Conquian, §3.21: public)
E_REJECT = 24  # seat, a = the exposed card he turned down, out of play (Conquian)
E_PASS = 25  # seat, a = the stock card he passed face up onto the discard pile (Conquian)
E_FORCE = 26  # seat = the forcer, a = the discard he forces, b = the forced player (Conquian)
E_USE = 28  # seat, a = the exposed card he uses, b = 1 when it was on offer on the discard
# pile, 0 for the stock card he turned up (Conquian, §3.21); his E_REFORM and E_MELDs follow
E_REFORM = 27  # seat, a = his melds taken up to be formed again with the exposed card
# (Conquian's lay-off or rearranging, §3.21), cards = their cards; his E_MELDs follow
E_REARRANGE = 29  # seat, a = the table melds taken up, b = the hand cards played with them,
# cards = those hand cards (Carousel's meld action, §3.16); the new table's E_MELDs follow
E_FINAL = 30  # seat, a = the final turns left, his included (Carousel's stock-out, §3.16)


@allocating
def new_state():
    """A hand state and its piles (all zero)."""
    return (
        np.zeros((N_ROWS, N_COLS), np.int64),
        np.zeros((N_PILES, MAX_SHOE), np.int64),
    )


@kernel
def fill_shoe(fx, params, st, piles):
    """Write the shoe (every card, kind order) into ``PILE_SHOE``: ``packs`` copies of each
    natural kind of the pack (52, or 40 under ``strip_8_9_10``), then the jokers (RULES.md
    §1.1, §2A.1-2, §2A.7)."""
    n = 0
    kinds = pack_kinds(fx, params)
    for _ in range(rule(fx, params, P_PACKS)):
        for k in range(N_NATURAL):
            if (kinds >> k) & 1:
                piles[PILE_SHOE, n] = k
                n += 1
    for _ in range(rule(fx, params, P_JOKERS)):
        piles[PILE_SHOE, n] = JOKER
        n += 1
    st[R_SC, C_SHOE_N] = n


@kernel
def clear_turn_facts(st):
    """Forget the last turn's facts: no card taken from the discard pile (``C_TAKEN``,
    ``C_TAKEN2``), none planned, nothing came round, nothing melded, laid off or replaced.
    At the start of a turn, and of a call (no one's turn, RULES.md §3.2)."""
    st[R_SC, C_TAKEN] = -1
    st[R_SC, C_TAKEN2] = -1
    st[R_SC, C_PLAN] = -1
    st[R_SC, C_COME_ROUND] = -1
    st[R_SC, C_MELDS_TURN] = 0
    st[R_SC, C_LAYOFFS_TURN] = 0
    st[R_SC, C_STEALS_TURN] = 0
    st[R_SC, C_OPEN_TURN] = 0
    st[R_SC, C_TOOK_UNOPENED] = 0
    st[R_SC, C_TAKEN_MELDED] = 0
    st[R_SC, C_JOKERS_OWED] = 0
    st[R_SC, C_BORROWS_TURN] = 0
    st[R_SC, C_DISCARDS_TURN] = 0
    st[R_SC, C_WAITING] = 0
    st[R_SC, C_WAIT_CHARGED] = 0
    st[R_SC, C_STOCK_CARD] = -1


@kernel
def give(fx, params, st, seat, kind):
    """``seat`` takes one card of ``kind`` into his hand."""
    row = R_SEAT + seat
    st[row, S_N] += 1
    if kind == JOKER:
        st[row, S_JOKERS] += 1
        return
    bit = np.int64(1) << kind
    for l in range(rule(fx, params, P_PACKS)):
        if st[row, S_HAND + l] & bit == 0:
            st[row, S_HAND + l] |= bit
            return


@kernel
def take(fx, params, st, seat, kind):
    """``seat`` gives up one card of ``kind`` (held)."""
    row = R_SEAT + seat
    st[row, S_N] -= 1
    if kind == JOKER:
        st[row, S_JOKERS] -= 1
        return
    bit = np.int64(1) << kind
    for l in range(rule(fx, params, P_PACKS) - 1, -1, -1):
        if st[row, S_HAND + l] & bit != 0:
            st[row, S_HAND + l] &= ~bit
            return


@kernel
def held(fx, params, st, seat, kind):
    """How many cards of ``kind`` ``seat`` holds."""
    row = R_SEAT + seat
    if kind == JOKER:
        return st[row, S_JOKERS]
    n = 0
    for l in range(rule(fx, params, P_PACKS)):
        if (st[row, S_HAND + l] >> kind) & 1:
            n += 1
    return n


@kernel
def log_event(st, events, etype, seat, a, b):
    """Append an event (when logging); returns its row or -1."""
    if st[R_SC, C_LOG] == 0:
        return -1
    i = st[R_SC, C_N_EVENTS]
    if i >= events.shape[0]:
        return -1
    events[i, EV_TYPE] = etype
    events[i, EV_SEAT] = seat
    events[i, EV_A] = a
    events[i, EV_B] = b
    events[i, EV_N] = 0
    st[R_SC, C_N_EVENTS] = i + 1
    return i


@kernel
def log_card(events, row, kind):
    """Add a card to event ``row``'s list."""
    if row >= 0 and events[row, EV_N] < EV_COLS - EV_CARDS:
        events[row, EV_CARDS + events[row, EV_N]] = kind
        events[row, EV_N] += 1
