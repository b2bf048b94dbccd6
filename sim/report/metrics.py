"""Per-arm aggregates of a dataset: the block tables kept in its files' footers, or, where a
footer is missing or not of the report's blocking, made from the rows by the same code
(:mod:`sim.dataset.summaries`).

Each shard (a hands file and the games file of the same name) is read from its footer, or
else only the columns the report needs, two shards at a time, each reduced to small tables:

* hand blocks: per (arm, shard, block) the sums every hand statistic is made of
  (:func:`~sim.dataset.summaries.hand_sum_names`), which the paired bootstrap resamples;
* game blocks: the same for games, each game in the block of its first deal;
* histograms of turns and points per hand, hands, final margins, turns and seconds at the
  table per game, per arm (counted per block, summed over the blocks).

"Points won per hand" is the hands' ``points`` column, the sum of the absolute values of a
hand's scores: the score swing of a hand whatever the scoring (RULES.md §2G.29).
"""

from __future__ import annotations

import contextlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from sim.dataset import summaries as B
from sim.dataset.summaries import BOOTSTRAP_BLOCKS, block_size
from sim.dataset.timing import model_seconds, time_model
from sim.engine.rows import GAME_DEAL_STRIDE, REASON_NAMES
from sim.report.dataset import Dataset, DatasetError


@dataclass(frozen=True)
class Aggregates:
    """The small tables a report is drawn from."""

    hand_blocks: pl.DataFrame
    game_blocks: pl.DataFrame
    hist: dict[str, pl.DataFrame]
    """Per histogram of :data:`~sim.dataset.summaries.TABLES` (``turns``, ``points`` per hand,
    ``hands_hist``: hands per game, ``margin``, ``game_turns``, ``game_seconds``: the time
    model's per game), the (arm, value, len) counts summed over each arm's blocks."""
    seats: int
    reasons: tuple[str, ...]
    block: int
    per_game_deals: bool = False
    by_game: bool = False  # a run counted in games: hands blocked by their game's number

    @property
    def blocks_text(self) -> str:
        """How hands and games were cut into bootstrap blocks, for the report."""
        unit = "consecutive deals"
        if self.per_game_deals or self.by_game:
            why = "deals numbered per game" if self.per_game_deals else "a run counted in games"
            unit = f"games' hands ({why})"
        return (
            f"blocks of {self.block} {unit}; each game in the block of its first deal, "
            f"neighbouring blocks merged to at most {BOOTSTRAP_BLOCKS} per arm"
        )


def _per_arm(blocks: pl.DataFrame, name: str) -> pl.DataFrame:
    """A per-block histogram summed over the blocks of each arm."""
    return blocks.group_by("arm", name).agg(pl.col("len").sum()).sort("arm", name)


def _frame(pieces: list[tuple[str, B.Rows]], names: tuple[str, ...]) -> pl.DataFrame:
    """Every (arm, rows) piece of one table as one frame: arm, shard, block, *names (Int64).
    One frame for all the shards: a frame per shard cost ~0.7 ms, ~1 s at 10M hands."""
    data = np.concatenate([np.column_stack([r.shard, r.block, r.columns]) for _, r in pieces])
    frame = pl.from_numpy(data.astype(np.int64), schema=["shard", "block", *names], orient="row")
    of_row = np.repeat(np.arange(len(pieces)), [len(rows) for _, rows in pieces])
    return frame.insert_column(0, pl.Series("arm", [a for a, _ in pieces], pl.String)[of_row])


def _summed(frame: pl.DataFrame, names: tuple[str, ...]) -> pl.DataFrame:
    """Block sums, one row per (arm, shard, block), summed over the chunks (a block may span
    two chunks; a mirrored run's rotations each start the shard's blocks again), in order."""
    keys = ["arm", "shard", "block"]
    return frame.group_by(keys).agg(pl.col(names).sum()).sort(keys)


@dataclass(frozen=True)
class Part:
    """One Parquet file of the dataset, from its footer: rows, and the hand blocks the runner
    kept there (:mod:`sim.dataset.summaries`; None in a games file or a file written without
    them)."""

    path: Path
    rows: int
    summary: bytes | None = None


def _parts(folder: Path) -> dict[str, list[Part]]:
    """Every file of a hands or games folder, per arm in name order, each footer read once."""
    parts: dict[str, list[Part]] = {}
    for arm_folder in sorted(folder.glob("arm=*")):
        arm = arm_folder.name.removeprefix("arm=")
        for path in sorted(arm_folder.glob("*.parquet")):
            try:
                meta = pq.read_metadata(path)
            except (OSError, pa.ArrowException) as err:
                raise damaged([str(path)], f"cannot read the Parquet file ({err})") from None
            summary = (meta.metadata or {}).get(B.SUMMARY_KEY)
            parts.setdefault(arm, []).append(Part(path, meta.num_rows, summary))
    return parts


def damaged(files: list[str], what: str) -> DatasetError:
    """Files that cannot be reported on (cut short by a full disk, say), for the reason
    ``what``: one line naming them. ``rummysim run`` checks every finished shard's digest and
    plays a damaged one again."""
    where = files[0] if len(files) == 1 else f"one of {', '.join(files)}"
    return DatasetError(f"{where}: {what}; run the experiment again to replay the damaged shard")


def _blocking_of(ds: Dataset, hand_parts: dict[str, list[Part]]) -> tuple[int, int, bool]:
    """(block, stride, by_game) of the report's blocks (``summaries.Blocking``): those the
    run's plan fixed (the manifest's ``report_blocks``, ``sim.runner.run.report_blocking``,
    which the runner's footers keep); without one, deals numbered per game (a mirrored run:
    the largest deal number tells) are cut into blocks of game numbers, other deals into
    blocks of consecutive deals, sized so that the smallest arm has about 400."""
    plan = ds.manifest.get("report_blocks")
    if isinstance(plan, dict) and isinstance(plan.get("block"), int) and plan["block"] > 0:
        return plan["block"], int(plan.get("stride", 1)), bool(plan.get("by_game"))
    deal = ds.hands().select(pl.col("deal").max()).collect().item()
    if deal is not None and deal >= GAME_DEAL_STRIDE:
        games = [sum(p.rows for p in parts) for parts in _parts(ds.root / "games").values()]
        return block_size(min(games, default=0)), GAME_DEAL_STRIDE, False
    return block_size(min(sum(p.rows for p in parts) for parts in hand_parts.values())), 1, False


def _read(path: Path, columns: list[str]) -> pa.Table:
    """Some columns of one Parquet file, each in one piece (so that numpy reads it in place;
    pyarrow decodes the score lists in about half the time polars takes)."""
    return pq.ParquetFile(path).read(columns=columns, use_threads=False).combine_chunks()


def _summarized(part: Part, blocking: B.Blocking, teams: bool) -> bool:
    """Whether a hands file's footer keeps this report's blocks."""
    return B.summary_fits(B.summary_header(part.summary), blocking, teams=teams)


def _shard_tables(part: Part, games: Path, blocking: B.Blocking, teams: bool) -> dict:
    """One shard's :data:`~sim.dataset.summaries.TABLES`: from its hands file's footer where
    it keeps this blocking and decodes, else from its rows (and those of ``games``, its games
    file, where there is one) by the code the runner makes the footers with. A file that
    cannot be read, or whose values are impossible, raises :class:`DatasetError` naming the
    shard's files."""
    if _summarized(part, blocking, teams):
        with contextlib.suppress(B.SummaryError):
            return B.read_summary(part.summary or b"")
    files = [str(part.path)] + ([str(games)] if games.exists() else [])
    try:
        hands = _read(part.path, list(B.HAND_COLUMNS))
        tables = B.hand_tables(hands, blocking, teams=teams)
        if games.exists():
            game_rows = _read(games, list(B.GAME_COLUMNS))
            tables += B.game_tables_of(game_rows, hands, blocking, teams=teams)
    except (OSError, pa.ArrowException) as err:
        raise damaged(files, f"cannot read the Parquet file ({err})") from None
    except B.ChunkError as err:
        raise damaged(files, str(err)) from None
    return {n: B.in_key_order(t, k) for n, t, k in zip(B.TABLES, tables, B.KEYED, strict=False)}


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    seats = max(a.players for a in ds.arms)
    teams = {a.name for a in ds.arms if a.teams}
    hand_parts = _parts(ds.root / "hands")
    block, stride, by_game = _blocking_of(ds, hand_parts)
    per_game = stride == GAME_DEAL_STRIDE
    known = REASON_NAMES + ("other",)  # every end reason; the report shows those that occur
    seconds = model_seconds(time_model(ds.manifest))
    blocking = B.Blocking(block, stride, seats, known, by_game, seconds)
    names = dict(zip(B.TABLES, B.table_names(seats, known), strict=True))
    pieces: dict[str, list[tuple[str, B.Rows]]] = {name: [] for name in B.TABLES}
    shards = [(arm, part) for arm, parts in hand_parts.items() for part in parts]

    def tables(shard: tuple[str, Part]) -> dict:
        arm, part = shard
        games = ds.root / "games" / f"arm={arm}" / part.path.name
        return _shard_tables(part, games, blocking, arm in teams)

    # two shards read and reduced at a time (the readers and kernels leave the GIL)
    pool = ThreadPoolExecutor(2)
    try:
        for (arm, _part), reduced in zip(shards, pool.map(tables, shards), strict=True):
            for name, rows in reduced.items():
                pieces[name].append((arm, rows))
    finally:
        pool.shutdown(cancel_futures=True)
    frames = {name: _frame(pieces[name], names[name]) for name in B.TABLES}
    hb = _summed(frames["hands"], names["hands"])
    seen = tuple(r for r in known if hb[f"r_{r}"].sum() > 0)
    hist = {n: _per_arm(frames[n], names[n][0]) for n in B.TABLES if n not in ("hands", "games")}
    return Aggregates(
        hand_blocks=hb.drop([f"r_{r}" for r in known if r not in seen]),
        game_blocks=_summed(frames["games"], names["games"]),
        hist=hist,
        seats=seats,
        reasons=seen,
        block=block,
        per_game_deals=per_game,
        by_game=by_game,
    )
