"""Tests of the engine run in one pytest-xdist worker (``--dist loadgroup``):
two workers compiling the same new kernel at once would both write numba's cache index
(``make test`` compiles them first, ``python -m sim.engine.precompile``, so this matters only
for kernels a test compiles with signatures of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest

_MECH = ("tests/engine/", "tests/oracles/test_hand_oracle.py")


def pytest_collection_modifyitems(items):
    for item in items:
        path = Path(str(item.fspath)).as_posix()
        if any(part in path for part in _MECH):
            item.add_marker(pytest.mark.xdist_group("engine"))
