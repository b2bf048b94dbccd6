"""The answer card: the report's first screen (issue #30 point 1).

For each table size and line-up, every rule set against the baseline on what a designer
asks first (game length, score spread, closeness, seat and dealer advantage, the outcome
mix), each comparison with one of three verdicts:

- **finding**: its Holm-adjusted interval lies wholly outside the metric's
  practical-equivalence band ``[-band, +band]`` (``sim.dataset.bands``);
- **no practical difference**: wholly inside the band;
- **inconclusive: more hands needed**: anything else (the interval crosses a band edge).

*Holm-adjusted intervals*: the comparisons of the whole report are ranked by their raw
p-values, and the k-th of m gets the normal interval (the bootstrap's standard error) at
level ``1 - alpha / (m - k + 1)``, Holm's step-down levels; once Holm stops rejecting, every
later comparison keeps the level where it stopped. A finding is then also significant after
Holm's adjustment, and a "no practical difference" holds at that same level.

**Seat advantage** (:func:`seat_cells`) is each seat's deviation from its fair share, plus the
dealer's edge, within every arm (the baseline's too): each seat's share of the hands and of
the games someone won minus ``1 / seats``, and the dealer's share of the won hands minus
``1 / seats`` (``analysis.seat_edges``), with the same three verdicts against their bands
(``seat_edge``, ``seat_game_edge``, ``dealer_edge``). Their question is "is this table fair",
not "does this rule set change it", so they form a Holm family of their own, every arm's
seat cells of the report, adjusted the same way.

Rule sets are ranked by practical size: the largest ``|change| / band`` among their findings.
An arm with more than 2% of hands without a result (stalled at the turn cap, or exhausted)
is flagged. Sentences are written only for findings; the rest is the table.

**Across line-ups** (:func:`across_lineups`, issue #34): where a table size has cards for
several line-ups, each (rule set, card metric) that is a finding under at least one of them
**holds across line-ups** when under every line-up of that table size it is a finding in the
same direction, and is **style-dependent** otherwise (another line-up's change is inside the
band, inconclusive, of the opposite sign, or not measured): a verdict about one bot's play.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import norm

from sim.dataset.bands import band_for
from sim.report.analysis import (
    ALPHA,
    Report,
    edge_title,
    fmt_ci,
    rule_changes_text,
    seat_edges,
)
from sim.report.dataset import Arm
from sim.report.stats import holm

FINDING = "finding"
NO_DIFFERENCE = "no practical difference"
INCONCLUSIVE = "inconclusive: more hands needed"
HOLDS = "holds across line-ups"
STYLE_DEPENDENT = "style-dependent"

CARD_METRICS = (
    "turns_mean", "hands_per_game", "minutes_mean", "minutes_per_game", "points_sd",
    "margin_mean", "lead_changes", "comeback_share", "dealer_win", "first_win",
)  # fmt: skip
"""The card's columns, before the outcome mix (each end reason's share of hands)."""

NO_RESULT = ("stalled", "exhausted")
"""End reasons of hands without a result."""
NO_RESULT_FLAG = 2.0
"""Percent of hands without a result above which an arm is flagged."""


def verdict(low: float, high: float, band: float) -> str:
    """The verdict of an interval ``[low, high]`` against the band ``[-band, +band]``."""
    if math.isnan(low) or math.isnan(high):
        return INCONCLUSIVE
    if low > band or high < -band:
        return FINDING
    if -band <= low and high <= band:
        return NO_DIFFERENCE
    return INCONCLUSIVE


def holm_levels(pvalues: list[float], alpha: float = ALPHA) -> list[float]:
    """Each comparison's Holm step-down level (module docstring), in the input's order; a
    NaN p-value ranks last. The k-th smallest p-value (from 0) of m gets
    ``alpha / (m - min(k, r))``, where r comparisons are rejected (their Holm-adjusted p,
    from :func:`sim.report.stats.holm`, below ``alpha``)."""
    p = np.nan_to_num(np.asarray(pvalues, dtype=float), nan=np.inf)
    rank = np.empty(len(p), dtype=int)
    rank[np.argsort(p, kind="stable")] = np.arange(len(p))
    adjusted = np.asarray(holm(np.minimum(p, 1.0)))
    rejected = int((adjusted[np.isfinite(p)] < alpha).sum())
    return (alpha / (len(p) - np.minimum(rank, rejected))).tolist()


def adjusted_interval(estimate: float, se: float, level: float) -> tuple[float, float]:
    """The normal interval ``estimate ± z(1 - level/2) · se``."""
    if math.isnan(se) or math.isnan(estimate):
        return math.nan, math.nan
    z = float(norm.isf(level / 2))
    return estimate - z * se, estimate + z * se


@dataclass(frozen=True)
class Cell:
    """One comparison on the card, in displayed units (percentage points for shares)."""

    metric: str
    title: str
    estimate: float
    low: float
    high: float
    band: float
    verdict: str
    decimals: int
    unit: str

    @property
    def text(self) -> str:
        return fmt_ci(self.estimate, self.low, self.high, self.decimals, "+")

    @property
    def size(self) -> float:
        """Practical size: ``|change| / band``."""
        return abs(self.estimate) / self.band if self.band > 0 else math.inf


@dataclass
class SeatRow:
    """One arm's seat advantage on a card."""

    arm: Arm
    cells: dict[str, Cell]

    @property
    def size(self) -> float:
        """Practical size of its largest finding."""
        found = [c.size for c in self.cells.values() if c.verdict == FINDING]
        return max(found, default=0.0)


@dataclass
class CardRow(SeatRow):
    """One rule set on a card."""

    no_result: float = 0.0  # percent of its hands without a result
    against: str = ""  # its baseline arm's label
    named: bool = False  # the card holds several baselines: say which one in ``changes``

    @property
    def flagged(self) -> bool:
        return self.no_result > NO_RESULT_FLAG

    @property
    def changes(self) -> str:
        text = rule_changes_text(self.arm)
        return f"against {self.against}: {text}" if self.named and self.against else text


@dataclass
class Card:
    """The answer for one table size and line-up."""

    players: int
    lineup: str
    baseline: str  # the baseline arm's label (several: " / " between them)
    columns: list[tuple[str, str, float]]  # (metric, title, band)
    rows: list[CardRow] = field(default_factory=list)
    seat_columns: list[tuple[str, str, float]] = field(default_factory=list)
    seat_rows: list[SeatRow] = field(default_factory=list)
    across: dict[tuple[str, str], str] = field(default_factory=dict)
    """(rule set, metric) of each finding: HOLDS or STYLE_DEPENDENT (several line-ups only)."""

    def findings(self) -> list[str]:
        """One sentence per finding, largest practical size first."""
        out = []
        for row in [*self.rows, *self.seat_rows]:
            arm = row.arm
            for cell in sorted(row.cells.values(), key=lambda c: -c.size):
                if cell.verdict != FINDING:
                    continue
                across = self.across.get((arm.ruleset, cell.metric))
                if isinstance(row, CardRow):  # a rule set's change
                    what = (f"{arm.label} changes {cell.title} by {cell.text}{cell.unit} "
                            f"against {row.against or self.baseline}")  # fmt: skip
                else:  # a seat's (or the dealer's) deviation from its fair share
                    whose = edge_title(cell.metric, arm.teams, True)
                    what = (f"{arm.label}: {whose} is {cell.text} pp from its fair share of "
                            f"{100 / arm.seats:.4g}%")  # fmt: skip
                band = f"{cell.band:g}{cell.unit}"
                tail = f"; {across}" if across and isinstance(row, CardRow) else ""
                out.append(f"{what} (Holm-adjusted interval; practical band ±{band}){tail}.")
        return out


@dataclass(frozen=True)
class Across:
    """One rule set's change on one card metric at one table size under each of the table's
    line-ups (None where a line-up has no such comparison)."""

    ruleset: str
    label: str
    metric: str
    title: str
    band: float
    cells: dict[str, Cell | None]

    @property
    def verdict(self) -> str:
        """HOLDS when every line-up's change is a finding of one sign, else STYLE_DEPENDENT."""
        cells = list(self.cells.values())
        found = all(c is not None and c.verdict == FINDING for c in cells)
        signs = {c.estimate > 0 for c in cells if c is not None}
        return HOLDS if found and len(signs) == 1 else STYLE_DEPENDENT


def across_lineups(cards: list[Card]) -> dict[int, list[Across]]:
    """Per table size with cards (of rule sets) for several line-ups, every (rule set, card
    metric) that is a finding under at least one line-up (module docstring), those that hold
    first; table sizes of one line-up, or without a finding, are left out."""
    out: dict[int, list[Across]] = {}
    for players in sorted({c.players for c in cards}):
        mine = [c for c in cards if c.players == players and c.rows]
        if len(mine) < 2:
            continue
        cells_of = {c.lineup: {r.arm.ruleset: r.cells for r in c.rows} for c in mine}
        found = {(r.arm.ruleset, m): (r.arm.label, cell) for c in mine for r in c.rows
                 for m, cell in r.cells.items() if cell.verdict == FINDING}  # fmt: skip
        group = []
        for (ruleset, metric), (label, cell) in found.items():
            cells = {lineup: of.get(ruleset, {}).get(metric) for lineup, of in cells_of.items()}
            group.append(Across(ruleset, label, metric, cell.title, cell.band, cells))
        if group:
            out[players] = sorted(group, key=lambda a: (a.verdict != HOLDS, a.label, a.title))
    return out


def _cell(metric, title, estimate, se, level, scale, bands, decimals=1, unit=" pp") -> Cell:
    """A comparison (or a seat's deviation) in displayed units, with its Holm-adjusted interval
    at ``level`` and its verdict against the metric's band."""
    low, high = (x * scale for x in adjusted_interval(estimate, se, level))
    band = band_for(metric, bands)
    return Cell(metric, title, estimate * scale, low, high, band, verdict(low, high, band),
                decimals, unit)  # fmt: skip


def comparison_cells(report: Report, bands: dict[str, float] | None = None) -> dict:
    """Every comparison of the report as a :class:`Cell` (Holm-adjusted interval, verdict),
    by (arm, metric); the family is every comparison of the report."""
    comps = report.comparisons
    levels = holm_levels([c.interval.p for c in comps])
    out = {}
    for c, level in zip(comps, levels, strict=True):
        m, iv = c.metric, c.interval
        unit = " pp" if m.kind == "share" else ""
        cell = _cell(m.name, m.title, iv.estimate, iv.se, level, m.scale(), bands, m.decimals, unit)
        out[(c.arm.name, m.name)] = cell
    return out


def answer_cards(report: Report, bands: dict[str, float] | None = None) -> list[Card]:
    """The cards of ``report``: one per table size and line-up, with its comparisons with the
    baseline and every arm's seat advantage."""
    arms = {a.name: a for a in report.dataset.arms}
    no_result = _no_result(report)
    by_table: dict[tuple[int, str], dict[str, dict[str, Cell]]] = {}
    for (name, metric), cell in comparison_cells(report, bands).items():
        if metric in CARD_METRICS or metric.startswith("share_"):
            arm = arms[name]
            by_table.setdefault((arm.players, arm.lineup), {}).setdefault(name, {})[metric] = cell
    labels = {a.name: a.label for a in report.dataset.arms}
    seats = seat_cells(report, bands)
    cards = []
    for key in sorted(set(by_table) | set(seats)):
        rows = [
            CardRow(arms[name], cells, no_result.get(name, 0.0))
            for name, cells in by_table.get(key, {}).items()
        ]
        rows.sort(key=lambda r: (-r.size, r.arm.name))
        shares = [f"share_{r}" for r in report.agg.reasons]
        columns = _columns(rows, (*CARD_METRICS, *shares), bands)
        # the baseline first, then by practical size
        order = lambda r: (not r.arm.is_baseline, -r.size, r.arm.name)  # noqa: E731
        seat_rows = sorted(seats.get(key, []), key=order)
        edges = seat_edges(max((r.arm.seats for r in seat_rows), default=0))
        seat_columns = _columns(seat_rows, [m.name for m in edges], bands)
        # one experiment may hold several games, each with its own baseline (an arm's
        # ``baseline``, docs/experiments.md): each row says which it is compared with
        bases = sorted({labels.get(r.arm.baseline, r.arm.baseline) for r in rows or seat_rows})
        for row in rows:
            row.against = labels.get(row.arm.baseline, row.arm.baseline)
            row.named = len(bases) > 1
        cards.append(
            Card(key[0], key[1], " / ".join(bases), columns, rows, seat_columns, seat_rows)
        )
    for players, group in across_lineups(cards).items():
        for card in (c for c in cards if c.players == players):
            card.across.update({(a.ruleset, a.metric): a.verdict for a in group})
    return cards


def _columns(rows: list[SeatRow], order, bands) -> list[tuple[str, str, float]]:
    """A card's columns: (metric, title, band) of the metrics of ``order`` some row has."""
    titles = {c.metric: c.title for r in rows for c in r.cells.values()}
    return [(m, titles[m], band_for(m, bands)) for m in order if m in titles]


def seat_cells(report: Report, bands: dict[str, float] | None = None) -> dict:
    """Every arm's seat advantage (module docstring) as cells with Holm-adjusted intervals
    and verdicts, by (players, line-up): ``{key: [SeatRow, ...]}``. The family is every seat
    cell of the report, from each arm's own block bootstrap (``Report.estimates``)."""
    items = []
    for arm in report.dataset.arms:
        for metric in seat_edges(arm.seats, arm.teams):
            iv = report.estimates.get((arm.name, metric.name))
            if iv is not None:
                items.append((arm, metric.name, iv))
    levels = holm_levels([iv.p for _, _, iv in items])
    out: dict[tuple[int, str], dict[str, SeatRow]] = {}
    for (arm, metric, iv), level in zip(items, levels, strict=True):
        cell = _cell(metric, edge_title(metric, arm.teams), iv.estimate, iv.se, level, 100.0, bands)
        table = out.setdefault((arm.players, arm.lineup), {})
        table.setdefault(arm.name, SeatRow(arm, {})).cells[metric] = cell
    return {key: list(rows.values()) for key, rows in out.items()}


def report_bands(report: Report) -> dict[str, float]:
    """The practical bands the experiment file set (``[bands]``, recorded in the manifest)."""
    exp = report.dataset.manifest.get("experiment", {}) if report.dataset.manifest else {}
    bands = exp.get("bands") if isinstance(exp, dict) else None
    return dict(bands) if isinstance(bands, dict) else {}


def _no_result(report: Report) -> dict[str, float]:
    """Each arm's percent of hands without a result."""
    share = {f"share_{r}" for r in NO_RESULT}
    out: dict[str, float] = {}
    for row in report.rows.iter_rows(named=True):
        if row["metric"] in share and row["value"] is not None:
            out[row["arm"]] = out.get(row["arm"], 0.0) + float(row["value"])
    return out
