"""Plain-Python entry points to the engine: rules to kernel arrays, and play.

``compile_rules`` is one loop over the toggle declarations (``sim.engine.layout`` codes every
value), so no table of defaults or codes is written twice. ``play`` fills ``Played``, the
arrays of the dataset's rows (``sim.engine.rows``).
"""

from __future__ import annotations

import numpy as np

from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine.game import play_games
from sim.engine.melds import value_table
from sim.engine.specs import Fixed, spec_for
from sim.engine.state import EV_COLS
from sim.rules.model import Rules
from sim.rules.toggles import TOGGLES, Kind, split_param
from sim.rules.values import card_values

BOTS_PLAYED = tuple(sorted(L.BOT_PLAYS))
"""The bots this engine plays (every code of ``rows.BOT_NAMES``); ``simple`` only in the
knock families (it has no melding policy: ``play`` refuses it in progressive rummy, as
``rummysim`` does)."""


def kernel_bots(bots: np.ndarray) -> np.ndarray:
    """The kernels' ``bots`` array for the bot codes ``bots`` (one per seat): each seat's
    base policy, then each seat's restriction flags (``layout.BOT_PLAYS``,
    ``sim.engine.restrict``)."""
    plays = [L.BOT_PLAYS[int(b)] for b in bots]
    return np.array([p for p, _ in plays] + [f for _, f in plays], np.int64)


def with_bots(params: np.ndarray, bots: np.ndarray) -> np.ndarray:
    """``params`` with the engine slot that depends on the seats' bots set: ``mc_seats``, 1
    when a seat's bot is ``mcN`` (``kernel_bots``' flags, ``sim.engine.mc``), so a spec that
    fixes it to 0 compiles none of the Monte Carlo playouts (a copy; ``params`` is kept)."""
    players = int(params[L.P_PLAYERS])
    mc = any(int(f) & L.RESTRICT_MC for f in bots[players:])
    if int(params[L.P_MC_SEATS]) == int(mc):
        return params
    out = params.copy()
    out[L.P_MC_SEATS] = int(mc)
    return out


FAMILY_CODES = {
    "rummy": L.FAMILY_RUMMY,
    "knock_rummy": L.FAMILY_KNOCK_RUMMY,
    "gin": L.FAMILY_GIN,
    "tonk": L.FAMILY_TONK,
    "phom": L.FAMILY_PHOM,
    "conquian": L.FAMILY_CONQUIAN,
    "carousel": L.FAMILY_CAROUSEL,
}


class Played:
    """The arrays one ``play`` call fills (rows per ``H_*`` / ``G_*``), cut to the rows
    written by ``trim``; ``events`` holds the event log (``sim.engine.state``) when asked."""

    def __init__(self, players: int, max_hands: int, max_games: int, events: int) -> None:
        self.hand_rows = np.zeros((max_hands, R.N_HCOLS), np.int64)
        self.hand_scores = np.zeros((max_hands, players), np.int64)
        self.hand_totals = np.zeros((max_hands, players), np.int64)
        self.hand_side = np.zeros((max_hands, players), np.int64)
        self.game_rows = np.zeros((max_games, R.N_GCOLS), np.int64)
        self.game_scores = np.zeros((max_games, players), np.int64)
        self.counters = np.zeros(R.N_COUNTERS, np.int64)
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
        write of every memory page, so a caller that discards each call's rows, as the
        benchmark does, keeps one ``Played``."""
        if self._shape != (players, max_hands, max_games, events):
            return Played(players, max_hands, max_games, events)
        for name, array in self._full.items():
            setattr(self, name, array)
        self.counters = np.zeros(R.N_COUNTERS, np.int64)
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
        self.events = self.events[: int(self.counters[R.C_EVENTS])]
        return self


def compile_rules(
    rules: Rules, players: int, *, audit: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """``(params, values)`` of ``rules`` at a table of ``players`` (ConfigError for a player
    count the variant does not allow): every toggle coded into its slot, then the table's
    size, its packs and the audit switch; the card values with their bit planes."""
    hand_size, packs = rules.deal_for(players)
    params = np.zeros(L.N_PARAMS, np.int64)
    for toggle in TOGGLES:
        value = rules[toggle.name]
        params[L.slot(toggle.name)] = L.code(toggle.name, value)
        if toggle.kind is Kind.PARAM:
            params[L.arg_slot(toggle.name)] = split_param(str(value))[1] or 0
    params[L.P_PLAYERS] = players
    params[L.P_HAND_SIZE] = hand_size
    params[L.P_PACKS] = packs
    params[L.P_JOKERS] = rules.jokers_for(players)
    params[L.P_AUDIT] = int(audit)
    params[L.P_FAMILY] = FAMILY_CODES[rules.family]
    return params, value_table(card_values(rules))


def play(
    params: np.ndarray,
    values: np.ndarray,
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
    spec: Fixed | None = None,
    into: Played | None = None,
) -> Played:
    """Play until ``hands`` hands or ``games`` games are done (at least one must be given),
    with the most specific compile-time spec that fits the rules (or ``spec``, which must
    fit them: tests play ``GENERIC`` to compare). ``events``: rows of event log to keep
    (0: none). ``preset``: a hand-built deal, every card of the shoe in the order it leaves
    the stock, the first card last (``sim.replay.preset_stock``). ``into``: a ``Played`` of
    an earlier call whose arrays are reused (``Played.reused``; its rows are overwritten)."""
    if hands is None and games is None:
        raise ValueError("give hands or games")
    knock = int(params[L.P_MELD_TIMING]) == L.TIMING_KNOCK
    for b in np.asarray(bots):
        if int(b) not in BOTS_PLAYED:
            raise ValueError(f"unknown bot code {b}")
        if int(b) == L.BOT_SIMPLE and not knock:
            raise ValueError("the simple bot plays only the knock families (no melding policy)")
    bots = kernel_bots(np.asarray(bots, np.int64))
    params = with_bots(params, bots)
    if spec is None:
        spec = spec_for(params)
    elif not spec.matches(params):
        raise ValueError(f"{spec!r} does not fit these rules")
    players = int(params[L.P_PLAYERS])
    max_games = games if games is not None else hands
    max_hands = hands if hands is not None else games * int(params[L.P_HAND_CAP])
    if into is None:
        out = Played(players, max_hands, max_games, events)
    else:
        out = into.reused(players, max_hands, max_games, events)
    stock = np.zeros(0, np.int64) if preset is None else np.asarray(preset, np.int64)
    h, g = play_games(
        spec,
        params,
        values,
        bots,
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
