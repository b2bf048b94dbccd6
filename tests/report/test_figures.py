"""The figures: drawing part of them in a forked process gives the very same files."""

from __future__ import annotations

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
        fig.savefig(tmp_path / "saved.png", dpi=figures.DPI, bbox_inches=bbox)
    finally:
        plt.close(fig)
    assert (tmp_path / "cropped.png").read_bytes() == (tmp_path / "saved.png").read_bytes()


def test_the_fork_gets_the_forest_and_about_half_of_the_work() -> None:
    import pandas as pd

    from sim.report.figures import _cost, forked_share

    def data(arms: int) -> dict:
        names = [f"arm{i}" for i in range(arms)]
        return {
            "turns": ("boxes", {"stats": names}),
            "survival": ("survival", {"data": pd.DataFrame({"arm": names})}),
            "spread": ("boxes", {"stats": names}),
            "seats": ("seats", {"names": names}),
            "forest": ("forest", {"arms": names[1:], "panels": [0] * 4}),
        }

    for arms, alone in ((2, False), (6, True), (32, True)):
        share = forked_share(data(arms))
        assert "forest" in share and (share == {"forest"}) is alone
        costs = {stem: _cost(kind, d) for stem, (kind, d) in data(arms).items()}
        forked = sum(costs[s] for s in share)
        here = sum(costs.values()) - forked
        assert abs(forked - here) <= min(costs.values()) + 0.5 * costs["forest"]
