"""The figures: the same report gives the same files, and what they show."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.report.figures import draw_all, figure_list
from tests.report.builder import charged_seconds


def test_drawing_twice_writes_the_same_files(small_report, tmp_path) -> None:
    report = small_report.report
    first = draw_all(report, tmp_path / "first")
    again = draw_all(report, tmp_path / "again")
    assert list(first) == list(again) == [s for s, _ in figure_list(report.dataset.arms)]
    for stem in first:
        assert Path(first[stem]).read_bytes() == Path(again[stem]).read_bytes(), stem
        svg = f"{stem}.svg"
        assert (tmp_path / "first" / svg).read_bytes() == (tmp_path / "again" / svg).read_bytes()


def test_figures_name_rule_sets_by_label_table_and_line_up_not_by_arm_id(small_report):
    """Issue #30 point 6: a reader sees "around the corner (2p, greedy)", never the arm's
    folder name ``around-2p-greedy``."""
    folder = small_report.folder / "figures"
    ids = [a.name for a in small_report.report.dataset.arms]
    for stem in ("length", "spread", "seats", "forest"):
        svg = (folder / f"{stem}.svg").read_text(encoding="utf-8")
        assert f"around the corner (2p{', greedy' * (stem != 'forest')})" in svg, stem
        assert "standard rummy (4p, greedy)" in svg or stem == "forest", stem
        assert not [i for i in ids if i in svg], stem
    survival = (folder / "survival-2p.svg").read_text(encoding="utf-8")
    assert "around the corner, greedy" in survival and not [i for i in ids if i in survival]


def test_arm_labels_fall_back_to_the_id_where_two_would_read_alike(small_report) -> None:
    from dataclasses import replace

    from sim.report.figures import arm_labels

    arms = small_report.report.dataset.arms
    twins = [replace(a, label="x") if a.players == 2 and a.lineup == "greedy" else a for a in arms]
    labels = arm_labels(twins)
    assert labels["around-2p-greedy"] == "x (2p, greedy) [around-2p-greedy]"
    assert labels["around-4p-greedy"] == "around the corner (4p, greedy)"
    assert len(set(labels.values())) == len(labels)


def test_one_survival_plot_per_table_size(small_report) -> None:
    from sim.report.figures import figure_list

    stems = [stem for stem, _ in figure_list(small_report.report.dataset.arms)]
    assert [s for s in stems if s.startswith("survival")] == ["survival-2p", "survival-4p"]
    folder = small_report.folder / "figures"
    four = (folder / "survival-4p.svg").read_text(encoding="utf-8")
    two = (folder / "survival-2p.svg").read_text(encoding="utf-8")
    assert "standard rummy, greedy" in four and "careful" not in four  # 4p: greedy only
    assert "careful" in two  # the mixed line-up plays at 2 players only


def _legend_problems(fig) -> list[str]:
    """What is wrong with the figure's legends: one over an axes (over data) or reaching
    past the canvas (cut off when saved)."""
    renderer = fig.canvas.get_renderer()
    legends = list(fig.legends) + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    problems = []
    for legend in legends:
        box = legend.get_window_extent(renderer)
        for ax in fig.axes:
            if box.overlaps(ax.get_window_extent(renderer)):
                problems.append("over the data")
        canvas = fig.bbox
        if box.x0 < canvas.x0 or box.y0 < canvas.y0 or box.x1 > canvas.x1 or box.y1 > canvas.y1:
            problems.append("cut off")
    return problems


@pytest.mark.parametrize("curves", [3, 40])
def test_survival_legend_sits_beside_the_data_and_inside_the_image(curves: int) -> None:
    """Issue #30 point 6: a legend that fits, however many rule sets a table has."""
    import matplotlib.pyplot as plt

    from sim.report.figures import _draw_survival

    data = [
        (f"a long rule set label number {i}", "greedy", [1, 10, 20, 30], [0.0, 0.3, 0.9, 1.0])
        for i in range(curves)
    ]
    fig = _draw_survival(data, 30.0)
    try:
        fig.canvas.draw()
        assert fig.legends or fig.axes[0].get_legend()
        assert _legend_problems(fig) == []
    finally:
        plt.close(fig)


def test_seat_plot_legend_fits_and_shows_every_seat_and_the_dealer(small_report) -> None:
    import matplotlib.pyplot as plt

    from sim.report.figures import _draw_seats, _seats_data

    data = _seats_data(small_report.report)
    assert data["series"] == ["seat 0", "seat 1", "seat 2", "seat 3", "dealer"]
    # long labels leave the panels narrow (block rummy (lowest hand wins the others' totals))
    data["rows"] = [f"{row}: a rule set with a label as long as some are" for row in data["rows"]]
    fig = _draw_seats(**data)
    try:
        fig.canvas.draw()
        (legend,) = fig.legends
        assert [t.get_text() for t in legend.get_texts()] == data["series"]
        assert _legend_problems(fig) == []
        renderer = fig.canvas.get_renderer()
        hands, games = (ax.xaxis.label.get_window_extent(renderer) for ax in fig.axes)
        assert not hands.overlaps(games)  # the two panels' x labels stay apart
    finally:
        plt.close(fig)


def test_seat_plot_shows_the_reports_seat_advantage_with_its_intervals(small_report):
    """Each dot is the arm's deviation from its fair share in the summary (hands and games,
    seats and the dealer), with its 95% interval; a 2-player arm has no seats 2 and 3."""
    import polars as pl

    from sim.report.figures import _seats_data

    report = small_report.report
    data = _seats_data(report)
    row = data["rows"].index("around the corner (4p, greedy)")
    hands, games = data["panels"]
    rows = report.rows.filter(pl.col("arm") == "around-4p-greedy")
    ends = zip(rows["value"], rows["ci_low"], rows["ci_high"], strict=True)
    value = dict(zip(rows["metric"], ends, strict=True))
    for k, metric in enumerate(["seat0_edge", "seat1_edge", "seat2_edge", "seat3_edge"]):
        (point,) = [p[1:4] for p in hands if p[0] == row and p[4] == k]
        assert point == value[metric]
        (point,) = [p[1:4] for p in games if p[0] == row and p[4] == k]
        assert point == value[metric.replace("_edge", "_game_edge")]
    (dealer,) = [p[1:4] for p in hands if p[0] == row and p[4] == 4]
    assert dealer == value["dealer_edge"] and not [p for p in games if p[4] == 4]
    two = data["rows"].index("around the corner (2p, greedy)")
    assert not [p for p in hands if p[0] == two and p[4] in (2, 3)]


def test_length_figure_draws_the_turns_per_game_of_every_rule_set(small_report) -> None:
    """Issue #30 point 6: a turns-per-game distribution, drawn in the length figure beside
    turns per hand and hands per game: each arm's box is the quantiles of the turns of its
    games (each game's hands' turns summed, games the games table holds), and the SVG shows
    the panel."""
    import numpy as np
    import polars as pl

    from sim.report import figures
    from sim.report.stats import hist_summary

    report = small_report.report
    ds = report.dataset
    names = figures._arm_names(ds.arms)
    data = figures._boxes_data(
        names, figures.arm_labels(ds.arms), [(report.agg.hist["game_turns"], "turns", "x")]
    )
    keys = ["shard", "rotation", "game"]
    for name, row in zip(names, data["panels"][0][1], strict=True):
        hands = ds.hands().filter(pl.col("arm") == name).collect()
        games = ds.games().filter(pl.col("arm") == name).collect().select(keys)
        per_game = hands.group_by(keys).agg(pl.col("turns").sum()).join(games, on=keys)
        assert per_game.height == games.height > 0
        values, counts = np.unique(per_game["turns"].to_numpy(), return_counts=True)
        want = hist_summary(values, counts)
        assert row == pytest.approx([want[k] for k in figures.BOX_STATS]), name
    svg = (small_report.folder / "figures" / "length.svg").read_text(encoding="utf-8")
    assert "turns per game" in svg and "minutes per game (time model)" in svg


def test_length_figure_draws_the_minutes_per_game_of_every_rule_set(small_report) -> None:
    """Issue #30 point 6: a minutes-at-the-table distribution beside turns per game: each
    arm's box is the quantiles of its games' minutes under the time model, and the per-arm
    summary gives their mean with its interval (the same minutes, summed per game block)."""
    import numpy as np
    import polars as pl

    from sim.dataset.timing import time_model
    from sim.report import figures
    from sim.report.stats import hist_summary

    report = small_report.report
    ds = report.dataset
    names = figures._arm_names(ds.arms)
    minutes = report.agg.hist["game_seconds"].with_columns(pl.col("seconds") / 60)
    data = figures._boxes_data(names, figures.arm_labels(ds.arms), [(minutes, "seconds", "x")])
    model = time_model(ds.manifest)
    keys = ["shard", "rotation", "game"]
    charged = charged_seconds(model)
    rows = report.rows.filter(pl.col("metric") == "minutes_per_game")
    for name, row in zip(names, data["panels"][0][1], strict=True):
        hands = ds.hands().filter(pl.col("arm") == name).collect()
        games = ds.games().filter(pl.col("arm") == name).collect().select(keys)
        per_game = hands.group_by(keys).agg(charged.sum().round().alias("s")).join(games, on=keys)
        values, counts = np.unique(per_game["s"].to_numpy() / 60, return_counts=True)
        want = hist_summary(values, counts)
        assert row == pytest.approx([want[k] for k in figures.BOX_STATS]), name
        (value,) = rows.filter(pl.col("arm") == name)["value"].to_list()
        assert value == pytest.approx(want["mean"]), name


def test_forest_plot_colours_each_comparison_by_its_answer_card_verdict(small_report) -> None:
    """Issue #30: the forest plot shows every comparison as on the answer card: its
    Holm-adjusted interval, coloured by its verdict (finding, no practical difference,
    inconclusive), not by its raw p-value; issue #34: a marker per line-up."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import to_rgba

    from sim.report.answer import FINDING, NO_DIFFERENCE, comparison_cells, report_bands
    from sim.report.figures import MARKERS, VERDICT_COLORS, _draw_forest, _forest_data

    report = small_report.report
    cells = comparison_cells(report, report_bands(report))
    name_of = {f"{a.label} ({a.players}p)": a for a in report.dataset.arms}
    metric_of = {c.title: metric for (_arm, metric), c in cells.items()}
    data = _forest_data(report)
    seen = set()
    for title, band, points in data["panels"]:
        for row, *drawn, lineup in points:
            arm = name_of[data["arms"][row]]
            name = f"{arm.ruleset}-{arm.players}p-{data['lineups'][lineup]}"
            cell = cells[name, metric_of[title]]
            assert [*drawn, band] == [cell.estimate, cell.low, cell.high, cell.verdict, cell.band]
            seen.add(cell.verdict)
    assert NO_DIFFERENCE in seen and FINDING in seen  # the same rules; around the corner
    # each verdict is drawn in its own colour, whatever its p-value, each line-up its marker
    panels = [("turns", 1.0, [(0, 2.0, 1.5, 2.5, FINDING, 0), (1, 0.1, -0.2, 0.3, NO_DIFFERENCE, 0),
                              (2, 0.5, -0.5, 1.5, "inconclusive: more hands needed", 0),
                              (2, 2.0, 1.5, 2.5, FINDING, 1)])]  # fmt: skip
    fig = _draw_forest(["a", "b", "c"], ["greedy", "careful"], panels)
    try:
        (ax, *_) = fig.axes
        drawn = {
            (round(float(line.get_ydata()[0]), 2), line.get_marker()): to_rgba(line.get_color())
            for line in ax.get_lines()
            if line.get_marker() in MARKERS
        }
        expected = [FINDING, NO_DIFFERENCE, "inconclusive: more hands needed"]
        want = {(k - 0.25, "o"): to_rgba(VERDICT_COLORS[v]) for k, v in enumerate(expected)}
        assert drawn == want | {(2.25, "s"): to_rgba(VERDICT_COLORS[FINDING])}
        assert [t.get_text() for t in fig.legends[0].get_texts()] == ["greedy", "careful"]
    finally:
        plt.close(fig)
