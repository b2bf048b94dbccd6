"""The figures: the same report gives the same files, and what they show."""

from __future__ import annotations

from pathlib import Path

from sim.report.figures import FIGURES, draw_all


def test_drawing_twice_writes_the_same_files(small_report, tmp_path) -> None:
    report = small_report.report
    first = draw_all(report, tmp_path / "first")
    again = draw_all(report, tmp_path / "again")
    assert set(first) == set(again) == {stem for stem, _caption in FIGURES}
    for stem in first:
        assert Path(first[stem]).read_bytes() == Path(again[stem]).read_bytes(), stem
        svg = f"{stem}.svg"
        assert (tmp_path / "first" / svg).read_bytes() == (tmp_path / "again" / svg).read_bytes()


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
