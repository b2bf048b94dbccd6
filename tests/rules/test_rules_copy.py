"""docs/rules.md is a verbatim copy of ../shared/RULES.md, so the repo reads alone after a clone."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
COPY = ROOT / "docs" / "rules.md"
SHARED = ROOT.parent / "shared" / "RULES.md"


@pytest.mark.nojit
def test_docs_rules_is_a_verbatim_copy_of_shared_rules():
    if not SHARED.exists():
        pytest.skip(f"{SHARED} does not exist here (a clone without ../shared): nothing to compare")
    assert COPY.exists(), "docs/rules.md is missing: copy ../shared/RULES.md to docs/rules.md"
    assert COPY.read_bytes() == SHARED.read_bytes(), (
        "docs/rules.md differs from ../shared/RULES.md: copy it again"
    )
