"""``rummysim deadwood``: a hand's minimum deadwood and one best arrangement (RULES.md §1.3,
§1.9, §1.13, §2A.4), checked against the brute-force oracle on random hands."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sim.cards import JOKER, N_NATURAL, parse_cards
from sim.deadwood import analyse, line, read_hands
from sim.rules import ConfigError, card_values, load_variant
from tests.oracles import arrangement as oracle
from tests.runner.helpers import cli

VARIANTS = ["rummy_basic", "around_the_corner", "rummy_basic@003"]


def _random_hand(rng: random.Random, n: int, jokers: int) -> list[int]:
    return rng.sample(list(range(N_NATURAL)) + [JOKER] * jokers, n)


@pytest.mark.parametrize("variant", VARIANTS)
def test_deadwood_is_the_oracles_best_arrangement_on_random_hands(variant):
    """The command's search is play's (its declared tie-break): the same melds as the
    brute-force oracle's first best arrangement, not only the same deadwood."""
    rules = load_variant(variant)
    jokers = 2 if variant.endswith("@003") else 0
    rules = rules.with_values({"jokers": jokers})
    meld_rules = oracle.Rules(
        rules["ace_rank"], rules["run_suit"] == "any_suit", rules["group_duplicates"] == "allowed"
    )
    values = [int(v) for v in card_values(rules)]
    rng = random.Random(variant)
    hands = [_random_hand(rng, rng.choice([7, 10, 11]), jokers) for _ in range(400)]
    for hand, result in zip(hands, analyse(rules, hands), strict=True):
        melded, melds = oracle.best_arrangement(hand, meld_rules, values)
        assert result.deadwood == sum(values[c] for c in hand) - melded, hand
        want = sorted(sorted(m.naturals) + [JOKER] * m.jokers for m in melds)
        assert sorted(sorted(m) for m in result.melds()) == want, hand
        used = Counter(c for meld in result.melds() for c in meld) + Counter(result.left())
        assert used == Counter(hand)
        assert sum(values[c] for c in result.left()) == result.deadwood


def test_one_hand_on_the_command_line():
    done = cli("deadwood", "As", "2s", "3s", "7h", "7d", "7c", "Kd", "9c", "4s", "Qh")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "deadwood 29",
        "melds: [As 2s 3s 4s] [7h 7d 7c]",
        "left in hand: Kd 9c Qh",
    ]


def test_around_the_corner_runs_wrap(tmp_path):
    done = cli("deadwood", "--variant", "around_the_corner", "Qs", "Ks", "As", "2s", "9h")
    assert done.stdout.splitlines()[:2] == ["deadwood 9", "melds: [Qs Ks As 2s]"]


def test_a_file_gives_one_line_per_hand(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("As 2s 3s 7h 7d 7c Kd 9c 4s Qh\n# a comment\n\nKd Qh\n5c,5d,5h 6c\n")
    done = cli("deadwood", "--file", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["29: [As 2s 3s 4s] [7h 7d 7c]", "20: -", "6: [5h 5d 5c]"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["As", "Xx"], "'Xx' is not a card"),
        ([], "give the cards of one hand"),
        (["As", "As"], "more copies of a card than the shoe has"),
        (["As", "Jk"], "more copies of a card than the shoe has"),
        (["--variant", "nope", "As"], "unknown variant"),
        (["--file", "/no/such/file"], "cannot read the file"),
    ],
)
def test_bad_input_exits_2_with_a_message(args, words):
    done = cli("deadwood", *args)
    assert done.returncode == 2 and words in done.stderr, done.stderr


def test_a_bad_card_in_a_file_names_the_line(tmp_path):
    path = tmp_path / "hands.txt"
    path.write_text("As 2s 3s\nAs 2s 3x\n")
    with pytest.raises(ConfigError) as caught:
        list(read_hands(path.read_text().splitlines(), str(path)))
    assert "line 2" in str(caught.value) and "'3x'" in str(caught.value)


def test_jokers_are_used_as_wild_cards_where_the_variant_has_them():
    rules = load_variant("rummy_basic@003").with_values({"jokers": 2})
    (result,) = analyse(rules, [parse_cards("As 2s Jk 9h")])
    assert result.deadwood == 9 and sorted(result.melds()[0]) == sorted(parse_cards("As 2s Jk"))
    assert JOKER in result.melds()[0]
    assert line(result) in ("9: [As 2s Jk]", "9: [Jk As 2s]")


def test_2D_24_opening_counts_only_arrangements_that_make_the_initial_meld(tmp_path):
    """``--opening``: the least deadwood among the arrangements that make the variant's
    initial meld (``initial_meld_min``): 5-6-7♥ (18) falls short of 30, so nothing is melded;
    random hands against the oracle."""
    variant = tmp_path / "opening.toml"
    variant.write_text(
        'description = "x"\nextends = "rummy_basic"\n[rules]\ninitial_meld_min = 30\n',
        encoding="utf-8",
    )
    short = cli("deadwood", "--variant", str(variant), "--opening", "5h", "6h", "7h", "Kd", "9c")
    assert short.returncode == 0, short.stderr
    assert short.stdout.splitlines()[:2] == ["deadwood 37", "melds: (none)"]
    free = cli("deadwood", "--variant", str(variant), "5h", "6h", "7h", "Kd", "9c")
    assert free.stdout.splitlines()[:2] == ["deadwood 19", "melds: [5h 6h 7h]"]
    rules = load_variant(str(variant))
    values = [int(v) for v in card_values(rules)]
    rng = random.Random(30)
    hands = [_random_hand(rng, rng.choice([7, 10, 11]), 0) for _ in range(300)]
    for hand, result in zip(hands, analyse(rules, hands, opening=True), strict=True):
        melded, _ = oracle.best_arrangement(hand, oracle.Rules(), values, minimum=30)
        assert result.deadwood == sum(values[c] for c in hand) - melded, hand
