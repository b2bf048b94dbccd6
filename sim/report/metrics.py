"""Per-arm aggregates of a dataset, computed by polars lazily over the Parquet files.

Nothing here collects rows: every query is a ``group_by`` aggregation run by polars'
streaming engine, so memory depends on the number of arms, blocks and distinct values, not
on the number of hands. The results are small tables:

* hand blocks: per (arm, shard, block of ``block`` consecutive deals) the sums every hand
  statistic of the report is made of (:data:`HAND_SUMS`); the paired bootstrap of
  :mod:`sim.report.stats` resamples these blocks;
* game blocks: the same for games (:data:`GAME_SUMS`), blocks of consecutive game numbers;
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

import polars as pl
import pyarrow.parquet as pq

from sim.engine.layout import GAME_DEAL_STRIDE
from sim.report.dataset import Dataset

ENGINE = "streaming"
REASONS = (
    "went_out",
    "went_rummy",
    "block",
    "stalled",
    "exhausted",
    "knock",
    "gin",
    "undercut",
    "void",
)
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


def _hand_columns(seats: int, reasons: tuple[str, ...]) -> list[pl.Expr]:
    winner = pl.col("winner").cast(pl.Int32)
    players = pl.col("players").cast(pl.Int32)
    dealer = pl.col("dealer").cast(pl.Int32)
    turns = pl.col("turns").cast(pl.Int64)
    seat_scores = [
        pl.col("hand_scores").list.get(s, null_on_oob=True).cast(pl.Int64).fill_null(0)
        for s in range(seats)
    ]
    points = pl.sum_horizontal([score.abs() for score in seat_scores])
    cols = [
        pl.lit(1, pl.Int64).alias("n"),
        turns.alias("turns"),
        (turns * turns).alias("turns2"),
        points.alias("points"),
        (points * points).alias("points2"),
        (winner >= 0).cast(pl.Int64).alias("decided"),
        (winner == dealer).cast(pl.Int64).alias("dealer_win"),
        (winner == (dealer + 1) % players).cast(pl.Int64).alias("first_win"),
    ]
    cols += [(winner == s).cast(pl.Int64).alias(f"win{s}") for s in range(seats)]
    cols += [(players > s).cast(pl.Int64).alias(f"seats{s}") for s in range(seats)]
    cols += [score.alias(f"pts{s}") for s, score in enumerate(seat_scores)]
    reason = pl.col("end_reason").cast(pl.String)
    cols += [
        (~reason.is_in(REASONS) if r == "other" else reason == r).cast(pl.Int64).alias(f"r_{r}")
        for r in reasons
    ]
    return cols


def _file_chunks(ds: Dataset, max_rows: int) -> list[tuple[str, list[str], list[str]]]:
    """(arm, hands files, games files) in chunks of at most ``max_rows`` hands (or one
    shard), matching each games file with the hands file of the same shard."""
    chunks = []
    for folder in sorted((ds.root / "hands").glob("arm=*")):
        arm = folder.name.removeprefix("arm=")
        hands: list[str] = []
        games: list[str] = []
        rows = 0
        for part in sorted(folder.glob("*.parquet")):
            other = ds.root / "games" / folder.name / part.name
            if not other.exists():
                continue
            n = pq.read_metadata(part).num_rows
            if hands and rows + n > max_rows:
                chunks.append((arm, hands, games))
                hands, games, rows = [], [], 0
            hands.append(str(part))
            games.append(str(other))
            rows += n
        if hands:
            chunks.append((arm, hands, games))
    return chunks


def _game_frame(arm: str, hands_files: list[str], games_files: list[str], seats: int):
    """One chunk's games with their final margin and whether the winner trailed before the
    last hand (final totals minus the last hand's scores), joined on (shard, game, hand)."""
    last = pl.scan_parquet(hands_files).select(
        "shard",
        "game",
        "hand",
        *[pl.col("hand_scores").list.get(s, null_on_oob=True).alias(f"h{s}") for s in range(seats)],
    )
    games = pl.scan_parquet(games_files).with_columns((pl.col("hands") - 1).alias("hand"))
    joined = games.join(last, on=["shard", "game", "hand"], how="left")
    final = pl.col("final_scores")
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


JOIN_CHUNK_ROWS = 2_000_000
"""Hands per chunk of the games-to-last-hand join: bounds the join's memory."""


def aggregate(ds: Dataset) -> Aggregates:
    """Run every aggregation of the report over the dataset."""
    hands = ds.hands()
    seats = max(a.players for a in ds.arms)
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

    names = hand_sum_names(seats, known)
    per_hand = hands.select(
        "arm",
        "shard",
        (deal_unit // block).alias("block"),
        *_hand_columns(seats, known),
    )
    hand_blocks = per_hand.group_by("arm", "shard", "block").agg([pl.col(c).sum() for c in names])
    turns_hist = hands.group_by("arm", "turns").len()
    points_hist = per_hand.group_by("arm", "points").len()
    hands_hist = ds.games().group_by("arm", "hands").len()
    # one query at a time: collect_all would share (and so cache) the scan of the hands
    hb, th, ph, hh = (
        q.collect(engine=ENGINE) for q in (hand_blocks, turns_hist, points_hist, hands_hist)
    )
    sk = _skill(ds, seats)
    seen = [r for r in known if hb[f"r_{r}"].sum() > 0]
    reasons = tuple(seen)
    hb = hb.drop([f"r_{r}" for r in known if r not in seen])
    gnames = game_sum_names(seats)
    game_parts, margin_parts = [], []
    for arm, hands_files, games_files in _file_chunks(ds, JOIN_CHUNK_ROWS):
        # one row per game of this chunk: small enough to hold, and read once
        games = _game_frame(arm, hands_files, games_files, seats).collect(engine=ENGINE)
        game_parts.append(
            games.with_columns((pl.col("game") // game_block).alias("block"))
            .group_by("arm", "shard", "block")
            .agg([pl.col(c).sum() for c in gnames])
        )
        margin_parts.append(games.group_by("arm", "margin").len())
    gb = pl.concat(game_parts).group_by("arm", "shard", "block").agg(pl.all().sum())
    mh = pl.concat(margin_parts).group_by("arm", "margin").agg(pl.col("len").sum())
    return Aggregates(
        hand_blocks=hb.sort("arm", "shard", "block"),
        game_blocks=gb.sort("arm", "shard", "block"),
        turns_hist=th.sort("arm", "turns"),
        points_hist=ph.sort("arm", "points"),
        hands_hist=hh.sort("arm", "hands"),
        margin_hist=mh.drop_nulls().sort("arm", "margin"),
        skill=sk.sort("arm", "seating"),
        seats=seats,
        reasons=reasons,
        block=block,
        game_block=game_block,
        per_game_deals=per_game,
    )
