"""Shared helpers for engine tests: rules from the model, hand-built deals, event queries."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import numpy as np

from sim.cards import parse_card, parse_cards
from sim.engine import layout as L
from sim.engine import state as S
from sim.engine.api import Played, play
from sim.replay import Deal, preset_stock
from sim.rules import compile_rules, load_variant

GREEDY = L.BOT_GREEDY
RANDOM = L.BOT_RANDOM
CAREFUL = L.BOT_CAREFUL


def compiled(variant: str = "rummy_basic", players: int = 2, audit: bool = True, **overrides):
    """Params and card values of a variant with toggle overrides, audit on by default."""
    rules = load_variant(variant, overrides or None)
    c = compile_rules(rules, players, audit=audit)
    return c.params, c.card_values


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
    """(player, a, b, cards) of every event of one type, in order."""
    rows = []
    for row in out.events:
        if int(row[S.EV_TYPE]) == etype:
            n = int(row[S.EV_N])
            cards = [int(k) for k in row[S.EV_CARDS : S.EV_CARDS + n]]
            rows.append((int(row[S.EV_PLAYER]), int(row[S.EV_A]), int(row[S.EV_B]), cards))
    return rows


def end_of(out: Played) -> tuple[str, int]:
    """(end reason name, winner) of the single hand played."""
    row = out.hand_rows[0]
    return L.REASON_NAMES[int(row[L.H_END_REASON])], int(row[L.H_WINNER])


def mask_of(cards) -> int:
    """The one-pack bitmask of card kinds (``bits.py``'s hand masks)."""
    m = 0
    for k in cards:
        m |= 1 << int(k)
    return m


def random_one_pack_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` one-pack cards, half the time drawn from two suits or four ranks, so that
    the hands hold long runs, groups and overlaps between them."""
    if rng.random() < 0.5:
        suits = rng.sample(range(4), 2)
        ranks = rng.sample(range(13), 4)
        pool = [k for k in range(52) if k % 4 in suits or k // 4 in ranks]
        return rng.sample(pool, min(size, len(pool)))
    return rng.sample(range(52), size)


def run_json_script(script: str, timeout: int = 1800, **env: str) -> dict:
    """Run ``script`` in a fresh Python process with ``env`` added to the environment;
    return the JSON object it prints on its last line (fails the test on a non-zero exit)."""
    done = subprocess.run(
        [sys.executable, "-c", script],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])
