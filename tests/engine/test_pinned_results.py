"""The engine plays every pinned case exactly as it did when the digests were recorded.

Speed work (bitmask fast paths, incremental hand masks) must leave every seed's rows
unchanged, tie-breaking included: see ``pinned_results.py`` for the cases and how the
fixture was made.
"""

from __future__ import annotations

import pytest

from . import pinned_results as pinned

EXPECTED = pinned.load()


@pytest.mark.parametrize("case_id", [c[0] for c in pinned.CASES])
def test_results_match_pinned_digest(case_id):
    assert pinned.digest(case_id) == EXPECTED["full"][case_id]


@pytest.mark.parametrize("case_id", [c[0] for c in pinned.CASES])
def test_results_without_audit_match_pinned_digest(case_id):
    # without audit mode the fast path's greedy and careful hands are played by
    # mask_hand.play_mask_hand alone: its rows must be the pinned ones too (violations are
    # not counted then, and the pinned runs had none)
    assert pinned.digest(case_id, audit=False) == EXPECTED["full"][case_id]


@pytest.mark.nojit
@pytest.mark.parametrize("case_id", pinned.NOJIT_CASES)
def test_results_match_pinned_digest_small(case_id):
    assert pinned.digest(case_id, pinned.NOJIT_HANDS) == EXPECTED["nojit"][case_id]


def test_every_case_is_pinned():
    assert set(EXPECTED["full"]) == {c[0] for c in pinned.CASES}
    assert set(EXPECTED["nojit"]) == set(pinned.NOJIT_CASES)
