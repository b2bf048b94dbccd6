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
import signal
import traceback
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sim.runner.shards import ShardResult, ShardTask, run_shard

MAX_ATTEMPTS = 3  # times a shard may be started before its worker deaths stop the run
POLL_SECONDS = 0.2
PR_SET_PDEATHSIG = 1


class RunFault(Exception):
    """The run cannot go on (a shard failed with an error, or kept killing its workers)."""


@dataclass
class _Slot:
    """One worker process, the pipes to and from it, and the shard it is playing."""

    process: Any
    inbox: Any  # parent -> worker: tasks, then None to stop
    outbox: Any  # worker -> parent: progress, results, failures
    task: ShardTask | None = None
    done: int = 0  # progress reported for the current task


def run_local(
    tasks: list[ShardTask],
    workers: int,
    on_progress: Callable[[str, int], None],
    on_done: Callable[[ShardResult], None],
    log: Callable[[str], None],
) -> None:
    """Run ``tasks`` on ``workers`` processes. ``on_progress(arm, n)`` gets every step of
    progress (negative when a dead worker's partial progress is taken back); ``on_done`` gets
    each finished shard, in the parent, in completion order.

    Each worker has its own pipes, so a worker killed in the middle of a message cannot
    block the others (a shared queue's lock could stay held).
    """
    import multiprocess as mp
    from multiprocess.connection import wait

    ctx = mp.get_context("fork")
    todo = deque(tasks)
    attempts: dict[str, int] = {}
    slots: dict[int, _Slot] = {}
    parent = os.getpid()

    def start(wid: int) -> None:
        task_reader, task_writer = ctx.Pipe(duplex=False)
        result_reader, result_writer = ctx.Pipe(duplex=False)
        proc = ctx.Process(
            target=_worker, args=(wid, task_reader, result_writer, parent), daemon=True
        )
        proc.start()
        task_reader.close()
        result_writer.close()
        slots[wid] = _Slot(proc, task_writer, result_reader)

    def died(wid: int, slot: _Slot) -> None:
        task = slot.task
        slot.process.join(timeout=5)
        code = slot.process.exitcode
        slot.outbox.close()
        slot.inbox.close()
        on_progress(task.arm, -slot.done)
        if attempts[task.key] >= MAX_ATTEMPTS:
            raise RunFault(
                f"shard {task.key} killed its worker {attempts[task.key]} times "
                f"(last exit code {code}); giving up"
            )
        log(
            f"warning: worker {wid} (pid {slot.process.pid}) died with exit code {code} "
            f"while playing shard {task.key}; retrying it"
        )
        todo.appendleft(task)
        start(wid)

    def idle_death(wid: int, slot: _Slot) -> None:
        slot.process.join(timeout=5)
        log(
            f"warning: worker {wid} (pid {slot.process.pid}) died while idle "
            f"(exit code {slot.process.exitcode}); starting another"
        )
        if slot.task is not None:  # handed a shard it never received: not its fault
            attempts[slot.task.key] -= 1
            todo.appendleft(slot.task)
        start(wid)

    try:
        for wid in range(min(workers, len(tasks))):
            start(wid)
        while todo or any(s.task is not None for s in slots.values()):
            for wid, slot in list(slots.items()):
                if slot.task is None and todo:
                    task = todo.popleft()
                    attempts[task.key] = attempts.get(task.key, 0) + 1
                    slot.task, slot.done = task, 0
                    try:
                        slot.inbox.send(task)
                    except OSError:  # the worker died between two shards
                        idle_death(wid, slot)
            readers = {s.outbox: (wid, s) for wid, s in slots.items() if s.task is not None}
            sentinels = {s.process.sentinel: (wid, s) for wid, s in slots.items()}
            ready = wait([*readers, *sentinels], timeout=POLL_SECONDS)
            for reader in (r for r in ready if r in readers):
                wid, slot = readers[reader]
                if slots.get(wid) is not slot or slot.task is None:
                    continue
                try:
                    message = reader.recv()
                except (EOFError, OSError):
                    died(wid, slot)
                    continue
                _handle(message, slot, on_progress, on_done)
            for sentinel in (r for r in ready if r in sentinels):
                wid, slot = sentinels[sentinel]
                if slots.get(wid) is not slot:
                    continue  # already replaced
                while slot.task is not None and slot.outbox.poll():  # its last words first
                    try:
                        _handle(slot.outbox.recv(), slot, on_progress, on_done)
                    except (EOFError, OSError):
                        break
                if slot.task is None:
                    idle_death(wid, slot)
                else:
                    died(wid, slot)
    finally:
        _stop(slots)


def _handle(message: tuple, slot: _Slot, on_progress, on_done) -> None:
    kind, key = message[0], message[1]
    if kind == "progress":
        slot.done += message[2]
        on_progress(slot.task.arm, message[2])
    elif kind == "done":
        slot.task = None
        on_done(message[2])
    elif kind == "failed":
        raise RunFault(f"shard {key} failed: {message[2]}")


def _stop(slots: dict[int, _Slot]) -> None:
    for slot in slots.values():
        if slot.process.is_alive():
            if slot.task is None:
                try:
                    slot.inbox.send(None)
                except OSError:
                    slot.process.terminate()
            else:
                slot.process.terminate()
    for slot in slots.values():
        slot.process.join(timeout=5)
        if slot.process.is_alive():
            slot.process.kill()
            slot.process.join()


def _worker(wid: int, inbox, outbox, parent: int) -> None:
    """A worker's loop: play the shards it is given until told to stop or the parent dies."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    while True:
        try:
            task = inbox.recv()
        except EOFError:
            return
        if task is None or os.getppid() != parent:
            return
        try:
            result = run_shard(task, lambda n, key=task.key: outbox.send(("progress", key, n)))
        except OSError as err:
            outbox.send(("failed", task.key, _os_error_text(err)))
            return
        except Exception as err:  # a bug: one line for the user, the frames for a developer
            where = traceback.extract_tb(err.__traceback__)[-1]
            text = f"{type(err).__name__}: {err} (at {where.filename}:{where.lineno})"
            outbox.send(("failed", task.key, text))
            return
        outbox.send(("done", task.key, result))


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
