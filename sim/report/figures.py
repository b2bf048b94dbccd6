"""The report's figures, drawn with seaborn on matplotlib's Agg backend, saved as PNG and
SVG: turns per hand by arm, survival curves, score spread by arm, seat win rates with their
Wilson intervals, and a forest plot of every arm's effect against its baseline.

Every figure is drawn from the small aggregated tables (histograms, per-arm rows), never
from the hands themselves: ``_*_data`` turns the report into the few plain numbers a figure
shows, and ``_draw_*`` draws them with matplotlib alone. Text layout is what costs (ticks
and labels, for the PNG and again for the SVG), so the figures are laid out from the
longest label instead of by ``tight_layout`` and draw their rows as collections.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from sim.report.analysis import Report  # noqa: E402
from sim.report.dataset import Arm  # noqa: E402
from sim.report.stats import hist_summary  # noqa: E402

FIGURES = (
    ("turns", "Turns per hand by arm"),
    ("survival", "Chance that a hand is over by turn N"),
    ("spread", "Points won per hand by arm"),
    ("seats", "Hand win rate by seat (95% Wilson intervals)"),
    (
        "forest",
        "Effect of each rule set against its baseline (95% bootstrap intervals; orange: a "
        "clear difference, Holm p < 0.05; blue: no clear difference)",
    ),
)
"""(file stem, caption) of every figure, in the order the report shows them."""

DPI = 100
"""Resolution of the PNGs (the figures' own dpi, matplotlib's default)."""

PAD_INCHES = 0.1
"""Padding around the tight bounding box (matplotlib's ``savefig.pad_inches`` default)."""

PNG_OPTIONS = {"compress_level": 1}
"""Pillow's PNG options: zlib's fastest level. The figures are flat colours and text, so
the files grow by 0-10% while encoding takes a third to a quarter of the time of the
default level 6 (the forest plot of 32 arms, 1172 x 1989 pixels: 49 ms against 178 ms)."""


def draw_all(report: Report, folder: Path) -> dict[str, Path]:
    """Draw every figure of an analysed report into ``folder`` (``<stem>.png`` and
    ``<stem>.svg``), one after another, from the aggregates and the analysis; return the
    PNGs."""
    folder.mkdir(parents=True, exist_ok=True)
    names = _arm_names(report.dataset.arms)
    agg = report.agg
    data: dict[str, tuple[str, dict]] = {
        "turns": ("boxes", _boxes_data(names, agg.turns_hist, "turns", "turns per hand")),
        "survival": ("survival", _survival_data(report.dataset.arms, agg.turns_hist)),
        "spread": ("boxes", _boxes_data(names, agg.points_hist, "points", "points won per hand")),
        "seats": ("seats", _seats_data(report)),
        "forest": ("forest", _forest_data(report)),
    }
    return {stem: draw_one(stem, *data[stem], folder) for stem, _caption in FIGURES}


def draw_one(stem: str, kind: str, data: dict, folder: Path) -> Path:
    """Draw one figure from its plain data and save it as ``<stem>.png`` and ``<stem>.svg``.

    The tight bounding box is measured once and used for both files (``bbox_inches="tight"``
    would lay the figure out again for each). The SVG carries no date and fixed ids, so the
    same report gives the same files."""
    # SVG text stays text (not glyph outlines): a third of the time of saving a figure with
    # many labels, smaller files, and the labels can be searched and copied
    rc = {"svg.hashsalt": "rummysim", "svg.fonttype": "none"}
    sns.set_theme(style="whitegrid", context="notebook", rc=rc)
    fig = DRAW[kind](**data)
    try:
        bbox = fig.get_tightbbox(fig.canvas.get_renderer()).padded(PAD_INCHES)
        png = folder / f"{stem}.png"
        if fig.dpi == DPI and _inside(fig, bbox):
            # whole pixels, so that cropping the figure's own image is exact
            bbox = Bbox((np.round(np.asarray(bbox.extents) * DPI) / DPI).reshape(2, 2))
            _save_cropped_png(fig, bbox, png)
        else:
            fig.savefig(png, dpi=DPI, bbox_inches=bbox, pil_kwargs=PNG_OPTIONS)
        fig.savefig(folder / f"{stem}.svg", bbox_inches=bbox, metadata={"Date": None})
    finally:
        plt.close(fig)
    return png


def _inside(fig: plt.Figure, bbox: Bbox) -> bool:
    """Whether ``bbox`` (inches) lies within the figure's canvas, with a pixel to spare."""
    width, height = fig.get_size_inches()
    x0, y0, x1, y1 = bbox.extents
    return x0 >= 0.01 and y0 >= 0.01 and x1 <= width - 0.01 and y1 <= height - 0.01


def _save_cropped_png(fig: plt.Figure, bbox: Bbox, path: Path) -> None:
    """Save the figure's whole-canvas image cropped to ``bbox`` (whole pixels).

    This is the PNG ``savefig(bbox_inches=bbox)`` writes, byte for byte, but drawn by the
    renderer the bounding box was measured with, whose text metrics are cached (savefig
    draws on a new renderer of the cropped size and lays every text out again)."""
    fig.canvas.draw()
    image = np.asarray(fig.canvas.buffer_rgba())
    height = image.shape[0]
    x0, y0, x1, y1 = (int(v) for v in np.round(np.asarray(bbox.extents) * DPI))
    matplotlib.image.imsave(
        path,
        image[height - y1 : height - y0, x0:x1],
        format="png",
        origin="upper",
        dpi=DPI,
        metadata={
            "Software": f"Matplotlib version{matplotlib.__version__}, https://matplotlib.org/"
        },
        pil_kwargs=PNG_OPTIONS,
    )


def _arm_names(arms: Sequence[Arm]) -> list[str]:
    """The arms in the figures' order: by table size, line-up, then name."""
    return [a.name for a in sorted(arms, key=lambda a: (a.players, a.lineup, a.name))]


def _height(rows: int) -> float:
    return max(2.5, 0.32 * rows + 1.2)


def _boxes_data(names: list[str], hist: pl.DataFrame, column: str, xlabel: str) -> dict:
    """Box statistics from histograms: box p25-p75, whiskers p10-p90, median, mean."""
    stats = []
    for name in names:
        h = hist.filter(pl.col("arm") == name)
        s = hist_summary(h[column].to_numpy(), h["len"].to_numpy())
        stats.append(
            {
                "label": name,
                "med": s["median"],
                "q1": s["p25"],
                "q3": s["p75"],
                "whislo": s["p10"],
                "whishi": s["p90"],
                "mean": s["mean"],
                "fliers": [],
            }
        )
    return {"stats": stats, "xlabel": xlabel}


def _draw_boxes(stats: list[dict], xlabel: str) -> plt.Figure:
    """Horizontal boxes from precomputed statistics, one row per arm: box p25-p75, whiskers
    p10-p90 with caps, a line at the median, a marker at the mean. Drawn as one bar call, two
    line collections and one marker line (``bxp`` makes seven artists per box and lays out
    each: a third of a second for 32 arms)."""
    fig, ax = plt.subplots(figsize=(8, _height(len(stats))))
    n = len(stats)
    y = np.arange(1, n + 1, dtype=float)
    colors = sns.color_palette("crest", n_colors=max(n, 1))
    get = {k: np.array([s[k] for s in stats], dtype=float) for k in ("q1", "q3", "med", "mean")}
    low = np.array([s["whislo"] for s in stats], dtype=float)
    high = np.array([s["whishi"] for s in stats], dtype=float)
    ax.barh(
        y,
        get["q3"] - get["q1"],
        left=get["q1"],
        height=BOX_WIDTH,
        color=colors[:n],
        alpha=0.7,
        edgecolor="black",
        linewidth=1.0,
    )
    cap = BOX_WIDTH / 4
    whiskers = [[(low[i], y[i]), (get["q1"][i], y[i])] for i in range(n)]
    whiskers += [[(get["q3"][i], y[i]), (high[i], y[i])] for i in range(n)]
    whiskers += [[(x[i], y[i] - cap), (x[i], y[i] + cap)] for x in (low, high) for i in range(n)]
    half = BOX_WIDTH / 2
    medians = [[(get["med"][i], y[i] - half), (get["med"][i], y[i] + half)] for i in range(n)]
    ax.add_collection(LineCollection(whiskers, colors="black", linewidths=1.0))
    ax.add_collection(LineCollection(medians, colors="C1", linewidths=1.5))
    ax.plot(get["mean"], y, linestyle="none", marker="^", color="C2", markeredgecolor="C2")
    ax.set_yticks(y, [s["label"] for s in stats])
    ax.set_ylim(n + 0.5, 0.5)  # the first arm on top
    ax.set_xlabel(f"{xlabel}\n(box p25-p75, whiskers p10-p90, line median, marker mean)")
    _space_panels(fig, _longest(s["label"] for s in stats), 1, _tick_size(ax), bottom=0.9)
    return fig


def _longest(names) -> str:
    return max(names, key=len, default="")


def _tick_size(ax: plt.Axes) -> float:
    """The font size of the axes' y tick labels."""
    labels = ax.get_yticklabels()
    return labels[0].get_fontsize() if labels else plt.rcParams["font.size"]


BOX_WIDTH = 0.6
"""Height of a box (rows are 1 apart)."""


def _survival_data(arms: Sequence[Arm], hist: pl.DataFrame) -> dict:
    """Per arm its survival curve, its table (``players``) and its ``key``: the rule set and
    line-up, which the tables' panels share (one colour and one legend entry each)."""
    frames = []
    for arm in arms:
        h = hist.filter(pl.col("arm") == arm.name).sort("turns")
        if h.height == 0:
            continue
        share = np.cumsum(h["len"].to_numpy()) / h["len"].sum()
        frames.append(
            pl.DataFrame(
                {
                    "turn": h["turns"].to_numpy(),
                    "over": share,
                    "arm": [arm.name] * h.height,
                    "key": [f"{arm.ruleset}, {arm.lineup}"] * h.height,
                    "players": [f"{arm.players} players"] * h.height,
                }
            )
        )
    return {"data": pl.concat(frames).to_pandas()}


def _hue_colors(n: int) -> list:
    """The colors seaborn gives ``n`` hue levels: the current palette, or husl beyond it."""
    if n <= len(sns.color_palette()):
        return sns.color_palette(None, n)
    return sns.color_palette("husl", n)


def _draw_survival(data: pd.DataFrame) -> plt.Figure:
    """One panel per table; a rule set and line-up has the same colour in every panel, and
    one legend (in the last panel) names them all: with 32 arms, per-panel legends of every
    arm took two thirds of the figure's time."""
    firsts = data[data["over"] >= 0.98].groupby("arm")["turn"].min()
    limit = min(float(firsts.max()) if len(firsts) else 100.0, 150.0)
    tables = sorted(data["players"].unique())
    keys = list(data["key"].unique())  # in order of appearance
    colors = dict(zip(keys, _hue_colors(len(keys)), strict=True))
    fig, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 4.5), squeeze=False)
    handles = {}
    for ax, table in zip(axes[0], tables, strict=True):
        sub = data[(data["players"] == table) & (data["turn"] <= max(limit, 10))]
        for key in sub["key"].unique():
            line = sub[sub["key"] == key]
            (handles[key],) = ax.plot(
                line["turn"], line["over"], drawstyle="steps-post", color=colors[key], label=key
            )
        ax.set_title(table, y=1.0)
        ax.set_xlabel("turn N")
        ax.set_ylabel("share of hands over by turn N")
        ax.set_ylim(0, 1.01)
    # curves rise to the top right: the lower right is free ("best" would test every place
    # against every point of every curve)
    axes[0, -1].legend(
        [handles[k] for k in keys if k in handles],
        [k for k in keys if k in handles],
        fontsize=7,
        title="rule set, line-up",
        title_fontsize=7,
        loc="lower right",
    )
    fig.tight_layout()
    return fig


def _seats_data(report: Report) -> dict:
    rows = report.rows.filter(pl.col("metric").str.contains(r"^seat\d+_win$"))
    names = _arm_names(report.dataset.arms)
    seats = max(a.players for a in report.dataset.arms)
    offsets = np.linspace(-0.3, 0.3, seats) if seats > 1 else np.zeros(1)
    bars = []
    for s in range(seats):
        sub = rows.filter(pl.col("metric") == f"seat{s}_win")
        where = {r["arm"]: r for r in sub.iter_rows(named=True)}
        ys, xs, lo, hi = [], [], [], []
        for i, name in enumerate(names):
            r = where.get(name)
            if r is None:
                continue
            ys.append(i + offsets[s])
            xs.append(r["value"])
            lo.append(r["value"] - r["ci_low"])
            hi.append(r["ci_high"] - r["value"])
        bars.append((xs, ys, lo, hi))
    # a partnership arm's seats 0 and 1 are its teams (analysis: Arm.teams)
    teams = any(a.teams for a in report.dataset.arms)
    labels = [f"seat {s}" + (f" / team {'AB'[s]}" if teams and s < 2 else "") for s in range(seats)]
    return {"names": names, "bars": bars, "labels": labels}


def _draw_seats(names: list[str], bars: list[tuple], labels: list[str]) -> plt.Figure:
    fig, ax = plt.subplots(figsize=(8, _height(len(names))))
    palette = sns.color_palette("deep", n_colors=len(bars))
    for s, (xs, ys, lo, hi) in enumerate(bars):
        ax.errorbar(
            xs, ys, xerr=[lo, hi], fmt="o", ms=4, capsize=2, color=palette[s], label=labels[s]
        )
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("share of hands won (%), seat 0 deals first")
    ax.legend(fontsize=8, loc="best")
    _space_panels(fig, _longest(names), 1, _tick_size(ax))
    return fig


FOREST_METRICS = ("turns_mean", "hands_per_game", "points_mean", "margin_mean")


def _forest_data(report: Report) -> dict:
    """Per forest metric its title and every arm's (row, estimate, low, high, clear)."""
    comps = [c for c in report.comparisons if c.metric.name in FOREST_METRICS]
    metrics = [m for m in FOREST_METRICS if any(c.metric.name == m for c in comps)] or ["none"]
    order = _arm_names(report.dataset.arms)
    arms = sorted({c.arm.name for c in comps}, key=order.index)
    panels = []
    for metric in metrics:
        sub = [c for c in comps if c.metric.name == metric]
        points = [
            (
                arms.index(c.arm.name),
                c.interval.estimate,
                c.interval.low,
                c.interval.high,
                c.significant,
            )
            for c in sub
        ]
        panels.append((sub[0].metric.title if sub else metric, points))
    return {"arms": arms, "panels": panels}


def _draw_forest(arms: list[str], panels: list[tuple]) -> plt.Figure:
    cols = 2
    rows = math.ceil(len(panels) / cols)
    # every panel has the same rows (arms): their names only on the left column, whose y
    # axis alone has ticks; the others draw the rows' grid lines as one collection (a tick
    # is four artists: 28 arms in 4 panels made 224 of them, a third of the plot's time)
    fig, axes = plt.subplots(
        rows, cols, figsize=(12, rows * _height(max(len(arms), 1))), squeeze=False
    )
    palette = sns.color_palette("deep", 2)
    for ax, (title, points) in zip(axes.ravel(), panels, strict=False):
        # one errorbar per colour (clear difference or not), not one per arm: a forest of
        # 32 arms drew 4 x 32 errorbars, each several artists laid out one by one
        for significant in (False, True):
            color = palette[1] if significant else palette[0]
            mine = [p for p in points if bool(p[4]) == significant]
            bars = [p for p in mine if not math.isnan(p[2])]
            dots = [p for p in mine if math.isnan(p[2])]
            if bars:
                y, estimate, low, high = np.array(bars, float).T[:4]
                ax.errorbar(
                    estimate,
                    y,
                    xerr=[estimate - low, high - estimate],
                    fmt="o",
                    capsize=3,
                    color=color,
                )
            if dots:
                ax.plot([p[1] for p in dots], [p[0] for p in dots], "o", color=color)
        ax.axvline(0, color="grey", lw=1, ls="--")
        if ax.get_subplotspec().is_first_col():
            ax.set_yticks(range(len(arms)), arms)
            ax.tick_params(axis="y", labelsize=8)
        else:
            ax.yaxis.set_major_locator(NullLocator())
            ax.hlines(
                range(len(arms)),
                0,
                1,
                transform=ax.get_yaxis_transform(),
                colors=plt.rcParams["grid.color"],
                linewidths=plt.rcParams["grid.linewidth"],
                zorder=0.5,
            )
        ax.set_ylim(len(arms) - 0.5, -0.5)
        ax.set_title(f"{title}: difference", fontsize=10, y=1.0)
    for ax in axes.ravel()[len(panels) :]:
        ax.axis("off")
    _space_panels(fig, max(arms, key=len, default=""), rows, fontsize=8)
    return fig


def _space_panels(
    fig: plt.Figure, longest: str, rows: int, fontsize: float, bottom: float = 0.6
) -> None:
    """Margins for a grid of panels whose left column carries the arms' names (at
    ``fontsize``): room for the longest name on the left, for a title and x tick labels
    between rows, and ``bottom`` inches below the last row for its tick labels and x label.
    (What ``tight_layout`` works out from every label, at a third of the forest plot's
    time; the saved image is cropped to what is drawn anyway.)"""
    renderer = fig.canvas.get_renderer()
    probe = fig.text(0, 0, longest, fontsize=fontsize)
    name_width = probe.get_window_extent(renderer).width / fig.dpi
    probe.remove()
    width, height = fig.get_size_inches()
    row_gap = 0.75  # inches: x tick labels of one row, the title of the next
    # a little more room than is drawn on every side (the image is cropped to what is)
    top = 0.5
    panel_height = (height - top - bottom - (rows - 1) * row_gap) / rows
    fig.subplots_adjust(
        left=min(0.6, (name_width + 0.35) / width),
        right=1 - 0.35 / width,
        bottom=bottom / height,
        top=1 - top / height,
        wspace=0.06,
        hspace=row_gap / panel_height,
    )


DRAW = {
    "boxes": _draw_boxes,
    "survival": _draw_survival,
    "seats": _draw_seats,
    "forest": _draw_forest,
}
"""The drawing function of every kind of figure (matplotlib and seaborn only)."""
