"""What ``play`` writes: the dataset's row layouts and their codes (constants only).

The kernels fill plain ``int64`` arrays (``sim.engine.api.Played``); the runner turns them into the
dataset's tables (``sim.dataset.schema``), which name the columns below. The codes of how a
hand ended (``REASON_*``) and of the bots (``BOT_*``) are the dataset's: a new value is
appended, never renumbered, and the schema's version is bumped.
"""

from __future__ import annotations

# ---- bots --------------------------------------------------------------------------------
BOT_RANDOM = 0
BOT_GREEDY = 1
BOT_CAREFUL = 2
BOT_SIMPLE = 3  # the reference gin bot (knock families only, docs/bots.md)
# careful with one restriction each (docs/bots.md, "Restricted play"; ``layout.BOT_PLAYS``)
BOT_CAREFUL_NODISCARDTAKE = 4
BOT_CAREFUL_NOLAYOFF = 5
BOT_CAREFUL_OUTFIRST = 6
BOT_CAMPER = 7
# Monte Carlo: N sampled deals a candidate move (docs/bots.md, "mcN"; ``layout.BOT_PLAYS``)
BOT_MC32 = 8
BOT_MC128 = 9
BOT_NAMES = (
    "random",
    "greedy",
    "careful",
    "simple",
    "careful-nodiscardtake",
    "careful-nolayoff",
    "careful-outfirst",
    "camper",
    "mc32",
    "mc128",
)
"""Every bot's name, by code: the one list the runner, the CLI and the docs read. A name
is made of ``[a-z0-9_.+-]`` only (it goes into arm folder names)."""
MC_BOTS = ("mc32", "mc128")
"""The Monte Carlo bots (docs/bots.md, "mcN"): N playouts a candidate move, so hundreds of
times slower than the others; a ladder plays them only when named."""

# ---- how a hand ended (hands.end_reason) -------------------------------------------------
REASON_WENT_OUT = 0
REASON_WENT_RUMMY = 1
REASON_BLOCK = 2  # block_*: the stock ran out and the discard was declined (§2F.28)
REASON_STALLED = 3  # turn cap reached: no score (engine policy, §1.8)
REASON_EXHAUSTED = 4  # no card left to draw anywhere: no score (engine policy)
REASON_KNOCK = 5  # knock family: the knocker had the lowest count and won
REASON_GIN = 6  # knock family: the winner had no deadwood (gin; "rum" in knock rummy)
REASON_UNDERCUT = 7  # knock family: an opponent tied or beat the knocker and won
REASON_VOID = 8  # gin: two stock cards left and no knock; no score, same dealer (§3.17)
REASON_TONK = 9  # tonk: an instant tonk at the deal; the hand is not played (§3.22)
REASON_DROP = 10  # tonk: a drop by the strictly lowest hand (§3.22)
REASON_CAUGHT = 11  # tonk: a drop by a hand that was not strictly the lowest (§3.22)
REASON_STOCK_OUT = 12  # tonk: the stock ran out; the lowest hand collects (§2L.55)
REASON_REDEAL = 13  # tonk: tied instant tonks, or tonk_stock_out = redeal: no chips, same dealer
REASON_WENT_U = 14  # phom: a player melded his whole hand (Ù) and collects (§3.13)
REASON_SHOWDOWN = 15  # phom: four turns each, then the garbage counts rank the players (§3.13)
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
    "tonk",
    "drop",
    "caught",
    "stock_out",
    "redeal",
    "went_u",
    "showdown",
)

GAME_DEAL_STRIDE = 1 << 20  # deal numbers per game under deal_per_game (> any hand cap)

# ---- the hands table: int64[n, N_HCOLS], plus int64[n, players] scores, totals, sides ----
H_GAME = 0  # game number within the run (first_game + i)
H_HAND = 1  # hand number within its game, from 0
H_DEAL = 2  # deal number: the shuffle depends only on (seed, shard, deal)
H_DEALER = 3
H_END_REASON = 4  # REASON_*
H_WINNER = 5  # seat, or -1
# the hand's counts (``hand.count_hand``; a partnership hand: both tables' sums), in order
H_TURNS = 6
H_DRAWS_STOCK = 7
H_DRAWS_DISCARD = 8
H_MELDS = 9  # melds laid down (the knock family's showdown included)
H_LAYOFFS = 10  # cards laid off (the showdown's and calls' included)
H_REBUILDS = 11  # times the stock was rebuilt from the discard pile (§2F)
H_VIOLATIONS = 12  # audit violations during this hand
H_MOM_SEATS = 13  # phom: bit s set when seat s showed no meld at the showdown (móm, §3.13)
N_HCOLS = 14

# ---- the games table: int64[n, N_GCOLS], plus int64[n, players] final scores ------------
G_GAME = 0
G_HANDS = 1
G_WINNER = 2  # seat, or -1 when the hand cap cut a tied game
G_LEAD_CHANGES = 3
G_CAPPED = 4  # 1 when the game hit the hand cap
N_GCOLS = 5

# ---- counters: int64[N_COUNTERS] ---------------------------------------------------------
C_HANDS = 0
C_GAMES = 1
C_VIOLATIONS = 2
C_TURNS = 3
C_EVENTS = 4
N_COUNTERS = 5
