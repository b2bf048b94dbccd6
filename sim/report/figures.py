"""The report's figures, drawn with seaborn on matplotlib's Agg backend, saved as PNG and
SVG: turns per hand by arm, survival curves, score spread by arm, seat win rates with their
Wilson intervals, and a forest plot of every arm's effect against its baseline.

Every figure is drawn from the small aggregated tables (histograms, per-arm rows), never
from the hands themselves.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
import seaborn as sns  # noqa: E402

from sim.report.analysis import Report  # noqa: E402
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


def draw_all(report: Report, folder: Path) -> dict[str, Path]:
    """Draw every figure into ``folder`` (``<stem>.png`` and ``<stem>.svg``); return the PNGs."""
    folder.mkdir(parents=True, exist_ok=True)
    sns.set_theme(style="whitegrid", context="notebook")
    makers = {
        "turns": lambda: _boxes(report, report.agg.turns_hist, "turns", "turns per hand"),
        "survival": lambda: _survival(report),
        "spread": lambda: _boxes(report, report.agg.points_hist, "points", "points won per hand"),
        "seats": lambda: _seats(report),
        "forest": lambda: _forest(report),
    }
    out = {}
    for stem, _caption in FIGURES:
        fig = makers[stem]()
        fig.savefig(folder / f"{stem}.png", dpi=100, bbox_inches="tight")
        fig.savefig(folder / f"{stem}.svg", bbox_inches="tight")
        plt.close(fig)
        out[stem] = folder / f"{stem}.png"
    return out


def _arm_names(report: Report) -> list[str]:
    return [
        a.name for a in sorted(report.dataset.arms, key=lambda a: (a.players, a.lineup, a.name))
    ]


def _height(rows: int) -> float:
    return max(2.5, 0.32 * rows + 1.2)


def _boxes(report: Report, hist: pl.DataFrame, column: str, xlabel: str) -> plt.Figure:
    """Box plots from histograms: box p25-p75, whiskers p10-p90, line median, dot mean."""
    names = _arm_names(report)
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
    fig, ax = plt.subplots(figsize=(8, _height(len(names))))
    colors = sns.color_palette("crest", n_colors=max(len(names), 1))
    boxes = ax.bxp(stats, orientation="horizontal", showmeans=True, patch_artist=True, widths=0.6)
    for patch, color in zip(boxes["boxes"], colors, strict=False):
        patch.set_facecolor(color)
        patch.set_alpha(0.7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{xlabel} (box p25-p75, whiskers p10-p90, line median, marker mean)")
    return fig


def _survival(report: Report) -> plt.Figure:
    hist = report.agg.turns_hist
    frames = []
    for arm in report.dataset.arms:
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
    data = pl.concat(frames).to_pandas()
    firsts = data[data["over"] >= 0.98].groupby("arm")["turn"].min()
    limit = min(float(firsts.max()) if len(firsts) else 100.0, 150.0)
    tables = sorted(data["players"].unique())
    fig, axes = plt.subplots(1, len(tables), figsize=(6 * len(tables), 4.5), squeeze=False)
    for ax, table in zip(axes[0], tables, strict=True):
        sub = data[(data["players"] == table) & (data["turn"] <= max(limit, 10))]
        sns.lineplot(data=sub, x="turn", y="over", hue="arm", drawstyle="steps-post", ax=ax)
        ax.set_title(table)
        ax.set_xlabel("turn N")
        ax.set_ylabel("share of hands over by turn N")
        ax.set_ylim(0, 1.01)
        ax.legend(fontsize=7, title=None)
    fig.tight_layout()
    return fig


def _seats(report: Report) -> plt.Figure:
    rows = report.rows.filter(pl.col("metric").str.contains(r"^seat\d+_win$"))
    names = _arm_names(report)
    fig, ax = plt.subplots(figsize=(8, _height(len(names))))
    seats = max(a.players for a in report.dataset.arms)
    palette = sns.color_palette("deep", n_colors=seats)
    offsets = np.linspace(-0.3, 0.3, seats) if seats > 1 else np.zeros(1)
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
        ax.errorbar(
            xs, ys, xerr=[lo, hi], fmt="o", ms=4, capsize=2, color=palette[s], label=f"seat {s}"
        )
    ax.set_yticks(range(len(names)), names)
    ax.invert_yaxis()
    ax.set_xlabel("share of hands won (%), seat 0 deals first")
    ax.legend(fontsize=8, loc="best")
    return fig


FOREST_METRICS = ("turns_mean", "hands_per_game", "points_mean", "margin_mean")


def _forest(report: Report) -> plt.Figure:
    comps = [c for c in report.comparisons if c.metric.name in FOREST_METRICS]
    metrics = [m for m in FOREST_METRICS if any(c.metric.name == m for c in comps)] or ["none"]
    arms = sorted({c.arm.name for c in comps}, key=lambda n: _arm_names(report).index(n))
    cols = 2
    rows = math.ceil(len(metrics) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(12, rows * _height(max(len(arms), 1))), squeeze=False
    )
    palette = sns.color_palette("deep", 2)
    for ax, metric in zip(axes.ravel(), metrics, strict=False):
        sub = [c for c in comps if c.metric.name == metric]
        for c in sub:
            y = arms.index(c.arm.name)
            iv = c.interval
            color = palette[1] if c.significant else palette[0]
            if math.isnan(iv.low):
                ax.plot([iv.estimate], [y], "o", color=color)
                continue
            ax.errorbar(
                [iv.estimate],
                [y],
                xerr=[[iv.estimate - iv.low], [iv.high - iv.estimate]],
                fmt="o",
                capsize=3,
                color=color,
            )
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.set_yticks(range(len(arms)), arms, fontsize=8)
        ax.set_ylim(len(arms) - 0.5, -0.5)
        title = sub[0].metric.title if sub else metric
        ax.set_title(f"{title}: difference", fontsize=10)
    for ax in axes.ravel()[len(metrics) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig
