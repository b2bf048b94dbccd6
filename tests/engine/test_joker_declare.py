"""RULES.md §2B.11 ``joker_declare``: when a melded joker's card must be stated, and what
that changes (lay-offs, joker replacement), with the bots' declaration policies
(docs/bots.md) and the audit's check of declarations."""

from __future__ import annotations

import numpy as np
import pytest

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.bots import _declare_all
from sim.engine.state import new_state
from sim.engine.table import declarations_legal, joker_stands_for

from .helpers import CAREFUL, GREEDY, RANDOM, compiled, deal, events_of, play_deal

# Seat 0 plays first: it draws 9c and lays down 7s 7h Jk (the joker's group of three); seat 1
# holds 7d and 7c, the two cards that group still lacks.
SEVENS = deal(
    ["7s 7h Jk 2c Td 4s Kd Qc 5d Ah", "7d 7c 2s 4h 9d Jc Ks 3c 6s 8h"], "Js", "9c 5h 3s 6c 2d"
)


def _declared(out):
    return [(p, m, b) for p, m, b, _ in events_of(out, S.E_DECLARE)]


def _laid_off_on_first_meld(out):
    return [b for p, m, b, _ in events_of(out, S.E_LAYOFF) if m == 0]


@pytest.mark.nojit
def test_2B_11_three_card_group_declares_the_joker_and_that_card_no_longer_fits():
    params, values = compiled(jokers=2, joker_declare="three_card_group")
    out = play_deal(SEVENS, params, values)
    assert events_of(out, S.E_MELD)[0][3] == parse_cards("7s 7h Jk")
    # greedy declares the lowest card the joker may be: 7d (suits s, h, d, c)
    assert _declared(out)[0] == (0, 0, parse_card("7d"))
    assert _laid_off_on_first_meld(out) == [parse_card("7c")]  # 7d is taken by the joker
    assert int(out.counters[L.C_VIOLATIONS]) == 0


@pytest.mark.nojit
def test_2B_11_inferred_leaves_a_three_card_groups_joker_open():
    params, values = compiled(jokers=2)  # joker_declare = inferred
    out = play_deal(SEVENS, params, values)
    assert _declared(out) == []
    assert _laid_off_on_first_meld(out) == [parse_card("7d")]  # either missing card fits
    assert int(out.counters[L.C_VIOLATIONS]) == 0


@pytest.mark.nojit
def test_2B_11_a_declared_joker_is_replaced_by_its_card_at_once():
    """steal_by_replacement: the declared joker of a group of three stands for 7d, so seat 1
    takes it with 7d on its first turn; inferred, the group's joker is fixed only once a
    fourth card joins (then as 7c)."""
    steal = {"jokers": 2, "joker_replace": "steal_by_replacement"}
    params, values = compiled(joker_declare="three_card_group", **steal)
    out = play_deal(SEVENS, params, values)
    first = events_of(out, S.E_STEAL)[0]
    assert (first[0], first[1], first[2]) == (1, 0, parse_card("7d"))
    assert int(out.counters[L.C_VIOLATIONS]) == 0
    params, values = compiled(**steal)
    out = play_deal(SEVENS, params, values)
    first = events_of(out, S.E_STEAL)[0]
    assert (first[0], first[1], first[2]) == (1, 0, parse_card("7c"))
    assert int(out.counters[L.C_VIOLATIONS]) == 0


@pytest.mark.nojit
def test_2B_11_three_card_group_does_not_declare_a_four_card_groups_joker():
    params, values = compiled(jokers=2, joker_declare="three_card_group")
    fixed = deal(
        ["7s 7h 7d Jk 2c Td 4s Kd Qc Ah", "9d 7c 2s 4h Jc Ks 3c 6s 8h 5d"], "Js", "9c 5h 3s"
    )
    out = play_deal(fixed, params, values)
    assert events_of(out, S.E_MELD)[0][3] == parse_cards("7s 7h 7d Jk")
    assert all(m != 0 for _, m, _ in _declared(out))
    params, values = compiled(jokers=2, joker_declare="always")
    out = play_deal(fixed, params, values)
    assert _declared(out)[0] == (0, 0, parse_card("7c"))  # the one card it can be


def test_2B_11_always_declares_any_suit_run_jokers_by_rank_and_suit():
    """Over many hands: every joker laid down in a run of any suits is declared as the card
    of its position's rank (ace low) and, by greedy, the lowest suit (spades)."""
    from sim.engine.api import play

    params, values = compiled(jokers=2, run_suit="any_suit", joker_declare="always")
    checked = 0
    for first_deal in range(60):
        out = play(
            params,
            values,
            np.array([GREEDY, GREEDY]),
            seed=3,
            first_deal=first_deal,
            hands=1,
            events=1000,
        )  # the event log keeps one hand
        assert int(out.counters[L.C_VIOLATIONS]) == 0
        rows = [tuple(int(v) for v in row) for row in out.events]
        for at, row in enumerate(rows):
            if row[S.EV_TYPE] != S.E_MELD:
                continue
            cards = list(row[S.EV_CARDS : S.EV_CARDS + row[S.EV_N]])
            naturals = [(i, k) for i, k in enumerate(cards) if k != L.JOKER]
            ranks = {k // 4 for _, k in naturals}
            if L.JOKER not in cards or len(naturals) < 2 or len(ranks) != len(naturals):
                continue  # not a run with a joker (one natural and jokers may be a group)
            first_i, first_k = naturals[0]
            wanted = sorted(
                (first_k // 4 + i - first_i) * 4 for i, k in enumerate(cards) if k == L.JOKER
            )
            meld = row[S.EV_A]
            declared = [
                r[S.EV_B]
                for r in rows[at + 1 :]
                if r[S.EV_TYPE] == S.E_DECLARE and r[S.EV_A] == meld
            ]
            assert sorted(declared[: len(wanted)]) == wanted, (cards, declared)
            checked += 1
    assert checked >= 5


def _table_with_group(params, cards: str):
    """A state whose only table meld is a group of ``cards`` laid down by seat 0."""
    st = new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    kinds = parse_cards(cards)
    st.melds[0, S.MC_TYPE] = L.MELD_GROUP
    st.melds[0, S.MC_START] = next(k for k in kinds if k != L.JOKER) // 4
    st.melds[0, S.MC_LEN] = len(kinds)
    for i, k in enumerate(kinds):
        st.melds[0, S.MC_CARDS + i] = k
    st.sc[S.SC_N_MELDS] = 1
    return st


@pytest.mark.nojit
def test_2B_11_bots_declare_by_their_policy():
    """docs/bots.md: greedy the lowest card the joker may be; careful the one with the fewest
    copies it has not seen; random uniformly."""
    params, _ = compiled(jokers=2, joker_declare="three_card_group")
    st = _table_with_group(params, "7s 7h Jk")
    st.piles[S.PILE_DISCARD, 0] = parse_card("7c")  # 7c is seen in the discard pile
    st.sc[S.SC_DISCARD_N] = 1
    _declare_all(st, params, 0, 0, L.BOT_GREEDY)
    assert joker_stands_for(st, params, 0, 2) == parse_card("7d")
    st.melds[0, S.MC_DECLARED] = 0
    _declare_all(st, params, 0, 0, L.BOT_CAREFUL)
    assert joker_stands_for(st, params, 0, 2) == parse_card("7c")
    picks = set()
    for seed in range(40):
        st.melds[0, S.MC_DECLARED] = 0
        st.rng[1] = np.uint64(seed * 7919 + 1)
        _declare_all(st, params, 0, 0, L.BOT_RANDOM)
        picks.add(joker_stands_for(st, params, 0, 2))
    assert picks == {parse_card("7d"), parse_card("7c")}


@pytest.mark.nojit
def test_2B_11_two_jokers_in_a_group_of_three_stand_for_the_two_missing_cards():
    params, _ = compiled(jokers=2, joker_declare="three_card_group")
    st = _table_with_group(params, "Jk 7h Jk")
    _declare_all(st, params, 0, 0, L.BOT_GREEDY)
    assert joker_stands_for(st, params, 0, 0) == parse_card("7s")
    assert joker_stands_for(st, params, 0, 2) == parse_card("7d")


@pytest.mark.nojit
def test_2B_11_audit_counts_an_illegal_or_missing_declaration():
    params, _ = compiled(jokers=2, joker_declare="three_card_group")
    st = _table_with_group(params, "7s 7h Jk")
    assert not declarations_legal(st, params, 0)  # a group of three with its joker undeclared
    st.melds[0, S.MC_DECLARED] = 1 << parse_card("7d")
    assert declarations_legal(st, params, 0)
    st.melds[0, S.MC_DECLARED] = 1 << parse_card("7h")  # a card the group already holds
    assert not declarations_legal(st, params, 0)
    st.melds[0, S.MC_DECLARED] = 1 << parse_card("8d")  # not the group's rank
    assert not declarations_legal(st, params, 0)
    inferred, _ = compiled(jokers=2)
    st.melds[0, S.MC_DECLARED] = 1 << parse_card("7d")
    assert not declarations_legal(st, inferred, 0)  # nothing is declared under inferred


def _table_with_run(params, cards: str, start: int):
    """A state whose only table meld is an any-suit run of ``cards`` from rank ``start``."""
    st = _table_with_group(params, cards)
    st.melds[0, S.MC_TYPE] = L.MELD_RUN
    st.melds[0, S.MC_START] = start
    return st


@pytest.mark.nojit
def test_2B_11_audit_checks_run_declarations():
    always, _ = compiled(jokers=2, run_suit="any_suit", joker_declare="always")
    st = _table_with_run(always, "5h Jk 7s Jk", 4)  # ranks 5, 6, 7, 8
    assert not declarations_legal(st, always, 0)  # undeclared run jokers under always
    st.melds[0, S.MC_DECLARED] = (1 << parse_card("6s")) | (1 << parse_card("8d"))
    assert declarations_legal(st, always, 0)
    assert joker_stands_for(st, always, 0, 3) == parse_card("8d")
    st.melds[0, S.MC_DECLARED] = (1 << parse_card("6s")) | (1 << parse_card("6h"))
    assert not declarations_legal(st, always, 0)  # two for the 6, none for the 8
    st.melds[0, S.MC_DECLARED] = (1 << parse_card("6s")) | (1 << parse_card("9d"))
    assert not declarations_legal(st, always, 0)  # 9 is no joker's rank
    three, _ = compiled(jokers=2, run_suit="any_suit", joker_declare="three_card_group")
    st.melds[0, S.MC_DECLARED] = (1 << parse_card("6s")) | (1 << parse_card("8d"))
    assert not declarations_legal(st, three, 0)  # three_card_group never declares runs
    assert declarations_legal(_table_with_run(three, "5h Jk 7s", 4), three, 0)


@pytest.mark.nojit
def test_2B_11_always_declares_a_joker_laid_off_on_a_group():
    """Seat 1 lays its joker off on seat 0's 7s 7h 7d: under always it is declared at once,
    as the one card the group lacks (7c); inferred, nothing is declared."""
    fixed = deal(
        ["7s 7h 7d 2c Td 4s Kd Qc 5d Ah", "Jk 8c 2s 4h Jc Ts 3c 6s 9h Ad"], "Js", "9c Qh 3s 6c"
    )
    params, values = compiled(jokers=2, joker_declare="always")
    out = play_deal(fixed, params, values)
    assert events_of(out, S.E_MELD)[0][3] == parse_cards("7s 7h 7d")
    layoffs = [(p, m, b) for p, m, b, _ in events_of(out, S.E_LAYOFF)]
    assert (1, 0, L.JOKER) in layoffs
    assert (1, 0, parse_card("7c")) in _declared(out)
    assert int(out.counters[L.C_VIOLATIONS]) == 0
    params, values = compiled(jokers=2)
    out = play_deal(fixed, params, values)
    assert (1, 0, L.JOKER) in [(p, m, b) for p, m, b, _ in events_of(out, S.E_LAYOFF)]
    assert _declared(out) == []


@pytest.mark.nojit
def test_2B_12_the_random_bot_takes_no_table_joker_without_steal_by_replacement():
    """The random bot listed table jokers among its actions whatever joker_replace said; the
    audit now counts any replacement the rules do not allow."""
    from sim.engine.api import play

    for rule in ("inferred", "three_card_group"):
        params, values = compiled(players=3, jokers=2, joker_declare=rule)
        for seed in range(3):
            out = play(params, values, np.array([RANDOM] * 3), seed=seed, hands=1, events=4000)
            assert events_of(out, S.E_STEAL) == []
            assert int(out.counters[L.C_VIOLATIONS]) == 0


@pytest.mark.parametrize("run_suit", ["same_suit", "any_suit"])
@pytest.mark.parametrize("bots", [GREEDY, CAREFUL, RANDOM])
@pytest.mark.parametrize("rule", ["three_card_group", "always"])
def test_2B_11_declarations_stay_legal_over_many_hands(rule, bots, run_suit):
    from sim.engine.api import play

    params, values = compiled(
        players=3,
        decks=2,
        jokers=4,
        run_suit=run_suit,
        joker_declare=rule,
        joker_replace="steal_by_replacement",
        group_duplicates="allowed" if rule == "always" else "forbidden",
        going_rummy="double",  # careful holds melds back for a rummy: its own lay-down path
    )
    out = play(params, values, np.array([bots] * 3), seed=5, hands=60)
    assert int(out.counters[L.C_VIOLATIONS]) == 0


@pytest.mark.nojit
def test_2B_11_replay_shows_the_declaration():
    from sim.replay import transcript
    from sim.rules import load_variant

    rules = load_variant("rummy_basic", {"jokers": 2, "joker_declare": "three_card_group"})
    text = transcript(rules, 2, [GREEDY, GREEDY], deal=SEVENS)
    assert "  declares a joker in #0 as 7d" in text
    assert "audit: 0 violation(s)" in text
