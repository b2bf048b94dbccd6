"""report.md: the same findings and tables as index.html, in Markdown, from the jinja2
template ``templates/report.md.j2``; every value from a config file or the dataset goes
through its ``md`` filter (``sim.report.tables.md_escape``)."""

from __future__ import annotations

from sim.report.analysis import Report
from sim.report.figures import figure_list
from sim.report.tables import page_context, templates


def render(report: Report, version: str) -> str:
    """The whole report as Markdown (figures linked from figures/)."""
    template = templates(autoescape=False).get_template("report.md.j2")
    return template.render(page_context(report, version), figures=figure_list(report.dataset.arms))
