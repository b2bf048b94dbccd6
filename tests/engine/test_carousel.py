"""Carousel (RULES.md §3.16, ``sim/engine/carousel.py``): the turn of up to three draws,
the meld action that ends it and re-forms the table, the knock at 5, the stock-out's final
turns (§2F.28 ``final_turns``), the round's settlement and the game end (§2M.59
``carousel_round_bonus_to``), checked on hand-built deals and against the plain reference
``tests/oracles/carousel.py`` on played hands."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.engine.carousel_score import carousel_final, settle_carousel
from sim.engine.specs import GENERIC
from sim.rules import load_variant
from tests.engine.helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    blank_state,
    compiled,
    deal,
    end_of,
    events_of,
    play_deal,
)
from tests.oracles import carousel as C

VARIANT = "carousel_knock"
ENDINGS = [L.REASON_KNOCK, L.REASON_UNDERCUT, L.REASON_WENT_OUT, L.REASON_STOCK_OUT]

# seat 0 and seat 1 hold no meld (a pack and a joker at 2 players)
NO_MELD_0 = "7s 7h 2c 4d 9c Kc Jd 3h 5s 8d"
NO_MELD_1 = "As 3c 5d 9h Jh Qs 2d 6c Td Kh"


def _turns(out):
    """The draws and meld actions of a played hand, in order: (event type, seat, a, b)."""
    kinds = (S.E_DRAW_STOCK, S.E_MELD, S.E_LAYOFF, S.E_REARRANGE, S.E_KNOCK, S.E_FINAL)
    rows = []
    for row in out.events:
        if int(row[S.EV_TYPE]) in kinds and (row != 0).any():
            rows.append(tuple(int(x) for x in row[: S.EV_N]))
    return rows


def test_3_16_a_meld_ends_the_turn():
    """Seat 0 draws 7d and melds 7s 7h 7d: his turn ends there, seat 1 draws next."""
    params, values = compiled(VARIANT, 2)
    out = play_deal(deal([NO_MELD_0, NO_MELD_1], None, "7d 8c Ks 4h"), params, values)
    turns = _turns(out)
    assert turns[0] == (S.E_DRAW_STOCK, 0, parse_cards("7d")[0], 0)
    assert turns[1][:2] == (S.E_MELD, 0)
    assert turns[2] == (S.E_DRAW_STOCK, 1, parse_cards("8c")[0], 0)  # a new turn: b = 0
    assert out.counters[OUT.C_VIOLATIONS] == 0


def test_3_16_the_third_draw_ends_the_turn_and_no_meld_follows_it():
    """Seat 0 draws Qc and 4s (no meld), then 7d, which would meld 7s 7h 7d: he may not meld
    after the third card, so seat 1 plays next; seat 0 melds the sevens in his next turn."""
    params, values = compiled(VARIANT, 2)
    out = play_deal(deal([NO_MELD_0, NO_MELD_1], None, "Qc 4s 7d 8c 8s 4c Ks"), params, values)
    turns = _turns(out)
    assert [t[:2] for t in turns[:3]] == [(S.E_DRAW_STOCK, 0)] * 3
    assert [t[3] for t in turns[:3]] == [0, 1, 1]  # the 2nd and 3rd draws of the same turn
    assert turns[3][:2] == (S.E_DRAW_STOCK, 1)
    first_meld = next(i for i, t in enumerate(turns) if t[0] != S.E_DRAW_STOCK)
    assert first_meld > 3
    assert turns[first_meld - 1][1] == 0 and turns[first_meld][1] == 0  # his next turn
    assert out.counters[OUT.C_VIOLATIONS] == 0


KNOCKER = "2s 3s 4s 5s 6s 7h 7d 7c Ah 2c"  # draws Ac: melds 2-6s and the sevens, keeps 4


@pytest.mark.parametrize("bot", [GREEDY, CAREFUL])
def test_3_16_a_knock_with_5_or_less_at_the_end_of_his_own_turn(bot):
    """After his meld seat 0 holds Ah Ac 2c (4 points) and knocks at the end of that
    turn; seat 1 (66 points) never plays. 2 players: the difference, 62."""
    params, values = compiled(VARIANT, 2)
    out = play_deal(deal([KNOCKER, NO_MELD_1], None, "Ac 8c"), params, values, [bot, GREEDY])
    turns = _turns(out)
    assert [t[1] for t in turns] == [0] * len(turns)  # seat 1 never draws
    assert turns[-1] == (S.E_KNOCK, 0, 4, 0)
    assert end_of(out) == ("knock", 0)
    assert out.hand_scores[0].tolist() == [62, 0]
    assert out.counters[OUT.C_VIOLATIONS] == 0


def test_3_16_no_knock_above_5():
    """Drawing 3d instead leaves Ah 2c 3d (6 points): no knock, seat 1 plays."""
    params, values = compiled(VARIANT, 2)
    out = play_deal(deal([KNOCKER, NO_MELD_1], None, "3d 8c Ks 4h"), params, values)
    turns = _turns(out)
    assert not any(t[0] == S.E_KNOCK and t[1] == 0 for t in turns[:3])
    assert (S.E_DRAW_STOCK, 1, parse_cards("8c")[0], 0) in turns


def test_3_16_emptying_the_hand_ends_the_round_with_25():
    """Seat 0 draws 3h and melds 2-6s, the sevens and Ah 2h 3h: his hand is empty, the
    round ends, and he scores seat 1's 66 points and 25 for playing all his cards."""
    params, values = compiled(VARIANT, 2)
    hand = "2s 3s 4s 5s 6s 7h 7d 7c Ah 2h"
    out = play_deal(deal([hand, NO_MELD_1], None, "3h"), params, values)
    assert end_of(out) == ("went_out", 0)
    assert out.hand_scores[0].tolist() == [66 + 25, 0]


def test_3_16_the_table_is_formed_again_with_a_hand_card():
    """Seat 0 melds 7s 7h 7d; seat 1, holding 8s 9s, draws 7c and re-forms the table: 7s
    leaves the group for 7s 8s 9s and 7c takes its place (7h 7d 7c), 24 points played
    rather than 7 laid off."""
    params, values = compiled(VARIANT, 2)
    hand1 = "As 3c 5d 9h Jh Qs 2d 8s 9s Kh"
    out = play_deal(deal([NO_MELD_0, hand1], None, "7d 7c"), params, values)
    rearranged = events_of(out, S.E_REARRANGE)
    assert rearranged[0][:3] == (1, 1, 3)
    assert sorted(rearranged[0][3]) == sorted(parse_cards("7c 8s 9s"))
    melds = events_of(out, S.E_MELD)[1:3]
    assert sorted(sorted(m[3]) for m in melds) == sorted(
        [sorted(parse_cards("7h 7d 7c")), sorted(parse_cards("7s 8s 9s"))]
    )
    assert out.counters[OUT.C_VIOLATIONS] == 0


# ---- the settlement (§3.16 Scoring) --------------------------------------------------------


def _settle(hands: list[str], reason: int, ender: int):
    params, values, st, _ = blank_state(VARIANT, len(hands))
    for seat, text in enumerate(hands):
        for k in parse_cards(text):
            S.give(GENERIC, params, st, seat, k)
    scores = np.zeros(len(hands), np.int64)
    reason, winner = settle_carousel(
        GENERIC, params, values, st, np.int64(reason), np.int64(ender), scores
    )
    return (
        scores.tolist(),
        L.REASON_NAMES[int(reason)],
        int(winner),
        int(st[S.R_SC, S.C_ROUND_WINNERS]),
    )


def test_3_16_the_worked_example():
    """3 players; knocker A 4, B 2, C 17. B wins: (4 - 2) + (17 - 2) + 10 = 27."""
    assert _settle(["4c", "2h", "Kd 7s"], L.REASON_KNOCK, 0) == ([0, 27, 0], "undercut", 1, 0b010)


def test_3_16_a_knocker_tied_with_one_other_loses_to_him():
    assert _settle(["4c", "4h", "Kd 7s"], L.REASON_KNOCK, 0) == ([0, 23, 0], "undercut", 1, 0b010)


def test_3_16_a_knocker_tied_with_two_others_both_win_with_the_bonus():
    got = _settle(["4c", "4h", "4d", "9s"], L.REASON_KNOCK, 0)
    assert got == ([0, 15, 15, 0], "undercut", -1, 0b0110)


def test_3_16_a_lowest_knocker_wins_without_a_bonus():
    assert _settle(["Ac", "8h", "Kd Ts"], L.REASON_KNOCK, 0) == ([7 + 19, 0, 0], "knock", 0, 1)


def test_3_16_playing_all_ones_cards_wins_25_more():
    assert _settle(["", "7h", "Kd Ts Jk"], L.REASON_WENT_OUT, 0) == (
        [7 + 45 + 25, 0, 0],
        "went_out",
        0,
        1,
    )


def test_3_16_the_stock_out_scores_differences_without_the_undercut():
    assert _settle(["6c", "3h", "Td"], L.REASON_STOCK_OUT, -1) == ([0, 10, 0], "stock_out", 1, 2)
    assert _settle(["3c", "3h", "Td"], L.REASON_STOCK_OUT, -1) == (
        [7, 7, 0],
        "stock_out",
        -1,
        0b011,
    )


@pytest.mark.nojit
def test_3_16_the_settlement_agrees_with_the_reference_on_random_hands():
    rng = np.random.default_rng(16)
    pack = list(range(53))
    for _ in range(400):
        players = int(rng.integers(2, 6))
        params, values, st, _ = blank_state(VARIANT, players)
        points = []
        for seat in range(players):
            n = int(rng.integers(0 if seat == 0 else 1, 4))
            for k in rng.choice(pack, n, replace=False):
                S.give(GENERIC, params, st, seat, int(k))
            points.append(sum(int(values[int(k)]) for k in _held(params, st, seat)))
        how = [C.KNOCK, C.OUT, C.STOCK_OUT][int(rng.integers(0, 3))]
        if how == C.OUT and points[0] != 0:
            how = C.KNOCK
        reason = {C.KNOCK: L.REASON_KNOCK, C.OUT: L.REASON_WENT_OUT}.get(how, L.REASON_STOCK_OUT)
        ender = 0 if how != C.STOCK_OUT else -1
        scores = np.zeros(players, np.int64)
        settle_carousel(GENERIC, params, values, st, np.int64(reason), np.int64(ender), scores)
        want = C.round_scores(points, None if ender < 0 else ender, how)
        assert scores.tolist() == want, (points, how)


def _held(params, st, seat):
    out = []
    for k in range(52):
        out += [k] * int(sum((st[S.R_SEAT + seat, S.S_HAND + l] >> k) & 1 for l in range(4)))
    return out + [52] * int(st[S.R_SEAT + seat, S.S_JOKERS])


# ---- the game end (§3.16, §2M.59) ---------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("bonus_to", ["others_only", "all_players"])
def test_3_16_the_game_end_bonuses_agree_with_the_reference(bonus_to):
    params, _ = compiled(VARIANT, 3, carousel_round_bonus_to=bonus_to)
    totals = np.array([152, 90, 40], np.int64)
    won = np.array([4, 2, 1], np.int64)
    final = np.zeros(3, np.int64)
    carousel_final(GENERIC, params, totals, won, np.int64(3), final)
    assert final.tolist() == C.game_end([152, 90, 40], [4, 2, 1], bonus_to)


# ---- played hands against the reference ----------------------------------------------------


def _hands_of(out, players):
    """Per hand of a played call with the event log: (reason, points, ender, scores)."""
    hands = []
    knocker = None
    ending = None
    points = []
    scores = []
    for row in out.events:
        etype, seat, a, b = (int(x) for x in row[: S.EV_N])
        if etype == S.E_DEAL and seat == 0:
            knocker, ending, points, scores = None, None, [], []
        elif etype == S.E_KNOCK:
            knocker = seat
        elif etype == S.E_END:
            ending = (L.REASON_NAMES[a], seat)
        elif etype == S.E_SCORE:
            points.append(b)
            scores.append(a)
            if len(points) == players:
                hands.append((ending, points, knocker, scores))
    return hands


def _reference(ending, points, knocker):
    reason, winner = ending
    if reason in ("knock", "undercut"):
        return C.round_scores(points, knocker, C.KNOCK), C.round_winners(points, knocker, C.KNOCK)
    if reason == "went_out":
        return C.round_scores(points, winner, C.OUT), C.round_winners(points, winner, C.OUT)
    if reason == "stock_out":
        return C.round_scores(points, None, C.STOCK_OUT), C.round_winners(points, None, C.STOCK_OUT)
    return [0] * len(points), []


def _play_logged(players, bot, games, seed, **overrides):
    params, values = compiled(VARIANT, players, **overrides)
    return api.play(params, values, np.full(players, bot), seed=seed, games=games, events=200_000)


@pytest.mark.parametrize("bot", [GREEDY, RANDOM])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_3_16_played_rounds_and_games_agree_with_the_reference(players, bot):
    """Every round of whole games (audited): its scores are the reference's for the points
    left, the knocker and the ending; each game's final scores are the reference's game end
    from its totals and the rounds each player won."""
    out = _play_logged(players, bot, 6, seed=3)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    hands = _hands_of(out, players)
    assert len(hands) == len(out.hand_rows)
    won = [0] * players
    g = 0
    for h, (ending, points, knocker, scores) in enumerate(hands):
        want, winners = _reference(ending, points, knocker)
        assert scores == want, (h, ending, points, knocker)
        assert out.hand_scores[h].tolist() == want
        for w in winners:
            won[w] += 1
        game = int(out.hand_rows[h, OUT.H_GAME])
        last = h + 1 == len(hands) or int(out.hand_rows[h + 1, OUT.H_GAME]) != game
        if last:
            final = C.game_end(out.hand_totals[h].tolist(), won)
            assert final is not None
            assert out.game_scores[g].tolist() == final
            assert out.game_rows[g, OUT.G_WINNER] == int(np.argmax(final))
            won = [0] * players
            g += 1
    assert g == len(out.game_rows) == 6


# ---- the stock-out (§2F.28 final_turns) ----------------------------------------------------


def test_2F28_final_turns_every_player_one_more_turn_from_the_next():
    """In played hands that reach the stock-out: after the last card is drawn, each player
    plays one final turn (``E_FINAL``), from the one after the player who took it, that
    player last, and nobody draws; then the round ends ``stock_out`` unless a final turn
    emptied a hand."""
    players = 3
    params, values = compiled(VARIANT, players)
    out = api.play(params, values, np.full(players, RANDOM), seed=5, hands=300, events=200_000)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    seen = 0
    hand = []
    for row in out.events:
        etype = int(row[S.EV_TYPE])
        if etype == S.E_DEAL and int(row[S.EV_SEAT]) == 0:
            hand = []
        hand.append(tuple(int(x) for x in row[: S.EV_N]))
        if etype != S.E_END:
            continue
        finals = [i for i, e in enumerate(hand) if e[0] == S.E_FINAL]
        if not finals:
            continue
        seen += 1
        draws = [i for i, e in enumerate(hand) if e[0] == S.E_DRAW_STOCK]
        taker = hand[draws[-1]][1]
        assert draws[-1] < finals[0]
        seats = [hand[i][1] for i in finals]
        left = [hand[i][2] for i in finals]
        assert seats == [(taker + 1 + i) % players for i in range(len(seats))]
        assert left == list(range(players, players - len(seats), -1))
        reason = L.REASON_NAMES[hand[-1][2]]
        assert reason in ("stock_out", "went_out")
        if reason == "stock_out":
            assert len(seats) == players and seats[-1] == taker
    assert seen >= 5


# ---- flips ---------------------------------------------------------------------------------


def test_2M59_carousel_round_bonus_to_flips_only_the_final_scores():
    """``all_players`` gives the player(s) at 150 their 25 per round won as well: the same
    rounds are played (where the game ends the same), and the final totals of those at the
    target grow by 25 per round they won."""
    a = _play_logged(3, GREEDY, 4, seed=9)
    b = _play_logged(3, GREEDY, 4, seed=9, carousel_round_bonus_to="all_players")
    assert np.array_equal(a.hand_scores, b.hand_scores)
    grew = b.game_scores - a.game_scores
    assert (grew >= 0).all() and (grew % 25 == 0).all() and grew.any()
    last = np.cumsum(a.game_rows[:, OUT.G_HANDS]) - 1
    totals = a.hand_totals[last]
    assert ((grew > 0) <= (totals >= 150)).all()


@pytest.mark.nojit
def test_3_16_the_model_refuses_what_carousel_does_not_use():
    from sim.rules.errors import ConfigError

    for overrides in (
        {"upcard": True},
        {"stock_exhaustion": "turn_over"},
        {"rearrange": "own"},
        {"joker_declare": "inferred"},
        {"scoring": "per_card"},
        {"knock_limit": "upcard"},
        {"game_end": "fixed_hands:5"},
    ):
        with pytest.raises(ConfigError):
            load_variant(VARIANT, overrides)
    with pytest.raises(ConfigError):
        load_variant("rummy_basic", {"carousel_round_bonus_to": "all_players"})
    with pytest.raises(ConfigError):
        load_variant("rummy_basic", {"stock_exhaustion": "final_turns"})
