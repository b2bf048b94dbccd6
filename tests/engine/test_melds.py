"""The meld library's best arrangement against the brute-force oracle with the declared
tie-break (tests/oracles/arrangement.py), on hand-built hands and random hands of every
meld rule (RULES.md §1.3, §1.13, §2A.4, §2A.6, §2B.9)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.cards import JOKER, N_KINDS, N_NATURAL, N_SUITS, parse_cards
from sim.engine import layout as L
from sim.engine import melds as M
from sim.engine.specs import GENERIC, STANDARD
from tests.oracles import arrangement as oracle
from tests.oracles.deadwood import min_deadwood

ACE_WORDS = ("low", "high", "high_or_low", "around_corner")


def baseline_values(ace: int = 1, joker: int = 15) -> np.ndarray:
    values = np.zeros(N_KINDS, np.int64)
    for k in range(N_NATURAL):
        rank = k // N_SUITS
        values[k] = ace if rank == 0 else min(rank + 1, 10)
    values[JOKER] = joker
    return values


def make_params(rules: oracle.Rules, packs: int) -> np.ndarray:
    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_PACKS] = packs
    params[L.P_ACE_RANK] = L.code("ace_rank", rules.ace_rank)
    params[L.P_RUN_SUIT] = L.code("run_suit", "any_suit" if rules.any_suit else "same_suit")
    dup = "allowed" if rules.group_duplicates else "forbidden"
    params[L.P_GROUP_DUPLICATES] = L.code("group_duplicates", dup)
    return params


def layers_of(cards: list[int]) -> tuple[np.ndarray, int]:
    layers = np.zeros(M.MAX_LAYERS, np.int64)
    jokers = 0
    for k in cards:
        if k == JOKER:
            jokers += 1
            continue
        level = 0
        while (layers[level] >> k) & 1:
            level += 1
        layers[level] |= np.int64(1) << k
    return layers, jokers


def key_of(row: np.ndarray) -> tuple[int, ...]:
    """The oracle's key of a candidate row of the workspace."""
    shape = int(row[M.CA_SHAPE])
    if row[M.CA_TYPE] == M.MELD_GROUP:
        counts = tuple((shape >> (4 * t)) & 0xF for t in range(N_SUITS))
        return (0, *counts, int(row[M.CA_JOKERS]))
    length = int(row[M.CA_LEN])
    digits = tuple((shape >> (3 * i)) & 0x7 for i in range(length))
    return (1, int(row[M.CA_LO]), length, *digits)


WORK = M.new_work()


def engine_best(cards, rules, values, packs=1, limit=0, fx=GENERIC):
    layers, jokers = layers_of(cards)
    params = make_params(rules, packs)
    value = M.best_arrangement(fx, params, M.value_table(values), WORK, layers, jokers, limit)
    n = int(WORK[M.W_SCAL, M.S_BEST_N])
    assert WORK[M.W_SCAL, M.S_TRUNCATED] == 0
    return int(value), [key_of(WORK[M.W_BEST + m]) for m in range(n)]


def oracle_best(cards, rules, values, limit=0):
    value, melds = oracle.best_arrangement(cards, rules, [int(v) for v in values], limit)
    return value, [m.key for m in melds]


# ---- hand-built hands -------------------------------------------------------------------


@pytest.mark.nojit
def test_s1_3_a_group_and_a_run_meld_and_the_rest_is_left():
    values = baseline_values()
    value, keys = engine_best(parse_cards("As 2s 3s 7h 7d 7c Kd 9c"), oracle.Rules(), values)
    assert value == 1 + 2 + 3 + 21
    assert keys == [(1, 0, 3, 0, 0, 0), (0, 0, 1, 1, 1, 0)]


@pytest.mark.nojit
def test_s2a_2_a_joker_may_stand_for_a_card_held_when_that_leaves_less():
    # 7h 7s 7d 7c Jk: four 7s leave the joker (15); a joker 7 in a group of three 7s
    # with the fourth left leaves only 7. Of the four such groups the fullest key is tried
    # first: 7s 7h 7d and the joker, 7c left.
    values = baseline_values()
    value, keys = engine_best(parse_cards("7h 7s 7d 7c Jk"), oracle.Rules(), values)
    assert value == 7 * 3 + 15
    assert keys == [(0, 1, 1, 1, 0, 1)]


@pytest.mark.nojit
def test_s2a_4_ace_high_runs_and_around_the_corner():
    values = baseline_values()
    qka = parse_cards("Qs Ks As")
    assert engine_best(qka, oracle.Rules("low"), values)[0] == 0
    assert engine_best(qka, oracle.Rules("high"), values)[0] == 21
    assert engine_best(qka, oracle.Rules("high_or_low"), values)[0] == 21
    ka2 = parse_cards("Ks As 2s")
    assert engine_best(ka2, oracle.Rules("high_or_low"), values)[0] == 0
    assert engine_best(ka2, oracle.Rules("around_corner"), values)[0] == 13


@pytest.mark.nojit
def test_s2b_9_identical_cards_group_only_when_duplicates_are_allowed():
    values = baseline_values()
    cards = parse_cards("Ks Ks Kd")
    assert engine_best(cards, oracle.Rules(), values, packs=2)[0] == 0
    dup = oracle.Rules(group_duplicates=True)
    assert engine_best(cards, dup, values, packs=2) == (30, [(0, 2, 0, 1, 0, 0)])


@pytest.mark.nojit
def test_s2d_19_a_meld_limit_keeps_the_most_valuable_meld():
    values = baseline_values()
    cards = parse_cards("As 2s 3s Kh Kd Kc")
    assert engine_best(cards, oracle.Rules(), values, limit=1) == (30, [(0, 0, 1, 1, 1, 0)])


# ---- random hands against the oracle --------------------------------------------------------

RULE_SETS = [
    (oracle.Rules(ace), packs, jokers)
    for ace in ACE_WORDS
    for packs, jokers in ((1, 0), (1, 1), (2, 2))
] + [
    (oracle.Rules("low", any_suit=True), 1, 0),
    (oracle.Rules("high_or_low", any_suit=True), 1, 1),
    (oracle.Rules("high_or_low", group_duplicates=True), 2, 2),
    (oracle.Rules("around_corner", group_duplicates=True), 2, 1),
]


def random_hand(rng: random.Random, packs: int, jokers: int, size: int) -> list[int]:
    shoe = [k for k in range(N_NATURAL) for _ in range(packs)] + [JOKER] * jokers
    return rng.sample(shoe, size)


def _ids(case):
    rules, packs, jokers = case
    suit = "any" if rules.any_suit else "same"
    return f"{rules.ace_rank}-{suit}-dup{int(rules.group_duplicates)}-p{packs}-j{jokers}"


@pytest.mark.parametrize("case", RULE_SETS, ids=[_ids(c) for c in RULE_SETS])
def test_s1_13_best_arrangement_matches_the_oracle_on_random_hands(case):
    rules, packs, jokers = case
    rng = random.Random(hash(_ids(case)) & 0xFFFF)
    values = baseline_values(ace=rng.choice((1, 11, 15)), joker=rng.choice((15, 25)))
    for _ in range(150):
        # hands rich in melds: a few consecutive ranks of few suits
        size = rng.choice((7, 8, 9, 10))
        hand = random_hand(rng, packs, jokers, size)
        if rng.random() < 0.5:
            pool = [k for k in range(N_NATURAL) if k // N_SUITS in range(5, 10) and k % 4 < 2]
            hand = rng.sample(pool * packs, min(size, len(pool) * packs))
            hand += [JOKER] * rng.randint(0, jokers)
        limit = rng.choice((0, 0, 0, 1))
        want = oracle_best(hand, rules, values, limit)
        got = engine_best(hand, rules, values, packs, limit)
        assert got == want, f"hand {hand} rules {rules} packs {packs} limit {limit}"
        if limit == 0:
            total = int(sum(values[k] for k in hand))
            ace = L.code("ace_rank", rules.ace_rank)
            suit = L.code("run_suit", "any_suit" if rules.any_suit else "same_suit")
            dw = min_deadwood(hand, ace, suit, rules.group_duplicates, values)
            assert total - got[0] == dw


def test_standard_spec_gives_the_generic_answer():
    """The STANDARD spec (rules as constants) changes speed, never the answer."""
    rng = random.Random(7)
    rules = oracle.Rules()
    values = baseline_values()
    for _ in range(2000):
        hand = random_hand(rng, 1, 0, rng.choice((7, 10, 11)))
        assert engine_best(hand, rules, values, fx=STANDARD) == engine_best(hand, rules, values)
