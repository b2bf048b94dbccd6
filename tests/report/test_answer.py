"""The answer card (``sim.report.answer``, issue #30 point 1): the three verdicts, Holm's
step-down levels, intervals printed apart from their ends, and the card first in the report."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.dataset.bands import band_for, known_metric
from sim.report.analysis import fmt_ci
from sim.report.answer import (
    FINDING,
    INCONCLUSIVE,
    NO_DIFFERENCE,
    adjusted_interval,
    answer_cards,
    holm_levels,
    verdict,
)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (1.2, 3.0, FINDING),  # wholly above the band
        (-3.0, -1.01, FINDING),  # wholly below
        (-0.5, 0.9, NO_DIFFERENCE),  # wholly inside, 0 included
        (0.2, 0.8, NO_DIFFERENCE),  # inside though clearly not 0: significant, not practical
        (-1.0, 1.0, NO_DIFFERENCE),  # the band's edges belong to it
        (0.5, 1.5, INCONCLUSIVE),  # crosses the upper edge
        (-2.0, 2.0, INCONCLUSIVE),  # wider than the band
        (math.nan, math.nan, INCONCLUSIVE),
    ],
)
def test_the_three_verdicts(low: float, high: float, expected: str) -> None:
    assert verdict(low, high, 1.0) == expected


@pytest.mark.nojit
def test_holm_levels_step_down_and_stop_where_holm_stops() -> None:
    levels = holm_levels([0.001, 0.04, 0.03, math.nan])
    assert levels[0] == pytest.approx(0.05 / 4)  # smallest p: alpha / m
    assert levels[2] == pytest.approx(0.05 / 3)  # next: alpha / (m - 1); 0.03 is not below
    assert levels[1] == levels[3] == pytest.approx(0.05 / 3)  # the rest keep that level


@pytest.mark.nojit
def test_holm_levels_agree_with_holm_adjusted_p_values() -> None:
    """A comparison is rejected at its step-down level exactly when its Holm-adjusted
    p-value is below alpha (sim.report.stats.holm), on random p-values."""
    from sim.report.stats import holm

    rng = np.random.default_rng(4)
    for _ in range(200):
        p = list(rng.uniform(0, 0.06, size=rng.integers(1, 12)))
        levels = holm_levels(p)
        adjusted = holm(p)
        for raw, level, adj in zip(p, levels, adjusted, strict=True):
            assert (raw < level) == (adj < 0.05)


@pytest.mark.nojit
def test_a_finding_is_significant_at_its_adjusted_level() -> None:
    low, high = adjusted_interval(2.0, 0.5, 0.01)
    assert low > 0 and high - 2.0 == pytest.approx(2.0 - low)
    assert verdict(low, high, 0.5) == FINDING
    wide_low, wide_high = adjusted_interval(2.0, 0.5, 0.001)
    assert wide_low < low and wide_high > high  # a stricter level, a wider interval


@pytest.mark.nojit
def test_intervals_print_with_digits_that_differ_from_their_ends() -> None:
    assert fmt_ci(2.4012, 2.3991, 2.4033, sign="+") == "+2.401 [2.399, 2.403]"
    assert fmt_ci(-1.5, -2.0, -1.0, sign="+") == "-1.5 [-2.0, -1.0]"
    # an estimate on an end (a share of 0) needs no more decimals than the other end does
    assert fmt_ci(0.0, 0.0, 0.31, sign="+") == "+0.0 [0.0, 0.3]"


@pytest.mark.nojit
def test_table_intervals_print_with_enough_digits_to_differ_from_their_ends() -> None:
    assert fmt_ci(2.4012, 2.3991, 2.4033) == "2.401 [2.399, 2.403]"
    assert fmt_ci(12.34, 11.9, 12.7) == "12.3 [11.9, 12.7]"
    assert fmt_ci(10.0, 10.0, 10.0, 0) == "10 [10, 10]"  # one point: as given
    assert fmt_ci(5.0, None, None) == "5.0"
    assert fmt_ci(None, None, None) == fmt_ci(float("nan"), 1.0, 2.0) == "–"


@pytest.mark.nojit
def test_bands_cover_every_card_metric_and_end_reason() -> None:
    assert band_for("turns_mean") == 1.0
    assert band_for("share_stalled") == band_for("share_went_out") == 1.0
    assert band_for("turns_mean", {"turns_mean": 2.5}) == 2.5
    assert known_metric("share_block") and not known_metric("share_nothing")


def test_the_report_opens_with_the_answer_card(small_report) -> None:
    folder = small_report.folder
    md = (folder / "report.md").read_text()
    assert md.index("## The answer") < md.index("## Per-arm summary")
    page = (folder / "index.html").read_text()
    assert page.index("<h2>The answer</h2>") < page.index("<h2>Per-arm summary")
    cards = answer_cards(small_report.report)
    assert {(c.players, c.lineup) for c in cards} >= {(2, "greedy"), (4, "greedy")}
    two = next(c for c in cards if (c.players, c.lineup) == (2, "greedy"))
    rows = {r.arm.name: r for r in two.rows}
    same = rows["same-2p-greedy"]  # the baseline's very rules: nothing is a finding
    assert all(cell.verdict != FINDING for cell in same.cells.values())
    assert same.cells["turns_mean"].verdict == NO_DIFFERENCE  # paired: exactly zero
    narrow = answer_cards(small_report.report, {"turns_mean": 0.01})
    ranked = next(c for c in narrow if (c.players, c.lineup) == (2, "greedy")).rows
    assert ranked[0].arm.name == "around-2p-greedy" and ranked[0].size > ranked[1].size


def test_an_experiments_bands_change_the_verdicts(small_report) -> None:
    """A band narrower than around the corner's effect on hand length makes it a finding,
    one wider than it "no practical difference" (an experiment file's bands reach the card
    through the manifest)."""

    def turns(bands):
        cards = answer_cards(small_report.report, bands)
        two = next(c for c in cards if (c.players, c.lineup) == (2, "greedy"))
        row = next(r for r in two.rows if r.arm.name == "around-2p-greedy")
        return row.cells["turns_mean"]

    assert turns({"turns_mean": 0.01}).verdict == FINDING
    wide = turns({"turns_mean": 1000.0})
    assert wide.verdict == NO_DIFFERENCE and wide.band == 1000.0


def test_an_aa_arm_with_its_own_seed_is_compared_unpaired(tmp_path) -> None:
    """An A/A check in the tool: the baseline's very rules with their own seed play other
    deals, so the comparison is unpaired (not exactly zero), says so, and finds nothing."""
    from sim.report.build import write_report
    from sim.runner.experiment import load_experiment
    from sim.runner.run import run_experiment
    from tests.runner.helpers import SMALL, write_experiment

    text = SMALL + '\n[[arms]]\nname = "again"\nvariant = "rummy_basic"\nseed = 99\n'
    exp = load_experiment(write_experiment(tmp_path, text))
    root = run_experiment(exp, tmp_path / "out", workers=1).root
    written = write_report(root, tmp_path / "report", resamples=300)
    comps = [c for c in written.report.comparisons if c.arm.name == "again-2p-greedy"]
    turns = next(c for c in comps if c.metric.name == "turns_mean")
    assert turns.interval.low < turns.interval.estimate < turns.interval.high  # not paired
    assert turns.arm.own_seed and "own seed 99" in (tmp_path / "report" / "report.md").read_text()
    cards = answer_cards(written.report)
    row = next(r for c in cards for r in c.rows if r.arm.name == "again-2p-greedy")
    assert all(cell.verdict != FINDING for cell in row.cells.values())


def test_seat_advantage_bands_are_stated_and_settable() -> None:
    assert band_for("seat0_edge") == band_for("seat3_edge") == band_for("dealer_edge") == 1.0
    assert band_for("seat1_game_edge") == 2.0
    assert band_for("seat2_edge", {"seat_edge": 3.0}) == 3.0
    assert band_for("seat2_game_edge", {"seat_edge": 3.0}) == 2.0
    assert all(known_metric(m) for m in ("seat_edge", "seat_game_edge", "dealer_edge"))


def test_the_card_shows_every_arms_seat_advantage_with_holm_adjusted_verdicts(small_report):
    """Issue #30 point 1: per table size and line-up, every arm (the baseline too) with each
    seat's deviation from its fair share of won hands and games and the dealer's edge, each
    the arm's own estimate with an interval adjusted by Holm over every seat cell of the
    report (so at least as wide as the raw 95% normal interval), and the verdict of that
    interval against the metric's band."""
    from scipy.stats import norm

    report = small_report.report
    cards = {(c.players, c.lineup): c for c in answer_cards(report)}
    four = cards[(4, "greedy")]
    hands, games = [f"seat{s}_edge" for s in range(4)], [f"seat{s}_game_edge" for s in range(4)]
    assert [m for m, _, _ in four.seat_columns] == [*hands, "dealer_edge", *games]
    assert {r.arm.name for r in four.seat_rows} == {"basic-4p-greedy", "around-4p-greedy"}
    assert four.seat_rows[0].arm.is_baseline
    assert {r.arm.name for r in cards[(2, "greedy")].seat_rows} == {
        "basic-2p-greedy", "same-2p-greedy", "around-2p-greedy"
    }  # fmt: skip
    z = float(norm.isf(0.025))
    for card in cards.values():
        for row in card.seat_rows:
            for metric, cell in row.cells.items():
                iv = report.estimates[(row.arm.name, metric)]
                assert cell.estimate == pytest.approx(100 * iv.estimate)
                assert cell.high - cell.low >= 2 * z * 100 * iv.se * (1 - 1e-9)
                assert cell.low <= cell.estimate <= cell.high
                assert cell.band == band_for(metric)
                assert cell.verdict == verdict(cell.low, cell.high, cell.band)


def test_seat_advantage_verdicts_and_sentences_follow_the_intervals(small_report) -> None:
    """A built-in dealer's edge of 5 pp with a tight interval is a finding with a sentence; a
    seat 0.1 pp off with a tight interval is no practical difference; a wide one inconclusive."""
    from dataclasses import replace

    from sim.report.stats import Interval

    report = small_report.report
    estimates = dict(report.estimates)
    name = "around-4p-greedy"
    estimates[(name, "dealer_edge")] = Interval(0.05, 0.048, 0.052, 0.001, 0.0)
    estimates[(name, "seat0_edge")] = Interval(0.001, 0.0, 0.002, 0.0005, 0.04)
    estimates[(name, "seat1_edge")] = Interval(0.0, -0.04, 0.04, 0.02, 1.0)
    cards = answer_cards(replace(report, estimates=estimates))
    four = next(c for c in cards if (c.players, c.lineup) == (4, "greedy"))
    row = next(r for r in four.seat_rows if r.arm.name == name)
    assert row.cells["dealer_edge"].verdict == FINDING
    assert row.cells["seat0_edge"].verdict == NO_DIFFERENCE
    assert row.cells["seat1_edge"].verdict == INCONCLUSIVE
    sentences = [s for s in four.findings() if "dealer" in s]
    assert any(s.startswith("around the corner: the dealer's share of the won hands is +5.0")
               and "fair share of 25%" in s for s in sentences)  # fmt: skip


def test_the_seat_advantage_is_on_the_card_in_both_pages(small_report) -> None:
    folder = small_report.folder
    md = (folder / "report.md").read_text()
    page = (folder / "index.html").read_text()
    for text, start, end in (
        (md, "## The answer", "## Figures"),
        (page, "<h2>The answer</h2>", "<h2>Figures</h2>"),
    ):
        card = text[text.index(start) : text.index(end)]
        assert card.count("Seat advantage:") == 3  # 2p greedy, 2p mixed, 4p greedy
        assert "s edge (band ±1)" in card and "seat 3, games (band ±2)" in card


def test_a_card_with_two_games_names_each_rows_own_baseline(tmp_path) -> None:
    """One experiment, two games (an arm's ``baseline``, docs/experiments.md): each row of
    the card and each finding sentence names the baseline it is compared with."""
    from sim.report.build import write_report
    from sim.runner.experiment import load_experiment
    from sim.runner.run import run_experiment
    from tests.runner.helpers import SMALL, write_experiment

    text = SMALL + (
        '\n[[arms]]\nname = "block"\nvariant = "block_rummy"\nlabel = "block rummy"\n'
        'baseline = "block"\n'
        '\n[[arms]]\nname = "block_high"\nvariant = "block_rummy"\nbaseline = "block"\n'
        'rules = { ace_rank = "high" }\n'
    )
    exp = load_experiment(write_experiment(tmp_path, text))
    root = run_experiment(exp, tmp_path / "out", workers=1).root
    written = write_report(root, tmp_path / "report", resamples=200)
    (card,) = answer_cards(written.report)
    against = {r.arm.name: r.against for r in card.rows}
    assert against["block_high-2p-greedy"] == "block rummy"
    assert against["ace_high-2p-greedy"] == "basic"
    row = next(r for r in card.rows if r.arm.name == "block_high-2p-greedy")
    assert row.changes.startswith("against block rummy: ")
    assert card.baseline == "basic / block rummy"
    for sentence in card.findings():
        if sentence.startswith("block_high "):
            assert "against block rummy " in sentence
        if sentence.startswith("ace_high "):
            assert "against basic " in sentence
