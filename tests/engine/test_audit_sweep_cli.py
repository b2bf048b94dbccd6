"""``make audit-sweep``'s options (tests/engine/audit_sweep.py): the ones that are refused
before any hand is played."""

from __future__ import annotations

import pytest

from tests.engine.audit_sweep import main


def test_only_without_every_count_is_refused(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--only", "tonk"])
    assert stopped.value.code == 2
    assert "--every-count" in capsys.readouterr().err


def test_only_that_matches_no_variant_file_says_so():
    with pytest.raises(SystemExit, match="matches no variant file"):
        main(["--every-count", "10", "--only", "no_such_variant"])
