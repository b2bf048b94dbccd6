"""The Dask backend: shards run as tasks on a dask.distributed cluster.

Every worker must see the output folder at the same path (a shared file system) and have
rummysim installed. Workers write the shard files themselves; only the small results travel
back to this process, which keeps the manifest. A worker that dies loses nothing: the
scheduler gives its shards to another worker (``retries`` covers errors raised in a task).

Progress inside a shard travels as Dask events: the task logs one event per chunk of hands
on a topic of this run, and ``ShardProgress`` moves the bars as they arrive, as the local
backend's pipes do. A retried shard's earlier attempt is taken back from the bar.
"""

from __future__ import annotations

import os
import threading
import uuid
from collections.abc import Callable
from pathlib import Path

from sim.runner.shards import ShardResult, ShardTask, run_shard

RETRIES = 2
CONNECT_TIMEOUT = "20s"
STOP_WAIT_SECONDS = 30


def run_on_dask(
    todo: list[ShardTask],
    workers: int,
    scheduler: str,
    reporter,
    finished: Callable[[ShardResult], None],
) -> None:
    """Submit every shard to the cluster at ``scheduler`` and record them as they finish."""
    from dask.distributed import Client, as_completed, wait

    from sim.runner.run import RunError

    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, ValueError, TypeError) as err:
        raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    futures = {}
    try:
        _check_shared_folder(client, Path(todo[0].root))
        run_id = uuid.uuid4().hex[:12]  # two runs of one experiment never share task keys
        topic = f"rummysim-progress-{run_id}"
        progress = ShardProgress(todo, reporter)
        client.subscribe_topic(topic, progress.on_event)
        for task in todo:
            key = f"rummysim-{task.experiment}-{task.key}-{run_id}"
            future = client.submit(run_shard_reporting, task, topic, key=key, retries=RETRIES)
            futures[future] = task
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except OSError as err:
                raise RunError(f"shard {task.key} failed on a Dask worker: {err}") from None
            except Exception as err:  # noqa: BLE001 (shown to the user, the run stops)
                raise RunError(
                    f"shard {task.key} failed on a Dask worker: {type(err).__name__}: {err}"
                ) from None
            progress.finish(task)
            finished(result)
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)
            # tasks already running cannot be stopped; they finish, and their files are
            # refused if the dataset has moved on (shards.StaleShard)
            wait(pending, timeout=STOP_WAIT_SECONDS)
        client.close()


def run_shard_reporting(task: ShardTask, topic: str) -> ShardResult:
    """``run_shard`` on a Dask worker, logging each step of progress as an event on ``topic``:
    ``{"key": shard key, "attempt": id of this execution, "n": hands just done}``."""
    from distributed import get_worker

    worker = get_worker()
    attempt = uuid.uuid4().hex

    def report(n: int) -> None:
        worker.log_event(topic, {"key": task.key, "attempt": attempt, "n": int(n)})

    return run_shard(task, report)


class ShardProgress:
    """Moves the reporter's bars from the workers' progress events (``on_event``, called on
    the Dask client's thread) and from finished shards (``finish``, on the run's thread).

    Each shard is credited at most its size. When events come from a new attempt at a shard
    (its worker died and the scheduler started it again), the old attempt's credit is taken
    back and its late events are ignored; once a shard has finished, its events are too."""

    def __init__(self, tasks: list[ShardTask], reporter) -> None:
        self._tasks = {task.key: task for task in tasks}
        self._reporter = reporter
        self._lock = threading.Lock()
        self._credit: dict[str, int] = {}
        self._attempt: dict[str, str] = {}
        self._retired: set[str] = set()
        self._finished: set[str] = set()

    def on_event(self, event: tuple) -> None:
        """One event ``(timestamp, message)`` from ``run_shard_reporting``."""
        message = event[1]
        key, attempt, n = message["key"], message["attempt"], message["n"]
        task = self._tasks.get(key)
        with self._lock:
            if task is None or key in self._finished or attempt in self._retired:
                return
            current = self._attempt.get(key)
            if current != attempt:
                if current is not None:
                    self._retired.add(current)
                    self._reporter.advance(task.arm, -self._credit.get(key, 0))
                    self._credit[key] = 0
                self._attempt[key] = attempt
            credit = self._credit.get(key, 0)
            step = min(n, _size(task) - credit)
            self._credit[key] = credit + step
            self._reporter.advance(task.arm, step)

    def finish(self, task: ShardTask) -> None:
        """``task`` is done: credit whatever its events have not."""
        with self._lock:
            self._finished.add(task.key)
            self._reporter.advance(task.arm, _size(task) - self._credit.pop(task.key, 0))


def _size(task: ShardTask) -> int:
    """Hands (or games) a shard plays, counting every seat rotation of mirrored deals."""
    return task.count * task.rotations


def _check_shared_folder(client, root: Path) -> None:
    """Refuse to run unless every worker sees the dataset folder at the same path."""
    from sim.runner.run import RunError

    seen = client.run(os.path.isfile, str(root / "manifest.json"))
    blind = sorted(worker for worker, ok in seen.items() if not ok)
    if blind:
        raise RunError(
            f"Dask worker(s) {', '.join(blind)} cannot see the output folder {root}; every "
            "worker must see it at the same path (a shared file system)"
        )
