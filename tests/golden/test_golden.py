"""Golden transcripts (issue 29, point 6): every case of cases.py replayed and compared as
text with its file in transcripts/, so that a failure shows what changed in the play."""

from __future__ import annotations

import difflib

import pytest

from tests.golden.cases import TRANSCRIPTS, Case, cases, text, variant_names

DIFF_LINES = 60
REGEN = (
    "if the change is intended, run `python -m tests.golden.regen` (make golden) "
    "and review `git diff tests/golden`"
)


def _diff(expected: str, actual: str, name: str) -> str:
    """The first DIFF_LINES lines of a unified diff of the golden file against the replay."""
    lines = list(
        difflib.unified_diff(
            expected.splitlines(),
            actual.splitlines(),
            fromfile=f"golden/{name}",
            tofile="replay now",
            lineterm="",
        )
    )
    shown = "\n".join(lines[:DIFF_LINES])
    more = len(lines) - DIFF_LINES
    return shown + (f"\n... ({more} more diff lines)" if more > 0 else "")


@pytest.mark.parametrize("case", cases(), ids=lambda case: case.name)
def test_transcript_matches_golden(case: Case) -> None:
    actual = text(case)
    if not case.path.is_file():
        pytest.fail(f"no golden transcript {case.path.name}; {REGEN}", pytrace=False)
    expected = case.path.read_text(encoding="utf-8")
    if actual != expected:
        pytest.fail(
            f"the replay of {case.name} differs from its golden transcript; {REGEN}\n"
            + _diff(expected, actual, case.path.name),
            pytrace=False,
        )


def test_no_stale_transcripts() -> None:
    produced = {case.path.name for case in cases()}
    stale = sorted(p.name for p in TRANSCRIPTS.iterdir() if p.name not in produced)
    assert not stale, f"files no golden case produces: {stale}; {REGEN}"


def test_every_variant_file_has_cases() -> None:
    covered = {case.variant for case in cases()}
    missing = [name for name in variant_names() if name not in covered]
    assert variant_names(), "no variant files found"
    assert not missing, f"variant files without golden cases: {missing}"
