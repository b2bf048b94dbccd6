"""The Monte Carlo bot ``mcN`` (docs/bots.md, "mcN"; ``sim/engine/mc.py``): its code and
samples, that no bot reads hidden cards, that mcN plays every variant under audit, and that
it beats random by a wide margin."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import compile_rules, kernel_bots, play, with_bots
from sim.engine.bots import choose_discard, knock_discard, wants_discard
from sim.engine.hand import REASON_DECIDE, STAGE_DRAW, play_turns, start_hand
from sim.engine.mc import mc_decide, new_mc_scratch
from sim.engine.melds import new_work
from sim.engine.piles import discard_top
from sim.engine.restrict import mc_plays, mc_samples
from sim.engine.rng import N_RNG
from sim.engine.specs import GENERIC
from sim.rules import load_variant
from sim.rules.loader import list_variants
from sim.rules.model import bots_for
from tests.engine.helpers import compiled

MC32 = R.BOT_MC32
FAST = ("random", "greedy", "careful", "simple")  # bots that never stop the loop


def test_mc_bots_are_greedy_with_their_samples_in_the_flags():
    bots = kernel_bots(np.array([R.BOT_MC32, R.BOT_MC128, R.BOT_SIMPLE]))
    params, _ = compiled("rummy_basic", players=3)
    assert bots[:3].tolist() == [R.BOT_GREEDY, R.BOT_GREEDY, R.BOT_SIMPLE]
    assert [int(mc_samples(GENERIC, params, bots, np.int64(p))) for p in range(3)] == [32, 128, 0]
    for name in R.BOT_NAMES:
        assert set(name) <= set("abcdefghijklmnopqrstuvwxyz0123456789_.+-")


def _gains(per_sample: list[list[int]]):
    """``mc._best``'s rows for candidates whose gains over candidate 0 on each sample are
    ``per_sample[c]``."""
    gains = np.zeros(64, np.int64)
    gains2 = np.zeros(64, np.int64)
    active = np.zeros(64, np.int64)
    for c, values in enumerate(per_sample):
        gains[c] = sum(values)
        gains2[c] = sum(v * v for v in values)
        active[c] = 1
    return gains, gains2, active


def test_mc_keeps_the_default_move_unless_a_gain_clears_the_margin():
    """docs/bots.md, "mcN", which candidate is played: the default move (0) unless another's
    mean paired gain is more than MC_MARGIN (1) standard errors above 0."""
    from sim.engine.mc import MC_MARGIN, _best

    assert MC_MARGIN == 1.0
    steady = [5] * 8  # a gain of 5 on every sample: taken
    noisy = [11, -9] * 4  # mean 1, standard error ~3.8: not
    wild = [25, -15] * 4  # mean 5, standard error ~7.6: not
    losing = [-1] * 8
    for rows, expected in (
        ([[0] * 8, noisy, steady], 2),
        ([[0] * 8, noisy, wild], 0),
        ([[0] * 8, losing], 0),
        ([[0] * 8, steady, [9] * 8], 2),  # the highest mean gain of those that clear it
    ):
        gains, gains2, active = _gains(rows)
        n = np.int64(len(rows))
        assert _best(gains, gains2, active, n, np.int64(0), np.int64(8)) == expected
    gains, gains2, active = _gains([[0] * 8, noisy, steady])
    active[2] = 0  # dropped by the successive halving
    assert _best(gains, gains2, active, np.int64(3), np.int64(0), np.int64(8)) == 0


# ---- hidden information -------------------------------------------------------------------


def _stopped(variant: str, deal: int, bots: np.ndarray, players: int = 2):
    """A hand of ``variant`` (``players`` players, seat 0 mc32) played until mc32 must decide
    (``REASON_DECIDE``) for the third time or later; ``None`` if the hand ended first."""
    params, values = compile_rules(load_variant(variant), players)
    params = with_bots(params, bots)  # mc_seats: the loop stops for mc32
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    rng = np.zeros(N_RNG, np.uint64)
    work = new_work()
    events = np.zeros((1, S.EV_COLS), np.int64)
    start_hand(GENERIC, params, st, piles, rng, work, events, 5, 0, deal, 1)
    stops = 0
    while True:
        reason, seat = play_turns(GENERIC, params, values, bots, st, piles, rng, work, events)
        if reason != REASON_DECIDE:
            return None
        stops += 1
        if stops >= 3:
            return params, values, st, piles, rng, seat
        # answer as the default bot would, to move on
        if st[S.R_SC, S.C_STAGE] == STAGE_DRAW:
            st[S.R_SC, S.C_MC_ASKED] = 1
        else:
            st[S.R_SC, S.C_MC_ASKED] = 2


def _stops(variant: str, deals: int):
    """``(deal, state)``: the stopped states of ``_stopped`` of 2-player hands, both seats
    mc32, of the first ``deals`` deals (those that stop)."""
    for deal in range(deals):
        stopped = _stopped(variant, deal, kernel_bots(np.array([MC32, MC32])))
        if stopped is not None:
            yield deal, stopped


def _hidden_changed(params, st, piles, seat, seed):
    """A copy of the state in which the cards ``seat`` has not seen are dealt again: the
    opponents' cards but those they took from the discard pile, and the stock, in a new
    order."""
    st2, piles2 = st.copy(), piles.copy()
    gen = np.random.default_rng(seed)
    pool, need = [], {}
    for p in range(int(params[L.P_PLAYERS])):
        if p == seat:
            continue
        row = S.R_SEAT + p
        hidden = int(st2[row, S.S_HAND]) & ~int(st2[row, S.S_PICKED])
        cards = [k for k in range(52) if hidden >> k & 1]
        st2[row, S.S_HAND] &= ~hidden
        st2[row, S.S_ARR_MASK] = 0
        st[row, S.S_ARR_MASK] = 0  # a cache of his hand: the same (none) in both states
        pool += cards
        need[p] = len(cards)
    n = int(st2[S.R_SC, S.C_STOCK_N])
    pool += [int(k) for k in piles2[S.PILE_STOCK, :n]]
    gen.shuffle(pool)
    for p, k in need.items():
        for card in pool[:k]:
            st2[S.R_SEAT + p, S.S_HAND] |= 1 << card
        pool = pool[k:]
    piles2[S.PILE_STOCK, :n] = pool
    assert not np.array_equal(st, st2) or not np.array_equal(piles, piles2)
    return st2, piles2


def _answer(st):
    return (
        int(st[S.R_SC, S.C_MC_DRAW]),
        int(st[S.R_SC, S.C_MC_CARD]),
        int(st[S.R_SC, S.C_MC_KNOCK]),
    )


def _playing_variants():
    return [name for name, _ in list_variants()]


def _mc_variants(decides: bool) -> list[str]:
    """The variant files where mc32 decides by Monte Carlo (``restrict.mc_plays`` at the
    smallest table: one pack, no jokers, the plain draw, the knock family or progressive
    rummy), or where it plays greedy (every other)."""
    found = []
    for name in _playing_variants():
        rules = load_variant(name)
        params, _ = compile_rules(rules, rules.players[0])
        plays = getattr(mc_plays, "py_func", mc_plays)  # at collection: not compiled
        if bool(plays(GENERIC, params)) == decides:
            found.append(name)
    return found


def test_mc32_decides_in_the_knock_family_and_one_pack_progressive_rummy():
    """The variants where mcN decides, named, so that a rule change that moves one in or
    out of them is seen (docs/bots.md, "mcN")."""
    decides = set(_mc_variants(True))
    assert {"gin_rummy", "gin_rummy_3p", "gin_rummy_4p", "oklahoma_gin", "knock_rummy"} <= decides
    assert {"rummy_basic", "around_the_corner", "block_rummy", "call_rummy"} <= decides
    assert not decides & {"tonk", "phom", "conquian", "german_rummy", "throw_down_rummy"}


@pytest.mark.parametrize("variant", _mc_variants(True))
def test_mc32_decides_the_same_whatever_the_hidden_cards(variant):
    """Two states that differ only in cards mc32 has not seen (the opponents' hands but
    their discard-pile takes, and the stock's order) get the same move, at a draw and at a
    discard, over several deals: in every variant where it decides, at its smallest table
    (4-player gin's tables are 2-player gin hands: gin_rummy is that case)."""
    rules = load_variant(variant)
    players = rules.players[0]
    if rules.in_partnerships(players):
        variant, players = "gin_rummy", 2
    bots = kernel_bots(np.array([MC32] * players))
    checked = 0
    for deal in range(12):
        stopped = _stopped(variant, deal, bots, players)
        if stopped is None:
            continue
        params, values, st, piles, rng, seat = stopped
        question = 1 if st[S.R_SC, S.C_STAGE] == STAGE_DRAW else 2
        answers = set()
        for variant_seed in range(3):
            st2, piles2 = _hidden_changed(params, st, piles, seat, variant_seed)
            rng2 = rng.copy()
            scratch, spiles = S.new_state()
            mc_decide(
                GENERIC, params, values, st2, piles2, rng2, scratch, spiles,
                np.zeros(N_RNG, np.uint64), new_work(), np.zeros((1, S.EV_COLS), np.int64),
                new_mc_scratch(), np.int64(seat), np.int64(question), np.int64(8),
            )  # fmt: skip
            answers.add(_answer(st2))
        assert len(answers) == 1, (variant, deal, answers)
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy", "rummy_basic"])
def test_the_decided_discard_is_the_one_played(variant):
    """When mc32 has decided its discard (``C_MC_CARD``; in the knock family with its
    knock, ``C_MC_KNOCK``) the resumed turn discards that card, not the card its fallback
    bot would choose: here the allowed card greedy would discard last (docs/bots.md, "mcN":
    ``hand._discard_phase`` and ``hand._knock_phase`` take the decided answer)."""
    checked = 0
    for deal, (params, values, st, piles, rng, seat) in _stops(variant, 12):
        if st[S.R_SC, S.C_STAGE] == STAGE_DRAW:
            continue
        hand = int(st[S.R_SEAT + seat, S.S_HAND])
        taken = int(st[S.R_SC, S.C_TAKEN])
        cards = [k for k in range(52) if hand >> k & 1 and k != taken]
        fallback = choose_discard(
            GENERIC, params, values, kernel_bots(np.array([R.BOT_GREEDY] * 2)), st.copy(),
            piles.copy(), rng.copy(), np.int64(seat),
        )  # fmt: skip
        card = min(cards, key=lambda k: (k == fallback, values[k], k))
        assert card != fallback
        st[S.R_SC, S.C_MC_ASKED] = 2
        st[S.R_SC, S.C_MC_CARD] = card + 1
        st[S.R_SC, S.C_MC_KNOCK] = 0
        st[S.R_SC, S.C_LOG] = 1
        st[S.R_SC, S.C_N_EVENTS] = 0
        events = np.zeros((64, S.EV_COLS), np.int64)
        bots = kernel_bots(np.array([MC32, MC32]))
        play_turns(GENERIC, params, values, bots, st, piles, rng, new_work(), events)
        discards = [
            (int(e[S.EV_SEAT]), int(e[S.EV_A]))
            for e in events[: st[S.R_SC, S.C_N_EVENTS]]
            if e[S.EV_TYPE] == S.E_DISCARD
        ]
        assert discards and discards[0] == (seat, card), (variant, deal, discards, card)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy", "rummy_basic"])
def test_the_default_move_is_always_a_candidate(variant):
    """docs/bots.md, "mcN", which candidate is played: at each of mc32's stops the default
    move (the draw: the playouts' policy's, simple's in the knock family, greedy's
    elsewhere; the discard: careful's discard and knock in the knock family, greedy's
    elsewhere) is among the candidates, added when ``_candidates`` lacks it, and
    ``_default_move`` returns its index without changing the playouts' bots."""
    from sim.engine.mc import _candidates, _default_move, default_bots

    knock = variant != "rummy_basic"
    checked = 0
    for deal, (params, values, st, piles, rng, seat) in _stops(variant, 12):
        bots2 = np.zeros(4, np.int64)
        default_bots(GENERIC, params, bots2)
        before = bots2.tolist()
        draw = st[S.R_SC, S.C_STAGE] == STAGE_DRAW
        question = np.int64(1 if draw else 2)
        cards = np.zeros(64, np.int64)
        knocks = np.zeros(64, np.int64)
        work = new_work()
        n = _candidates(
            GENERIC, params, values, st, work, np.int64(seat), question, cards, knocks,
            np.zeros(64, np.int64),
        )  # fmt: skip
        index, n2 = _default_move(
            GENERIC, params, values, bots2, st.copy(), piles.copy(), rng.copy(), work,
            np.int64(seat), question, cards, knocks, n,
        )  # fmt: skip
        assert n2 in (n, n + 1) and 0 <= index < n2
        assert bots2.tolist() == before, (variant, deal)
        if draw:
            top = discard_top(st, piles)
            take = wants_discard(
                GENERIC, params, values, bots2, st.copy(), piles.copy(), rng.copy(), work,
                np.int64(seat), np.int64(top),
            )  # fmt: skip
            assert cards[index] == (2 if take else 1), (variant, deal)
        elif knock:
            careful = bots2.copy()
            careful[seat] = L.BOT_CAREFUL
            card, knocked = knock_discard(
                GENERIC, params, values, careful, st.copy(), piles.copy(), rng.copy(), work,
                np.int64(seat),
            )  # fmt: skip
            assert (cards[index], knocks[index]) == (card, int(knocked)), (variant, deal)
        else:
            card = choose_discard(
                GENERIC, params, values, bots2, st.copy(), piles.copy(), rng.copy(),
                np.int64(seat),
            )  # fmt: skip
            assert cards[index] == card, (variant, deal)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy", "rummy_basic"])
def test_the_kept_sample_is_the_first_try_that_fits_every_last_discard(variant):
    """docs/bots.md, "mcN", what it samples: of the ``MC_TRIES`` deals drawn for a sample,
    ``_fitted_sample`` keeps the first in which every opponent's hand fits his last discard
    (``_fits_last``), else the first with the fewest misfits; so samples fit more often
    than the first try alone does."""
    from sim.engine.mc import (
        MC_TRIES,
        _fits_last,
        _fitted_sample,
        _resample,
        default_bots,
    )
    from sim.engine.rng import GOLDEN, RNG_BOTS, RNG_DEAL, mix64

    kept_fit = first_fit = checked = 0
    for deal, (params, values, st, piles, _rng, seat) in _stops(variant, 12):
        players = int(params[L.P_PLAYERS])
        bots2 = np.zeros(4, np.int64)
        default_bots(GENERIC, params, bots2)
        seat64 = np.int64(seat)
        for s in range(6):
            sample = np.uint64(1_000_003 * (deal + 1) + 7919 * s)
            hands, stock = np.zeros(64, np.int64), np.zeros(64, np.int64)
            buf, need = np.zeros(64, np.int64), np.zeros(64, np.int64)
            st2, piles2 = S.new_state()
            rng2, work2 = np.zeros(N_RNG, np.uint64), new_work()
            _fitted_sample(
                GENERIC, params, values, bots2, st, piles, st2, piles2, rng2, work2, seat64,
                buf, need, hands, stock, sample,
            )  # fmt: skip
            tries = []  # (misfits, the opponents' hands) of each try, drawn by hand
            for t in range(MC_TRIES):
                draw = sample if t == 0 else mix64(np.uint64(sample + np.uint64(3 + t) * GOLDEN))
                st3, piles3 = st.copy(), piles.copy()
                rng3 = np.zeros(N_RNG, np.uint64)
                rng3[RNG_DEAL] = draw
                rng3[RNG_BOTS] = mix64(np.uint64(draw + GOLDEN))
                _resample(
                    GENERIC, params, values, bots2, st3, piles3, rng3, work2, seat64,
                    np.zeros(64, np.int64), np.zeros(64, np.int64),
                )  # fmt: skip
                misfits = sum(
                    not _fits_last(
                        GENERIC, params, values, bots2, st3, piles3, rng3, work2, np.int64(q)
                    )
                    for q in range(players)
                    if q != seat
                )  # fmt: skip
                tries.append((misfits, [int(st3[S.R_SEAT + p, S.S_HAND]) for p in range(players)]))
            fewest = min(m for m, _ in tries)
            want = next(h for m, h in tries if m == fewest)
            assert [int(h) for h in hands[:players]] == want, (variant, deal, s)
            kept_fit += fewest == 0
            first_fit += tries[0][0] == 0
        checked += 1
    assert checked >= 3
    assert kept_fit >= first_fit
    assert kept_fit > first_fit or first_fit == 6 * checked, (kept_fit, first_fit)


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy", "rummy_basic"])
def test_no_fast_bot_reads_the_hidden_cards(variant):
    """Every other bot that plays the variant answers the draw and the discard the same in
    two states that differ only in hidden cards (at the points where mc32 stopped)."""
    rules = load_variant(variant)
    names = [b for b in bots_for(rules.family) if b in FAST or not b.startswith("mc")]
    knock = rules.family in ("gin", "knock_rummy")
    checked = 0
    for deal, (params, values, st, piles, rng, seat) in _stops(variant, 8):
        draw = st[S.R_SC, S.C_STAGE] == STAGE_DRAW
        for name in names:
            bots = kernel_bots(np.array([R.BOT_NAMES.index(name)] * 2))
            answers = set()
            for variant_seed in range(3):
                st2, piles2 = _hidden_changed(params, st, piles, seat, variant_seed)
                rng2, work = rng.copy(), new_work()
                seat64 = np.int64(seat)
                if draw:
                    top = discard_top(st2, piles2)
                    got = wants_discard(
                        GENERIC, params, values, bots, st2, piles2, rng2, work, seat64, top
                    )
                elif knock:
                    got = knock_discard(
                        GENERIC, params, values, bots, st2, piles2, rng2, work, seat64
                    )
                else:
                    got = choose_discard(GENERIC, params, values, bots, st2, piles2, rng2, seat64)
                answers.add(str(got))
            assert len(answers) == 1, (variant, deal, name, answers)
        checked += 1
    assert checked >= 4


# ---- every variant, under audit -------------------------------------------------------------


@pytest.mark.parametrize("variant", _playing_variants())
def test_mc32_plays_every_variant_under_audit(variant):
    """mc32 at seat 0 against the default bot, a few hands at every variant's smallest
    table, audit on: no violation, and every hand has an ending the dataset knows."""
    rules = load_variant(variant)
    players = rules.players[0]
    params, values = compile_rules(rules, players, audit=True)
    other = R.BOT_SIMPLE if rules.family in ("gin", "knock_rummy") else R.BOT_GREEDY
    bots = np.array([MC32] + [other] * (players - 1))
    out = play(params, values, bots, seed=3, hands=10)
    assert out.hands == 10
    assert out.counters[R.C_VIOLATIONS] == 0
    assert set(out.hand_rows[:, R.H_END_REASON].tolist()) <= set(range(len(R.REASON_NAMES)))


@pytest.mark.parametrize("variant", ["gin_rummy", "knock_rummy", "rummy_basic", "gin_rummy_4p"])
def test_mc32_decides_where_it_plays(variant):
    """Where mc32 decides (docs/bots.md, "mcN") its hands differ from greedy's at the same
    seat on the same deals."""
    rules = load_variant(variant)
    players = rules.players[0]
    params, values = compile_rules(rules, players)
    rest = [R.BOT_SIMPLE if rules.family in ("gin", "knock_rummy") else R.BOT_GREEDY]
    rest = rest * (players - 1)
    mc = play(params, values, np.array([MC32, *rest]), seed=4, hands=30)
    greedy = play(params, values, np.array([R.BOT_GREEDY, *rest]), seed=4, hands=30)
    assert not np.array_equal(mc.hand_rows, greedy.hand_rows)


@pytest.mark.parametrize("variant", _mc_variants(False))
def test_mc32_is_greedy_where_it_does_not_decide(variant):
    """In every variant where mc32 does not decide it plays greedy's hands, row for row
    (so it reads no hidden card there either)."""
    rules = load_variant(variant)
    players = rules.players[0]
    params, values = compile_rules(rules, players)
    rest = [R.BOT_GREEDY] * (players - 1)
    mc = play(params, values, np.array([MC32, *rest]), seed=4, hands=30)
    greedy = play(params, values, np.array([R.BOT_GREEDY, *rest]), seed=4, hands=30)
    for name in ("hand_rows", "hand_scores", "game_rows"):
        assert np.array_equal(getattr(mc, name), getattr(greedy, name)), name


# ---- strength -------------------------------------------------------------------------------


def _wilson_low(wins: int, n: int, z: float = 3.29) -> float:
    """The lower end of the Wilson interval of ``wins`` in ``n`` (z = 3.29: 99.9%)."""
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def test_mc32_beats_random_in_gin_on_the_same_deals_with_the_seats_turned():
    """200 hands of 2-player gin (deals 0-199), played twice with the seats turned: mc32
    wins far more of the decided hands than random (the 99.9% Wilson interval's lower end
    above 75%; random wins some hands by a lucky early knock). A hand's deal and play do
    not depend on the game's score, so the hands are independent trials."""
    params, values = compiled("gin_rummy", audit=False)
    won = decided = 0
    for seats, mc_seat in (([MC32, R.BOT_RANDOM], 0), ([R.BOT_RANDOM, MC32], 1)):
        out = play(params, values, np.array(seats), seed=21, hands=200, dealer=0)
        winners = out.hand_rows[:, R.H_WINNER]
        decided += int((winners >= 0).sum())
        won += int((winners == mc_seat).sum())
    assert decided >= 300
    assert _wilson_low(won, decided) > 0.75, (won, decided)
