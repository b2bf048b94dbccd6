"""The figures: drawing part of them in a forked process (while the report is analysed)
gives the very same files."""

from __future__ import annotations

import os
from pathlib import Path

from sim.report.figures import FIGURES, draw_all


def test_forked_drawing_writes_the_same_files_as_drawing_here(small_report, tmp_path) -> None:
    report = small_report.report
    here = draw_all(report, tmp_path / "here", workers=1)
    forked = draw_all(report, tmp_path / "forked", workers=2)
    assert set(here) == set(forked) == {stem for stem, _caption in FIGURES}
    for stem in here:
        assert Path(here[stem]).read_bytes() == Path(forked[stem]).read_bytes(), stem
        svg = f"{stem}.svg"
        assert (tmp_path / "here" / svg).read_bytes() == (tmp_path / "forked" / svg).read_bytes()


def test_cropped_png_is_what_savefig_writes_for_the_same_box(small_report, tmp_path) -> None:
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.transforms import Bbox

    from sim.report import figures

    data = figures._forest_data(small_report.report)
    fig = figures._draw_forest(**data)
    try:
        bbox = fig.get_tightbbox(fig.canvas.get_renderer()).padded(figures.PAD_INCHES)
        assert figures._inside(fig, bbox)
        extents = np.round(np.asarray(bbox.extents) * figures.DPI) / figures.DPI
        bbox = Bbox(extents.reshape(2, 2))
        figures._save_cropped_png(fig, bbox, tmp_path / "cropped.png")
        fig.savefig(
            tmp_path / "saved.png", dpi=figures.DPI, bbox_inches=bbox,
            pil_kwargs=figures.PNG_OPTIONS,
        )  # fmt: skip
    finally:
        plt.close(fig)
    assert (tmp_path / "cropped.png").read_bytes() == (tmp_path / "saved.png").read_bytes()


def test_the_aggregates_figures_are_drawn_while_the_report_is_analysed(
    small_report, tmp_path
) -> None:
    import time

    from sim.report.figures import EARLY, begin

    report = small_report.report
    folder = tmp_path / "figures"
    with begin(report.dataset, report.agg, folder, workers=2) as drawing:
        # drawn by the forked process, before any analysis is given
        deadline = time.monotonic() + 300
        while not all(drawing.claims.done[: len(EARLY)]) and time.monotonic() < deadline:
            time.sleep(0.05)
        for stem in EARLY:
            assert (folder / f"{stem}.png").stat().st_size > 0
        assert not (folder / "forest.png").exists() and not (folder / "seats.png").exists()
        pngs = drawing.finish(report)
    assert all(path.stat().st_size > 0 for path in pngs.values())
    assert drawing.forks == []  # the forked processes have ended


def test_the_comparisons_figures_are_drawn_by_the_fork_once_the_effects_are_known(
    small_report, tmp_path
) -> None:
    """``Drawing.effects`` (called by ``analyse`` before the quantiles' bootstrap) hands the
    fork the forest plot and the seats: it draws them while this process is still busy."""
    import time

    from sim.report.figures import FIGURES, begin

    report = small_report.report
    folder = tmp_path / "figures"
    with begin(report.dataset, report.agg, folder, workers=2) as drawing:
        drawing.effects(report)
        deadline = time.monotonic() + 300
        while not all(drawing.claims.done[:]) and time.monotonic() < deadline:
            time.sleep(0.05)
        for stem, _caption in FIGURES:  # every figure, this process having drawn none
            assert (folder / f"{stem}.png").stat().st_size > 0
        pngs = drawing.finish(report)
    assert sorted(pngs) == sorted(stem for stem, _ in FIGURES)


def test_a_figure_a_fork_failed_to_draw_is_drawn_here(small_report, tmp_path, monkeypatch):
    """Should a forked process die, the figures it claimed but did not finish are drawn by
    this process: the report never lacks a figure."""
    from sim.report import figures

    real = figures.draw_one
    parent = os.getpid()

    def flaky(stem, kind, data, folder):
        if os.getpid() != parent:
            raise RuntimeError("a fork's drawing failed")
        return real(stem, kind, data, folder)

    monkeypatch.setattr(figures, "draw_one", flaky)
    pngs = figures.draw_all(small_report.report, tmp_path / "figures", workers=2)
    assert all(path.stat().st_size > 0 for path in pngs.values())
