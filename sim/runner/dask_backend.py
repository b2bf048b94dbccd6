"""The Dask backend: shards run as tasks on a dask.distributed cluster.

Every worker must see the output folder at the same path (a shared file system) and have
rummysim installed. Workers write the shard files themselves; only the small results travel
back to this process, which keeps the manifest. A worker that dies loses nothing: the
scheduler gives its shards to another worker (``retries`` covers errors raised in a task).
"""

from __future__ import annotations

import os
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
        for task in todo:
            key = f"rummysim-{task.experiment}-{task.key}-{run_id}"
            futures[client.submit(run_shard, task, key=key, retries=RETRIES)] = task
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
            reporter.advance(task.arm, task.count * task.rotations)
            finished(result)
    finally:
        pending = [f for f in futures if not f.done()]
        if pending:
            client.cancel(pending)
            # tasks already running cannot be stopped; they finish, and their files are
            # refused if the dataset has moved on (shards.StaleShard)
            wait(pending, timeout=STOP_WAIT_SECONDS)
        client.close()


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
