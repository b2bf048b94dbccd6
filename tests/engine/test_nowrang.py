"""Nowrang (RULES.md §3.15) on the one turn loop: the 11/10 deal without an upcard (the rummy
family's ``upcard`` off, ``deal.extra_card``), the ace high only, going out all at once
(§2D.18) with exactly the pattern of ``go_out_pattern = "runs_4_3_3"`` (three runs of one
suit each, 4 + 3 + 3; groups do not count), one hand a game.

Hand-built deals: seat 1 deals, so seat 0 is the non-dealer, dealt 11 cards, and opens by
discarding. The pattern test (``patterns.fit_pattern``) and the bots' cover
(``pattern_policy.cover``) are checked against the brute force of
``tests/oracles/patterns.py`` (which imports nothing of the engine).
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import patterns
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import play
from sim.engine.melds import new_work
from sim.engine.patterns import RUNS_4_3_3, cover, fit_pattern
from sim.rules import ConfigError, load_variant
from tests.oracles import patterns as oracle

from .helpers import (
    CAREFUL,
    GREEDY,
    RANDOM,
    compiled,
    deal,
    end_of,
    events_of,
    mask_of,
    no_violations,
    play_deal,
    turns_of,
)

PATTERN = (4, 3, 3)

# seat 0 (non-dealer, 11 cards): nothing near a pattern; seat 1 (dealer, 10 cards): a run of
# 4 and one of 3 with 2d 3d waiting for 4d (the ace is high: A-2-3 is no run), and Kc loose
SEAT0_LOOSE = "Ah Kh 5h 2c 4c 6c 8c Qd Td 8d Ks"
SEAT1_WAITING = "4s 5s 6s 7s 9h Th Jh 2d 3d Kc"


def _melded(out) -> list[list[int]]:
    return sorted(sorted(cards) for _, _, _, cards in events_of(out, S.E_MELD))


def _runs(text: str) -> list[list[int]]:
    return sorted(sorted(parse_cards(run)) for run in text.split("|"))


def _order(out) -> list[tuple[int, int]]:
    """(event type, seat) of the hand's draws, discards and melds, in order."""
    kinds = (S.E_DRAW_STOCK, S.E_DRAW_DISCARD, S.E_DISCARD, S.E_MELD)
    return [
        (int(row[S.EV_TYPE]), int(row[S.EV_SEAT]))
        for row in out.events
        if int(row[S.EV_TYPE]) in kinds
    ]


def test_3_15_variant_file():
    rules = load_variant("nowrang")
    assert rules.players == (2, 2)
    assert rules.deal_for(2)[0] == 10
    assert rules.ace_rank == "high" and rules.upcard is False
    assert rules.meld_timing == "all_at_once" and rules.go_out_pattern == "runs_4_3_3"
    assert rules.game_end == "single_hand" and rules.stock_exhaustion == "turn_over"


@pytest.mark.nojit
def test_3_15_deal_11_to_non_dealer_10_to_dealer():
    params, values = compiled("nowrang")
    out = play(params, values, np.array([GREEDY, GREEDY]), seed=3, hands=20, events=20000)
    dealt = events_of(out, S.E_DEAL)
    assert len(dealt) == 40
    for i in range(20):
        dealer = int(out.hand_rows[i, R.H_DEALER])
        sizes = {seat: len(cards) for seat, _, _, cards in dealt[2 * i : 2 * i + 2]}
        assert sizes == {dealer: 10, 1 - dealer: 11}
    assert not events_of(out, S.E_UPCARD)  # no upcard
    no_violations(out)


@pytest.mark.nojit
def test_3_15_non_dealer_opening_turn_is_only_a_discard():
    params, values = compiled("nowrang")
    out = play_deal(deal([SEAT0_LOOSE, SEAT1_WAITING], None, stock="Jc"), params, values)
    order = _order(out)
    assert order[0] == (S.E_DISCARD, 0)  # the non-dealer discards without drawing
    assert order[1][1] == 1 and order[1][0] in (S.E_DRAW_STOCK, S.E_DRAW_DISCARD)
    no_violations(out)


@pytest.mark.nojit
def test_3_15_non_dealer_may_declare_on_opening_discard():
    hand = "4s 5s 6s 7s 9h Th Jh 2d 3d 4d Kc"
    params, values = compiled("nowrang")
    out = play_deal(deal([hand, SEAT0_LOOSE.replace("Kh ", "")], None), params, values)
    assert end_of(out) == ("went_out", 0)
    assert turns_of(out) == 1
    assert _melded(out) == _runs("4s 5s 6s 7s|9h Th Jh|2d 3d 4d")
    assert events_of(out, S.E_DISCARD) == [(0, parse_card("Kc"), 0, [])]
    assert not events_of(out, S.E_DRAW_STOCK)
    no_violations(out)


@pytest.mark.nojit
def test_3_15_declares_after_drawing_showing_10_and_discarding_the_11th():
    params, values = compiled("nowrang")
    out = play_deal(deal([SEAT0_LOOSE, SEAT1_WAITING], None, stock="4d"), params, values)
    assert events_of(out, S.E_DRAW_STOCK)[0][:2] == (1, parse_card("4d"))
    assert end_of(out) == ("went_out", 1)
    assert turns_of(out) == 2
    assert _melded(out) == _runs("4s 5s 6s 7s|9h Th Jh|2d 3d 4d")
    assert events_of(out, S.E_DISCARD)[-1][:2] == (1, parse_card("Kc"))
    no_violations(out)


@pytest.mark.nojit
def test_3_15_declaring_with_the_discard_top_never_discards_it():
    # seat 0 opens by discarding 4d, his one card with no neighbour; seat 1 takes it (it
    # completes 2d 3d 4d), declares and discards Kc: never the card just taken (§3.15)
    seat0 = "Qs Ks As 5c 6c 7c 8c Jd Qd 9d 4d"
    params, values = compiled("nowrang")
    out = play_deal(deal([seat0, SEAT1_WAITING], None, stock="Jc"), params, values)
    assert events_of(out, S.E_DISCARD)[0][:2] == (0, parse_card("4d"))
    assert events_of(out, S.E_DRAW_DISCARD)[0][:2] == (1, parse_card("4d"))
    assert end_of(out) == ("went_out", 1) and turns_of(out) == 2
    assert _melded(out) == _runs("4s 5s 6s 7s|9h Th Jh|2d 3d 4d")
    assert events_of(out, S.E_DISCARD)[-1][:2] == (1, parse_card("Kc"))
    no_violations(out)


@pytest.mark.nojit
def test_3_15_groups_do_not_count():
    # 10 of the 11 cards meld wholly with groups (7s 7h 7d, 9s 9h 9d) and a run of 4, but
    # they are not three runs: no declaration; with any melds (go_out_pattern none) he is out
    groups = "7s 7h 7d 9s 9h 9d 2c 3c 4c 5c Kd"
    other = "Ah Kh 5h Jc Qd Td 8d Ks 2s 3h"
    fixed = deal([groups, other], None, stock="Jd")
    params, values = compiled("nowrang")
    out = play_deal(fixed, params, values)
    order = _order(out)
    assert order[0] == (S.E_DISCARD, 0) and order[1][1] == 1  # nothing melded: seat 1 draws
    no_violations(out)
    params, values = compiled("nowrang", go_out_pattern="none")
    free = play_deal(fixed, params, values)
    assert end_of(free) == ("went_out", 0) and turns_of(free) == 1
    assert events_of(free, S.E_DISCARD) == [(0, parse_card("Kd"), 0, [])]
    no_violations(free)


@pytest.mark.nojit
def test_3_15_two_runs_may_share_a_suit_a_run_of_7_is_4_and_3():
    hand = "3s 4s 5s 6s 7s 8s 9s Jh Qh Kh 2c"
    other = "Ah Kd 5h 2d 4c 6c 8c Qd Td 8d"
    params, values = compiled("nowrang")
    out = play_deal(deal([hand, other], None), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    melded = _melded(out)
    assert sorted(len(m) for m in melded) == [3, 3, 4]
    assert sorted(k for m in melded for k in m) == sorted(parse_cards(hand[:-3]))
    no_violations(out)


@pytest.mark.nojit
def test_3_15_ace_high_only():
    q_k_a = "Qs Ks As 4h 5h 6h 7h 8d 9d Td 2c"
    a_2_3 = "As 2s 3s 4h 5h 6h 7h 8d 9d Td Qc"
    other = "Jc 9c 7c 5c Jd 6d 4d 2h Th Qh"
    params, values = compiled("nowrang")
    out = play_deal(deal([q_k_a, other], None), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    assert _melded(out) == _runs("Qs Ks As|4h 5h 6h 7h|8d 9d Td")
    out = play_deal(deal([a_2_3, other], None, stock="Kc"), params, values)
    assert not (end_of(out) == ("went_out", 0) and turns_of(out) == 1)  # A-2-3 is no run
    no_violations(out)
    # flip: with the ace low (open point 2's other reading) A-2-3 goes out and Q-K-A does not
    params, values = compiled("nowrang", ace_rank="low")
    out = play_deal(deal([a_2_3, other], None), params, values)
    assert end_of(out) == ("went_out", 0) and turns_of(out) == 1
    out = play_deal(deal([q_k_a, other], None, stock="Kc"), params, values)
    assert not (end_of(out) == ("went_out", 0) and turns_of(out) == 1)
    no_violations(out)


def test_3_15_the_declaration_wins_the_game():
    params, values = compiled("nowrang")
    out = play(params, values, np.array([GREEDY, CAREFUL]), seed=5, games=200)
    assert out.games == 200 and out.hands == 200  # one hand a game
    hands, games = out.hand_rows[:200], out.game_rows[:200]
    assert (games[:, R.G_HANDS] == 1).all()
    assert (games[:, R.G_WINNER] == hands[:, R.H_WINNER]).all()
    won = hands[:, R.H_END_REASON] == R.REASON_WENT_OUT
    assert won.mean() > 0.9
    # open point 4 and §2H.30: the winner scores the others' cards (pip_to_winner, ace 10)
    for i in np.flatnonzero(won)[:20]:
        winner = hands[i, R.H_WINNER]
        assert out.hand_scores[i, winner] > 0 and out.hand_scores[i, 1 - winner] == 0
    no_violations(out)


def test_3_15_stock_exhaustion_turns_the_discard_pile_over():
    params, values = compiled("nowrang")
    out = play(params, values, np.array([RANDOM, RANDOM]), seed=2, hands=300)
    rows = out.hand_rows[:300]
    assert rows[:, R.H_REBUILDS].max() > 0
    assert not (rows[:, R.H_END_REASON] == R.REASON_EXHAUSTED).any()
    no_violations(out)


@pytest.mark.nojit
def test_2C_15_flip_an_upcard_deals_10_each_and_the_first_player_draws():
    params, values = compiled("nowrang", upcard=True)
    out = play(params, values, np.array([GREEDY, GREEDY]), seed=3, hands=5, events=5000)
    dealt = events_of(out, S.E_DEAL)
    assert {len(cards) for _, _, _, cards in dealt} == {10}
    assert len(events_of(out, S.E_UPCARD)) == 5
    first = _order(out)[0]
    assert first[0] in (S.E_DRAW_STOCK, S.E_DRAW_DISCARD)
    no_violations(out)


def test_2C_15_the_11_10_opening_under_any_all_at_once_file():
    # upcard off is the rummy family's 11/10 opening under all_at_once, pattern or not
    params, values = compiled("full_rummy", 4, upcard=False)
    out = play(params, values, np.array([GREEDY, CAREFUL, RANDOM, GREEDY]), seed=4, hands=300)
    no_violations(out)
    assert (out.hand_rows[:300, R.H_END_REASON] == R.REASON_WENT_OUT).mean() > 0.9


def test_3_15_rules_model_refusals():
    with pytest.raises(ConfigError, match="go_out_pattern"):
        load_variant("rummy_basic", {"go_out_pattern": "runs_4_3_3"})
    with pytest.raises(ConfigError, match="run_suit"):
        load_variant("nowrang", {"run_suit": "any_suit"})
    with pytest.raises(ConfigError, match="ace_rank"):
        load_variant("nowrang", {"ace_rank": "high_or_low"})
    with pytest.raises(ConfigError, match="upcard"):
        load_variant("rummy_basic", {"upcard": False})
    load_variant("full_rummy", {"upcard": False})  # the 11/10 opening under all_at_once
    with pytest.raises(ConfigError, match="dealt"):  # the pattern holds 10 cards
        load_variant("full_rummy", {"go_out_pattern": "runs_4_3_3"})
    with pytest.raises(ConfigError, match="go_out_pattern"):
        load_variant("nowrang", {"meld_timing": "progressive", "upcard": True})


@pytest.mark.parametrize("line_up", [(GREEDY, GREEDY), (CAREFUL, CAREFUL), (RANDOM, RANDOM),
                                     (GREEDY, RANDOM), (CAREFUL, GREEDY)])  # fmt: skip
def test_3_15_audit_and_stalls(line_up):
    params, values = compiled("nowrang", audit=True)
    out = play(params, values, np.array(line_up), seed=11, hands=2000)
    no_violations(out)
    reasons = out.hand_rows[:2000, R.H_END_REASON]
    assert set(np.unique(reasons)) <= {R.REASON_WENT_OUT, R.REASON_STALLED}
    if RANDOM not in line_up:
        assert (reasons == R.REASON_STALLED).mean() <= 0.02


# ---- the pattern test and the bots' cover against the brute force ---------------------------


def _random_hands(rng, n, size):
    """Hands of ``size`` cards: a third that fit (plus a loose card at 11), a third one card
    off a pattern, a third uniform."""
    for t in range(n):
        ace_high = bool(t % 2)
        if t % 3 == 0:
            hand = oracle.random_pattern_hand(rng, PATTERN, ace_high)
        elif t % 3 == 1:
            hand = oracle.random_pattern_hand(rng, PATTERN, ace_high)
            hand.discard(sorted(hand)[int(rng.integers(len(hand)))])
        else:
            hand = set()
        while len(hand) < size:
            hand.add(int(rng.integers(52)))
        yield hand, ace_high


def test_3_15_pattern_test_agrees_with_the_brute_force_on_20000_hands():
    rng = np.random.default_rng(315)
    _, values = compiled("nowrang")
    work = new_work()
    fits = 0
    for hand, ace_high in _random_hands(rng, 20_000, 10):
        layout = np.int64(L.ACE_HIGH if ace_high else L.ACE_LOW)
        got = fit_pattern(
            values, work, np.int64(mask_of(hand)), layout, np.int64(RUNS_4_3_3), np.bool_(True)
        )
        want = oracle.fits(hand, PATTERN, ace_high)
        assert (got > 0) == want, (sorted(hand), ace_high)
        fits += want
    assert fits > 6000


def test_3_15_out_discards_agree_with_the_brute_force_on_11_card_hands():
    rng = np.random.default_rng(1115)
    _, values = compiled("nowrang")
    work = new_work()
    outs = 0
    for hand, ace_high in _random_hands(rng, 3000, 11):
        layout = np.int64(L.ACE_HIGH if ace_high else L.ACE_LOW)
        mask = mask_of(hand)
        got = {
            c
            for c in hand
            if fit_pattern(
                values,
                work,
                np.int64(mask & ~(1 << c)),
                layout,
                np.int64(RUNS_4_3_3),
                np.bool_(False),
            )  # fmt: skip
        }
        assert got == oracle.out_cards(hand, PATTERN, ace_high)
        outs += bool(got)
    assert outs > 500


def test_3_15_bots_cover_agrees_with_the_brute_force():
    rng = np.random.default_rng(7)
    work = new_work()
    for hand, ace_high in _random_hands(rng, 150, 11):
        layout = np.int64(L.ACE_HIGH if ace_high else L.ACE_LOW)
        size, kept = cover(work, np.int64(mask_of(hand)), np.int64(RUNS_4_3_3), layout)
        assert size == oracle.best_cover(hand, PATTERN, ace_high)
        assert int(kept) & ~mask_of(hand) == 0 and bin(int(kept)).count("1") == size


def _merged_suit_by_suit(work, hand, lengths, layout):
    """``cover``'s answer as the suit-by-suit merge gives it (68c9c51's ``cover``): suit 0's
    covers, then each next suit merged in, a split of a state's runs replacing the kept one
    only when strictly better, from the per-suit covers ``cover`` keeps (``W_COVERS``: the
    sizes in the column's shape, the cards as suit 0's kinds)."""
    slot, _ = patterns._slot(work, np.int64(lengths), np.int64(layout))
    head = patterns.W_STATES + patterns.STATE_ROWS * slot
    n_states = int(work[head, patterns.ST_N])
    full = n_states - 1
    fits = [int(work[head + patterns.W_FITS, t]) for t in range(n_states)]
    e = int(patterns._to_positions(np.int64(hand), np.int64(layout)))
    n_pos = int(patterns.n_positions(np.int64(layout)))
    sizes, kinds = None, None
    for s in range(4):
        col = int(patterns.suit_column(np.int64(e), np.int64(s), np.int64(n_pos)))
        row = patterns.W_COVERS + patterns.TABLE_COLUMNS * slot + col
        shape = int(work[row, patterns.C_SHAPE])
        own = [(0, 0)]
        for u in range(1, n_states):
            size = (shape >> (4 * (u - 1))) & 0xF
            own.append((-1 if size == 0xF else size, int(work[row, 1 + u]) << s))
        if sizes is None:
            sizes, kinds = [o[0] for o in own], [o[1] for o in own]
            continue
        new_sizes, new_kinds = list(sizes), list(kinds)
        for t in range(full if s == 3 else 0, n_states):
            best, best_kinds = -1, 0
            for u in range(n_states):  # lowest first; only a strictly better split replaces
                if not fits[t] >> u & 1 or sizes[t - u] < 0 or own[u][0] < 0:
                    continue
                if sizes[t - u] + own[u][0] > best:
                    best, best_kinds = sizes[t - u] + own[u][0], kinds[t - u] | own[u][1]
            new_sizes[t], new_kinds[t] = best, best_kinds
        sizes, kinds = new_sizes, new_kinds
    return sizes[full], kinds[full]


def test_cover_keeps_the_first_best_placement_of_the_suit_by_suit_merge():
    """``cover`` merges kept pairs of suits (``patterns._pair``), its covers ranked so that
    the cards kept are those the suit-by-suit merge kept first: Nowrang's pattern and
    Continental's three alternatives, in one workspace (its kept pairs and slots reused)."""
    rng = np.random.default_rng(1533)
    work = new_work()
    cases = [(RUNS_4_3_3, L.ACE_HIGH), (RUNS_4_3_3, L.ACE_LOW)] + [
        (patterns.alternative(np.int64(patterns.CONTINENTAL), np.int64(a)), L.ACE_HIGH_OR_LOW)
        for a in range(3)
    ]
    for i in range(4000):
        lengths, layout = cases[i % len(cases)]
        hand = mask_of(
            {int(c) for c in rng.choice(52, size=int(rng.integers(6, 17)), replace=False)}
        )
        got = cover(work, np.int64(hand), np.int64(lengths), np.int64(layout))
        assert (int(got[0]), int(got[1])) == _merged_suit_by_suit(work, hand, lengths, layout)
