"""From aggregates to what the report says: per-arm metrics with intervals, comparisons
with the baseline arm (paired block bootstrap, Holm-adjusted p-values).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from sim.dataset.summaries import game_sum_names, hand_sum_names
from sim.dataset.timing import ACTION_SUMS, time_model
from sim.report.dataset import Arm, Dataset
from sim.report.metrics import BOOTSTRAP_BLOCKS, Aggregates
from sim.report.stats import (
    QUANTILES,
    Interval,
    Sums,
    block_bootstrap,
    hist_summary,
    holm,
    wilson,
)
from sim.rules.diff import diff_text

ALPHA = 0.05
SURVIVAL_TURNS = (10, 20, 30, 50)
"""Turns at which the summary gives the share of hands already over (the survival curve)."""


@dataclass(frozen=True)
class Metric:
    """A statistic estimated per arm (and, but for an ``edge``, compared with the baseline):
    ``fn`` maps block sums to it; ``kind`` is ``share`` (shown in percent), ``edge`` (a seat
    advantage, :func:`seat_edges`, in percentage points), ``mean`` or ``other``."""

    name: str
    title: str
    level: str  # "hand" or "game"
    kind: str
    fn: Callable[[Sums], np.ndarray]
    decimals: int = 1

    def scale(self) -> float:
        return 100.0 if self.kind in ("share", "edge") else 1.0


def _sd(total: str, squares: str) -> Callable[[Sums], np.ndarray]:
    def fn(s: Sums) -> np.ndarray:
        n = s["n"]
        mean = s[total] / n
        return np.sqrt(np.maximum(s[squares] / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1))

    return fn


def _ratio(num: str, den: str = "n") -> Callable[[Sums], np.ndarray]:
    return lambda s: s[num] / s[den]


def _minutes(seconds: Mapping[str, float]) -> Callable[[Sums], np.ndarray]:
    """Minutes per hand under the time model ``seconds`` (``sim.dataset.timing``)."""

    def fn(s: Sums) -> np.ndarray:
        charged = sum(seconds[action] * s[name] for action, name in ACTION_SUMS.items())
        return (seconds["hand"] * s["n"] + charged) / (60.0 * s["n"])

    return fn


def _dealer_points(sides: int) -> Callable[[Sums], np.ndarray]:
    """The dealer's side's score per hand minus the mean side's: his edge in points (0 on a
    fair table; in a zero-sum scoring, his own score per hand)."""
    return lambda s: (s["dealer_points"] - s["side_points"] / sides) / s["n"]


def metrics_for(
    players: int,
    reasons: tuple[str, ...],
    teams: bool,
    seconds: Mapping[str, float],
) -> list[Metric]:
    """The metrics compared between arms of one table size (``teams``: a partnership table;
    ``seconds``: the time model, ``sim.dataset.timing``)."""
    dealer = "dealer's team's" if teams else "dealer's"
    first = "first player's team's" if teams else "first player's"
    # fmt: off
    out = [
        Metric("turns_mean", "turns per hand (mean)", "hand", "mean", _ratio("turns"), 1),
        Metric("turns_sd", "turns per hand (sd)", "hand", "other", _sd("turns", "turns2"), 2),
        Metric("hands_per_game", "hands per game (mean)", "game", "mean", _ratio("hands"), 2),
        Metric("points_mean", "points won per hand (mean)", "hand", "mean", _ratio("points"), 1),
        Metric("points_sd", "points won per hand (sd)", "hand", "other", _sd("points", "points2")),
        Metric("margin_mean", "final margin of a game (mean)", "game", "mean", _ratio("margin")),
        Metric("comeback_share", "games won from behind", "game", "share", _ratio("comeback")),
        Metric("lead_changes", "lead changes per game", "game", "mean", _ratio("lead_changes"),
               2),
        Metric("dealer_win", f"{dealer} hand win rate", "hand", "share", _ratio("dealer_win")),
        Metric("first_win", f"{first} hand win rate", "hand", "share", _ratio("first_win")),
        Metric("dealer_points_edge", f"{dealer} points per hand - a side's mean", "hand",
               "mean", _dealer_points(2 if teams else players), 2),
        Metric("minutes_mean", "minutes per hand (time model)", "hand", "other",
               _minutes(seconds), 2),
        Metric("minutes_per_game", "minutes per game (time model)", "game", "other",
               lambda s: s["seconds"] / (60.0 * s["n"]), 1),
    ]
    out += [Metric(f"share_{r}", f"hands: {r}", "hand", "share", _ratio(f"r_{r}"))
            for r in reasons]
    # fmt: on
    return out


@dataclass
class Comparison:
    """One metric of one arm against its baseline."""

    arm: Arm
    metric: Metric
    baseline_value: float
    arm_value: float
    interval: Interval
    p_holm: float = math.nan


@dataclass
class Report:
    """Everything the outputs are drawn from."""

    dataset: Dataset
    agg: Aggregates
    rows: pl.DataFrame  # one row per arm and metric
    comparisons: list[Comparison]
    hands: dict[str, int]
    games: dict[str, int]
    resamples: int = 2000
    seed: int = 0
    estimates: dict[tuple[str, str], Interval] = field(default_factory=dict)
    """Each (arm, statistic)'s own block bootstrap interval, with its p-value against 0 (what
    the seat advantage on the answer card is adjusted from)."""


def _of_arm(frame: pl.DataFrame, arm: str) -> pl.DataFrame:
    return frame.filter(pl.col("arm") == arm)


def _sums(frame: pl.DataFrame, names: tuple[str, ...], suffix: str = "") -> Sums:
    return Sums(names, frame.select([n + suffix for n in names]).to_numpy().astype(float))


def _capped(sums: Sums) -> Sums:
    """Blocks (rows in (shard, block) order) with neighbours merged into at most
    :data:`BOOTSTRAP_BLOCKS` (sums add up, so a merged block is the blocks' union)."""
    k = sums.values.shape[0]
    if k <= BOOTSTRAP_BLOCKS:
        return sums
    # merged block j starts at block ceil(j k / most): block i goes to i * most // k
    starts = (np.arange(BOOTSTRAP_BLOCKS) * k + BOOTSTRAP_BLOCKS - 1) // BOOTSTRAP_BLOCKS
    return Sums(sums.names, np.add.reduceat(sums.values, starts, axis=0))


def arm_sums(frame: pl.DataFrame, arm: str, names: tuple[str, ...]) -> Sums:
    """One arm's hand or game blocks as sums, neighbours merged into at most
    :data:`BOOTSTRAP_BLOCKS` (:func:`_capped`)."""
    return _capped(_sums(_of_arm(frame, arm), names))


def _paired(a: pl.DataFrame, b: pl.DataFrame, names: tuple[str, ...]) -> tuple[Sums, Sums]:
    """Both arms' blocks lined up on (shard, block); a block one arm lacks counts as empty.

    A block is a set of deal numbers, the same in every arm, so resampling blocks jointly
    keeps the deals the two arms share together (a paired cluster bootstrap). Where both
    arms played the same deals of a block (sequential deals, the same number of hands), the
    pairing is exact; where they did not (a shard's last block, games of different length
    when deals are numbered per game), the block still carries what is common to its deals.
    Neighbouring blocks are then merged, the same in both arms, into at most
    :data:`BOOTSTRAP_BLOCKS` (:func:`_capped`).
    """
    keys = ["shard", "block"]
    both = a.join(b, on=keys, how="full", coalesce=True, suffix="_b").sort(keys).fill_null(0)
    return _capped(_sums(both, names)), _capped(_sums(both, names, "_b"))


def _both_arms(frame, arms: tuple[str, str], names, paired: bool) -> tuple[Sums, Sums]:
    """Two arms' blocks as sums: lined up on (shard, block) (:func:`_paired`) when ``paired``,
    else each arm's own (:func:`arm_sums`)."""
    if paired:
        blocks = (_of_arm(frame, a).select("shard", "block", *names) for a in arms)
        return _paired(*blocks, names)
    return arm_sums(frame, arms[0], names), arm_sums(frame, arms[1], names)


def analyse(
    ds: Dataset,
    agg: Aggregates,
    *,
    resamples: int = 2000,
    seed: int = 0,
) -> Report:
    """Per-arm metrics and comparisons with the baseline (every bootstrap seeded on its own
    from ``seed``)."""
    hnames = hand_sum_names(agg.seats, agg.reasons)
    gnames = game_sum_names(agg.seats)
    seconds = time_model(ds.manifest)
    metric_rows: dict[str, list[dict]] = {}
    estimates: dict[tuple[str, str], Interval] = {}
    hands_n: dict[str, int] = {}
    games_n: dict[str, int] = {}
    for arm in ds.arms:
        hb = arm_sums(agg.hand_blocks, arm.name, hnames)
        gb = arm_sums(agg.game_blocks, arm.name, gnames)
        hands_n[arm.name] = int(hb["n"].sum())
        games_n[arm.name] = int(gb["n"].sum())
        metrics = metrics_for(arm.players, agg.reasons, arm.teams, seconds)
        metrics += seat_edges(arm.seats, arm.teams)
        for level, sums in (("hand", hb), ("game", gb)):
            stats = {m.name: m.fn for m in metrics if m.level == level}
            for name, iv in block_bootstrap(stats, sums, resamples=resamples, seed=seed).items():
                estimates[(arm.name, name)] = iv
        metric_rows[arm.name] = _metric_rows(arm, agg, hb, gb, metrics, estimates)
    comparisons = _compare(ds, agg, seconds, estimates, resamples, seed)
    for c, p in zip(comparisons, holm([c.interval.p for c in comparisons]), strict=True):
        c.p_holm = p

    rows = {arm.name: _distribution_rows(arm, agg) + metric_rows[arm.name] for arm in ds.arms}
    rows_out = _with_comparisons(rows, comparisons) + skill_rows(ds)
    frame = pl.DataFrame(rows_out, schema=SUMMARY_SCHEMA, strict=False)
    return Report(ds, agg, frame, comparisons, hands_n, games_n, resamples, seed, estimates)


def _with_comparisons(rows: dict[str, list[dict]], comparisons: list[Comparison]) -> list[dict]:
    """Every arm's rows in arm order, each metric compared with the baseline carrying its
    difference, interval and p-values."""
    out = [row for arm_rows in rows.values() for row in arm_rows]
    at = {(row["arm"], row["metric"]): row for row in out}
    for c in comparisons:
        s, iv = c.metric.scale(), c.interval
        at[(c.arm.name, c.metric.name)].update(baseline=c.arm.baseline, diff=iv.estimate * s,
                                               diff_low=iv.low * s, diff_high=iv.high * s,
                                               p_value=iv.p, p_holm=c.p_holm)  # fmt: skip
    return out


def rule_changes_text(arm: Arm) -> str:
    """What the arm changes against its baseline, every resolved setting (``sim.rules.diff``),
    and its seed when it has its own (compared unpaired); ``"baseline"`` for a baseline arm."""
    if arm.is_baseline:
        return "baseline"
    text = diff_text(arm.rule_changes)
    return text + (f"; own seed {arm.seed} (compared unpaired)" if arm.own_seed else "")


def fmt_ci(value, low, high, decimals: int = 1, sign: str = "") -> str:
    """``12.3 [11.9, 12.7]`` (``sign="+"``: ``+12.3 [11.9, 12.7]``), with more decimals, up to
    6, where fewer would print the estimate and an end alike (issue #30: ``2.4 [2.4, 2.4]``
    says nothing); without an interval the value alone, NaN or None as an en dash."""
    if value is None or math.isnan(value):
        return "–"
    ends = (low, value, high)
    if any(x is None or math.isnan(x) for x in ends):
        return f"{value:{sign}.{decimals}f}"
    while decimals < 6 and len({f"{x:.{decimals}f}" for x in ends}) < len(set(ends)):
        decimals += 1
    return f"{value:{sign}.{decimals}f} [{low:.{decimals}f}, {high:.{decimals}f}]"


_S, _I, _F = pl.String, pl.Int64, pl.Float64
SUMMARY_SCHEMA = {
    "arm": _S, "ruleset": _S, "players": _I, "lineup": _S, "rule_changes": _S, "metric": _S,
    "title": _S, "value": _F, "ci_low": _F, "ci_high": _F, "interval": _S, "n": _I,
    "baseline": _S, "diff": _F, "diff_low": _F, "diff_high": _F,
    "p_value": _F, "p_holm": _F,
}  # fmt: skip
"""summary.parquet's columns (docs/report.md)."""


def _row(arm: Arm, metric: str, title: str, est, how: str, n: int, scale=1.0, fair=0.0) -> dict:
    """A row of the summary (:data:`SUMMARY_SCHEMA`'s columns up to ``n``; the comparison's
    are added by :func:`_with_comparisons`): ``est`` is (value, low, high), None where there
    is none, shown as ``(x - fair) * scale``; ``how`` names the interval."""
    value, low, high = (None if x is None else (x - fair) * scale for x in est)
    cells = (arm.name, arm.ruleset, arm.players, arm.lineup, rule_changes_text(arm), metric,
             title, value, low, high, how, int(n))  # fmt: skip
    return dict(zip(SUMMARY_SCHEMA, cells, strict=False))


def _wilson_row(arm: Arm, metric: str, title: str, k: float, n: float, fair=0.0) -> dict:
    """A row of a share with its Wilson interval, in percent (minus ``fair``'s percent)."""
    return _row(arm, metric, title, wilson(float(k), float(n)), "wilson", n, 100.0, fair)


def _distribution_rows(arm: Arm, agg: Aggregates) -> list[dict]:
    """An arm's quantiles (from its histograms, without intervals) and survival shares
    (Wilson)."""
    rows = []
    for key, hist, noun in (
        ("turns", agg.hist["turns"], "turns per hand"),
        ("points", agg.hist["points"], "points won per hand"),
        ("hands", agg.hist["hands_hist"], "hands per game"),
        ("margin", agg.hist["margin"], "final margin"),
    ):
        h = _of_arm(hist, arm.name)
        if h.height == 0:
            continue
        stats = hist_summary(h[key].to_numpy(), h["len"].to_numpy())
        if key == "points":
            stats["iqr"] = stats["p75"] - stats["p25"]
        for q in (*QUANTILES, "iqr") if key == "points" else QUANTILES:
            title = f"{noun} ({q.upper() if q == 'iqr' else q})"
            rows.append(_row(arm, f"{key}_{q}", title, (stats[q], None, None), "", stats["n"]))
    h = _of_arm(agg.hist["turns"], arm.name)
    turns, lengths = h["turns"].to_numpy(), h["len"].to_numpy().astype(np.int64)
    total = float(lengths.sum())
    for turn in SURVIVAL_TURNS:
        over = float(lengths[turns <= turn].sum())
        rows.append(_wilson_row(arm, f"over_by_{turn}", f"hands over by turn {turn}", over, total))
    return rows


def _metric_rows(arm, agg, hb, gb, metrics, estimates) -> list[dict]:
    """An arm's metrics and seat edges (bootstrap or Wilson intervals), first-player
    advantage and seats' win rates."""
    n = int(hb["n"].sum())
    g = int(gb["n"].sum())
    rows = []
    for m in metrics:
        iv, size = estimates[(arm.name, m.name)], n if m.level == "hand" else g
        if m.kind == "share":  # a count of the hands or games: the share times their number
            count = round(iv.estimate * size) if size else 0
            rows.append(_wilson_row(arm, m.name, m.title, count, size))
        else:
            est = (iv.estimate, iv.low, iv.high)
            rows.append(_row(arm, m.name, m.title, est, "bootstrap", size, m.scale()))
    # first-player advantage: the first player's share of the hands someone won, minus a
    # fair 1/players share (percentage points)
    title = "first-player advantage (share of won hands - fair share)"
    first, decided, fair = hb["first_win"].sum(), hb["decided"].sum(), 1.0 / arm.seats
    rows.append(_wilson_row(arm, "first_advantage", title, first, decided, fair))
    for s in range(arm.seats):
        side = f"team {'AB'[s]} (seats {s} and {s + 2})" if arm.teams else f"seat {s}"
        rows.append(
            _wilson_row(arm, f"seat{s}_win", f"{side} hand win rate", hb[f"win{s}"].sum(), n)
        )
        wins = gb[f"gwin{s}"].sum()
        rows.append(_wilson_row(arm, f"seat{s}_game_win", f"{side} game win rate", wins, g))
    return rows


def seat_edges(sides: int, teams: bool = False) -> list[Metric]:
    """Seat advantage at a table of ``sides`` sides (players, or two ``teams``;
    ``Arm.seats``) as metrics of kind ``edge``: each side's share of the hands someone won
    minus its fair share ``1 / sides`` (``seat<s>_edge``), the dealer's side's
    (``dealer_edge``), and each side's share of the games someone won minus the fair share
    (``seat<s>_game_edge``)."""
    fair = 1.0 / sides

    def edge(name: str, level: str, wins: str) -> Metric:
        title = f"{edge_title(name, teams)}: share of won ones - fair share (pp)"
        return Metric(name, title, level, "edge", lambda t: t[wins] / t["decided"] - fair)

    return [
        *(edge(f"seat{s}_edge", "hand", f"win{s}") for s in range(sides)),
        edge("dealer_edge", "hand", "dealer_win"),
        *(edge(f"seat{s}_game_edge", "game", f"gwin{s}") for s in range(sides)),
    ]


def edge_title(metric: str, teams: bool, phrase: bool = False) -> str:
    """What an edge metric of :func:`seat_edges` is, in words: a title (``seat 0, hands``,
    ``dealer's edge``), or a ``phrase`` (``seat 0's share of the won hands``)."""
    side = "dealer's team" if teams else "dealer"
    what = "hands"
    if metric != "dealer_edge":
        seat, what = int(metric[4 : metric.index("_")]), "games" if "game" in metric else "hands"
        side = f"team {'AB'[seat]}" if teams else f"seat {seat}"
    if phrase:
        return f"{'the ' * (metric == 'dealer_edge')}{side}'s share of the won {what}"
    return f"{side}'s edge" if metric == "dealer_edge" else f"{side}, {what}"


def skill_rows(ds: Dataset) -> list[dict]:
    """Skill, for each arm whose line-up mixes bots: each bot's hand win rate per seat (the
    hands it won over the seat-hands it played, Wilson) and its points per seat-hand (its
    seats' ``hand_scores`` entries; its team's at a partnership table), from one polars
    ``group_by`` over those arms' hands by seating (``lineup``: the bots by seat)."""
    mixed = {a.name: a for a in ds.arms if len(set(a.bots)) > 1}
    if not mixed:
        return []
    seats, scores = range(max(a.players for a in mixed.values())), pl.col("hand_scores")
    points = [scores.list.get(pl.lit(s) % scores.list.len()).cast(pl.Int64) for s in seats]
    per_seating = (
        ds.hands()
        .filter(pl.col("arm").is_in(list(mixed)))
        .group_by("arm", "lineup")
        .agg(
            pl.len().alias("n"),
            *[(pl.col("winner") == s).sum().alias(f"win{s}") for s in seats],
            *[p.sum().alias(f"pts{s}") for s, p in zip(seats, points, strict=True)],
        )
        .collect()
    )
    totals: dict[tuple[str, str], list[int]] = {}  # (arm, bot): seat-hands, wins, points
    for r in per_seating.iter_rows(named=True):
        for s, bot in enumerate(r["lineup"].split(",")):
            held = totals.setdefault((r["arm"], bot), [0, 0, 0])
            for i, value in enumerate((r["n"], r[f"win{s}"], r[f"pts{s}"])):
                held[i] += value
    rows = []
    for (name, bot), (n, wins, points) in sorted(totals.items()):
        arm, est = mixed[name], (points / n, None, None)
        rows.append(_wilson_row(arm, f"bot_{bot}_win", f"{bot}: hand win rate per seat", wins, n))
        rows.append(_row(arm, f"bot_{bot}_points", f"{bot}: points per seat-hand", est, "", n))
    return rows


def games_share_deals(agg: Aggregates) -> bool:
    """Whether the game blocks of two arms on one seed cover the same deals, so that they are
    compared paired: with deals numbered per game (mirrored), game g of every arm deals the
    same cards hand by hand and blocks are game numbers; with deals numbered one after
    another (a run counted in hands), a game is in the block of its first deal and both
    arms' block b holds the games begun on the same deals. Not in a run counted in games
    without mirrored deals: its blocks are game numbers, and a rule that changes hand
    lengths moves which deals game g is dealt."""
    return not agg.by_game


def _compare(ds, agg, seconds, estimates, resamples, seed) -> list[Comparison]:
    """Every arm's metrics against its baseline arm's (``seconds``: the time model)."""
    hnames, gnames = hand_sum_names(agg.seats, agg.reasons), game_sum_names(agg.seats)
    out: list[Comparison] = []
    for arm in ds.arms:
        if arm.is_baseline or arm.baseline not in {a.name for a in ds.arms}:
            continue
        base = ds.arm(arm.baseline)
        metrics = metrics_for(arm.players, agg.reasons, arm.teams, seconds)
        both = (arm.name, base.name)
        paired = not arm.own_seed  # an arm with its own seed played other deals
        games_paired = paired and games_share_deals(agg)  # games pair on the deals they share
        ha, hb = _both_arms(agg.hand_blocks, both, hnames, paired)
        ga, gb = _both_arms(agg.game_blocks, both, gnames, games_paired)
        hand = {m.name: m.fn for m in metrics if m.level == "hand"}
        game = {m.name: m.fn for m in metrics if m.level == "game"}
        ivs = block_bootstrap(hand, ha, hb, paired=paired, resamples=resamples, seed=seed)
        ivs |= block_bootstrap(game, ga, gb, paired=games_paired, resamples=resamples, seed=seed)
        for m in metrics:
            a_val = estimates[(arm.name, m.name)].estimate
            b_val = estimates[(base.name, m.name)].estimate
            if m.name.startswith("share_") and a_val == 0 and b_val == 0:
                continue  # an ending neither rule set produces
            out.append(Comparison(arm, m, b_val, a_val, ivs[m.name]))
    return out
