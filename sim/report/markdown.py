"""report.md: the same findings and tables as index.html, in Markdown."""

from __future__ import annotations

from sim.report.analysis import Report, rule_changes_text
from sim.report.answer import answer_cards, report_bands
from sim.report.figures import FIGURES
from sim.report.tables import (
    PAIRING,
    answer_table,
    arm_table,
    fmt_ci,
    glance_table,
    key_findings,
    other_findings,
    skill_rows,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: list[str], rows) -> str:
    lines = ["| " + " | ".join(_cell(h) for h in header) + " |"]
    lines.append("|" + "---|" * len(header))
    for row in rows:
        lines.append("| " + " | ".join(_cell(text) for text, _ in row) + " |")
    return "\n".join(lines)


def _answer(report: Report) -> list[str]:
    """The answer cards (``sim.report.answer``), first."""
    cards = answer_cards(report, report_bands(report))
    if not cards:
        return []
    out = [
        "## The answer",
        "",
        "Each rule set against the baseline at the same table and line-up, ranked by practical "
        "size: the change with its Holm-adjusted interval, **bold** where it lies wholly "
        "outside the column's practical band (a finding), _italic_ where wholly inside (no "
        "practical difference), plain where it crosses a band's edge (inconclusive: more "
        "hands needed). Shares in percentage points; ⚠ marks more than 2% of hands without "
        "a result.",
        "",
    ]
    marks = {"finding": "**{}**", "same": "_{}_"}
    for card in cards:
        out += [f"### {card.players} players, {card.lineup}", ""]
        out += [f"- {s}" for s in card.findings()] or ["- No finding."]
        header, rows = answer_table(card)
        styled = [[(marks.get(mark, "{}").format(text), key) for text, key, mark, _ in row]
                  for row in rows]  # fmt: skip
        out += ["", _table(header, styled), ""]
    return out


def render(report: Report, version: str) -> str:
    """The whole report as Markdown (figures linked from figures/)."""
    ds = report.dataset
    exp = ds.manifest.get("experiment", {})
    out = [
        f"# Balance report: {ds.name}",
        "",
        f"rummysim {ds.version or version} (report by {version}), seed {ds.seed}; "
        f"{sum(report.hands.values()):,} hands and {sum(report.games.values()):,} games in "
        f"{len(ds.arms)} arms; bootstrap {report.resamples} resamples (seed {report.seed}), "
        f"{report.agg.blocks_text}.",
        "",
        f"**{ds.baseline_text}**",
        "",
        *([f"**{ds.incomplete}**", ""] if ds.incomplete else []),
        *_answer(report),
        "## Findings: game length and score spread",
        "",
        "Each rule set against the baseline at the same table and line-up. "
        + PAIRING
        + "95% bootstrap intervals (not adjusted); Holm-adjusted p-values "
        "over every comparison: a change is clear when its adjusted p < 0.05.",
    ]
    for players, comps in key_findings(report).items():
        header, rows = glance_table(report, players)
        marked = [
            [(f"**{cell[0]}**" if cell[2] else cell[0], cell[1]) for cell in row] for row in rows
        ]
        out += ["", f"### {players} players", "", "At a glance (bold: clear, Holm p < 0.05):", ""]
        out += [_table(header, marked), ""]
        out += [f"- {c.sentence}" for c in comps if c.significant]
        out += [f"- {c.sentence}" for c in comps if not c.significant]
    sig, nosig = other_findings(report)
    out += ["", "## Other findings", ""]
    out += [f"- {c.sentence}" for c in sig] or ["- None."]
    if nosig:
        out += ["", "### No clear difference", ""]
        out += [f"- {c.sentence}" for c in nosig]
    skill = skill_rows(report)
    if skill:
        out += ["", "## Skill: mixed line-ups", ""]
        out += [f"- **{f.sentence}**" for f in report.skill]
        out += [
            f"- {r['arm']}: {r['title']} {fmt_ci(r['value'], r['ci_low'], r['ci_high'], 2)}"
            for r in skill
        ]
    out += ["", "## Figures", ""]
    out += [f"![{caption}](figures/{stem}.png)" for stem, caption in FIGURES]
    out += ["", "## Per-arm summary", "", _table(*arm_table(report))]
    out += ["", "## Arms", ""]
    for arm in ds.arms:
        overrides = ", ".join(f"{k} = {v}" for k, v in arm.changes.items()) or "none"
        out.append(
            f"- `{arm.name}`: {arm.label} (variant {arm.variant}, overrides: {overrides}); "
            f"against baseline `{arm.baseline}`: **{rule_changes_text(arm)}**"
        )
    if exp:
        out += [
            "",
            "## Experiment file",
            "",
            f"`{exp.get('file', '')}`",
            "",
            "```toml",
            str(exp.get("text", "")).rstrip(),
            "```",
        ]
    out += ["", "Full tables: summary.csv / summary.parquet. Method: docs/report.md.", ""]
    return "\n".join(out)
