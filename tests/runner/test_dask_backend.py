"""The Dask backend against a real dask.distributed cluster on 127.0.0.1: a scheduler and
two workers started as a user would start them. The dataset equals the local run's, and
killing a worker in the middle of the run loses nothing."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from sim.runner.dask_backend import ShardProgress
from sim.runner.experiment import load_experiment
from sim.runner.run import Reporter, run_experiment
from tests.runner.helpers import MC_SMALL, SMALL, cli, dataset_rows, start_cli, write_experiment

DASK = Path(sys.executable).with_name("dask")
LONG = SMALL.replace("hands = 3000", "hands = 24000").replace(
    "shard_size = 1000", "shard_size = 1500"
)
BIG_SHARDS = SMALL.replace("hands = 3000", "hands = 100000").replace(
    "shard_size = 1000", "shard_size = 50000"
)  # 50,000-hand shards: 3 chunks each (shards.CHUNK_HANDS)


class Steps(Reporter):
    """Records every ``advance`` the runner makes (from any thread)."""

    def __init__(self) -> None:
        self.steps: list[tuple[str, int]] = []
        self._lock = threading.Lock()

    def advance(self, arm: str, amount: int) -> None:
        with self._lock:
            self.steps.append((arm, amount))

    def totals(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for arm, amount in self.steps:
            out[arm] = out.get(arm, 0) + amount
        return out


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(*args: str, log: Path) -> subprocess.Popen:
    """A dask process in its own session, so the whole process tree can be killed."""
    return subprocess.Popen(
        [str(DASK), *args],
        stdout=subprocess.DEVNULL,
        stderr=open(log, "w"),  # noqa: SIM115 (closed with the process)
        start_new_session=True,
    )


def _kill(proc: subprocess.Popen) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


@pytest.fixture
def cluster(tmp_path):
    """(address, [worker processes]) of a fresh scheduler with two single-thread workers."""
    if not DASK.exists():
        pytest.skip("the dask command is not installed in this environment")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [
        _start(
            "scheduler", "--host", "127.0.0.1", "--port", str(port),
            "--dashboard-address", "127.0.0.1:0", "--no-show",
            log=tmp_path / "scheduler.log",
        )
    ]  # fmt: skip
    workers = [
        _start(
            "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny",
            "--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0",
            "--local-directory", str(tmp_path / f"w{i}"),
            log=tmp_path / f"worker{i}.log",
        )
        for i in range(2)
    ]  # fmt: skip
    procs += workers
    try:
        _wait_for_workers(address, 2)
        yield address, workers
    finally:
        for proc in reversed(procs):
            _kill(proc)


def _wait_for_workers(address: str, n: int, timeout: float = 90) -> None:
    from dask.distributed import Client

    end = time.monotonic() + timeout
    while True:
        try:
            with Client(address, timeout="5s") as client:
                client.wait_for_workers(n, timeout=max(1, end - time.monotonic()))
                return
        except (OSError, TimeoutError):
            if time.monotonic() > end:
                raise


def _local(tmp_path: Path, text: str) -> Path:
    exp = load_experiment(write_experiment(tmp_path, text, "local.toml"))
    return run_experiment(exp, tmp_path / "local", workers=2).root


@pytest.mark.parametrize(
    ("text", "name"), [(SMALL, "small"), (MC_SMALL, "mc")], ids=["greedy", "mc32"]
)
def test_the_dask_backend_writes_the_same_dataset_as_the_local_one(tmp_path, cluster, text, name):
    address, _ = cluster
    path = write_experiment(tmp_path, text)
    done = cli("run", str(path), "--out", str(tmp_path / "dask"), "--scheduler", address)
    assert done.returncode == 0, done.stderr
    assert f"Dask scheduler {address}" in done.stdout
    local = _local(tmp_path, text)
    for table in ("hands", "games"):
        assert dataset_rows(tmp_path / "dask" / name, table) == dataset_rows(local, table)


def test_a_worker_killed_mid_run_loses_nothing(tmp_path, cluster):
    address, workers = cluster
    path = write_experiment(tmp_path, LONG)
    out = tmp_path / "dask"
    run = start_cli("run", str(path), "--out", str(out), "--scheduler", address)
    manifest = out / "small" / "manifest.json"

    def done_shards() -> int:
        try:
            return sum(s["status"] == "done" for s in json.loads(manifest.read_text())["shards"])
        except (OSError, ValueError):
            return 0

    end = time.monotonic() + 180
    while done_shards() < 2:
        assert time.monotonic() < end and run.poll() is None, run.communicate()
        time.sleep(0.05)
    _kill(workers[0])
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    assert done_shards() == 32
    local = _local(tmp_path, LONG)
    for table in ("hands", "games"):
        assert dataset_rows(out / "small", table) == dataset_rows(local, table)


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    port = _free_port()
    done = cli(
        "run", str(path), "--out", str(tmp_path / "o"), "--scheduler", f"tcp://127.0.0.1:{port}"
    )
    assert done.returncode == 1 and "cannot reach the Dask scheduler" in done.stderr
    assert "Traceback" not in done.stderr


def test_two_runs_of_one_experiment_at_once_each_write_their_own_dataset(tmp_path, cluster):
    address, _ = cluster
    path = write_experiment(tmp_path, SMALL)
    runs = [
        start_cli("run", str(path), "--out", str(tmp_path / name), "--scheduler", address)
        for name in ("a", "b")
    ]
    for run in runs:
        _, stderr = run.communicate(timeout=300)
        assert run.returncode == 0, stderr
    a = dataset_rows(tmp_path / "a" / "small")
    assert len(a) == 6 and a == dataset_rows(tmp_path / "b" / "small")


def _event(key: str, attempt: str, n: int) -> tuple:
    return (0.0, {"key": key, "attempt": attempt, "n": n})


def test_shard_progress_takes_back_a_retried_attempt_and_never_overcounts():
    tasks = [SimpleNamespace(key="a/0", arm="a", count=100, rotations=2)]
    steps = Steps()
    progress = ShardProgress(tasks, steps)
    progress.on_event(_event("a/0", "first", 60))
    progress.on_event(_event("a/0", "second", 50))  # the worker died; the shard restarts
    assert steps.steps == [("a", 60), ("a", -60), ("a", 50)]
    progress.on_event(_event("a/0", "first", 40))  # late words of the dead attempt
    progress.on_event(_event("a/0", "second", 500))  # capped at the shard's 200 hands
    assert steps.totals() == {"a": 200}
    progress.finish(tasks[0])
    progress.on_event(_event("a/0", "second", 10))  # after the result: ignored
    progress.on_event(_event("b/9", "x", 10))  # not a shard of this run
    assert steps.totals() == {"a": 200}


def test_finishing_a_shard_credits_what_its_events_did_not():
    tasks = [SimpleNamespace(key="a/0", arm="a", count=300, rotations=1)]
    steps = Steps()
    progress = ShardProgress(tasks, steps)
    progress.on_event(_event("a/0", "only", 120))
    progress.finish(tasks[0])
    assert steps.steps == [("a", 120), ("a", 180)]


def test_the_dask_progress_moves_inside_a_shard_and_counts_every_hand(tmp_path, cluster):
    address, _ = cluster
    exp = load_experiment(write_experiment(tmp_path, BIG_SHARDS))
    steps = Steps()
    run_experiment(exp, tmp_path / "out", workers=2, scheduler=address, reporter=steps)
    assert steps.totals() == {"basic-2p-greedy": 100000, "ace_high-2p-greedy": 100000}
    assert any(0 < amount < 50000 for _, amount in steps.steps), steps.steps


def test_a_ladder_on_the_dask_backend_ranks_as_the_local_one(tmp_path, cluster):
    """``rummysim ladder --scheduler``: the same ladder as on local workers (issue #34)."""
    address, _ = cluster
    ladders = []
    for where, extra in (("local", ["--workers", "1"]), ("dask", ["--scheduler", address])):
        done = cli("ladder", "gin_rummy", "--bots", "careful,simple", "--games", "40",
                   "--out", str(tmp_path / where), "--page", str(tmp_path / f"{where}-page"),
                   *extra)  # fmt: skip
        assert done.returncode == 0, done.stderr
        ladders.append(json.loads((tmp_path / f"{where}-page" / "ladder.json").read_text()))
    assert ladders[0]["tables"] == ladders[1]["tables"]
