"""Careful's discard and draw on masks (``bots._careful_discard_bits``,
``careful.careful_takes_mask``) against their count-array versions
(``bots._careful_discard_counts``, ``bots._careful_takes_counts``) on random mid-hand
positions, one pack.

docs/bots.md states careful's discard; RULES.md §2A.4 (every ace_rank changes which cards
are run neighbours) and §2F.23 (layoff_target none: nothing fits the table). The two versions
must choose the very same card, ties included, or careful games would change with the path.
``bits.completers`` (an out) is checked against ``melds.could_meld`` on every card.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from sim.engine import api, bits, bots, careful, melds
from sim.engine import layout as L
from sim.engine import state as S

from .helpers import mask_of

ACES = [L.ACE_LOW, L.ACE_HIGH, L.ACE_HIGH_OR_LOW, L.ACE_AROUND_CORNER]
ACE_POINTS = {L.ACE_LOW: 1, L.ACE_HIGH: 10, L.ACE_HIGH_OR_LOW: 15, L.ACE_AROUND_CORNER: 11}


def _random_position(st, rng: random.Random, players: int) -> None:
    """Deal the pack at random over the hands, the discard pile, table melds and the stock;
    mark some of the next player's cards as taken from the pile, some kinds as fitting the
    table, and sometimes the discard top as just taken by player 0."""
    cards = list(range(L.N_NATURAL))
    rng.shuffle(cards)
    sizes = [rng.randint(1, 11) for _ in range(players)]
    st.hand[:, :] = 0
    st.kinds[S.KR_PICKED :, :] = 0
    at = 0
    for p, n in enumerate(sizes):
        held = cards[at : at + n]
        at += n
        st.hand[p, :] = api.counts_of(held)
        st.pl[p, S.PL_N] = n
        st.pl[p, S.PL_BITS] = mask_of(held)
        for k in held:
            if rng.random() < 0.2:
                st.kinds[S.KR_PICKED + p, k] = 1
    pile = cards[at : at + rng.randint(0, 12)]
    at += len(pile)
    for i, k in enumerate(pile):
        st.piles[S.PILE_DISCARD, i] = k
    st.sc[S.SC_DISCARD_N] = len(pile)
    n_melds = rng.randint(0, 4)
    for m in range(n_melds):
        meld = cards[at : at + rng.randint(3, 5)]
        at += len(meld)
        st.melds[m, S.MC_LEN] = len(meld)
        for j, k in enumerate(meld):
            st.melds[m, S.MC_CARDS + j] = k
    st.sc[S.SC_N_MELDS] = n_melds
    st.sc[S.SC_FITS_ALL] = mask_of(k for k in range(L.N_NATURAL) if rng.random() < 0.15)
    own = [k for k in range(L.N_NATURAL) if st.hand[0, k] > 0]
    st.sc[S.SC_TAKEN] = rng.choice(own) if len(own) > 1 and rng.random() < 0.3 else -1
    st.sc[S.SC_PLAN] = -1


def _compare(ace: int, layoff: int, players: int, positions: int, seed: int) -> list:
    params, values = api.make_params(
        ace_rank=ace, ace_points=ACE_POINTS[ace], players=players, layoff_target=layoff
    )
    st = S.new_state(params, np.zeros((1, S.EV_COLS), np.int64))
    rng = random.Random(seed)
    bad = []
    for _ in range(positions):
        _random_position(st, rng, players)
        fast = bots._careful_discard_bits(st, params, values, 0)
        slow = bots._careful_discard_counts(st, params, values, 0)
        if fast != slow:
            bad.append((sorted(np.flatnonzero(st.hand[0])), fast, slow))
        n = int(st.sc[S.SC_DISCARD_N])
        if n > 0:
            top = int(st.piles[S.PILE_DISCARD, n - 1])
            hand = int(st.pl[0, S.PL_BITS])
            st.kinds[S.KR_PICKED, top] = int(rng.random() < 0.2)  # taken once, discarded since
            fast = careful.careful_takes_mask(
                values,
                hand,
                bots._unseen_bits(st, 0),
                bots._picked_bits(st, 0),
                top,
                params[L.P_ACE_RANK],
            )
            slow = bots._careful_takes_counts(st, params, values, 0, top)
            if fast != slow:
                bad.append(("takes", sorted(np.flatnonzero(st.hand[0])), top, fast, slow))
    return bad


def _completers_by_counts(cards: list[int], params) -> int:
    """``bits.completers`` the slow way: each card not held, added, checked by could_meld."""
    outs = 0
    for k in range(L.N_NATURAL):
        if k in cards:
            continue
        cnt = api.counts_of(cards + [k])
        if melds.could_meld(cnt, params, k):
            outs |= 1 << k
    return outs


@pytest.mark.parametrize("ace", ACES)
def test_completers_are_the_cards_that_would_meld_with_the_hand(ace):
    params, _values = api.make_params(ace_rank=ace, ace_points=ACE_POINTS[ace])
    rng = random.Random(ace)
    for _ in range(300):
        cards = rng.sample(range(L.N_NATURAL), rng.randint(0, 12))
        assert bits.completers(mask_of(cards), ace) == _completers_by_counts(cards, params)


@pytest.mark.parametrize("ace", ACES)
@pytest.mark.parametrize("layoff", [L.LAYOFF_ANY, L.LAYOFF_NONE])
@pytest.mark.parametrize("players", [2, 4])
def test_careful_discard_on_masks_chooses_the_count_versions_card(ace, layoff, players):
    assert _compare(ace, layoff, players, 2000, seed=ace * 10 + layoff + players) == []


@pytest.mark.nojit
@pytest.mark.parametrize("ace", ACES)
def test_careful_discard_on_masks_chooses_the_count_versions_card_small(ace):
    assert _compare(ace, L.LAYOFF_ANY, 3, 40, seed=ace) == []


def _all_outs(cnt: np.ndarray, params, unseen: np.ndarray) -> int:
    """Every unseen copy of every out of ``cnt``, counted over all kinds."""
    return sum(
        int(unseen[k]) for k in range(L.N_NATURAL) if unseen[k] > 0 and bots._is_out(cnt, params, k)
    )


PACKS = [
    {"decks": 1},
    {"decks": 2},
    {"decks": 2, "group_duplicates": True},
    {"decks": 1, "jokers": 2},
    {"decks": 2, "jokers": 4},
    {"decks": 1, "run_suit": L.RUN_ANY_SUIT},
    {"decks": 2, "jokers": 2, "run_suit": L.RUN_ANY_SUIT},
]


@pytest.mark.parametrize("ace", ACES)
@pytest.mark.parametrize("pack", range(len(PACKS)))
def test_outs_near_sees_every_change_of_the_hands_outs(ace, pack):
    # bots._outs_near re-checks only the kinds related to the card that comes or goes (its
    # rank, its suit within two run positions; any suit under any_suit): the difference of
    # two calls must equal the change in all of the hand's outs, counted over every kind
    params, _values = api.make_params(ace_rank=ace, ace_points=ACE_POINTS[ace], **PACKS[pack])
    decks, jokers = int(params[L.P_DECKS]), int(params[L.P_JOKERS])
    shoe = [k for k in range(L.N_NATURAL) for _ in range(decks)] + [L.JOKER] * jokers
    rng = random.Random(ace * 10 + pack)
    for _ in range(250):
        held = rng.sample(shoe, rng.randint(1, 12))
        cnt = api.counts_of(held)
        unseen = np.array([rng.randint(0, decks) for _ in range(L.N_KINDS)], np.int64)
        center = rng.choice([k for k in held if k != L.JOKER] or [rng.randrange(L.N_NATURAL)])
        before, near = _all_outs(cnt, params, unseen), bots._outs_near(cnt, params, unseen, center)
        cnt[center] += 1 if cnt[center] == 0 else -1  # the card comes, or one copy goes
        after, near_after = (
            _all_outs(cnt, params, unseen),
            bots._outs_near(cnt, params, unseen, center),
        )
        assert near_after - near == after - before, (sorted(held), center)
