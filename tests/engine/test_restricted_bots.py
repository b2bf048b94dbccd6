"""The restricted-play bots and camper (docs/bots.md, "Restricted play"): careful with one
restriction each (``layout.BOT_PLAYS``, ``sim.engine.restrict``). For each, a hand-built
deal or position on which it parts from careful exactly where its restriction says, and
nowhere else on that deal."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import kernel_bots, play
from sim.engine.bots import knock_discard, play_table, wants_call
from sim.engine.knock_policy import CAMPER_KNOCK_TURNS
from sim.engine.specs import GENERIC

from .helpers import (
    CAREFUL,
    GREEDY,
    blank_state,
    compiled,
    deal,
    events_of,
    no_violations,
    play_deal,
)

NODISCARDTAKE = R.BOT_CAREFUL_NODISCARDTAKE
NOLAYOFF = R.BOT_CAREFUL_NOLAYOFF
OUTFIRST = R.BOT_CAREFUL_OUTFIRST
CAMPER = R.BOT_CAMPER
NEW_BOTS = (NODISCARDTAKE, NOLAYOFF, OUTFIRST, CAMPER)


def test_every_bot_code_has_a_name_and_a_play():
    assert len(R.BOT_NAMES) == len(set(R.BOT_NAMES)) == len(L.BOT_PLAYS)
    for code in NEW_BOTS:
        assert L.BOT_PLAYS[code][0] == R.BOT_CAREFUL and L.BOT_PLAYS[code][1] != 0
    for name in R.BOT_NAMES:
        assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789_.+-")
    bots = kernel_bots(np.array([CAMPER, GREEDY, NOLAYOFF]))
    assert bots.tolist() == [
        R.BOT_CAREFUL,
        R.BOT_GREEDY,
        R.BOT_CAREFUL,
        L.RESTRICT_CAMPER,
        0,
        L.RESTRICT_NO_LAYOFF,
    ]


def _first_turn(out, seat):
    """``seat``'s events of his first turn, up to his first discard or knock: (type, a)."""
    turn = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if who != seat or etype in (S.E_DEAL, S.E_UPCARD):
            continue
        turn.append((etype, int(row[S.EV_A])))
        if etype in (S.E_DISCARD, S.E_KNOCK):
            return turn
    raise AssertionError("no discard")


# ---- careful-nodiscardtake -------------------------------------------------------------------
# Seat 0 plays first; careful takes the upcard 4h (a low card that adds two outs beside 3h,
# test_careful.py), careful-nodiscardtake draws the stock's Kd instead.
_LOW_CONNECTOR = deal(
    ["3h Kc Qd 9s 7c Jd 2s 6d 8h Tc", "Ah As Ad 5c 5s Js Qh Ks 9d 7d"],
    "4h",
    "Kd 2c 3c 3d 4s 6c",
    dealer=1,
)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("bot", "draw"),
    [(CAREFUL, (S.E_DRAW_DISCARD, "4h")), (NODISCARDTAKE, (S.E_DRAW_STOCK, "Kd"))],
)
def test_nodiscardtake_draws_the_stock_where_careful_takes_the_discard(bot, draw):
    params, values = compiled()
    out = play_deal(_LOW_CONNECTOR, params, values, bots=[bot, GREEDY])
    assert _first_turn(out, 0)[0] == (draw[0], parse_card(draw[1]))
    no_violations(out)


# Gin: the non-dealer is offered the upcard 7h, which makes his run 5h 6h 7h: careful takes
# it, careful-nodiscardtake declines it (the dealer, greedy, then declines it too).
_GIN_UPCARD = deal(
    ["5h 6h Kc Qd 9s 2c Jd 2s 8d Tc", "Ah As Ad 5c 5s Js Qh Ks 9d 7d"],
    "7h",
    "Kd 3c 4c 3d 4s 6c",
    dealer=1,
)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("bot", "first"), [(CAREFUL, S.E_DRAW_DISCARD), (NODISCARDTAKE, S.E_DECLINE_UPCARD)]
)
def test_nodiscardtake_declines_the_gin_upcard_careful_takes(bot, first):
    params, values = compiled("gin_rummy")
    out = play_deal(_GIN_UPCARD, params, values, bots=[bot, GREEDY])
    assert _first_turn(out, 0)[0] == (first, parse_card("7h"))
    no_violations(out)


# ---- careful-nolayoff ------------------------------------------------------------------------
# Seat 1 (greedy, first to play) lays down 8h 8d 8c and Jh Jd Jc and discards Ks; seat 0
# draws 6s and holds 8s, which fits the eights: careful lays it off, careful-nolayoff keeps it.
_EIGHT_FITS = deal(
    ["9h Th 7c 2s 8s 3c 4c 5s 5d Ac", "Jh Jd Jc 8h 8d 8c Ks 2h 4h 6d"],
    "Qs",
    "9c 6s 7d 7s Kc Kh",
    dealer=0,
)


@pytest.mark.nojit
@pytest.mark.parametrize(("bot", "lays_off"), [(CAREFUL, True), (NOLAYOFF, False)])
def test_nolayoff_keeps_the_card_careful_lays_off(bot, lays_off):
    params, values = compiled()
    out = play_deal(_EIGHT_FITS, params, values, bots=[bot, GREEDY])
    turn = _first_turn(out, 0)
    assert turn[0] == (S.E_DRAW_STOCK, parse_card("6s"))
    laid = [e for e in events_of(out, S.E_LAYOFF) if e[0] == 0]
    assert ((S.E_LAYOFF, laid[0][1]) in turn if laid else False) == lays_off
    if not lays_off:
        assert laid == []  # not in this hand at all
    no_violations(out)


def _call_position(params):
    """Seat 0 discarded 8s, which fits the table's 8h 8d 8c; seat 1 may call it."""
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    S.clear_turn_facts(st)
    return st, piles


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("bot", "calls"), [(CAREFUL, True), (NOLAYOFF, False), (NODISCARDTAKE, False)]
)
def test_a_call_is_a_take_and_a_lay_off_the_restricted_bots_refuse(bot, calls):
    params, values = compiled("call_rummy")
    st, piles = _call_position(params)
    bots = kernel_bots(np.array([GREEDY, bot]))
    rng = np.zeros(2, np.uint64)
    work = M.new_work()
    card = parse_card("8s")
    got = wants_call(GENERIC, params, values, bots, st, piles, rng, work, 1, card)
    assert bool(got) == calls


# ---- careful-outfirst and camper in the knock family -----------------------------------------
def _knock_position(hand: str, stock_n: int, turn: int):
    """Gin, seat 0 to discard holding ``hand`` (11 cards), ``stock_n`` stock cards left,
    ``turn`` turns played this hand, the next player has taken no discard."""
    params, values = compiled("gin_rummy", audit=False)
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    S.clear_turn_facts(st)
    st[S.R_SC, S.C_UPCARD] = -1
    for k in parse_cards(hand):
        S.give(GENERIC, params, st, 0, k)
    st[S.R_SC, S.C_STOCK_N] = stock_n
    st[S.R_SC, S.C_TURN] = turn
    return params, values, st, piles


def _knock(bot, hand, stock_n, turn):
    params, values, st, piles = _knock_position(hand, stock_n, turn)
    bots = kernel_bots(np.array([bot, GREEDY]))
    rng = np.zeros(2, np.uint64)
    card, knock = knock_discard(GENERIC, params, values, bots, st, piles, rng, M.new_work(), 0)
    return int(card), bool(knock)


FIVE_LEFT = "Ah 2h 3h 4s 5s 6s 7d 8d 9d Kc 5c"  # Kc goes: 5 deadwood (5c)


@pytest.mark.nojit
def test_outfirst_knocks_late_where_careful_waits():
    # late in the hand (8 stock cards), 5 deadwood after the discard, the next player has
    # taken nothing: careful waits (docs/bots.md), careful-outfirst knocks
    assert not _knock(CAREFUL, FIVE_LEFT, 8, 20)[1]
    assert _knock(OUTFIRST, FIVE_LEFT, 8, 20) == (parse_card("Kc"), True)
    # early both knock; past the limit neither does
    assert _knock(CAREFUL, FIVE_LEFT, 25, 2)[1] and _knock(OUTFIRST, FIVE_LEFT, 25, 2)[1]
    over = "Ah 2h 3h 4s 5s 6s 7d 8d Kd Kc 5c"  # 25 deadwood after the Kc
    assert not _knock(OUTFIRST, over, 25, 2)[1]


@pytest.mark.nojit
def test_camper_knocks_only_in_its_first_three_turns_then_only_with_gin():
    early = CAMPER_KNOCK_TURNS * 2 - 1  # its third turn (2 players)
    late = CAMPER_KNOCK_TURNS * 2
    assert _knock(CAMPER, FIVE_LEFT, 25, 0)[1]
    assert _knock(CAMPER, FIVE_LEFT, 8, early)[1]  # within its first three turns: knocks
    assert _knock(CAREFUL, FIVE_LEFT, 25, late)[1]  # careful knocks early in the stock ...
    assert not _knock(CAMPER, FIVE_LEFT, 25, late)[1]  # ... camper now plays for gin
    low = "Ah 2h 3h 4s 5s 6s 7d 8d 9d Kc 2c"  # 2 deadwood: careful always knocks
    assert _knock(CAREFUL, low, 8, late)[1] and not _knock(CAMPER, low, 8, late)[1]
    # gin (the discard leaves no deadwood) goes at any turn
    gin = "Ah 2h 3h 4s 5s 6s 7c 8c 9c Tc Kd"
    assert _knock(CAMPER, gin, 8, 40) == (parse_card("Kd"), True)


# ---- progressive rummy: outfirst and camper's holds -------------------------------------------
def _table_position(going_rummy: str, opponent: str, turn: int, stock_n: int):
    params, values, st, piles = blank_state(players=2, going_rummy=going_rummy)
    st[S.R_SC, S.C_PLAN] = -1
    for k in parse_cards(opponent):
        S.give(GENERIC, params, st, 1, k)
    for k in parse_cards("4h 5h 6h 9c Kd"):  # two cards would be left after the run
        S.give(GENERIC, params, st, 0, k)
    st[S.R_SC, S.C_TURN] = turn
    st[S.R_SC, S.C_STOCK_N] = stock_n
    return params, values, st, piles


def _lays_down(bot, going_rummy="double", opponent="2c 3d 7s 8d Jc", turn=0, stock_n=20):
    params, values, st, piles = _table_position(going_rummy, opponent, turn, stock_n)
    bots = kernel_bots(np.array([bot, GREEDY]))
    rng = np.zeros(2, np.uint64)
    events = np.zeros((1, S.EV_COLS), np.int64)
    play_table(GENERIC, params, values, bots, st, piles, rng, events, M.new_work(), 0)
    return int(st[S.R_SC, S.C_N_MELDS]) > 0


@pytest.mark.nojit
def test_outfirst_lays_down_where_careful_holds_for_a_rummy():
    assert not _lays_down(CAREFUL)  # holds: two cards would be left
    assert _lays_down(OUTFIRST)


@pytest.mark.nojit
def test_camper_holds_past_careful_s_turns_and_without_a_rummy_bonus():
    late = 6 * 2  # careful holds during each player's first 6 turns only
    assert _lays_down(CAREFUL, turn=late)
    assert not _lays_down(CAMPER, turn=late)
    assert _lays_down(CAREFUL, going_rummy="off")
    assert not _lays_down(CAMPER, going_rummy="off")


@pytest.mark.nojit
def test_camper_lays_down_when_the_hand_would_otherwise_be_lost():
    # an opponent with 2 cards or fewer, or the stock down to 2 cards per player
    assert _lays_down(CAMPER, opponent="2c 3d")
    assert not _lays_down(CAMPER, opponent="2c 3d 7s")
    assert _lays_down(CAMPER, stock_n=4)
    assert not _lays_down(CAMPER, stock_n=5)


def _turn_knocks(out, seat):
    """``(turns before it, deadwood)`` of each knock by ``seat``, hand by hand: a turn ends
    with a discard or a declined upcard (``C_TURN``'s count), a knock follows its
    discard."""
    knocks = []
    turns = 0
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if etype == S.E_DEAL and who == 0:
            turns = 0
        elif etype == S.E_DECLINE_UPCARD or etype == S.E_DISCARD:
            turns += 1
        elif etype == S.E_KNOCK and who == seat:
            knocks.append((turns - 1, int(row[S.EV_A])))
    return knocks


def test_camper_in_play_knocks_with_deadwood_only_early_and_goes_gin():
    params, values = compiled("gin_rummy")
    out = play(params, values, np.array([CAMPER, CAREFUL]), seed=5, hands=600, events=600 * 200)
    no_violations(out)
    knocks = _turn_knocks(out, 0)
    assert knocks and all(turn < CAMPER_KNOCK_TURNS * 2 for turn, dw in knocks if dw > 0)
    assert sum(1 for turn, dw in knocks if dw == 0 and turn >= CAMPER_KNOCK_TURNS * 2) > 10
    late_dw = [dw for turn, dw in _turn_knocks(out, 1) if turn >= CAMPER_KNOCK_TURNS * 2]
    assert any(dw > 0 for dw in late_dw)  # careful, at the same table, does knock late


# ---- every new bot plays every shipped variant, audited ---------------------------------------
SWEEP_HANDS = 200
MORE_STALLS = 0.02  # at most 2 points more of the hands at the turn cap than careful's own
SELF_PLAY_UNBOUND = (NODISCARDTAKE, NOLAYOFF)
"""At every seat these two can leave a hand no way to end (docs/bots.md, "Restricted
play"): nobody takes a discard, so nothing breaks a turned-over stock's cycles; nobody lays
off, so a player down to one card can never go out in progressive rummy. There only the
audit holds them; among careful players they are held to careful's stalls."""


def _sweep_cases():
    from sim.rules import list_variants, load_variant

    for name, _ in list_variants():
        for players in load_variant(name).player_counts:
            yield name, players


def _lineups(players):
    """``(seats, bounded)``: each new bot among careful players (what it is measured
    against), the new bots and careful mixed, and each new bot at every seat."""
    for bot in NEW_BOTS:
        yield [bot] + [CAREFUL] * (players - 1), True
    yield [(*NEW_BOTS, CAREFUL)[p % 5] for p in range(players)], True
    for bot in NEW_BOTS:
        yield [bot] * players, bot not in SELF_PLAY_UNBOUND


def _stalled(params, values, seats):
    out = play(params, values, np.array(seats), seed=11, hands=SWEEP_HANDS)
    assert out.hands == SWEEP_HANDS
    assert int(out.counters[R.C_VIOLATIONS]) == 0, seats
    assert (out.hand_rows[:, R.H_TURNS] <= params[L.P_TURN_CAP]).all()
    stalled = out.hand_rows[:, R.H_END_REASON] == R.REASON_STALLED
    assert (out.hand_scores[stalled] == 0).all()
    return stalled.mean()


@pytest.mark.parametrize(("variant", "players"), list(_sweep_cases()))
def test_every_new_bot_plays_every_variant_audited(variant, players):
    from sim.engine.api import compile_rules
    from sim.rules import load_variant

    params, values = compile_rules(load_variant(variant), players, audit=True)
    bar = _stalled(params, values, [CAREFUL] * players) + MORE_STALLS
    for seats, bounded in _lineups(players):
        stalled = _stalled(params, values, seats)
        assert not bounded or stalled <= bar, (variant, players, seats, stalled, bar)
