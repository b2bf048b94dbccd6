"""The figures: drawing part of them in a forked process gives the very same files."""

from __future__ import annotations

from pathlib import Path

from sim.report.figures import FIGURES, FORKED, draw_all


def test_forked_drawing_writes_the_same_files_as_drawing_here(small_report, tmp_path) -> None:
    report = small_report.report
    here = draw_all(report, tmp_path / "here", workers=1)
    forked = draw_all(report, tmp_path / "forked", workers=2)
    assert set(here) == set(forked) == {stem for stem, _caption in FIGURES}
    assert FORKED and set(FORKED) < set(here)
    for stem in here:
        assert Path(here[stem]).read_bytes() == Path(forked[stem]).read_bytes(), stem
        svg = f"{stem}.svg"
        assert (tmp_path / "here" / svg).read_bytes() == (tmp_path / "forked" / svg).read_bytes()
