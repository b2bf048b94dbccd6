"""Carousel's table re-partition search (RULES.md §3.16, §2D.23 ``rearrange = table``,
§2B.12 ``reuse_same_turn`` in seed 001's reading; ``sim.engine.repartition``) on hand-built
positions, and against the plain oracle (``tests/oracles/repartition.py``) on positions
from a Carousel self-play."""

from __future__ import annotations

from sim.cards import cards_text, parse_cards
from sim.engine import repartition as R
from tests.oracles import repartition as oracle

SEARCH = oracle.engine_search()
PLAY = oracle.engine_search(oracle.PLAY_CAP)  # the self-play's own moves


def gain(hand: str, table: str = "", declared: str = "") -> int:
    """The hand value the engine's best meld action plays, checked against the oracle."""
    h = parse_cards(hand)
    t = parse_cards(table) if table else []
    d = parse_cards(declared) if declared else []
    got, melds, freed = SEARCH(h, t, d)
    assert got == oracle.best_gain(h, t, d), (hand, table, declared)
    if got:
        _check_melds(h, t, d, melds, freed)
    return got


def _check_melds(hand, table, declared, melds, freed):
    """The melds returned hold every table card and only cards of the table and hand."""
    from collections import Counter

    kept = Counter(d for j, d in enumerate(declared) if not (freed >> j) & 1)
    melded = Counter()
    wild = 0
    for naturals, jokers in melds:
        assert len(naturals) + len(jokers) >= 3
        melded.update(naturals)
        wild += len(jokers)
    assert not (Counter(table) + kept) - melded  # every table card melded again
    assert not melded - (Counter(table) + kept + Counter(hand))  # nothing from nowhere
    assert wild - (len(declared) - sum(kept.values())) <= hand.count(52)


def test_3_16_a_meld_action_plays_at_least_one_hand_card():
    """The table's melds alone, however rearranged, are no meld action."""
    assert gain("2c 9h Kd", "4s 5s 6s 7s") == 0


def test_3_16_the_table_is_split_to_take_hand_cards():
    """4-5-6-7 of spades with 7h 7d in hand: 4-5-6 and 7-7-7 (14 played)."""
    assert gain("7h 7d Kc", "4s 5s 6s 7s") == 14


def test_3_16_table_cards_never_go_to_the_hand():
    """6s 7s would run with the table's 5s only if 5h 5d left the table: no action."""
    assert gain("6s 7s", "5s 5h 5d") == 0
    assert gain("6s 7s", "5s 5h 5d 5c") == 13  # the group keeps three 5s


def test_3_16_the_first_meld_on_an_empty_table_is_a_meld_of_three():
    assert gain("9s 9h Kd") == 0
    assert gain("9s 9h 9d Kd") == 27


def test_3_16_the_ace_is_high_or_low_and_K_A_2_is_no_run():
    assert gain("Ks As 2s") == 0
    assert gain("Qs Ks As") == 21
    assert gain("As 2s 3s") == 6


def test_3_16_a_group_holds_no_two_identical_cards():
    """Two packs: 7s 7s 7h is no group; 7s 7h 7d is."""
    assert gain("7s 7s 7h") == 0
    assert gain("7s 7s 7h 7d") == 21


def test_3_16_identical_table_cards_are_each_melded_again():
    """Two 7s on the table (two packs): both stay melded when 7c joins."""
    assert gain("7c", "7s 7h 7d 7s 8s 9s") == 7
    assert gain("7s 8s 9s", "7s 8s 9s") == 24


def test_2B_12_a_declared_joker_keeps_its_card():
    """5s Jk(6s) 7s with 5h 5d 7h 7d in hand: the joker may not become a 5 or a 7."""
    assert gain("5h 5d 7h 7d", "5s 7s", "6s") == 0


def test_2B_12_a_replaced_joker_is_reused_in_the_same_action():
    """6s from hand replaces the joker of 4s 5s Jk(6s) 7s, which melds 9h 9d at once."""
    assert gain("6s 9h 9d", "4s 5s 7s", "6s") == 24
    assert gain("6s 2c", "4s 5s 7s", "6s") == 6  # it extends the run: 4-5-6-7-Jk(8s)
    # 9c frees the joker of 9s 9h 9d Jk(9c), which then fits nowhere: no action
    assert gain("9c 2c", "9s 9h 9d", "9c") == 0


def test_2B_12_the_replacing_card_may_come_from_another_table_meld():
    """6s of the table's 6-6-6-6 replaces the joker (the group keeps three 6s); the joker
    then melds 9h 9d."""
    assert gain("9h 9d", "6s 6h 6d 6c 4s 5s 7s", "6s") == 18


def test_3_16_hand_jokers_are_wild():
    assert gain("Jk 8h 8d") == 41


def test_the_search_agrees_with_the_oracle_on_self_play_positions():
    """500 positions of a Carousel self-play (3-5 players, two packs and two jokers, at most
    20 table cards); ``python -m tests.oracles.repartition`` runs 20,000."""
    n = 0
    for hand, table, declared in oracle.positions_from_selfplay(PLAY, 500, 0x3161):
        got, melds, freed = SEARCH(hand, table, declared)
        assert got == oracle.best_gain(hand, table, declared), (hand, table, declared)
        assert int(SEARCH.rp[R.RW_SCAL, R.RP_TRUNCATED]) == 0
        if got:
            _check_melds(hand, table, declared, melds, freed)
        n += 1
    assert n == 500


def test_a_node_cap_stops_the_search_and_says_so():
    """A cap of one frame returns at once with ``RP_CAPPED`` set; no cap never sets it."""
    capped = oracle.engine_search(node_cap=1)
    h = parse_cards("4s 5s 6s 7s 8s 9s Th Jh Qh Kh Ah 2d 3d 4d")
    capped(h, [], [])
    assert int(capped.rp[R.RW_SCAL, R.RP_CAPPED]) == 1
    SEARCH(h, [], [])
    assert int(SEARCH.rp[R.RW_SCAL, R.RP_CAPPED]) == 0


def test_2B_12_two_declared_jokers_are_each_kept_or_freed():
    """4s 5s Jk(6s) 7s and Tc Jc Jk(Qc): 6s and Qc from hand free both jokers, which meld
    8h 8d as a group of four at once (6 + 10 + 8 + 8)."""
    assert gain("6s Qc 8h 8d", "4s 5s 7s Tc Jc", "6s Qc") == 32
    assert gain("6s 8h 8d", "4s 5s 7s Tc Jc", "6s Qc") == 22  # one freed: 8-8-Jk


def chosen(hand: str, table: str = "", declared: str = ""):
    """The engine's re-partition (melds as ``arrangement`` keys and naturals, in its order;
    the freed mask), checked equal to the oracle's declared-order one."""
    h = parse_cards(hand)
    t = parse_cards(table) if table else []
    d = parse_cards(declared) if declared else []
    got, _, freed = SEARCH(h, t, d)
    mine = oracle.best_repartition(h, t, d)
    assert got == mine.gain
    assert SEARCH.chosen == [(m.key, m.naturals) for m in mine.melds] and freed == mine.freed
    return [cards_text(naturals) for _, naturals in SEARCH.chosen], freed


def test_ties_go_to_the_first_in_the_declared_order():
    """4-5-6-7 of spades with 7h 7d 7c: 4-5-6 + 7-7-7-7 and 4-5-6-7 + 7-7-7 both play 21;
    4s's runs are tried first, the longest first (sim/engine/repartition.py's docstring)."""
    assert chosen("7h 7d 7c", "4s 5s 6s 7s") == (["4s 5s 6s 7s", "7h 7d 7c"], 0)
    # the freed joker (6s played for it) goes on 8s (4-5-6-7-Jk), not on 3s (Jk-4-5-6-7):
    # the window starting later is tried first
    assert chosen("6s 2c", "4s 5s 7s", "6s") == (["4s 5s 6s 7s"], 1)
    # kept first: Jk(6s) stays in 4-8 of spades and the hand's 6s makes 6-6-6 (freeing it
    # for 6-6-6-Jk plays no more)
    assert chosen("6s 6h 6d", "4s 5s 7s 8s", "6s") == (["4s 5s 6s 7s 8s", "6s 6h 6d"], 0)


def test_the_engine_chooses_the_declared_re_partition_on_self_play_positions():
    """On 500 self-play positions (another seed than above) the engine's re-partition is the
    oracle's first in the declared order (``best_repartition``, which imports nothing from
    the engine): the same melds in the same order, the same freed jokers; and ties do occur
    (several distinct re-partitions playing the most), so the order is what decides."""
    compared = tied = 0
    for hand, table, declared in oracle.positions_from_selfplay(PLAY, 500, 0x3162):
        got, _, freed = SEARCH(hand, table, declared)
        assert int(SEARCH.rp[R.RW_SCAL, R.RP_TRUNCATED]) == 0
        mine, ties = oracle.best_repartition(hand, table, declared, ties=2)
        assert got == (mine.gain if mine is not None else 0), (hand, table, declared)
        if mine is None:
            continue
        compared += 1
        tied += ties > 1
        ours = [(m.key, m.naturals) for m in mine.melds]
        assert SEARCH.chosen == ours and freed == mine.freed, (hand, table, declared)
    assert compared >= 250 and tied >= 60, (compared, tied)
