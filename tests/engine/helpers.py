"""Shared helpers for the engine's clause tests (ported from the old engine's helpers.py
to sim/engine): rules from the model, hand-built deals, event queries."""

from __future__ import annotations

import numpy as np

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine import state as S
from sim.engine.api import Played, compile_rules, play
from sim.engine.specs import GENERIC
from sim.replay import Deal, preset_stock
from sim.rules import load_variant

GREEDY = R.BOT_GREEDY
RANDOM = R.BOT_RANDOM
CAREFUL = R.BOT_CAREFUL
SIMPLE = R.BOT_SIMPLE


def compiled(variant: str = "rummy_basic", players: int = 2, audit: bool = True, **overrides):
    """``(params, values)`` of a variant with toggle overrides, audit on by default."""
    rules = load_variant(variant, overrides or None)
    return compile_rules(rules, players, audit=audit)


def blank_state(variant: str = "rummy_basic", players: int = 2, audit: bool = False, **overrides):
    """``(params, values, st, piles)``: a hand state between turns with nothing dealt (the
    tests give cards and piles), no card taken, planned, come round or turned up."""
    params, values = compiled(variant, players, audit=audit, **overrides)
    st, piles = S.new_state()
    S.fill_shoe(GENERIC, params, st, piles)
    S.clear_turn_facts(st)
    st[S.R_SC, S.C_UPCARD] = -1
    return params, values, st, piles


def deal(hands: list[str], upcard: str | None, stock: str = "", dealer: int | None = None) -> Deal:
    """A hand-built deal: seat i holds ``hands[i]``; ``stock`` lists the stock from the top."""
    players = len(hands)
    return Deal(
        tuple(tuple(parse_cards(h)) for h in hands),
        parse_card(upcard) if upcard else None,
        tuple(parse_cards(stock)),
        players - 1 if dealer is None else dealer,
    )


def play_deal(fixed: Deal, params, values, bots=None, seed: int = 0) -> Played:
    """Play one hand of a hand-built deal with the event log on."""
    players = int(params[L.P_PLAYERS])
    bots = [GREEDY] * players if bots is None else bots
    return play(
        params,
        values,
        np.array(bots, np.int64),
        seed=seed,
        hands=1,
        events=5000,
        preset=preset_stock(fixed, params),
        dealer=fixed.dealer,
    )


def events_of(out: Played, etype: int) -> list[tuple[int, int, int, list[int]]]:
    """(seat, a, b, cards) of every event of one type, in order."""
    rows = []
    for row in out.events:
        if int(row[S.EV_TYPE]) == etype:
            n = int(row[S.EV_N])
            cards = [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + n]]
            rows.append((int(row[S.EV_SEAT]), int(row[S.EV_A]), int(row[S.EV_B]), cards))
    return rows


def end_of(out: Played) -> tuple[str, int]:
    """(end reason name, winner) of the single hand played."""
    row = out.hand_rows[0]
    return R.REASON_NAMES[int(row[R.H_END_REASON])], int(row[R.H_WINNER])


def turns_of(out: Played) -> int:
    """Turns of the single hand played (``E_END`` holds none: the hand row does)."""
    return int(out.hand_rows[0, R.H_TURNS])


def no_violations(out: Played) -> None:
    """Audit mode saw no broken invariant."""
    assert int(out.counters[R.C_VIOLATIONS]) == 0
    assert (out.hand_rows[:, R.H_VIOLATIONS] == 0).all()


def mask_of(cards) -> int:
    """The one-pack bitmask of card kinds."""
    m = 0
    for k in cards:
        m |= 1 << int(k)
    return m


def cards_of(mask: int) -> list[int]:
    """The card kinds of a bitmask, lowest first."""
    return [k for k in range(52) if (int(mask) >> k) & 1]
