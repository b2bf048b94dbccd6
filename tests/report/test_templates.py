"""index.html and report.md from their jinja2 templates (issue #30 points 3 and 6): text from
the user (arm names and labels, variant names, rule values) shows literally in both, escaped
for HTML in the page and for Markdown and HTML in report.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from sim.report.tables import md_escape
from tests.report.builder import ArmSpec, build_dataset

NASTY = "*bold* <b>x</b> | pipe [link](http://x)"


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        (NASTY, r"\*bold\* &lt;b&gt;x&lt;/b&gt; \| pipe \[link\](http://x)"),
        ("# heading", r"\# heading"),
        ("- item", r"\- item"),
        ("+ item", r"\+ item"),
        ("> quote", "&gt; quote"),
        ("1. first", r"1\. first"),
        ("_emph_ a_b", r"\_emph\_ a_b"),  # an underscore inside a word is no emphasis
        ("`code` \\ ~~strike~~", r"\`code\` \\ \~\~strike\~\~"),
        ("a & b, &amp; < 1", "a & b, &amp;amp; < 1"),  # only what could start a tag or entity
        ("two\nlines", "two lines"),
        ("ace_rank low → around_corner; a 2-player hand (p < 0.05)", None),
        ("+2.41 [2.38, 2.44]", None),  # a number the report formatted
    ],
)
def test_md_escape(text: str, escaped: str | None) -> None:
    assert md_escape(text) == (text if escaped is None else escaped)


def _render(markdown: str) -> str:
    return MarkdownIt("commonmark").enable("table").render(markdown)


@pytest.mark.nojit
def test_escaped_text_renders_literally_in_a_line_a_list_and_a_table() -> None:
    e = md_escape(NASTY)
    html = _render(f"- {e}: x\n\n| a | b |\n|---|---|\n| {e} | 1 |\n\n**{e}**\n")
    literal = "*bold* &lt;b&gt;x&lt;/b&gt; | pipe [link](http://x)"
    assert html.count(literal) == 3
    assert "<em>" not in html and "<a " not in html and "<b>" not in html


def test_user_text_shows_literally_in_report_md_and_index_html(tmp_path: Path) -> None:
    from sim.report.build import write_report

    g2 = ("greedy", "greedy")
    root = build_dataset(
        tmp_path / "data",
        [
            ArmSpec("basic", "rummy_basic", 2, g2, label="standard rummy"),
            ArmSpec("nasty", "around_the_corner", 2, g2, label=NASTY),
        ],
        hands_per_shard=400,
        seed=5,
        name="nasty",
        experiment_text='name = "nasty"\n```\n<b>in a fence</b>\n',
    )
    folder = write_report(root, tmp_path / "report", resamples=100).folder
    md = (folder / "report.md").read_text(encoding="utf-8")
    assert NASTY not in md and "<b>" not in md.split("```")[0]
    assert md.count(md_escape(NASTY)) >= 3  # the answer card, the tables, the arms
    assert "````toml" in md  # a fence longer than any run of backticks in the file
    rendered = _render(md)
    assert "<em>bold</em>" not in rendered and '<a href="http://x"' not in rendered
    assert "*bold* &lt;b&gt;x&lt;/b&gt; | pipe [link](http://x)" in rendered
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page
    assert "&lt;b&gt;in a fence&lt;/b&gt;" in page
    # issue #30 point 1: the figures come right after the answer, before the long tables
    for text, answer, figures, tables in (
        (page, "<h2>The answer</h2>", "<h2>Figures</h2>", "<h2>Per-arm summary"),
        (md, "## The answer", "## Figures", "## Per-arm summary"),
    ):
        assert text.index(answer) < text.index(figures) < text.index(tables)
