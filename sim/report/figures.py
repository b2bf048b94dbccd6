"""The report's figures, drawn with seaborn on matplotlib's Agg backend, saved as PNG and
SVG (:func:`figure_list`): turns per hand, hands per game and turns per game by rule set, one
survival plot per table size, points won per hand by rule set, seat and dealer advantage as a
dot plot with 95% intervals, and a forest plot of every rule set's effect against its
baseline. Rule sets are named by their labels, table and line-up (:func:`arm_labels`), and
legends sit outside the data (right of a survival plot, above the seat plot), the figure
grown to hold them.

Every figure is drawn from the small aggregated tables (histograms, per-arm rows), never
from the hands themselves: ``_*_data`` turns the report into the few plain numbers a figure
shows, and ``_draw_*`` draws them with matplotlib (``bxp`` for boxes, ``errorbar`` for dot
plots), laid out by its constrained layout, legends outside the axes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from sim.report import answer  # noqa: E402
from sim.report.analysis import Report  # noqa: E402
from sim.report.dataset import Arm  # noqa: E402
from sim.report.stats import hist_summary  # noqa: E402

FOREST = (
    "Effect of each rule set against its baseline on the card's metrics with a finding: the "
    "change with its Holm-adjusted interval, a marker per line-up, coloured by its verdict as "
    "on the answer card (orange: a finding; green: no practical difference; grey: "
    "inconclusive, more hands needed); shaded: the practical band"
)
SEATS = (
    "Seat and dealer advantage: each seat's share of the hands (left) and games (right) "
    "someone won, minus its fair share 1/players, and the dealer's edge, in percentage "
    "points (95% block bootstrap intervals; 0 is a fair table)"
)


def figure_list(arms: Sequence[Arm]) -> list[tuple[str, str]]:
    """(file stem, caption) of every figure of a dataset with these arms, in the order the
    report shows them: a survival plot per table size."""
    length = (
        "Game length by rule set: turns per hand, hands per game, turns per game and minutes "
        "per game at the table (the time model over each game's actions)"
    )
    survival = [
        (f"survival-{p}p", f"{p} players: chance that a hand is over by turn N")
        for p in sorted({a.players for a in arms})
    ]
    spread = ("spread", "Points won per hand by rule set")
    return [("length", length), *survival, spread, ("seats", SEATS), ("forest", FOREST)]


DPI = 100
PNG_OPTIONS = {"compress_level": 1}
"""zlib's fastest level: flat colours and text grow by 0-10%, in a third of the time."""


def draw_all(report: Report, folder: Path) -> dict[str, Path]:
    """Draw every figure of an analysed report into ``folder`` (``<stem>.png`` and
    ``<stem>.svg``, :func:`figure_list`), one after another, from the aggregates and the
    analysis; return the PNGs in the report's order. The SVGs have no date and fixed ids,
    and their text as text, so the same report gives the same files."""
    folder.mkdir(parents=True, exist_ok=True)
    arms, agg = report.dataset.arms, report.agg
    names, labels = _arm_names(arms), arm_labels(arms)
    per_game = agg.hist["game_seconds"].with_columns(pl.col("seconds") / 60)
    minutes = [(per_game, "seconds", "minutes per game (time model)")] if per_game.height else []
    length = [(agg.hist["turns"], "turns", "turns per hand"),
              (agg.hist["hands_hist"], "hands", "hands per game"),
              (agg.hist["game_turns"], "turns", "turns per game"), *minutes]  # fmt: skip
    draw = {
        "length": lambda: _draw_boxes(**_boxes_data(names, labels, length)),
        "spread": lambda: _draw_boxes(
            **_boxes_data(names, labels, [(agg.hist["points"], "points", "points won per hand")])
        ),
        "seats": lambda: _draw_seats(**_seats_data(report)),
        "forest": lambda: _draw_forest(**_forest_data(report)),
    }
    for p in {a.players for a in arms}:
        table = [a for a in arms if a.players == p]
        draw[f"survival-{p}p"] = lambda t=table: _draw_survival(**_survival_data(t, agg.hist))
    rc = {"svg.hashsalt": "rummysim", "svg.fonttype": "none"}
    out = {}
    for stem, _caption in figure_list(arms):
        sns.set_theme(style="whitegrid", context="notebook", rc=rc)
        fig = draw[stem]()
        fig.get_layout_engine().execute(fig)  # laid out once, not at each of four draws
        fig.set_layout_engine("none")
        try:
            out[stem] = folder / f"{stem}.png"
            fig.savefig(out[stem], dpi=DPI, bbox_inches="tight", pil_kwargs=PNG_OPTIONS)
            fig.savefig(folder / f"{stem}.svg", bbox_inches="tight", metadata={"Date": None})
        finally:
            plt.close(fig)
    return out


def arm_labels(arms: Sequence[Arm]) -> dict[str, str]:
    """Each arm's name in the figures: its label, table and line-up (``ace high (4p,
    careful)``), followed by the arm's id where two arms would read alike."""
    text = {a.name: f"{a.label} ({a.players}p, {a.lineup})" for a in arms}
    seen = Counter(text.values())
    return {name: t if seen[t] == 1 else f"{t} [{name}]" for name, t in text.items()}


def _arm_names(arms: Sequence[Arm]) -> list[str]:
    """The arms in the figures' order: by table size, line-up, then name."""
    return [a.name for a in sorted(arms, key=lambda a: (a.players, a.lineup, a.name))]


def _height(rows: int) -> float:
    return max(2.5, 0.32 * rows + 1.2)


BOX_STATS = ("p10", "p25", "median", "p75", "p90", "mean")
BOX_WIDTH = 0.6
"""Height of a box (rows are 1 apart)."""


def _boxes_data(
    names: list[str], labels: dict[str, str], panels: list[tuple[pl.DataFrame, str, str]]
) -> dict:
    """Per panel (a histogram table, its value column, the x label) every arm's box
    statistics (:data:`BOX_STATS`; NaN where the arm has no data): box p25-p75, whiskers
    p10-p90, median, mean."""
    out = []
    for hist, column, xlabel in panels:
        rows = []
        for name in names:
            h = hist.filter(pl.col("arm") == name)
            s = hist_summary(h[column].to_numpy(), h["len"].to_numpy()) if h.height else {}
            rows.append([s.get(k, math.nan) for k in BOX_STATS])
        out.append((xlabel, rows))
    return {"labels": [labels[n] for n in names], "panels": out}


def _draw_boxes(labels: list[str], panels: list[tuple[str, list[list[float]]]]) -> plt.Figure:
    """Horizontal boxes (matplotlib's ``bxp`` on the histograms' statistics), a row per arm
    and a panel per quantity, the rows named on the left panel only: box p25-p75, whiskers
    p10-p90, a line at the median, a marker at the mean."""
    n = len(labels)
    fig, axes = plt.subplots(1, len(panels), figsize=(5 + 3.5 * len(panels), _height(n)),
                             sharey=True, squeeze=False, layout="constrained")  # fmt: skip
    colors = sns.color_palette("crest", n_colors=max(n, 1))
    for ax, (xlabel, rows) in zip(axes[0], panels, strict=True):
        keys = ("whislo", "q1", "med", "q3", "whishi", "mean")
        drawn = [i for i, row in enumerate(rows) if not math.isnan(row[2])]
        stats = [dict(zip(keys, rows[i], strict=True), fliers=[]) for i in drawn]
        boxes = ax.bxp(stats, positions=drawn, widths=BOX_WIDTH, orientation="horizontal",
                       showmeans=True, patch_artist=True, manage_ticks=False)  # fmt: skip
        for box, i in zip(boxes["boxes"], drawn, strict=True):
            box.set(facecolor=colors[i], alpha=0.7)
        ax.set_xlabel(xlabel)
    axes[0, 0].set_yticks(range(n), labels)
    axes[0, 0].set_ylim(n - 0.5, -0.5)  # the first arm on top
    fig.supxlabel("box p25-p75, whiskers p10-p90, line median, marker mean", fontsize=9)
    return fig


def _survival_data(arms: Sequence[Arm], hists: dict[str, pl.DataFrame]) -> dict:
    """The survival curves of one table's arms: per arm its label and line-up, the turns and
    the share of hands over by each; the x axis ends where every curve passes 98% (at most
    150 turns)."""
    curves, ends, hist = [], [], hists["turns"]
    for arm in sorted(arms, key=lambda a: (a.lineup, not a.is_baseline, a.name)):
        h = hist.filter(pl.col("arm") == arm.name).sort("turns")
        if h.height == 0:
            continue
        turns = h["turns"].to_numpy()
        over = np.cumsum(h["len"].to_numpy()) / h["len"].sum()
        curves.append((arm.label, arm.lineup, turns.tolist(), over.tolist()))
        ends.append(float(turns[np.searchsorted(over, 0.98)]))
    limit = max(min(max(ends, default=100.0), 150.0), 10.0)
    return {"curves": curves, "limit": limit}


LINE_STYLES = ("-", "--", ":", "-.")
"""A survival curve's line style by its line-up (in order of appearance)."""


def _draw_survival(curves: list[tuple[str, str, list, list]], limit: float) -> plt.Figure:
    """One table's survival curves, a colour per rule set and a line style per line-up,
    named in a legend right of the plot (a curve may reach any corner of the plot); the
    figure is as tall as the legend's entries and as wide as its longest."""
    names = [f"{label}, {lineup}" for label, lineup, _, _ in curves]
    width = 6.0 + 0.07 * max(map(len, names), default=0)  # inches at font size 8
    fig, ax = plt.subplots(figsize=(width, max(4.0, 0.19 * len(curves) + 1.5)),
                           layout="constrained")  # fmt: skip
    rulesets = list(dict.fromkeys(c[0] for c in curves))
    lineups = list(dict.fromkeys(c[1] for c in curves))
    # seaborn's hue colours: the current palette, or husl beyond its ten
    palette = sns.color_palette(None if len(rulesets) <= 10 else "husl", len(rulesets))
    colors = dict(zip(rulesets, palette, strict=True))
    for name, (label, lineup, turns, over) in zip(names, curves, strict=True):
        style = LINE_STYLES[lineups.index(lineup) % len(LINE_STYLES)]
        ax.plot(turns, over, drawstyle="steps-post", color=colors[label], ls=style, label=name)
    ax.set(xlim=(0, limit), ylim=(0, 1.01), xlabel="turn N", ylabel="share of hands over by turn N")
    fig.legend(loc="outside right upper", fontsize=8, title_fontsize=8, title="rule set, line-up")
    return fig


def _seats_data(report: Report) -> dict:
    """Per panel (hands, games) the points (row, estimate, low, high, series) of the seat
    advantage (``analysis.seat_edges``) in percentage points, a series per seat and the
    dealer's."""
    arms = sorted(report.dataset.arms, key=lambda a: (a.players, a.lineup, a.name))
    labels = arm_labels(arms)
    values = {
        (r["arm"], r["metric"]): r
        for r in report.rows.filter(pl.col("metric").str.contains(r"_edge$")).iter_rows(named=True)
    }
    seats = max(a.seats for a in arms)
    teams = any(a.teams for a in arms)
    series = [(f"seat{s}_edge", f"seat{s}_game_edge") for s in range(seats)]
    names = [f"seat {s}" + (f" / team {'AB'[s]}" if teams and s < 2 else "") for s in range(seats)]
    series.append(("dealer_edge", ""))
    names.append("dealer" + (" / dealer's team" if teams else ""))
    panels: list[list[tuple]] = [[], []]
    for k, metrics in enumerate(series):
        for panel, metric in zip(panels, metrics, strict=True):
            for i, arm in enumerate(arms):
                r = values.get((arm.name, metric))
                if r is not None and r["value"] is not None:
                    panel.append((i, r["value"], r["ci_low"], r["ci_high"], k))
    return {"rows": [labels[a.name] for a in arms], "series": names, "panels": panels}


def _draw_seats(rows: list[str], series: list[str], panels: list[list[tuple]]) -> plt.Figure:
    """A dot plot per panel (hands, games): a row per arm, a dot per series in its colour
    (offset within the row) with its 95% interval, a dashed line at 0 (the fair share)."""
    palette = sns.color_palette("deep", n_colors=len(series))
    drawn = [("", f"share of {what} won\nminus the fair share (pp)", 0.0,
              [(*p, palette[p[4]]) for p in points])
             for points, what in zip(panels, ("hands", "games"), strict=True)]  # fmt: skip
    shown = {p[4] for points in panels for p in points}
    legend = [(name, "o", palette[k]) if k in shown else None for k, name in enumerate(series)]
    return _draw_dots(rows, drawn, legend, cols=2, width=5.5)


FOREST_METRICS = ("turns_mean", "hands_per_game", "points_mean", "margin_mean")
"""The forest plot's panels where no card metric has a finding."""


def _forest_data(report: Report) -> dict:
    """The answer card's cells (``sim.report.answer.comparison_cells``, Holm-adjusted) on every
    card metric with a finding under some line-up (else :data:`FOREST_METRICS`): per metric
    its title, band and each comparison's (row, estimate, low, high, verdict, line-up), a row
    per rule set and table size ("ace high (4p)", in the experiment's order), the line-ups by
    their index in ``lineups`` (single bots first)."""
    cells = answer.comparison_cells(report, answer.report_bands(report))
    found = {m for (_, m), c in cells.items() if c.verdict == answer.FINDING}
    shares = sorted(m for m in found if m.startswith("share_"))
    metrics = [m for m in answer.CARD_METRICS if m in found] + shares
    metrics = metrics or [m for m in FOREST_METRICS if any(key[1] == m for key in cells)]
    arms = {a.name: a for a in report.dataset.arms}
    names = {name for name, m in cells if m in metrics}  # the experiment's order in a table
    drawn = sorted((a for a in report.dataset.arms if a.name in names), key=lambda a: a.players)
    rows = list(dict.fromkeys((a.players, a.ruleset) for a in drawn))
    lineups = sorted({a.lineup for a in drawn}, key=lambda u: (u.count("+"), len(u), u))
    panels = []
    for metric in metrics:
        mine = [(arms[name], c) for (name, m), c in cells.items() if m == metric]
        points = [(rows.index((a.players, a.ruleset)), c.estimate, c.low, c.high, c.verdict,
                   lineups.index(a.lineup)) for a, c in mine]  # fmt: skip
        panels.append((mine[0][1].title, mine[0][1].band, points))
    labels = {(a.players, a.ruleset): f"{a.label} ({a.players}p)" for a in drawn}
    return {"arms": [labels[r] for r in rows], "lineups": lineups,
            "panels": panels or [("none", 0.0, [])]}  # fmt: skip


VERDICT_COLORS = {answer.FINDING: "C1", answer.NO_DIFFERENCE: "C2", answer.INCONCLUSIVE: "grey"}
"""The forest plot's colour of each verdict of the answer card."""
MARKERS = "osD^vP"
"""The forest plot's marker of each line-up (in the order of ``_forest_data``'s lineups)."""


def _draw_forest(arms: list[str], lineups: list[str], panels: list[tuple]) -> plt.Figure:
    """A panel per metric, a row per rule set and table size: each line-up's change with its
    Holm-adjusted interval, a marker per line-up (offset within the row, :data:`MARKERS`)
    coloured by its verdict (:data:`VERDICT_COLORS`), the band shaded."""
    drawn = [
        (f"{title}: difference", "", band,
         [(*p[:4], p[5], VERDICT_COLORS[p[4]]) for p in points])
        for title, band, points in panels
    ]  # fmt: skip
    legend = [(lineup, MARKERS[k % len(MARKERS)], "black") for k, lineup in enumerate(lineups)]
    return _draw_dots(arms, drawn, legend, cols=2 if len(panels) <= 4 else 3, title="line-up")


def _draw_dots(rows: list[str], panels: list[tuple], legend: list, cols: int, width: float = 6.0,
               title: str | None = None) -> plt.Figure:  # fmt: skip
    """Dot plots in a grid of ``cols`` columns, a row per name of ``rows`` (named on the left
    column): per panel ``(title, x label, band, points)``, each point ``(row, estimate, low,
    high, series, colour)`` drawn at ``row`` plus its series' offset with its interval, in
    the series' marker (``legend[series]``: (name, marker, colour) or None when not shown);
    the band shaded around a dashed line at 0; one legend above the panels."""
    grid = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(grid, cols, figsize=(width * cols, grid * _height(len(rows)) + 0.5),
                             sharey=True, squeeze=False, layout="constrained")  # fmt: skip
    offsets = np.linspace(-0.25, 0.25, len(legend)) if len(legend) > 1 else np.zeros(1)
    for ax, (name, xlabel, band, points) in zip(axes.ravel(), panels, strict=False):
        if band:
            ax.axvspan(-band, band, color="C2", alpha=0.12, lw=0)
        for k, color in dict.fromkeys((p[4], p[5]) for p in points):
            mine = np.array([p[:4] for p in points if p[4] == k and p[5] == color], float)
            y, estimate, low, high = mine.T
            xerr = np.nan_to_num([estimate - low, high - estimate])
            ax.errorbar(estimate, y + offsets[k], xerr=xerr, capsize=2, fmt=legend[k][1], ms=5,
                        color=color)  # fmt: skip
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(xlabel)
        ax.tick_params(axis="y", labelsize=8)
    axes[0, 0].set_yticks(range(len(rows)), rows)
    axes[0, 0].set_ylim(len(rows) - 0.5, -0.5)
    for ax in axes.ravel()[len(panels) :]:
        ax.axis("off")
    shown = [entry for entry in legend if entry is not None]
    handles = [Line2D([], [], ls="none", marker=m, color=c) for _, m, c in shown]
    fig.legend(handles, [name for name, _, _ in shown], loc="outside upper left",
               ncol=len(shown), fontsize=8, frameon=False, title=title, title_fontsize=8,
               alignment="left")  # fmt: skip
    return fig
