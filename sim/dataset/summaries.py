"""A shard's hands and games reduced to the report's blocks, in numpy alone.

The report cuts each arm's hands into blocks of ``block`` consecutive deals
(:func:`block_size`), its games into the blocks of their first deals, and needs per (shard,
block) the sums of every hand and game statistic and the histograms of :data:`TABLES`. This
module makes them in numpy (sums and counts per run of a block's rows), for the rows the
report reads and for each shard the runner writes, which keeps them in the hands file's
Parquet footer (:func:`summary_for`) for the report to read instead of the rows
(:func:`read_summary`). A summary of another blocking is not used; the rows are read.

No polars here: the runner's workers are forked, and polars hangs in a child forked from a
process that has used it.
"""

from __future__ import annotations

import base64
import json
import zlib
from dataclasses import asdict, dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from sim.rules.model import MAX_PLAYERS

BOOTSTRAP_BLOCKS = 400
"""Blocks per arm the bootstrap aims at (:func:`block_size`). A shard's last, short block
adds a few more, games fall into the blocks where they began, a different number in each
arm, and the blocks of game numbers of a mirrored run are as many as the arm's games make;
the analysis merges neighbouring blocks, of hands and of games, down to at most this many,
so that the bootstraps of arms with as many blocks draw the same weights (drawn once)."""


def block_size(rows: int, target_blocks: int = BOOTSTRAP_BLOCKS) -> int:
    """Rows per block so that the smallest arm has about ``target_blocks`` blocks: enough
    for the bootstrap's intervals, and the bigger the blocks the more of the dependence
    between neighbouring hands (one game's) stays inside one; the analysis and the
    per-block histograms then cost the same at any size of the dataset."""
    return max(1, rows // target_blocks)


class ChunkError(ValueError):
    """Rows the report cannot read (a null where every hand has a value, a seat that is no
    seat)."""


@dataclass(frozen=True)
class Rows:
    """Rows of one of the report's small tables, in numpy: each row's ``shard`` and
    ``block`` (int64) and its ``columns`` (int64[rows, columns], in the order of the table's
    names: a histogram's value and count, or a block's sums)."""

    shard: np.ndarray
    block: np.ndarray
    columns: np.ndarray

    def __len__(self) -> int:
        return len(self.shard)

    @staticmethod
    def empty(width: int) -> Rows:
        """A table of ``width`` columns and no rows."""
        return Rows(np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, width), np.int64))


def in_key_order(rows: Rows, keyed: int) -> Rows:
    """``rows`` sorted by (shard, block, the first ``keyed`` columns), the other columns
    summed over equal keys: a mirrored shard's rotations each start its blocks again."""
    keys = [rows.shard, rows.block] + [rows.columns[:, i] for i in range(keyed)]
    order = np.lexsort(keys[::-1])
    keys = [key[order] for key in keys]
    new = np.zeros(len(order), bool)
    new[:1] = True
    for key in keys:
        new[1:] |= key[1:] != key[:-1]
    starts = np.flatnonzero(new)
    columns = rows.columns[order]
    summed = np.add.reduceat(columns, starts, axis=0) if len(starts) else columns
    summed[:, :keyed] = columns[starts, :keyed]
    return Rows(keys[0][starts], keys[1][starts], summed)


class Runs:
    """Rows cut into runs of equal (shard, block): the report's rows come sorted by shard and
    deal (or game), so a run is a whole block of the chunk. Sums per run are exact integers;
    rows out of order only make more runs of the same block, which the caller sums by
    (shard, block) afterwards."""

    def __init__(self, shard: np.ndarray, block: np.ndarray) -> None:
        n = len(shard)
        if n:
            change = (shard[1:] != shard[:-1]) | (block[1:] != block[:-1])
            self.starts = np.concatenate([[0], np.flatnonzero(change) + 1])
        else:
            self.starts = np.zeros(0, np.int64)
        self.counts = np.diff(np.append(self.starts, n))
        self.shard = shard[self.starts].astype(np.int64)
        self.block = block[self.starts].astype(np.int64)

    def __len__(self) -> int:
        return len(self.starts)

    def histogram_rows(self, values: np.ndarray) -> Rows:
        """Rows of the report's (shard, block, value, len) table: every (run, value) pair that
        occurs with its count, sorted by run then value (a ``group_by(shard, block,
        value).len()`` within each run)."""
        if len(values) == 0:
            return Rows.empty(2)
        low = int(values.min())
        width = int(values.max()) - low + 1
        run = np.repeat(np.arange(len(self)), self.counts)  # each row's run
        # (run, value) as one number, counted by sorting: values may be sparse and wide
        keys, counts = np.unique(run * width + (values.astype(np.int64) - low), return_counts=True)
        k, v = keys // width, keys % width + low
        return Rows(self.shard[k], self.block[k], np.stack([v, counts], axis=1).astype(np.int64))

    def tally(self, values: np.ndarray, width: int) -> np.ndarray:
        """Per run, its rows whose value is each of 0 to ``width - 1`` (int64[runs, width];
        other values are not counted)."""
        run = np.repeat(np.arange(len(self)), self.counts)
        ok = (values >= 0) & (values < width)
        flat = np.bincount(run[ok] * width + values[ok], minlength=len(self) * width)
        return flat.reshape(len(self), width).astype(np.int64)

    def sums(self, columns: list[np.ndarray]) -> np.ndarray:
        """Per run, the sum of each of ``columns`` (int64[runs, len(columns)])."""
        if not len(self):
            return np.zeros((0, len(columns)), np.int64)
        return np.stack([np.add.reduceat(np.asarray(c, np.int64), self.starts) for c in columns], 1)


ACTIONS = ("melds", "layoffs", "rebuilds")
"""The hands' action counts (schema version 5) summed per block after the kernel's columns,
for the time model (``sim.dataset.timing``)."""


def hand_sum_names(seats: int, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of a hand block, in order (:func:`hand_run_sums`' columns, then
    :data:`ACTIONS`)."""
    fixed = ("n", "turns", "turns2", "points", "points2", "decided", "dealer_win", "first_win",
             "dealer_points", "side_points")  # fmt: skip
    wins, ends = tuple(f"win{s}" for s in range(seats)), tuple(f"r_{r}" for r in reasons)
    return fixed + wins + ends + ACTIONS


def game_sum_names(seats: int) -> tuple[str, ...]:
    """The columns of a game block, in order (:func:`game_run_sums`' columns, then the
    games' seconds at the table under the time model, ``sim.dataset.timing``; 0 where the
    hands lack the action counts it charges)."""
    fixed = ("n", "hands", "hands2", "margin", "margin2", "comeback", "decided", "lead_changes",
             "lead_changes2", "capped")  # fmt: skip
    return fixed + tuple(f"gwin{s}" for s in range(seats)) + ("seconds",)


def final_margins(final: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """Each game's final margin: the winner's final score minus the best other side's, or,
    where nobody won (``winner`` -1, or not one of the sides), the best score minus the
    second best. ``final``: int64[games, sides], at least two sides."""
    if not len(final):
        return np.zeros(0, np.int64)
    games = np.arange(len(final))
    won = (winner >= 0) & (winner < final.shape[1])
    seat = np.where(won, winner, 0).astype(np.int64)
    others = final.copy()
    others[games[won], seat[won]] = np.iinfo(np.int64).min
    top = np.sort(final, axis=1)
    return np.where(won, final[games, seat] - others.max(axis=1), top[:, -1] - top[:, -2])


def game_run_sums(runs, hands, margin, comeback, winner, lead_changes, capped, seats: int):
    """Per run of games (:class:`Runs`): games, Σhands, Σhands², Σmargin, Σmargin², comebacks,
    games someone won, Σlead changes, Σ(lead changes)², games the hand cap ended, then per
    seat the games it won (the first columns of :func:`game_sum_names`)."""
    h, m, c, w = (np.asarray(x, np.int64) for x in (hands, margin, lead_changes, winner))
    columns = [np.ones_like(h), h, h * h, m, m * m, comeback != 0, w >= 0, c, c * c, capped != 0]
    return runs.sums(columns + [w == s for s in range(seats)])


SHARD_KEY = 1 << 40
"""(shard, game) as one number: ``shard * SHARD_KEY + game`` (games per shard stay far
below 2**40)."""


Column = pa.Array | pa.ChunkedArray
"""A column as pyarrow gives it."""


def arrow_array(column: Column) -> pa.Array:
    """The column as one Arrow array."""
    return column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column


def arrow_ints(column: Column, name: str) -> np.ndarray:
    """A pyarrow column without nulls as a numpy array of its own type."""
    if column.null_count:
        raise ChunkError(f"column {name!r} has {column.null_count} empty values")
    return arrow_array(column).to_numpy(zero_copy_only=False)


def reason_codes(column: Column, known: tuple[str, ...]) -> np.ndarray:
    """The end reason column as each row's index in ``known``, whose last entry, ``other``,
    takes every reason not listed. A dictionary-encoded column (as the runner writes it) is
    looked up once per dictionary entry, not per hand."""
    names = pa.array(known[:-1], pa.string())

    def index(values: pa.Array) -> np.ndarray:
        found = pc.index_in(values.cast(pa.string()), value_set=names)
        return np.asarray(found.fill_null(len(known) - 1)).astype(np.int64)

    codes = []
    for chunk in column.chunks if isinstance(column, pa.ChunkedArray) else [column]:
        if chunk.null_count:
            raise ChunkError(f"the end reason of {chunk.null_count} hands is empty")
        if not pa.types.is_dictionary(chunk.type):
            codes.append(index(chunk))
            continue
        try:
            chunk.validate(full=True)
        except pa.ArrowException as err:
            raise ChunkError(f"an end reason points outside its dictionary ({err})") from None
        codes.append(index(chunk.dictionary)[np.asarray(chunk.indices)])
    return np.concatenate(codes) if codes else np.zeros(0, np.int64)


HAND_COLUMNS = (
    "shard", "deal", "winner", "dealer", "players", "turns", "points", "game", "hand",
    "end_reason", "rotation", "hand_scores", *ACTIONS,
)  # fmt: skip
"""The columns of the hands files the report reads: ``game`` and ``hand`` find each game's
first deal, which gives its block."""

GAME_COLUMNS = (
    "shard", "rotation", "game", "hands", "winner", "final_scores", "lead_changes", "capped",
    "comeback",
)  # fmt: skip
"""The columns of the games files the report reads."""


def table_names(seats: int, known: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The columns after (shard, block) of each of :data:`TABLES`, in order."""
    hist = [("turns", "len"), ("points", "len"), ("hands", "len"), ("margin", "len")]
    return (hand_sum_names(seats, known), *hist[:2], game_sum_names(seats), *hist[2:],
            ("turns", "len"), ("seconds", "len"))  # fmt: skip


# ---- summaries in the hands file's footer ---------------------------------------------------

SUMMARY_KEY = b"rummysim.blocks"
"""The Parquet footer key (key-value metadata of the hands file, not of its Arrow schema) of
a shard's block tables."""

SUMMARY_VERSION = 7
"""The footer summaries' version (what each changed: docs/schema.md, "File metadata"); the
report reads the rows of a shard whose summary is of another."""

TABLES = (
    "hands", "turns", "points", "games", "hands_hist", "margin", "game_turns", "game_seconds",
)  # fmt: skip
"""A summary's tables, in order: the hand block sums, the histograms of turns and of points
per hand, the game block sums, and the histograms of hands per game, of final margins, of
turns per game and of seconds per game at the table."""


KEYED = (0, 1, 1, 0, 1, 1, 1, 1)
"""Key columns after (shard, block) of each of :data:`TABLES`: none in block sums, the value
in a histogram."""


@dataclass(frozen=True)
class Blocking:
    """How the report cuts hands and games into blocks and what its block sums hold: a
    summary is used only when it was made the same way."""

    block: int  # deals (or games) per block
    stride: int  # 1: deals one after another; GAME_DEAL_STRIDE: deals numbered per game
    seats: int  # seat columns of the sums (the dataset's largest table)
    known: tuple[str, ...]  # the end reasons counted, ``other`` last
    by_game: bool = False  # blocks of ``block`` game numbers (a run counted in games)
    seconds: tuple[float, ...] = ()  # the time model (``sim.dataset.timing.model_seconds``)

    def blocks(self, deal: np.ndarray, game: np.ndarray) -> np.ndarray:
        """Each hand's block, or each game's from its first deal (the deal of its hand 0): its
        game's (``game // block``) in a run counted in games, else its deal's (``deal //
        (stride * block)``; deals numbered per game make it the game's too)."""
        return game // self.block if self.by_game else deal // (self.stride * self.block)

    def header(self, *, teams: bool, shard: int) -> dict:
        """What a summary's header says of how it was made (JSON: tuples as lists)."""
        made = {**asdict(self), "known": list(self.known), "seconds": list(self.seconds)}
        return {**made, "version": SUMMARY_VERSION, "teams": teams, "shard": shard}


class SummaryError(ValueError):
    """A footer summary that cannot be decoded: the report reads the shard's rows instead."""


def hand_tables(hands: pa.Table, blocking: Blocking, *, teams: bool) -> tuple[Rows, Rows, Rows]:
    """A shard's hands as the runner writes them, as their block sums (every column of
    ``hand_sum_names(seats, known)``) and the per-block histograms of turns and points per
    hand. ``teams``: a partnership arm, read as two sides (seats 0 and 2 team A, 1 and 3
    team B)."""

    def ints(name: str) -> np.ndarray:
        return arrow_ints(hands.column(name), name)

    n = hands.num_rows
    reasons = reason_codes(hands.column("end_reason"), blocking.known)
    winner, dealer, players = ints("winner"), ints("dealer"), ints("players")
    if n and winner.min() < -1:
        raise ChunkError(f"a hand's winner is {int(winner.min())}: seats count from 0, -1 is none")
    if n and ((dealer < 0) | (dealer >= players)).any():
        raise ChunkError("a hand's dealer is not one of its seats")
    if teams:
        winner, dealer = np.where(winner >= 0, winner % 2, winner), dealer % 2
        players = np.full_like(players, 2)
    runs = Runs(ints("shard"), blocking.blocks(ints("deal"), ints("game")))
    turns, points = ints("turns"), ints("points")
    scored = side_points(hands.column("hand_scores"), dealer, players)
    sums = hand_run_sums(runs, winner, dealer, players, turns, points, reasons, blocking, scored)
    sums = np.concatenate([sums, runs.sums([ints(a) for a in ACTIONS])], 1)
    return (
        Rows(runs.shard, runs.block, sums),
        runs.histogram_rows(turns),
        runs.histogram_rows(points),
    )


def side_points(column: Column, dealer: np.ndarray, sides: np.ndarray) -> np.ndarray:
    """Each hand's dealer's side's score and the sum of every side's (int64[hands, 2]), from
    the ``hand_scores`` lists (one entry per seat; a partnership arm's first two are the
    teams', and ``dealer`` and ``sides`` are then already its team and 2)."""
    scores = arrow_array(column)
    if scores.null_count or scores.values.null_count:
        raise ChunkError("a hand's scores are empty")
    offsets = np.asarray(scores.offsets, np.int64)[:-1]
    values = np.asarray(scores.values, np.int64)
    if len(offsets) and (np.diff(np.asarray(scores.offsets)) < sides).any():
        raise ChunkError("a hand has fewer scores than sides")
    d = np.asarray(dealer, np.int64)
    total = np.zeros(len(offsets), np.int64)
    for s in range(int(np.max(sides, initial=0))):
        total += np.where(s < sides, values[np.minimum(offsets + s, len(values) - 1)], 0)
    dealer_score = values[offsets + d] if len(offsets) else total
    return np.stack([dealer_score, total], axis=1)


def hand_run_sums(
    runs, winner, dealer, players, turns, points, reasons, blocking, scored
) -> np.ndarray:
    """Per run of hands, the columns of ``hand_sum_names(seats, known)`` before
    :data:`ACTIONS`: hands, Σturns, Σturns², Σpoints, Σpoints², hands someone won, won by the
    dealer, won by the first player (the dealer's left), Σ the dealer's side's score, Σ every
    side's score (``scored``: :func:`side_points`); then per seat s the hands s won; then per
    end reason (``reasons``, each hand's index in ``blocking.known``) its hands. ``winner``
    is a seat or -1; the dealer is a seat."""
    w, d, t, p = (np.asarray(x, np.int64) for x in (winner, dealer, turns, points))
    first = np.where(d + 1 == np.asarray(players, np.int64), 0, d + 1)
    dp, sp = scored[:, 0], scored[:, 1]
    fixed = runs.sums([np.ones_like(t), t, t * t, p, p * p, w >= 0, w == d, w == first, dp, sp])
    wins = runs.tally(w, blocking.seats)
    return np.concatenate([fixed, wins, runs.tally(reasons, len(blocking.known))], axis=1)


def game_keys(shard: np.ndarray, rotation: np.ndarray, game: np.ndarray) -> np.ndarray:
    """(shard, rotation, game) as one number: a game of a mirrored run is played once per
    seat rotation under the same game number."""
    side = shard.astype(np.int64) * (MAX_PLAYERS + 1) + rotation.astype(np.int64)
    return side * SHARD_KEY + game.astype(np.int64)


def sums_per_game(hand_key: np.ndarray, values: np.ndarray, game_key: np.ndarray) -> np.ndarray:
    """Per game (by :func:`game_keys`), the sums over its hands (by the key of their game) of
    ``values`` (int[hands, k]). The runner writes hands in game order, so their keys come in
    runs; a game without hands is an error. (Hands of a game cut short at the end of a shard
    have no game row and are left out.)"""
    if len(hand_key) > 1 and (hand_key[1:] < hand_key[:-1]).any():
        order = np.argsort(hand_key, kind="stable")
        hand_key, values = hand_key[order], values[order]
    starts = np.flatnonzero(np.concatenate([[True], hand_key[1:] != hand_key[:-1]]))
    keys = hand_key[starts]
    if len(game_key) == 0:
        return np.zeros((0, values.shape[1]), np.int64)
    at = np.minimum(np.searchsorted(keys, game_key), max(len(keys) - 1, 0))
    if len(keys) == 0 or (keys[at] != game_key).any():
        raise ChunkError("a game has no hands among the hands")
    return np.add.reduceat(values.astype(np.int64), starts, axis=0)[at]


def game_tables_of(
    games: pa.Table, hands: pa.Table, blocking: Blocking, *, teams: bool
) -> tuple[Rows, Rows, Rows, Rows, Rows]:
    """Games as the runner writes them, summed per (shard, block: ``blocking.game_blocks``)
    into every column of ``game_sum_names(seats)``, and the per-block histograms of hands per
    game, final margins, turns per game and seconds per game at the table (the time model
    ``blocking.seconds`` over its hands' action counts, rounded to whole seconds). ``hands``,
    of the same shards, give each game's turns, seconds and first deal (the deal of its hand
    0, a sum over its hands of ``deal * (hand == 0)``); a game without hands is an error.

    The final margin is the winner's final score minus the best other side's (two sides for a
    partnership arm; negative in the rare gin game whose loser's box bonuses put him ahead,
    §3.17), or, in a game nobody won, the best final score minus the second best; a
    *comeback* (the runner's ``comeback`` column) is a game whose winner had fewer points than
    some other side before the last hand."""

    def column(table: pa.Table, name: str) -> np.ndarray:
        return arrow_ints(table.column(name), name)

    # the final scores, one list per game and as long in every game (one per seat), with no
    # value missing; of a partnership arm, the first two: the teams'
    scores = arrow_array(games.column("final_scores"))
    offsets = np.asarray(scores.offsets)
    sides = np.diff(offsets)
    if scores.null_count or scores.values.null_count or (sides != sides[:1]).any():
        raise ChunkError("the runner's final scores are not one per seat")
    if len(sides) and sides[0] < 2:
        raise ChunkError("a game has fewer than two final scores")
    final = np.asarray(scores.values, np.int64)[offsets[0] : offsets[-1]]
    final = final.reshape(-1, sides[0] if len(sides) else 2)[:, : 2 if teams else None]
    shard, game, hands_of = column(games, "shard"), column(games, "game"), column(games, "hands")
    winner = column(games, "winner")
    margin = final_margins(final, winner)

    timed = bool(blocking.seconds)
    charged = [column(hands, c)[:, None] for c in ("turns", *(ACTIONS if timed else ()))]
    first = (column(hands, "deal") * (column(hands, "hand") == 0))[:, None]
    per_game = sums_per_game(
        game_keys(column(hands, "shard"), column(hands, "rotation"), column(hands, "game")),
        np.concatenate([np.ones_like(first), *charged, first], axis=1),
        game_keys(shard, column(games, "rotation"), game),
    )
    runs = Runs(shard, blocking.blocks(per_game[:, -1], game))
    flags = column(games, "comeback"), winner, column(games, "lead_changes")
    sums = game_run_sums(runs, hands_of, margin, *flags, column(games, "capped"), blocking.seats)
    turns_rows = runs.histogram_rows(per_game[:, 1])
    seconds = np.zeros(len(game), np.int64)
    seconds_rows = Rows.empty(2)
    if timed:  # the model's seconds in the order hand, turn, meld, layoff, rebuild
        seconds = np.rint(per_game[:, :-1] @ np.asarray(blocking.seconds)).astype(np.int64)
        seconds_rows = runs.histogram_rows(seconds)
    sums = np.concatenate([sums, runs.sums([seconds])], axis=1)
    hists = [runs.histogram_rows(x) for x in (hands_of, margin)]
    return Rows(runs.shard, runs.block, sums), *hists, turns_rows, seconds_rows


def summary_for(hands: pa.Table, games: pa.Table, blocking: Blocking, *, teams: bool) -> bytes:
    """The footer value of one shard (its hands and games tables as the runner writes them):
    its :data:`TABLES` under ``blocking``."""
    shard = arrow_ints(hands.column("shard"), "shard")
    one_shard = int(shard[0]) if len(shard) else 0
    if (shard != one_shard).any() or (
        arrow_ints(games.column("shard"), "shard") != one_shard
    ).any():
        raise ChunkError("a summary is made of one shard's hands and games")
    tables = hand_tables(hands, blocking, teams=teams)
    tables += game_tables_of(games, hands, blocking, teams=teams)
    # a mirrored shard's rotations each start its blocks again: one row per key, in order
    tables = tuple(in_key_order(rows, keyed) for rows, keyed in zip(tables, KEYED, strict=True))
    header = blocking.header(teams=teams, shard=one_shard)
    header["rows"] = [len(t) for t in tables]
    header["widths"] = [t.columns.shape[1] for t in tables]
    raw = b"".join(np.concatenate([t.block, t.columns.reshape(-1)]).astype("<i8").tobytes()
                   for t in tables)  # fmt: skip
    header["bytes"] = len(raw)
    header["crc32"] = zlib.crc32(raw)
    packed = pa.compress(raw, codec="zstd", asbytes=True)
    return json.dumps(header, sort_keys=True).encode() + b"\n" + base64.b64encode(packed)


def summary_header(value: bytes | None) -> dict | None:
    """The header of a footer summary (None: none, or unreadable)."""
    if not value:
        return None
    head, _, _ = value.partition(b"\n")
    try:
        header = json.loads(head)
    except ValueError:
        return None
    return header if isinstance(header, dict) else None


def summary_fits(header: dict | None, blocking: Blocking, *, teams: bool) -> bool:
    """Whether a summary with this header holds the report's blocks."""
    if header is None:
        return False
    expected = blocking.header(teams=teams, shard=header.get("shard"))
    return all(header.get(key) == value for key, value in expected.items())


def read_summary(value: bytes) -> dict[str, Rows]:
    """A footer summary's :data:`TABLES`, by name, all rows of its one shard. Raises
    :class:`SummaryError` when it cannot be decoded or its values are not those written
    (their CRC-32 is in its header)."""
    header = summary_header(value)
    try:
        rows, widths, shard = header["rows"], header["widths"], int(header["shard"])
        packed = base64.b64decode(value.partition(b"\n")[2], validate=True)
        raw = pa.decompress(packed, decompressed_size=int(header["bytes"]), codec="zstd",
                            asbytes=True)  # fmt: skip
        if zlib.crc32(raw) != header["crc32"]:
            raise ValueError("its values are not those it was written with")
        tables = []
        at = 0
        for n, width in zip(rows, widths, strict=True):
            values = np.frombuffer(raw, "<i8", count=n * (width + 1), offset=at)
            at += values.nbytes
            block = values[:n].astype(np.int64)
            columns = values[n:].astype(np.int64).reshape(n, width)
            tables.append(Rows(np.full(n, shard, np.int64), block, columns))
        if at != len(raw) or len(tables) != len(TABLES):
            raise ValueError(f"{len(raw)} bytes for {at}")
    except (TypeError, KeyError, ValueError, OSError, pa.ArrowException) as err:
        raise SummaryError(f"an unreadable block summary ({err})") from None
    return dict(zip(TABLES, tables, strict=True))
