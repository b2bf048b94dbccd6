"""``rummysim report``: aggregate, analyse, draw and write a dataset's balance report.

index.html is one self-contained page (figures embedded as base64 PNG, sortable tables, every
arm's rules, the experiment file, the version and seed) from the jinja2 template
``templates/index.html.j2`` with autoescape: every string from a config file or the dataset
is escaped. report.md holds the same findings and tables in Markdown, from
``templates/report.md.j2``; every value from a config file or the dataset goes through its
``md`` filter (``sim.report.tables.md_escape``)."""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from pathlib import Path

from sim import __version__
from sim.dataset.files import write_text_atomic
from sim.report.analysis import Report, analyse
from sim.report.dataset import open_dataset
from sim.report.figures import draw_all, figure_list
from sim.report.metrics import aggregate
from sim.report.tables import page_context, templates


@dataclass(frozen=True)
class Written:
    """Where the report went and how long each stage took."""

    folder: Path
    report: Report
    seconds: dict[str, float]

    @property
    def index(self) -> Path:
        return self.folder / "index.html"


def write_report(
    dataset: str | Path,
    out: str | Path | None = None,
    *,
    baseline: str | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> Written:
    """Write index.html, report.md, summary.parquet/csv and figures/ for a dataset folder;
    ``out`` defaults to ``reports/<experiment>``."""
    times: dict[str, float] = {}
    start = time.perf_counter()
    ds = open_dataset(dataset, baseline=baseline)
    agg = aggregate(ds)
    times["aggregate"] = time.perf_counter() - start
    folder = Path(out) if out is not None else Path("reports") / ds.name
    folder.mkdir(parents=True, exist_ok=True)
    mark = time.perf_counter()
    report = analyse(ds, agg, resamples=resamples, seed=seed)
    times["analyse"] = time.perf_counter() - mark
    mark = time.perf_counter()
    figures = draw_all(report, folder / "figures")
    times["figures"] = time.perf_counter() - mark
    mark = time.perf_counter()
    report.rows.write_parquet(folder / "summary.parquet")
    report.rows.write_csv(folder / "summary.csv")
    context, captions = page_context(report, __version__), figure_list(ds.arms)
    markdown = templates(autoescape=False).get_template("report.md.j2")
    write_text_atomic(markdown.render(context, figures=captions), folder / "report.md", folder)
    # index.html: the figures' PNGs embedded (report.md links them from figures/)
    images = [
        {"stem": stem, "caption": caption, "data": base64.b64encode(png.read_bytes()).decode()}
        for (stem, caption), png in zip(captions, figures.values(), strict=True)
    ]
    html = templates(autoescape=True).get_template("index.html.j2").render(context, images=images)
    write_text_atomic(html, folder / "index.html", folder)
    times["write"] = time.perf_counter() - mark
    times["total"] = time.perf_counter() - start
    return Written(folder, report, {k: round(v, 3) for k, v in times.items()})
