"""Shards: the unit of work of a run. One shard plays a fixed block of deals of one arm and
writes one hands file and one games file.

A shard's rows depend only on (experiment seed, arm rules, shard number, rotation): not on the
worker, the backend or how the shard is cut into kernel calls. Kernel calls are chunked so a
worker's memory stays flat and progress is reported often; each chunk but the last keeps only
the hands of games it completed and the next chunk resumes at the next game and deal, which is
exactly where an uncut call would have been.
"""

from __future__ import annotations

import json
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from sim import __version__
from sim.dataset.files import TABLES, shard_path, with_metadata, write_parquet_atomic
from sim.dataset.schema import SCHEMA_VERSION, ShardId, games_table, hands_table
from sim.dataset.summaries import SUMMARY_KEY, Blocking, summary_for
from sim.engine import api
from sim.engine import layout as L
from sim.engine import rows as R
from sim.engine.api import Played, play
from sim.engine.specs import Fixed, spec_named

CHUNK_HANDS = 20_000  # hands per kernel call: bounds memory and sets the progress step


def bot_codes(bots: tuple[str, ...]) -> np.ndarray:
    """The ``BOT_*`` code of each seat's bot, as the kernels take them."""
    return np.array([R.BOT_NAMES.index(b) for b in bots], np.int64)


@dataclass(frozen=True)
class ShardTask:
    """Everything a worker needs to play and write one shard (picklable, no open handles)."""

    experiment: str
    arm: str
    ruleset: str
    variant: str
    rules_toml: str
    params: np.ndarray
    card_values: np.ndarray
    bots: tuple[str, ...]
    seed: int
    shard: int
    unit: str  # "hands" or "games"
    count: int  # hands or games to play (per rotation)
    rotations: int  # 1, or the player count when deals are mirrored
    root: str  # the dataset folder DIR/<experiment>
    spec: str  # the compile-time spec it plays under, by name (sim.engine.specs.plan_specs):
    # speed only, never play
    write: bool = True  # False: play only (the engine-only figure of the pipeline benchmark)
    plan_id: str = ""  # the run's plan (manifest.plan_id); files are written only under it
    teams: bool = False  # the seats play in partnerships (RULES.md §3.19): two sides score
    hand_blocks: Blocking | None = None  # the report's blocking: keep the shard's blocks in
    # its hands file's footer (sim.dataset.summaries); None where the plan cannot know it

    def bot_codes(self) -> np.ndarray:
        """The ``BOT_*`` code of each seat, as the kernels take them."""
        return bot_codes(self.bots)

    def fixed(self) -> Fixed:
        """The compile-time spec to play under."""
        return spec_named(self.spec)

    @property
    def key(self) -> str:
        return f"{self.arm}/{self.shard}"

    def paths(self) -> tuple[Path, Path]:
        """Where the shard's hands and games files go."""
        root = Path(self.root)
        hands, games = (shard_path(root, t, self.arm, self.shard) for t in TABLES)
        return hands, games


@dataclass(frozen=True)
class ShardResult:
    """What a finished shard reports back to the runner."""

    arm: str
    shard: int
    hands: int
    games: int
    hands_sha256: str
    games_sha256: str
    seconds: float
    peak_rss_mb: float  # the worker process's peak resident memory so far


Progress = Callable[[int], None]


def run_shard(task: ShardTask, progress: Progress | None = None) -> ShardResult:
    """Play the shard, write its two files atomically, return the row counts and digests.

    ``progress(n)`` is called with the number of hands (or games) just finished.
    """
    start = time.perf_counter()
    codes = task.bot_codes()
    players = len(task.bots)
    hands_parts: list[pa.Table] = []
    games_parts: list[pa.Table] = []
    played_hands = played_games = 0
    for rotation in range(task.rotations):
        params = task.params.copy()
        params[L.P_SEAT_ROTATION] = rotation
        sid = ShardId(
            task.ruleset, task.variant, players, task.bots, task.seed, task.shard, rotation
        )
        for out in _play_chunks(params, task.card_values, codes, task, progress):
            if task.write:
                hands_parts.append(hands_table(out, sid, teams=task.teams))
                games_parts.append(games_table(out, sid, teams=task.teams))
            else:
                played_hands += len(out.hand_rows)
                played_games += len(out.game_rows)
    if not task.write:
        seconds = round(time.perf_counter() - start, 3)
        return ShardResult(
            task.arm, task.shard, played_hands, played_games, "", "", seconds, _peak_rss_mb()
        )
    hands = with_metadata(pa.concat_tables(hands_parts).combine_chunks(), _metadata(task))
    games = with_metadata(pa.concat_tables(games_parts).combine_chunks(), _metadata(task))
    hands_path, games_path = task.paths()
    root = Path(task.root)
    _check_plan(task, root)
    footer = {}
    if task.hand_blocks is not None:
        footer[SUMMARY_KEY] = summary_for(hands, games, task.hand_blocks, teams=task.teams)
    games_sha = write_parquet_atomic(games, games_path, root)
    hands_sha = write_parquet_atomic(hands, hands_path, root, footer=footer)
    return ShardResult(
        task.arm,
        task.shard,
        hands.num_rows,
        games.num_rows,
        hands_sha,
        games_sha,
        round(time.perf_counter() - start, 3),
        _peak_rss_mb(),
    )


def warm_shard(task: ShardTask) -> None:
    """Load what a shard runs, on a hand or two and nothing written: the engine's kernels and,
    where the shard keeps its hand blocks, the summaries' code (each worker would otherwise
    load them itself)."""
    out = api.play(task.params, task.card_values, task.bot_codes(), hands=1, spec=task.fixed())
    if task.hand_blocks is not None:
        sid = ShardId(task.ruleset, task.variant, len(task.bots), task.bots, task.seed, 0)
        hands = hands_table(out, sid, teams=task.teams)
        games = games_table(out, sid, teams=task.teams)
        summary_for(hands, games, task.hand_blocks, teams=task.teams)


def _peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB (Linux reports ru_maxrss in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


class StaleShard(Exception):
    """The dataset now belongs to another plan (a --fresh run replaced it): do not write."""


def _check_plan(task: ShardTask, root: Path) -> None:
    """Refuse to write when the dataset's manifest names another plan. A shard still running
    on a cluster after its run stopped must not overwrite a newer run's files."""
    if not task.plan_id:
        return
    try:
        current = json.loads((root / "manifest.json").read_text(encoding="utf-8")).get("plan_id")
    except (OSError, ValueError, AttributeError):
        current = None
    if current != task.plan_id:
        raise StaleShard(f"shard {task.key}: the dataset in {root} belongs to another run now")


def _metadata(task: ShardTask) -> dict[str, str]:
    return {
        "version": __version__,
        "schema_version": str(SCHEMA_VERSION),
        "experiment": task.experiment,
        "arm": task.arm,
        "rules": task.rules_toml,
        "seed": str(task.seed),
        "shard": str(task.shard),
    }


def _play_chunks(params, values, codes, task: ShardTask, progress: Progress | None):
    """Yield ``Played`` chunks that together are the shard's rows for one rotation."""
    chunk = CHUNK_HANDS
    first_game = first_deal = 0
    carry = -1  # the first dealer of the next chunk's first one-hand game
    left = task.count
    while left > 0:
        if task.unit == "hands":
            hands, games, last = min(chunk, left), min(chunk, left), left <= chunk
        else:
            hands, games, last = chunk, left, False
        out = play(
            params,
            values,
            codes,
            seed=task.seed,
            shard=task.shard,
            first_game=first_game,
            first_deal=first_deal,
            hands=hands,
            games=games,
            dealer=carry,
            spec=task.fixed(),
        )
        if not last:
            out = _complete_games(out, first_game)
        kept = len(out.hand_rows)
        if kept == 0:  # one game outlasted the chunk: replay it with a longer one
            chunk *= 2
            continue
        first_game += out.games
        first_deal += kept
        carry = _next_dealer(params, out)
        done = kept if task.unit == "hands" else out.games
        left -= done
        if progress is not None and done:
            progress(done)
        yield out


def _complete_games(out: Played, first_game: int) -> Played:
    """Only the hands of the games this call completed (the rest is replayed next chunk)."""
    keep = int(np.searchsorted(out.hand_rows[:, R.H_GAME], first_game + out.games))
    out.hand_rows = out.hand_rows[:keep]
    out.hand_scores = out.hand_scores[:keep]
    out.hand_totals = out.hand_totals[:keep]
    out.hand_side = out.hand_side[:keep]
    out.hands = keep
    return out


def _next_dealer(params: np.ndarray, out: Played) -> int:
    """For one-hand games the deal passes on from game to game (§2H.30-31), so a chunk must
    start with the dealer the previous chunk would have used next; other games draw their
    first dealer from the game's own random stream."""
    if params[L.P_GAME_END] != L.END_SINGLE_HAND or not len(out.hand_rows):
        return -1
    last = out.hand_rows[-1]
    winner = int(last[R.H_WINNER])
    if params[L.P_DEALER_ROTATION] == L.DEALER_WINNER_DEALS and winner >= 0:
        return winner
    return (int(last[R.H_DEALER]) + 1) % int(params[L.P_PLAYERS])
