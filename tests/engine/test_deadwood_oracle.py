"""The engine's minimum-deadwood search against the slow oracle (tests/oracles/deadwood.py).

RULES.md §1.3 (melds), §1.13 (deadwood = best arrangement), §2A.4 (ace_rank), §2A.6
(run_suit), §2B.9 (group_duplicates), §2D.19 (melds_per_turn: at most one new meld).

For every case: random hands from a fixed seed; the engine's value must equal the
oracle's, and the arrangement it returns must be made of legal melds (oracle
``is_meld``), use only cards of the hand, leave exactly the value returned as
deadwood, and respect ``max_melds``. Each case is its own test so that pytest-xdist
spreads them over the workers.
"""

from __future__ import annotations

import random
import zlib
from collections import Counter

import pytest

from sim.cards import cards_text, parse_cards
from sim.engine import api
from sim.engine.layout import (
    ACE_AROUND_CORNER,
    ACE_HIGH,
    ACE_HIGH_OR_LOW,
    ACE_LOW,
    RUN_ANY_SUIT,
    RUN_SAME_SUIT,
)
from tests.oracles import deadwood as oracle

ACES = [ACE_LOW, ACE_HIGH, ACE_HIGH_OR_LOW, ACE_AROUND_CORNER]
# §2A.5 ace_points=auto: low 1, high 10, high_or_low 15, around_corner 11. Using the
# rule's own ace value also checks that the engine weighs cards by card_values.
AUTO_ACE_POINTS = {ACE_LOW: 1, ACE_HIGH: 10, ACE_HIGH_OR_LOW: 15, ACE_AROUND_CORNER: 11}

MAX_FAILURES_SHOWN = 5


def case(
    ace,
    *,
    hands,
    sizes,
    decks=1,
    jokers=0,
    run_suit=RUN_SAME_SUIT,
    dup=False,
    max_melds=0,
):
    rules = dict(
        ace_rank=ace,
        run_suit=run_suit,
        group_duplicates=dup,
        decks=decks,
        jokers=jokers,
        ace_points=AUTO_ACE_POINTS[ace],
    )
    name = (
        f"{oracle.ACE_RANK_NAMES[ace]}-{oracle.RUN_SUIT_NAMES[run_suit]}"
        f"-dup{int(dup)}-d{decks}-j{jokers}-n{'+'.join(map(str, sizes))}"
        f"-m{max_melds}-x{hands}"
    )
    return pytest.param(rules, hands, sizes, max_melds, id=name)


# Main sweep: each ace rule x (no jokers | 2 jokers in a 1-pack shoe) x 10 and 11 cards.
MAIN = [
    case(ace, hands=20_000, sizes=(n,), jokers=jokers)
    for ace in ACES
    for jokers in (0, 2)
    for n in (10, 11)
]

# Smaller extra sets: two packs (duplicates forbidden / allowed), runs of any suit.
EXTRA = (
    [
        case(ace, hands=2_000, sizes=(10, 11), decks=2, jokers=jokers, dup=dup)
        for ace in ACES
        for dup in (False, True)
        for jokers in (0, 4)
    ]
    + [
        case(ace, hands=2_000, sizes=(10, 11), jokers=jokers, run_suit=RUN_ANY_SUIT)
        for ace in ACES
        for jokers in (0, 2)
    ]
    + [
        case(ace, hands=1_000, sizes=(10, 11), decks=2, jokers=4, dup=True, run_suit=RUN_ANY_SUIT)
        for ace in ACES
    ]
)

# §2D.19 melds_per_turn = one: at most one meld.
ONE_MELD = [
    case(ace, hands=2_000, sizes=(10, 11), jokers=jokers, max_melds=1)
    for ace in ACES
    for jokers in (0, 2)
] + [
    case(ace, hands=1_000, sizes=(10, 11), decks=2, jokers=4, dup=True, max_melds=1)
    for ace in (ACE_LOW, ACE_AROUND_CORNER)
]


def describe(rules, max_melds) -> str:
    names = {"ace_rank": oracle.ACE_RANK_NAMES, "run_suit": oracle.RUN_SUIT_NAMES}
    parts = [f"{k}={names[k][v] if k in names else v}" for k, v in rules.items()]
    return ", ".join(parts) + f", max_melds={max_melds}"


def check_hand(hand, rules, params, values, values_list, max_melds) -> list[str]:
    """Problems with the engine's answer for one hand (empty when it agrees)."""
    ace, suit, dup = rules["ace_rank"], rules["run_suit"], rules["group_duplicates"]
    value, melds = api.min_deadwood(list(hand), params, values, max_melds)
    value = int(value)
    melds = [[int(k) for k in m] for m in melds]
    expected = oracle.min_deadwood(hand, ace, suit, dup, values_list, max_melds)

    problems = []
    if value != expected:
        problems.append(f"engine value {value} != oracle value {expected}")
    for m in melds:
        if not oracle.is_meld(m, ace, suit, dup):
            problems.append(f"illegal meld [{cards_text(m)}]")
    used = Counter(k for m in melds for k in m)
    have = Counter(hand)
    extra = used - have
    if extra:
        problems.append(
            f"arrangement uses cards not in the hand: {cards_text(sorted(extra.elements()))}"
        )
    else:
        left = oracle.deadwood_of(hand, melds, values_list)
        if left != value:
            problems.append(f"arrangement leaves deadwood {left}, engine returned {value}")
    if max_melds and len(melds) > max_melds:
        problems.append(f"{len(melds)} melds > max_melds {max_melds}")
    if not problems:
        return []
    best_value, best = oracle.min_deadwood_arrangement(hand, ace, suit, dup, values_list, max_melds)
    return [
        f"hand [{cards_text(hand)}]\n"
        f"    rules: {describe(rules, max_melds)}\n"
        f"    engine: {value}  melds {[cards_text(m) for m in melds]}\n"
        f"    oracle: {best_value}  melds {[cards_text(m) for m in best]}\n"
        f"    problems: {'; '.join(problems)}"
    ]


def run_case(rules, hands, sizes, max_melds, seed_text):
    params, values = api.make_params(**rules)
    values_list = [int(v) for v in values]
    assert len(values_list) == 53
    # fixed seed per case, independent of the number of hands
    rng = random.Random(zlib.crc32(seed_text.rsplit("-x", 1)[0].encode()))
    failures: list[str] = []
    n_bad = 0
    for i in range(hands):
        n_cards = sizes[i % len(sizes)]
        hand = oracle.random_hand(rng, n_cards, rules["decks"], rules["jokers"])
        found = check_hand(hand, rules, params, values, values_list, max_melds)
        if found:
            n_bad += 1
            if len(failures) < MAX_FAILURES_SHOWN:
                failures.extend(found)
    assert n_bad == 0, (
        f"{n_bad} of {hands} hands disagree with the oracle "
        f"({describe(rules, max_melds)}, seed text {seed_text!r}); first ones:\n"
        + "\n".join(failures)
    )


@pytest.mark.parametrize("rules, hands, sizes, max_melds", MAIN)
def test_1_13_engine_min_deadwood_matches_oracle(rules, hands, sizes, max_melds, request):
    run_case(rules, hands, sizes, max_melds, request.node.callspec.id)


@pytest.mark.parametrize("rules, hands, sizes, max_melds", EXTRA)
def test_2B_9_2A_6_engine_min_deadwood_matches_oracle_extra(
    rules, hands, sizes, max_melds, request
):
    run_case(rules, hands, sizes, max_melds, request.node.callspec.id)


@pytest.mark.parametrize("rules, hands, sizes, max_melds", ONE_MELD)
def test_2D_19_engine_one_meld_matches_oracle(rules, hands, sizes, max_melds, request):
    run_case(rules, hands, sizes, max_melds, request.node.callspec.id)


# A small sample of every configuration above, also run with NUMBA_DISABLE_JIT=1, where
# an out-of-bounds index in a kernel raises instead of corrupting memory.
SMALL = [
    pytest.param(p.values[0], 40, p.values[2], p.values[3], id=p.id.rsplit("-x", 1)[0] + "-x40")
    for p in MAIN[::2] + EXTRA + ONE_MELD
]


@pytest.mark.nojit
@pytest.mark.parametrize("rules, hands, sizes, max_melds", SMALL)
def test_1_13_engine_matches_oracle_small(rules, hands, sizes, max_melds, request):
    run_case(rules, hands, sizes, max_melds, request.node.callspec.id)


TWO_ACES_AND_2_TO_K = "As As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks"


@pytest.mark.nojit
def test_1_13_engine_hand_built_examples():
    """A few hands worked out by hand (see tests/oracles/test_oracle_self.py)."""
    examples = [
        # (hand, ace_rank, run_suit, dup, decks, jokers, max_melds, expected with ace=1, joker=15)
        ("5s 6s 7s 7h 7d", ACE_LOW, RUN_SAME_SUIT, False, 1, 0, 0, 11),
        ("5s 6s 7s 8s 9s Ts 7h 7d", ACE_LOW, RUN_SAME_SUIT, False, 1, 0, 0, 11),
        ("5s 6s 7s 8s 9s Ts 7h 7d", ACE_LOW, RUN_SAME_SUIT, False, 1, 0, 1, 14),
        ("Qs Ks As", ACE_LOW, RUN_SAME_SUIT, False, 1, 0, 0, 21),
        ("Qs Ks As", ACE_HIGH, RUN_SAME_SUIT, False, 1, 0, 0, 0),
        ("Ks As 2s", ACE_HIGH_OR_LOW, RUN_SAME_SUIT, False, 1, 0, 0, 13),
        ("Ks As 2s", ACE_AROUND_CORNER, RUN_SAME_SUIT, False, 1, 0, 0, 0),
        ("4s 6s Jk 9h", ACE_LOW, RUN_SAME_SUIT, False, 1, 2, 0, 9),
        ("Jk 2h 9c", ACE_LOW, RUN_SAME_SUIT, False, 1, 2, 0, 26),
        ("Ks Kh Kd Kc Jk", ACE_LOW, RUN_SAME_SUIT, False, 2, 4, 0, 10),
        ("Ks Kh Kd Kc Jk", ACE_LOW, RUN_SAME_SUIT, True, 2, 4, 0, 0),
        ("7s 7s 7h", ACE_LOW, RUN_SAME_SUIT, False, 2, 0, 0, 21),
        ("7s 7s 7h", ACE_LOW, RUN_SAME_SUIT, True, 2, 0, 0, 0),
        ("4s 5h 6d", ACE_LOW, RUN_ANY_SUIT, False, 1, 0, 0, 0),
        (TWO_ACES_AND_2_TO_K, ACE_HIGH_OR_LOW, RUN_SAME_SUIT, False, 2, 0, 0, 0),
        (TWO_ACES_AND_2_TO_K, ACE_LOW, RUN_SAME_SUIT, False, 2, 0, 0, 1),
    ]
    bad = []
    for text, ace, suit, dup, decks, jokers, max_melds, expected in examples:
        rules = dict(
            ace_rank=ace,
            run_suit=suit,
            group_duplicates=dup,
            decks=decks,
            jokers=jokers,
            ace_points=1,
        )
        params, values = api.make_params(**rules)
        values_list = [int(v) for v in values]
        hand = sorted(parse_cards(text))
        assert oracle.min_deadwood(hand, ace, suit, dup, values_list, max_melds) == expected, text
        bad += check_hand(hand, rules, params, values, values_list, max_melds)
    assert not bad, "\n".join(bad)
