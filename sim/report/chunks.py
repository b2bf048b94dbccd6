"""One chunk of an arm's hands, and the games of the same shards, reduced with numpy.

The report reads each arm's hands in chunks of whole files (:mod:`sim.report.metrics`).
Here a chunk becomes the small tables the report is made of, without a ``group_by`` per
table or a join:

* the runner writes hands in (shard, deal) order, so a chunk's rows come in :class:`Runs`
  of one (shard, block): every hand block sum (:func:`sim.report.metrics.hand_sum_names`)
  is an integer ``np.add.reduceat`` over the runs, and every count by value (end reasons,
  the per-block histograms of turns and points) one ``np.bincount`` over (run, value);
* the games' block sums and the histograms of hands per game and margins are counted over
  runs of (shard, game block) the same way.

The hands' flat columns (``points``; the games' ``comeback``) carry what the score lists
would give, so the lists are read only for the skill comparison of mixed line-ups.

Every function returns exactly what a ``group_by`` over the same rows gives (the tests check
this); rows out of order only make more runs of a block, summed by the caller.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.compute as pc

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


def ints(series: pl.Series) -> np.ndarray:
    """A column without nulls as a numpy array of its own integer type (no copy)."""
    if series.null_count():
        raise ChunkError(f"column {series.name!r} has {series.null_count()} empty values")
    return series.to_numpy()


Column = pl.Series | pa.Array | pa.ChunkedArray
"""A column as polars or pyarrow gives it."""


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


def reason_codes(column: Column, known: tuple[str, ...]) -> np.ndarray:
    """Each hand's end reason as its index in ``known``, whose last entry, ``other``, takes
    every reason not listed. A dictionary-encoded column (as the runner writes it) is looked
    up once per dictionary, not per hand."""
    arr = column.to_arrow() if isinstance(column, pl.Series) else column
    chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
    other = len(known) - 1
    names = pa.array(known[:-1], pa.string())

    def index(values: pa.Array) -> np.ndarray:
        found = pc.index_in(values.cast(pa.string()), value_set=names)
        return np.asarray(found.fill_null(other)).astype(np.int64)

    parts = []
    for chunk in chunks:
        if chunk.null_count:
            raise ChunkError(f"the end reason of {chunk.null_count} hands is empty")
        if pa.types.is_dictionary(chunk.type):
            parts.append(index(chunk.dictionary)[np.asarray(chunk.indices)])
        else:
            parts.append(index(chunk))
    return np.concatenate(parts) if parts else np.zeros(0, np.int64)


class Runs:
    """Rows cut into runs of equal (shard, block): the report's rows come sorted by shard and
    deal (or game), so a run is a whole block of the chunk. Sums per run are exact integer
    ``np.add.reduceat``; rows out of order only make more runs of the same block, which the
    caller sums by (shard, block) afterwards."""

    def __init__(self, shard: np.ndarray, block: np.ndarray) -> None:
        n = len(shard)
        if n:
            change = (shard[1:] != shard[:-1]) | (block[1:] != block[:-1])
            self.starts = np.concatenate([[0], np.flatnonzero(change) + 1])
        else:
            self.starts = np.zeros(0, np.int64)
        self.counts = np.diff(np.append(self.starts, n))
        self.shard = shard[self.starts]
        self.block = block[self.starts]
        self.index = np.repeat(np.arange(len(self.starts)), self.counts)  # each row's run

    def __len__(self) -> int:
        return len(self.starts)

    def total(self, values: np.ndarray) -> np.ndarray:
        """Sum of ``values`` (or count of a boolean mask) per run, as int64."""
        if len(self.starts) == 0:
            return np.zeros(0, np.int64)
        return np.add.reduceat(values, self.starts, dtype=np.int64)

    def by_value(self, values: np.ndarray, width: int) -> np.ndarray:
        """(runs, width) counts of rows per run and value in ``0..width-1``."""
        flat = np.bincount(self.index * width + values, minlength=len(self.starts) * width)
        return flat.reshape(len(self.starts), width)

    def histogram(self, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(run, value, count) of every pair that occurs, sorted by run then value: a
        ``group_by(shard, block, value).len()`` within each run."""
        if len(values) == 0:
            empty = np.zeros(0, np.int64)
            return empty, empty, empty
        low = int(values.min())
        width = int(values.max()) - low + 1
        if len(self.starts) * width <= DENSE_LIMIT:
            counts = self.by_value(values - low, width).reshape(-1)
            nz = np.flatnonzero(counts)
            return nz // width, nz % width + low, counts[nz]
        frame = pl.DataFrame({"k": self.index, "v": values}).group_by("k", "v").len().sort("k", "v")
        return frame["k"].to_numpy(), frame["v"].to_numpy(), frame["len"].to_numpy()

    def histogram_frame(
        self, values: np.ndarray, name: str, dtype: pl.DataType, shard_dtype: pl.DataType
    ) -> pl.DataFrame:
        """:meth:`histogram` as the report's (shard, block, value, len) table."""
        k, v, c = self.histogram(values)
        return pl.DataFrame(
            {
                "shard": pl.Series(self.shard[k], dtype=pl.Int64).cast(shard_dtype),
                "block": pl.Series(self.block[k], dtype=pl.Int64),
                name: pl.Series(v, dtype=pl.Int64).cast(dtype),
                "len": pl.Series(c, dtype=pl.Int64).cast(pl.UInt32),
            }
        )

    def frame(self, cols: dict[str, np.ndarray], shard_dtype: pl.DataType) -> pl.DataFrame:
        """``cols`` (one value per run) with the runs' shard and block in front."""
        return pl.DataFrame(
            {
                "shard": pl.Series(self.shard, dtype=pl.Int64).cast(shard_dtype),
                "block": pl.Series(self.block, dtype=pl.Int64),
                **{c: pl.Series(v, dtype=pl.Int64) for c, v in cols.items()},
            }
        )


class Hands:
    """A chunk's hands as numpy arrays: what the block sums and the games need. ``frame``
    holds the :data:`HAND_COLUMNS`, ``extra`` the :data:`ARROW_COLUMNS` of the same rows.

    ``seats`` is the report's number of seat columns (the largest table); ``teams``: a
    partnership arm, read as two sides (the winner and dealer become their team, seats 0
    and 2 team A, 1 and 3 team B, and the scores the two teams'). ``extra`` holds
    :data:`SCORE_COLUMN` only where the line-up mixes bots; elsewhere each seat's points
    (``scores``) are zeros."""

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
        self.turns = ints(frame["turns"]).astype(np.int64)  # squared below
        if extra.num_rows != frame.height:
            raise ChunkError(f"{extra.num_rows} end reasons and scores for {frame.height} hands")
        self.reason = reason_codes(extra.column("end_reason"), known)
        if SCORE_COLUMN in extra.column_names:
            self.scores, _ = list_columns(extra.column(SCORE_COLUMN), 2 if teams else seats)
        else:
            self.scores = []
        if teams:
            self.winner = np.where(self.winner >= 0, self.winner % 2, self.winner)
            self.dealer = self.dealer % 2
            self.players = np.full_like(self.players, 2)
        self.points = ints(frame["points"]).astype(np.int64)  # squared below
        self.scores += [np.zeros(len(self.shard), np.int64)] * (seats - len(self.scores))
        self.runs = Runs(self.shard, ints(frame["deal"]) // (unit_stride * block))
        self.shard_dtype = frame.schema["shard"]

    def histogram_frame(self, name: str) -> pl.DataFrame:
        """The per-block histogram of turns or points per hand."""
        values = self.turns if name == "turns" else self.points
        dtype = self.frame.schema["turns"] if name == "turns" else pl.Int64
        return self.runs.histogram_frame(values, name, dtype, self.shard_dtype)


def hand_block_sums(hands: Hands, seats: int, known: tuple[str, ...]) -> pl.DataFrame:
    """Per (shard, block) of the chunk: every column of ``hand_sum_names(seats, known)``."""
    runs = hands.runs
    winner, dealer, players = hands.winner, hands.dealer, hands.players
    if len(winner) and winner.min() < -1:
        raise ChunkError(f"a hand's winner is {int(winner.min())}: seats count from 0, -1 is none")
    reasons = runs.by_value(hands.reason, len(known))
    turns, points = hands.turns, hands.points
    cols: dict[str, np.ndarray] = {
        "n": runs.counts,
        "turns": runs.total(turns),
        "turns2": runs.total(turns * turns),
        "points": runs.total(points),
        "points2": runs.total(points * points),
        "decided": runs.total(winner >= 0),
        "dealer_win": runs.total(winner == dealer),
        "first_win": runs.total(winner == (dealer + 1) % players),
    }
    for s in range(seats):
        cols[f"win{s}"] = runs.total(winner == s)
    for s in range(seats):
        cols[f"seats{s}"] = runs.total(players > s)
    for s in range(seats):
        cols[f"pts{s}"] = runs.total(hands.scores[s])
    for i, name in enumerate(known):
        cols[f"r_{name}"] = reasons[:, i]
    return runs.frame(cols, hands.shard_dtype)


def game_block_sums(
    games: pl.DataFrame, *, seats: int, teams: bool, game_block: int
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The chunk's games summed per (shard, game block): every column of
    ``game_sum_names(seats)``; and the per-block histograms of hands per game and margins.

    The final margin is the winner's final score minus the best other side's (two sides for a
    partnership arm; negative in the rare gin game whose loser's box bonuses put him ahead,
    §3.17), or, in a game nobody won, the best final score minus the second best; a
    *comeback* (the runner's ``comeback`` column) is a game whose winner had fewer points than
    some other side before the last hand."""
    shard, winner = ints(games["shard"]), ints(games["winner"]).astype(np.int64)
    n_hands = ints(games["hands"]).astype(np.int64)
    lead_changes = ints(games["lead_changes"]).astype(np.int64)  # squared below
    columns, length = list_columns(games["final_scores"], 2 if teams else seats)
    if len(length) and length.min() < 2:
        raise ChunkError("a game has fewer than two final scores")
    final = np.stack(columns, axis=1).astype(np.int64)
    width = final.shape[1]
    real = np.arange(width)[None, :] < length[:, None]
    lowest = np.iinfo(np.int64).min // 4
    scores = np.where(real, final, lowest)
    ranked = -np.sort(-scores, axis=1)
    margin = ranked[:, 0] - ranked[:, 1]
    won = np.flatnonzero((winner >= 0) & (winner < length))
    if len(won):
        mine = scores[won, winner[won]]
        others = scores[won].copy()
        others[np.arange(len(won)), winner[won]] = lowest
        margin[won] = mine - others.max(axis=1)
    runs = Runs(shard, ints(games["game"]) // game_block)
    cols = {
        "n": runs.counts,
        "hands": runs.total(n_hands),
        "hands2": runs.total(n_hands * n_hands),
        "margin": runs.total(margin),
        "margin2": runs.total(margin * margin),
        "comeback": runs.total(ints(games["comeback"].cast(pl.Int64)) != 0),
        "decided": runs.total(winner >= 0),
        "lead_changes": runs.total(lead_changes),
        "lead_changes2": runs.total(lead_changes * lead_changes),
        "capped": runs.total(ints(games["capped"].cast(pl.Int64)) != 0),
    }
    for s in range(seats):
        cols[f"gwin{s}"] = runs.total(winner == s)
    shard_dtype = games.schema["shard"]
    return (
        runs.frame(cols, shard_dtype),
        runs.histogram_frame(n_hands, "hands", pl.Int64, shard_dtype),
        runs.histogram_frame(margin, "margin", pl.Int64, shard_dtype),
    )
