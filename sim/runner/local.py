"""The local backend: shards run in forked worker processes (``multiprocess``).

The parent hands one shard at a time to each worker and watches them. A worker that dies
(killed, out of memory) is reported, replaced, and its shard given to another worker, up to
``MAX_ATTEMPTS`` times. A worker that fails with an error (a full disk, an unwritable folder)
stops the run: retrying would fail the same way. Workers ignore Ctrl-C; the parent stops them
and the completed shards stay as they are.
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.runner.shards import ShardResult, ShardTask, run_shard

MAX_ATTEMPTS = 3  # times a shard may be started before its worker deaths stop the run
POLL_SECONDS = 0.2
PR_SET_PDEATHSIG = 1


class RunFault(Exception):
    """The run cannot go on (a shard failed with an error, or kept killing its workers)."""


@dataclass
class _Slot:
    process: Any
    tasks: Any
    task: ShardTask | None = None
    done: int = 0  # progress reported for the current task
    extra: dict = field(default_factory=dict)


def run_local(
    tasks: list[ShardTask],
    workers: int,
    on_progress: Callable[[str, int], None],
    on_done: Callable[[ShardResult], None],
    log: Callable[[str], None],
) -> None:
    """Run ``tasks`` on ``workers`` processes. ``on_progress(arm, n)`` gets every step of
    progress (negative when a dead worker's partial progress is taken back); ``on_done`` gets
    each finished shard, in the parent, in completion order."""
    import multiprocess as mp

    ctx = mp.get_context("fork")
    results = ctx.Queue()
    todo = deque(tasks)
    attempts: dict[str, int] = {}
    finished: set[str] = set()
    slots: dict[int, _Slot] = {}
    parent = os.getpid()

    def start(wid: int) -> None:
        inbox = ctx.SimpleQueue()
        proc = ctx.Process(target=_worker, args=(wid, inbox, results, parent), daemon=True)
        proc.start()
        slots[wid] = _Slot(proc, inbox)

    try:
        for wid in range(min(workers, len(tasks))):
            start(wid)
        while todo or any(s.task is not None for s in slots.values()):
            for slot in slots.values():
                if slot.task is None and todo:
                    task = todo.popleft()
                    attempts[task.key] = attempts.get(task.key, 0) + 1
                    slot.task, slot.done = task, 0
                    slot.tasks.put(task)
            _drain(results, slots, finished, on_progress, on_done)
            for wid, slot in list(slots.items()):
                if slot.task is None or slot.process.is_alive():
                    continue
                _drain(results, slots, finished, on_progress, on_done, wait=False)
                if slot.task is None:  # its result arrived after all
                    start(wid)
                    continue
                task = slot.task
                code = slot.process.exitcode
                on_progress(task.arm, -slot.done)
                if attempts[task.key] >= MAX_ATTEMPTS:
                    raise RunFault(
                        f"shard {task.key} killed its worker {attempts[task.key]} times "
                        f"(last exit code {code}); giving up"
                    )
                log(
                    f"worker {wid} (pid {slot.process.pid}) died with exit code {code} "
                    f"while playing shard {task.key}; retrying it"
                )
                todo.appendleft(task)
                start(wid)
    finally:
        _stop(slots)


def _drain(results, slots, finished, on_progress, on_done, wait: bool = True) -> None:
    """Handle the workers' messages: wait up to POLL_SECONDS for the first, then take all."""
    timeout = POLL_SECONDS if wait else 0.0
    while True:
        try:
            message = results.get(timeout=timeout) if timeout else results.get_nowait()
        except queue.Empty:
            return
        timeout = 0.0
        kind, wid, key = message[0], message[1], message[2]
        slot = slots.get(wid)
        current = slot is not None and slot.task is not None and slot.task.key == key
        if kind == "progress":
            if current:
                slot.done += message[3]
                on_progress(slot.task.arm, message[3])
        elif kind == "done":
            if current:
                slot.task = None
            if key not in finished:
                finished.add(key)
                on_done(message[3])
        elif kind == "failed":
            raise RunFault(f"shard {key} failed: {message[3]}")


def _stop(slots: dict[int, _Slot]) -> None:
    for slot in slots.values():
        if slot.process.is_alive():
            if slot.task is None:
                slot.tasks.put(None)
            else:
                slot.process.terminate()
    for slot in slots.values():
        slot.process.join(timeout=5)
        if slot.process.is_alive():
            slot.process.kill()
            slot.process.join()


def _worker(wid: int, inbox, results, parent: int) -> None:
    """A worker's loop: play the shards it is given until told to stop or the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    while True:
        task = inbox.get()
        if task is None or os.getppid() != parent:
            return
        try:
            result = run_shard(task, lambda n, key=task.key: results.put(("progress", wid, key, n)))
        except OSError as err:
            results.put(("failed", wid, task.key, _os_error_text(err)))
            return
        except Exception:
            results.put(("failed", wid, task.key, traceback.format_exc(limit=6)))
            return
        results.put(("done", wid, task.key, result))


def _os_error_text(err: OSError) -> str:
    where = f": {err.filename}" if err.filename else ""
    return f"{err.strerror or err}{where}"


def _die_with_parent() -> None:
    """Ask Linux to kill this worker when the parent dies (SIGKILL of the run leaves no
    orphans playing on). Elsewhere the worker notices the new parent pid between shards."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
