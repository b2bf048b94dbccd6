"""``rummysim tune``: run the search's rounds (:mod:`sim.tuning.search`) as experiments and
keep the decision trail.

A tuning writes ``DIR/<name>/``:

* ``round-NN-<kind>.toml`` and ``round-NN-<kind>/``: each round as an ordinary experiment
  file (one arm per knob value, all on one seed) and its dataset, made by the runner, so a
  round is resumable, deterministic and runs on the local or the Dask backend like ``run``,
  and ``rummysim report`` reads it like any dataset;
* ``trail.json``: the rounds run so far, each with its knob values, the objective at each
  (estimate and 95% block bootstrap interval, from the report's code) and what came next;
  rewritten (atomically) after every round;
* ``answer.json``: the answer (:class:`sim.tuning.search.Answer`).

A run resumed in the same folder replays the recorded trail: the search must ask for the
same round the trail holds at each step (it does, being a function of the rounds before),
else the folder belongs to another search and is refused unless ``fresh``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.dataset.timing import time_model
from sim.report.dataset import open_dataset
from sim.report.metrics import aggregate
from sim.rules.loader import toml_value
from sim.runner.experiment import (
    DEFAULT_SHARD_GAMES,
    DEFAULT_SHARD_HANDS,
    Experiment,
    load_experiment,
)
from sim.runner.run import Reporter, RunError, run_experiment
from sim.tuning.objective import arm_interval, statistics
from sim.tuning.search import CONFIRM_SEED, Answer, Point, Round, next_round
from sim.tuning.spec import TuneSpec

TRAIL = "trail.json"
ANSWER = "answer.json"
ROUND_PREFIX = "round-"
SHARDS_PER_VALUE = 4


class TuneError(Exception):
    """A tuning that cannot start or finish, with a message for the user."""


@dataclass
class Tuning:
    """A finished search: its spec, folder, rounds and answer."""

    spec: TuneSpec
    root: Path
    answer: Answer


def round_name(index: int, kind: str) -> str:
    """``round-01-scan``: the round's experiment name, file stem and dataset folder."""
    return f"{ROUND_PREFIX}{index:02d}-{kind}"


def arm_name(x: int) -> str:
    """The rule set of knob value ``x`` in a round's experiment."""
    return f"v{x}"


def shard_size(spec: TuneSpec) -> int:
    """The file's ``shard_size``, else a quarter of a value's hands or games (at most the
    runner's default): a round of one value then still runs on four workers. Fixed by the
    file alone, so the rows do not depend on the machine."""
    if spec.shard_size is not None:
        return spec.shard_size
    most = DEFAULT_SHARD_HANDS if spec.unit == "hands" else DEFAULT_SHARD_GAMES
    return max(1, min(most, math.ceil(spec.per_value / SHARDS_PER_VALUE)))


def round_text(spec: TuneSpec, index: int, r: Round) -> str:
    """The experiment file of round ``index``: one arm per knob value, every arm on the
    round's seed (the search's, or the re-confirmation's fresh one)."""
    seed = spec.confirm_seed if r.seed == CONFIRM_SEED else spec.seed
    bots = ", ".join(json.dumps(b) for b in spec.lineup)
    lines = [
        f"# Round {index} ({r.kind}) of the tuning {spec.name} ({spec.file}), written by "
        "rummysim tune: do not edit.",
        f'name = "{round_name(index, r.kind)}"',
        f"description = {json.dumps(f'{spec.name}: {r.kind} of {spec.setting}')}",
        f"seed = {seed}",
        f"{spec.unit} = {spec.per_value}",
        f"players = [{spec.players}]",
        f"lineups = [[{bots}]]",
        f'baseline = "{arm_name(r.values[0])}"',
    ]
    lines.append(f"shard_size = {shard_size(spec)}")
    if spec.time:
        lines.append("")
        lines.append("[time]")
        lines += [f"{action} = {seconds!r}" for action, seconds in spec.time.items()]
    for x in r.values:
        changes = {**spec.rules, spec.setting: spec.value_of(x)}
        inline = ", ".join(f"{k} = {toml_value(v)}" for k, v in changes.items())
        lines += [
            "",
            "[[arms]]",
            f'name = "{arm_name(x)}"',
            f"variant = {json.dumps(spec.variant)}",
            f"label = {json.dumps(spec.knob_text(x))}",
            f"rules = {{ {inline} }}",
        ]
    return "\n".join(lines) + "\n"


def run_tuning(
    spec: TuneSpec,
    out: Path,
    *,
    workers: int,
    scheduler: str | None = None,
    fresh: bool = False,
    reporter_for: Callable[[Experiment], Reporter] | None = None,
    on_round: Callable[[int, Round], None] | None = None,
) -> Tuning:
    """Run (or resume) the search of ``spec`` into ``out/<name>``; return its answer.

    Raises TuneError for a refused folder, RunError for a failed round (its completed
    shards stay; the same command resumes), KeyboardInterrupt after the workers stopped.
    """
    root = Path(out).resolve() / spec.name
    if fresh:
        _remove(root)
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise TuneError(f"cannot write to the output folder {root}: {err.strerror}") from None
    recorded = _load_trail(root, spec)
    done: list[Round] = []
    while True:
        step = next_round(spec.knob, spec.objective.target, done, spec.settings)
        if isinstance(step, Answer):
            break
        index = len(done) + 1
        if index <= len(recorded):
            _check_recorded(recorded[index - 1], step, root)
        experiment = _round_experiment(spec, index, step, root)
        reporter = reporter_for(experiment) if reporter_for else None
        run_experiment(experiment, root, workers=workers, scheduler=scheduler, reporter=reporter)
        step = dataclasses.replace(step, points=evaluate(spec, root / experiment.name, step))
        done.append(step)
        _save_trail(root, spec, done)
        if on_round is not None:
            on_round(index, step)
    _write_json(root / ANSWER, answer_json(spec, step))
    return Tuning(spec, root, step)


def _round_experiment(spec: TuneSpec, index: int, r: Round, root: Path) -> Experiment:
    path = root / f"{round_name(index, r.kind)}.toml"
    text = round_text(spec, index, r)
    if not path.is_file() or path.read_text() != text:
        _write_text(path, text)
    return load_experiment(path)


def evaluate(spec: TuneSpec, dataset: Path, r: Round) -> tuple[Point, ...]:
    """The objective at each knob value of a round's dataset: estimate and 95% interval."""
    ds = open_dataset(dataset)
    if ds.incomplete:
        raise RunError(ds.incomplete)
    agg = aggregate(ds)
    points = []
    for x in r.values:
        arm = next(a for a in ds.arms if a.ruleset == arm_name(x))
        stats = statistics(arm.players, agg.reasons, arm.teams, time_model(ds.manifest))
        fn = _objective_fn(spec, stats)
        iv = arm_interval(agg, arm.name, spec.objective.level, fn, resamples=spec.resamples)
        scale = spec.objective.scale
        points.append(Point(x, iv.estimate * scale, iv.low * scale, iv.high * scale))
    return tuple(points)


def _objective_fn(spec: TuneSpec, stats: dict) -> Callable:
    """The objective as a function of block sums: the metric (minus the other), where an
    end reason the round never produced is a share of 0."""

    def of(name: str) -> Callable:
        if name in stats:
            return stats[name][2]
        return lambda s: np.zeros_like(s["n"], dtype=float)  # share_<reason> never seen

    first = of(spec.objective.metric)
    if spec.objective.minus is None:
        return first
    second = of(spec.objective.minus)
    return lambda s: first(s) - second(s)


# ---- the trail ---------------------------------------------------------------------------
def _point_json(p: Point) -> dict:
    return {"value": p.value, "estimate": p.estimate, "low": p.low, "high": p.high}


def _round_json(index: int, r: Round) -> dict:
    return {
        "round": index,
        "dataset": round_name(index, r.kind),
        "kind": r.kind,
        "seed": "confirm" if r.seed == CONFIRM_SEED else "search",
        "values": list(r.values),
        "points": [_point_json(p) for p in r.points],
    }


def _save_trail(root: Path, spec: TuneSpec, done: list[Round]) -> None:
    rounds = [_round_json(i + 1, r) for i, r in enumerate(done)]
    after = next_round(spec.knob, spec.objective.target, done, spec.settings)
    for i, entry in enumerate(rounds):
        nxt = done[i + 1] if i + 1 < len(done) else after
        entry["then"] = nxt.kind if isinstance(nxt, Round) else f"answer: {nxt.status}"
    _write_json(root / TRAIL, {"spec": spec.name, "spec_sha256": spec.sha256, "rounds": rounds})


def _load_trail(root: Path, spec: TuneSpec) -> list[dict]:
    path = root / TRAIL
    if not path.is_file():
        if any(not _is_ours(p) for p in root.iterdir()):
            raise TuneError(f"{root} exists and is not a tuning folder; choose another --out")
        return []
    try:
        trail = json.loads(path.read_text())
        sha, rounds = trail["spec_sha256"], trail["rounds"]
    except (OSError, ValueError, KeyError, TypeError):
        raise TuneError(f"{path} is damaged; use --fresh to start the tuning again") from None
    if sha != spec.sha256:
        raise TuneError(
            f"{root} holds a tuning made from a different version of {spec.file}; use --fresh "
            "to replace it, or --out to write elsewhere"
        )
    return rounds


def _check_recorded(entry: dict, step: Round, root: Path) -> None:
    """A resumed search must ask for the round its trail recorded at this step."""
    seed = "confirm" if step.seed == CONFIRM_SEED else "search"
    if (entry.get("kind"), entry.get("seed"), entry.get("values")) != (
        step.kind, seed, list(step.values),
    ):  # fmt: skip
        raise TuneError(
            f"{root / TRAIL} recorded round {entry.get('round')} as {entry.get('kind')} of "
            f"{entry.get('values')}, but the search now asks for {step.kind} of "
            f"{list(step.values)} (another rummysim version?); use --fresh to start again"
        )


def _is_ours(path: Path) -> bool:
    return path.name in (TRAIL, ANSWER) or path.name.startswith((ROUND_PREFIX, ".tmp-"))


def _remove(root: Path) -> None:
    if not root.exists():
        return
    if not root.is_dir() or any(not _is_ours(p) for p in root.iterdir()):
        raise TuneError(f"{root} is not a tuning folder; refusing to delete it for --fresh")
    shutil.rmtree(root)


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary name, so no reader sees half a file."""
    tmp = path.with_name(f".tmp-{path.name}.{os.getpid()}")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    except OSError as err:
        tmp.unlink(missing_ok=True)
        raise TuneError(f"cannot write {path}: {err.strerror}") from None


def _write_json(path: Path, data: dict) -> None:
    _write_text(path, json.dumps(data, indent=1) + "\n")


def answer_json(spec: TuneSpec, a: Answer) -> dict:
    """The answer as written to ``answer.json``."""
    return {
        "spec": spec.name,
        "setting": spec.setting,
        "form": spec.form,
        "objective": spec.objective.text,
        "target": spec.objective.target,
        "status": a.status,
        "reason": a.reason,
        "monotone": a.monotone,
        "direction": a.direction,
        "value": a.value,
        "setting_value": None if a.value is None else spec.value_of(a.value),
        "point": None if a.point is None else _point_json(a.point),
        "neighbours": [_point_json(p) for p in a.neighbours],
        "confirm": [_point_json(p) for p in a.confirm],
        "agreed": a.agreed,
        "rounds": len(a.rounds),
        "sentence": sentence(spec, a),
    }


def sentence(spec: TuneSpec, a: Answer) -> str:
    """The answer in one sentence."""
    o = spec.objective
    if a.status != "found" or a.point is None:
        return f"No value of {spec.setting} in range puts {o.text} on {o.target:g}: {a.reason}."
    p = a.point
    agreed = (
        "the re-confirmation on fresh deals agreed"
        if a.agreed
        else "the re-confirmation on fresh deals did NOT agree"
    )
    return (
        f"{spec.knob_text(a.value)} puts {o.text} at {p.estimate:.3g} "
        f"(95% interval {p.low:.3g} to {p.high:.3g}) against the target {o.target:g}; {agreed}."
    )
