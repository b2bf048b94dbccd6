"""The report's figures by name and caption: what index.html and report.md show, without
the drawing stack (matplotlib, seaborn and pandas take ~0.5 s to import; ``sim.report.build``
imports ``sim.report.figures`` in a thread while the dataset is aggregated)."""

from __future__ import annotations

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
