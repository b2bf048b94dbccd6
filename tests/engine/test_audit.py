"""Audit mode over every variant file, player count and bot, and over random toggle
combinations: zero invariant violations and no hand beyond the turn cap."""

from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
import pytest

from sim.engine import api
from sim.engine import layout as P
from sim.engine import rows as L
from sim.engine.api import play
from sim.rules import ConfigError, list_variants, load_variant
from sim.rules.model import KNOCK_FAMILIES
from sim.rules.toggles import TOGGLES

LINEUPS = {
    "random": [L.BOT_RANDOM],
    "greedy": [L.BOT_GREEDY],
    "careful": [L.BOT_CAREFUL],
    "mixed": [L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_RANDOM],
}
KNOCK_LINEUPS = {
    **LINEUPS,
    "simple": [L.BOT_SIMPLE],
    "mixed": [L.BOT_SIMPLE, L.BOT_CAREFUL, L.BOT_RANDOM, L.BOT_GREEDY],
}
"""The knock families add the reference gin bot (rummy variants refuse it)."""
HANDS = {"random": 150, "greedy": 1000, "careful": 700, "mixed": 500, "simple": 1000}


def _lineups(rules):
    return KNOCK_LINEUPS if rules.family in KNOCK_FAMILIES else LINEUPS


def _table_sizes(rules):
    """The player counts audited: every one, or for a range wider than 2-7 (Continental's
    2-12) the ends of each stretch with the same packs (2, 5, 6, 8, 9, 12)."""
    counts = list(rules.player_counts)
    if len(counts) <= 6:
        return counts
    edges = {counts[0], counts[-1]}
    for low, high in zip(counts, counts[1:], strict=False):
        if rules.decks_for(low) != rules.decks_for(high):
            edges |= {low, high}
    return sorted(edges)


def _cases():
    for name, _ in list_variants():
        rules = load_variant(name)
        for players in _table_sizes(rules):
            for lineup in _lineups(rules):
                yield name, players, lineup


def _check(out, params):
    assert int(out.counters[L.C_VIOLATIONS]) == 0
    assert (out.hand_rows[:, L.H_TURNS] <= params[P.P_TURN_CAP]).all()
    stalled = out.hand_rows[:, L.H_END_REASON] == L.REASON_STALLED
    assert (out.hand_scores[stalled] == 0).all()


@pytest.mark.parametrize(("variant", "players", "lineup"), list(_cases()))
def test_audit_every_variant_player_count_and_bot(variant, players, lineup):
    rules = load_variant(variant)
    compiled = compile_rules(rules, players, audit=True)
    seats = (_lineups(rules)[lineup] * players)[:players]
    out = play(compiled.params, compiled.card_values, np.array(seats), seed=3, hands=HANDS[lineup])
    assert out.hands == HANDS[lineup]
    _check(out, compiled.params)


def compile_rules(rules, players: int, *, audit: bool = False) -> SimpleNamespace:
    """The engine's arrays of ``rules`` at ``players`` seats, with the seat count."""
    params, values = api.compile_rules(rules, players, audit=audit)
    return SimpleNamespace(params=params, card_values=values, players=players)


SUPPORTED_CHOICES = {
    "decks": [1, 2],
    "jokers": [0, 1, 2, 4],
    "joker_points": [15, 25],
    "ace_rank": ["low", "high", "high_or_low", "around_corner"],
    "strip_8_9_10": [False, False, True],  # §2A.7 (with the ace low only)
    "ace_points": ["auto", 1, 10, 11, 15],
    "run_suit": ["same_suit", "any_suit"],
    "group_duplicates": ["forbidden", "allowed"],
    "joker_replace": ["none", "to_hand", "reuse_same_turn", "steal_by_replacement"],
    "joker_declare": ["inferred", "three_card_group", "always"],
    "melds_per_turn": ["unlimited", "one", "one_or_layoff"],
    "layoff_target": ["any", "own_only", "none"],
    "layoff_requires_meld": ["off", "after_first_meld", "after_own_layoff"],
    "must_discard_to_go_out": [False, True],
    "going_rummy": ["off", "double", "bonus:10"],
    "stock_exhaustion": [
        "turn_over",
        "shuffle_except_top",
        "block_difference",
        "block_totals",
        "shuffle_all",
    ],
    "discard_draw": ["top", "any_card", "top_plus_one"],
    "scoring": ["pip_to_winner", "per_card", "penalty"],
    "game_end": ["target:100", "fixed_hands:5", "single_hand", "penalty_limit:100"],
    "dealer_rotation": ["left", "winner_deals"],
    "call_rummy": [False, True],
    # wild cards and the initial meld (issue #31: §2B.10, §2D.24-25)
    "joker_limit": ["none", "not_more_than_naturals"],
    "initial_meld_min": [0, 0, 25, 40, 51],
    "discard_before_initial_meld": ["free", "only_for_initial_meld"],
    "opening_ace_low": ["ace_points", 1],
    "deal_size": [0, 0, 0, 3, 7, 13],  # §1.4 simulator extension (issue #35)
}


def test_choices_cover_known_toggles():
    names = {t.name for t in TOGGLES}
    assert set(SUPPORTED_CHOICES) <= names


def _random_rules(rng: random.Random):
    while True:
        overrides = {k: rng.choice(v) for k, v in SUPPORTED_CHOICES.items()}
        try:
            rules = load_variant("rummy_basic", overrides)
            players = rng.choice(rules.player_counts)
            return compile_rules(rules, players, audit=True), overrides
        except ConfigError:
            continue


@pytest.mark.parametrize("batch", range(10))
def test_audit_random_toggle_combinations(batch):
    rng = random.Random(1000 + batch)
    for _ in range(100):
        compiled, overrides = _random_rules(rng)
        players = compiled.players
        seats = [rng.choice([L.BOT_RANDOM, L.BOT_GREEDY, L.BOT_CAREFUL]) for _ in range(players)]
        out = play(compiled.params, compiled.card_values, np.array(seats), seed=batch, hands=25)
        assert int(out.counters[L.C_VIOLATIONS]) == 0, overrides
        _check(out, compiled.params)


KNOCK_CHOICES = {
    "knock_limit": ["unlimited", 10, 5, "upcard", 0, 7],  # 0, 7: the extension (issue #35)
    "gin_opening": ["upcard_offer", "deal_11_10"],
    "gin_bonus": [20, 25, 0, 40],
    "undercut_bonus": [10, 25, 0],
    "box_bonus": [20, 25],
    "shutout": ["game_bonus_200", "double_all"],
    "spade_double": [False, True],
    "oklahoma_extra_bonus": [False, True],
    "layoff_target": ["any", "none"],
    "ace_rank": ["low", "high", "around_corner"],
    "dealer_rotation": ["left", "winner_deals"],
    "game_end": ["target:50", "target:100", "target:150"],
    "deal_size": [0, 0, 7, 12],  # §1.4 simulator extension (issue #35)
}
"""§2I and the other settings the knock families take (RULES.md §4D)."""
KNOCK_BOTS = [L.BOT_RANDOM, L.BOT_GREEDY, L.BOT_CAREFUL, L.BOT_SIMPLE]


def random_knock_rules(rng: random.Random, run_suit: str | None):
    """One random knock-family rule set (gin or knock rummy, §2I and RULES.md §4D's
    settings; ``run_suit`` forced when given), audited, with random seats: (overrides,
    compiled rules, seats), or None when the draw is not a valid configuration."""
    variant = rng.choice(["gin_rummy", "knock_rummy"])
    knock_rummy_keys = ("layoff_target", "ace_rank", "game_end", "deal_size")
    if run_suit is None:
        knock_rummy_keys = ("knock_limit", *knock_rummy_keys)
    names = (
        KNOCK_CHOICES if variant == "gin_rummy" else {k: KNOCK_CHOICES[k] for k in knock_rummy_keys}
    )
    overrides = {k: rng.choice(v) for k, v in names.items()}
    if variant == "knock_rummy" and overrides.get("knock_limit") == "upcard":
        overrides["knock_limit"] = "unlimited"  # both are fine; keep the sweep balanced
    if run_suit is not None:
        overrides["run_suit"] = run_suit
    try:
        rules = load_variant(variant, overrides)
    except ConfigError:
        return None
    players = rng.choice(rules.player_counts)
    compiled = compile_rules(rules, players, audit=True)
    seats = [rng.choice(KNOCK_BOTS) for _ in range(players)]
    return {"variant": variant, **overrides}, compiled, seats


def _random_sweep(draw, seed: int, batch: int, combinations: int, hands: int) -> None:
    """Audit ``combinations`` random rule sets drawn by ``draw(rng)`` (None: a set the
    rules model refused, drawn again), ``hands`` hands each."""
    rng = random.Random(seed)
    done = 0
    while done < combinations:
        drawn = draw(rng)
        if drawn is None:
            continue
        overrides, compiled, seats = drawn
        out = play(compiled.params, compiled.card_values, np.array(seats), seed=batch, hands=hands)
        assert int(out.counters[L.C_VIOLATIONS]) == 0, overrides
        _check(out, compiled.params)
        done += 1


def _knock_sweep(seed: int, batch: int, combinations: int, run_suit: str | None) -> None:
    """Audit ``combinations`` random knock-family rule sets (``random_knock_rules``), 60
    hands each."""
    _random_sweep(lambda rng: random_knock_rules(rng, run_suit), seed, batch, combinations, 60)


@pytest.mark.parametrize("batch", range(4))
def test_audit_random_knock_family_toggle_combinations(batch):
    _knock_sweep(2000 + batch, batch, 100, None)


@pytest.mark.parametrize("batch", range(2))
def test_audit_random_knock_family_toggle_combinations_with_any_suit_runs(batch):
    _knock_sweep(2100 + batch, batch, 50, "any_suit")


def test_two_careful_bots_under_going_rummy_rarely_stall():
    # careful holds melds for a rummy only early in the hand; two of them must not block each
    # other until the turn cap (review finding: 29% of @004 hands stalled before the limit)
    compiled = compile_rules(load_variant("rummy_basic@004"), 2, audit=True)
    out = play(
        compiled.params, compiled.card_values, np.array([L.BOT_CAREFUL] * 2), seed=1, hands=1000
    )
    stalled = float(np.mean(out.hand_rows[:, L.H_END_REASON] == L.REASON_STALLED))
    assert stalled < 0.02
    _check(out, compiled.params)


@pytest.mark.parametrize("lineup", list(LINEUPS))
@pytest.mark.parametrize("players", [2, 4, 6])
def test_audit_top_plus_one_every_bot_and_few_stalls(players, lineup):
    """rummy_basic with Boat House's draw (RULES.md §2C.16, §3.7), which no file uses yet:
    hands grow, and greedy and careful must still rarely reach the turn cap (docs/bots.md,
    the pass breaker) and never leave the next player nothing to draw."""
    rules = load_variant("rummy_basic", {"discard_draw": "top_plus_one"})
    compiled = compile_rules(rules, players, audit=True)
    seats = (LINEUPS[lineup] * players)[:players]
    out = play(compiled.params, compiled.card_values, np.array(seats), seed=5, hands=HANDS[lineup])
    _check(out, compiled.params)
    ended = out.hand_rows[:, L.H_END_REASON]
    assert not (ended == L.REASON_EXHAUSTED).any()
    if lineup != "random":
        assert float(np.mean(ended == L.REASON_STALLED)) < 0.02


ALL_AT_ONCE_CHOICES = {
    "ace_rank": ["low", "high", "high_or_low", "around_corner"],
    "ace_points": ["auto", 1, 11, 15],
    "run_suit": ["same_suit", "any_suit"],
    "layoff_target": ["any", "none"],
    "discard_draw": ["top", "top_plus_one"],  # Boat House's draw (§3.7)
    "must_discard_to_go_out": [False, True],
    "stock_exhaustion": ["turn_over", "shuffle_except_top", "block_difference", "block_totals"],
    "scoring": [
        "pip_to_winner",
        "per_card",
        "penalty",
        "unmelded_to_winner",
        "own_melds_from_each",
    ],
    "game_end": ["target:200", "fixed_hands:5", "single_hand", "penalty_limit:100"],
    "dealer_rotation": ["left", "winner_deals"],
    "deal_size": [0, 0, 6, 9],  # §1.4 simulator extension (issue #35)
}
"""What ``meld_timing = "all_at_once"`` takes (RULES.md §2D.18; ``sim.rules.model`` refuses the
rest)."""


def random_family_rules(rng: random.Random, variants: list[str], choices: dict):
    """One random rule set on one of ``variants`` (drawn when there are several) with one of
    ``choices``' values per setting, audited, at a random table size with random seats:
    (overrides, compiled rules, seats), or None when the rules model refuses it."""
    variant = rng.choice(variants) if len(variants) > 1 else variants[0]
    overrides = {k: rng.choice(v) for k, v in choices.items()}
    try:
        rules = load_variant(variant, overrides)
    except ConfigError:
        return None
    players = rng.choice(rules.player_counts)
    compiled = compile_rules(rules, players, audit=True)
    seats = [rng.choice([L.BOT_RANDOM, L.BOT_GREEDY, L.BOT_CAREFUL]) for _ in range(players)]
    return {"variant": variant, **overrides}, compiled, seats


def random_all_at_once_rules(rng: random.Random):
    """One random all_at_once rule set on ``full_rummy`` or ``queen_city_rum``
    (``random_family_rules``)."""
    return random_family_rules(rng, ["full_rummy", "queen_city_rum"], ALL_AT_ONCE_CHOICES)


@pytest.mark.parametrize("batch", range(3))
def test_audit_random_all_at_once_toggle_combinations(batch):
    _random_sweep(random_all_at_once_rules, 3000 + batch, batch, 60, 25)


NOWRANG_CHOICES = {
    "ace_rank": ["low", "high", "high_or_low"],
    "ace_points": ["auto", 1, 11],
    "run_suit": ["same_suit", "any_suit"],
    "upcard": [False, True],  # the 11/10 opening, or an upcard (§2C.15)
    "go_out_pattern": ["runs_4_3_3", "none"],
    "discard_draw": ["top", "top_plus_one"],
    "must_discard_to_go_out": [True, False],
    "stock_exhaustion": ["turn_over", "shuffle_except_top", "block_difference"],
    "scoring": ["pip_to_winner", "per_card", "penalty", "unmelded_to_winner"],
    "game_end": ["single_hand", "fixed_hands:3", "target:100"],
    "dealer_rotation": ["left", "winner_deals"],
}
"""What Nowrang's file takes around its fixed pattern (RULES.md §3.15, §2D.18; the rules
model refuses the rest, such as a pattern with ``high_or_low`` or ``any_suit``)."""


@pytest.mark.parametrize("batch", range(2))
def test_audit_random_nowrang_toggle_combinations(batch):
    _random_sweep(
        lambda rng: random_family_rules(rng, ["nowrang"], NOWRANG_CHOICES), 3500 + batch, batch,
        40, 25,
    )  # fmt: skip


CONTINENTAL_CHOICES = {
    "ace_rank": ["high_or_low", "low", "high"],
    "continental_quick_bonus": [False, True],
    "continental_special_bonus": [False, True],
    "deuces_wild": [False, True],
    "start_points": [100, 0, 250],
    "scoring": ["continental", "pip_to_winner", "per_card"],
    "must_discard_to_go_out": [True, False],
    "stock_exhaustion": ["turn_over", "shuffle_except_top"],
    "game_end": ["fixed_hands:10", "fixed_hands:3", "single_hand"],
    "dealer_rotation": ["winner_deals", "left"],
}
"""What Continental's file takes around its pattern and payment (RULES.md §3.11, §2J; the
rules model refuses the rest, such as the §2J settings under another scoring)."""


def random_continental_rules(rng: random.Random):
    """One random Continental rule set at a random table size, 2-12 players
    (``random_family_rules``)."""
    return random_family_rules(rng, ["continental"], CONTINENTAL_CHOICES)


@pytest.mark.parametrize("batch", range(2))
def test_audit_random_continental_toggle_combinations(batch):
    _random_sweep(random_continental_rules, 3600 + batch, batch, 30, 12)


PHOM_CHOICES = {
    "ace_rank": ["low", "high", "high_or_low", "around_corner"],
    "run_suit": ["same_suit", "any_suit"],
    "face_values": ["ten", "rank"],
    "phom_layoff_others": [False, True],
    "phom_discard_taken_penalty": [False, True],
    "phom_three_taken_liability": [False, True],
    "play_direction": ["clockwise", "counterclockwise"],
    "game_end": ["deals_each:1", "deals_each:3", "fixed_hands:5", "single_hand"],
    "dealer_rotation": ["left", "winner_deals"],
}
"""What the phom family takes (RULES.md §3.13, §2K, and the card rules of §2A; the rules
model refuses the rest)."""


def random_phom_rules(rng: random.Random):
    """One random Phỏm rule set (``random_family_rules``)."""
    return random_family_rules(rng, ["phom"], PHOM_CHOICES)


@pytest.mark.parametrize("batch", range(2))
def test_audit_random_phom_toggle_combinations(batch):
    """§3.13 under random rule sets: taken cards apart, cards conserved, chips zero-sum."""
    _random_sweep(random_phom_rules, 3100 + batch, batch, 60, 40)


CONQUIAN_CHOICES = {
    "strip_8_9_10": [True, False],
    "run_suit": ["same_suit", "any_suit"],
    "rearrange": ["own", "none"],
    "run_max": [8, 13, 5, 3],
    "game_end": ["target:3", "target:5", "single_hand"],
    "play_direction": ["clockwise", "counterclockwise"],
}
"""What the conquian family takes (RULES.md §3.21, and the card rules of §2A; the rules model
refuses the rest)."""


def random_conquian_rules(rng: random.Random):
    """One random Conquian rule set (``random_family_rules``)."""
    return random_family_rules(rng, ["conquian"], CONQUIAN_CHOICES)


@pytest.mark.parametrize("batch", range(2))
def test_audit_random_conquian_toggle_combinations(batch):
    """§3.21 under random rule sets: cards conserved (the rejected ones in the pile), melds
    legal within the run cap, melded and held cards adding up to the deal."""
    _random_sweep(random_conquian_rules, 3210 + batch, batch, 60, 60)
