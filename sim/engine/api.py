"""Plain-Python entry points to the kernels, for tests, the CLI and the runner.

Nothing here is on the hot path: each call crosses into compiled code once.
"""

from __future__ import annotations

import numpy as np

from sim.cards import JOKER, N_KINDS, N_NATURAL, N_SUITS
from sim.engine import layout as L
from sim.engine.game import play_games
from sim.engine.melds import CC_CARDS, CC_LEN, S_BEST_N, best_arrangement, new_search_work
from sim.engine.state import EV_COLS

_WORK = None


def _work():
    global _WORK
    if _WORK is None:
        _WORK = new_search_work()
    return _WORK


def baseline_values(ace_points: int = 1, joker_points: int = 15) -> np.ndarray:
    """Card values of RULES.md §1.9: A = ace_points, 2..10 pip, J/Q/K 10, joker joker_points."""
    values = np.zeros(N_KINDS, np.int64)
    for kind in range(N_NATURAL):
        rank = kind // N_SUITS
        values[kind] = ace_points if rank == 0 else min(rank + 1, 10)
    values[JOKER] = joker_points
    return values


def make_params(
    *,
    ace_rank: int = L.ACE_LOW,
    run_suit: int = L.RUN_SAME_SUIT,
    group_duplicates: bool = False,
    decks: int = 1,
    jokers: int = 0,
    ace_points: int = 1,
    joker_points: int = 15,
    players: int = 2,
    hand_size: int = 10,
    **slots: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Kernel params for tests and tools, baseline rules unless overridden.

    Extra keyword arguments name ``P_*`` slots in lower case without the prefix, e.g.
    ``stock_exhaustion=L.STOCK_BLOCK_TOTALS``. The rules model (``sim.rules``) is the
    validated way to build params; this helper exists for hand-built tests.
    """
    params = np.zeros(L.N_PARAMS, np.int64)
    params[L.P_PLAYERS] = players
    params[L.P_HAND_SIZE] = hand_size
    params[L.P_DECKS] = decks
    params[L.P_JOKERS] = jokers
    params[L.P_ACE_RANK] = ace_rank
    params[L.P_RUN_SUIT] = run_suit
    params[L.P_GROUP_DUPLICATES] = int(group_duplicates)
    params[L.P_GAME_END] = L.END_TARGET
    params[L.P_GAME_END_VALUE] = 100
    params[L.P_TURN_CAP] = 500
    params[L.P_HAND_CAP] = 1000
    params[L.P_UPCARD] = 1
    for name, value in slots.items():
        slot = getattr(L, "P_" + name.upper(), None)
        if slot is None:
            raise KeyError(f"no params slot P_{name.upper()}")
        params[slot] = value
    return params, baseline_values(ace_points, joker_points)


def counts_of(cards: list[int]) -> np.ndarray:
    """A hand of counts from a list of card kinds."""
    hand = np.zeros(N_KINDS, np.int64)
    for kind in cards:
        hand[kind] += 1
    return hand


def min_deadwood(
    cards: list[int], params: np.ndarray, card_values: np.ndarray, max_melds: int = 0
) -> tuple[int, list[list[int]]]:
    """Minimum deadwood of a hand and one best arrangement (each meld a list of kinds)."""
    ws = _work()
    hand = counts_of(cards)
    melded = best_arrangement(ws, params, card_values, hand, max_melds)
    melds = []
    for m in range(int(ws.scal[S_BEST_N])):
        length = int(ws.best[m, CC_LEN])
        melds.append([int(k) for k in ws.best[m, CC_CARDS : CC_CARDS + length]])
    return int(hand @ card_values - melded), melds


# ---- whole hands and games ------------------------------------------------------------


class Played:
    """Arrays filled by one ``play`` call (rows per ``layout.H_*`` / ``G_*``)."""

    def __init__(self, players: int, max_hands: int, max_games: int, events: int) -> None:
        self.hand_rows = np.zeros((max_hands, L.N_HCOLS), np.int64)
        self.hand_scores = np.zeros((max_hands, players), np.int64)
        self.hand_totals = np.zeros((max_hands, players), np.int64)
        self.hand_side = np.zeros((max_hands, players), np.int64)
        self.game_rows = np.zeros((max_games, L.N_GCOLS), np.int64)
        self.game_scores = np.zeros((max_games, players), np.int64)
        self.counters = np.zeros(L.N_COUNTERS, np.int64)
        self.events = np.zeros((max(events, 1), EV_COLS), np.int64)
        self.hands = 0
        self.games = 0
        self._shape = (players, max_hands, max_games, events)
        self._full = {name: getattr(self, name) for name in self._RESULTS}

    _RESULTS = (
        "hand_rows",
        "hand_scores",
        "hand_totals",
        "hand_side",
        "game_rows",
        "game_scores",
        "events",
    )
    """The result arrays ``trim`` cuts to the rows written and ``reused`` restores."""

    def reused(self, players: int, max_hands: int, max_games: int, events: int) -> Played:
        """This object again, its arrays back at full size, for a call of the same shape (or
        a new ``Played`` for another shape). Its earlier rows are overwritten: a caller
        reuses it only once it no longer needs them. Fresh result arrays cost the first
        write of every memory page (~70 ns a hand of 2-player rummy), so a caller that
        discards each call's rows, as the benchmark does, keeps one ``Played``."""
        if self._shape != (players, max_hands, max_games, events):
            return Played(players, max_hands, max_games, events)
        for name, array in self._full.items():
            setattr(self, name, array)
        self.counters = np.zeros(L.N_COUNTERS, np.int64)
        self.hands = self.games = 0
        return self

    def trim(self) -> Played:
        """Keep only the rows written."""
        self.hand_rows = self.hand_rows[: self.hands]
        self.hand_scores = self.hand_scores[: self.hands]
        self.hand_totals = self.hand_totals[: self.hands]
        self.hand_side = self.hand_side[: self.hands]
        self.game_rows = self.game_rows[: self.games]
        self.game_scores = self.game_scores[: self.games]
        self.events = self.events[: int(self.counters[L.C_EVENTS])]
        return self


def play(
    params: np.ndarray,
    card_values: np.ndarray,
    bots: np.ndarray,
    *,
    seed: int = 0,
    shard: int = 0,
    first_game: int = 0,
    first_deal: int = 0,
    hands: int | None = None,
    games: int | None = None,
    events: int = 0,
    preset: np.ndarray | None = None,
    dealer: int = -1,
    into: Played | None = None,
) -> Played:
    """Play until ``hands`` hands or ``games`` games are done (at least one must be given).
    ``into``: a ``Played`` of an earlier call whose arrays are reused (``Played.reused``;
    its rows are overwritten)."""
    if hands is None and games is None:
        raise ValueError("give hands or games")
    players = int(params[L.P_PLAYERS])
    if int(params[L.P_FAMILY]) == L.FAMILY_RUMMY and L.BOT_SIMPLE in np.asarray(bots):
        raise ValueError("bot 'simple' (the reference gin bot) plays only knock-family variants")
    hand_cap = int(params[L.P_HAND_CAP])
    max_games = games if games is not None else hands
    max_hands = hands if hands is not None else games * hand_cap
    if into is None:
        out = Played(players, max_hands, max_games, events)
    else:
        out = into.reused(players, max_hands, max_games, events)
    stock = np.zeros(0, np.int64) if preset is None else np.asarray(preset, np.int64)
    h, g = play_games(
        params,
        card_values,
        np.asarray(bots, np.int64),
        seed,
        shard,
        first_game,
        first_deal,
        dealer,
        max_hands,
        max_games,
        out.hand_rows,
        out.hand_scores,
        out.hand_totals,
        out.hand_side,
        out.game_rows,
        out.game_scores,
        out.counters,
        out.events,
        stock,
    )
    out.hands, out.games = int(h), int(g)
    return out.trim()
