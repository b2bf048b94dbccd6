"""What the report reads of a dataset's files, and how its small tables become frames.

The report reads each arm's hands in chunks of whole files (:mod:`sim.report.metrics`),
only the columns below, all with pyarrow, and reduces each chunk with the very code the
runner keeps each shard's block tables in its footer with
(:func:`sim.dataset.summaries.hand_arrays`, :func:`~sim.dataset.summaries.game_tables_of`):
the runner writes hands in (shard, deal) order, so a chunk's rows come in runs of one
(shard, block), each summed by one numba kernel (:mod:`sim.dataset.summary_kernels`). A
chunk's tables are :class:`~sim.dataset.summaries.Rows`, numpy arrays; polars frames are
made once, from every chunk's rows together (:func:`frame_of`).

The hands' flat columns (``points``; the games' ``comeback``) carry what the score lists
would give, so the lists are read only for the skill comparison of mixed line-ups.
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pyarrow as pa

from sim.dataset.summaries import ChunkError, Rows, Runs, game_sum_names, hand_sum_names

__all__ = ["ChunkError", "Rows", "Runs", "game_sum_names", "hand_sum_names"]

HAND_COLUMNS = (
    "shard", "deal", "winner", "dealer", "players", "turns", "points", "game", "hand",
    "end_reason", "rotation",
)  # fmt: skip
"""The columns of the hands files the report reads (each once): ``game`` and ``hand`` find
each game's first deal, which gives its block, and with ``rotation`` its turns. pyarrow
decodes the end reason as its dictionary's indices (measured on 10M hands, one thread: 0.17 s
against 0.33 s for a polars Categorical) and the score lists in less time than polars (0.72 s
against 0.88 s)."""

SCORE_COLUMN = "hand_scores"
"""Read only for line-ups that mix bots: the points of each seat are what the skill
comparison needs, and every other statistic of a hand is in the flat columns (decoding the
lists took a third of the time spent reading a dataset)."""

GAME_COLUMNS = (
    "shard",
    "rotation",
    "game",
    "hands",
    "winner",
    "final_scores",
    "lead_changes",
    "capped",
    "comeback",
)
"""The columns of the games files the report reads."""


def polars_type(kind: pa.DataType) -> pl.DataType:
    """The polars type of an Arrow type, as ``pl.read_parquet`` would read it."""
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


def frame_of(rows: Rows, names: tuple[str, ...], dtypes: dict[str, pl.DataType]) -> pl.DataFrame:
    """The rows as a (shard, block, *names) frame; ``dtypes`` gives the types of the shard
    and of any name not ``Int64``."""
    data = {"shard": rows.shard, "block": rows.block}
    by_column = np.ascontiguousarray(rows.columns.T)  # each column in one piece: no copy
    data |= {name: by_column[i] for i, name in enumerate(names)}
    return pl.DataFrame(
        {k: pl.Series(v, dtype=pl.Int64).cast(dtypes.get(k, pl.Int64)) for k, v in data.items()}
    )
