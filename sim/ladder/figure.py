"""The ladder's figure (``ladder.png`` / ``ladder.svg``): per table, each bot's rating with
its 95% interval (left), and luck against skill (right): how often the weaker bot of a pair
still wins, the mean over the pairs with the range of the pairs."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import seaborn as sns  # noqa: E402

from sim.ladder.fit import Table  # noqa: E402

STEM = "ladder"


def draw(tables: list[Table], folder: Path) -> Path:
    """Draw the figure of ``tables`` into ``folder``; return the PNG's path."""
    sns.set_theme(style="whitegrid", context="notebook")
    bots = list(dict.fromkeys(r.bot for t in tables for r in t.ratings))
    palette = dict(zip(bots, sns.color_palette("colorblind", len(bots)), strict=True))
    rows = [f"{t.ruleset}, {t.players}p" for t in tables]
    height = max(3.0, 0.34 * len(tables) + 1.6)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, height), sharey=True,
                                      gridspec_kw={"width_ratios": [2.2, 1]})  # fmt: skip
    offsets = np.linspace(-0.25, 0.25, len(bots)) if len(bots) > 1 else np.zeros(1)
    for k, bot in enumerate(bots):
        points = [(i, r) for i, t in enumerate(tables) for r in t.ratings if r.bot == bot]
        if points:
            y = np.array([i for i, _ in points]) + offsets[k]
            est = np.array([r.elo for _, r in points])
            err = np.array([[r.elo - r.low, r.high - r.elo] for _, r in points]).T
            left.errorbar(est, y, xerr=np.maximum(err, 0), fmt="o", ms=4, capsize=2,
                          color=palette[bot], label=bot)  # fmt: skip
    left.set_xlabel("Bradley-Terry rating (Elo scale, 95% interval)")
    left.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=len(bots), fontsize=8,
                frameon=False, borderaxespad=0.2)  # fmt: skip
    for i, t in enumerate(tables):
        shares = [100 * p.share_of(min((p.a, p.b), key=lambda b: _elo(t, b))) for p in t.pairs]
        right.plot([min(shares), max(shares)], [i, i], color="grey", lw=2)
        right.plot([100 * t.upset_mean], [i], "o", color="C3")
    right.axvline(50, color="grey", ls="--", lw=1)
    right.set_xlim(0, 55)
    right.set_xlabel("weaker bot's share of wins, %\n(dot: mean over pairs; line: range)")
    left.set_yticks(range(len(tables)), rows)
    left.set_ylim(len(tables) - 0.5, -0.5)
    fig.tight_layout()
    folder.mkdir(parents=True, exist_ok=True)
    png = folder / f"{STEM}.png"
    try:
        fig.savefig(png, dpi=100)
        fig.savefig(folder / f"{STEM}.svg", metadata={"Date": None})
    finally:
        plt.close(fig)
    return png


def _elo(table: Table, bot: str) -> float:
    return next(r.elo for r in table.ratings if r.bot == bot)
