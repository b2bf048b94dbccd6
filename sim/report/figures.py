"""The report's figures, drawn with seaborn on matplotlib's Agg backend, saved as PNG and
SVG: turns per hand by arm, survival curves, score spread by arm, seat win rates with their
Wilson intervals, and a forest plot of every arm's effect against its baseline.

Every figure is drawn from the small aggregated tables (histograms, per-arm rows), never
from the hands themselves. Drawing is split in two: ``_*_data`` turns the report into the
few plain numbers a figure shows (this is the only part that touches polars), and
``_draw_*`` draws them with matplotlib alone. Drawing is what costs (text layout of ticks
and labels, twice per figure for PNG and SVG), so on Linux one forked process draws the
figures that need only the aggregates (:data:`EARLY`) while this process analyses the
report, and then the seats' figure while this one draws the forest plot (:func:`begin`,
:meth:`Drawing.finish`): the fork needs nothing pickled but the plain numbers, and never
calls polars (whose thread pool a fork does not copy).
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import sys
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.image  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402
from matplotlib.transforms import Bbox  # noqa: E402

from sim.report.analysis import Report  # noqa: E402
from sim.report.dataset import Arm, Dataset  # noqa: E402
from sim.report.metrics import Aggregates  # noqa: E402
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


def figure_workers() -> int:
    """Processes to draw with: 2 on Linux (fork), else 1; ``RUMMYSIM_REPORT_FIGURE_WORKERS``
    overrides (1 draws everything in this process)."""
    value = os.environ.get("RUMMYSIM_REPORT_FIGURE_WORKERS")
    if value is not None:
        return max(1, int(value))
    return 2 if sys.platform.startswith("linux") else 1


EARLY = ("turns", "survival", "spread")
"""The figures drawn from the aggregates alone: a forked process draws them while this one
analyses (the others need the analysis's intervals and comparisons)."""


class Drawing:
    """Figures being drawn into ``folder``: :func:`begin` starts the ones the aggregates
    allow, :meth:`finish` draws the rest once the report is analysed. Use as a context
    manager, so that the forked process is shut down whatever happens in between."""

    def __init__(self, dataset: Dataset, agg: Aggregates, folder: Path, workers: int) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        names = _arm_names(dataset.arms)
        self.data: dict[str, tuple[str, dict]] = {
            "turns": ("boxes", _boxes_data(names, agg.turns_hist, "turns", "turns per hand")),
            "survival": ("survival", _survival_data(dataset.arms, agg.turns_hist)),
            "spread": (
                "boxes",
                _boxes_data(names, agg.points_hist, "points", "points won per hand"),
            ),
        }
        self.forked: dict[str, Future] = {}
        self.pool: ProcessPoolExecutor | None = None
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            try:
                self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
                for stem in EARLY:
                    self.forked[stem] = self.pool.submit(draw_one, stem, *self.data[stem], folder)
            except OSError:  # pragma: no cover - no process could be forked: draw them here
                self.forked = {}

    def finish(self, report: Report) -> dict[str, Path]:
        """Draw what is left (the forest plot here, the seats in the forked process when
        there is one), wait for the forked figures; return every PNG."""
        self.data["seats"] = ("seats", _seats_data(report))
        self.data["forest"] = ("forest", _forest_data(report))
        if self.forked and self.pool is not None:
            # (should the forked process be gone, submit raises and the seats are drawn here)
            with contextlib.suppress(Exception):
                self.forked["seats"] = self.pool.submit(
                    draw_one, "seats", *self.data["seats"], self.folder
                )
        for stem, _caption in FIGURES:
            if stem not in self.forked:
                draw_one(stem, *self.data[stem], self.folder)
        for stem, future in self.forked.items():
            try:
                future.result()
            except Exception:  # pragma: no cover - the fork failed: draw it here (or raise)
                draw_one(stem, *self.data[stem], self.folder)
        return {stem: self.folder / f"{stem}.png" for stem, _caption in FIGURES}

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def __enter__(self) -> Drawing:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def begin(dataset: Dataset, agg: Aggregates, folder: Path, workers: int | None = None) -> Drawing:
    """Start drawing the report's figures into ``folder`` (``<stem>.png`` and ``<stem>.svg``)
    from the aggregates: with ``workers`` > 1 (default :func:`figure_workers`) the figures of
    :data:`EARLY` are drawn in a forked process while the caller analyses. The files are the
    same however they are drawn."""
    return Drawing(dataset, agg, folder, figure_workers() if workers is None else workers)


def draw_all(report: Report, folder: Path, workers: int | None = None) -> dict[str, Path]:
    """Draw every figure of an analysed report into ``folder``; return the PNGs."""
    with begin(report.dataset, report.agg, folder, workers) as drawing:
        return drawing.finish(report)


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
            fig.savefig(png, dpi=DPI, bbox_inches=bbox)
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
    fig, ax = plt.subplots(figsize=(8, _height(len(stats))))
    colors = sns.color_palette("crest", n_colors=max(len(stats), 1))
    boxes = ax.bxp(stats, orientation="horizontal", showmeans=True, patch_artist=True, widths=0.6)
    for patch, color in zip(boxes["boxes"], colors, strict=False):
        patch.set_facecolor(color)
        patch.set_alpha(0.7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{xlabel} (box p25-p75, whiskers p10-p90, line median, marker mean)")
    return fig


def _survival_data(arms: Sequence[Arm], hist: pl.DataFrame) -> dict:
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
    firsts = data[data["over"] >= 0.98].groupby("arm")["turn"].min()
    limit = min(float(firsts.max()) if len(firsts) else 100.0, 150.0)
    tables = sorted(data["players"].unique())
    fig, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 4.5), squeeze=False)
    for ax, table in zip(axes[0], tables, strict=True):
        sub = data[(data["players"] == table) & (data["turn"] <= max(limit, 10))]
        arms = list(sub["arm"].unique())  # in order of appearance, as seaborn's hue
        for arm, color in zip(arms, _hue_colors(len(arms)), strict=True):
            line = sub[sub["arm"] == arm]
            ax.plot(line["turn"], line["over"], drawstyle="steps-post", color=color, label=arm)
        ax.set_title(table, y=1.0)
        ax.set_xlabel("turn N")
        ax.set_ylabel("share of hands over by turn N")
        ax.set_ylim(0, 1.01)
        # curves rise to the top right: the lower right is free ("best" would test every
        # place against every point of every curve)
        ax.legend(fontsize=7, title=None, loc="lower right")
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
    # every panel has the same rows (arms): their names only on the left column
    fig, axes = plt.subplots(
        rows, cols, figsize=(12, rows * _height(max(len(arms), 1))), squeeze=False, sharey=True
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
        ax.set_yticks(range(len(arms)), arms, fontsize=8)
        ax.set_ylim(len(arms) - 0.5, -0.5)
        ax.tick_params(axis="y", labelleft=ax.get_subplotspec().is_first_col())
        ax.set_title(f"{title}: difference", fontsize=10, y=1.0)
    for ax in axes.ravel()[len(panels) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig


DRAW = {
    "boxes": _draw_boxes,
    "survival": _draw_survival,
    "seats": _draw_seats,
    "forest": _draw_forest,
}
"""The drawing function of every kind of figure (matplotlib and seaborn only)."""
