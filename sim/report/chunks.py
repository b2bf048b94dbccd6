"""One chunk of an arm's hands, and the games of the same shards, reduced in one pass.

The report reads each arm's hands in chunks of whole files (:mod:`sim.report.metrics`).
Here a chunk becomes the small tables the report is made of, without a ``group_by`` per
table or a join:

* the runner writes hands in (shard, deal) order, so a chunk's rows come in :class:`Runs`
  of one (shard, block): every hand block sum (:func:`hand_sum_names`),
  the end reasons' counts among them, is added up per run by one kernel
  (:mod:`sim.report.kernels`), and the per-block histograms of turns and points are counted
  per run the same way;
* the games' block sums and the histograms of hands per game and margins are counted over
  runs of (shard, game block) likewise.

A chunk's tables are :class:`Rows`, numpy arrays: polars frames are made once, from every
chunk's rows together (building a few small frames per chunk cost more than reducing it).

The hands' flat columns (``points``; the games' ``comeback``) carry what the score lists
would give, so the lists are read only for the skill comparison of mixed line-ups.

Every function returns exactly what a ``group_by`` over the same rows gives (the tests check
this); rows out of order only make more runs of a block, summed by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

from sim.report import kernels
from sim.rules.model import MAX_PLAYERS

HAND_COLUMNS = ("shard", "deal", "winner", "dealer", "players", "turns", "points")
"""The columns of the hands files the report reads with polars (each once)."""

ARROW_COLUMNS = ("end_reason",)
"""The columns read with pyarrow's Parquet reader, which decodes them faster than polars
(measured on 10M hands, one thread: the end reason kept as its dictionary's indices 0.17 s
against 0.33 s for a polars Categorical, the score lists 0.72 s against 0.88 s)."""

SCORE_COLUMN = "hand_scores"
"""Read (with pyarrow, as :data:`ARROW_COLUMNS`) only for line-ups that mix bots: the points
of each seat are what the skill comparison needs, and every other statistic of a hand is in
the flat columns (decoding the lists took a third of the time spent reading a dataset)."""

GAME_COLUMNS = (
    "shard",
    "game",
    "hands",
    "winner",
    "final_scores",
    "lead_changes",
    "capped",
    "comeback",
)
"""The columns of the games files the report reads."""

DENSE_LIMIT = 1 << 24
"""Largest (runs × values) table a histogram counts densely (``bincount``); a sparser one
is counted with a ``group_by``."""


class ChunkError(ValueError):
    """A chunk the report cannot read (a null where every hand has a value)."""


Column = pl.Series | pa.Array | pa.ChunkedArray
"""A column as polars or pyarrow gives it."""


def ints(column: Column, name: str = "") -> np.ndarray:
    """A column without nulls as a numpy array of its own integer (or boolean) type: a view
    of a polars column, or of a pyarrow column in one chunk."""
    if isinstance(column, pl.Series):
        name, missing = column.name, column.null_count()
    else:
        missing = column.null_count
    if missing:
        raise ChunkError(f"column {name!r} has {missing} empty values")
    if isinstance(column, pl.Series):
        return column.to_numpy()
    return _arrow(column).to_numpy(zero_copy_only=False)


def polars_type(column: Column) -> pl.DataType:
    """The polars type of a polars or pyarrow column (as ``pl.read_parquet`` would read it)."""
    if isinstance(column, pl.Series):
        return column.dtype
    return pl.from_arrow(pa.array([], type=column.type)).dtype


def _arrow(column: Column) -> pa.Array:
    """The column as one Arrow array."""
    arr = column.to_arrow() if isinstance(column, pl.Series) else column
    return arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr


def list_columns(column: Column, width: int) -> tuple[list[np.ndarray], np.ndarray]:
    """A list column as ``width`` integer columns (column ``s``: element ``s`` of each list,
    0 past its end or where missing, as ``list.get(s, null_on_oob=True).fill_null(0)``) and
    each row's length, capped at ``width``. Where every list has the same length and no
    value is missing (every hand's scores), the columns are views of the list's values."""
    arr = _arrow(column)
    n = len(arr)
    offsets = np.asarray(arr.offsets)
    lengths = np.diff(offsets)
    if n and not arr.null_count and not arr.values.null_count:
        step = int(lengths[0])
        if step and (lengths == step).all():
            values = np.asarray(arr.values)[offsets[0] : offsets[-1]]
            zero = np.zeros(n, values.dtype)
            cols = [values[s::step] if s < step else zero for s in range(width)]
            return cols, np.full(n, min(step, width), np.int64)
    if arr.null_count:
        lengths = np.where(np.asarray(arr.is_null()), 0, lengths)
    series = pl.Series(arr)
    cols = [
        series.list.get(s, null_on_oob=True).fill_null(0).cast(pl.Int64).to_numpy()
        for s in range(width)
    ]
    return cols, np.minimum(lengths, width).astype(np.int64)


def reason_dictionary(column: Column, known: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The end reason column as ``(codes, reason_of)``: row i's reason is ``known``'s entry
    ``reason_of[codes[i]]``, whose last entry, ``other``, takes every reason not listed. A
    dictionary-encoded column (as the runner writes it) keeps its indices as the codes and
    is looked up once per dictionary entry, not per hand; any other column's codes are the
    entries of ``known`` themselves."""
    arr = column.to_arrow() if isinstance(column, pl.Series) else column
    chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
    other = len(known) - 1
    names = pa.array(known[:-1], pa.string())

    def index(values: pa.Array) -> np.ndarray:
        found = pc.index_in(values.cast(pa.string()), value_set=names)
        return np.asarray(found.fill_null(other)).astype(np.int64)

    for chunk in chunks:
        if chunk.null_count:
            raise ChunkError(f"the end reason of {chunk.null_count} hands is empty")
    if chunks and all(pa.types.is_dictionary(chunk.type) for chunk in chunks):
        try:  # 32-bit indices: the files' dictionaries together may outgrow the runner's int8
            wide = [c.cast(pa.dictionary(pa.int32(), c.type.value_type)) for c in chunks]
            combined = pa.chunked_array(wide).unify_dictionaries().combine_chunks()
        except pa.ArrowException as err:
            raise ChunkError(f"cannot read the end reasons ({err})") from None
        codes = np.asarray(combined.indices)
        reason_of = index(combined.dictionary)
        if len(codes) and not 0 <= codes.min() <= codes.max() < len(reason_of):
            raise ChunkError("an end reason points outside its column's dictionary")
        return codes, reason_of
    codes = [index(chunk) for chunk in chunks]
    together = np.concatenate(codes) if codes else np.zeros(0, np.int64)
    return together, np.arange(len(known), dtype=np.int64)


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

    def histogram(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(run, value, count) of every pair that occurs, sorted by run then value: a
        ``group_by(shard, block, value).len()`` within each run."""
        if len(values) == 0:
            empty = np.zeros(0, np.int64)
            return empty, empty, empty
        low = int(values.min())
        width = int(values.max()) - low + 1
        if len(self.starts) * width <= DENSE_LIMIT:
            counts = np.zeros((len(self.starts), width), np.int64)
            kernels.run_histogram(self.starts, values, low, counts)
            flat = counts.reshape(-1)
            nz = np.flatnonzero(flat)
            return nz // width, nz % width + low, flat[nz]
        index = np.repeat(np.arange(len(self.starts)), self.counts)  # each row's run
        frame = pl.DataFrame({"k": index, "v": values}).group_by("k", "v").len().sort("k", "v")
        return frame["k"].to_numpy(), frame["v"].to_numpy(), frame["len"].to_numpy()

    def histogram_rows(self, values: np.ndarray) -> Rows:
        """:meth:`histogram` as rows of the report's (shard, block, value, len) table."""
        k, v, c = self.histogram(values)
        return Rows(self.shard[k], self.block[k], np.stack([v, c], axis=1).astype(np.int64))

    def sum_rows(self, sums: np.ndarray) -> Rows:
        """The runs' ``sums`` (int64[runs, columns]) as rows, each with its shard and block."""
        return Rows(self.shard, self.block, sums)


@dataclass(frozen=True)
class Rows:
    """Rows of one of a chunk's small tables, kept in numpy until every chunk is read
    (:mod:`sim.report.metrics` makes each table one polars frame at the end): each row's
    ``shard`` and ``block`` and its ``columns`` (int64[rows, columns], in the order of the
    table's names: a histogram's value and count, or a block's sums)."""

    shard: np.ndarray
    block: np.ndarray
    columns: np.ndarray

    def __len__(self) -> int:
        return len(self.shard)

    def frame(self, names: tuple[str, ...], dtypes: dict[str, pl.DataType]) -> pl.DataFrame:
        """The rows as a (shard, block, *names) frame; ``dtypes`` gives the types of the
        shard and of any name not ``Int64``."""
        data = {"shard": self.shard, "block": self.block}
        data |= {name: self.columns[:, i] for i, name in enumerate(names)}
        return pl.DataFrame(
            {k: pl.Series(v, dtype=pl.Int64).cast(dtypes.get(k, pl.Int64)) for k, v in data.items()}
        )


def hand_sum_names(seats: int, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of a hand block, in order (``kernels.hand_run_sums``' columns)."""
    return (
        ("n", "turns", "turns2", "points", "points2", "decided", "dealer_win", "first_win")
        + tuple(f"win{s}" for s in range(seats))
        + tuple(f"seats{s}" for s in range(seats))
        + tuple(f"pts{s}" for s in range(seats))
        + tuple(f"r_{r}" for r in reasons)
    )


def game_sum_names(seats: int) -> tuple[str, ...]:
    """The columns of a game block, in order (``kernels.game_run_sums``' columns)."""
    return (
        "n",
        "hands",
        "hands2",
        "margin",
        "margin2",
        "comeback",
        "decided",
        "lead_changes",
        "lead_changes2",
        "capped",
    ) + tuple(f"gwin{s}" for s in range(seats))


class Hands:
    """A chunk's hands as numpy arrays: what the block sums and the games need. ``frame``
    holds the :data:`HAND_COLUMNS`, ``extra`` the :data:`ARROW_COLUMNS` of the same rows.

    ``seats`` is the report's number of seat columns (the largest table); ``teams``: a
    partnership arm, read as two sides (the winner and dealer become their team, seats 0
    and 2 team A, 1 and 3 team B, and the scores the two teams'). ``extra`` holds
    :data:`SCORE_COLUMN` only where the line-up mixes bots; elsewhere ``scores`` has no
    rows (each seat's points are not summed)."""

    def __init__(
        self,
        frame: pl.DataFrame,
        extra: pa.Table,
        *,
        unit_stride: int,
        block: int,
        seats: int,
        teams: bool,
        known: tuple[str, ...],
    ) -> None:
        self.frame = frame
        self.shard = ints(frame["shard"])
        self.winner = ints(frame["winner"])
        self.dealer = ints(frame["dealer"])
        self.players = ints(frame["players"])
        self.turns = ints(frame["turns"])
        self.points = ints(frame["points"])
        if extra.num_rows != frame.height:
            raise ChunkError(f"{extra.num_rows} end reasons and scores for {frame.height} hands")
        self.codes, self.reason_of = reason_dictionary(extra.column("end_reason"), known)
        self.scores = np.zeros((0, seats), np.int64)
        if SCORE_COLUMN in extra.column_names:
            columns, _ = list_columns(extra.column(SCORE_COLUMN), 2 if teams else seats)
            self.scores = np.zeros((frame.height, seats), np.int64)
            for s, column in enumerate(columns):
                self.scores[:, s] = column
        if teams:
            self.winner = np.where(self.winner >= 0, self.winner % 2, self.winner)
            self.dealer = self.dealer % 2
            self.players = np.full_like(self.players, 2)
        self.runs = Runs(self.shard, ints(frame["deal"]) // (unit_stride * block))
        self.shard_dtype = frame.schema["shard"]
        self.turns_dtype = frame.schema["turns"]

    def histogram(self, name: str) -> Rows:
        """The per-block histogram of turns or points per hand."""
        return self.runs.histogram_rows(self.turns if name == "turns" else self.points)


def hand_block_sums(hands: Hands, seats: int, known: tuple[str, ...]) -> Rows:
    """Per (shard, block) of the chunk: every column of ``hand_sum_names(seats, known)``."""
    runs = hands.runs
    if len(hands.winner) and hands.winner.min() < -1:
        low = int(hands.winner.min())
        raise ChunkError(f"a hand's winner is {low}: seats count from 0, -1 is none")
    if len(hands.players) and not 1 <= hands.players.min() <= hands.players.max() <= MAX_PLAYERS:
        low, high = int(hands.players.min()), int(hands.players.max())
        raise ChunkError(f"hands of {low} to {high} players: 1 to {MAX_PLAYERS} are possible")
    if len(hands.dealer) and ((hands.dealer < 0) | (hands.dealer >= hands.players)).any():
        raise ChunkError("a hand's dealer is not one of its seats")
    names = hand_sum_names(seats, known)
    sums = np.zeros((len(runs), len(names)), np.int64)
    kernels.hand_run_sums(
        runs.starts, hands.winner, hands.dealer, hands.players, hands.turns, hands.points,
        hands.codes, hands.reason_of, hands.scores, sums,
    )  # fmt: skip
    return runs.sum_rows(sums)


def game_block_sums(
    games: pa.Table, *, seats: int, teams: bool, game_block: int
) -> tuple[Rows, Rows, Rows]:
    """The chunk's games (:data:`GAME_COLUMNS`, as pyarrow reads them) summed per (shard,
    game block): every column of ``game_sum_names(seats)``; and the per-block histograms of
    hands per game and margins.

    The final margin is the winner's final score minus the best other side's (two sides for a
    partnership arm; negative in the rare gin game whose loser's box bonuses put him ahead,
    §3.17), or, in a game nobody won, the best final score minus the second best; a
    *comeback* (the runner's ``comeback`` column) is a game whose winner had fewer points than
    some other side before the last hand."""

    def column(name: str) -> np.ndarray:
        return ints(games.column(name), name)

    shard, winner = column("shard"), column("winner")
    n_hands = column("hands")
    columns, length = list_columns(games.column("final_scores"), 2 if teams else seats)
    if len(length) and length.min() < 2:
        raise ChunkError("a game has fewer than two final scores")
    final = np.stack(columns, axis=1).astype(np.int64)
    margin = np.zeros(len(length), np.int64)
    kernels.final_margins(final, length, winner, margin)
    runs = Runs(shard, column("game") // game_block)
    names = game_sum_names(seats)
    sums = np.zeros((len(runs), len(names)), np.int64)
    kernels.game_run_sums(
        runs.starts, n_hands, margin, column("comeback"), winner,
        column("lead_changes"), column("capped"), sums,
    )  # fmt: skip
    return runs.sum_rows(sums), runs.histogram_rows(n_hands), runs.histogram_rows(margin)
