"""The knock family on the engine (sim/engine): the defender's lay-off search
against a brute force over every sequence of lay-offs, and clause tests of RULES.md §2I.32,
§3.10, §3.17 and §3.20 on hand-built states."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.cards import N_NATURAL, parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.engine.game import gin_game_bonuses
from sim.engine.go_out import may_knock
from sim.engine.layoffs import arrange_mask, best_layoffs, meldable_mask, seat_arrangement
from sim.engine.scoring import score_knock
from sim.engine.showdown import lay_off_all
from sim.engine.specs import GENERIC
from sim.engine.stock_out import voids_hand
from sim.engine.table import lay_down
from sim.rules import load_variant
from tests.oracles.deadwood import is_meld, min_deadwood

ACE_CODES = {"low": 0, "high": 1, "around_corner": 3}  # the engine's ace_rank codes, the oracle's
RUN_CODES = {"same_suit": 0, "any_suit": 1}


def _state(variant="gin_rummy", **overrides):
    rules = load_variant(variant)
    if overrides:
        rules = rules.with_values(overrides)
    params, values = api.compile_rules(rules, 2)
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    st[S.R_SC, S.C_TAKEN] = -1
    st[S.R_SC, S.C_UPCARD] = -1
    return params, values, st, piles


def _mask(cards):
    m = np.int64(0)
    for k in cards:
        m |= np.int64(1) << k
    return m


def _kinds(mask):
    return [k for k in range(N_NATURAL) if (int(mask) >> k) & 1]


def _hold(params, st, seat, cards):
    for k in cards:
        S.give(GENERIC, params, st, seat, k)


def _lay_knocker(params, values, st, work, cards):
    """Seat 0 holds ``cards`` and lays down their best arrangement, as at a showdown."""
    _hold(params, st, 0, cards)
    events = np.zeros((1, S.EV_COLS), np.int64)
    arrange_mask(GENERIC, params, values, work, st[S.R_SEAT, S.S_HAND])
    melds = []
    for m in range(work[M.W_SCAL, M.S_BEST_N]):
        melds.append(_kinds(work[M.W_BEST + m, M.CA_TAKE]))
        lay_down(GENERIC, params, st, events, 0, work, M.W_BEST + m)
    return melds


# ---- the lay-off search against a brute force --------------------------------------------------


def _brute_layoffs(hand, melds, ace, values, run_suit=0):
    """(deadwood, laid) by the declared tie-break over every set of cards that some sequence
    of lay-offs (a card on a meld that stays a meld with it) puts on ``melds``."""
    reachable = set()
    seen = set()

    def walk(laid, table):
        key = (laid, tuple(tuple(sorted(m)) for m in table))
        if key in seen:
            return
        seen.add(key)
        reachable.add(laid)
        for c in hand:
            if c in laid:
                continue
            for i, meld in enumerate(table):
                if is_meld([*meld, c], ace, run_suit, False):
                    walk(laid | {c}, table[:i] + [[*meld, c]] + table[i + 1 :])

    walk(frozenset(), [list(m) for m in melds])
    best = None
    for laid in reachable:
        kept = [c for c in hand if c not in laid]
        dw = min_deadwood(kept, ace, run_suit, False, values)
        key = (dw, len(laid), sum(1 << c for c in laid))
        if best is None or key < best:
            best = key
    return best[0], best[2]


def _random_position(rng, any_suit=False):
    """A knocker's hand built from a few melds and loose cards, and a defender's hand
    with cards next to those melds more often than chance (runs of mixed suits and cards
    of the ranks next to the knocker's under ``any_suit``)."""
    deck = list(range(N_NATURAL))
    rng.shuffle(deck)
    knocker = set()
    while len(knocker) < 7:
        if rng.random() < 0.5:
            rank = rng.randrange(13)
            suits = rng.sample(range(4), 3)
            cards = {rank * 4 + s for s in suits}
        else:
            suit = rng.randrange(4)
            lo = rng.randrange(11)
            length = rng.choice((3, 3, 4))
            suits = [rng.randrange(4) if any_suit else suit for _ in range(length)]
            cards = {(lo + i) * 4 + suits[i] for i in range(length)}
        if not cards & knocker and len(knocker | cards) <= 10:
            knocker |= cards
    rest = [c for c in deck if c not in knocker]
    while len(knocker) < 10:
        knocker.add(rest.pop())
    if any_suit:
        near = [c for c in rest if any(abs(c // 4 - k // 4) <= 2 for k in knocker)]
    else:
        near = [c for c in rest if any(abs(c - k) in (1, 2, 3, 4, 8) for k in knocker)]
    defender = set()
    while len(defender) < 10:
        pool = near if rng.random() < 0.6 and near else rest
        c = rng.choice(pool)
        if c not in knocker:
            defender.add(c)
    return sorted(knocker), sorted(defender)


@pytest.mark.parametrize("run_suit", ["same_suit", "any_suit"])
@pytest.mark.parametrize("ace", ["low", "high", "around_corner"])
def test_s3_17_the_defenders_layoffs_match_a_brute_force_over_every_sequence(ace, run_suit):
    """§3.17 (and §2A.6's runs of any suits, where two cards may want the same place)."""
    any_suit = run_suit == "any_suit"
    rng = random.Random(17 + len(ace) + 100 * any_suit)
    checked = laid_some = 0
    for _ in range(150):
        if any_suit and ace == "around_corner":
            # the rules model refuses this pair in the knock families (the old engine's
            # arrangement cannot play it); the lay-off search does, so it is checked too
            params, values, st, _ = _state(run_suit=run_suit)
            params[L.P_ACE_RANK] = L.ACE_AROUND_CORNER
        else:
            params, values, st, _ = _state(ace_rank=ace, run_suit=run_suit)
        work = M.new_work()
        knocker, defender = _random_position(rng, any_suit)
        melds = _lay_knocker(params, values, st, work, knocker)
        if not melds:
            continue
        dw, laid = best_layoffs(GENERIC, params, values, st, work, np.int64(1), _mask(defender), 0)
        want_dw, want_laid = _brute_layoffs(
            defender, melds, ACE_CODES[ace], values[:53], RUN_CODES[run_suit]
        )
        assert (dw, int(laid)) == (want_dw, want_laid), (knocker, defender, melds)
        _hold(params, st, 1, defender)
        events = np.zeros((1, S.EV_COLS), np.int64)
        lay_off_all(GENERIC, params, st, work, events, 1, 0, laid)
        assert st[S.R_SC, S.C_VIOLATIONS] == 0
        assert int(st[S.R_SEAT + 1, S.S_HAND]) == int(_mask(defender) & ~laid)
        checked += 1
        laid_some += laid != 0
    assert checked >= 100 and laid_some >= 20


@pytest.mark.nojit
def test_s3_17_open_point_3_a_layoff_may_extend_through_cards_just_laid_off():
    params, values, st, _ = _state()
    work = M.new_work()
    _lay_knocker(params, values, st, work, parse_cards("5h 6h 7h Ks Kd Kc 2c 3d 4s 9c"))
    dw, laid = best_layoffs(
        GENERIC, params, values, st, work, np.int64(1), _mask(parse_cards("8h 9h Kh Qc")), 0
    )
    assert sorted(_kinds(laid)) == sorted(parse_cards("8h 9h Kh"))
    assert dw == 10  # the Qc stays


@pytest.mark.nojit
def test_s3_17_any_suit_a_card_that_fits_two_runs_goes_where_the_next_card_follows():
    """§2A.6 runs of any suits: the 5c fits both 2s-3s-4s and 6h-7d-8c, and only on the
    second can the 4h follow it (laying it on the first meld that takes it would not)."""
    params, values, st, _ = _state(run_suit="any_suit")
    work = M.new_work()
    _lay_knocker(params, values, st, work, parse_cards("2s 3s 4s 6h 7d 8c Kd Kh Td"))
    defender = parse_cards("4h 5c Jd Jc")
    dw, laid = best_layoffs(GENERIC, params, values, st, work, np.int64(1), _mask(defender), 0)
    assert sorted(_kinds(laid)) == sorted(parse_cards("4h 5c"))
    assert dw == 20  # the jacks stay
    _hold(params, st, 1, defender)
    events = np.zeros((1, S.EV_COLS), np.int64)
    lay_off_all(GENERIC, params, st, work, events, 1, 0, laid)
    assert st[S.R_SC, S.C_VIOLATIONS] == 0
    lens = sorted(int(st[S.R_MELD + m, S.M_LEN]) for m in range(st[S.R_SC, S.C_N_MELDS]))
    assert lens == [3, 5]


# ---- clause tests ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "overrides"),
    [
        ("gin_rummy", {}),
        ("gin_rummy", {"run_suit": "any_suit"}),
        ("full_rummy", {"ace_rank": "around_corner"}),
    ],
)
def test_s1_13_the_kept_arrangement_answers_as_a_new_search(variant, overrides):
    """``seat_arrangement`` answers from the arrangement kept for the seat when the hand is
    the kept one less cards outside its melds plus cards in no meld of the new hand: the
    deadwood and the melded cards (the declared tie-break's arrangement) are a new search's,
    over random walks of hands that let cards go and take cards as play does."""
    params, values, st, _ = _state(variant, **overrides)
    work = M.new_work()
    rng = random.Random(13)
    shortcuts = searches = 0
    for _ in range(300):
        st[S.R_SEAT + 0, S.S_ARR_MASK] = 0  # a new hand: nothing kept
        hand = set(rng.sample(range(N_NATURAL), 10))
        for _ in range(12):
            kept = int(st[S.R_SEAT + 0, S.S_ARR_MASK])
            kept_melded = int(st[S.R_SEAT + 0, S.S_ARR_MELDED])
            dropped = rng.sample(sorted(hand), rng.choice((0, 1, 1, 2)))
            if rng.random() < 0.6 and kept:  # mostly a card the arrangement leaves in hand
                loose = [k for k in hand if not (kept_melded >> k) & 1]
                dropped = rng.sample(loose, min(len(loose), 1))
            outside = [k for k in range(N_NATURAL) if k not in hand]
            hand = (hand - set(dropped)) | set(rng.sample(outside, rng.choice((0, 1, 1, 2))))
            mask = _mask(hand)
            got = seat_arrangement(
                GENERIC, params, values, st, work, np.int64(0), mask, np.bool_(True),
                np.int64(0),
            )  # fmt: skip
            want = arrange_mask(GENERIC, params, values, work, mask)
            assert (int(got[0]), int(got[1])) == (int(want[0]), int(want[1])), _kinds(mask)
            extra = int(mask) & ~kept
            if kept and int(mask) != kept and not (kept & ~int(mask)) & kept_melded:
                meldable = int(meldable_mask(GENERIC, params, work, mask))
                shortcuts += extra & meldable == 0
            searches += 1
    assert shortcuts > 300 and searches == 3600  # the kept answer was used, often


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("cards", "allowed"),
    [("As 2s 3s 4h 5h 6h 9c 9d 9s Th", True), ("As 2s 3s 4h 5h 6h 9c 9d 9s Jh 2c", False)],
)
def test_s2i_32_a_knock_needs_deadwood_within_the_limit(cards, allowed):
    params, values, st, _ = _state()
    _hold(params, st, 0, parse_cards(cards))
    ok, deadwood = may_knock(GENERIC, params, values, st, M.new_work(), 0)
    assert ok == allowed
    assert deadwood == (10 if allowed else 12)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("upcard", "deadwood", "allowed"),
    [("4s", 4, True), ("4s", 5, False), ("Kh", 10, True), ("Ad", 1, False)],
)
def test_s3_20_the_upcard_sets_the_knock_limit_an_ace_gin_only(upcard, deadwood, allowed):
    params, values, st, _ = _state("oklahoma_gin")
    st[S.R_SC, S.C_UPCARD] = parse_cards(upcard)[0]
    loose = {1: "Ac", 4: "4c", 5: "5c", 10: "Tc"}[deadwood]
    _hold(params, st, 0, parse_cards(f"7s 8s 9s Jd Qd Kd 2h 2d 2s {loose}"))
    ok, got = may_knock(GENERIC, params, values, st, M.new_work(), 0)
    assert (ok, got) == (allowed, deadwood)


def _score(variant, knocker_dw, defender_dw, upcard=None, **overrides):
    params, values, st, _ = _state(variant, **overrides)
    st[S.R_SEAT, S.S_DEADWOOD] = knocker_dw
    st[S.R_SEAT + 1, S.S_DEADWOOD] = defender_dw
    st[S.R_SEAT + 1, S.S_SIDE] = 1
    if upcard:
        st[S.R_SC, S.C_UPCARD] = parse_cards(upcard)[0]
    scores = np.zeros(2, np.int64)
    side = np.zeros(2, np.int64)
    reason, winner = score_knock(GENERIC, params, st, 0, scores, side)
    return reason, winner, scores.tolist(), side.tolist()


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("k", "d", "want"),
    [
        (7, 15, (L.REASON_KNOCK, 0, [8, 0])),
        (7, 5, (L.REASON_UNDERCUT, 1, [0, 12])),
        (7, 7, (L.REASON_UNDERCUT, 1, [0, 10])),  # a tie undercuts
        (0, 31, (L.REASON_GIN, 0, [51, 0])),
        (0, 0, (L.REASON_GIN, 0, [20, 0])),  # gin is never undercut
    ],
)
def test_s3_17_gin_scores_the_difference_the_undercut_and_the_gin_bonus(k, d, want):
    assert _score("gin_rummy", k, d)[:3] == want


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("upcard", "k", "d", "want"),
    [
        ("4s", 3, 20, (L.REASON_KNOCK, 0, [34, 0], [0, 0])),
        ("4s", 4, 1, (L.REASON_UNDERCUT, 1, [0, 26], [0, 40])),
        ("6h", 0, 25, (L.REASON_GIN, 0, [45, 0], [40, 0])),
        ("6s", 0, 25, (L.REASON_GIN, 0, [90, 0], [80, 0])),
    ],
)
def test_s3_20_a_spade_upcard_doubles_and_side_bonuses_go_apart(upcard, k, d, want):
    assert _score("oklahoma_gin", k, d, upcard) == want


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("k", "d", "want"),
    [
        (6, 9, (L.REASON_KNOCK, 0, [3, 0])),
        (6, 4, (L.REASON_UNDERCUT, 1, [-10, 12])),  # the opponent wins and takes 10
        (6, 6, (L.REASON_UNDERCUT, 1, [0, 0])),  # a tie: he wins, no penalty
        (6, 0, (L.REASON_UNDERCUT, 1, [-10, 41])),  # rum bonus for a non-knocker winner
        (0, 0, (L.REASON_GIN, 0, [25, 0])),  # 0 against 0: the knocker still wins
        (0, 12, (L.REASON_GIN, 0, [37, 0])),
    ],
)
def test_s3_10_knock_rummy_scores_differences_rum_and_the_undercut_penalty(k, d, want):
    assert _score("knock_rummy", k, d)[:3] == want


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("shutout", "totals", "want"),
    [
        ("game_bonus_200", [104, 37], [304, 97]),  # RULES.md §3.17's example
        ("game_bonus_200", [104, 0], [404, 60]),
        ("double_all", [104, 0], [(104 + 100 + 100) * 2, 60]),
    ],
)
def test_s3_17_game_end_adds_the_game_bonus_and_the_box_bonuses(shutout, totals, want):
    params, _, _, _ = _state(shutout=shutout)
    final = np.zeros(2, np.int64)
    won = np.array([5, 3], np.int64)
    gin_game_bonuses(
        GENERIC, params, np.array(totals, np.int64), won, np.zeros(2, np.int64), 0, 2, final
    )
    assert final.tolist() == want


@pytest.mark.nojit
def test_s3_17_two_stock_cards_left_without_a_knock_void_a_gin_hand():
    params, _, st, _ = _state()
    st[S.R_SC, S.C_STOCK_N] = 3
    assert not voids_hand(GENERIC, params, st)
    st[S.R_SC, S.C_STOCK_N] = 2
    assert voids_hand(GENERIC, params, st)
    params, _, st, _ = _state("knock_rummy")
    st[S.R_SC, S.C_STOCK_N] = 2
    assert not voids_hand(GENERIC, params, st)


def _play(variant, hands, bot=L.BOT_SIMPLE, seed=3, **overrides):
    rules = load_variant(variant)
    if overrides:
        rules = rules.with_values(overrides)
    params, values = api.compile_rules(rules, 2, audit=True)
    return api.play(params, values, np.full(2, bot), seed=seed, hands=hands, events=200_000)


def test_s3_17_a_void_hand_is_dealt_again_by_the_same_dealer():
    out = _play("gin_rummy", 3000, bot=L.BOT_RANDOM)
    rows = out.hand_rows
    void = rows[:-1, OUT.H_END_REASON] == L.REASON_VOID
    same_game = rows[1:, OUT.H_GAME] == rows[:-1, OUT.H_GAME]
    assert (void & same_game).sum() > 100
    assert (rows[1:, OUT.H_DEALER] == rows[:-1, OUT.H_DEALER])[void & same_game].all()
    assert out.counters[OUT.C_VIOLATIONS] == 0


def _events(out, etype):
    return out.events[out.events[:, S.EV_TYPE] == etype]


def test_s3_17_the_upcard_offer_passes_to_the_dealer_then_to_the_stock():
    out = _play("gin_rummy", 300)
    ev = out.events
    starts = np.flatnonzero(ev[:, S.EV_TYPE] == S.E_UPCARD)
    patterns = set()
    for i in starts:
        kinds = tuple(int(t) for t in ev[i + 1 : i + 4, S.EV_TYPE])
        seats = tuple(int(s) for s in ev[i + 1 : i + 4, S.EV_SEAT])
        if kinds[0] == S.E_DRAW_DISCARD:
            patterns.add("non-dealer takes")
        elif kinds[:2] == (S.E_DECLINE_UPCARD, S.E_DRAW_DISCARD):
            assert seats[1] != seats[0]  # the dealer took it
            patterns.add("dealer takes")
        else:
            assert kinds == (S.E_DECLINE_UPCARD, S.E_DECLINE_UPCARD, S.E_DRAW_STOCK)
            assert seats[2] == seats[0]  # the non-dealer draws from the stock
            patterns.add("stock")
    assert patterns == {"non-dealer takes", "dealer takes", "stock"}


def test_s3_17_deal_11_10_the_non_dealer_opens_by_discarding():
    out = _play("gin_rummy", 300, gin_opening="deal_11_10")
    assert out.counters[OUT.C_VIOLATIONS] == 0
    assert len(_events(out, S.E_UPCARD)) == 0
    deals = np.flatnonzero(out.events[:, S.EV_TYPE] == S.E_DEAL)
    for i in deals[::2]:
        a, b = out.events[i], out.events[i + 1]
        assert sorted((int(a[S.EV_N]), int(b[S.EV_N]))) == [10, 11]
        opener = int(a[S.EV_SEAT]) if a[S.EV_N] == 11 else int(b[S.EV_SEAT])
        first = out.events[i + 2]
        assert (int(first[S.EV_TYPE]), int(first[S.EV_SEAT])) == (S.E_DISCARD, opener)


def test_s3_18_the_dealer_sits_out_and_the_loser_deals_next():
    params, values = api.compile_rules(load_variant("gin_rummy_3p"), 3, audit=True)
    out = api.play(params, values, np.full(3, L.BOT_SIMPLE), seed=5, hands=2000)
    rows = out.hand_rows
    assert out.counters[OUT.C_VIOLATIONS] == 0
    assert (rows[:, OUT.H_WINNER] != rows[:, OUT.H_DEALER]).all()  # he plays no card
    scored = out.hand_scores[np.arange(len(rows)), rows[:, OUT.H_DEALER]]
    assert (scored == 0).all()
    nxt = rows[1:]
    prev = rows[:-1]
    same_game = nxt[:, OUT.H_GAME] == prev[:, OUT.H_GAME]
    won = same_game & (prev[:, OUT.H_WINNER] >= 0)
    loser = 3 - prev[:, OUT.H_WINNER] - prev[:, OUT.H_DEALER]
    assert won.sum() > 1000
    assert (nxt[won, OUT.H_DEALER] == loser[won]).all()


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        (12, 0, [12, 0, 12, 0]),
        (12, 30, [0, 18, 0, 18]),
        (15, 15, [0, 0, 0, 0]),
        (0, 7, [0, 7, 0, 7]),
    ],
)
def test_s3_19_the_team_that_scored_more_records_the_difference(a, b, want):
    from sim.engine.partnership import team_result

    scores = np.zeros(4, np.int64)
    team_result(a, b, scores)
    assert scores.tolist() == want


def test_s3_19_partners_switch_opponents_and_carry_one_score():
    params, values = api.compile_rules(load_variant("gin_rummy_4p"), 4, audit=True)
    out = api.play(params, values, np.full(4, L.BOT_SIMPLE), seed=2, hands=400, events=100_000)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    sc = out.hand_scores
    assert (sc[:, 0] == sc[:, 2]).all() and (sc[:, 1] == sc[:, 3]).all()
    assert ((sc[:, 0] == 0) | (sc[:, 1] == 0)).all()
    tables = out.events[out.events[:, S.EV_TYPE] == S.E_TABLE]
    pairs = {(int(t[S.EV_SEAT]), int(t[S.EV_B])) for t in tables}
    assert pairs == {(0, 1), (2, 3), (0, 3), (2, 1)}
    games = out.game_scores
    assert (games[:, 0] == games[:, 2]).all() and (games[:, 1] == games[:, 3]).all()


@pytest.mark.nojit
def test_careful_waits_late_with_more_than_3_deadwood_unless_the_next_player_picked_twice():
    from sim.engine.knock_policy import _careful_knocks

    params, _, st, _ = _state()
    st[S.R_SEAT + 1, S.S_SIDE] = 1
    st[S.R_SC, S.C_STOCK_N] = 20
    assert _careful_knocks(GENERIC, params, st, 0, 8)  # early: any count within the limit
    assert not _careful_knocks(GENERIC, params, st, 0, 11)
    st[S.R_SC, S.C_STOCK_N] = 8
    assert _careful_knocks(GENERIC, params, st, 0, 3)
    assert _careful_knocks(GENERIC, params, st, 0, 0)
    assert not _careful_knocks(GENERIC, params, st, 0, 4)  # late: waits
    st[S.R_SEAT + 1, S.S_PICKED] = _mask(parse_cards("4h 9c"))
    assert _careful_knocks(GENERIC, params, st, 0, 4)
