"""The installed console script: exit codes survive its fast exit."""

from __future__ import annotations

import json
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


HEAVY = ("polars", "pyarrow", "matplotlib", "seaborn", "dask", "distributed", "pandas")

IMPORTS = """
import json, sys
if sys.argv[1] == "bench":
    import sim.bench
    sim.bench.bench = lambda *args, **kwargs: {}  # the command's imports, not its kernels
from sim.cli import app
try:
    app(sys.argv[1:], prog_name="rummysim")
except SystemExit:
    pass
print(json.dumps(sorted(name.split(".")[0] for name in sys.modules)))
"""


def _top_modules(*args: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", IMPORTS, *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_bench_imports_nothing_it_does_not_use():
    """Start-up time (issue #2): no dataset, report or cluster stack, and no rich (typer
    imports it only to format help and errors)."""
    loaded = _top_modules("bench", "--hands", "1")
    assert "sim" in loaded and "numpy" in loaded
    assert not loaded & {*HEAVY, "rich", "multiprocess"}, loaded & {*HEAVY, "rich"}


def test_help_and_variants_do_not_import_numpy_or_numba():
    for args in (("--help",), ("variants",)):
        loaded = _top_modules(*args)
        assert not loaded & {*HEAVY, "numpy", "numba"}, (args, loaded & {*HEAVY, "numpy"})
