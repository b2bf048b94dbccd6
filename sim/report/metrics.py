"""Per-arm aggregates of a dataset: the block tables kept in its files' footers, or, where
a footer is missing or not of the report's blocking, made from the rows.

The hands are read once, in chunks of whole files of at most :data:`CHUNK_ROWS` hands of
one arm and only the columns the report needs (:data:`~sim.report.chunks.HAND_COLUMNS`), so
memory depends on the chunk size, the number of arms, blocks and distinct values, not on
the number of hands. Each chunk is reduced in one pass, by the code the runner makes the
footers with (:mod:`sim.dataset.summaries`, :mod:`sim.dataset.summary_kernels`), to its
block sums, its per-block histograms and its games' block sums; the chunks' small tables
are then put together. The results are small tables:

* hand blocks: per (arm, shard, block of ``block`` consecutive deals) the sums every hand
  statistic of the report is made of (:func:`~sim.report.chunks.hand_sum_names`); the
  paired bootstrap of :mod:`sim.report.stats` resamples these blocks;
* game blocks: the same for games (:func:`~sim.report.chunks.game_sum_names`), blocks of
  consecutive game numbers;
* histograms: turns per hand, points per hand, hands per game and turns per game, per arm,
  from which the quantiles, distributions and survival curves are exact;
* skill: per arm and seating of bots, wins and points per seat (for mixed line-ups).

"Points won per hand" is the hands' ``points`` column, the sum of the absolute values of a
hand's scores: what the winner takes under ``pip_to_winner``/``per_card`` scoring (the others
score 0), and the penalties paid in the hand under ``penalty`` scoring, so the same column
measures the score swing of a hand whatever the scoring (RULES.md §2G.29).
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset import summaries as B
from sim.dataset.summaries import BOOTSTRAP_BLOCKS, block_size
from sim.engine.rows import GAME_DEAL_STRIDE, REASON_NAMES
from sim.report import chunks as C
from sim.report.chunks import game_sum_names, hand_sum_names
from sim.report.dataset import Dataset, DatasetError

ENGINE = "streaming"
REASONS = REASON_NAMES
"""Every end reason a variant may produce; the report shows those that occur."""


@dataclass(frozen=True)
class Aggregates:
    """The small tables a report is drawn from."""

    hand_blocks: pl.DataFrame
    game_blocks: pl.DataFrame
    turns_hist: pl.DataFrame
    points_hist: pl.DataFrame
    hands_hist: pl.DataFrame
    margin_hist: pl.DataFrame
    # (arm, shard, block, turns, len): the histogram per hand block, neighbouring blocks of
    # each arm merged into at most QUANTILE_BLOCKS (shard 0, block: the merged block)
    turns_blocks: pl.DataFrame
    points_blocks: pl.DataFrame  # ... of points won per hand
    hands_blocks: pl.DataFrame  # ... of hands per game, per game block
    margin_blocks: pl.DataFrame  # ... of final margins, per game block
    game_turns_hist: pl.DataFrame  # (arm, turns, len): turns per game, per arm
    skill: pl.DataFrame
    seats: int
    reasons: tuple[str, ...]
    block: int
    per_game_deals: bool = False
    by_game: bool = False  # a run counted in games: hands blocked by their game's number
    actions: bool = True  # the hands hold the action counts (melds, lay-offs, rebuilds)

    @property
    def blocks_text(self) -> str:
        """How hands and games were cut into bootstrap blocks, for the report."""
        if self.per_game_deals:
            hands = f"blocks of {self.block} games' hands (deals numbered per game)"
        elif self.by_game:
            hands = f"blocks of {self.block} games' hands (a run counted in games)"
        else:
            hands = f"blocks of {self.block} consecutive deals"
        return (
            f"{hands}; each game in the block of its first deal, neighbouring blocks merged "
            f"to at most {BOOTSTRAP_BLOCKS} per arm for the games"
        )


def _per_arm(blocks: pl.DataFrame, name: str) -> pl.DataFrame:
    """A per-block histogram summed over the blocks of each arm."""
    return blocks.group_by("arm", name).agg(pl.col("len").sum()).sort("arm", name)


@dataclass(frozen=True)
class Part:
    """One Parquet file of the dataset, from its footer: rows, the largest deal number (None
    where the footer has no statistics for it), and the hand blocks the runner kept there
    (:mod:`sim.dataset.summaries`; None in a games file or a file written without them)."""

    path: Path
    rows: int
    top_deal: int | None
    summary: bytes | None = None
    types: dict[str, pa.DataType] | None = None  # the Arrow types of its columns


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _parts(folder: Path) -> dict[str, list[Part]]:
    """Every file of a hands or games folder, per arm in name order, each footer read once."""
    parts: dict[str, list[Part]] = {}
    for arm_folder in sorted(folder.glob("arm=*")):
        arm = arm_folder.name.removeprefix("arm=")
        for path in sorted(arm_folder.glob("*.parquet")):
            try:
                meta = pq.read_metadata(path)
                types = {f.name: f.type for f in meta.schema.to_arrow_schema()}
            except (OSError, pa.ArrowException) as err:
                raise unreadable([str(path)], err) from None
            summary = (meta.metadata or {}).get(B.SUMMARY_KEY)
            parts.setdefault(arm, []).append(
                Part(path, meta.num_rows, _top_deal(meta), summary, types)
            )
    return parts


def unreadable(files: list[str], err: Exception) -> DatasetError:
    """A damaged Parquet file (cut short by a full disk, say): one line naming it. ``rummysim
    run`` checks every finished shard's digest and plays a damaged one again."""
    return damaged(files, f"cannot read the Parquet file ({err})")


def damaged(files: list[str], what: str) -> DatasetError:
    """Files that cannot be reported on, for the reason ``what``: one line naming them."""
    where = files[0] if len(files) == 1 else f"one of {', '.join(files)}"
    return DatasetError(f"{where}: {what}; run the experiment again to replay the damaged shard")


def _top_deal(meta: pq.FileMetaData) -> int | None:
    """The largest deal number in a file's statistics: -1 without a deal column (a games
    file), None where some row group has no statistics."""
    names = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if "deal" not in names:
        return -1
    col = names.index("deal")
    top = -1
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(col).statistics
        if stats is None or not stats.has_min_max:
            return None
        top = max(top, int(stats.max))
    return top


@dataclass(frozen=True)
class _Chunk:
    """Whole files of one arm read and reduced together: its hands files and the games files
    of the same shards. ``summarized``: every hands file keeps the report's hand blocks in
    its footer, so its rows are not read (only its games')."""

    arm: str
    hands: list[Part]
    games: list[str]
    summarized: bool

    @property
    def hands_files(self) -> list[str]:
        return [str(part.path) for part in self.hands]

    @property
    def files(self) -> list[str]:
        return self.hands_files + self.games


def _file_chunks(
    hands: dict[str, list[Part]],
    games_root: Path,
    max_rows: int,
    summarized: Callable[[str, Part], bool] = lambda arm, part: False,
) -> list[_Chunk]:
    """Every hands file, each with the games file of the same shard where there is one, in
    chunks of at most ``max_rows`` hands (or one file) of one arm, whose hands files are
    either all ``summarized`` or none."""
    chunks = []
    for arm, parts in hands.items():
        files: list[Part] = []
        games: list[str] = []
        rows = 0
        kept = False
        for part in parts:
            keeps = summarized(arm, part)
            if files and (rows + part.rows > max_rows or keeps != kept):
                chunks.append(_Chunk(arm, files, games, kept))
                files, games, rows = [], [], 0
            kept = keeps
            files.append(part)
            other = games_root / f"arm={arm}" / part.path.name
            if other.exists():
                games.append(str(other))
            rows += part.rows
        if files:
            chunks.append(_Chunk(arm, files, games, kept))
    return chunks


def _skill(ds: Dataset, seats: int) -> pl.DataFrame:
    """Per mixed-line-up arm and seating of bots (the seating changes only with mirrored
    rotations): hands, wins and points per seat. Empty when no line-up mixes bots."""
    mixed = [a.name for a in ds.arms if a.mixed]
    schema = {"arm": pl.String, "seating": pl.String, "n": pl.UInt32}
    schema |= {f"win{s}": pl.UInt32 for s in range(seats)}
    schema |= {f"pts{s}": pl.Int64 for s in range(seats)}
    if not mixed:
        return pl.DataFrame(schema=schema)
    frame = (
        ds.hands()
        .filter(pl.col("arm").is_in(mixed))
        .group_by("arm", "rotation")
        .agg(
            pl.col("bots").first().list.join(",").alias("seating"),
            pl.len().alias("n"),
            *[(pl.col("winner") == s).sum().alias(f"win{s}") for s in range(seats)],
            *[
                pl.col("hand_scores")
                .list.get(s, null_on_oob=True)
                .cast(pl.Int64)
                .sum()
                .alias(f"pts{s}")
                for s in range(seats)
            ],
        )
        .collect(engine=ENGINE)
    )
    return frame.group_by("arm", "seating").agg(pl.all().exclude("rotation").sum())


def _deals_per_game(ds: Dataset, hands: dict[str, list[Part]]) -> bool:
    """Whether the deals are numbered per game (``game * GAME_DEAL_STRIDE + hand``, as
    mirrored runs do) rather than one after another: read from the footers' statistics."""
    tops = [p.top_deal for parts in hands.values() for p in parts]
    if any(t is None for t in tops):
        value = ds.hands().select(pl.col("deal").max()).collect().item()
        return value is not None and value >= GAME_DEAL_STRIDE
    return max(tops, default=-1) >= GAME_DEAL_STRIDE


CHUNK_ROWS = 500_000
"""Hands per chunk (whole files): each chunk's columns are read once into memory (about 60
bytes a hand) and reduced to block sums and histograms, its games with it."""


def _has_actions(parts: list[Part]) -> bool:
    """Whether every one of these hands files holds the action counts (schema version 5)."""
    return all(set(B.ACTIONS) <= set(part.types or {}) for part in parts)


def _read_hands(parts: list[Part], scores: bool) -> pa.Table:
    """A chunk's hands: :data:`~sim.report.chunks.HAND_COLUMNS`, the action counts where every
    file has them and, with ``scores``, the :data:`~sim.report.chunks.SCORE_COLUMN`, file
    after file, each column in one piece (so that numpy reads it in place: the copy is made
    here, in the reading thread)."""
    columns = list(C.HAND_COLUMNS) + (list(B.ACTIONS) if _has_actions(parts) else [])
    columns += [C.SCORE_COLUMN] if scores else []
    return pa.concat_tables(
        pq.ParquetFile(part.path).read(columns=columns, use_threads=False) for part in parts
    ).combine_chunks()


def _read_games(games_files: list[str]) -> pa.Table | None:
    """A chunk's games' :data:`~sim.report.chunks.GAME_COLUMNS`, each column in one piece
    (None without games files). pyarrow decodes the score lists in about half the time
    polars takes."""
    if not games_files:
        return None
    return pa.concat_tables(
        pq.ParquetFile(path).read(columns=list(C.GAME_COLUMNS), use_threads=False)
        for path in games_files
    ).combine_chunks()


def _summaries(parts: list[Part]) -> dict[str, B.Rows]:
    """The block tables kept in these files' footers, file after file (raises
    :class:`~sim.dataset.summaries.SummaryError` when one cannot be decoded)."""
    tables = [B.read_summary(part.summary or b"") for part in parts]
    return {
        name: B.concat_rows([t[name] for t in tables], tables[0][name].columns.shape[1])
        for name in B.TABLES
    }


READ_AHEAD = 3
"""Chunks being read and reduced at once (two threads; the third waits its turn, so that a
thread is never idle while the caller takes a result)."""


def _reduced_chunks(chunks: list[_Chunk], reduce: _Reduce):
    """``reduce(chunk, ...)`` of each chunk, in chunk order: each chunk read and reduced in
    one of two threads (the readers and the kernels leave the GIL, so both cores work), at
    most :data:`READ_AHEAD` chunks in memory. A summarized chunk's tables come from its
    hands files' footers (its rows, hands and games, are read after all should one not
    decode). A file that cannot be read, or whose values are impossible, raises
    :class:`DatasetError` naming the chunk's files."""

    def work(i: int):
        chunk = chunks[i]
        kept = None
        try:
            if chunk.summarized:
                with contextlib.suppress(B.SummaryError):
                    kept = _summaries(chunk.hands)
            hands = games = None
            if kept is None:
                hands = _read_hands(chunk.hands, chunk.arm in reduce.mixed)
                games = _read_games(chunk.games)
        except (OSError, pa.ArrowException) as err:
            raise unreadable(chunk.files, err) from None
        try:
            return reduce(chunk, hands, games, kept)
        except C.ChunkError as err:
            raise damaged(chunk.files, str(err)) from None

    pool = ThreadPoolExecutor(2)
    try:
        pending = deque(pool.submit(work, i) for i in range(min(READ_AHEAD, len(chunks))))
        for i in range(len(chunks)):
            result = pending.popleft().result()
            if i + READ_AHEAD < len(chunks):
                pending.append(pool.submit(work, i + READ_AHEAD))
            yield result
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


class _Table:
    """One of the aggregates' tables: (arm, shard, block, *names) with one row per key (arm,
    shard, block and the first ``keyed`` names), the rest summed. Each chunk adds its
    :class:`~sim.report.chunks.Rows`; :meth:`frame` makes one polars frame of them all.
    ``merged``: a per-block histogram whose neighbouring blocks are merged into at most this
    many per arm (``shard`` 0, ``block`` the merged block's number: what the quantiles'
    bootstrap takes), so that the frame holds thousands of rows, not millions."""

    def __init__(self, names: tuple[str, ...], keyed: int = 0, merged: int | None = None) -> None:
        self.names = names
        self.keyed = keyed
        self.merged = merged
        self.pieces: list[tuple[str, B.Rows]] = []
        self.dtypes: dict[str, pl.DataType] = {}

    def add(self, arm: str, rows: B.Rows, dtypes: dict[str, pl.DataType]) -> None:
        """A chunk's rows of ``arm``; ``dtypes``: the types of its columns as the files have
        them (the shard's; any other not ``Int64``), taken from the first chunk."""
        self.pieces.append((arm, rows))
        for name, dtype in dtypes.items():
            self.dtypes.setdefault(name, dtype)

    def frame(self) -> pl.DataFrame:
        """Every chunk's rows, sorted by key with equal keys summed (as a ``group_by`` and a
        ``sort`` would give them): :func:`~sim.dataset.summaries.merge_by_key`. The chunks come
        in key order (arms in name order, the files of an arm in the runner's order), so this
        is one concatenation, a check that each key follows the one before, and a sum where a
        block spans two chunks."""
        arms = sorted({arm for arm, _ in self.pieces})
        rank = {arm: i for i, arm in enumerate(arms)}
        lengths = [len(rows) for _, rows in self.pieces]
        code = np.repeat(np.array([rank[arm] for arm, _ in self.pieces], np.int64), lengths)
        shard = np.concatenate([rows.shard for _, rows in self.pieces] or [np.zeros(0, np.int64)])
        block = np.concatenate([rows.block for _, rows in self.pieces] or [np.zeros(0, np.int64)])
        width = len(self.names)
        columns = np.concatenate(
            [rows.columns for _, rows in self.pieces] or [np.zeros((0, width), np.int64)]
        )
        keys = [code, shard, block] + [columns[:, i] for i in range(self.keyed)]
        pick, columns = B.merge_by_key(keys, columns, self.keyed)
        if pick is not None:
            code, shard, block = code[pick], shard[pick], block[pick]
        if self.merged is not None:
            code, block, columns = B.merged_histograms(code, shard, block, columns, self.merged)
            shard = np.zeros(len(code), np.int64)
        self._sorted_rows = (arms, code, columns)
        return self._build(arms, code, shard, block, columns).with_columns(
            pl.col("arm").set_sorted()
        )

    _sorted_rows: tuple[list[str], np.ndarray, np.ndarray] | None = None
    """The rows :meth:`frame` gave, as numpy: arms, each row's arm, its columns."""

    def per_arm(self, frame: pl.DataFrame) -> pl.DataFrame:
        """A histogram table (``keyed`` 1: value and count, ``frame`` as :meth:`frame` gave
        it) summed over the blocks of each arm, sorted by arm and value: counted from the
        merged rows, or with polars when their values are too spread to count densely."""
        name = self.names[0]
        if self._sorted_rows is None or self.keyed != 1:
            raise ValueError("per_arm counts a histogram table after its frame()")
        arms, code, columns = self._sorted_rows
        value, count = columns[:, 0], columns[:, 1]
        if len(value) == 0:
            return _per_arm(frame, name)
        low = int(value.min())
        width = int(value.max()) - low + 1
        if len(arms) * width > B.DENSE_LIMIT:
            return _per_arm(frame, name)
        # float weights are exact: counts are whole numbers far below 2**53
        totals = np.bincount(
            code * width + (value - low), weights=count, minlength=len(arms) * width
        )
        nz = np.flatnonzero(totals)
        return pl.DataFrame(
            {
                "arm": pl.Series("arm", arms, dtype=pl.String).gather(nz // width),
                name: pl.Series(nz % width + low, dtype=pl.Int64).cast(
                    self.dtypes.get(name, pl.Int64)
                ),
                "len": pl.Series(totals[nz].astype(np.int64)).cast(self.dtypes["len"]),
            }
        ).with_columns(pl.col("arm").set_sorted())

    def _build(self, arms, code, shard, block, columns) -> pl.DataFrame:
        """The frame of these rows, each column of its table's type."""
        arm = pl.Series("arm", arms, dtype=pl.String).gather(code)
        rows = C.frame_of(B.Rows(shard, block, columns), self.names, self.dtypes)
        return rows.insert_column(0, arm)


@dataclass(frozen=True)
class _Reduce:
    """How a chunk is reduced (the same for every chunk of a dataset): see :meth:`__call__`."""

    blocking: B.Blocking
    teams: frozenset[str]
    mixed: frozenset[str]

    def summarized(self, arm: str, part: Part) -> bool:
        """Whether ``part`` (a hands file of ``arm``) keeps this report's blocks in its
        footer."""
        header = B.summary_header(part.summary)
        return B.summary_fits(
            header, self.blocking, teams=arm in self.teams, scores=arm in self.mixed
        )

    def __call__(self, chunk: _Chunk, hands: pa.Table | None, games: pa.Table | None, kept):
        """One chunk's hand and game blocks and histograms: ``(table, rows, dtypes)`` for
        each of the aggregates' tables (:class:`_Table`): ``kept`` (the tables from the
        footers), or made from the rows read, by the code the runner makes the footers with
        (:func:`~sim.dataset.summaries.hand_arrays`,
        :func:`~sim.dataset.summaries.game_tables_of`)."""
        teams = chunk.arm in self.teams
        blocking = self.blocking
        if kept is not None:
            types = chunk.hands[0].types or {}
        else:
            types = {name: hands.schema.field(name).type for name in ("shard", "turns")}
            arrays = B.hand_arrays(hands, blocking, teams=teams, scores=chunk.arm in self.mixed)
            hand_tables = arrays.tables(blocking.seats, blocking.known)
            kept = dict(zip(B.TABLES[:3], hand_tables, strict=True))
            if games is not None:
                tables = B.game_tables_of(games, hands, blocking, teams=teams)
                kept |= dict(zip(B.TABLES[3:], tables, strict=True))
            keyed = dict(zip(B.TABLES, B.KEYED, strict=True))
            kept = {name: B.in_key_order(rows, keyed[name]) for name, rows in kept.items()}
        shard = {"shard": C.polars_type(types["shard"])}
        turns = shard | {"turns": C.polars_type(types["turns"])}
        return [(name, rows, turns if name == "turns" else shard) for name, rows in kept.items()]


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    seats = max(a.players for a in ds.arms)
    teams = {a.name for a in ds.arms if a.teams}
    hand_parts = _parts(ds.root / "hands")
    per_game = _deals_per_game(ds, hand_parts)
    # a run counted in games plays the same games in every arm, not the same hands: hands are
    # blocked by their game's number, so that each arm has about 400 blocks (blocks of deals
    # would follow the arm with the fewest hands, and the others have up to four times as
    # many), and the plan fixes the blocks, so the runner can keep them in its footers
    by_game = not per_game and ds.manifest.get("experiment", {}).get("unit") == "games"
    stride = GAME_DEAL_STRIDE if per_game else 1
    planned = ds.manifest.get("report_blocks")
    planned = planned if isinstance(planned, dict) else {}
    size = planned.get("block")
    if per_game and planned.get("stride") == GAME_DEAL_STRIDE and _positive_int(size):
        # mirrored runs number deals per game (game * GAME_DEAL_STRIDE + hand) and are cut
        # into blocks of game numbers whose size the plan fixed (sim.runner.run.
        # report_blocking: about 400 per arm, whatever its rotations), kept in its footers
        block = size
    elif per_game or by_game:
        # (a mirrored run of an earlier version: blocks of games sized from its games)
        games_of = [sum(p.rows for p in parts) for parts in _parts(ds.root / "games").values()]
        block = block_size(min(games_of, default=0))
    else:
        block = block_size(min(sum(p.rows for p in parts) for parts in hand_parts.values()))
    known = REASONS + ("other",)
    len_type = {"len": pl.UInt32}
    tables = {
        "hands": _Table(hand_sum_names(seats, known)),
        "games": _Table(game_sum_names(seats)),
        "turns": _Table(("turns", "len"), keyed=1, merged=B.QUANTILE_BLOCKS),
        "points": _Table(("points", "len"), keyed=1, merged=B.QUANTILE_BLOCKS),
        "hands_hist": _Table(("hands", "len"), keyed=1, merged=B.QUANTILE_BLOCKS),
        "margin": _Table(("margin", "len"), keyed=1, merged=B.QUANTILE_BLOCKS),
        "game_turns": _Table(("turns", "len"), keyed=1, merged=B.QUANTILE_BLOCKS),
    }
    for table in tables.values():
        table.dtypes |= len_type
    reduce = _Reduce(
        blocking=B.Blocking(block, stride, seats, known, by_game=by_game),
        teams=frozenset(teams),
        mixed=frozenset(a.name for a in ds.arms if a.mixed),
    )
    chunks = _file_chunks(hand_parts, ds.root / "games", CHUNK_ROWS, reduce.summarized)
    for chunk, reduced in zip(chunks, _reduced_chunks(chunks, reduce), strict=True):
        for name, rows, dtypes in reduced:
            tables[name].add(chunk.arm, rows, dtypes)
    # the frames built two at a time (numpy's copies and polars' columns leave the GIL)
    with ThreadPoolExecutor(2) as pool:
        frames = dict(zip(tables, pool.map(_Table.frame, tables.values()), strict=True))
    hb = frames["hands"]
    turns_blocks, points_blocks, hands_blocks, margin_blocks = (
        frames[key] for key in ("turns", "points", "hands_hist", "margin")
    )
    sk = _skill(ds, seats)
    seen = [r for r in known if hb[f"r_{r}"].sum() > 0]
    reasons = tuple(seen)
    hb = hb.drop([f"r_{r}" for r in known if r not in seen])
    gb = frames["games"]
    return Aggregates(
        hand_blocks=hb,
        game_blocks=gb,
        turns_hist=tables["turns"].per_arm(turns_blocks),
        points_hist=tables["points"].per_arm(points_blocks),
        hands_hist=tables["hands_hist"].per_arm(hands_blocks),
        margin_hist=tables["margin"].per_arm(margin_blocks),
        turns_blocks=turns_blocks,
        points_blocks=points_blocks,
        hands_blocks=hands_blocks,
        margin_blocks=margin_blocks,
        game_turns_hist=tables["game_turns"].per_arm(frames["game_turns"]),
        skill=sk.sort("arm", "seating"),
        seats=seats,
        reasons=reasons,
        block=block,
        per_game_deals=per_game,
        by_game=by_game,
        actions=all(_has_actions(parts) for parts in hand_parts.values()),
    )
