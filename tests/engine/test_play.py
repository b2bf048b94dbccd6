"""Whole hands on the engine (sim/engine): audit mode over the variant files it
plays, the compile-time spec changing nothing, determinism, and clause tests of the
phases (RULES.md §1.5, §1.6, §1.8, §1.10, §2E.27, §2G.29)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_cards
from sim.engine import api
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.engine.legal import discard_allowed
from sim.engine.rng import N_RNG
from sim.engine.scoring import score_went_out
from sim.engine.specs import GENERIC, ONE_PACK_KNOCK, ONE_PACK_RUMMY, STANDARD, spec_for
from sim.engine.stock_out import rebuild_stock
from sim.engine.table import meld_fits
from sim.rules import load_variant
from sim.rules.loader import list_variants
from tests.engine.helpers import blank_state

PLAYED_FILES = [
    ("rummy_basic", 2),
    ("rummy_basic", 4),
    ("rummy_basic", 6),
    ("rummy_basic@000", 3),
    ("rummy_basic@002", 3),
    ("rummy_basic@003", 7),  # two packs: hands of two layers
    ("rummy_basic@004", 5),
    ("around_the_corner", 4),
    ("block_rummy", 4),  # block_difference (§2F.28)
    ("block_rummy@000", 2),
    ("block_rummy@002", 6),  # block_totals
    ("call_rummy", 3),  # out-of-turn calls (§3.2)
    ("call_rummy", 6),
    ("throw_down_rummy", 2),  # discard_draw any_card, stock_exhaustion shuffle_all (§3.6)
    ("throw_down_rummy", 6),
    ("full_rummy", 2),  # meld_timing all_at_once (§2D.18, §3.4)
    ("full_rummy", 6),
    ("queen_city_rum", 3),  # own_melds_from_each (§3.12)
    ("queen_city_rum", 6),
    ("boat_house_rum", 2),  # all_at_once with top_plus_one (§3.7)
    ("boat_house_rum", 5),
    ("nowrang", 2),  # all_at_once with the 11/10 opening and a fixed pattern (§3.15)
    ("caloochi", 2),  # 2 packs + 4 jokers, initial meld 51, jokers to hand (§3.8)
    ("caloochi", 4),
    ("german_rummy", 2),  # initial meld 40, joker limit, joker swap reused (§3.14)
    ("german_rummy", 6),
    ("double_rum", 2),  # duplicates in groups, the joker slide (§3.9)
    ("double_rum", 6),
    # the alternatives of open points (§3.8, §3.9, §3.14)
    ("caloochi@ace_low", 3),
    ("caloochi@duplicates", 4),
    ("caloochi@must_discard", 2),
    ("double_rum@2_jokers", 4),
    ("double_rum@slide_repeat", 3),
    ("german_rummy@restricted_discard", 4),
]


def _play(variant, players, hands, *, audit=False, seed=1, spec=None, bot=L.BOT_GREEDY):
    params, values = api.compile_rules(load_variant(variant), players, audit=audit)
    bots = np.full(players, bot)
    return api.play(params, values, bots, seed=seed, hands=hands, spec=spec)


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 1500), (L.BOT_CAREFUL, 500), (L.BOT_RANDOM, 200)]
)
@pytest.mark.parametrize(("variant", "players"), PLAYED_FILES)
def test_audit_finds_no_violation(variant, players, bot, hands):
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    assert (out.hand_rows[:, OUT.H_VIOLATIONS] == 0).all()
    ended = out.hand_rows[:, OUT.H_END_REASON]
    played = [L.REASON_WENT_OUT, L.REASON_WENT_RUMMY, L.REASON_STALLED]
    if load_variant(variant).stock_exhaustion.startswith("block_"):
        played.append(L.REASON_BLOCK)
        assert (ended == L.REASON_BLOCK).any()
    assert np.isin(ended, played).all()


CHIP_FILES = [("tonk", 2), ("tonk", 6), ("phom", 2), ("phom", 4)]  # chips (§3.22, §3.13)
CHIP_ENDINGS = [
    L.REASON_WENT_OUT,
    L.REASON_TONK,
    L.REASON_DROP,
    L.REASON_CAUGHT,
    L.REASON_STOCK_OUT,
    L.REASON_REDEAL,
    L.REASON_STALLED,
    L.REASON_WENT_U,
    L.REASON_SHOWDOWN,
]


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 1500), (L.BOT_CAREFUL, 1000), (L.BOT_RANDOM, 500)]
)
@pytest.mark.parametrize(("variant", "players"), CHIP_FILES)
def test_chip_games_audit_clean_and_zero_sum(variant, players, bot, hands):
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    assert np.isin(out.hand_rows[:, OUT.H_END_REASON], CHIP_ENDINGS).all()
    assert (out.hand_scores.sum(axis=1) == 0).all()


ZERO_SUM_FILES = [  # Continental's payments (§3.11): the winner collects from each opponent
    ("continental", 2),
    ("continental", 6),  # three packs, three jokers
    ("continental", 9),  # four packs, four jokers
    ("continental@bonuses", 4),
    ("continental@shuffle", 3),
    ("continental@deuces", 2),  # 2s wild (§2B.14)
    ("continental@deuces", 4),
    ("continental@deuces", 8),  # three packs
]


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 400), (L.BOT_CAREFUL, 300), (L.BOT_RANDOM, 100)]
)
@pytest.mark.parametrize(("variant", "players"), ZERO_SUM_FILES)
def test_zero_sum_games_audit_clean_and_the_winner_collects(variant, players, bot, hands):
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    ended = out.hand_rows[:, OUT.H_END_REASON]
    assert np.isin(ended, [L.REASON_WENT_OUT, L.REASON_STALLED]).all()
    assert (out.hand_scores.sum(axis=1) == 0).all()
    won = ended == L.REASON_WENT_OUT
    winners = out.hand_rows[won, OUT.H_WINNER]
    assert (out.hand_scores[won, winners] >= players - 1).all()  # at least 1 from each


TENTO_FILES = [("conquian", 2)]  # tentos: the stake to the winner (§3.21)


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 1500), (L.BOT_CAREFUL, 1000), (L.BOT_RANDOM, 500)]
)
@pytest.mark.parametrize(("variant", "players"), TENTO_FILES)
def test_tento_games_audit_clean_and_only_the_winner_scores(variant, players, bot, hands):
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    ended = out.hand_rows[:, OUT.H_END_REASON]
    assert np.isin(ended, [L.REASON_WENT_OUT, L.REASON_EXHAUSTED]).all()
    won = ended == L.REASON_WENT_OUT
    assert (out.hand_scores[~won] == 0).all() and (out.hand_scores[won].min(axis=1) == 0).all()
    assert (out.hand_scores[won].max(axis=1) >= 1).all()


CAROUSEL_FILES = [  # §3.16: knock, undercut, going out, the stock-out's final turns
    ("carousel_knock", 2),
    ("carousel_knock", 3),
    ("carousel_knock", 4),
    ("carousel_knock", 5),
]
CAROUSEL_ENDINGS = [
    L.REASON_KNOCK,
    L.REASON_UNDERCUT,
    L.REASON_WENT_OUT,
    L.REASON_STOCK_OUT,
    L.REASON_STALLED,
]


@pytest.mark.parametrize(
    ("bot", "hands"), [(L.BOT_GREEDY, 1000), (L.BOT_CAREFUL, 500), (L.BOT_RANDOM, 200)]
)
@pytest.mark.parametrize(("variant", "players"), CAROUSEL_FILES)
def test_carousel_audit_clean_few_stalls_and_only_winners_score(variant, players, bot, hands):
    """Every table meld legal after every manipulation, cards conserved, no table card into
    a hand, a hand card played by every meld action (audit); at most 2% of greedy or careful
    hands stalled; the losers of a round score nothing, its winners their differences."""
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    ended = out.hand_rows[:, OUT.H_END_REASON]
    assert np.isin(ended, CAROUSEL_ENDINGS).all()
    if bot != L.BOT_RANDOM:
        assert np.mean(ended == L.REASON_STALLED) <= 0.02
    assert (out.hand_scores >= 0).all()
    played = ended != L.REASON_STALLED
    assert (out.hand_scores[played].max(axis=1) >= 0).all()
    assert (out.hand_scores[~played] == 0).all()


@pytest.mark.nojit
def test_every_variant_file_the_engine_plays_is_in_the_whole_hand_tests():
    named = {v for v, _ in PLAYED_FILES} | {v for v, _ in KNOCK_FILES} | {v for v, _ in CHIP_FILES}
    named |= {v for v, _ in TENTO_FILES} | {v for v, _ in ZERO_SUM_FILES}
    named |= {v for v, _ in CAROUSEL_FILES}
    played = {name for name, _ in list_variants()}
    assert played == named


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_RANDOM])
@pytest.mark.parametrize(("variant", "players"), [("rummy_basic", 2), ("block_rummy@002", 4)])
def test_the_standard_spec_plays_the_generic_hands(variant, players, bot):
    """A compile-time spec changes speed, never play: every output row is the same."""
    fast = _play(variant, players, 1000, spec=STANDARD, bot=bot)
    slow = _play(variant, players, 1000, spec=GENERIC, bot=bot)
    for name in ("hand_rows", "hand_scores", "hand_totals", "game_rows", "game_scores"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


ONE_PACK_CASES = [
    ("rummy_basic", 2),  # STANDARD's, which a plan may fold into ONE_PACK_RUMMY (specs.FOLDS)
    ("rummy_basic", 4),
    ("around_the_corner", 2),
    ("block_rummy@002", 4),
    ("full_rummy", 3),
    ("queen_city_rum", 2),
    ("boat_house_rum", 2),
    ("throw_down_rummy", 2),
    ("call_rummy", 4),
]


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_RANDOM])
@pytest.mark.parametrize(("variant", "players"), ONE_PACK_CASES)
def test_the_one_pack_rummy_spec_plays_the_generic_hands(variant, players, bot):
    """ONE_PACK_RUMMY (its ace, timing, draw, stock rule, scoring and calls read at run
    time) changes speed, never play: every output row is the same as under GENERIC."""
    params, _ = api.compile_rules(load_variant(variant), players)
    assert spec_for(params) is not GENERIC  # make run's arms and issue #29's five variants
    fast = _play(variant, players, 400, spec=ONE_PACK_RUMMY, bot=bot)
    slow = _play(variant, players, 400, spec=GENERIC, bot=bot)
    for name in ("hand_rows", "hand_scores", "hand_totals", "game_rows", "game_scores"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


def test_same_seed_same_rows_other_seed_other_rows():
    a = _play("rummy_basic", 3, 500, seed=5)
    b = _play("rummy_basic", 3, 500, seed=5)
    c = _play("rummy_basic", 3, 500, seed=6)
    assert np.array_equal(a.hand_rows, b.hand_rows)
    assert not np.array_equal(a.hand_rows, c.hand_rows)


KNOCK_FILES = [
    ("knock_rummy", 2),
    ("knock_rummy", 3),
    ("knock_rummy", 5),
    ("gin_rummy", 2),
    ("gin_rummy@bonus25", 2),
    ("gin_rummy_3p", 3),
    ("gin_rummy_4p", 4),
    ("oklahoma_gin", 2),
]


@pytest.mark.parametrize(
    ("bot", "hands"),
    [(L.BOT_SIMPLE, 1500), (L.BOT_GREEDY, 1500), (L.BOT_CAREFUL, 500), (L.BOT_RANDOM, 300)],
)
@pytest.mark.parametrize(("variant", "players"), KNOCK_FILES)
def test_knock_family_audit_finds_no_violation(variant, players, bot, hands):
    out = _play(variant, players, hands, audit=True, bot=bot)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    ended = out.hand_rows[:, OUT.H_END_REASON]
    played = [L.REASON_KNOCK, L.REASON_GIN, L.REASON_UNDERCUT, L.REASON_VOID]
    assert np.isin(ended, [*played, L.REASON_STALLED]).all()
    assert np.mean(ended == L.REASON_STALLED) <= 0.02  # issue #29 point 8: at most 2%


@pytest.mark.parametrize("bot", [L.BOT_SIMPLE, L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_RANDOM])
@pytest.mark.parametrize(("variant", "players"), [("gin_rummy", 2), ("knock_rummy", 3)])
def test_2A6_any_suit_runs_play_in_the_knock_families(variant, players, bot):
    """Runs of any suits in the knock families: the showdown's lay-offs
    (``layoffs._fits_any``) and the rest of the hand, audited."""
    rules = load_variant(variant).with_values({"run_suit": "any_suit"})
    params, values = api.compile_rules(rules, players, audit=True)
    out = api.play(params, values, np.full(players, bot), seed=6, hands=600)
    assert out.counters[OUT.C_VIOLATIONS] == 0
    ended = out.hand_rows[:, OUT.H_END_REASON]
    played = [L.REASON_KNOCK, L.REASON_GIN, L.REASON_UNDERCUT, L.REASON_VOID]
    assert np.isin(ended, [*played, L.REASON_STALLED]).all()
    assert np.mean(ended == L.REASON_STALLED) <= 0.02


@pytest.mark.nojit
@pytest.mark.parametrize("variant", ["gin_rummy", "oklahoma_gin", "knock_rummy"])
def test_the_knock_family_takes_its_own_spec_not_the_standard_one(variant):
    """STANDARD fixes progressive melding, so the knock phases fold out of its kernels and
    knock hands take ONE_PACK_KNOCK (a spec that does not fit the rules is refused); runs
    of any suits or an mcN seat take GENERIC."""
    params, values = api.compile_rules(load_variant(variant), 2)
    assert spec_for(params) is ONE_PACK_KNOCK
    with pytest.raises(ValueError, match="does not fit"):
        api.play(params, values, np.full(2, L.BOT_SIMPLE), hands=1, spec=STANDARD)
    any_suit, _ = api.compile_rules(load_variant(variant).with_values({"run_suit": "any_suit"}), 2)
    assert spec_for(any_suit) is GENERIC
    with_mc = api.with_bots(params, api.kernel_bots(np.array([L.BOT_SIMPLE, L.BOT_MC32])))
    assert spec_for(with_mc) is GENERIC


@pytest.mark.parametrize("bot", [L.BOT_SIMPLE, L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_RANDOM])
@pytest.mark.parametrize(("variant", "players"), KNOCK_FILES)
def test_the_one_pack_knock_spec_plays_the_generic_hands(variant, players, bot):
    """ONE_PACK_KNOCK (the card rules and the knock as constants) changes speed, never play:
    every output row is the same as under GENERIC."""
    hands = 150 if bot == L.BOT_CAREFUL else 400
    fast = _play(variant, players, hands, spec=ONE_PACK_KNOCK, bot=bot)
    slow = _play(variant, players, hands, spec=GENERIC, bot=bot)
    for name in ("hand_rows", "hand_scores", "hand_totals", "game_rows", "game_scores"):
        assert np.array_equal(getattr(fast, name), getattr(slow, name)), name


@pytest.mark.nojit
def test_the_simple_bot_is_refused_in_progressive_rummy():
    params, values = api.compile_rules(load_variant("rummy_basic"), 2)
    with pytest.raises(ValueError, match="simple"):
        api.play(params, values, np.full(2, L.BOT_SIMPLE), hands=1)


# ---- clause tests on hand-built states --------------------------------------------------


def _state(variant="rummy_basic", players=2, **overrides):
    return blank_state(variant, players, **overrides)


def _hold(params, st, seat, text):
    for k in parse_cards(text):
        S.give(GENERIC, params, st, seat, k)


@pytest.mark.nojit
def test_s1_10_the_winner_scores_the_cards_left_in_the_other_hands():
    params, values, st, _ = _state(players=3)
    _hold(params, st, 1, "7c Kd As")  # 18
    _hold(params, st, 2, "5h 5d")  # 10
    scores = np.zeros(3, np.int64)
    score_went_out(GENERIC, params, values, st, 0, False, scores)
    assert scores.tolist() == [28, 0, 0]


@pytest.mark.nojit
@pytest.mark.parametrize(("rummy", "want"), [("double", 56), ("bonus:10", 38)])
def test_s2e_27_going_rummy_doubles_or_adds_its_bonus(rummy, want):
    params, values, st, _ = _state(players=3, going_rummy=rummy)
    _hold(params, st, 1, "7c Kd As")
    _hold(params, st, 2, "5h 5d")
    scores = np.zeros(3, np.int64)
    score_went_out(GENERIC, params, values, st, 0, True, scores)
    assert scores[0] == want


@pytest.mark.nojit
def test_s2g_29_penalty_scoring_charges_each_player_his_own_cards():
    params, values, st, _ = _state(players=3, scoring="penalty", game_end="penalty_limit:100")
    _hold(params, st, 1, "7c Kd As")
    _hold(params, st, 2, "5h 5d")
    scores = np.zeros(3, np.int64)
    score_went_out(GENERIC, params, values, st, 0, False, scores)
    assert scores.tolist() == [0, -18, -10]


@pytest.mark.nojit
def test_s1_8_turn_over_puts_the_oldest_discard_on_top_and_turns_it_up():
    params, values, st, piles = _state()
    st[S.R_SC, S.C_STOCK_N] = 0
    for i, k in enumerate(parse_cards("2c 3c 4c 5c")):  # 2c discarded first, 5c on top
        piles[S.PILE_DISCARD, i] = k
    st[S.R_SC, S.C_DISCARD_N] = 4
    events = np.zeros((1, S.EV_COLS), np.int64)
    rebuild_stock(GENERIC, params, st, piles, np.zeros(N_RNG, np.uint64), events, 0)
    assert st[S.R_SC, S.C_DISCARD_N] == 1
    assert piles[S.PILE_DISCARD, 0] == parse_cards("2c")[0]  # the oldest discard turned up
    stock = [int(piles[S.PILE_STOCK, i]) for i in range(st[S.R_SC, S.C_STOCK_N])]
    assert stock[::-1] == parse_cards("3c 4c 5c")  # top first: the next oldest
    assert st[S.R_SC, S.C_STOCK_ORDERED] == 1


@pytest.mark.nojit
def test_s1_5_the_card_taken_from_the_discard_pile_may_not_be_discarded():
    params, values, st, _ = _state()
    _hold(params, st, 0, "9h 4c")
    st[S.R_SC, S.C_TAKEN] = parse_cards("9h")[0]
    assert not discard_allowed(GENERIC, params, st, 0, parse_cards("9h")[0])
    assert discard_allowed(GENERIC, params, st, 0, parse_cards("4c")[0])


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("ace_rank", "run", "fits"),
    [
        ("low", "As 2s 3s", "4s"),
        ("low", "8h 9h Th", "7h Jh"),
        ("high", "Qs Ks As", "Js"),
        ("high_or_low", "2s 3s 4s", "As 5s"),
        ("around_corner", "Ks As 2s", "Qs 3s"),
    ],
)
def test_s1_6_a_run_takes_the_cards_just_outside_its_ends(ace_rank, run, fits):
    params, values, st, _ = _state(ace_rank=ace_rank)
    cards = parse_cards(run)
    work = M.new_work()
    layers = np.zeros(M.MAX_LAYERS, np.int64)
    for k in cards:
        layers[0] |= np.int64(1) << k
    M.best_arrangement(GENERIC, params, values, work, layers, 0, 0, 0, -1, 0)
    row = work[M.W_BEST]
    st[S.R_MELD, S.M_TYPE] = row[M.CA_TYPE]
    st[S.R_MELD, S.M_LO] = row[M.CA_LO]
    st[S.R_MELD, S.M_LEN] = row[M.CA_LEN]
    st[S.R_MELD, S.M_SUIT] = row[M.CA_SUIT]
    st[S.R_MELD, S.M_SHAPE] = row[M.CA_SHAPE]
    got = meld_fits(GENERIC, params, st, 0)
    assert sorted(k for k in range(52) if (got >> k) & 1) == sorted(parse_cards(fits))


@pytest.mark.nojit
def test_s1_6_a_group_of_three_takes_its_missing_suit_and_of_four_nothing():
    params, values, st, _ = _state()
    st[S.R_MELD, S.M_TYPE] = M.MELD_GROUP
    st[S.R_MELD, S.M_LO] = 6  # sevens
    st[S.R_MELD, S.M_LEN] = 3
    st[S.R_MELD, S.M_SHAPE] = 0x0111  # spades, hearts, diamonds
    assert meld_fits(GENERIC, params, st, 0) == np.int64(1) << parse_cards("7c")[0]
    st[S.R_MELD, S.M_LEN] = 4
    st[S.R_MELD, S.M_SHAPE] = 0x1111
    assert meld_fits(GENERIC, params, st, 0) == 0


def _all_player_counts():
    for variant, _ in PLAYED_FILES:
        rules = load_variant(variant)
        for players in range(rules.players[0], rules.players[1] + 1):
            yield variant, players


@pytest.mark.parametrize("bot", [L.BOT_GREEDY, L.BOT_CAREFUL])
@pytest.mark.parametrize(("variant", "players"), sorted(set(_all_player_counts())))
def test_issue29_bots_leave_at_most_2_percent_of_hands_without_a_result(variant, players, bot):
    """Stalled at the turn cap or exhausted: at most 2% of greedy or careful hands (issue
    #29 point 8; before the come-round rule, 4% of 6-player rummy_basic greedy hands
    stalled, and 6% of careful ones on today's engine)."""
    out = _play(variant, players, 4000 if bot == L.BOT_GREEDY else 2000, seed=11, bot=bot)
    ended = out.hand_rows[:, OUT.H_END_REASON]
    assert np.mean(np.isin(ended, [L.REASON_STALLED, L.REASON_EXHAUSTED])) <= 0.02


@pytest.mark.nojit
def test_greedy_keeps_a_card_that_came_round_while_another_may_go():
    from sim.engine.greedy import greedy_discard

    params, values, st, _ = _state()
    _hold(params, st, 0, "Kd 4c")
    st[S.R_SC, S.C_PLAN] = -1
    st[S.R_SC, S.C_COME_ROUND] = -1
    assert greedy_discard(GENERIC, params, values, st, 0) == parse_cards("Kd")[0]
    st[S.R_SC, S.C_COME_ROUND] = parse_cards("Kd")[0]
    assert greedy_discard(GENERIC, params, values, st, 0) == parse_cards("4c")[0]
    take_all = parse_cards("4c")[0]
    S.take(GENERIC, params, st, 0, take_all)  # the card that came round is all he has
    assert greedy_discard(GENERIC, params, values, st, 0) == parse_cards("Kd")[0]


# ---- careful (docs/bots.md) ----------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"ace_rank": "high"},
        {"ace_rank": "high_or_low"},
        {"ace_rank": "around_corner"},
        {"run_suit": "any_suit"},
        {"decks": 2},
        {"decks": 2, "group_duplicates": "allowed"},
    ],
)
def test_careful_completers_are_the_cards_that_would_meld_with_the_hand(overrides):
    """``careful.completers`` against its definition: the kinds not held that
    ``melds.meldable`` puts in a meld of the hand plus that card."""
    from sim.engine.careful import completers
    from sim.engine.legal import give_natural

    params, values, st, _ = _state(players=2, **overrides)
    packs = int(params[L.P_PACKS])
    rng = np.random.default_rng(3)
    for _ in range(150):
        layers = np.zeros(M.MAX_LAYERS, np.int64)
        for k in rng.integers(0, 52, rng.integers(1, 14)):
            if M.copies(layers, packs, int(k)) < packs:
                give_natural(GENERIC, params, layers, int(k))
        want = 0
        for k in range(52):
            if (layers[0] >> k) & 1:
                continue
            plus = layers.copy()
            give_natural(GENERIC, params, plus, k)
            if (M.meldable(GENERIC, params, plus, packs, 0) >> k) & 1:
                want |= 1 << k
        got = completers(GENERIC, params, layers[0], layers[1])
        assert int(got) == want


def _discard_pile(st, piles, text):
    for i, k in enumerate(parse_cards(text)):
        piles[S.PILE_DISCARD, i] = k
    st[S.R_SC, S.C_DISCARD_N] = len(parse_cards(text))


@pytest.mark.nojit
def test_careful_keeps_a_connector_with_live_outs_and_throws_it_once_they_are_dead():
    """4 players: an out is worth 12 points. Qh Kh wait for Jh: while it is unseen careful
    throws the loose 4c (as greedy would); once Jh is in the discard pile, the king."""
    from sim.engine.careful import careful_discard

    params, values, st, piles = _state(players=4)
    _hold(params, st, 0, "Qh Kh 4c")
    st[S.R_SC, S.C_PLAN] = -1
    st[S.R_SC, S.C_COME_ROUND] = -1
    _discard_pile(st, piles, "9s")
    assert careful_discard(GENERIC, params, values, st, piles, 0, 0) == parse_cards("4c")[0]
    _discard_pile(st, piles, "9s Jh")
    assert careful_discard(GENERIC, params, values, st, piles, 0, 0) == parse_cards("Kh")[0]
    st[S.R_SC, S.C_COME_ROUND] = parse_cards("Kh")[0]  # the king came round: the queen
    assert careful_discard(GENERIC, params, values, st, piles, 0, 0) == parse_cards("Qh")[0]


@pytest.mark.nojit
def test_careful_takes_a_cheap_discard_that_adds_two_live_outs():
    from sim.engine.careful import careful_wants

    params, values, st, piles = _state(players=2)
    work = M.new_work()
    _hold(params, st, 0, "3h 9s Kd")
    st[S.R_SC, S.C_STOCK_N] = 20
    top = parse_cards("4h")[0]
    _discard_pile(st, piles, "4h")
    assert careful_wants(GENERIC, params, values, st, piles, work, 0, top, 0)  # 2h and 5h
    _discard_pile(st, piles, "5h 4h")
    assert not careful_wants(GENERIC, params, values, st, piles, work, 0, top, 0)  # 2h only
    _discard_pile(st, piles, "4h")
    st[S.R_SEAT, S.S_PICKED] = np.int64(1) << top  # taken before this hand: not again
    assert not careful_wants(GENERIC, params, values, st, piles, work, 0, top, 0)
    st[S.R_SEAT, S.S_PICKED] = 0
    st[S.R_SC, S.C_STOCK_N] = 0  # an empty stock: greedy's rule only
    assert not careful_wants(GENERIC, params, values, st, piles, work, 0, top, 0)


@pytest.mark.nojit
def test_s2e_27_careful_holds_its_melds_for_a_rummy_until_the_whole_hand_can_go():
    from sim.engine.careful import careful_table

    params, values, st, piles = _state(players=2, going_rummy="double")
    work = M.new_work()
    events = np.zeros((1, S.EV_COLS), np.int64)
    rng = np.zeros(2, np.uint64)
    st[S.R_SC, S.C_PLAN] = -1
    _hold(params, st, 1, "2c 3d 7s 8d Jc")
    _hold(params, st, 0, "4h 5h 6h 9c Kd")  # two cards would be left: it holds
    careful_table(GENERIC, params, values, st, piles, rng, events, work, 0, 0)
    assert st[S.R_SC, S.C_N_MELDS] == 0 and st[S.R_SEAT, S.S_N] == 5
    st[S.R_SC, S.C_TURN] = 6 * 2  # past its first 6 turns per player: it plays as greedy
    careful_table(GENERIC, params, values, st, piles, rng, events, work, 0, 0)
    assert st[S.R_SC, S.C_N_MELDS] == 1 and st[S.R_SEAT, S.S_N] == 2


@pytest.mark.nojit
def test_s2e_27_careful_lays_down_while_holding_when_one_card_is_left_to_discard():
    from sim.engine.careful import careful_table

    params, values, st, piles = _state(players=2, going_rummy="double")
    work = M.new_work()
    events = np.zeros((1, S.EV_COLS), np.int64)
    rng = np.zeros(2, np.uint64)
    st[S.R_SC, S.C_PLAN] = -1
    _hold(params, st, 1, "2c 3d 7s 8d Jc")
    _hold(params, st, 0, "4h 5h 6h Kd")
    careful_table(GENERIC, params, values, st, piles, rng, events, work, 0, 0)
    assert st[S.R_SC, S.C_N_MELDS] == 1 and st[S.R_SEAT, S.S_N] == 1
