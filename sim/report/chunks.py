"""One chunk of an arm's hands, and the games of the same shards, reduced in one pass.

The report reads each arm's hands in chunks of whole files (:mod:`sim.report.metrics`).
Here a chunk becomes the small tables the report is made of, without a ``group_by`` per
table or a join:

* the runner writes hands in (shard, deal) order, so a chunk's rows come in :class:`Runs`
  of one (shard, block): every hand block sum (:func:`hand_sum_names`),
  the end reasons' counts among them, is added up per run by one kernel
  (:mod:`sim.dataset.summary_kernels`), and the per-block histograms of turns and points are counted
  per run the same way;
* the games' block sums and the histograms of hands per game and margins are counted over
  runs of (shard, game block) likewise.

A chunk's tables are :class:`~sim.dataset.summaries.Rows`, numpy arrays: polars frames are made
once, from every chunk's rows together (building a few small frames per chunk cost more than
reducing it). The hands' part is :mod:`sim.dataset.summaries`' (numpy alone), which the runner
also uses to keep each shard's hand blocks in its file's footer.

The hands' flat columns (``points``; the games' ``comeback``) carry what the score lists
would give, so the lists are read only for the skill comparison of mixed line-ups.

Every function returns exactly what a ``group_by`` over the same rows gives (the tests check
this); rows out of order only make more runs of a block, summed by the caller.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from sim.dataset.summaries import (
    Blocking,
    ChunkError,
    HandArrays,
    Rows,
    Runs,
    arrow_array,
    arrow_ints,
    first_deals,
    game_sum_names,
    game_tables,
    hand_sum_names,
    uniform_list_columns,
)
from sim.dataset.summaries import reason_dictionary as _reason_dictionary

__all__ = [
    "ChunkError",
    "Rows",
    "Runs",
    "first_deals",
    "game_sum_names",
    "hand_sum_names",
    "reason_dictionary",
]

HAND_COLUMNS = (
    "shard", "deal", "winner", "dealer", "players", "turns", "points", "game", "hand",
)  # fmt: skip
"""The columns of the hands files the report reads with polars (each once): ``game`` and
``hand`` find each game's first deal, which gives its block."""

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


Column = pl.Series | pa.Array | pa.ChunkedArray
"""A column as polars or pyarrow gives it."""


def ints(column: Column, name: str = "") -> np.ndarray:
    """A column without nulls as a numpy array of its own integer (or boolean) type: a view
    of a polars column, or of a pyarrow column in one chunk."""
    if not isinstance(column, pl.Series):
        return arrow_ints(column, name)
    if column.null_count():
        raise ChunkError(f"column {column.name!r} has {column.null_count()} empty values")
    return column.to_numpy()


def polars_type(column: Column | pa.DataType) -> pl.DataType:
    """The polars type of a polars or pyarrow column, or of an Arrow type (as
    ``pl.read_parquet`` would read it)."""
    if isinstance(column, pl.Series):
        return column.dtype
    kind = column if isinstance(column, pa.DataType) else column.type
    known = _POLARS_INTS.get(kind)
    if known is not None:
        return known
    return pl.from_arrow(pa.array([], type=kind)).dtype


_POLARS_INTS: dict[pa.DataType, pl.DataType] = {
    pa.int8(): pl.Int8,
    pa.int16(): pl.Int16,
    pa.int32(): pl.Int32,
    pa.int64(): pl.Int64,
    pa.uint8(): pl.UInt8,
    pa.uint16(): pl.UInt16,
    pa.uint32(): pl.UInt32,
    pa.uint64(): pl.UInt64,
}
"""The integer types the runner writes, as polars reads them (``pl.from_arrow``'s first call
takes a quarter of a second to set itself up)."""


def _arrow(column: Column) -> pa.Array:
    """The column as one Arrow array."""
    return arrow_array(column.to_arrow() if isinstance(column, pl.Series) else column)


def list_columns(column: Column, width: int) -> tuple[list[np.ndarray], np.ndarray]:
    """A list column as ``width`` integer columns (column ``s``: element ``s`` of each list,
    0 past its end or where missing, as ``list.get(s, null_on_oob=True).fill_null(0)``) and
    each row's length, capped at ``width``. Where every list has the same length and no
    value is missing (every hand's scores), the columns are views of the list's values."""
    arr = _arrow(column)
    n = len(arr)
    lengths = np.diff(np.asarray(arr.offsets))
    uniform = uniform_list_columns(arr, width)
    if uniform is not None:
        return uniform, np.full(n, min(int(lengths[0]), width), np.int64)
    if arr.null_count:
        lengths = np.where(np.asarray(arr.is_null()), 0, lengths)
    series = pl.Series(arr)
    cols = [
        series.list.get(s, null_on_oob=True).fill_null(0).cast(pl.Int64).to_numpy()
        for s in range(width)
    ]
    return cols, np.minimum(lengths, width).astype(np.int64)


def reason_dictionary(column: Column, known: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sim.dataset.summaries.reason_dictionary` of a polars or pyarrow column."""
    return _reason_dictionary(column.to_arrow() if isinstance(column, pl.Series) else column, known)


def frame_of(rows: Rows, names: tuple[str, ...], dtypes: dict[str, pl.DataType]) -> pl.DataFrame:
    """The rows as a (shard, block, *names) frame; ``dtypes`` gives the types of the shard
    and of any name not ``Int64``."""
    data = {"shard": rows.shard, "block": rows.block}
    by_column = np.ascontiguousarray(rows.columns.T)  # each column in one piece: no copy
    data |= {name: by_column[i] for i, name in enumerate(names)}
    return pl.DataFrame(
        {k: pl.Series(v, dtype=pl.Int64).cast(dtypes.get(k, pl.Int64)) for k, v in data.items()}
    )


class Hands(HandArrays):
    """A chunk's hands read from files: ``frame`` holds the :data:`HAND_COLUMNS`, ``extra``
    the :data:`ARROW_COLUMNS` of the same rows, and :data:`SCORE_COLUMN` only where the
    line-up mixes bots (elsewhere each seat's points are not summed). ``blocking`` says how
    hands fall into blocks; ``seats`` in it is the report's number of seat columns (the
    largest table); ``teams``: a partnership arm, read as two sides
    (:class:`~sim.dataset.summaries.HandArrays`)."""

    def __init__(
        self, frame: pl.DataFrame, extra: pa.Table, *, blocking: Blocking, teams: bool
    ) -> None:
        if extra.num_rows != frame.height:
            raise ChunkError(f"{extra.num_rows} end reasons and scores for {frame.height} hands")
        seats = blocking.seats
        codes, reason_of = reason_dictionary(extra.column("end_reason"), blocking.known)
        scores = np.zeros((0, seats), np.int64)
        if SCORE_COLUMN in extra.column_names:
            columns, _ = list_columns(extra.column(SCORE_COLUMN), 2 if teams else seats)
            scores = np.zeros((frame.height, seats), np.int64)
            for s, column in enumerate(columns):
                scores[:, s] = column
        self.deal, self.game = ints(frame["deal"]), ints(frame["game"])
        self.hand = ints(frame["hand"])
        super().__init__(
            shard=ints(frame["shard"]),
            block_of=blocking.hand_blocks(self.deal, self.game),
            winner=ints(frame["winner"]),
            dealer=ints(frame["dealer"]),
            players=ints(frame["players"]),
            turns=ints(frame["turns"]),
            points=ints(frame["points"]),
            codes=codes,
            reason_of=reason_of,
            scores=scores,
            teams=teams,
        )
        self.shard_dtype = frame.schema["shard"]
        self.turns_dtype = frame.schema["turns"]

    def first_deals(self, games: pa.Table) -> np.ndarray:
        """The first deal of each of ``games`` (of the same shards as these hands)."""
        return first_deals(
            self.shard, self.game, self.hand, self.deal,
            ints(games.column("shard"), "shard"), ints(games.column("game"), "game"),
        )  # fmt: skip


def game_block_sums(
    games: pa.Table, hands: Hands | None, *, blocking: Blocking, teams: bool
) -> tuple[Rows, Rows, Rows]:
    """The chunk's games (:data:`GAME_COLUMNS`, as pyarrow reads them) summed per (shard,
    block: :meth:`~sim.dataset.summaries.Blocking.game_blocks`, the block of a game's first deal
    among ``hands``, of the same shards, or of its number): :func:`~sim.dataset.summaries.
    game_tables`."""

    def column(name: str) -> np.ndarray:
        return ints(games.column(name), name)

    seats = blocking.seats
    columns, length = list_columns(games.column("final_scores"), 2 if teams else seats)
    return game_tables(
        shard=column("shard"),
        block_of=blocking.game_blocks(column("game"), lambda: hands.first_deals(games)),
        hands=column("hands"),
        winner=column("winner"),
        final=np.stack(columns, axis=1).astype(np.int64),
        length=length,
        lead_changes=column("lead_changes"),
        capped=column("capped"),
        comeback=column("comeback"),
        seats=seats,
    )
