"""Per-arm aggregates of a dataset, computed by polars over the Parquet files.

The hands are read once, in chunks of whole files of at most :data:`CHUNK_ROWS` hands of
one arm and only the columns the report needs (:data:`HAND_COLUMNS`), so memory depends on
the chunk size, the number of arms, blocks and distinct values, not on the number of hands.
From each chunk come its cells (hands summed per block, winner, dealer, table and end
reason), its histograms of turns and points (``np.bincount``) and its games joined with
their last hands; the chunks' small tables are then summed. The results are small tables:

* hand blocks: per (arm, shard, block of ``block`` consecutive deals) the sums every hand
  statistic of the report is made of (:func:`hand_sum_names`); the paired bootstrap of
  :mod:`sim.report.stats` resamples these blocks;
* game blocks: the same for games (:func:`game_sum_names`), blocks of consecutive game numbers;
* histograms: turns per hand, points per hand and hands per game, per arm, from which the
  quantiles, distributions and survival curves are exact;
* skill: per arm and seating of bots, wins and points per seat (for mixed line-ups).

"Points won per hand" is the sum of the absolute values of a hand's scores: what the winner
takes under ``pip_to_winner``/``per_card`` scoring (the others score 0), and the penalties
paid in the hand under ``penalty`` scoring, so the same column measures the score swing of a
hand whatever the scoring (RULES.md §2G.29).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq

from sim.engine.layout import GAME_DEAL_STRIDE, REASON_NAMES
from sim.report.dataset import Dataset

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
    game_block: int
    per_game_deals: bool = False

    @property
    def blocks_text(self) -> str:
        """How hands and games were cut into bootstrap blocks, for the report."""
        hands = (
            f"blocks of {self.block} games' hands (deals numbered per game)"
            if self.per_game_deals
            else f"blocks of {self.block} consecutive deals"
        )
        return f"{hands}; games in blocks of {self.game_block}"


def hand_sum_names(seats: int, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The columns of a hand block, in order."""
    return (
        ("n", "turns", "turns2", "points", "points2", "decided", "dealer_win", "first_win")
        + tuple(f"win{s}" for s in range(seats))
        + tuple(f"seats{s}" for s in range(seats))
        + tuple(f"pts{s}" for s in range(seats))
        + tuple(f"r_{r}" for r in reasons)
    )


def game_sum_names(seats: int) -> tuple[str, ...]:
    """The columns of a game block, in order."""
    return (
        "n",
        "hands",
        "hands2",
        "margin",
        "margin2",
        "comeback",
        "decided",
        "lead_changes",
        "capped",
    ) + tuple(f"gwin{s}" for s in range(seats))


def block_size(rows: int, target_blocks: int = 400, cap: int = 1000) -> int:
    """Rows per block so that the smallest arm has about ``target_blocks`` blocks."""
    return max(1, min(cap, rows // target_blocks))


HAND_COLUMNS = (
    "shard",
    "game",
    "hand",
    "deal",
    "winner",
    "dealer",
    "players",
    "turns",
    "end_reason",
    "hand_scores",
)
"""The columns of the hands files the report reads (each once)."""

CELL_KEYS = ("shard", "block", "winner", "dealer", "players", "end_reason")
"""A cell: the hands of one block with the same winner, dealer, table and end reason. Every
hand block sum is a sum over cells, and within a cell the indicator columns (wins, dealer
and first-player wins, end reasons) are constant, so they are computed per cell, not per
hand."""


def as_teams(hands: pl.DataFrame) -> pl.DataFrame:
    """A partnership arm's hands with each team as one seat (seats 0 and 2 are team A, 1
    and 3 team B; both partners carry the team's hand score): the winner and the dealer
    become their team (0 or 1), the table 2 sides, the hand scores the two teams'."""
    winner = pl.col("winner")
    dtype = hands.schema
    return hands.with_columns(
        pl.when(winner >= 0).then(winner % 2).otherwise(winner).cast(dtype["winner"]),
        (pl.col("dealer") % 2).cast(dtype["dealer"]),
        pl.lit(2).cast(dtype["players"]).alias("players"),
        pl.col("hand_scores").list.head(2),
    )


def _seat_scores(seats: int) -> list[pl.Expr]:
    return [
        pl.col("hand_scores").list.get(s, null_on_oob=True).cast(pl.Int64).fill_null(0)
        for s in range(seats)
    ]


def _cells(hands: pl.DataFrame, deal_unit: pl.Expr, block: int, seats: int) -> pl.DataFrame:
    """One chunk's hands summed per cell (:data:`CELL_KEYS`): n, Σturns, Σturns², Σpoints,
    Σpoints² and the points of every seat."""
    turns = pl.col("turns").cast(pl.Int64)
    points = pl.col("points")
    return (
        hands.lazy()
        .group_by(pl.col("shard"), (deal_unit // block).alias("block"), *CELL_KEYS[2:])
        .agg(
            pl.len().cast(pl.Int64).alias("n"),
            turns.sum().alias("turns"),
            (turns * turns).sum().alias("turns2"),
            points.sum().alias("points"),
            (points * points).sum().alias("points2"),
            *[pl.col(f"pts{s}").sum() for s in range(seats)],
        )
        .collect()
    )


def block_histogram(shard: pl.Series, block: pl.Series, values: pl.Series) -> pl.DataFrame:
    """How many rows have each value, per (shard, block): ``group_by(shard, block,
    values.name).len()``, counted with one ``np.bincount`` over a combined key when the
    values are small non-negative integers (turns, points, hands and margins are)."""
    frame = pl.DataFrame([shard.alias("shard"), block.alias("block"), values])
    name = values.name
    if len(values) == 0 or values.null_count() or values.min() < 0 or block.min() < 0:
        return frame.drop_nulls().group_by("shard", "block", name).len()
    s, b, v = (x.to_numpy().astype(np.int64) for x in (shard, block, values))
    s0, b0 = int(s.min()), int(b.min())
    nb, nv = int(b.max()) - b0 + 1, int(v.max()) + 1
    size = (int(s.max()) - s0 + 1) * nb * nv
    if size > 1 << 26:  # too sparse for a dense count
        return frame.group_by("shard", "block", name).len()
    counts = np.bincount(((s - s0) * nb + (b - b0)) * nv + v, minlength=size)
    key = np.flatnonzero(counts)
    return pl.DataFrame(
        {
            "shard": pl.Series(key // (nb * nv) + s0).cast(shard.dtype),
            "block": pl.Series((key // nv) % nb + b0).cast(block.dtype),
            name: pl.Series(key % nv).cast(values.dtype),
            "len": pl.Series(counts[key]).cast(pl.UInt32),
        }
    )


def _per_arm(blocks: pl.DataFrame, name: str) -> pl.DataFrame:
    """A per-block histogram summed over the blocks of each arm."""
    return blocks.group_by("arm", name).agg(pl.col("len").sum()).sort("arm", name)


def _block_columns(seats: int, reasons: tuple[str, ...]) -> list[pl.Expr]:
    """The hand block sums of :func:`hand_sum_names` from a table of cells."""
    n = pl.col("n")
    winner = pl.col("winner").cast(pl.Int32)
    players = pl.col("players").cast(pl.Int32)
    dealer = pl.col("dealer").cast(pl.Int32)

    def count(condition: pl.Expr) -> pl.Expr:
        return condition.cast(pl.Int64) * n

    cols = [
        n,
        pl.col("turns"),
        pl.col("turns2"),
        pl.col("points"),
        pl.col("points2"),
        count(winner >= 0).alias("decided"),
        count(winner == dealer).alias("dealer_win"),
        count(winner == (dealer + 1) % players).alias("first_win"),
    ]
    cols += [count(winner == s).alias(f"win{s}") for s in range(seats)]
    cols += [count(players > s).alias(f"seats{s}") for s in range(seats)]
    cols += [pl.col(f"pts{s}") for s in range(seats)]
    reason = pl.col("end_reason").cast(pl.String)
    cols += [
        count(~reason.is_in(REASONS) if r == "other" else reason == r).alias(f"r_{r}")
        for r in reasons
    ]
    return cols


def _file_chunks(ds: Dataset, max_rows: int) -> list[tuple[str, list[str], list[str]]]:
    """(arm, hands files, games files) in chunks of at most ``max_rows`` hands (or one
    file): every hands file, each with the games file of the same shard where there is one."""
    chunks = []
    for folder in sorted((ds.root / "hands").glob("arm=*")):
        arm = folder.name.removeprefix("arm=")
        hands: list[str] = []
        games: list[str] = []
        rows = 0
        for part in sorted(folder.glob("*.parquet")):
            n = pq.read_metadata(part).num_rows
            if hands and rows + n > max_rows:
                chunks.append((arm, hands, games))
                hands, games, rows = [], [], 0
            hands.append(str(part))
            other = ds.root / "games" / folder.name / part.name
            if other.exists():
                games.append(str(other))
            rows += n
        if hands:
            chunks.append((arm, hands, games))
    return chunks


def _game_frame(arm: str, hands: pl.DataFrame, games_files: list[str], seats: int, teams: bool):
    """One chunk's games with their final margin and whether the winner trailed before the
    last hand (final totals minus the last hand's scores), joined on (shard, game, hand)
    with the chunk's hands (already read). ``teams``: a partnership arm, whose hands are
    already :func:`as_teams` and whose final scores are read as the two teams'."""
    last = hands.lazy().select(
        "shard",
        "game",
        "hand",
        *[pl.col("hand_scores").list.get(s, null_on_oob=True).alias(f"h{s}") for s in range(seats)],
    )
    games = pl.scan_parquet(games_files).with_columns((pl.col("hands") - 1).alias("hand"))
    joined = games.join(last, on=["shard", "game", "hand"], how="left")
    final = pl.col("final_scores").list.head(2) if teams else pl.col("final_scores")
    before = [final.list.get(s, null_on_oob=True) - pl.col(f"h{s}") for s in range(seats)]
    winner = pl.col("winner").cast(pl.Int32)
    winner_before = pl.coalesce([pl.when(winner == s).then(before[s]) for s in range(seats)])
    ranked = final.list.sort(descending=True)
    margin = (ranked.list.get(0, null_on_oob=True) - ranked.list.get(1, null_on_oob=True)).cast(
        pl.Int64
    )
    hands = pl.col("hands").cast(pl.Int64)
    cols = [
        pl.lit(1, pl.Int64).alias("n"),
        hands.alias("hands"),
        (hands * hands).alias("hands2"),
        margin.alias("margin"),
        (margin * margin).alias("margin2"),
        ((winner >= 0) & (winner_before < pl.max_horizontal(before)))
        .fill_null(False)
        .cast(pl.Int64)
        .alias("comeback"),
        (winner >= 0).cast(pl.Int64).alias("decided"),
        pl.col("lead_changes").cast(pl.Int64).alias("lead_changes"),
        pl.col("capped").cast(pl.Int64).alias("capped"),
    ]
    cols += [(winner == s).cast(pl.Int64).alias(f"gwin{s}") for s in range(seats)]
    return joined.select(pl.lit(arm).alias("arm"), "shard", "game", *cols)


def _rows_per_arm(folder: Path) -> dict[str, int]:
    """Rows of every arm from the Parquet footers (no data read)."""
    rows: dict[str, int] = {}
    for part in folder.glob("arm=*/*.parquet"):
        arm = part.parent.name.removeprefix("arm=")
        rows[arm] = rows.get(arm, 0) + pq.read_metadata(part).num_rows
    return rows


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


def _deals_per_game(ds: Dataset) -> bool:
    """Whether the deals are numbered per game (``game * GAME_DEAL_STRIDE + hand``, as
    mirrored runs do) rather than one after another: read from the footers' statistics."""
    top = 0
    for part in (ds.root / "hands").glob("arm=*/*.parquet"):
        meta = pq.read_metadata(part)
        names = [meta.schema.column(i).name for i in range(meta.num_columns)]
        if "deal" not in names:
            continue
        col = names.index("deal")
        for g in range(meta.num_row_groups):
            stats = meta.row_group(g).column(col).statistics
            if stats is None or not stats.has_min_max:
                value = ds.hands().select(pl.col("deal").max()).collect().item()
                return value is not None and value >= GAME_DEAL_STRIDE
            top = max(top, int(stats.max))
    return top >= GAME_DEAL_STRIDE


CHUNK_ROWS = 500_000
"""Hands per chunk (whole files): each chunk's columns are read once into memory (about 60
bytes a hand), summed into cells and histograms and joined with its games."""


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    seats = max(a.players for a in ds.arms)
    teams = {a.name for a in ds.arms if a.teams}
    games_per_arm = min(_rows_per_arm(ds.root / "games").values())
    game_block = block_size(games_per_arm)
    per_game = _deals_per_game(ds)
    if per_game:
        # mirrored runs number deals per game (game * GAME_DEAL_STRIDE + hand): block games
        block = block_size(games_per_arm)
        deal_unit = pl.col("deal") // GAME_DEAL_STRIDE
    else:
        block = block_size(min(_rows_per_arm(ds.root / "hands").values()))
        deal_unit = pl.col("deal")
    known = REASONS + ("other",)
    gnames = game_sum_names(seats)
    cells, game_parts = [], []
    turns_parts, points_parts, hands_parts, margin_parts = [], [], [], []
    for arm, hands_files, games_files in _file_chunks(ds, CHUNK_ROWS):
        # the chunk's hands, read once: cells, histograms and the games' last hands
        hands = pl.read_parquet(hands_files, columns=list(HAND_COLUMNS))
        if arm in teams:
            hands = as_teams(hands)
        hands = hands.with_columns(
            *[score.alias(f"pts{s}") for s, score in enumerate(_seat_scores(seats))]
        )
        hands = hands.with_columns(
            pl.sum_horizontal([pl.col(f"pts{s}").abs() for s in range(seats)]).alias("points")
        )
        arm_col = pl.lit(arm).alias("arm")
        cells.append(_cells(hands, deal_unit, block, seats).with_columns(arm_col))
        blocks = hands.select(deal_unit // block)["deal"]
        for parts, col in ((turns_parts, "turns"), (points_parts, "points")):
            parts.append(block_histogram(hands["shard"], blocks, hands[col]).with_columns(arm_col))
        if not games_files:
            continue
        # one row per game of this chunk: small enough to hold
        games = _game_frame(arm, hands, games_files, seats, arm in teams).collect()
        games = games.with_columns((pl.col("game") // game_block).alias("block"))
        game_parts.append(
            games.group_by("arm", "shard", "block").agg([pl.col(c).sum() for c in gnames])
        )
        for parts, col in ((hands_parts, "hands"), (margin_parts, "margin")):
            hist = block_histogram(games["shard"], games["block"], games[col])
            parts.append(hist.with_columns(arm_col))
    names = hand_sum_names(seats, known)
    hb = (
        pl.concat(cells, how="diagonal_relaxed")
        .select("arm", "shard", "block", *_block_columns(seats, known))
        .group_by("arm", "shard", "block")
        .agg([pl.col(c).sum() for c in names])
    )
    turns_blocks, points_blocks, hands_blocks, margin_blocks = (
        pl.concat(parts)
        .select("arm", "shard", "block", col, "len")
        .sort("arm", "shard", "block", col)
        for parts, col in (
            (turns_parts, "turns"),
            (points_parts, "points"),
            (hands_parts, "hands"),
            (margin_parts, "margin"),
        )
    )
    sk = _skill(ds, seats)
    seen = [r for r in known if hb[f"r_{r}"].sum() > 0]
    reasons = tuple(seen)
    hb = hb.drop([f"r_{r}" for r in known if r not in seen])
    gb = pl.concat(game_parts).group_by("arm", "shard", "block").agg(pl.all().sum())
    return Aggregates(
        hand_blocks=hb.sort("arm", "shard", "block"),
        game_blocks=gb.sort("arm", "shard", "block"),
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
