"""The Dask backend: shards run as tasks on a dask.distributed cluster.

Every worker must see the output folder at the same path (a shared file system) and have
rummysim installed. Workers write the shard files themselves; only the small results travel
back to this process, which keeps the manifest. A worker that dies loses nothing: the
scheduler gives its shards to another worker (``retries`` covers errors raised in a task).
"""

from __future__ import annotations

from collections.abc import Callable

from sim.runner.shards import ShardResult, ShardTask, run_shard

RETRIES = 2
CONNECT_TIMEOUT = "20s"


def run_on_dask(
    todo: list[ShardTask],
    workers: int,
    scheduler: str,
    reporter,
    finished: Callable[[ShardResult], None],
) -> None:
    """Submit every shard to the cluster at ``scheduler`` and record them as they finish."""
    from dask.distributed import Client, as_completed

    from sim.runner.run import RunError

    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except OSError as err:
        raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
    futures = {}
    try:
        for task in todo:
            future = client.submit(
                run_shard, task, key=f"rummysim-{task.experiment}-{task.key}", retries=RETRIES
            )
            futures[future] = task
        for future in as_completed(futures):
            task = futures[future]
            try:
                result = future.result()
            except OSError as err:
                raise RunError(f"shard {task.key} failed on a Dask worker: {err}") from None
            except Exception as err:  # noqa: BLE001 (shown to the user, the run stops)
                raise RunError(f"shard {task.key} failed on a Dask worker: {err!r}") from None
            reporter.advance(task.arm, task.count * task.rotations)
            finished(result)
    finally:
        for future in futures:
            future.cancel()
        client.close()
