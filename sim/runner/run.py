"""``rummysim run``: plan an experiment's shards, skip the ones already done, run the rest on
the local or the Dask backend, and keep the manifest current.

The output folder ``DIR/<experiment>`` belongs to one experiment file and plan. Running into a
folder made from another one refuses (:class:`RunError`) unless ``fresh`` is set, which
deletes the old dataset first.
"""

from __future__ import annotations

import dataclasses
import errno
import fcntl
import math
import os
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from sim.dataset.files import TMP_DIR, write_parquet_atomic
from sim.dataset.schema import RULES_FILE, rules_table
from sim.dataset.summaries import Blocking, block_size
from sim.dataset.timing import DEFAULT_SECONDS, model_seconds
from sim.engine import api
from sim.engine import layout as L
from sim.engine import rows as R
from sim.rules.loader import rules_to_toml
from sim.runner import manifest as mf
from sim.runner.experiment import Arm, Experiment
from sim.runner.shards import ShardResult, ShardTask, bot_codes, warm_shard


class RunError(Exception):
    """A run that cannot start or cannot finish, with a message for the user."""


@dataclass
class RunSummary:
    """What a run did, for the closing message."""

    root: Path
    shards: int
    skipped: int
    ran: int
    hands: int = 0
    games: int = 0
    seconds: float = 0.0
    results: list[ShardResult] = field(default_factory=list)


class Reporter:
    """Callbacks the runner uses to show progress; the default shows nothing."""

    def start(self, experiment: Experiment, totals: dict[str, int], done: dict[str, int]) -> None:
        """Before running: the planned and already-done amount per arm."""

    def advance(self, arm: str, amount: int) -> None:
        """``amount`` more hands (or games) of ``arm`` are done (negative: taken back)."""

    def log(self, message: str) -> None:
        """A message for the user (a worker died, a shard is retried)."""

    def arm_done(self, arm: str) -> None:
        """Every shard of ``arm`` is written."""

    def stop(self) -> None:
        """The run is over, whatever the outcome."""


def plan(experiment: Experiment, root: Path) -> list[ShardTask]:
    """Every shard of every arm, in a fixed order (shard-major, so early results cover arms)."""
    tasks = []
    rotations = {arm.name: arm.players if experiment.mirror else 1 for arm in experiment.arms}
    n_shards = math.ceil(experiment.per_arm / experiment.shard_size)
    compiled = {arm.name: _compile(arm, experiment.audit) for arm in experiment.arms}
    if experiment.mirror:  # number deals per game, so each rotation of game g deals alike
        for params, _, _ in compiled.values():
            params[L.P_DEAL_PER_GAME] = 1
    blocking = report_blocking(experiment)
    specs = _arm_specs(experiment, compiled, rotations)
    for shard in range(n_shards):
        count = min(experiment.shard_size, experiment.per_arm - shard * experiment.shard_size)
        for arm in experiment.arms:
            params, values, toml = compiled[arm.name]
            tasks.append(
                ShardTask(
                    experiment=experiment.name,
                    arm=arm.name,
                    ruleset=arm.ruleset.name,
                    variant=arm.ruleset.variant,
                    rules_toml=toml,
                    params=params,
                    card_values=values,
                    bots=arm.bots,
                    seed=arm.seed,
                    shard=shard,
                    unit=experiment.unit,
                    count=count,
                    rotations=rotations[arm.name],
                    root=str(root),
                    teams=arm.rules.in_partnerships(arm.players),
                    hand_blocks=blocking,
                    spec=specs[arm.name],
                )
            )
    return tasks


def _arm_specs(
    experiment: Experiment, compiled: dict[str, tuple], rotations: dict[str, int]
) -> dict[str, str]:
    """The compile-time spec each arm plays under (``specs.plan_specs``: its most specific,
    but STANDARD's arms under ONE_PACK_RUMMY when the plan needs that spec anyway and they
    are few enough), so a plan compiles as few specs as its arms allow. A game counted in
    games is reckoned at :data:`MIRROR_HANDS_PER_GAME` hands."""
    from sim.engine.specs import plan_specs

    per_game = 1 if experiment.unit == "hands" else MIRROR_HANDS_PER_GAME
    wanted = [
        (
            api.with_bots(compiled[arm.name][0], api.kernel_bots(bot_codes(arm.bots))),
            experiment.per_arm * rotations[arm.name] * per_game,
        )
        for arm in experiment.arms
    ]
    chosen = plan_specs(wanted)
    return {arm.name: spec.name for arm, spec in zip(experiment.arms, chosen, strict=True)}


def report_blocking(experiment: Experiment) -> Blocking:
    """How the report will cut this experiment's hands and games into blocks
    (``sim.report.metrics.aggregate``), fixed by the plan from the experiment alone (no
    simulation), so that the workers keep each shard's blocks in its hands file's footer.

    * A run counted in hands plays ``per_arm`` hands per arm, dealt one after another, in
      blocks of ``block_size(per_arm)`` deals (a game in the block of its first deal).
    * A run counted in games plays ``per_arm`` games per arm, in blocks of
      ``block_size(per_arm)`` game numbers.
    * A mirrored run numbers its deals per game, so that every rotation of game g deals
      alike, and is cut into blocks of game numbers (every rotation of a game in one block).
      Counted in games, it knows the games of a rotation; counted in hands, it sizes the
      blocks as if every game lasted :data:`MIRROR_HANDS_PER_GAME` hands. Any block size
      gives honest intervals (a block holds whole games); arms with shorter games get more
      than 400 blocks, which the analysis merges down to 400, and only arms whose games are
      longer get fewer."""
    stride = 1
    per_rotation = experiment.per_arm
    if experiment.mirror:
        stride = R.GAME_DEAL_STRIDE
        if experiment.unit == "hands":
            per_rotation = max(1, experiment.per_arm // MIRROR_HANDS_PER_GAME)
    return Blocking(
        block=block_size(per_rotation),
        stride=stride,
        seats=max(arm.players for arm in experiment.arms),
        known=R.REASON_NAMES + ("other",),
        by_game=experiment.unit == "games" and not experiment.mirror,
        seconds=model_seconds({**DEFAULT_SECONDS, **experiment.time}),
    )


MIRROR_HANDS_PER_GAME = 25
"""The game length a mirrored run counted in hands plans its blocks for: longer than the
games of the shipped variants with their bots (rummy to 100 points lasts about 3-8 hands,
gin to 100 about 5-10), so those arms get several times 400 blocks rather than fewer."""


def _compile(arm: Arm, audit: bool):
    params, values = api.compile_rules(arm.rules, arm.players, audit=audit)
    return params, values, rules_to_toml(arm.rules)


def prepare(experiment: Experiment, root: Path, tasks: list[ShardTask], fresh: bool) -> dict:
    """The manifest to continue from: the old one when it matches, else a new one.

    Refuses (RunError) to touch a folder made from another experiment or plan unless
    ``fresh``; refuses to delete a folder that is not a rummysim dataset at all.
    """
    old = mf.load(root)
    if root.exists() and not root.is_dir():
        raise RunError(f"{root} exists and is not a folder")
    if fresh and root.exists():
        if old is None and any(not _is_ours(p) for p in root.iterdir()):
            raise RunError(f"{root} is not a rummysim dataset; refusing to delete it for --fresh")
        _remove_dataset(root)
        old = None
    elif old is not None and not mf.matches(old, experiment, tasks):
        made = old.get("experiment", {}) if isinstance(old.get("experiment"), dict) else {}
        raise RunError(
            f"{root} holds a dataset made from a different experiment file, variant rules, "
            f"amount or rummysim version ({made.get('file', '?')}, {made.get('per_arm', '?')} "
            f"{made.get('unit', '?')} per arm, rummysim {old.get('rummysim_version', '?')}); "
            "use --fresh to replace it, or --out to write elsewhere"
        )
    elif old is None and root.exists() and any(not _is_ours(p) for p in root.iterdir()):
        raise RunError(f"{root} exists and is not a rummysim dataset; choose another --out")
    _check_writable(root)
    if old is not None and old.get("shards") and _same_shards(old, tasks):
        old["report_blocks"] = mf.report_blocks(tasks)  # (a manifest of an earlier version)
        return old
    return mf.new_manifest(experiment, tasks)


def write_rules(experiment: Experiment, root: Path) -> None:
    """Write the dataset's ``rules.parquet``: every arm's resolved rules against its
    baseline's (``sim.dataset.schema.rules_table``), atomically."""
    by_name = {arm.name: arm for arm in experiment.arms}
    arms = [
        (arm.name, arm.players, arm.rules, by_name[arm.baseline].rules) for arm in experiment.arms
    ]
    write_parquet_atomic(rules_table(arms), root / RULES_FILE, root)


_OURS = {"hands", "games", mf.MANIFEST, TMP_DIR, RULES_FILE}
_OURS_PREFIXES = (".manifest.json.", ".write-test-")  # temporary names of earlier versions


def _is_ours(path: Path) -> bool:
    return path.name in _OURS or path.name.startswith(_OURS_PREFIXES)


def _same_shards(old: dict, tasks: list[ShardTask]) -> bool:
    return {f"{s['arm']}/{s['shard']}" for s in old["shards"]} == {t.key for t in tasks}


def _remove_dataset(root: Path) -> None:
    for name in ("hands", "games", TMP_DIR):
        shutil.rmtree(root / name, ignore_errors=True)
    (root / mf.MANIFEST).unlink(missing_ok=True)
    (root / RULES_FILE).unlink(missing_ok=True)


def _check_writable(root: Path) -> None:
    try:
        root.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(root / TMP_DIR, ignore_errors=True)  # leftovers of an interrupted run
        (root / TMP_DIR).mkdir()
        probe = root / TMP_DIR / f"write-test-{os.getpid()}"
        probe.write_bytes(b"x")
        probe.unlink()
    except OSError as err:
        raise RunError(f"cannot write to the output folder {root}: {_reason(err)}") from None


def run_experiment(
    experiment: Experiment,
    out: Path,
    *,
    workers: int,
    scheduler: str | None = None,
    fresh: bool = False,
    reporter: Reporter | None = None,
) -> RunSummary:
    """Run every shard of ``experiment`` not yet in ``out/<name>``; return what was done.

    Raises RunError for a refused folder or a failed run (completed shards stay recorded);
    KeyboardInterrupt propagates after the workers are stopped and the manifest saved.
    """
    began = time.perf_counter()
    reporter = reporter or Reporter()
    root = Path(out).resolve() / experiment.name  # absolute: Dask workers run elsewhere
    tasks = plan(experiment, root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise RunError(f"cannot write to the output folder {root}: {_reason(err)}") from None
    with _exclusive(root):
        try:
            return _run(experiment, root, tasks, workers, scheduler, fresh, reporter, began)
        except OSError as err:
            raise RunError(_os_text(err, root)) from None


@contextmanager
def _exclusive(root: Path) -> Iterator[None]:
    """Hold an exclusive lock on the dataset folder: two runs never write one dataset."""
    fd = os.open(root, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunError(f"another rummysim run is writing to {root}; wait for it") from None
        yield
    finally:
        os.close(fd)


def _run(experiment, root, tasks, workers, scheduler, fresh, reporter, began) -> RunSummary:
    manifest = prepare(experiment, root, tasks, fresh)
    # the wall-clock seconds of the runs that made the dataset, plan to last shard (the
    # report's benchmark sets its own time against them)
    earlier = manifest.get("seconds")
    earlier = earlier if isinstance(earlier, int | float) else 0.0

    def clock() -> None:
        manifest["seconds"] = round(earlier + time.perf_counter() - began, 3)

    tasks = [dataclasses.replace(t, plan_id=manifest["plan_id"]) for t in tasks]
    done = mf.verified_done(manifest, tasks)
    mf.save(root, manifest)
    if not (root / RULES_FILE).is_file():  # the plan_id fixes every arm's rules: write once
        write_rules(experiment, root)
    todo = [t for t in tasks if t.key not in done]
    summary = RunSummary(root, len(tasks), len(done), len(todo))
    totals: dict[str, int] = {}
    already: dict[str, int] = {}
    for task in tasks:
        amount = task.count * task.rotations
        totals[task.arm] = totals.get(task.arm, 0) + amount
        if task.key in done:
            already[task.arm] = already.get(task.arm, 0) + amount

    left = {arm: 0 for arm in totals}
    for task in todo:
        left[task.arm] += 1

    def finished(result: ShardResult) -> None:
        mf.record(manifest, result)
        clock()
        mf.save(root, manifest)
        left[result.arm] -= 1
        if left[result.arm] == 0:
            reporter.arm_done(result.arm)
        summary.results.append(result)
        summary.hands += result.hands
        summary.games += result.games

    if todo and not scheduler:
        _warm_up(todo, reporter)
    start = time.perf_counter()
    reporter.start(experiment, totals, already)
    try:
        if todo:
            _backend(scheduler)(todo, workers, scheduler, reporter, finished)
        manifest["complete"] = all(s["status"] == mf.DONE for s in manifest["shards"])
        if todo:
            clock()
        mf.save(root, manifest)
        shutil.rmtree(root / TMP_DIR, ignore_errors=True)
    finally:
        reporter.stop()
        summary.seconds = time.perf_counter() - start
    return summary


def _reason(err: OSError) -> str:
    return "no space left on the device" if err.errno == errno.ENOSPC else str(err.strerror)


def _backend(scheduler: str | None) -> Callable:
    if scheduler:
        from sim.runner.dask_backend import run_on_dask

        return run_on_dask
    return _run_local


def _run_local(todo, workers, scheduler, reporter, finished) -> None:
    from sim.runner.local import RunFault, run_local

    try:
        run_local(todo, workers, reporter.advance, finished, reporter.log)
    except RunFault as err:
        raise RunError(str(err)) from None


def _warm_up(todo: list[ShardTask], reporter: Reporter) -> None:
    """Compile (or load) the kernels once in the parent, so forked workers start warm: one
    shard of each compile-time spec the plan uses (``sim.engine.specs``), on a hand and nothing
    written. Compiling here, in one process, also keeps two workers from writing one
    kernel's cache at once."""
    from sim.engine.jit import cache_is_cold

    if cache_is_cold():
        reporter.log("compiling the engine's kernels (first run only; 1-2 minutes on 2 cores)")
    seen: set[str] = set()
    for task in todo:
        if task.spec not in seen:
            seen.add(task.spec)
            warm_shard(task)


def _os_text(err: OSError, root: Path) -> str:
    if err.errno == errno.ENOSPC:
        return f"no space left on the device while writing to {root}; completed shards are kept"
    return f"cannot write to {root}: {err.strerror or err}; completed shards are kept"
