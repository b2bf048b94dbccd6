"""``mask_hand.play_mask_hand`` (the fast path's hand with its state in locals) against the
general turn loop it must equal, and its two shortcuts against the kernels they replace.

RULES.md §1.3 (melds), §1.4–1.10 (deal, turns, going out), §2A.4 (ace_rank), §2B.9
(group_duplicates), §2D.19–21 (melds_per_turn, layoff_target, layoff_requires_meld), §2E.26–27
(must_discard_to_go_out, going_rummy), §2F.28 (stock_exhaustion), §2G.29 (scoring), §2H.30–31;
the greedy and careful bots of docs/bots.md.

The general loop (``hand.play_turns``) is the reference: a hand played by ``play_mask_hand``
must give the very same rows, and in audit mode ``play_hand`` plays every such hand both ways
and counts a difference as a violation.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import api, bits, mask_hand, melds
from sim.engine import layout as L
from sim.engine.layout import ACE_AROUND_CORNER, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_LOW
from sim.rules import ConfigError, compile_rules, load_variant

from .helpers import mask_of, random_one_pack_hand

ACES = [ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER]
ACE_POINTS = {ACE_LOW: 1, ACE_HIGH: 10, ACE_HIGH_OR_LOW: 15, ACE_AROUND_CORNER: 11}

FAST_PATH_CHOICES = {
    "ace_rank": ["low", "high", "high_or_low", "around_corner"],
    "ace_points": ["auto", 1, 11, 15],
    "group_duplicates": ["forbidden", "allowed"],
    "melds_per_turn": ["unlimited", "one", "one_or_layoff"],
    "layoff_target": ["any", "own_only", "none"],
    "layoff_requires_meld": ["off", "after_first_meld", "after_own_layoff"],
    "must_discard_to_go_out": [False, True],
    "going_rummy": ["off", "double", "bonus:10"],
    "stock_exhaustion": ["turn_over", "shuffle_except_top", "block_difference", "block_totals"],
    "scoring": ["pip_to_winner", "per_card", "penalty"],
    "game_end": ["target:100", "fixed_hands:5", "single_hand"],
    "dealer_rotation": ["left", "winner_deals"],
    "turn_cap": [500, 500, 61, 137],  # where the cap falls in a repeating cycle (§1.8)
}
"""Every toggle the fast path's hands branch on (one pack, no jokers, runs of one suit)."""

LINEUPS = [(L.BOT_GREEDY,), (L.BOT_CAREFUL,), (L.BOT_GREEDY, L.BOT_CAREFUL)]


def _rows(ws) -> list[tuple[int, ...]]:
    out = []
    for m in range(int(ws.scal[melds.S_BEST_N])):
        length = int(ws.best[m, melds.CC_LEN])
        out.append(tuple(int(x) for x in ws.best[m, : melds.CC_CARDS + length]))
    return out


def _check_meld_through(ace: int, hands: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(hands):
        cards = random_one_pack_hand(rng, rng.choice((3, 5, 8, 11, 14)))
        hand = mask_of(cards)
        meldable = bits.meldable(hand, ace)
        for k in cards:
            assert bool(mask_hand.meld_through(hand, k, ace)) == bool((meldable >> k) & 1), (
                sorted(cards),
                k,
            )


@pytest.mark.parametrize("ace", ACES)
def test_1_3_meld_through_says_whether_one_card_melds(ace):
    _check_meld_through(ace, 3000, seed=ace)


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_1_3_meld_through_says_whether_one_card_melds_small(ace):
    _check_meld_through(ace, 40, seed=10 + ace)


def _check_best_meld_through(ace: int, dup: bool, limit: int, hands: int, seed: int) -> None:
    """Hands that hold no meld but through one card: the search's rows exactly."""
    params, values = api.make_params(ace_rank=ace, group_duplicates=dup, ace_points=ACE_POINTS[ace])
    searched = melds.new_search_work()
    direct = melds.new_search_work()
    rng = random.Random(seed)
    done = 0
    while done < hands:
        cards = random_one_pack_hand(rng, rng.choice((4, 6, 9, 10, 12)))
        if bits.may_meld(mask_of(cards[1:]), ace) != 0:
            continue  # the hand but its first card must hold no meld
        hand = mask_of(cards)
        v1 = bits.best_arrangement_bits(searched, params, values, hand, limit)
        v2 = bits.best_meld_through_bits(direct, params, values, hand)
        assert (v1, _rows(searched)) == (v2, _rows(direct)), sorted(cards)
        done += 1


@pytest.mark.parametrize("ace", ACES)
@pytest.mark.parametrize("dup", [False, True])
def test_1_13_best_meld_through_one_card_is_the_searchs_arrangement(ace, dup):
    for limit in (0, 1):
        _check_best_meld_through(ace, dup, limit, 2000, seed=ace * 10 + dup)


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_1_13_best_meld_through_one_card_is_the_searchs_arrangement_small(ace):
    _check_best_meld_through(ace, False, 0, 40, seed=ace)


def _random_fast_rules(rng: random.Random):
    while True:
        overrides = {k: rng.choice(v) for k, v in FAST_PATH_CHOICES.items()}
        try:
            rules = load_variant("rummy_basic", overrides)
        except ConfigError:
            continue
        return rules, overrides


def _play(params, values, seats, hands, seed):
    return api.play(params, values, np.array(seats, np.int64), seed=seed, hands=hands)


def _assert_same_rows(fast, general, context) -> None:
    """Every output table equal, the violations column aside (the reference run audits)."""
    rows = [c for c in range(L.N_HCOLS) if c != L.H_VIOLATIONS]
    assert fast.hands == general.hands, context
    assert np.array_equal(fast.hand_rows[:, rows], general.hand_rows[:, rows]), context
    assert np.array_equal(fast.hand_scores, general.hand_scores), context
    assert np.array_equal(fast.hand_totals, general.hand_totals), context
    assert np.array_equal(fast.game_rows, general.game_rows), context
    assert np.array_equal(fast.game_scores, general.game_scores), context


def _sweep(seed: int, rule_sets: int, hands: int) -> None:
    """Random fast-path rules and greedy/careful line-ups: the mask hand's rows (audit off)
    equal the general loop's (audit on, where ``play_hand`` plays each hand both ways and
    returns the general loop's result), with no violation."""
    rng = random.Random(seed)
    for _ in range(rule_sets):
        rules, overrides = _random_fast_rules(rng)
        players = rng.choice(rules.player_counts)
        lineup = rng.choice(LINEUPS)
        seats = [rng.choice(lineup) for _ in range(players)]
        fast = compile_rules(rules, players)
        audited = compile_rules(rules, players, audit=True)
        context = (overrides, players, seats)
        a = _play(fast.params, fast.card_values, seats, hands, seed)
        b = _play(audited.params, audited.card_values, seats, hands, seed)
        assert int(a.counters[L.C_MASK_HANDS]) == hands, context
        assert int(b.counters[L.C_MASK_HANDS]) == hands, context
        assert int(b.counters[L.C_VIOLATIONS]) == 0, context
        _assert_same_rows(a, b, context)


@pytest.mark.parametrize("batch", range(6))
def test_mask_hand_plays_as_the_general_loop_under_random_rules(batch):
    _sweep(3000 + batch, 40, 150)


@pytest.mark.nojit
def test_mask_hand_plays_as_the_general_loop_under_random_rules_small():
    _sweep(3100, 3, 6)


@pytest.mark.parametrize(
    ("variant", "players", "seats"),
    [
        ("rummy_basic", 2, (L.BOT_GREEDY, L.BOT_GREEDY)),
        ("rummy_basic", 4, (L.BOT_CAREFUL,) * 4),
        ("rummy_basic@004", 2, (L.BOT_CAREFUL, L.BOT_CAREFUL)),  # careful holds for a rummy
        ("around_the_corner", 3, (L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_GREEDY)),
        ("block_rummy@002", 2, (L.BOT_CAREFUL, L.BOT_GREEDY)),
    ],
)
def test_mask_hand_plays_the_variant_files_as_the_general_loop(variant, players, seats):
    fast = compile_rules(load_variant(variant), players)
    audited = compile_rules(load_variant(variant), players, audit=True)
    a = _play(fast.params, fast.card_values, seats, 3000, 11)
    b = _play(audited.params, audited.card_values, seats, 3000, 11)
    assert int(b.counters[L.C_VIOLATIONS]) == 0
    _assert_same_rows(a, b, variant)


@pytest.mark.parametrize(
    ("overrides", "players", "seats"),
    [
        ({}, 2, (L.BOT_GREEDY, L.BOT_GREEDY)),
        ({}, 3, (L.BOT_CAREFUL, L.BOT_GREEDY, L.BOT_CAREFUL)),
        ({}, 4, (L.BOT_GREEDY,) * 4),
        ({"going_rummy": "double"}, 2, (L.BOT_CAREFUL, L.BOT_GREEDY)),  # careful holds early
        ({"turn_cap": 300, "layoff_target": "own_only"}, 2, (L.BOT_GREEDY, L.BOT_CAREFUL)),
    ],
)
def test_1_8_a_stalled_hand_that_repeats_itself_ends_at_the_cap_as_if_played(
    overrides, players, seats
):
    # Under turn_over (§1.8, the engine's turn cap) some hands cycle: the rebuilt stock is in
    # a known order and the bots draw no random numbers. mask_hand counts whole cycles to the
    # cap without playing them; the rows, the final position included (audit mode compares
    # it), must be those of playing every turn.
    rules = load_variant("rummy_basic", overrides or None)
    fast = compile_rules(rules, players)
    audited = compile_rules(rules, players, audit=True)
    a = _play(fast.params, fast.card_values, seats, 20000, 5)
    b = _play(audited.params, audited.card_values, seats, 20000, 5)
    stalled = int(np.sum(a.hand_rows[:, L.H_END_REASON] == L.REASON_STALLED))
    assert stalled >= 20
    cap = int(fast.params[L.P_TURN_CAP])
    assert int(a.counters[L.C_SKIPPED_TURNS]) > cap // 5 * stalled  # most of each stall
    assert int(b.counters[L.C_VIOLATIONS]) == 0
    _assert_same_rows(a, b, overrides)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("overrides", "seats", "events", "used"),
    [
        ({}, (L.BOT_GREEDY, L.BOT_CAREFUL), 0, True),
        ({}, (L.BOT_GREEDY, L.BOT_RANDOM), 0, False),  # a random seat: the general loop
        ({}, (L.BOT_GREEDY, L.BOT_GREEDY), 2000, False),  # an event log (replays)
        ({"jokers": 2}, (L.BOT_GREEDY, L.BOT_GREEDY), 0, False),  # off the fast path
        ({"decks": 2}, (L.BOT_GREEDY, L.BOT_GREEDY), 0, False),
        ({"run_suit": "any_suit"}, (L.BOT_GREEDY, L.BOT_GREEDY), 0, False),
    ],
)
def test_mask_hand_plays_only_fast_path_hands_of_greedy_and_careful_bots(
    overrides, seats, events, used
):
    rules = load_variant("rummy_basic", overrides or None)
    c = compile_rules(rules, 2)
    out = api.play(c.params, c.card_values, np.array(seats), seed=1, hands=4, events=events)
    assert int(out.counters[L.C_MASK_HANDS]) == (4 if used else 0)
