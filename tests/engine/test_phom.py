"""Phỏm (RULES.md §3.13, §2K): the 9+1 deal without an upcard, the conditional take, taken
cards kept apart, Ù at once, four turns each and the showdown with lay-offs, the rank
settlement with the móm payment, the options and the end of a game.

The payments are checked on hand-built tables through ``phom_chips.settle_phom`` (the
illustrative example of §3.13 and each default of its open points), the take and discard
rules through ``phom.py``'s kernels, and whole hands of hand-built deals show each ending
in play; whole games show that each option changes play and that the rules model refuses
what Phỏm does not use.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.api import simulate
from sim.cards import parse_card, parse_cards
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play
from sim.engine.melds import new_work
from sim.engine.phom import phom_discard_allowed, phom_may_take
from sim.engine.phom_chips import settle_phom
from sim.engine.specs import GENERIC
from sim.rules import ConfigError, load_variant
from sim.rules.loader import list_variants, rules_from_toml, rules_to_toml

from .helpers import (
    blank_state,
    compiled,
    deal,
    end_of,
    events_of,
    no_violations,
    play_deal,
    turns_of,
)


def _table(hands: list[str], melded: list[int] | None = None, dealer: int | None = None, **kw):
    """A blank Phỏm table whose seats hold ``hands``; ``melded[p]`` 1 when seat p showed a
    meld; the dealer the last seat unless given. (params, values, st)."""
    params, values, st, _ = blank_state("phom", len(hands), audit=True, **kw)
    for seat, text in enumerate(hands):
        for k in parse_cards(text):
            S.give(GENERIC, params, st, seat, k)
        st[S.R_SEAT + seat, S.S_MELDED] = 1 if melded is None else melded[seat]
    st[S.R_SC, S.C_DEALER] = len(hands) - 1 if dealer is None else dealer
    return params, values, st


def _settle(st, params, values, reason: int, winner: int = -1):
    scores = np.zeros(_players(params), np.int64)
    reason, winner = settle_phom(GENERIC, params, values, st, reason, winner, scores)
    return [int(s) for s in scores], R.REASON_NAMES[int(reason)], int(winner)


def _players(params) -> int:
    from sim.engine.layout import P_PLAYERS

    return int(params[P_PLAYERS])


# ---- the settlement (§3.13) --------------------------------------------------------------


@pytest.mark.nojit
def test_3_13_illustrative_example_lowest_wins_the_others_pay_by_rank_and_mom_pays_4():
    """§3.13's example: A 12, B 25, C 30, D móm (18). A wins; B pays 1, C 2, D 4; A +7."""
    hands = ["Qs", "Kd Qh", "Kh Kc 4d", "Jd 7c"]  # 12, 25, 30, 18 (J 11, Q 12, K 13)
    params, values, st = _table(hands, melded=[1, 1, 1, 0])
    assert _settle(st, params, values, R.REASON_SHOWDOWN) == ([7, -1, -2, -4], "showdown", 0)


@pytest.mark.nojit
def test_3_13_open_point_4_three_players_pay_1_and_2_two_players_1():
    params, values, st = _table(["5s", "9d", "Kd"])
    assert _settle(st, params, values, R.REASON_SHOWDOWN)[0] == [3, -1, -2]
    params, values, st = _table(["Kd", "5s"])
    assert _settle(st, params, values, R.REASON_SHOWDOWN) == ([-1, 1], "showdown", 1)


@pytest.mark.nojit
def test_3_13_ties_go_to_the_player_earlier_in_turn_order():
    """Seats 0 and 2 both count 9; the dealer is seat 1, so seat 2 plays first and wins."""
    params, values, st = _table(["9s", "Kd", "9h"], dealer=1)
    assert _settle(st, params, values, R.REASON_SHOWDOWN) == ([-1, -2, 3], "showdown", 2)


@pytest.mark.nojit
def test_3_13_open_point_5_mom_ranks_below_every_other_and_when_all_are_mom_lowest_wins():
    params, values, st = _table(["As", "Kd"], melded=[0, 1])  # móm with 1 point loses
    assert _settle(st, params, values, R.REASON_SHOWDOWN) == ([-4, 4], "showdown", 1)
    params, values, st = _table(["As", "Kd", "Qd"], melded=[0, 0, 0])
    assert _settle(st, params, values, R.REASON_SHOWDOWN) == ([8, -4, -4], "showdown", 0)


@pytest.mark.nojit
def test_3_13_u_with_a_discard_collects_6_and_without_one_12_from_each_opponent():
    params, values, st = _table(["", "Kd", "Qd"])
    st[S.R_SC, S.C_DISCARDS_TURN] = 1
    assert _settle(st, params, values, R.REASON_WENT_U, 0) == ([12, -6, -6], "went_u", 0)
    st[S.R_SC, S.C_DISCARDS_TURN] = 0
    assert _settle(st, params, values, R.REASON_WENT_U, 0)[0] == [24, -12, -12]


@pytest.mark.nojit
def test_2K_45_three_taken_liability_the_discarder_pays_the_whole_u():
    """Seat 1 went Ù (with a discard) having taken 3 discards, all from seat 0, the player
    before him: seat 0 pays 6 x 2; seat 2 pays nothing. Off: each pays 6."""
    for liable, want in ((True, [-12, 12, 0]), (False, [-6, 12, -6])):
        params, values, st = _table(["Kd", "", "Qd"], phom_three_taken_liability=liable)
        st[S.R_SEAT + 1, S.S_PICKED] = sum(1 << k for k in parse_cards("5s 9h Jc"))
        st[S.R_SC, S.C_DISCARDS_TURN] = 1
        assert _settle(st, params, values, R.REASON_WENT_U, 1)[0] == want


@pytest.mark.nojit
def test_2K_44_discard_taken_penalty_the_discarder_gives_1_chip_per_take():
    """Seat 2 took two discards (from seat 1), seat 0 one (from seat 2): on top of the
    showdown's payments (seat 0 wins: +1 +2), seat 1 gives 2 and seat 2 gives 1."""
    for on, want in ((True, [4, -3, -1]), (False, [3, -1, -2])):
        params, values, st = _table(["5s", "9d", "Kd"], phom_discard_taken_penalty=on)
        st[S.R_SEAT + 2, S.S_PICKED] = sum(1 << k for k in parse_cards("5h 9c"))
        st[S.R_SEAT + 0, S.S_PICKED] = 1 << parse_card("2c")
        assert _settle(st, params, values, R.REASON_SHOWDOWN)[0] == want


# ---- the conditional take and the taken cards (§3.13 step 1) -----------------------------


def _mask(text: str) -> int:
    return sum(1 << k for k in parse_cards(text))


def _seat_with(hand: str, picked: str = ""):
    params, values, st = _table([hand, ""])
    st[S.R_SEAT, S.S_PICKED] = _mask(picked) if picked else 0
    return params, values, st


@pytest.mark.parametrize(
    ("hand", "picked", "top", "allowed"),
    [
        ("5h 6h 2c 9d", "", "7h", True),  # completes 5-6-7 of hearts
        ("5h 2c 9d Kd", "", "7h", False),  # completes nothing
        ("5h 6h 7h 2c", "5h", "8h", False),  # only the meld that holds 5h: two taken cards
        ("5h 6h 7h 7d 2c", "5h", "7c", False),  # 7c 7d need 7h, which 5h's run needs
        ("5h 6h 7h 7d 7s", "5h", "7c", True),  # 5-6-7 of hearts and 7c 7d 7s
    ],
)
def test_3_13_the_discard_top_is_taken_only_into_a_meld_of_its_own(hand, picked, top, allowed):
    params, values, st = _seat_with(hand, picked)
    got = phom_may_take(GENERIC, params, values, st, new_work(), 0, parse_card(top))
    assert bool(got) is allowed


@pytest.mark.parametrize(
    ("card", "allowed"),
    [("5h", False), ("6h", False), ("2c", True), ("9d", True)],
)
def test_3_13_a_taken_card_and_a_card_its_meld_needs_are_never_discarded(card, allowed):
    """5♥ taken into 5♥ 6♥ 7♥: neither 5♥ (taken) nor 6♥ (its meld would break) may go."""
    params, values, st = _seat_with("5h 6h 7h 2c 9d", "5h")
    got = phom_discard_allowed(GENERIC, params, values, st, new_work(), 0, parse_card(card))
    assert bool(got) is allowed


# ---- whole hands -------------------------------------------------------------------------

# seat 0 (the first player, dealt 10): a run, a group and four loose picture and low cards;
# seat 1: nine cards that never meld, 7♠ among them (it fits seat 0's run). The stock, in
# draw order, gives neither player a meld and no discard can be taken.
SHOWDOWN = deal(
    ["4s 5s 6s 9h 9d 9c Kh Qd Jc 2d", "7s Kc Qs Jd Tc 8d 2h 3c Ah"],
    None,
    stock="5h 8h 4d 3h 6c Kd 2c",
    dealer=1,
)


def test_3_13_deal_nine_each_a_tenth_to_the_first_player_who_opens_by_discarding():
    params, values = compiled("phom", 2)
    out = play_deal(SHOWDOWN, params, values)
    dealt = events_of(out, S.E_DEAL)
    assert [len(cards) for _, _, _, cards in dealt] == [10, 9]
    assert events_of(out, S.E_UPCARD) == []
    first = [int(r[S.EV_TYPE]) for r in out.events if int(r[S.EV_TYPE]) != S.E_DEAL][0]
    assert first == S.E_DISCARD  # no draw before the opening discard
    assert events_of(out, S.E_DISCARD)[0] == (0, parse_card("Kh"), 0, [])


def test_3_13_four_turns_each_melds_shown_in_the_fourth_and_lay_offs_on_shown_melds():
    params, values = compiled("phom", 2)
    out = play_deal(SHOWDOWN, params, values)
    no_violations(out)
    assert end_of(out) == ("showdown", 0) and turns_of(out) == 8
    melds = events_of(out, S.E_MELD)
    assert [(seat, sorted(cards)) for seat, _, _, cards in melds] == [
        (0, sorted(parse_cards("4s 5s 6s"))),
        (0, sorted(parse_cards("9h 9d 9c"))),
    ]
    # seat 1, móm, lays 7♠ off on seat 0's run in his fourth turn
    assert events_of(out, S.E_LAYOFF) == [(1, 0, parse_card("7s"), [])]
    discards = [int(r[S.EV_TYPE]) for r in out.events]
    first_meld = discards.index(S.E_MELD)
    assert discards[:first_meld].count(S.E_DISCARD) == 6  # in seat 0's fourth turn
    # seat 0 keeps 2♦ 8♥ 3♥ (13); seat 1 is móm and pays 4
    assert list(out.hand_scores[0]) == [4, -4]
    scores = events_of(out, S.E_SCORE)
    assert [(seat, a, b) for seat, a, b, _ in scores] == [(0, 4, 13), (1, -4, 31)]


def test_3_13_the_hands_row_records_which_seats_were_mom():
    """Issue #32 point 4: at SHOWDOWN's end seat 0 has shown two melds and seat 1 none (he
    only laid off): ``mom_seats`` holds seat 1's bit alone; an Ù hand, which ends before
    anyone shows, holds none."""
    params, values = compiled("phom", 2)
    out = play_deal(SHOWDOWN, params, values)
    assert end_of(out) == ("showdown", 0)
    assert out.hand_rows[0, R.H_MOM_SEATS] == 0b10
    u_deal = deal(["As 2s 3s 4s 5h 5d 5c 9h 9d 9c", "7s Kc Qs Jd Tc 8d 2h 3c Ah"], None,
                  dealer=1)  # fmt: skip
    out = play_deal(u_deal, params, values)
    assert end_of(out) == ("went_u", 0)
    assert out.hand_rows[0, R.H_MOM_SEATS] == 0


def test_3_13_mom_seats_are_the_losers_who_pay_4_chips():
    """In whole games at 4 players (no option that adds payments), a losing seat of a
    showdown pays 4 exactly when ``mom_seats`` holds its bit (the others pay their place,
    1 to 3), and the column is 0 after every Ù; some hands have a móm seat and some do not."""
    hands = _games(players=4, hands=3000)
    with_mom = 0
    for reason, winner, scores, mom in hands.select(
        "end_reason", "winner", "hand_scores", "mom_seats"
    ).iter_rows():
        if reason != "showdown":
            assert mom == 0
            continue
        with_mom += mom != 0
        for seat, chips in enumerate(scores):
            if seat != winner:
                assert (chips == -4) == bool((mom >> seat) & 1), (scores, mom)
    assert 0 < with_mom < len(hands)


def test_every_other_variant_writes_no_mom_seat():
    """Móm is Phỏm's alone: every other variant file, at its fewest players, writes 0."""
    for name, _ in list_variants():
        if name == "phom":
            continue
        players = min(load_variant(name).player_counts)
        hands = simulate(name, players=players, bots="greedy", hands=50, seed=5)
        assert hands["mom_seats"].to_list() == [0] * 50, name


def test_2K_43_without_lay_offs_on_others_the_card_stays_in_hand():
    params, values = compiled("phom", 2, phom_layoff_others=False)
    out = play_deal(SHOWDOWN, params, values)
    no_violations(out)
    assert events_of(out, S.E_LAYOFF) == []
    assert [(s, a, b) for s, a, b, _ in events_of(out, S.E_SCORE)] == [(0, 4, 13), (1, -4, 38)]


def test_3_13_the_next_player_takes_a_discard_that_completes_his_meld():
    params, values = compiled("phom", 2)
    fixed = deal(
        ["4s 5s 6s 9h 9d 9c Kh Qd Jc 2d", "7s Kc Ks Jd Tc 8d 2h 3c Ah"],
        None,
        stock="5h 8h 4d 3h 6c Kd 2c",
        dealer=1,
    )
    out = play_deal(fixed, params, values)
    no_violations(out)
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (1, parse_card("Kh"))


def test_3_13_u_without_a_discard_at_the_opening_collects_12_from_each():
    params, values = compiled("phom", 2)
    fixed = deal(["As 2s 3s 4s 5h 5d 5c 9h 9d 9c", "7s Kc Qs Jd Tc 8d 2h 3c Ah"], None,
                 dealer=1)  # fmt: skip
    out = play_deal(fixed, params, values)
    no_violations(out)
    assert end_of(out) == ("went_u", 0) and turns_of(out) == 1
    assert list(out.hand_scores[0]) == [12, -12]
    assert events_of(out, S.E_DISCARD) == [] and len(events_of(out, S.E_MELD)) == 3


def test_3_13_u_with_a_discard_collects_6_from_each():
    params, values = compiled("phom", 3)
    fixed = deal(
        [
            "As 2s 3s 5h 5d 5c 9h 9d 9c Kd",
            "7s Kc Qs Jd Tc 8d 2h 3c Ah",
            "6s 7h 8c Jh Qc 4d 3d 2c Kh",
        ],
        None,
        dealer=2,
    )
    out = play_deal(fixed, params, values)
    no_violations(out)
    assert end_of(out) == ("went_u", 0)
    assert list(out.hand_scores[0]) == [12, -6, -6]
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("Kd"), 0, [])]


# ---- whole games: each option changes play; games end by deals ---------------------------


def _games(players: int = 4, hands: int = 5000, **overrides):
    return simulate("phom", players=players, bots="greedy", hands=hands, seed=7, **overrides)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("phom_layoff_others", False),
        ("phom_discard_taken_penalty", True),
        ("phom_three_taken_liability", True),
    ],
)
def test_2K_each_option_changes_the_games(option, value):
    base = _games()
    flipped = _games(**{option: value})
    assert base["hand_scores"].to_list() != flipped["hand_scores"].to_list()


def test_3_13_a_game_lasts_three_deals_per_player_and_chips_are_zero_sum():
    hands = _games(players=3, hands=900)
    assert all(sum(s) == 0 for s in hands["hand_scores"].to_list())
    whole = hands.filter(hands["game"] < hands["game"].max())  # the last game is cut short
    per_game = whole.group_by("game").len()["len"].to_list()
    assert min(per_game) == 9  # deals_each:3; a tie plays on (§1.11)
    assert max(per_game) > 9
    assert sorted(set(hands["end_reason"].to_list())) == ["showdown", "went_u"]


def test_3_13_every_bot_plays_every_table_size_with_no_violation():
    for players in (2, 3, 4):
        params, values = compiled("phom", players)
        for bot in (R.BOT_RANDOM, R.BOT_GREEDY, R.BOT_CAREFUL):
            out = play(params, values, np.full(players, bot, np.int64), seed=3, hands=300)
            no_violations(out)
            assert (out.hand_scores.sum(axis=1) == 0).all()


# ---- the rules model ---------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"upcard": True}, "upcard"),
        ({"decks": 2}, "decks"),
        ({"melds_per_turn": "one"}, "melds_per_turn"),
        ({"game_end": "target:100"}, "game_end"),
        ({"chip_stack": 30}, "chip_stack"),
    ],
)
def test_3_13_the_phom_family_refuses_what_it_does_not_use(overrides, key):
    with pytest.raises(ConfigError) as info:
        load_variant("phom", overrides)
    assert info.value.key == key


@pytest.mark.nojit
def test_3_13_the_stock_must_hold_a_draw_for_every_turn():
    text = rules_to_toml(load_variant("phom")).replace("players = [2, 4]", "players = [2, 5]")
    text = text.replace("4 = 9", "4 = 9\n5 = 9")
    with pytest.raises(ConfigError, match="short of the 19 draws"):
        rules_from_toml(text, "phom5.toml")


@pytest.mark.nojit
def test_2D_18_phom_final_is_the_phom_familys_meld_timing_only():
    with pytest.raises(ConfigError, match="'phom_final' exactly in the phom family"):
        load_variant("rummy_basic", {"meld_timing": "phom_final"})


# ---- play_direction (§2K.46, engine-wide) ------------------------------------------------


def test_2K_46_counterclockwise_the_dealers_right_plays_first_and_turns_go_right():
    """Dealer seat 0 at 3 players: counterclockwise seat 2 is dealt the 10th card and opens,
    then seat 1, then seat 0 (Phỏm's traditional direction, §3.13 open point 1)."""
    params, values = compiled("phom", 3, play_direction="counterclockwise")
    fixed = deal(
        [
            "Ts 7h 8c Jh Qc 4d 3d 2c Kh",
            "7s Kc Qs Jd Tc 8d 2h 3c Ah",
            "4s 5s 6s 9h 9d 9c Kd Qd Jc 2d",
        ],
        None,
        stock="5h 8h 3h 6c Ks 2s 7d 8s Th Js 5c 5d 6d 7c Ad",
        dealer=0,
    )
    out = play_deal(fixed, params, values)
    no_violations(out)
    assert [len(c) for _, _, _, c in events_of(out, S.E_DEAL)] == [9, 9, 10]
    seats = [seat for seat, _, _, _ in events_of(out, S.E_DISCARD)]
    assert seats[:6] == [2, 1, 0, 2, 1, 0]


def test_2K_46_the_direction_changes_games_of_three_and_not_games_of_two():
    for variant in ("rummy_basic", "phom"):
        three = [
            simulate(variant, players=3, hands=400, seed=5, play_direction=d)["hand_scores"]
            for d in ("clockwise", "counterclockwise")
        ]
        assert three[0].to_list() != three[1].to_list()
        two = [
            simulate(variant, players=2, hands=400, seed=5, play_direction=d)["hand_scores"]
            for d in ("clockwise", "counterclockwise")
        ]
        assert two[0].to_list() == two[1].to_list()  # with two seats both ways are the same
