"""One test per RULES.md clause of standard rummy, on hand-built deals played by the
engine (sim/engine) with audit mode on (ported from the old engine's test_rules_clauses.py).

Each deal is played by the real kernels (``play_deal``); assertions read the event log and
the hand row. Tests are named after the section they check. Clauses tests/engine/test_play.py
already checks on hand-built states (§1.5's taken card, §1.8's turned-over order, §1.10's
and §2G.29's scoring kernel) are not repeated here.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import melds as M
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import kernel_bots, play
from sim.engine.draw import DRAW_OK, draw_phase
from sim.engine.game import game_over
from sim.engine.legal import discard_allowed
from sim.engine.piles import discard_top
from sim.engine.rng import N_RNG
from sim.engine.specs import GENERIC
from sim.engine.stock_out import rebuild_stock

from .helpers import (
    CAREFUL,
    GREEDY,
    compiled,
    deal,
    end_of,
    events_of,
    no_violations,
    play_deal,
    turns_of,
)

# Seat 0 holds a 9-card spade run and Kd; the upcard Ts completes the run: seat 0 takes it,
# melds As..Ts and discards Kd on the first turn.
RUMMY_HANDS = ["As 2s 3s 4s 5s 6s 7s 8s 9s Kd", "7c Kh Ah 5h 5d 2c 3d 9c Jd 4c"]
SEAT1_VALUE = 7 + 10 + 1 + 5 + 5 + 2 + 3 + 9 + 10 + 4


@pytest.mark.nojit
def test_1_4_deal_one_card_at_a_time_and_left_of_dealer_starts():
    params, values = compiled()
    out = play_deal(deal(RUMMY_HANDS, "Ts", dealer=1), params, values)
    dealt = {p: sorted(cards) for p, _, _, cards in events_of(out, S.E_DEAL)}
    assert dealt[0] == sorted(parse_cards(RUMMY_HANDS[0]))
    assert dealt[1] == sorted(parse_cards(RUMMY_HANDS[1]))
    assert events_of(out, S.E_UPCARD)[0][1] == parse_card("Ts")
    first = events_of(out, S.E_DRAW_DISCARD)[0]
    assert first[0] == 0  # dealer 1's left neighbour plays first
    no_violations(out)


@pytest.mark.nojit
def test_1_5_draw_the_discard_top_then_meld_then_discard():
    params, values = compiled()
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (0, parse_card("Ts"))
    melded = sorted(k for _, _, _, cards in events_of(out, S.E_MELD) for k in cards)
    assert melded == sorted(parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts"))
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("Kd"))
    no_violations(out)


LAYOFF_DEAL = (["5h 6h 7h Kc Qd 9s 2c 3d Jc 4s", "8h As 3c 5d 7s Jh Ks 2d 4d 6c"], "9d", "2s 3h 4h")


@pytest.mark.nojit
def test_1_6_lay_off_on_another_players_meld():
    params, values = compiled()
    out = play_deal(deal(*LAYOFF_DEAL), params, values)
    melds = events_of(out, S.E_MELD)
    assert melds[0][0] == 0 and sorted(melds[0][3]) == sorted(parse_cards("5h 6h 7h"))
    layoffs = events_of(out, S.E_LAYOFF)
    assert layoffs and layoffs[0][:3] == (1, melds[0][1], parse_card("8h"))
    no_violations(out)


@pytest.mark.nojit
@pytest.mark.parametrize(
    "override",
    [
        {"layoff_target": "own_only"},
        {"layoff_target": "none"},
        {"layoff_requires_meld": "after_first_meld"},
        {"layoff_requires_meld": "after_own_layoff"},
    ],
)
def test_2D_20_21_layoff_restrictions(override):
    """Seat 1 lays off 8h on seat 0's meld on turn 2 without restrictions (test above); under
    each restriction, every lay-off on another player's meld must be one the rule allows,
    and that turn-2 lay-off (seat 1 has no meld of his own yet) is gone."""
    params, values = compiled(**override)
    out = play_deal(deal(*LAYOFF_DEAL), params, values)
    owner: dict[int, int] = {}
    melded: set[int] = set()
    laid_own: set[int] = set()
    for row in out.events:
        etype, seat, a = int(row[S.EV_TYPE]), int(row[S.EV_SEAT]), int(row[S.EV_A])
        if etype == S.E_MELD:
            owner[a] = seat
            melded.add(seat)
        elif etype == S.E_LAYOFF:
            if owner[a] == seat:
                assert override.get("layoff_target") != "none"
                laid_own.add(seat)
                continue
            assert "layoff_target" not in override
            if override.get("layoff_requires_meld") == "after_first_meld":
                assert seat in melded
            else:
                assert seat in laid_own
    first = events_of(out, S.E_LAYOFF)[:1]
    assert not (first and first[0][0] == 1 and first[0][2] == parse_card("8h") and 1 not in melded)
    no_violations(out)


@pytest.mark.nojit
def test_1_7_going_out_by_discard_ends_the_hand_and_scores_opponents_cards():
    params, values = compiled()
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert list(out.hand_scores[0]) == [SEAT1_VALUE, 0]
    assert turns_of(out) == 1
    ends = events_of(out, S.E_END)
    assert [(p, a) for p, a, _, _ in ends] == [(0, R.REASON_WENT_OUT)]
    no_violations(out)


FULL_MELD = ["As 2s 3s 4s 5s 6s 7s 8s 9h 9d", "7c Kh Ah 5h 5d 2c 3d Jc Jd 4c"]


@pytest.mark.nojit
def test_1_7_going_out_by_melding_the_whole_hand():
    params, values = compiled()
    out = play_deal(deal(FULL_MELD, "9c"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert events_of(out, S.E_DISCARD) == []
    no_violations(out)


@pytest.mark.nojit
def test_2E_26_must_discard_to_go_out_keeps_a_card_for_the_last_discard():
    params, values = compiled(must_discard_to_go_out=True)
    out = play_deal(deal(FULL_MELD, "9c"), params, values)
    assert end_of(out) == ("went_out", 0)
    discards = events_of(out, S.E_DISCARD)
    assert len(discards) == 1 and discards[0][0] == 0
    no_violations(out)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("going_rummy", "reason", "score"),
    [
        ("off", "went_out", SEAT1_VALUE),
        ("double", "went_rummy", 2 * SEAT1_VALUE),
        ("bonus:10", "went_rummy", SEAT1_VALUE + 10),
    ],
)
def test_2E_27_going_rummy_doubles_or_adds_a_bonus(going_rummy, reason, score):
    params, values = compiled(going_rummy=going_rummy)
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == (reason, 0)
    assert out.hand_scores[0, 0] == score
    no_violations(out)


@pytest.mark.nojit
def test_2E_27_no_rummy_after_an_earlier_meld():
    # seat 0 melds on turn 1 and cannot go out; on turn 3 Jd completes Jd Qd Kd and he goes
    # out by melding: a plain win, not doubled
    params, values = compiled(going_rummy="double")
    fixed = deal(
        ["7s 7d 7c 2h 3h 4h 5h 6h Kd Qd", "Ah 2c 3d 4c 5s 5d Jh 8d Tc 6s"], "8s", "9c Ts Jd"
    )
    out = play_deal(fixed, params, values)
    assert end_of(out) == ("went_out", 0)
    assert turns_of(out) == 3
    held = {p: b for p, _, b, _ in events_of(out, S.E_SCORE)}  # b: the value he held
    assert out.hand_scores[0, 0] == held[1] > 0  # not doubled
    no_violations(out)


def _state(**overrides):
    params, values = compiled(audit=False, **overrides)
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    st[S.R_SC, S.C_TAKEN] = -1
    st[S.R_SC, S.C_PLAN] = -1
    st[S.R_SC, S.C_COME_ROUND] = -1
    return params, values, st, piles


def _discards(st, piles, text):
    cards = parse_cards(text)  # the first discarded first, the top last
    for i, k in enumerate(cards):
        piles[S.PILE_DISCARD, i] = k
    st[S.R_SC, S.C_DISCARD_N] = len(cards)


@pytest.mark.nojit
def test_1_5_an_identical_card_from_a_second_pack_may_be_discarded():
    # (the one-pack half of this clause is tests/engine/test_play.py's)
    params, _, st, _ = _state(decks=2)
    kd = parse_card("Kd")
    S.give(GENERIC, params, st, 0, kd)
    S.give(GENERIC, params, st, 0, parse_card("2c"))
    st[S.R_SC, S.C_TAKEN] = kd
    assert not discard_allowed(GENERIC, params, st, 0, kd)
    S.give(GENERIC, params, st, 0, kd)  # a second Kd, from the other pack
    assert discard_allowed(GENERIC, params, st, 0, kd)


@pytest.mark.nojit
def test_2F_28_shuffle_except_top_keeps_the_top_discard():
    params, _, st, piles = _state(stock_exhaustion="shuffle_except_top")
    _discards(st, piles, "2c 3c 4c 5c 6c")
    events = np.zeros((1, S.EV_COLS), np.int64)
    rebuild_stock(GENERIC, params, st, piles, np.zeros(N_RNG, np.uint64), events, 0)
    assert discard_top(st, piles) == parse_card("6c") and st[S.R_SC, S.C_DISCARD_N] == 1
    n = int(st[S.R_SC, S.C_STOCK_N])
    assert sorted(int(k) for k in piles[S.PILE_STOCK, :n]) == sorted(parse_cards("2c 3c 4c 5c"))
    assert st[S.R_SC, S.C_STOCK_ORDERED] == 0  # shuffled: each draw takes a uniform card


@pytest.mark.nojit
def test_1_8_turn_over_happens_when_the_discard_is_declined():
    params, values, st, piles = _state(stock_exhaustion="turn_over")
    for k in parse_cards("2h 3h Kc"):
        S.give(GENERIC, params, st, 0, k)
    _discards(st, piles, "9d Ts Qs")  # Qs completes nothing: greedy declines it
    st[S.R_SC, S.C_STOCK_N] = 0
    st[S.R_SC, S.C_TURN] = 5
    bots = kernel_bots(np.array([GREEDY, GREEDY]))
    rng = np.zeros(2, np.uint64)
    events = np.zeros((1, S.EV_COLS), np.int64)
    got = draw_phase(GENERIC, params, values, bots, st, piles, rng, M.new_work(), events, 0)
    assert got == DRAW_OK
    # pile 9d Ts Qs turned over: 9d is the new upcard, Ts was the stock top and is drawn
    assert discard_top(st, piles) == parse_card("9d")
    assert S.held(GENERIC, params, st, 0, parse_card("Ts")) == 1
    assert st[S.R_SC, S.C_STOCK_N] == 1


@pytest.mark.nojit
def test_2G_29_per_card_scoring_counts_the_cards_left():
    # (the old test also dealt jokers = 2, which sim/engine does not play yet)
    params, values = compiled(scoring="per_card", game_end="target:25")
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert out.hand_scores[0, 0] == 10  # seat 1 still holds ten cards
    no_violations(out)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("game_end", "totals", "hands", "expected"),
    [
        ("target:100", [99, 40], 3, (False, 0)),
        ("target:100", [100, 40], 3, (True, 0)),
        ("target:100", [120, 120], 3, (False, -1)),  # §1.11: a tie plays extra hands
        ("fixed_hands:10", [5, 50], 9, (False, 1)),
        ("fixed_hands:10", [5, 50], 10, (True, 1)),
        ("penalty_limit:100", [-100, -20], 4, (True, 1)),
        ("penalty_limit:100", [-99, -20], 4, (False, 1)),
    ],
)
def test_2H_30_game_end(game_end, totals, hands, expected):
    scoring = "penalty" if game_end.startswith("penalty") else "pip_to_winner"
    params, _ = compiled(game_end=game_end, scoring=scoring)
    done, winner = game_over(GENERIC, params, np.array(totals, np.int64), 2, hands, 0)
    assert bool(done) == expected[0]
    if done:
        assert winner == expected[1]


@pytest.mark.nojit
def test_2H_30_single_hand_each_hand_is_a_game():
    params, values = compiled(game_end="single_hand")
    out = play_deal(deal(RUMMY_HANDS, "Ts"), params, values)
    assert out.games == 1 and out.game_rows[0, R.G_WINNER] == 0


@pytest.mark.parametrize("rotation", ["left", "winner_deals"])
def test_2H_31_dealer_rotation(rotation):
    params, values = compiled(players=3, dealer_rotation=rotation)
    out = play(params, values, np.array([GREEDY] * 3), seed=5, games=5)
    no_violations(out)
    rows = out.hand_rows
    checked = 0
    for prev, row in zip(rows[:-1], rows[1:], strict=True):
        if row[R.H_GAME] != prev[R.H_GAME]:
            continue
        checked += 1
        if rotation == "winner_deals" and prev[R.H_WINNER] >= 0:
            assert row[R.H_DEALER] == prev[R.H_WINNER]
        else:
            assert row[R.H_DEALER] == (prev[R.H_DEALER] + 1) % 3
    assert checked > 0


TWO_MELDS = ["As 2s 3s 7h 7d 7c Kd Qc 9h 5c", "8c Jh Ah 5d 5s 2c 3d Jc Jd 4c"]


@pytest.mark.nojit
@pytest.mark.parametrize(("rule", "first_turn_melds"), [("unlimited", 2), ("one", 1)])
def test_2D_19_melds_per_turn(rule, first_turn_melds):
    params, values = compiled(melds_per_turn=rule)
    out = play_deal(deal(TWO_MELDS, "Td", "6d 9d"), params, values)
    assert _first_turn_plays(out, 0) == [S.E_MELD] * first_turn_melds
    no_violations(out)


@pytest.mark.nojit
def test_2A_1_two_packs_hold_and_meld_the_same_card_twice():
    # decks = 2: seat 0 holds 5h 6h 7h twice and lays both runs down on its first turn
    params, values = compiled(decks=2)
    fixed = deal(["5h 6h 7h 5h 6h 7h 9s Kd Qc 2d", "8c Th Ah 5d 5s 2c 3s Jc Jd 4c"], "3c", "Ks")
    out = play_deal(fixed, params, values)
    first_two = [(p, cards) for p, _, _, cards in events_of(out, S.E_MELD)[:2]]
    assert first_two == [(0, parse_cards("5h 6h 7h")), (0, parse_cards("5h 6h 7h"))]
    no_violations(out)


@pytest.mark.nojit
def test_2A_4_around_the_corner_melds_K_A_2():
    params, values = compiled("around_the_corner")
    fixed = deal(["Kd Ad 2d 9s 9h 5c 7c Jh Qs 4h", "8c Th Ah 5d 5s 2c 3s Jc Jd 4c"], "3d")
    out = play_deal(fixed, params, values)
    melds = events_of(out, S.E_MELD)
    assert sorted(melds[0][3]) == sorted(parse_cards("Kd Ad 2d 3d"))
    no_violations(out)


@pytest.mark.nojit
def test_2A_6_any_suit_runs():
    params, values = compiled(run_suit="any_suit")
    fixed = deal(["5h 6s 9s 9h Kc 2c Jd Qs 3h As", "8c Th Ah 5d 5s 2h 3s Jc Jh 4c"], "7d")
    out = play_deal(fixed, params, values)
    assert any(sorted(m[3]) == sorted(parse_cards("5h 6s 7d")) for m in events_of(out, S.E_MELD))
    no_violations(out)


def test_2H_30_31_single_hand_games_still_pass_the_deal():
    for rotation in ("left", "winner_deals"):
        params, values = compiled(players=3, game_end="single_hand", dealer_rotation=rotation)
        out = play(params, values, np.array([GREEDY] * 3), seed=4, games=200)
        no_violations(out)
        assert out.games == 200
        rows = out.hand_rows
        for prev, row in zip(rows[:-1], rows[1:], strict=True):
            if rotation == "winner_deals" and prev[R.H_WINNER] >= 0:
                assert row[R.H_DEALER] == prev[R.H_WINNER]
            else:
                assert row[R.H_DEALER] == (prev[R.H_DEALER] + 1) % 3


def _first_turn_plays(out, seat):
    """Event types of ``seat``'s melds and lay-offs up to his first discard."""
    plays = []
    for row in out.events:
        etype, who = int(row[S.EV_TYPE]), int(row[S.EV_SEAT])
        if who == seat and etype in (S.E_MELD, S.E_LAYOFF):
            plays.append(etype)
        if who == seat and etype == S.E_DISCARD:
            break
    return plays


@pytest.mark.nojit
def test_bots_careful_holding_for_rummy_never_lays_down_part_of_its_hand():
    # seat 0 takes 6c; all but 6c melds, but 6c may not be discarded this turn: a careful bot
    # holding for a rummy keeps everything rather than lay down part of its hand
    params, values = compiled("rummy_basic@004")
    fixed = deal(
        ["4d 4h 4c 5d 5h 5c Ts Js Qs Ks", "As 3s 7h 9c Jd Kh 2d 8c Td Qc"], "6c", "2s 9h 8d 7s"
    )
    out = play_deal(fixed, params, values, bots=[CAREFUL, CAREFUL])
    first_turn = _first_turn_plays(out, 0)
    assert first_turn == [] or end_of(out)[1] == 0 and turns_of(out) == 1
    no_violations(out)


@pytest.mark.nojit
@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_bots_careful_2E_27_counts_lay_offs_toward_going_rummy(bot):
    # Seat 1 (greedy) melds 5h 6h 7h and discards Ks. Seat 0 draws 2s: three melds
    # (4d 4s 4c, 6d 7d 8d, 2c 2d 2s), 8h laid off on the hearts run and Kd discarded play
    # his whole hand, a rummy (§2E.27). Careful, holding for a rummy, must see that the
    # lay-off completes it, as greedy does.
    params, values = compiled(going_rummy="double")
    fixed = deal(
        ["4d 4s 4c 6d 7d 8d 8h 2c 2d Kd", "5h 6h 7h Ac 3d 6c 9d Jh Ks Qd"],
        "Qh",
        "Tc 2s 3h 9s 5c 5s Th 3c",
        dealer=0,
    )
    out = play_deal(fixed, params, values, bots=[bot, GREEDY])
    assert end_of(out) == ("went_rummy", 0)
    assert turns_of(out) == 2
    assert _first_turn_plays(out, 0) == [S.E_MELD] * 3 + [S.E_LAYOFF]
    assert events_of(out, S.E_LAYOFF)[0][2] == parse_card("8h")
    no_violations(out)


@pytest.mark.nojit
@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_bots_careful_2E_26_keeps_a_card_back_to_go_rummy_when_a_discard_is_required(bot):
    # Seat 0 takes the upcard 9d: 4d 4s 4c 4h, 6d 7d 8d 9d and 2c 2d 2s meld all eleven
    # cards, but must_discard_to_go_out requires a discard (§2E.26). Greedy keeps a 4 back and
    # goes rummy; careful, holding for a rummy, must do the same rather than keep holding.
    params, values = compiled(going_rummy="double", must_discard_to_go_out=True)
    fixed = deal(
        ["4d 4s 4c 4h 6d 7d 8d 2c 2d 2s", "5h 6h Ac 3d 6c 9c Jh Ks Qd 8s"],
        "9d",
        "Tc 3s 3h 9s 5c 5s Th 3c",
        dealer=1,
    )
    out = play_deal(fixed, params, values, bots=[bot, GREEDY])
    assert end_of(out) == ("went_rummy", 0)
    assert turns_of(out) == 1
    assert len(events_of(out, S.E_MELD)) == 3
    discarded = events_of(out, S.E_DISCARD)[0][1]
    assert discarded in parse_cards("4d 4s 4c 4h")
    no_violations(out)


def _game_should_end(rule: str, value: int, totals: np.ndarray, hands: int) -> bool:
    """§2H.30 with §1.11's play-off of ties: the rule's condition, and one player ahead."""
    top = totals.max()
    alone = int((totals == top).sum()) == 1
    if rule == "target":
        return top >= value and alone
    if rule == "fixed_hands":
        return hands >= value and alone
    return totals.min() <= -value and alone  # penalty_limit


@pytest.mark.parametrize(
    ("game_end", "scoring"),
    [("target:100", "pip_to_winner"), ("fixed_hands:3", "pip_to_winner"),
     ("penalty_limit:60", "penalty")],
)  # fmt: skip
def test_2H_30_1_11_played_games_end_on_the_first_hand_that_decides_them(game_end, scoring):
    # every game played ends on the first hand after which its rule holds with one player
    # ahead (ties are played off, §1.11), and that player wins it
    rule, _, value = game_end.partition(":")
    params, values = compiled(players=3, game_end=game_end, scoring=scoring)
    games = 20 if numba.config.DISABLE_JIT else 300
    out = play(params, values, np.array([GREEDY] * 3), seed=9, games=games)
    no_violations(out)
    assert out.games == games
    rows, totals = out.hand_rows, out.hand_totals
    first = 0
    for g in range(out.games):
        hands = int(out.game_rows[g, R.G_HANDS])
        assert out.game_rows[g, R.G_CAPPED] == 0
        for h in range(hands):
            assert rows[first + h, R.H_GAME] == out.game_rows[g, R.G_GAME]
            ends = _game_should_end(rule, int(value), totals[first + h], h + 1)
            assert ends == (h == hands - 1), (g, h)
        last = totals[first + hands - 1]
        assert out.game_rows[g, R.G_WINNER] == int(np.argmax(last))
        first += hands
    if rule == "fixed_hands" and games == 300:  # some game was tied after 3 hands
        assert out.game_rows[:, R.G_HANDS].max() > int(value)
