"""index.html: one self-contained page (figures embedded as base64 PNG, sortable tables,
every arm's rules, the experiment file, the version and seed). Every string that comes from
a config file or the dataset goes through :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from sim.report.analysis import Report, rule_changes_text
from sim.report.answer import answer_cards, report_bands
from sim.report.figures import FIGURES
from sim.report.tables import (
    PAIRING,
    answer_table,
    arm_table,
    comparison_table,
    fmt_ci,
    glance_table,
    key_findings,
    other_findings,
    skill_rows,
)

e = html.escape

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;
max-width:1200px;padding:0 1rem;color:#222;line-height:1.45}
h1{margin-bottom:.2rem}.meta{color:#555;font-size:.9rem}
table{border-collapse:collapse;font-size:.82rem;margin:.5rem 0 1.5rem;display:block;
overflow-x:auto}
th,td{border:1px solid #ccc;padding:.25rem .45rem;text-align:right;white-space:nowrap}
th{background:#f0f3f7;cursor:pointer;position:sticky;top:0}
th:after{content:" \\2195";color:#999}
td:first-child,th:first-child{text-align:left}
tr:nth-child(even) td{background:#fafafa}
figure{margin:1rem 0 2rem}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{color:#444;font-size:.9rem}
pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;font-size:.8rem}
li.no{color:#666}details{margin:.3rem 0}
td.clear,td.finding{font-weight:600;background:#fff3e0 !important}
td.same{color:#2e7d32}td.flag{color:#b71c1c;font-weight:600}
.card{border:2px solid #37474f;border-radius:6px;padding:.2rem 1rem;margin:1rem 0}
.card table{font-size:.72rem;overflow-x:visible}.card th,.card td{white-space:normal;
min-width:3rem;padding:.2rem .3rem}.card td:nth-child(2){min-width:9rem}
"""

SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
    th.addEventListener('click', function () {
      var col = th.cellIndex, body = table.tBodies[0];
      var up = th.dataset.dir !== 'asc'; th.dataset.dir = up ? 'asc' : 'desc';
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].dataset.v, y = b.cells[col].dataset.v;
        var nx = parseFloat(x), ny = parseFloat(y);
        var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : String(x).localeCompare(String(y));
        return up ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
});
"""
"""Sorts each table by the column of the clicked header (``cellIndex``, within its own table),
numbers as numbers, text as text; a second click reverses."""


def _table(header: list[str], rows, cls: str = "sortable", ident: str = "") -> str:
    """A table; each cell is ``(text, sort key)``, optionally followed by a mark (the cell's
    CSS class: ``clear``, ``finding``, ``same``, ``flag``; empty: none) and a note (its
    tooltip)."""
    head = "".join(f"<th>{e(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for cell in row:
            text, key = cell[0], cell[1]
            key = "" if key is None else key
            attrs = f' class="{e(cell[2])}"' if len(cell) > 2 and cell[2] else ""
            attrs += f' title="{e(cell[3])}"' if len(cell) > 3 and cell[3] else ""
            cells.append(f'<td data-v="{e(str(key))}"{attrs}>{e(text)}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    idattr = f' id="{e(ident)}"' if ident else ""
    return (
        f'<table class="{e(cls)}"{idattr}><thead><tr>{head}</tr></thead>'
        f"<tbody>{''.join(body)}</tbody></table>"
    )


def _img(path: Path, caption: str) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return (
        f'<figure><img src="data:image/png;base64,{data}" alt="{e(caption)}">'
        f"<figcaption>{e(caption)} (also as {e(path.stem)}.svg in figures/)</figcaption>"
        "</figure>"
    )


def _answer(report: Report) -> list[str]:
    """The answer cards, first on the page (``sim.report.answer``)."""
    cards = answer_cards(report, report_bands(report))
    if not cards:
        return []
    parts = [
        "<h2>The answer</h2>",
        "<p>Each rule set against the baseline at the same table and line-up, ranked by "
        "practical size. A cell is the change with its Holm-adjusted interval: "
        "<strong>bold</strong> where the whole interval lies outside the column's practical "
        "band (a finding), green where it lies inside (no practical difference), plain "
        "where it crosses a band's edge (inconclusive: more hands needed). Shares are in "
        "percentage points; ⚠ marks an arm with more than 2% of hands without a result.</p>",
    ]
    for card in cards:
        parts.append(f"<div class='card'><h3>{card.players} players, {e(card.lineup)}</h3>")
        found = card.findings()
        parts.append("<ul>")
        parts += [f"<li>{e(s)}</li>" for s in found] or ["<li>No finding.</li>"]
        parts.append("</ul>")
        parts.append(_table(*answer_table(card)))
        parts.append("</div>")
    return parts


def render(report: Report, figures: dict[str, Path], version: str) -> str:
    """The whole page as a string."""
    ds = report.dataset
    exp = ds.manifest.get("experiment", {}) if isinstance(ds.manifest, dict) else {}
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>Balance report: {e(ds.name)}</title><style>{STYLE}</style></head><body>",
        f"<h1>Balance report: {e(ds.name)}</h1>",
        f"<p class='meta'>{e(str(exp.get('description', '')))}</p>",
        "<p class='meta'>",
        f"rummysim {e(str(ds.version or version))} (report by {e(version)}) · seed "
        f"{e(str(ds.seed))} · {sum(report.hands.values()):,} hands, "
        f"{sum(report.games.values()):,} games in {len(ds.arms)} arms · "
        f"bootstrap: {report.resamples} resamples, seed {report.seed}, "
        f"{e(report.agg.blocks_text)}",
        "</p>",
    ]
    parts.append(f"<p><strong>{e(ds.baseline_text)}</strong></p>")
    if ds.incomplete:
        parts.append(f"<p><strong>{e(ds.incomplete)}</strong></p>")
    parts += _answer(report)
    parts.append("<h2>Findings: game length and score spread</h2>")
    parts.append(
        "<p>Each rule set against the baseline rule set at the same table and line-up. "
        + PAIRING
        + "Intervals are 95% bootstrap "
        "intervals, not adjusted; p-values are Holm-adjusted over every comparison in this "
        "report, and a change counts as clear only when its adjusted p &lt; 0.05.</p>"
    )
    for players, comps in key_findings(report).items():
        parts.append(f"<h3>{players} players</h3>")
        parts.append(
            "<p>At a glance: change against the baseline, highlighted where it is clear "
            "(Holm p &lt; 0.05).</p>"
        )
        parts.append(_table(*glance_table(report, players)))
        clear = [c for c in comps if c.significant]
        unclear = [c for c in comps if not c.significant]
        parts.append("<ul>")
        parts += [f"<li>{e(c.sentence)}</li>" for c in clear] or ["<li>No clear change.</li>"]
        parts.append("</ul>")
        if unclear:
            parts.append(
                f"<details><summary>{len(unclear)} with no clear difference at {players} "
                "players</summary><ul>"
            )
            parts += [f"<li class='no'>{e(c.sentence)}</li>" for c in unclear]
            parts.append("</ul></details>")
    sig, nosig = other_findings(report)
    parts.append("<h2>Other findings</h2><ul>")
    parts += [f"<li>{e(c.sentence)}</li>" for c in sig] or ["<li>None.</li>"]
    parts.append("</ul>")
    if nosig:
        parts.append(
            f"<details><summary>{len(nosig)} comparisons with no clear difference</summary><ul>"
        )
        parts += [f"<li class='no'>{e(c.sentence)}</li>" for c in nosig]
        parts.append("</ul></details>")
    skill = skill_rows(report)
    if skill:
        parts.append("<h2>Skill: mixed line-ups</h2><ul>")
        parts += [f"<li><strong>{e(f.sentence)}</strong></li>" for f in report.skill]
        for r in skill:
            text = fmt_ci(r["value"], r["ci_low"], r["ci_high"], 2)
            parts.append(f"<li>{e(r['arm'])}: {e(r['title'])} {e(text)}</li>")
        parts.append("</ul>")
    parts.append("<h2>Figures</h2>")
    captions = dict(FIGURES)
    for stem, path in figures.items():
        parts.append(_img(path, captions.get(stem, stem)))
    parts.append("<h2>Per-arm summary</h2><p>Click a column to sort.</p>")
    parts.append(_table(*arm_table(report), ident="arms"))
    parts.append("<h2>Every comparison with the baseline</h2>")
    parts.append(_table(*comparison_table(report)))
    parts.append("<h2>Arms and their rules</h2>")
    for arm in ds.arms:
        overrides = ", ".join(f"{k} = {v}" for k, v in arm.changes.items()) or "none"
        parts.append(
            f"<details><summary><strong>{e(arm.name)}</strong>: {e(arm.label)} — variant "
            f"{e(arm.variant)}, {arm.players} players, bots {e(', '.join(arm.bots))}; "
            f"against baseline {e(arm.baseline)}: <strong>{e(rule_changes_text(arm))}"
            f"</strong> (the experiment's overrides: {e(overrides)})</summary>"
            f"<pre>{e(arm.rules_toml or '(rules not recorded: no manifest)')}</pre></details>"
        )
    parts.append("<h2>Experiment file</h2>")
    if exp:
        parts.append(
            f"<p>{e(str(exp.get('file', '')))} (sha256 {e(str(exp.get('sha256', '')))})</p>"
            f"<pre>{e(str(exp.get('text', '')))}</pre>"
        )
    else:
        parts.append("<p>Not recorded (no manifest.json).</p>")
    parts.append(
        "<h2>Reproduce</h2><pre>"
        + e(f"rummysim run {exp.get('file', '<experiment file>')} --out <DIR>\n")
        + e(
            f"rummysim report <DIR>/{ds.name} --seed {report.seed} --resamples {report.resamples}\n"
        )
        + "</pre><p>Method: docs/report.md.</p>"
    )
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)
