"""Per-arm aggregates of a dataset, computed by polars over the Parquet files.

The hands are read once, in chunks of whole files of at most :data:`CHUNK_ROWS` hands of
one arm and only the columns the report needs (:data:`~sim.report.chunks.HAND_COLUMNS` and
:data:`~sim.report.chunks.ARROW_COLUMNS`), so memory depends on the chunk size, the number
of arms, blocks and distinct values, not on the number of hands. Each chunk is reduced in
one pass (:mod:`sim.report.chunks`, :mod:`sim.report.kernels`) to its block sums, its
per-block histograms and its games' block sums; the chunks' small tables are then put
together. The results are small tables:

* hand blocks: per (arm, shard, block of ``block`` consecutive deals) the sums every hand
  statistic of the report is made of (:func:`~sim.report.chunks.hand_sum_names`); the
  paired bootstrap of :mod:`sim.report.stats` resamples these blocks;
* game blocks: the same for games (:func:`~sim.report.chunks.game_sum_names`), blocks of
  consecutive game numbers;
* histograms: turns per hand, points per hand and hands per game, per arm, from which the
  quantiles, distributions and survival curves are exact;
* skill: per arm and seating of bots, wins and points per seat (for mixed line-ups).

"Points won per hand" is the hands' ``points`` column, the sum of the absolute values of a
hand's scores: what the winner takes under ``pip_to_winner``/``per_card`` scoring (the others
score 0), and the penalties paid in the hand under ``penalty`` scoring, so the same column
measures the score swing of a hand whatever the scoring (RULES.md §2G.29).
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sim.engine.layout import GAME_DEAL_STRIDE, REASON_NAMES
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
    turns_blocks: pl.DataFrame  # (arm, shard, block, turns, len): the histogram per block
    points_blocks: pl.DataFrame  # ... of points won per hand
    hands_blocks: pl.DataFrame  # ... of hands per game, per game block
    margin_blocks: pl.DataFrame  # ... of final margins, per game block
    skill: pl.DataFrame
    seats: int
    reasons: tuple[str, ...]
    block: int
    game_block: dict[str, int]  # per arm: games are compared unpaired, so each arm has its own
    per_game_deals: bool = False

    @property
    def blocks_text(self) -> str:
        """How hands and games were cut into bootstrap blocks, for the report."""
        hands = (
            f"blocks of {self.block} games' hands (deals numbered per game)"
            if self.per_game_deals
            else f"blocks of {self.block} consecutive deals"
        )
        sizes = sorted(set(self.game_block.values()))
        games = f"{sizes[0]}" if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]} (by arm)"
        return (
            f"{hands}; games in blocks of {games}, neighbouring blocks merged to at most "
            f"{GAME_BLOCKS} per arm"
        )


GAME_BLOCKS = 400
"""Game blocks per arm in the bootstrap: :func:`block_size` aims at about this many, and a
shard's last, short block adds a few more, a different number in each arm (arms play
different numbers of games). The analysis merges neighbouring blocks down to exactly this
many, so every arm's game-level bootstrap draws the same weights (drawn once, not once per
arm)."""


def block_size(rows: int, target_blocks: int = GAME_BLOCKS) -> int:
    """Rows per block so that the smallest arm has about ``target_blocks`` blocks: enough
    for the bootstrap's intervals, and the bigger the blocks the more of the dependence
    between neighbouring hands (one game's) stays inside one; the analysis and the
    per-block histograms then cost the same at any size of the dataset."""
    return max(1, rows // target_blocks)


def _per_arm(blocks: pl.DataFrame, name: str) -> pl.DataFrame:
    """A per-block histogram summed over the blocks of each arm."""
    return blocks.group_by("arm", name).agg(pl.col("len").sum()).sort("arm", name)


@dataclass(frozen=True)
class Part:
    """One Parquet file of the dataset, from its footer: rows, and the largest deal number
    (None where the footer has no statistics for it)."""

    path: Path
    rows: int
    top_deal: int | None


def _parts(folder: Path) -> dict[str, list[Part]]:
    """Every file of a hands or games folder, per arm in name order, each footer read once."""
    parts: dict[str, list[Part]] = {}
    for arm_folder in sorted(folder.glob("arm=*")):
        arm = arm_folder.name.removeprefix("arm=")
        for path in sorted(arm_folder.glob("*.parquet")):
            try:
                meta = pq.read_metadata(path)
            except (OSError, pa.ArrowException) as err:
                raise unreadable([str(path)], err) from None
            parts.setdefault(arm, []).append(Part(path, meta.num_rows, _top_deal(meta)))
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


def _file_chunks(
    hands: dict[str, list[Part]], games_root: Path, max_rows: int
) -> list[tuple[str, list[str], list[str]]]:
    """(arm, hands files, games files) in chunks of at most ``max_rows`` hands (or one
    file): every hands file, each with the games file of the same shard where there is one."""
    chunks = []
    for arm, parts in hands.items():
        files: list[str] = []
        games: list[str] = []
        rows = 0
        for part in parts:
            if files and rows + part.rows > max_rows:
                chunks.append((arm, files, games))
                files, games, rows = [], [], 0
            files.append(str(part.path))
            other = games_root / f"arm={arm}" / part.path.name
            if other.exists():
                games.append(str(other))
            rows += part.rows
        if files:
            chunks.append((arm, files, games))
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


def _read_polars(hands_files: list[str]) -> pl.DataFrame:
    """A chunk's :data:`~sim.report.chunks.HAND_COLUMNS`, each column in one piece (so that
    numpy reads it in place: the copy is made here, in the reading thread)."""
    return pl.read_parquet(hands_files, columns=list(C.HAND_COLUMNS)).rechunk()


def _read_arrow(hands_files: list[str], games_files: list[str], scores: bool):
    """A chunk's :data:`~sim.report.chunks.ARROW_COLUMNS` (and, with ``scores``, the
    :data:`~sim.report.chunks.SCORE_COLUMN`), file after file: the same rows in the same
    order as :func:`_read_polars`; and its games' :data:`~sim.report.chunks.GAME_COLUMNS`
    (None without games files), each column in one piece. pyarrow decodes the games' score
    lists in about half the time polars takes."""
    columns = list(C.ARROW_COLUMNS) + ([C.SCORE_COLUMN] if scores else [])
    extra = pa.concat_tables(
        pq.ParquetFile(path).read(columns=columns, use_threads=False) for path in hands_files
    )
    if not games_files:
        return extra, None
    games = pa.concat_tables(
        pq.ParquetFile(path).read(columns=list(C.GAME_COLUMNS), use_threads=False)
        for path in games_files
    )
    return extra, games.combine_chunks()


READ_AHEAD = 3
"""Chunks being read and reduced at once (two threads; the third waits its turn, so that a
thread is never idle while the caller takes a result)."""


def _reduced_chunks(chunks: list[tuple[str, list[str], list[str]]], reduce):
    """``reduce(arm, hands, extra, games)`` of each chunk, in chunk order: each chunk read
    (:func:`_read_polars`, :func:`_read_arrow`; the score lists only for a mixed line-up,
    ``reduce.mixed``) and reduced in one of two threads (the readers and the kernels leave
    the GIL, so both cores work), at most :data:`READ_AHEAD` chunks in memory. A file that
    cannot be read, or whose values are impossible, raises :class:`DatasetError` naming the
    chunk's files."""

    def work(i: int):
        arm, hands_files, games_files = chunks[i]
        files = hands_files + games_files
        try:
            frame = _read_polars(hands_files)
            extra, games = _read_arrow(hands_files, games_files, arm in reduce.mixed)
        except (OSError, pa.ArrowException, pl.exceptions.PolarsError) as err:
            raise unreadable(files, err) from None
        try:
            return reduce(arm, frame, extra, games)
        except C.ChunkError as err:
            raise damaged(files, str(err)) from None

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


def _merged(frame: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """The rows sorted by ``keys``, with the other columns summed over rows of equal keys
    (the general case of :meth:`_Table.frame`, for rows that do not come in key order)."""
    frame = frame.sort(keys)
    same = pl.all_horizontal([pl.col(k) == pl.col(k).shift(1) for k in keys])
    if not frame.select(same.any()).item():
        return frame
    sums = [pl.col(c).sum() for c in frame.columns if c not in keys]
    return frame.group_by(keys).agg(sums).sort(keys)


class _Table:
    """One of the aggregates' tables: (arm, shard, block, *names) with one row per key (arm,
    shard, block and the first ``keyed`` names), the rest summed. Each chunk adds its
    :class:`~sim.report.chunks.Rows`; :meth:`frame` makes one polars frame of them all."""

    def __init__(self, names: tuple[str, ...], keyed: int = 0) -> None:
        self.names = names
        self.keyed = keyed
        self.pieces: list[tuple[str, C.Rows]] = []
        self.dtypes: dict[str, pl.DataType] = {}

    def add(self, arm: str, rows: C.Rows, dtypes: dict[str, pl.DataType]) -> None:
        """A chunk's rows of ``arm``; ``dtypes``: the types of its columns as the files have
        them (the shard's; any other not ``Int64``), taken from the first chunk."""
        self.pieces.append((arm, rows))
        for name, dtype in dtypes.items():
            self.dtypes.setdefault(name, dtype)

    def frame(self) -> pl.DataFrame:
        """Every chunk's rows, sorted by key with equal keys summed (as a ``group_by`` and a
        ``sort`` would give them). The chunks come in key order (arms in name order, the
        files of an arm in the runner's order), so this is one concatenation, a check that
        each key follows the one before, and a sum where a block spans two chunks."""
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
        after, same = _order(keys)
        if not after.all():  # out of key order: polars sorts and sums
            names = ["arm", "shard", "block", *self.names[: self.keyed]]
            return _merged(self._build(arms, code, shard, block, columns), names)
        if same.any():  # a block in two chunks: its rows summed into the first
            starts = np.flatnonzero(np.concatenate([[True], ~same]))
            code, shard, block = code[starts], shard[starts], block[starts]
            sums = np.add.reduceat(columns, starts, axis=0) if len(starts) else columns
            columns = np.concatenate([columns[starts, : self.keyed], sums[:, self.keyed :]], 1)
        return self._build(arms, code, shard, block, columns).with_columns(
            pl.col("arm").set_sorted()
        )

    def _build(self, arms, code, shard, block, columns) -> pl.DataFrame:
        """The frame of these rows, each column of its table's type."""
        arm = pl.Series("arm", arms, dtype=pl.String).gather(code)
        rows = C.Rows(shard, block, columns).frame(self.names, self.dtypes)
        return rows.insert_column(0, arm)


def _order(keys: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """For each row after the first: whether its key (the arrays of ``keys``, most
    significant first) is not below the previous row's, and whether it equals it."""
    n = max(len(keys[0]) - 1, 0)
    below = np.zeros(n, bool)
    same = np.ones(n, bool)
    for key in keys:
        before, this = key[:-1], key[1:]
        below |= same & (this < before)
        same &= this == before
    return ~below, same


@dataclass(frozen=True)
class _Reduce:
    """How a chunk is reduced (the same for every chunk of a dataset): see :meth:`__call__`."""

    stride: int
    block: int
    seats: int
    teams: frozenset[str]
    mixed: frozenset[str]
    known: tuple[str, ...]
    game_block: dict[str, int]

    def __call__(self, arm: str, frame: pl.DataFrame, extra: pa.Table, games: pa.Table | None):
        """One chunk's hand and game blocks and histograms: ``(table, rows, dtypes)`` for
        each of the aggregates' tables (:class:`_Table`)."""
        teams = arm in self.teams
        hands = C.Hands(
            frame, extra, unit_stride=self.stride, block=self.block, seats=self.seats,
            teams=teams, known=self.known,
        )  # fmt: skip
        shard = {"shard": hands.shard_dtype}
        out = [
            ("hands", C.hand_block_sums(hands, self.seats, self.known), shard),
            ("turns", hands.histogram("turns"), shard | {"turns": hands.turns_dtype}),
            ("points", hands.histogram("points"), shard),
        ]
        if games is None:
            return out
        sums, hands_hist, margin_hist = C.game_block_sums(
            games, seats=self.seats, teams=teams, game_block=self.game_block[arm]
        )
        shard = {"shard": C.polars_type(games.column("shard"))}
        return out + [("games", sums, shard), ("hands_hist", hands_hist, shard),
                      ("margin", margin_hist, shard)]  # fmt: skip


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    seats = max(a.players for a in ds.arms)
    teams = {a.name for a in ds.arms if a.teams}
    hand_parts, game_parts = _parts(ds.root / "hands"), _parts(ds.root / "games")
    games_of = {arm: sum(p.rows for p in parts) for arm, parts in game_parts.items()}
    games_per_arm = min(games_of.values())
    # about 400 game blocks in every arm: they are resampled arm by arm (games pair only
    # approximately), so their blocks need not line up, and the bootstrap's cost stays the
    # same in an arm with four times the games of another
    game_block = {arm: block_size(rows) for arm, rows in games_of.items()}
    per_game = _deals_per_game(ds, hand_parts)
    if per_game:
        # mirrored runs number deals per game (game * GAME_DEAL_STRIDE + hand): block games
        block = block_size(games_per_arm)
        stride = GAME_DEAL_STRIDE
    else:
        block = block_size(min(sum(p.rows for p in parts) for parts in hand_parts.values()))
        stride = 1
    known = REASONS + ("other",)
    len_type = {"len": pl.UInt32}
    tables = {
        "hands": _Table(hand_sum_names(seats, known)),
        "games": _Table(game_sum_names(seats)),
        "turns": _Table(("turns", "len"), keyed=1),
        "points": _Table(("points", "len"), keyed=1),
        "hands_hist": _Table(("hands", "len"), keyed=1),
        "margin": _Table(("margin", "len"), keyed=1),
    }
    for table in tables.values():
        table.dtypes |= len_type
    chunks = _file_chunks(hand_parts, ds.root / "games", CHUNK_ROWS)
    reduce = _Reduce(
        stride=stride, block=block, seats=seats, teams=frozenset(teams),
        mixed=frozenset(a.name for a in ds.arms if a.mixed), known=known, game_block=game_block,
    )  # fmt: skip
    for (arm, _, _), reduced in zip(chunks, _reduced_chunks(chunks, reduce), strict=True):
        for name, rows, dtypes in reduced:
            tables[name].add(arm, rows, dtypes)
    hb = tables["hands"].frame()
    turns_blocks, points_blocks, hands_blocks, margin_blocks = (
        tables[key].frame() for key in ("turns", "points", "hands_hist", "margin")
    )
    sk = _skill(ds, seats)
    seen = [r for r in known if hb[f"r_{r}"].sum() > 0]
    reasons = tuple(seen)
    hb = hb.drop([f"r_{r}" for r in known if r not in seen])
    gb = tables["games"].frame()
    return Aggregates(
        hand_blocks=hb,
        game_blocks=gb,
        turns_hist=_per_arm(turns_blocks, "turns"),
        points_hist=_per_arm(points_blocks, "points"),
        hands_hist=_per_arm(hands_blocks, "hands"),
        margin_hist=_per_arm(margin_blocks, "margin"),
        turns_blocks=turns_blocks,
        points_blocks=points_blocks,
        hands_blocks=hands_blocks,
        margin_blocks=margin_blocks,
        skill=sk.sort("arm", "seating"),
        seats=seats,
        reasons=reasons,
        block=block,
        game_block=game_block,
        per_game_deals=per_game,
    )
