"""The state of one hand in flat arrays, and the card movements every phase uses.

``HandState`` fields (P = players, K = ``N_KINDS``, S = cards in the shoe,
M = ``MAX_TABLE_MELDS``). There are few, larger arrays on purpose: numba passes a named tuple
as all of its arrays' fields, so every kernel call costs in proportion to their number.

- ``hand``: int64[P, K], cards each player holds, by kind (multi-deck: counts > 1);
- ``pl``: int64[P, N_PL], per player: cards held (``PL_N``), facts of this hand
  (``F_PLAYED``, ``F_HAS_MELDED``, ``F_LAID_OFF_OWN``), ``PL_BITS``, the natural kinds
  held as a bitmask (bit k set when ``hand[p, k] > 0``; kept by ``give``/``take`` for the
  fast paths of ``bits.py``), and in the knock family the last minimum arrangement worked
  out for the player (``PL_ARR_*``, see ``knock_bots.arrange_kept``), and on the bitmask
  fast path ``PL_FITS_OWN``, the natural kinds that would fit one of his table melds (kept
  by ``table.refresh_fits``, with ``sc[SC_FITS_ALL]`` for every table meld), and for
  ``mask_hand.play_mask_hand`` ``PL_MELD_FREE`` and ``PL_PICKED_BITS``;
- ``piles``: int64[N_PILES, S]: row ``PILE_STOCK`` is the stock, top at
  ``[PILE_STOCK, sc[SC_STOCK_N] - 1]`` (while ``sc[SC_STOCK_RANDOM]`` is 1 the remaining
  stock is unordered and each draw picks a uniform card: a lazy Fisher-Yates shuffle; after
  a turn-over it is ordered); row ``PILE_DISCARD`` is the discard pile, top at
  ``[PILE_DISCARD, sc[SC_DISCARD_N] - 1]``; row ``PILE_SHOE`` holds the whole shoe in
  kind order (filled once by ``new_state``; ``fill_stock`` copies it at every deal); row
  ``PILE_SNAPSHOT`` is ``mask_hand``'s record of a position (``mask_hand.watch_for_cycle``);
- ``melds``: int64[M, N_MC], the table melds: ``MC_TYPE``, ``MC_START``, ``MC_LEN``,
  ``MC_SUIT`` (as in ``melds.py``), ``MC_OWNER``, ``MC_FITS`` (bitmask fast path: the
  natural kinds that fit the meld, ``table.meld_fits_bits``), ``MC_DECLARED`` (the natural
  kinds its jokers were declared as, ``joker_declare``: bit k for kind k; a group's k-th
  joker stands for the k-th lowest, an any-suit run's joker for the one of its position's
  rank), then the cards from ``MC_CARDS``;
- ``kinds``: int64[2 + P, K]: row ``KR_SHOE`` is how many cards of each kind the shoe holds
  (for the audit), row ``KR_TMP`` scratch counts, row ``KR_PICKED + p`` the cards player p
  took from the discard pile this hand (public);
- ``sc``: int64[N_SC], scalars (``SC_*``); all but ``SC_LOG`` and ``SC_VALUES_RISE``, which
  ``game.play_games`` sets once per call, are this hand's and ``reset_hand`` clears them;
- ``rng``: uint64[2], the deal stream and the bot stream (``rng.py``);
- ``events``: int64[E, EV_COLS], the event log for replays (``SC_LOG`` = 1);
- ``ws``: the meld search workspace.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from sim.engine.jit import allocating, inline_kernel, kernel
from sim.engine.layout import (
    JOKER,
    N_KINDS,
    N_NATURAL,
    P_DECKS,
    P_JOKERS,
    P_PLAYERS,
)
from sim.engine.melds import CC_CARDS, CC_LEN, CC_START, CC_SUIT, CC_TYPE, N_CC, new_search_work
from sim.engine.rng import below

MAX_SHOE = 4 * N_NATURAL + 16
MAX_TABLE_MELDS = MAX_SHOE // 3 + 1

# pl columns
PL_N = 0  # cards in hand
F_PLAYED = 1  # laid down or laid off a card in an earlier turn of this hand (going rummy)
F_HAS_MELDED = 2  # has laid down a meld this hand (layoff_requires_meld)
F_LAID_OFF_OWN = 3  # has laid off on one of his own melds (layoff_requires_meld)
PL_BITS = 4  # bitmask of the natural kinds held (bit k: hand[p, k] > 0)
PL_ARR_MASK = 5  # knock family: the hand mask whose minimum arrangement is kept below (0: none)
PL_ARR_DW = 6  # ... its minimum deadwood
PL_ARR_GROUPS = 7  # ... its cards in groups
PL_ARR_RUNS = 8  # ... its cards in runs
PL_FITS_OWN = 9  # bitmask fast path: natural kinds that fit one of his table melds
PL_MELD_FREE = 10  # mask_hand: a card set known to hold no meld (any hand inside it melds nothing)
PL_PICKED_BITS = 11  # mask_hand: the cards he took from the discard pile this hand (KR_PICKED)
N_PL = 12

# piles rows
PILE_STOCK = 0
PILE_DISCARD = 1
PILE_SHOE = 2  # the whole shoe in kind order: what fill_stock puts in the stock
PILE_SNAPSHOT = 3  # mask_hand: a position kept to recognise a hand that repeats itself
N_PILES = 4

# melds columns: the first ones match melds.CC_* so a meld row can be copied as is
MC_TYPE = CC_TYPE
MC_START = CC_START
MC_LEN = CC_LEN
MC_SUIT = CC_SUIT
MC_CARDS = CC_CARDS
MC_OWNER = N_CC
MC_FITS = N_CC + 1  # bitmask fast path: natural kinds that could be laid off on the meld
MC_DECLARED = N_CC + 2  # mask of the natural kinds the meld's jokers were declared as (§2B.11)
N_MC = N_CC + 3

# kinds rows
KR_SHOE = 0
KR_TMP = 1
KR_PICKED = 2

# sc slots
SC_STOCK_N = 0
SC_STOCK_RANDOM = 1
SC_DISCARD_N = 2
SC_N_MELDS = 3
SC_TAKEN = 4  # kind taken from the discard pile this turn, -1 if none
SC_PLAN = 5  # a card the bot has set aside to discard this turn, -1 if none
SC_MELDS_TURN = 6  # melds laid down this turn
SC_LAYOFFS_TURN = 7  # cards laid off this turn
SC_DRAWS_STOCK = 8
SC_DRAWS_DISCARD = 9
SC_VIOLATIONS = 10  # audit: invariant violations seen
SC_LOG = 11  # 1: write the event log
SC_N_EVENTS = 12
SC_TURN = 13
SC_CURRENT = 14
SC_REBUILDS = 15  # stock rebuilt from the discard pile
SC_STEALS_TURN = 16  # table jokers replaced this turn
SC_UPCARD = 17  # knock family: the upcard of this deal (-1: none)
SC_KNOCK_LIMIT = 18  # knock family: most deadwood a knocker may keep this hand (-1: no limit)
SC_SITTING_OUT = 19  # 3-player gin: the dealer's seat, who sits this hand out (-1: nobody)
SC_FITS_ALL = 20  # bitmask fast path: natural kinds that fit some table meld (refresh_fits)
SC_VALUES_RISE = 21  # 1: card values never fall as the natural kind rises (set per call)
SC_MASK_HAND = 22  # 1: play_hand played this hand with mask_hand.play_mask_hand
SC_TURNS_SKIPPED = 23  # mask_hand: turns of a repeating position counted, not played
N_SC = 24

# event log columns and types
EV_TYPE = 0
EV_PLAYER = 1
EV_A = 2
EV_B = 3
EV_N = 4  # cards listed from EV_CARDS
EV_CARDS = 5
EV_COLS = EV_CARDS + 16

E_DEAL = 0  # player, cards = his dealt hand
E_UPCARD = 1  # a = card
E_DRAW_STOCK = 2  # a = card
E_DRAW_DISCARD = 3  # a = card
E_REBUILD = 4  # a = new stock size, b = new discard top
E_MELD = 5  # a = meld index, cards
E_LAYOFF = 6  # a = meld index, b = card
E_STEAL = 7  # a = meld index, b = natural card put in place of the joker
E_DISCARD = 8  # a = card
E_DECLINE = 9  # declined the discard with an empty stock (block)
E_END = 10  # a = reason, b = winner
E_SCORE = 11  # player, a = value in hand, b = hand score
E_FORCED_TAKE = 12  # took the only card left (discard top) because no stock could be rebuilt
E_KNOCK = 13  # knock family: player knocked, a = deadwood after his discard
E_SHOW = 14  # knock family: player's showdown, a = deadwood after lay-offs, cards = laid off
E_DECLINE_UPCARD = 15  # gin opening: player let the offered upcard go
E_DECLARE = 16  # a = meld index, b = natural card a joker of the meld is declared as
E_TABLE = 17  # 4-player gin: player = team A's seat, a = table, b = team B's seat (§3.19)
E_TEAMS = 18  # 4-player gin: a = team A's hand score, b = team B's (seats 0+2, 1+3)

HandState = namedtuple(
    "HandState", ["hand", "pl", "piles", "melds", "kinds", "sc", "rng", "events", "ws"]
)


@allocating
def new_state(params, events):
    """Allocate a HandState for ``params[P_PLAYERS]`` players; ``events`` (int64[E, EV_COLS])
    becomes its event log."""
    players = params[P_PLAYERS]
    kinds = np.zeros((KR_PICKED + players, N_KINDS), np.int64)
    for k in range(N_NATURAL):
        kinds[KR_SHOE, k] = params[P_DECKS]
    kinds[KR_SHOE, JOKER] = params[P_JOKERS]
    piles = np.zeros((N_PILES, MAX_SHOE), np.int64)
    n = 0
    for k in range(N_KINDS):
        for _ in range(kinds[KR_SHOE, k]):
            piles[PILE_SHOE, n] = k
            n += 1
    return HandState(
        np.zeros((players, N_KINDS), np.int64),
        np.zeros((players, N_PL), np.int64),
        piles,
        np.zeros((MAX_TABLE_MELDS, N_MC), np.int64),
        kinds,
        np.zeros(N_SC, np.int64),
        np.zeros(2, np.uint64),
        events,
        new_search_work(),
    )


@kernel
def values_rise(values):
    """1 when ``values[k]`` never falls as the natural kind ``k`` rises (ace low: the
    highest kind held is worth the most), else 0."""
    for k in range(1, N_NATURAL):
        if values[k] < values[k - 1]:
            return 0
    return 1


@inline_kernel
def log_event(st, etype, player, a, b):
    """Append an event (when logging); returns its row or -1."""
    if st.sc[SC_LOG] == 0:
        return -1
    row = st.sc[SC_N_EVENTS]
    if row >= st.events.shape[0]:
        return -1
    st.events[row, EV_TYPE] = etype
    st.events[row, EV_PLAYER] = player
    st.events[row, EV_A] = a
    st.events[row, EV_B] = b
    st.events[row, EV_N] = 0
    st.sc[SC_N_EVENTS] = row + 1
    return row


@inline_kernel
def log_card(st, row, kind):
    """Add a card to the list of event ``row``."""
    if row < 0:
        return
    n = st.events[row, EV_N]
    if EV_CARDS + n < EV_COLS:
        st.events[row, EV_CARDS + n] = kind
        st.events[row, EV_N] = n + 1


# ---- the stock and the discard pile ----------------------------------------------------


@inline_kernel
def shoe_size(params):
    """Cards in the shoe: every pack and the jokers."""
    return N_NATURAL * params[P_DECKS] + params[P_JOKERS]


@kernel
def fill_stock(st, params, preset):
    """Put the whole shoe in the stock: shuffled lazily, or in the order of ``preset``
    (top card last) when ``preset`` is not empty."""
    if preset.shape[0] > 0:
        for i in range(preset.shape[0]):
            st.piles[PILE_STOCK, i] = preset[i]
        st.sc[SC_STOCK_N] = preset.shape[0]
        st.sc[SC_STOCK_RANDOM] = 0
        return
    n = shoe_size(params)
    for i in range(n):
        st.piles[PILE_STOCK, i] = st.piles[PILE_SHOE, i]
    st.sc[SC_STOCK_N] = n
    st.sc[SC_STOCK_RANDOM] = 1


@inline_kernel
def pop_stock(st):
    """Take the top card of the stock (a uniform remaining card while it is unordered)."""
    n = st.sc[SC_STOCK_N]
    if st.sc[SC_STOCK_RANDOM] == 1:
        j = below(st.rng[0:1], n)
        tmp = st.piles[PILE_STOCK, j]
        st.piles[PILE_STOCK, j] = st.piles[PILE_STOCK, n - 1]
        st.piles[PILE_STOCK, n - 1] = tmp
    st.sc[SC_STOCK_N] = n - 1
    return st.piles[PILE_STOCK, n - 1]


@inline_kernel
def push_discard(st, kind):
    st.piles[PILE_DISCARD, st.sc[SC_DISCARD_N]] = kind
    st.sc[SC_DISCARD_N] += 1


@inline_kernel
def discard_top(st):
    """The top of the discard pile, or -1 when it is empty."""
    n = st.sc[SC_DISCARD_N]
    return st.piles[PILE_DISCARD, n - 1] if n > 0 else -1


@inline_kernel
def pop_discard(st):
    st.sc[SC_DISCARD_N] -= 1
    return st.piles[PILE_DISCARD, st.sc[SC_DISCARD_N]]


@inline_kernel
def give(st, player, kind):
    """One card of ``kind`` into ``player``'s hand."""
    st.hand[player, kind] += 1
    st.pl[player, PL_N] += 1
    if kind < N_NATURAL:
        st.pl[player, PL_BITS] |= 1 << kind


@inline_kernel
def take(st, player, kind):
    """One card of ``kind`` out of ``player``'s hand."""
    st.hand[player, kind] -= 1
    st.pl[player, PL_N] -= 1
    if kind < N_NATURAL and st.hand[player, kind] == 0:
        st.pl[player, PL_BITS] &= ~(1 << kind)


@inline_kernel
def discard_allowed(st, player, kind):
    """A card may be discarded unless it is the card taken from the discard pile this turn
    (an identical copy from another pack may be; RULES.md §1.5)."""
    if st.hand[player, kind] == 0:
        return False
    if kind == st.sc[SC_TAKEN]:
        return st.hand[player, kind] >= 2
    return True


@kernel
def has_allowed_discard(st, player):
    for k in range(N_KINDS):
        if st.hand[player, k] > 0 and discard_allowed(st, player, k):
            return True
    return False
