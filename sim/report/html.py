"""index.html: one self-contained page (figures embedded as base64 PNG, sortable tables,
every arm's rules, the experiment file, the version and seed), from the jinja2 template
``templates/index.html.j2`` with autoescape: every string from a config file or the dataset
is escaped.
"""

from __future__ import annotations

import base64
from pathlib import Path

from sim.report.analysis import Report
from sim.report.figures import figure_list
from sim.report.tables import page_context, templates


def render(report: Report, figures: dict[str, Path], version: str) -> str:
    """The whole page as a string."""
    captions = dict(figure_list(report.dataset.arms))
    images = [
        {
            "stem": path.stem,
            "caption": captions.get(stem, stem),
            "data": base64.b64encode(path.read_bytes()).decode("ascii"),
        }
        for stem, path in figures.items()
    ]
    return (
        templates(autoescape=True)
        .get_template("index.html.j2")
        .render(page_context(report, version), images=images)
    )
