"""manifest.json: what a dataset was made from and which shards it holds.

The runner alone writes it (atomically, after every finished shard), so after a crash it
still lists every shard whose files are complete. A shard counts as done only if the
manifest says so *and* both of its files are on disk with the recorded SHA-256.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from sim import __version__
from sim.dataset.files import TMP_DIR, file_digest, write_text_atomic
from sim.dataset.schema import SCHEMA_VERSION
from sim.engine.jit import SOURCE_DIGEST as ENGINE_DIGEST
from sim.rules.loader import rules_to_toml
from sim.runner.experiment import Experiment
from sim.runner.shards import ShardResult, ShardTask

MANIFEST = "manifest.json"
DONE, PENDING = "done", "pending"


def plan_id(experiment: Experiment, tasks: list[ShardTask]) -> str:
    """A digest of everything a shard's rows depend on: the experiment file, the amount, the
    shard size, every arm's resolved rules and kernel arrays (so an edited variant file
    counts), the bots, the rummysim and schema versions and the engine's source digest.
    Resuming needs the same plan_id."""
    digest = hashlib.sha256()
    head = [experiment.sha256, experiment.unit, experiment.per_arm, experiment.shard_size]
    digest.update(json.dumps([*head, __version__, SCHEMA_VERSION, ENGINE_DIGEST]).encode())
    seen = set()
    for task in tasks:
        if task.arm in seen:
            continue
        seen.add(task.arm)
        digest.update(json.dumps([task.arm, task.rules_toml, task.bots, task.rotations]).encode())
        digest.update(task.params.tobytes())
        digest.update(task.card_values.tobytes())
    return digest.hexdigest()


def new_manifest(experiment: Experiment, tasks: list[ShardTask]) -> dict[str, Any]:
    """A manifest with every planned shard pending."""
    return {
        "plan_id": plan_id(experiment, tasks),
        "rummysim_version": __version__,
        "schema_version": SCHEMA_VERSION,
        "complete": False,
        "experiment": {
            "name": experiment.name,
            "description": experiment.description,
            "file": experiment.file,
            "text": experiment.text,
            "sha256": experiment.sha256,
            "seed": experiment.seed,
            "unit": experiment.unit,
            "per_arm": experiment.per_arm,
            "shard_size": experiment.shard_size,
            "mirror": experiment.mirror,
            "audit": experiment.audit,
            "baseline": experiment.baseline,
            "bands": dict(experiment.bands),
            "time": dict(experiment.time),
        },
        "arms": [
            {
                "name": arm.name,
                "ruleset": arm.ruleset.name,
                "variant": arm.ruleset.variant,
                "label": arm.ruleset.label,
                "players": arm.players,
                "bots": list(arm.bots),
                "lineup": arm.lineup,
                "changes": dict(arm.ruleset.changes),
                "rules_toml": rules_to_toml(arm.rules),
                "baseline": arm.baseline,
                "seed": arm.seed,
            }
            for arm in experiment.arms
        ],
        "shards": [
            {"arm": t.arm, "shard": t.shard, "status": PENDING, "planned": t.count * t.rotations}
            for t in tasks
        ],
        "report_blocks": report_blocks(tasks),
    }


def report_blocks(tasks: list[ShardTask]) -> dict[str, Any] | None:
    """The report's blocking the plan fixed (``sim.runner.run.report_blocking``), for the
    report: the block size, the deal stride and whether hands are blocked by game number."""
    blocking = tasks[0].hand_blocks if tasks else None
    if blocking is None:
        return None
    return {"block": blocking.block, "stride": blocking.stride, "by_game": blocking.by_game}


def matches(manifest: dict[str, Any], experiment: Experiment, tasks: list[ShardTask]) -> bool:
    """Whether ``manifest`` was made from this experiment, rules and version (same plan)."""
    return manifest.get("plan_id") == plan_id(experiment, tasks)


def load(root: Path) -> dict[str, Any] | None:
    """The manifest in ``root``, or None when there is none or it is not one of ours."""
    path = root / MANIFEST
    if not path.is_file():
        return None
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(manifest, dict) and isinstance(manifest.get("shards"), list)
    return manifest if ok else None


def save(root: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest atomically (its temporary file lives in ``.tmp/``)."""
    write_text_atomic(json.dumps(manifest, indent=1) + "\n", root / MANIFEST, root / TMP_DIR)


def record(manifest: dict[str, Any], result: ShardResult) -> None:
    """Mark a shard done with its row counts and digests."""
    for entry in manifest["shards"]:
        if entry["arm"] == result.arm and entry["shard"] == result.shard:
            entry.update(
                status=DONE,
                hands=result.hands,
                games=result.games,
                hands_sha256=result.hands_sha256,
                games_sha256=result.games_sha256,
                seconds=result.seconds,
            )
            return
    raise KeyError(f"shard {result.arm}/{result.shard} is not in the manifest")


def verified_done(manifest: dict[str, Any], tasks: list[ShardTask]) -> set[str]:
    """Keys of the shards recorded as done whose files are present and intact."""
    by_key = {t.key: t for t in tasks}
    done = set()
    for entry in manifest["shards"]:
        key = f"{entry['arm']}/{entry['shard']}"
        task = by_key.get(key)
        if entry.get("status") != DONE or task is None:
            continue
        hands_path, games_path = task.paths()
        if _intact(hands_path, entry.get("hands_sha256")) and _intact(
            games_path, entry.get("games_sha256")
        ):
            done.add(key)
        else:
            entry["status"] = PENDING
    return done


def _intact(path: Path, digest: str | None) -> bool:
    return digest is not None and path.is_file() and file_digest(path) == digest
