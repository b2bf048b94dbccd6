"""The page of a tuning: the objective against the knob with 95% intervals (every value the
search evaluated, and the re-confirmation's on fresh deals), the target, the chosen value
marked, the one-sentence answer and the decision trail; written as ``tune.md``,
``index.html`` and ``objective.png`` / ``objective.svg``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import seaborn as sns  # noqa: E402

from sim.report.analysis import fmt_ci  # noqa: E402
from sim.tuning.run import Tuning, round_name, sentence  # noqa: E402
from sim.tuning.search import CONFIRM_SEED, Point  # noqa: E402

FIGURE = "objective"


def write_page(tuning: Tuning, out: Path) -> Path:
    """Write the tuning's page into ``out``; return the path of its ``index.html``."""
    out.mkdir(parents=True, exist_ok=True)
    _figure(tuning, out)
    md = markdown(tuning)
    (out / "tune.md").write_text(md)
    (out / "index.html").write_text(_html(tuning, md))
    return out / "index.html"


def _figure(tuning: Tuning, out: Path) -> None:
    """The objective against the knob over the whole range and, when a value was chosen,
    a second panel close around it (its neighbours and the re-confirmation)."""
    spec, a = tuning.spec, tuning.answer
    search = sorted(
        {p.value: p for r in a.rounds if r.seed != CONFIRM_SEED for p in r.points}.values(),
        key=lambda p: p.value,
    )
    confirm = [p for r in a.rounds if r.seed == CONFIRM_SEED for p in r.points]
    sns.set_theme(style="whitegrid", context="notebook")
    panels = 1 if a.value is None else 2
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels + 1.0, 4.2), squeeze=False)
    palette = sns.color_palette("colorblind")
    for i, ax in enumerate(axes[0]):
        shown = search
        if i == 1:  # close around the chosen value: its evaluated neighbours and a step more
            near = [p.value for p in (*a.neighbours, *confirm)] + [a.value]
            low, high = min(near) - spec.knob.step, max(near) + spec.knob.step
            shown = [p for p in search if low <= p.value <= high]
            ax.set_xlim(low, high)
            ax.set_title("close to the chosen value", fontsize=10)
        else:
            ax.set_title(f"{spec.objective.text} against {spec.setting}", fontsize=10)
        _points(ax, shown, palette[0], "search seed (common deals)", 0.0)
        if confirm:
            offset = 0.15 * spec.knob.step if i == 1 else 0.0
            _points(ax, confirm, palette[1], "re-confirmation (fresh deals)", offset)
        ax.axhline(spec.objective.target, color=palette[2], linestyle="--", label="target")
        if a.value is not None:
            ax.axvline(a.value, color="0.3", linestyle=":", label=f"chosen: {a.value}")
        ax.set_xlabel(f"{spec.setting}" + (f" ({spec.form}:N)" if spec.form else ""))
        ax.set_ylabel(spec.objective.text if i == 0 else "")
    axes[0][-1].legend(fontsize=8, loc="best")
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(out / f"{FIGURE}.{ext}", dpi=110)
    plt.close(fig)


def _points(ax, points: list[Point], color, label: str, offset: float) -> None:
    xs = [p.value + offset for p in points]
    ys = [p.estimate for p in points]
    lower = [p.estimate - p.low for p in points]
    upper = [p.high - p.estimate for p in points]
    ax.errorbar(xs, ys, yerr=[lower, upper], fmt="o", color=color, capsize=3, ms=4, label=label)


def markdown(tuning: Tuning) -> str:
    """The page as Markdown."""
    spec, a = tuning.spec, tuning.answer
    o = spec.objective
    lines = [
        f"# Tuning {spec.name}",
        "",
        f"**{sentence(spec, a)}**",
        "",
        spec.description,
        "",
        f"- Variant `{spec.variant}` at {spec.players} players, bots "
        f"{', '.join(spec.lineup)}"
        + (f", fixed rules {dict(spec.rules)}" if spec.rules else "")
        + ".",
        f"- Knob: `{spec.setting}`"
        + (f" (`{spec.form}:N`)" if spec.form else "")
        + f" from {spec.knob.low} to {spec.knob.high} in steps of {spec.knob.step}.",
        f"- Objective: `{o.text}` = {o.target:g} ({o.level} level; 95% block bootstrap "
        f"intervals from the report's code), {spec.per_value:,} {spec.unit} per value and round.",
        f"- Search: the objective is {'monotone' if a.monotone else 'NOT monotone'} over the scan "
        f"({_direction(a.direction)}); it stopped because {a.reason}.",
        f"- Seeds: {spec.seed} for the search (every value on the same deals), "
        f"{spec.confirm_seed} for the re-confirmation.",
        "",
        f"![{o.text} against {spec.setting}]({_figure_name()})",
        "",
    ]
    if a.point is not None:
        lines += [
            "## The answer",
            "",
            "| value | seed | objective [95% interval] |",
            "|---|---|---|",
        ]
        for p in sorted((*a.neighbours, a.point), key=lambda p: p.value):
            mark = " (chosen)" if p.value == a.value else ""
            lines.append(f"| {p.value}{mark} | search | {_ci(p)} |")
        for p in a.confirm:
            mark = " (chosen)" if p.value == a.value else ""
            lines.append(f"| {p.value}{mark} | fresh | {_ci(p)} |")
        verdict = "agreed" if a.agreed else "did not agree"
        lines += ["", f"The re-confirmation on fresh deals {verdict}.", ""]
    lines += ["## Decision trail", "", "| round | kind | seed | value: objective [95% interval] |",
              "|---|---|---|---|"]  # fmt: skip
    for i, r in enumerate(a.rounds, start=1):
        seed = "fresh" if r.seed == CONFIRM_SEED else "search"
        cells = "; ".join(f"{p.value}: {_ci(p)}" for p in r.points)
        lines.append(f"| {round_name(i, r.kind)} | {r.kind} | {seed} | {cells} |")
    lines.append("")
    return "\n".join(lines)


def _figure_name() -> str:
    return f"{FIGURE}.png"


def _direction(d: int) -> str:
    return {1: "rising with the knob", -1: "falling with the knob"}.get(d, "flat")


def _ci(p: Point) -> str:
    return fmt_ci(p.estimate, p.low, p.high, 2)


def _code(text: str) -> str:
    return re.sub(r"`([^`]*)`", r"<code>\1</code>", text)


def _html(tuning: Tuning, md: str) -> str:
    """A plain HTML page of the Markdown (headings, tables, lists, the figure)."""
    body: list[str] = []
    table: list[list[str]] = []

    def flush_table() -> None:
        if table:
            head, *rows = table
            body.append("<table><tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr>")
            body.extend("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
            body.append("</table>")
            table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            cells = [_code(html.escape(c.strip())) for c in line.strip("|").split("|")]
            if not all(set(c) <= {"-"} for c in cells):
                table.append(cells)
            continue
        flush_table()
        text = _code(html.escape(line))
        if line.startswith("# "):
            body.append(f"<h1>{text[2:]}</h1>")
        elif line.startswith("## "):
            body.append(f"<h2>{text[3:]}</h2>")
        elif line.startswith("!["):
            body.append(f'<img src="{FIGURE}.svg" alt="objective against the knob">')
        elif line.startswith("- "):
            body.append(f"<li>{text[2:]}</li>")
        elif line.startswith("**"):
            body.append(f"<p><strong>{text.strip('*')}</strong></p>")
        elif line:
            body.append(f"<p>{text}</p>")
    flush_table()
    style = (
        "body{font-family:sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
        "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
        "img{max-width:100%}"
    )
    title = html.escape(f"Tuning {tuning.spec.name}")
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{title}</title>"
        f"<style>{style}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
