"""Findings across line-ups (issue #34 point 3): a house-rule finding measured with one bot
may be a fact about the bot, so the report says whether each holds under every line-up of
its table size or is style-dependent."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.report.answer import (
    HOLDS,
    STYLE_DEPENDENT,
    Card,
    CardRow,
    Cell,
    across_lineups,
    answer_cards,
    verdict,
)
from sim.report.dataset import Arm
from sim.report.tables import across_table, md_escape
from tests.report.test_templates import NASTY, _render


def _cell(low: float, high: float, metric: str = "turns_mean", band: float = 1.0) -> Cell:
    """A comparison with the interval ``[low, high]`` and its verdict against ``band``."""
    return Cell(metric, metric, (low + high) / 2, low, high, band, verdict(low, high, band), 1, "")


def _card(lineup: str, cells: dict[str, list[Cell]], players: int = 2) -> Card:
    """A card of rule sets (``{ruleset: [cells]}``) at one table and line-up."""
    rows = []
    for ruleset, mine in cells.items():
        name, base = f"{ruleset}-{players}p-{lineup}", f"basic-{players}p-{lineup}"
        arm = Arm(name, ruleset, "rummy_basic", players, (lineup,) * players, lineup, base,
                  ruleset.replace("_", " "))  # fmt: skip
        rows.append(CardRow(arm, {c.metric: c for c in mine}))
    return Card(players, lineup, "basic", [], rows)


FOUND_UP = _cell(1.5, 2.5)  # a finding: more turns


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("elsewhere", "expected"),
    [
        (_cell(2.0, 4.0), HOLDS),  # a finding of the same sign, another size
        (_cell(-2.5, -1.5), STYLE_DEPENDENT),  # a finding the other way
        (_cell(-0.2, 0.3), STYLE_DEPENDENT),  # inside the band: no practical difference
        (_cell(0.2, 1.5), STYLE_DEPENDENT),  # crosses the band's edge: inconclusive
    ],
)
def test_a_finding_holds_only_where_every_line_up_finds_it_in_one_direction(elsewhere, expected):
    cards = [_card("greedy", {"ace_high": [FOUND_UP]}), _card("careful", {"ace_high": [elsewhere]})]
    (found,) = across_lineups(cards)[2]
    assert found.verdict == expected
    assert found.cells == {"greedy": FOUND_UP, "careful": elsewhere}
    header, (row,) = across_table([found])
    assert header == ["rule set", "metric (band)", "greedy", "careful", "across line-ups"]
    assert [cell[0] for cell in row[2:]] == [FOUND_UP.text, elsewhere.text, expected]
    assert row[2][2] == "finding" and row[-1][2] == ("finding" if expected == HOLDS else "")


@pytest.mark.nojit
def test_a_rule_set_not_played_under_a_line_up_is_style_dependent_and_others_are_left_out():
    """Three line-ups: a finding under two of them that the third never measured does not
    hold; a rule set without a finding anywhere is not listed."""
    quiet = _cell(-0.1, 0.1, "turns_mean")
    cards = [
        _card("greedy", {"ace_high": [FOUND_UP], "double": [quiet]}),
        _card("careful", {"ace_high": [_cell(1.2, 3.0)], "double": [quiet]}),
        _card("careful+greedy", {"double": [quiet]}),
    ]
    (found,) = across_lineups(cards)[2]
    assert (found.ruleset, found.verdict) == ("ace_high", STYLE_DEPENDENT)
    assert found.cells["careful+greedy"] is None
    assert across_table([found])[1][0][4][0] == "–"


@pytest.mark.nojit
def test_one_line_up_says_nothing_new_nor_do_several_without_a_finding():
    """A table size with one line-up has no across-line-ups entry (no noise), nor has one
    with two and no finding under either (its cards say "No finding")."""
    quiet = _cell(-0.1, 0.1)
    one = [_card("greedy", {"ace_high": [FOUND_UP]}), _card("greedy", {"x": [FOUND_UP]}, 4)]
    assert across_lineups(one) == {}
    two = [_card("greedy", {"x": [quiet]}, 4), _card("careful", {"x": [quiet]}, 4)]
    assert across_lineups(two) == {}
    both = [_card("greedy", {"x": [FOUND_UP]}), _card("careful", {"x": [FOUND_UP]}), *two]
    assert list(across_lineups(both)) == [2]


@pytest.mark.nojit
def test_findings_that_hold_are_listed_first_and_metrics_are_kept_apart():
    margin_up, margin_down = _cell(6.0, 9.0, "margin_mean", 5.0), _cell(-9.0, -6.0, "margin_mean")
    cards = [
        _card("greedy", {"a_rule": [FOUND_UP, margin_up], "b_rule": [FOUND_UP]}),
        _card("careful", {"a_rule": [FOUND_UP, margin_down], "b_rule": [FOUND_UP]}),
    ]
    found = across_lineups(cards)[2]
    assert [(a.ruleset, a.metric, a.verdict) for a in found] == [
        ("a_rule", "turns_mean", HOLDS),
        ("b_rule", "turns_mean", HOLDS),
        ("a_rule", "margin_mean", STYLE_DEPENDENT),
    ]


@pytest.fixture(scope="module")
def two_lineups(tmp_path_factory: pytest.TempPathFactory):
    """An engine-backed experiment at 2 players under greedy and careful bots: ace high
    shortens games under both; going rummy doubles changes careful play only (careful bots
    hold their melds back when going rummy pays, greedy ones meld at once), its label full
    of markup."""
    from sim.report.build import write_report
    from sim.runner.experiment import load_experiment
    from sim.runner.run import run_experiment
    from tests.runner.helpers import SMALL, write_experiment

    tmp = tmp_path_factory.mktemp("across")
    text = SMALL.replace('lineups = ["greedy"]', 'lineups = ["greedy", "careful"]')
    text = text.replace("hands = 3000", "hands = 6000") + (
        f'\n[[arms]]\nname = "double"\nvariant = "rummy_basic"\nlabel = "{NASTY}"\n'
        'rules = { going_rummy = "double" }\n'
    )
    root = run_experiment(load_experiment(write_experiment(tmp, text)), tmp / "out", workers=1).root
    return write_report(root, tmp / "report", resamples=300)


def test_an_engine_run_with_two_line_ups_says_which_findings_hold(two_lineups) -> None:
    cards = answer_cards(two_lineups.report)
    (found,) = across_lineups(cards).values()
    verdicts = {(a.ruleset, a.metric): a.verdict for a in found}
    assert verdicts[("ace_high", "hands_per_game")] == HOLDS
    assert verdicts[("double", "points_sd")] == STYLE_DEPENDENT
    careful = next(c for c in cards if c.lineup == "careful")
    said = [s for s in careful.findings() if "points won per hand (sd)" in s]
    assert said and said[0].endswith("; style-dependent.")
    md = (two_lineups.folder / "report.md").read_text(encoding="utf-8")
    section = md[md.index("## Across line-ups") : md.index("## Figures")]
    assert "### 2 players" in section and "| careful | greedy | across line-ups |" in section
    assert md_escape(NASTY) in section and NASTY not in section
    assert "*bold* &lt;b&gt;x&lt;/b&gt; | pipe [link](http://x)" in _render(section)
    page = (two_lineups.folder / "index.html").read_text(encoding="utf-8")
    assert (
        page.index("<h2>The answer") < page.index("<h2>Across line-ups") < page.index("<h2>Figures")
    )
    assert "<b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_the_forest_plot_draws_each_line_up_with_its_own_marker(two_lineups) -> None:
    """One figure: every card metric with a finding, a row per rule set and table, a marker
    per line-up named in its legend, labels not arm ids."""
    from sim.report.figures import MARKERS, _forest_data

    data = _forest_data(two_lineups.report)
    assert data["lineups"] == ["greedy", "careful"]
    assert data["arms"] == ["ace_high (2p)", f"{NASTY} (2p)"]
    titles = [title for title, _band, _points in data["panels"]]
    assert "hands per game (mean)" in titles and "points won per hand (sd)" in titles
    assert "points won per hand (mean)" not in titles  # no finding there: not a card metric
    (hands,) = [points for title, _band, points in data["panels"] if title.startswith("hands per")]
    assert sorted((p[0], p[5]) for p in hands) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    svg = Path(two_lineups.folder / "figures" / "forest.svg").read_text(encoding="utf-8")
    assert "line-up" in svg and "careful" in svg and "ace_high (2p)" in svg
    assert "ace_high-2p" not in svg and len(MARKERS) >= 3
