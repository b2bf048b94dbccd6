"""The bots' answers under a fixed go-out pattern (``go_out_pattern``; Nowrang, RULES.md
§3.15; docs/bots.md, "Fixed patterns"): take the discard top, and which card to discard.

Rule slots read here: ``go_out_pattern``, ``deuces_wild``, ``players`` (and ``ace_rank`` through
``melds.run_layout``).

Every policy works on the hand's *cover* (``patterns.cover``): the pattern's runs placed
on run windows (each of one suit, not overlapping within a suit, anywhere in the pack) so
that they hold as many of the hand's cards as possible; its size says how close the hand
is (the pattern's card count: it goes out) and its cards, those of the first best
placement the search finds (a fixed order of the best placements: ``patterns.cover``, which
merges kept pairs of suits), are the ones worth keeping.

- take: ``random`` on a fair coin; ``greedy`` and ``careful`` when the card makes the
  cover larger. A discard outside the cover leaves its size as it is, so the size is kept
  for the hand the player keeps (``patterns.keep_size``) and his next take reads it
  (``kept_size``) rather than searching that hand again.
- discard (never the card taken from the discard pile this turn): among the allowed
  cards outside the cover (all allowed cards when none is outside) ``random`` a uniform
  one; ``greedy`` the one with the fewest same-suit neighbours (``connections``: 2 for a
  card one position away, 1 for two positions away), ties to the higher value, then the
  higher kind; ``careful`` the same, but first among the cards that are not within two
  positions, in their suit, of a card the next player took from the discard pile (when
  there is one). Once the stock has been rebuilt, every bot (random included) discards,
  one turn in 8 (the bots' stream), a uniform allowed card of the cover instead: two
  players who each keep a card the other waits for never let it go otherwise (0.8% of
  greedy, 2.0% of careful and 3.2% of random hands reached the turn cap without it).

Under Continental's pattern set (§3.11: three alternatives, jokers wild, several packs) the
cover is ``patterns.wild_cover``: the best cover of the hand's kinds over the alternatives
plus its jokers (at most 15); greedy and careful take a joker always, never a second copy
of a card they hold (the cover is of kinds: it cannot grow, and is not searched), and a
second copy of a card counts as outside the cover (it is discarded before the cover's
cards). As without wild cards, a discard outside the cover keeps its size for the take
(``wild_size``); a hand whose cover is the whole pattern takes no card but a wild one. With
``deuces_wild`` (§2B.14) the 2s held count as wild cards with the jokers (``_cover_cards``),
a 2 is taken as a joker is, and a 2 is kept as a joker is (discarded only when every
allowed card is).

Going out is ``go_out.out_discard``'s answer, as under all_at_once (random: on a fair coin).
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_SUITS
from sim.engine.bitops import lowest_bit, popcount
from sim.engine.deal import next_seat
from sim.engine.jit import kernel
from sim.engine.layout import (
    BOT_CAREFUL,
    BOT_RANDOM,
    P_GO_OUT_PATTERN,
)
from sim.engine.legal import allowed_naturals
from sim.engine.melds import MAX_LAYERS, _to_positions, n_positions, run_layout
from sim.engine.patterns import (
    DEUCES,
    cover,
    deuces_wild,
    fixed_pattern,
    keep_size,
    kept_size,
    kinds_of_column,
    pattern_lengths,
    set_size,
    suit_column,
    wild_cover,
    wild_pattern,
    wild_size,
)
from sim.engine.random_bot import random_wants, uniform_kind
from sim.engine.rng import RNG_BOTS, below
from sim.engine.specs import gated
from sim.engine.state import C_REBUILDS, R_SC, R_SEAT, S_HAND, S_JOKERS, S_PICKED

BREAK_ODDS = 8  # every bot: after a rebuild, 1 turn in 8 breaks a deadlock
NONE = -1
HUGE = 1 << 40


@kernel
def connections(hand, card, ace_rank):
    """Same-suit neighbours of ``card`` in ``hand``: 2 for each one position away, 1 for
    each two positions away."""
    e = _to_positions(hand, ace_rank)
    b = _to_positions(np.int64(1) << card, ace_rank)
    n = 0
    if (e & (b << 4)) != 0:
        n += 2
    if (e & (b >> 4)) != 0:
        n += 2
    if (e & (b << 8)) != 0:
        n += 1
    if (e & (b >> 8)) != 0:
        n += 1
    return n


@kernel
def _near(cards, ace_rank):
    """The kinds within two positions, in their suit, of a card of ``cards``."""
    e = _to_positions(cards, ace_rank)
    near = (e << 4) | (e >> 4) | (e << 8) | (e >> 8)
    from_positions = np.int64(0)
    n_pos = n_positions(ace_rank)
    for s in range(N_SUITS):
        col = suit_column(near, s, n_pos)
        from_positions |= kinds_of_column(col, s, ace_rank)
    return from_positions


@kernel
def _fewest_connections(values, hand, pool, ace_rank):
    """The card of ``pool`` with the fewest connections, ties to the higher value, then the
    higher kind."""
    best = NONE
    best_key = HUGE
    m = pool
    while m != 0:  # lowest kind first: "<=" lets the higher kind win a tie
        k = lowest_bit(m)
        m &= m - 1
        key = connections(hand, k, ace_rank) * 64 - values[k]
        if key <= best_key:
            best_key = key
            best = k
    return best


@kernel
def _cover_cards(fx, params, st, seat, hand):
    """``(kinds, wilds)`` the wild cover of ``seat``'s hand (``hand``: its kinds) is asked
    about: its kinds and jokers, and under ``deuces_wild`` its 2s (every copy) counted as
    wild cards with the jokers rather than as kinds."""
    wilds = st[R_SEAT + seat, S_JOKERS]
    if not deuces_wild(fx, params):
        return hand, wilds
    for l in range(MAX_LAYERS):
        wilds += popcount(st[R_SEAT + seat, S_HAND + l] & DEUCES)
    return hand & ~DEUCES, wilds


@gated(P_GO_OUT_PATTERN, fixed_pattern, np.bool_(False))
@kernel
def pattern_wants(fx, params, values, bots, st, rng, work, seat, card):
    """Does ``seat`` take ``card`` from the discard pile (module docstring)?"""
    if bots[seat] == BOT_RANDOM:
        return random_wants(rng)
    hand = st[R_SEAT + seat, S_HAND]
    lengths = pattern_lengths(fx, params)
    layout = run_layout(fx, params)
    if wild_pattern(fx, params):  # Continental (§3.11): a wild card always, else a larger cover
        if card == JOKER or (deuces_wild(fx, params) and (np.int64(1) << card) & DEUCES != 0):
            return True
        kinds, wilds = _cover_cards(fx, params, st, seat, hand)
        if kinds & (np.int64(1) << card) != 0:  # a second copy: the same kinds, the same cover
            return False
        now = wild_size(work, seat, kinds, wilds, lengths, layout)
        if now >= set_size(lengths):  # the whole pattern already: no card makes it larger
            return False
        then, _ = wild_cover(work, kinds | (np.int64(1) << card), wilds, lengths, layout)
        return then > now
    now = kept_size(work, seat, hand, np.int64(0), lengths, layout)
    if now < 0:  # not the hand kept after his last discard
        now, _ = cover(work, hand, lengths, layout)
    then, _ = cover(work, hand | (np.int64(1) << card), lengths, layout)
    return then > now


@gated(P_GO_OUT_PATTERN, fixed_pattern, np.int64(-1))
@kernel
def pattern_discard(fx, params, values, bots, st, rng, work, seat):
    """The card ``seat`` discards when he does not go out (module docstring). A discard
    outside the cover leaves the cover's size as it is: it is kept as the size of the hand
    he keeps (``patterns.keep_size``), which his next take asks about."""
    hand = st[R_SEAT + seat, S_HAND]
    layout = run_layout(fx, params)
    lengths = pattern_lengths(fx, params)
    if not wild_pattern(fx, params):
        size, kept = cover(work, hand, lengths, layout)
        card = _discard(fx, params, values, bots, st, rng, seat, kept)
        if card >= 0 and kept & (np.int64(1) << card) == 0:  # outside the cover: same size
            keep_size(work, seat, hand & ~(np.int64(1) << card), np.int64(0), lengths, layout,
                      size)  # fmt: skip
        return card
    kinds, wilds = _cover_cards(fx, params, st, seat, hand)  # Continental
    size, kept = wild_cover(work, kinds, wilds, lengths, layout)
    copies = st[R_SEAT + seat, S_HAND + 1]
    kept &= ~copies  # a second copy is outside the cover too
    if deuces_wild(fx, params):  # wild 2s are kept as jokers are
        kept |= hand & DEUCES
    card = _discard(fx, params, values, bots, st, rng, seat, kept)
    bit = np.int64(1) << card
    if card >= 0 and kept & bit == 0:  # a second copy, or a kind outside the cover: same size
        keep_size(work, seat, kinds if copies & bit != 0 else kinds & ~bit, wilds, lengths,
                  layout, size)  # fmt: skip
    return card


@kernel
def _discard(fx, params, values, bots, st, rng, seat, kept):
    """``pattern_discard``'s choice given the kinds ``kept`` (the cover's, module docstring)."""
    hand = st[R_SEAT + seat, S_HAND]
    layout = run_layout(fx, params)
    allowed = allowed_naturals(st, seat) & hand
    pool = allowed & ~kept
    if pool == 0:
        pool = allowed
    if st[R_SC, C_REBUILDS] > 0 and below(rng, np.int64(RNG_BOTS), np.int64(BREAK_ODDS)) == 0:
        return uniform_kind(rng, allowed & kept if allowed & kept != 0 else allowed,
                            np.bool_(False))  # fmt: skip
    if bots[seat] == BOT_RANDOM:
        return uniform_kind(rng, pool, np.bool_(False))
    if bots[seat] == BOT_CAREFUL:
        picked = st[R_SEAT + next_seat(fx, params, st, seat), S_PICKED]
        if picked != 0:
            safe = pool & ~_near(picked, layout)
            if safe != 0:
                pool = safe
    return _fewest_connections(values, hand, pool, layout)
