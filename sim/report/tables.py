"""The report's tables as plain rows of text, shared by the HTML and Markdown writers."""

from __future__ import annotations

import math
import re
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined

from sim.report.analysis import Report, fmt_ci, games_share_deals, rule_changes_text
from sim.report.answer import HOLDS, across_lineups, answer_cards, comparison_cells, report_bands

_NUMBER = re.compile(r"[+\-–]?\d[\d.,]*( \[[+\-\d.,]+, [+\-\d.,]+\])?( ⚠)?|–")
"""A number the report formatted (``+2.41 [2.38, 2.44]``, ``0.4 ⚠``, ``–``): no markup."""

_MD_SPECIAL = re.compile(
    r"[\\`*\[\]|~]"  # always Markdown
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # emphasis (an underscore inside a word is not)
    r"|^\s*(?:[#+\-!>]|\d+(?=[.)]))"  # a heading, list or quote where a line starts
    r"|<(?!\s)|(?<!\s)>|&(?!\s)"  # an HTML tag or entity ("p < 0.05" is neither)
)
_HTML = {"<": "&lt;", ">": "&gt;", "&": "&amp;"}


def md_escape(value: object) -> str:
    """``value`` as literal Markdown text, safe in a line, a list item or a table cell:
    Markdown's specials backslash-escaped where Markdown would read them (emphasis, code,
    links, tables; headings, lists and quotes at the start; an underscore inside a word and
    a hyphen inside a line are left alone), ``<``, ``>`` and ``&`` HTML-escaped where they
    could start a tag or an entity, and line breaks as spaces. A number the report formatted
    is returned as it is."""
    text = " ".join(str(value).splitlines())
    if _NUMBER.fullmatch(text):
        return text

    def escape(m: re.Match) -> str:
        s = m.group()
        if s in _HTML:
            return _HTML[s]
        if s[-1:].isdigit():  # "1." or "1)" at the start: an ordered list
            return s + "\\"
        return s[:-1] + "\\" + s[-1]

    return _MD_SPECIAL.sub(escape, text)


@cache
def templates(autoescape: bool) -> Environment:
    """The report's jinja2 templates (sim/report/templates/): ``autoescape`` for HTML; the
    Markdown template escapes every user-provided value with the ``md`` filter
    (:func:`md_escape`)."""
    env = Environment(
        loader=PackageLoader("sim.report", "templates"),
        autoescape=autoescape,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=StrictUndefined,
    )
    env.filters["md"] = md_escape
    env.globals.update(
        answer_table=answer_table,
        seat_table=seat_table,
        across_table=across_table,
        arm_table=arm_table,
        comparison_table=comparison_table,
        rule_changes_text=rule_changes_text,
        overrides=lambda arm: ", ".join(f"{k} = {v}" for k, v in arm.changes.items()) or "none",
    )
    return env


def pairing_text(agg) -> str:
    """What is paired and how, said on the page (and in report.md)
    (``sim.report.analysis.games_share_deals``)."""
    if agg.per_game_deals:
        how = (
            "are paired too: deals are numbered per game (mirrored deals), so game g of every "
            "arm deals the same cards, hand by hand, and blocks of games are resampled together"
        )
    elif games_share_deals(agg):
        how = (
            "are paired on the blocks of deals their games began on: both arms' block holds "
            "the games begun on the same deals (a rule that changes hand lengths cuts them "
            "into other games, so this pairing is looser than the hands')"
        )
    else:
        how = (
            "are compared unpaired: in a run counted in games, game g of two arms is dealt "
            "other cards once hand lengths differ (mirrored deals pair them)"
        )
    return (
        "Per-hand metrics are paired on the deals both arms played (common random numbers: "
        "their blocks are resampled together); per-game metrics (hands per game, final "
        f"margin, lead changes, comebacks, minutes per game) {how}; an arm with its own "
        "seed (marked 'own seed') shares no deals and is compared unpaired throughout. "
    )


def fmt_p(p: float) -> str:
    """A p-value: three decimals, or ``<0.001``."""
    if math.isnan(p):
        return "–"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


# (metric, column title, decimals)
ARM_COLUMNS = (
    ("turns_mean", "turns/hand mean [95% CI]", 1),
    ("turns_median", "turns median", 0),
    ("turns_p10", "p10", 0),
    ("turns_p90", "p90", 0),
    ("over_by_20", "over by turn 20 %", 1),
    ("over_by_50", "over by turn 50 %", 1),
    ("hands_per_game", "hands/game [95% CI]", 2),
    ("minutes_mean", "minutes/hand [95% CI]", 2),
    ("minutes_per_game", "minutes/game [95% CI]", 1),
    ("points_mean", "points/hand mean [95% CI]", 1),
    ("points_sd", "points/hand sd", 1),
    ("points_iqr", "points IQR", 0),
    ("points_p90", "points p90", 0),
    ("margin_mean", "final margin [95% CI]", 1),
    ("comeback_share", "won from behind % [95% CI]", 1),
    ("lead_changes", "lead changes/game", 2),
    ("dealer_win", "dealer wins % [95% CI]", 1),
    ("first_win", "first player wins % [95% CI]", 1),
    ("first_advantage", "first-player advantage, pp [95% CI]", 1),
)


def arm_table(report: Report) -> tuple[list[str], list[list[tuple[str, float | str | None]]]]:
    """Header and rows (text, sort key) of the per-arm summary table."""
    reasons = [f"share_{r}" for r in report.agg.reasons]
    header = ["arm", "players", "line-up", "rule set", "hands", "games"]
    header += [title for _, title, _ in ARM_COLUMNS]
    header += [f"{r[6:]} %" for r in reasons]
    values = {(r["arm"], r["metric"]): r for r in report.rows.iter_rows(named=True)}
    rows = []
    for arm in sorted(report.dataset.arms, key=lambda a: (a.players, a.lineup, a.name)):
        given = (arm.name, arm.players, arm.lineup, arm.label,
                 report.hands[arm.name], report.games[arm.name])  # fmt: skip
        row: list[tuple[str, float | str | None]] = [(str(v), v) for v in given]
        for metric, _title, d in ARM_COLUMNS:
            v = values.get((arm.name, metric))
            if v is None:
                row.append(("–", None))
            else:
                row.append((fmt_ci(v["value"], v["ci_low"], v["ci_high"], d), v["value"]))
        for metric in reasons:
            v = values.get((arm.name, metric))
            row.append((fmt_ci(v["value"], None, None, 2), v["value"]) if v else ("–", None))
        rows.append(row)
    return header, rows


def comparison_table(report: Report) -> tuple[list[str], list[list[tuple]]]:
    """Header and rows of the table of every comparison with the baseline: the difference with
    its 95% interval, p-values, and the verdict of its Holm-adjusted interval
    against the metric's band (``sim.report.answer``), marked as on the card."""
    header = ["arm", "baseline", "metric", "baseline value", "arm value",
              "difference [95% CI]", "p", "Holm p",
              "Holm-adjusted interval", "band", "verdict"]  # fmt: skip
    cells = comparison_cells(report, report_bands(report))
    rows = []
    for c in report.comparisons:
        scale = c.metric.scale()
        d = max(c.metric.decimals, 2)
        iv = c.interval
        cell = cells[(c.arm.name, c.metric.name)]
        mark = VERDICT_MARK.get(cell.verdict, "")
        rows.append([
            (c.arm.name, c.arm.name),
            (c.arm.baseline, c.arm.baseline),
            (c.metric.title, c.metric.title),
            (fmt_ci(c.baseline_value * scale, None, None, d), c.baseline_value * scale),
            (fmt_ci(c.arm_value * scale, None, None, d), c.arm_value * scale),
            (fmt_ci(iv.estimate * scale, iv.low * scale, iv.high * scale, d), iv.estimate * scale),
            (fmt_p(iv.p), iv.p),
            (fmt_p(c.p_holm), c.p_holm),
            (cell.text, cell.estimate, mark),
            (f"±{cell.band:g}", cell.band),
            (cell.verdict, cell.verdict, mark),
        ])  # fmt: skip
    return header, rows


VERDICT_MARK = {"finding": "finding", "no practical difference": "same"}
"""The mark of a verdict on the answer card (inconclusive: none)."""


def answer_table(card) -> tuple[list[str], list[list[tuple]]]:
    """Header and rows of one answer card (``sim.report.answer.Card``), ranked by practical
    size. Cells are ``(text, sort key, mark, note)``: ``mark`` is ``"finding"``, ``"same"``
    (no practical difference), ``"flag"`` (too many hands without a result) or empty,
    ``note`` the cell's verdict in words."""
    header = ["rule set", "what it changes", "no result %"]
    rows = []
    for row in card.rows:
        flag = f"{row.no_result:.1f}" + (" ⚠" if row.flagged else "")
        rows.append([
            (row.arm.label, row.size, "", ""),
            (row.changes, row.changes, "", ""),
            (flag, row.no_result, "flag" if row.flagged else "", ""),
            *_verdict_cells(row.cells, card.columns),
        ])  # fmt: skip
    return header + _band_titles(card.columns), rows


def seat_table(card) -> tuple[list[str], list[list[tuple]]]:
    """Header and rows of a card's seat advantage (``Card.seat_rows``): every arm's seats'
    and dealer's deviations from their fair share, in percentage points, with Holm-adjusted
    intervals; cells as in :func:`answer_table`."""
    rows = [
        [(row.arm.label, row.size, "", ""), *_verdict_cells(row.cells, card.seat_columns)]
        for row in card.seat_rows
    ]
    return ["rule set", *_band_titles(card.seat_columns)], rows


def across_table(group: list) -> tuple[list[str], list[list[tuple]]]:
    """Header and rows of one table size's findings across line-ups
    (``sim.report.answer.across_lineups``): each line-up's change with its Holm-adjusted
    interval, marked by its verdict as on the card, then the overall label (bold: holds)."""
    header = ["rule set", "metric (band)", *group[0].cells, "across line-ups"]
    rows = [
        [(a.label, a.label, "", ""), (f"{a.title} (±{a.band:g})", a.title, "", ""),
         *_verdict_cells(a.cells, [(lineup, "", 0.0) for lineup in a.cells]),
         (a.verdict, a.verdict, "finding" if a.verdict == HOLDS else "", "")]
        for a in group
    ]  # fmt: skip
    return header, rows


def _band_titles(columns: list[tuple[str, str, float]]) -> list[str]:
    return [f"{title} (band ±{band:g})" for _, title, band in columns]


def _verdict_cells(cells: dict, columns: list[tuple[str, str, float]]) -> list[tuple]:
    """A card row's cells in the order of ``columns``: ``(text, estimate, mark, verdict)``,
    an en dash where the row has no such cell."""
    out: list[tuple] = []
    for metric, _title, _band in columns:
        cell = cells.get(metric)
        if cell is None:
            out.append(("–", None, "", ""))
        else:
            out.append((cell.text, cell.estimate, VERDICT_MARK.get(cell.verdict, ""), cell.verdict))
    return out


def page_context(report: Report, version: str) -> dict:
    """What both templates show (``index.html.j2``, ``report.md.j2``); they call the table
    functions of this module themselves (:func:`templates`)."""
    ds = report.dataset
    exp = ds.manifest.get("experiment") if isinstance(ds.manifest, dict) else None
    text = str(exp.get("text", "")).rstrip() if exp else ""
    return {
        "report": report,
        "ds": ds,
        "pairing": pairing_text(report.agg),
        "report_version": version,
        "exp": exp or None,
        "exp_text": text,  # fenced in report.md by more backticks than any run in it
        "fence": "`" * max([3, *(len(run) + 1 for run in re.findall("`+", text))]),
        "cards": (cards := answer_cards(report, report_bands(report))),
        "across": across_lineups(cards),
        # skill: (arm, what, value [95% CI]) of each bot of a mixed line-up (skill_rows)
        "skill": [
            (r["arm"], r["title"], fmt_ci(r["value"], r["ci_low"], r["ci_high"], 2))
            for r in report.rows.iter_rows(named=True)
            if r["metric"].startswith("bot_")
        ],
    }
