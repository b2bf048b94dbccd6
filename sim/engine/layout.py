"""Integer layout shared by the Python layer and the numba kernels.

The kernels take the rules as one ``int64`` array ``params`` indexed by the ``P_*``
constants below, plus ``card_values`` (``int64[N_KINDS]``, the penalty value of
each card kind in hand, RULES.md §1.9) and ``bots`` (``int64[players]``, one
``BOT_*`` code per seat). Every option value is a small integer code declared
here once; ``sim.rules.compile`` maps the validated rules model onto them.

Module-level constants are frozen into compiled kernels, so this module holds
only constants and must stay import-light.
"""

from __future__ import annotations

from sim.cards import JOKER, N_KINDS, N_NATURAL, N_RANKS, N_SUITS  # noqa: F401 (re-export)

# ---- params slots -----------------------------------------------------------
P_PLAYERS = 0  # seats at the table, 2..12
P_HAND_SIZE = 1  # cards dealt to each player (§1.4)
P_DECKS = 2  # 52-card packs shuffled together (§2A.1)
P_JOKERS = 3  # jokers in the whole shoe (§2A.2)
P_ACE_RANK = 4  # ACE_* (§2A.4)
P_RUN_SUIT = 5  # RUN_SAME_SUIT | RUN_ANY_SUIT (§2A.6)
P_GROUP_DUPLICATES = 6  # 0 forbidden, 1 allowed (§2B.9)
P_JOKER_REPLACE = 7  # JREPLACE_* (§2B.12)
P_MELDS_PER_TURN = 8  # MELDS_* (§2D.19)
P_LAYOFF_TARGET = 9  # LAYOFF_* (§2D.20)
P_LAYOFF_REQUIRES = 10  # LREQ_* (§2D.21)
P_MUST_DISCARD_TO_GO_OUT = 11  # 0/1 (§2E.26)
P_GOING_RUMMY = 12  # RUMMY_* (§2E.27)
P_RUMMY_BONUS = 13  # N for RUMMY_BONUS
P_STOCK_EXHAUSTION = 14  # STOCK_* (§2F.28)
P_SCORING = 15  # SCORE_* (§2G.29)
P_GAME_END = 16  # END_* (§2H.30)
P_GAME_END_VALUE = 17  # T, N or L of the game_end option
P_DEALER_ROTATION = 18  # DEALER_* (§2H.31)
P_TURN_CAP = 19  # engine policy: turns per hand before the hand is recorded as stalled (§1.8)
P_HAND_CAP = 20  # engine policy: hands per game before the game is recorded as capped
P_AUDIT = 21  # 1: check invariants after every action and count violations
P_MELD_TIMING = 22  # TIMING_* (§2D.18); the standard-rummy engine supports progressive
P_UPCARD = 23  # 1: turn an upcard after the deal (§2C.15)
P_SEAT_ROTATION = 24  # runner: added to each game's drawn first dealer (mirrored deals)
P_DEAL_PER_GAME = 25  # runner: 0 deal = first_deal + hand index; 1 deal = game * stride + hand
P_FAMILY = 26  # FAMILY_*: which game the variant is (progressive rummy, knock rummy, gin)
P_KNOCK_LIMIT = 27  # §2I.32: most deadwood a knocker may keep; KNOCK_UNLIMITED, KNOCK_UPCARD or N
P_GIN_OPENING = 28  # GIN_OPENING_* (§2I.33)
P_GIN_BONUS = 29  # §2I.34: points for going gin
P_UNDERCUT_BONUS = 30  # §2I.35: points for undercutting the knocker
P_BOX_BONUS = 31  # §2I.36: points per hand won, added at game end
P_SHUTOUT = 32  # SHUTOUT_* (§2I.37)
P_SPADE_DOUBLE = 33  # 0/1 (§2I.38): a spade upcard doubles the hand
P_OKLAHOMA_EXTRA = 34  # 0/1 (§2I.39): Oklahoma's side bonuses
P_JOKER_DECLARE = 35  # JDECLARE_* (§2B.11)
N_PARAMS = 36

GAME_DEAL_STRIDE = 1 << 20  # deal numbers per game under P_DEAL_PER_GAME (> any hand cap)

# ---- option codes -------------------------------------------------------------
ACE_LOW = 0
ACE_HIGH = 1
ACE_HIGH_OR_LOW = 2
ACE_AROUND_CORNER = 3

RUN_SAME_SUIT = 0
RUN_ANY_SUIT = 1

JREPLACE_NONE = 0
JREPLACE_TO_HAND = 1
JREPLACE_REUSE_SAME_TURN = 2
JREPLACE_STEAL = 3

JDECLARE_INFERRED = 0  # runs fix a joker by position, a 4-card group as the missing suit
JDECLARE_THREE_CARD_GROUP = 1  # a 3-card group's jokers are declared when it is laid down
JDECLARE_ALWAYS = 2  # every joker in a group or an any-suit run is declared

MELDS_UNLIMITED = 0
MELDS_ONE = 1
MELDS_ONE_OR_LAYOFF = 2

LAYOFF_ANY = 0
LAYOFF_OWN_ONLY = 1
LAYOFF_NONE = 2

LREQ_OFF = 0
LREQ_AFTER_FIRST_MELD = 1
LREQ_AFTER_OWN_LAYOFF = 2

RUMMY_OFF = 0
RUMMY_DOUBLE = 1
RUMMY_BONUS = 2

STOCK_TURN_OVER = 0
STOCK_SHUFFLE_EXCEPT_TOP = 1
STOCK_BLOCK_DIFFERENCE = 2
STOCK_BLOCK_TOTALS = 3
STOCK_VOID_AT_TWO = 4  # gin family: the hand is void when two stock cards are left (§3.17)

SCORE_PIP_TO_WINNER = 0
SCORE_PER_CARD = 1
SCORE_PENALTY = 2

END_TARGET = 0
END_FIXED_HANDS = 1
END_SINGLE_HAND = 2
END_PENALTY_LIMIT = 3

DEALER_LEFT = 0
DEALER_WINNER_DEALS = 1
DEALER_LOSER_SITS_OUT = 2

FAMILY_RUMMY = 0  # progressive melding (§1, §3.1-3.5)
FAMILY_KNOCK_RUMMY = 1  # §3.10: melds stay in hand, knock, differences, rum bonus
FAMILY_GIN = 2  # §3.17, §3.20: knock or gin, the defender lays off, undercut, game bonuses

KNOCK_UNLIMITED = -1  # §2I.32 knock_limit = unlimited
KNOCK_UPCARD = -2  # §2I.32 knock_limit = upcard (Oklahoma)

GIN_OPENING_UPCARD_OFFER = 0  # §3.17 opening: the upcard is offered to each player in turn
GIN_OPENING_DEAL_11_10 = 1  # the non-dealer gets 11 cards and opens by discarding

SHUTOUT_GAME_BONUS_200 = 0  # §2I.37: the game bonus becomes 200
SHUTOUT_DOUBLE_ALL = 1  # §2I.37: the winner's final total is doubled

GAME_BONUS = 100  # §3.17: bonus for winning a gin game (200 on a shutout)
SHUTOUT_GAME_BONUS = 200
RUM_BONUS = 25  # §3.10 rule 2: a hand won with 0 deadwood collects 25 from each opponent
KNOCK_PENALTY = 10  # §3.10 rule 4: an undercut knocker pays 10

TIMING_PROGRESSIVE = 0
TIMING_ALL_AT_ONCE = 1
TIMING_KNOCK = 2

# ---- bots -----------------------------------------------------------------------
BOT_RANDOM = 0
BOT_GREEDY = 1
BOT_CAREFUL = 2
BOT_SIMPLE = 3  # the reference gin bot (knock family only, docs/bots.md)
BOT_NAMES = ("random", "greedy", "careful", "simple")

# ---- how a hand ended (hands.end_reason) ---------------------------------------
REASON_WENT_OUT = 0
REASON_WENT_RUMMY = 1
REASON_BLOCK = 2
REASON_STALLED = 3  # turn cap reached: no score (engine policy, §1.8)
REASON_EXHAUSTED = 4  # no card left to draw anywhere: no score (engine policy)
REASON_KNOCK = 5  # knock family: the knocker had the lowest count and won
REASON_GIN = 6  # knock family: the winner had no deadwood (gin; "rum" in knock rummy)
REASON_UNDERCUT = 7  # knock family: an opponent tied or beat the knocker and won
REASON_VOID = 8  # gin: two stock cards left and no knock; no score, same dealer (§3.17)
REASON_NAMES = (
    "went_out",
    "went_rummy",
    "block",
    "stalled",
    "exhausted",
    "knock",
    "gin",
    "undercut",
    "void",
)

# ---- table melds ------------------------------------------------------------------
MELD_GROUP = 0
MELD_RUN = 1
MAX_MELD_CARDS = 16  # a run holds at most 13 cards; a group at most 4 * decks + jokers

# ---- kernel outputs ----------------------------------------------------------------
# hands table: int64[n, N_HCOLS], plus int64[n, players] hand scores and running totals
H_GAME = 0  # game number within the run (first_game + i)
H_HAND = 1  # hand number within its game, from 0
H_DEAL = 2  # deal number: the shuffle depends only on (seed, shard, deal)
H_DEALER = 3
H_TURNS = 4
H_DRAWS_STOCK = 5
H_DRAWS_DISCARD = 6
H_END_REASON = 7  # REASON_*
H_WINNER = 8  # seat, or -1
H_VIOLATIONS = 9  # audit violations during this hand
N_HCOLS = 10

# games table: int64[n, N_GCOLS], plus int64[n, players] final scores
G_GAME = 0
G_HANDS = 1
G_WINNER = 2  # seat, or -1 when the hand cap cut a tied game
G_LEAD_CHANGES = 3
G_CAPPED = 4  # 1 when the game hit the hand cap
N_GCOLS = 5

# counters: int64[N_COUNTERS]
C_HANDS = 0
C_GAMES = 1
C_VIOLATIONS = 2
C_TURNS = 3
C_EVENTS = 4
C_MASK_HANDS = 5  # hands played by mask_hand.play_mask_hand (the rest by the general loop)
C_SKIPPED_TURNS = 6  # turns of repeating stalled hands counted without playing them (mask_hand)
N_COUNTERS = 7
