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
    params[L.P_STRIP_8_9_10] = int(rules.strip)
    params[L.P_RUN_MAX] = rules.run_max
    params[L.P_RUN_SUIT] = L.code("run_suit", "any_suit" if rules.any_suit else "same_suit")
    dup = "allowed" if rules.group_duplicates else "forbidden"
    params[L.P_GROUP_DUPLICATES] = L.code("group_duplicates", dup)
    limit = "not_more_than_naturals" if rules.joker_limit else "none"
    params[L.P_JOKER_LIMIT] = L.code("joker_limit", limit)
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


def engine_best(
    cards, rules, values, packs=1, limit=0, fx=GENERIC, minimum=0, must=None, ace_low=None,
    borrowing=False, apart=(),
):  # fmt: skip
    """The engine's best arrangement; the conditions (``minimum``, ``must``) apply under an
    initial-meld rule, or under ``borrowing`` (a card to meld, no threshold, §2D.22);
    ``apart`` (cards each melded in a meld of its own) under Phỏm's meld timing (§3.13)."""
    layers, jokers = layers_of(cards)
    params = make_params(rules, packs)
    params[L.P_OPENING_ACE_LOW] = L.code("opening_ace_low", "ace_points" if ace_low is None else 1)
    if borrowing:
        params[L.P_BORROWING] = L.code("borrowing", "any")
    elif minimum > 0 or must is not None:
        params[L.P_INITIAL_MELD_MIN] = max(minimum, 1)  # the rule is on
    if apart:
        params[L.P_MELD_TIMING] = L.code("meld_timing", "phom_final")
    must_code = -1 if must is None else must
    apart_mask = sum(1 << k for k in set(apart))
    value = M.best_arrangement(
        fx, params, M.value_table(values), WORK, layers, jokers, limit, minimum, must_code,
        apart_mask,
    )  # fmt: skip
    n = int(WORK[M.W_SCAL, M.S_BEST_N])
    assert WORK[M.W_SCAL, M.S_TRUNCATED] == 0
    return int(value), [key_of(WORK[M.W_BEST + m]) for m in range(n)]


def oracle_best(cards, rules, values, limit=0, minimum=0, must=None, ace_low=None, apart=()):
    value, melds = oracle.best_arrangement(
        cards, rules, [int(v) for v in values], limit, minimum=minimum, must=must,
        ace_low=ace_low, apart=apart,
    )  # fmt: skip
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
    limit = "-limit" if rules.joker_limit else ""
    return f"{rules.ace_rank}-{suit}-dup{int(rules.group_duplicates)}-p{packs}-j{jokers}{limit}"


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


STRIPPED = [k for k in range(N_NATURAL) if not 7 <= k // N_SUITS <= 9]  # §2A.7's 40 cards


@pytest.mark.nojit
def test_2A_7_in_the_40_card_pack_7_and_j_are_adjacent():
    """6-7-J and 7-J-Q are runs (no 8, 9 or 10 between them); K-A-2 is not (ace low)."""
    rules = oracle.Rules(strip=True)
    values = baseline_values()
    six_seven_j, seven_j_q, k_a_2 = (parse_cards(t) for t in ("6S 7S JS", "7H JH QH", "KD AD 2D"))
    for hand in (six_seven_j, seven_j_q):
        assert engine_best(hand, rules, values) == oracle_best(hand, rules, values)
        assert engine_best(hand, rules, values)[0] == sum(values[k] for k in hand)
    assert engine_best(k_a_2, rules, values)[0] == 0
    # in the 52-card pack the same cards are no run
    assert engine_best(six_seven_j, oracle.Rules(), values)[0] == 0
    # the run's key: a run (1) from position 5 (the 6), 3 long, all spades
    assert engine_best(six_seven_j + parse_cards("JC"), rules, values)[1] == [(1, 5, 3, 0, 0, 0)]


@pytest.mark.parametrize("any_suit", [False, True])
def test_2A_7_best_arrangement_matches_the_oracle_in_the_40_card_pack(any_suit):
    rules = oracle.Rules(any_suit=any_suit, strip=True)
    rng = random.Random(0x2A7 + any_suit)
    values = baseline_values()
    near = [k for k in STRIPPED if 4 <= k // N_SUITS <= 11 and k % N_SUITS < 2]  # 5..Q
    for _ in range(300):
        size = rng.choice((7, 10, 11))
        hand = rng.sample(STRIPPED if rng.random() < 0.5 else near, min(size, len(near)))
        assert engine_best(hand, rules, values) == oracle_best(hand, rules, values), hand


def test_1_3_the_run_cap_matches_the_oracle_in_the_40_card_pack():
    """Conquian's runs of at most 8 (§3.21, ``run_max``), and a tighter cap of 5."""
    rng = random.Random(0x321)
    values = baseline_values()
    run_suits = [k for k in STRIPPED if k % N_SUITS < 2]  # long runs of two suits
    for cap in (8, 5):
        rules = oracle.Rules(strip=True, run_max=cap)
        for _ in range(150):
            hand = rng.sample(run_suits, rng.choice((9, 11, 13)))
            assert engine_best(hand, rules, values) == oracle_best(hand, rules, values), hand


def test_2A_7_the_cards_to_keep_melded_match_the_oracle():
    """``arrange_keeping`` (Conquian's re-partition, §3.21) against the oracle's arrangements
    that meld every card of the mask (RUMMYSIM_ORACLE_HANDS hands in make verify, 300 in
    make test)."""
    import os

    rules = oracle.Rules(strip=True, run_max=8)
    params = make_params(rules, 1)
    params[L.P_FAMILY] = L.FAMILY_CONQUIAN  # the conditions apply
    ones = np.ones(N_KINDS, np.int64)
    rng = random.Random(0x2A70)
    for _ in range(int(os.environ.get("RUMMYSIM_ORACLE_HANDS", "300"))):
        hand = rng.sample(STRIPPED, 11)
        keep = rng.sample(hand, rng.choice((1, 3, 4)))
        limit = rng.choice((0, 1, 2, 3))
        layers, _ = layers_of(hand)
        got = M.arrange_keeping(
            GENERIC, params, M.value_table(ones), WORK, layers, np.int64(0), np.int64(limit),
            np.int64(sum(1 << k for k in keep)), np.int64(-1),
        )  # fmt: skip
        want = oracle.best_arrangement(hand, rules, [1] * N_KINDS, limit, keep=keep)
        assert int(got) == want[0] if want[1] else int(got) == 0, (hand, keep, limit)
        if want[1]:
            n = int(WORK[M.W_SCAL, M.S_BEST_N])
            assert [key_of(WORK[M.W_BEST + m]) for m in range(n)] == [m.key for m in want[1]]


def test_standard_spec_gives_the_generic_answer():
    """The STANDARD spec (rules as constants) changes speed, never the answer."""
    rng = random.Random(7)
    rules = oracle.Rules()
    values = baseline_values()
    for _ in range(2000):
        hand = random_hand(rng, 1, 0, rng.choice((7, 10, 11)))
        assert engine_best(hand, rules, values, fx=STANDARD) == engine_best(hand, rules, values)


def _forced_hand(rng: random.Random) -> list[int]:
    """A one-pack hand of 7-13 cards rich in long runs and full groups: a few suits over a
    few consecutive ranks, sometimes with every suit of one rank."""
    suits = rng.sample(range(N_SUITS), rng.choice((1, 2)))
    lo = rng.randrange(0, 9)
    pool = [r * N_SUITS + s for r in range(lo, min(lo + 8, 13)) for s in suits]
    hand = set(rng.sample(pool, min(len(pool), rng.randint(5, 10))))
    if rng.random() < 0.5:
        rank = rng.randrange(13)
        hand |= {rank * N_SUITS + s for s in rng.sample(range(N_SUITS), rng.choice((3, 4)))}
    hand |= set(rng.sample(range(N_NATURAL), rng.randint(0, 3)))
    return sorted(hand)


@pytest.mark.parametrize("ace_low", [None, 1])
def test_s1_13_forced_hands_are_written_without_a_search_and_match_the_oracle(ace_low):
    """``melds._forced_leaf`` (module docstring, "Forced cards"): a one-pack, joker-free, ace-low
    hand where no card is both in a group and in a run is answered without pushing a frame;
    its melds are the oracle's, and every column of its rows is the search's, which answers
    the same cards read as two packs (A-2-3 counting 1 toward an initial meld checks
    ``CA_OPEN``)."""
    rng = random.Random(0x113 + (ace_low or 0))
    values = baseline_values(ace=rng.choice((1, 11, 15)))
    counts = [0, 0]  # searched, forced
    for _ in range(400):
        hand = _forced_hand(rng)
        rules = oracle.Rules(run_max=rng.choice((13, 13, 5, 4)))
        limit = rng.choice((0, 0, 0, 2))
        _count_forced(counts, hand, rules, values, limit, ace_low)
    assert counts[1] > 150 and counts[0] > 20, counts


def _count_forced(counts, hand, rules, values, limit, ace_low=None):
    """Check one forced-leaf case: the one-pack answer is the oracle's, and every column of
    its rows is the search's over the same cards read as two packs (which does not force);
    count it in ``counts`` as forced (no frame pushed) or searched, when anything melds."""
    WORK[M.W_SCAL, M.S_NODES] = 0
    got = engine_best(hand, rules, values, limit=limit, ace_low=ace_low)
    nodes = int(WORK[M.W_SCAL, M.S_NODES])
    one_pack = WORK[M.W_BEST : M.W_BEST + len(got[1])].copy()
    assert got == oracle_best(hand, rules, values, limit, ace_low=ace_low), (hand, rules, limit)
    assert engine_best(hand, rules, values, packs=2, limit=limit, ace_low=ace_low) == got
    assert np.array_equal(WORK[M.W_BEST : M.W_BEST + len(got[1])], one_pack), hand
    if got[1]:
        counts[nodes == 0] += 1


def _forced_stripped_hand(rng: random.Random) -> list[int]:
    """``_forced_hand`` in the 40-card pack: its cards without the 8s, 9s and 10s, runs
    through 7-J (§2A.7) made likely by drawing ranks around them."""
    suits = rng.sample(range(N_SUITS), rng.choice((1, 2)))
    ranks = [r for r in range(rng.randrange(0, 7), 13) if not 7 <= r <= 9][:7]
    pool = [r * N_SUITS + s for r in ranks for s in suits]
    hand = set(rng.sample(pool, min(len(pool), rng.randint(5, 10))))
    if rng.random() < 0.5:
        rank = rng.choice([r for r in range(13) if not 7 <= r <= 9])
        hand |= {rank * N_SUITS + s for s in rng.sample(range(N_SUITS), rng.choice((3, 4)))}
    hand |= set(rng.sample(STRIPPED, rng.randint(0, 3)))
    return sorted(hand)


def test_2A_7_forced_hands_in_the_40_card_pack_are_written_without_a_search():
    """``melds._forced_leaf`` in the 40-card pack (§2A.7, runs through 7-J): forced hands are
    answered without pushing a frame, the oracle's melds, every column of the rows the
    search's (the same cards read as two packs), with Conquian's run cap of 8 (§3.21) and
    tighter ones."""
    rng = random.Random(0x2A7F)
    values = baseline_values()
    counts = [0, 0]  # searched, forced
    for _ in range(400):
        hand = _forced_stripped_hand(rng)
        rules = oracle.Rules(strip=True, run_max=rng.choice((8, 8, 5, 4)))
        _count_forced(counts, hand, rules, values, rng.choice((0, 0, 0, 2)))
    assert counts[1] > 150 and counts[0] > 20, counts


def test_3_21_cards_kept_melded_are_forced_without_a_search_and_match_the_oracle():
    """``arrange_keeping`` (Conquian's use, §3.21) on forced hands: the forced arrangement
    melds every card that can meld, so it answers the search's conditions (every card of the
    mask melded, at most ``limit`` melds, more than ``floor``) without a frame where it meets
    them; the answer is the oracle's, and the rows are those of the search over the same
    cards read as two packs (which does not force). RUMMYSIM_ORACLE_HANDS hands in make
    verify, 400 in make test."""
    import os

    rules = oracle.Rules(strip=True, run_max=8)
    ones = np.ones(N_KINDS, np.int64)
    table = M.value_table(ones)
    rng = random.Random(0x321F)
    forced = searched = 0
    for _ in range(int(os.environ.get("RUMMYSIM_ORACLE_HANDS", "400"))):
        hand = _forced_stripped_hand(rng)
        keep = rng.sample(hand, rng.choice((1, 2, 4)))
        limit = rng.choice((0, 2, 3, 4))
        floor = rng.choice((-1, -1, 3))
        layers, _ = layers_of(hand)
        answers = []
        for packs in (1, 2):
            params = make_params(rules, packs)
            params[L.P_FAMILY] = L.FAMILY_CONQUIAN  # the conditions apply
            WORK[M.W_SCAL, M.S_NODES] = 0
            got = int(M.arrange_keeping(
                GENERIC, params, table, WORK, layers, np.int64(0), np.int64(limit),
                np.int64(sum(1 << k for k in keep)), np.int64(floor),
            ))  # fmt: skip
            n = int(WORK[M.W_SCAL, M.S_BEST_N])
            answers.append((got, WORK[M.W_BEST : M.W_BEST + n].copy()))
            if packs == 1 and got:
                nodes = int(WORK[M.W_SCAL, M.S_NODES])
                forced, searched = (forced + 1, searched) if nodes == 0 else (forced, searched + 1)
        (got, rows), (got2, rows2) = answers
        assert got == got2 and np.array_equal(rows, rows2), (hand, keep, limit, floor)
        want = oracle.best_arrangement(hand, rules, [1] * N_KINDS, limit, keep=keep)
        if want[1] and want[0] > floor:
            assert got == want[0], (hand, keep, limit, floor)
            assert [key_of(row) for row in rows] == [m.key for m in want[1]]
        else:
            assert got == 0, (hand, keep, limit, floor)
    assert forced > 100 and searched > 20, (forced, searched)


def test_s1_13_a_card_in_both_a_group_and_a_run_goes_to_the_search():
    """7♠ 8♠ 9♠ with 7♥ 7♦: the 7♠ needs a choice (run or group), so frames are pushed; the
    same hand without 7♦ is forced."""
    values = baseline_values()
    WORK[M.W_SCAL, M.S_NODES] = 0
    assert engine_best(parse_cards("7s 8s 9s 7h 7d Kc"), oracle.Rules(), values)[0] == 24
    assert WORK[M.W_SCAL, M.S_NODES] > 0
    WORK[M.W_SCAL, M.S_NODES] = 0
    assert engine_best(parse_cards("7s 8s 9s 7h Kc"), oracle.Rules(), values)[0] == 24
    assert WORK[M.W_SCAL, M.S_NODES] == 0


# ---- under an initial-meld rule (§2D.24-25) ---------------------------------------------


@pytest.mark.nojit
def test_2D_24_below_the_threshold_nothing_is_melded():
    """A♥ 2♥ 3♥ + 7♣ 7♦ 7♠ count 6 + 21 = 27 (RULES.md §3.14's example): no opening at 40."""
    values = baseline_values()
    hand = parse_cards("Ah 2h 3h 7c 7d 7s 9d")
    assert engine_best(hand, oracle.Rules(), values)[0] == 27
    assert engine_best(hand, oracle.Rules(), values, minimum=40) == (0, [])


@pytest.mark.nojit
def test_2D_24_the_threshold_prefers_an_arrangement_that_counts_enough():
    """9♦ 10♦ K♥ K♣ ★ with a joker penalty of 2: the least deadwood is the same either
    way, but only the kings with the joker count 30 toward an initial meld (the joker at a
    king's 10, not its penalty), so at 30 they are the arrangement."""
    values = baseline_values(joker=2)
    hand = parse_cards("9d Td Jk Kh Kc")  # 9-10-J♦ (joker as J♦: 29) or K K Jk (30)
    free = engine_best(hand, oracle.Rules(), values)
    assert free == oracle_best(hand, oracle.Rules(), values)
    # at 30 only the kings with the joker (K = 10 each) count enough
    opened = engine_best(hand, oracle.Rules(), values, minimum=30)
    assert opened == oracle_best(hand, oracle.Rules(), values, minimum=30)
    assert opened[1] == [(0, 0, 1, 0, 1, 1)]


@pytest.mark.nojit
def test_2D_24_a_joker_counts_the_card_it_stands_for():
    """9♦ ★ J♦ with ★ = 10♦ counts 29 (RULES.md §3.14's example), whatever the joker's
    penalty value."""
    values = baseline_values(joker=30)
    hand = parse_cards("9d Jk Jd")
    assert engine_best(hand, oracle.Rules(), values, minimum=29)[1] == [(1, 8, 3, 2, 4, 2)]
    assert engine_best(hand, oracle.Rules(), values, minimum=30) == (0, [])


@pytest.mark.nojit
def test_2D_24_german_ace_low_in_a_run_counts_one():
    """German Rummy (§3.14): J♠ Q♠ K♠ A♠ = 41 opens at 40; A♠ 2♠ 3♠ 4♠ counts 1 + 9 = 10
    with ``opening_ace_low = 1`` and 11 + 9 = 20 with the ace's value."""
    values = baseline_values(ace=11)
    rules = oracle.Rules("high_or_low")
    high = parse_cards("Js Qs Ks As")
    assert engine_best(high, rules, values, minimum=40, ace_low=1)[0] == 41
    low = parse_cards("As 2s 3s 4s")
    assert engine_best(low, rules, values, minimum=11, ace_low=1) == (0, [])
    assert engine_best(low, rules, values, minimum=20)[0] == 20


@pytest.mark.nojit
def test_2D_25_the_card_taken_for_the_opening_must_be_melded():
    """7♠ 7♥ 7♦ 7♣ 8♣ 9♣: the least deadwood melds the four 7s and leaves 8♣ 9♣; with the
    discard 9♣ taken for the opening it must be in a meld: 7♣ 8♣ 9♣ and 7♠ 7♥ 7♦."""
    values = baseline_values()
    hand = parse_cards("7s 7h 7d 7c 8c 9c")
    must = parse_cards("9c")[0]
    got = engine_best(hand, oracle.Rules(), values, minimum=1, must=must)
    assert got == oracle_best(hand, oracle.Rules(), values, minimum=1, must=must)
    assert got[0] == 7 * 4 + 8 + 9


OPENING_CASES = [
    (oracle.Rules("high_or_low"), 2, 2),
    (oracle.Rules("high_or_low", joker_limit=True), 2, 6),
    (oracle.Rules("high_or_low", group_duplicates=True, joker_limit=True), 2, 4),
    (oracle.Rules("high_or_low", group_duplicates=True), 2, 4),
    (oracle.Rules("low"), 1, 2),
]


@pytest.mark.parametrize("case", OPENING_CASES, ids=[_ids(c) for c in OPENING_CASES])
def test_2D_24_best_opening_matches_the_oracle_on_random_hands(case, request):
    """The constrained search against the brute-force oracle: random thresholds, a card
    that must be melded (or a joker), German's ace; ``--hands`` hands a case in make verify
    (RUMMYSIM_ORACLE_HANDS, at least 20,000 there), 150 in make test."""
    import os

    rules, packs, jokers = case
    rng = random.Random(hash(_ids(case)) & 0xFFFF)
    hands = int(os.environ.get("RUMMYSIM_ORACLE_HANDS", "150"))
    for _ in range(hands):
        values = baseline_values(ace=rng.choice((1, 11, 15)), joker=rng.choice((15, 25, 30)))
        size = rng.choice((7, 8, 9))
        hand = random_hand(rng, packs, jokers, size)
        if rng.random() < 0.5:
            pool = [k for k in range(N_NATURAL) if k // N_SUITS in range(7, 13) and k % 4 < 2]
            hand = rng.sample(pool * packs, min(size, len(pool) * packs))
            hand += [JOKER] * rng.randint(0, min(jokers, 2))
        minimum = rng.choice((0, 20, 30, 40, 51))
        must = rng.choice([None, None, *hand])
        ace_low = rng.choice((None, 1))
        limit = rng.choice((0, 0, 0, 1))
        want = oracle_best(hand, rules, values, limit, minimum, must, ace_low)
        got = engine_best(hand, rules, values, packs, limit, minimum=minimum, must=must,
                          ace_low=ace_low)  # fmt: skip
        assert got == want, (hand, minimum, must, ace_low, limit, values[0], values[JOKER])


@pytest.mark.parametrize("case", OPENING_CASES, ids=[_ids(c) for c in OPENING_CASES])
def test_2D_22_a_borrowed_card_melded_matches_the_oracle_on_random_hands(case):
    """Borrowing's search (§2D.22, ``greedy.greedy_borrow``): the best arrangement that
    melds a given card, no threshold, against the brute-force oracle (RUMMYSIM_ORACLE_HANDS
    hands a case, 150 in make test)."""
    import os

    rules, packs, jokers = case
    rng = random.Random(hash(_ids(case)) & 0xFFFF ^ 0x22)
    hands = int(os.environ.get("RUMMYSIM_ORACLE_HANDS", "150"))
    for _ in range(hands):
        values = baseline_values(ace=rng.choice((1, 11, 15)), joker=rng.choice((15, 25, 30)))
        hand = random_hand(rng, packs, jokers, rng.choice((6, 8, 10)))
        must = rng.choice([k for k in hand if k != JOKER] or [None])
        limit = rng.choice((0, 0, 0, 1))
        want = oracle_best(hand, rules, values, limit, 0, must)
        got = engine_best(hand, rules, values, packs, limit, must=must, borrowing=True)
        assert got == want, (hand, must, limit, values[0], values[JOKER])


def test_3_13_taken_cards_are_melded_each_in_a_meld_of_its_own():
    """Phỏm (§3.13): with 4♥ and 7♥ taken, the free search's run 4♥-9♥ would hold both; the
    arrangement is 4♥ 5♥ 6♥ and 7♥ 8♥ 9♥ (the same value). With 5♥ alone taken the run of
    six stands."""
    values = baseline_values()
    hand = parse_cards("4h 5h 6h 7h 8h 9h")
    free = engine_best(hand, oracle.Rules(), values)
    assert free == (39, [(1, 3, 6, 1, 1, 1, 1, 1, 1)])
    apart = parse_cards("4h 7h")
    got = engine_best(hand, oracle.Rules(), values, apart=apart)
    assert got == (39, [(1, 3, 3, 1, 1, 1), (1, 6, 3, 1, 1, 1)])
    assert got == oracle_best(hand, oracle.Rules(), values, apart=apart)
    assert engine_best(hand, oracle.Rules(), values, apart=parse_cards("5h")) == free


def test_3_13_taken_cards_that_cannot_be_kept_apart_give_no_arrangement():
    """Phỏm (§3.13): 5♠ and 6♠ taken, and only 5♠ 6♠ 7♠ to meld them in: no arrangement
    meets the condition, so nothing is melded (a taker's hand is illegal)."""
    values = baseline_values()
    hand = parse_cards("5s 6s 7s 9d")
    assert engine_best(hand, oracle.Rules(), values, apart=parse_cards("5s 6s")) == (0, [])


@pytest.mark.parametrize("ace_rank", ["low", "high_or_low"])
def test_3_13_cards_kept_apart_match_the_oracle_on_random_hands(ace_rank):
    """The search with Phỏm's taken cards (§3.13: each melded, no two in one meld) against
    the brute-force oracle on random hands of 9-11 cards with 1-3 taken cards drawn from
    their meldable cards (RUMMYSIM_ORACLE_HANDS hands a case, 150 in make test)."""
    import os

    rules = oracle.Rules(ace_rank)
    rng = random.Random(0x313 ^ len(ace_rank))
    hands = int(os.environ.get("RUMMYSIM_ORACLE_HANDS", "150"))
    found = 0
    for _ in range(hands):
        values = baseline_values()
        hand = random_hand(rng, 1, 0, rng.choice((9, 10, 11)))
        if rng.random() < 0.7:  # dense hands: few ranks, so melds share cards
            pool = [k for k in range(N_NATURAL) if k // N_SUITS in range(3, 9)]
            hand = rng.sample(pool, rng.choice((9, 10, 11)))
        apart = rng.sample(hand, rng.choice((1, 2, 3)))
        want = oracle_best(hand, rules, values, apart=apart)
        got = engine_best(hand, rules, values, apart=apart)
        assert got == want, (hand, apart)
        found += bool(want[1])
    assert found > hands // 10  # the condition is met often enough to test the choice


@pytest.mark.nojit
def test_2B_10_no_meld_holds_more_jokers_than_naturals():
    """5♥ ★ ★ 8♥: 5-★-★-8♥ has as many jokers as naturals (legal under the limit), ★ ★ 8♥
    more (not); 7♣ ★ ★ is a group of one natural and two jokers (not)."""
    values = baseline_values(joker=15)
    limited = oracle.Rules(joker_limit=True)
    run = parse_cards("5h Jk Jk 8h")
    assert engine_best(run, limited, values)[1] == [(1, 4, 4, 1, 4, 4, 1)]
    group = parse_cards("7c Jk Jk")
    assert engine_best(group, oracle.Rules(), values)[0] == 37
    assert engine_best(group, limited, values) == (0, [])
