"""The installed console script: exit codes survive its fast exit."""

from __future__ import annotations

import subprocess
import sys


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_bad_variant_exits_2_with_the_message_on_stderr():
    done = _run("validate", "no_such_variant")
    assert done.returncode == 2
    assert "no_such_variant" in done.stderr and "rummy_basic" in done.stderr


def test_good_command_exits_0_with_its_output():
    done = _run("variants")
    assert done.returncode == 0 and "block_rummy" in done.stdout
