"""What ``rummysim tune`` aims at: the report's per-arm statistics, by name, computed by the
report's own code (``sim.report.analysis``: its metrics, its seat edges, its block
bootstrap), so that a tuned value means what the report would say of it."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from sim.dataset.summaries import game_sum_names, hand_sum_names
from sim.report.analysis import arm_sums, metrics_for, seat_edges
from sim.report.metrics import Aggregates
from sim.report.stats import Interval, Sums, block_bootstrap

Statistic = Callable[[Sums], np.ndarray]


def statistics(
    players: int, reasons: tuple[str, ...], teams: bool, seconds: Mapping[str, float]
) -> dict[str, tuple[str, float, Statistic]]:
    """Every per-arm statistic of the report by name, as (level, scale, function of block
    sums): the metrics of ``metrics_for`` and the seat edges of ``seat_edges`` (``scale``:
    100 for shares and edges, which the report shows in percent or percentage points)."""
    edges = seat_edges(2 if teams else players, teams)
    metrics = metrics_for(players, reasons, teams, seconds) + edges
    return {m.name: (m.level, m.scale(), m.fn) for m in metrics}


def arm_interval(
    agg: Aggregates, arm: str, level: str, fn: Statistic, *, resamples: int = 2000, seed: int = 0
) -> Interval:
    """One arm's statistic ``fn`` of its hand or game block sums (``level``) with its 95%
    block bootstrap interval, as the report estimates every statistic."""
    if level == "hand":
        names, frame = hand_sum_names(agg.seats, agg.reasons), agg.hand_blocks
    else:
        names, frame = game_sum_names(agg.seats), agg.game_blocks
    sums = arm_sums(frame, arm, names)
    return block_bootstrap({"x": fn}, sums, resamples=resamples, seed=seed)["x"]
