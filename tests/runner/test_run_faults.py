"""Faults a long run meets: killed (SIGKILL, Ctrl-C), a worker dying, an unwritable or full
output folder, an existing dataset of another experiment. Nothing is lost or half-written,
and running the same command again completes exactly what is missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment
from tests.runner.helpers import SMALL, cli, dataset_rows, start_cli, write_experiment

LONG = SMALL.replace("hands = 3000", "hands = 36000").replace(
    "shard_size = 1000", "shard_size = 1500"
)


def _reference(tmp_path: Path, text: str) -> Path:
    exp = load_experiment(write_experiment(tmp_path, text, "reference.toml"))
    return run_experiment(exp, tmp_path / "reference", workers=2).root


def _done_shards(root: Path) -> int:
    try:
        manifest = json.loads((root / "manifest.json").read_text())
    except (OSError, ValueError):
        return 0
    return sum(s["status"] == "done" for s in manifest["shards"])


def _wait_for(condition, timeout: float = 120.0) -> None:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)


def _children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def _same_dataset(a: Path, b: Path) -> None:
    for table in ("hands", "games"):
        assert dataset_rows(a, table) == dataset_rows(b, table)
    shards_a = json.loads((a / "manifest.json").read_text())["shards"]
    shards_b = json.loads((b / "manifest.json").read_text())["shards"]
    assert [dict(s, seconds=0) for s in shards_a] == [dict(s, seconds=0) for s in shards_b]


def _no_stray_files(root: Path) -> None:
    assert not (root / ".tmp").exists()
    assert not list(root.rglob("*.tmp"))


@pytest.mark.parametrize("how", ["sigkill", "ctrl-c"])
def test_an_interrupted_run_resumes_to_the_same_dataset(tmp_path, how):
    path = write_experiment(tmp_path, LONG)
    out = tmp_path / "out"
    root = out / "small"
    run = start_cli("run", str(path), "--out", str(out), "--workers", "2")
    _wait_for(lambda: _done_shards(root) >= 3)
    if how == "sigkill":
        run.kill()
    else:
        run.send_signal(signal.SIGINT)
        for child in _children(run.pid):  # as a terminal would: every process of the job
            os.kill(child, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    before = _done_shards(root)
    assert before < 48, "the run finished before it was interrupted; make LONG longer"
    if how == "ctrl-c":
        assert run.returncode == 130 and "run the same command again" in err
    else:
        assert run.returncode == -signal.SIGKILL
    again = cli("run", str(path), "--out", str(out), "--workers", "2")
    assert again.returncode == 0, again.stderr
    assert f"{before} shards were already done" in again.stdout.replace("\n", " ")
    _same_dataset(root, _reference(tmp_path, LONG))
    _no_stray_files(root)


def test_a_killed_worker_is_reported_and_its_shard_retried(tmp_path):
    path = write_experiment(tmp_path, LONG)
    out = tmp_path / "out"
    run = start_cli("run", str(path), "--out", str(out), "--workers", "2")
    _wait_for(lambda: _done_shards(out / "small") >= 2 and len(_children(run.pid)) >= 2)
    victim = _children(run.pid)[0]
    # Killed at once, the victim may be between two shards (the parent has just recorded
    # one and not yet sent the next): that is the idle case, tested on its own below.
    # Stopped first, it is surely handed a shard it cannot finish, and then killed.
    os.kill(victim, signal.SIGSTOP)
    time.sleep(0.3)
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = run.communicate(timeout=300)
    assert run.returncode == 0, stderr
    text = (stdout + stderr).replace("\n", " ")
    assert f"pid {victim}" in text and "died" in text and "retrying" in text
    _same_dataset(out / "small", _reference(tmp_path, LONG))


def test_a_different_experiment_is_refused_unless_fresh(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli("run", str(path), "--out", str(out), "--workers", "1").returncode == 0
    write_experiment(tmp_path, SMALL.replace("seed = 7", "seed = 8"))
    refused = cli("run", str(path), "--out", str(out), "--workers", "1")
    assert refused.returncode == 1 and "different experiment" in refused.stderr
    assert "--fresh" in refused.stderr
    redone = cli("run", str(path), "--out", str(out), "--workers", "1", "--fresh")
    assert redone.returncode == 0, redone.stderr
    manifest = json.loads((out / "small" / "manifest.json").read_text())
    assert manifest["experiment"]["seed"] == 8 and manifest["complete"]


def test_more_hands_is_another_plan_and_is_refused_too(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli("run", str(path), "--out", str(out), "--workers", "1").returncode == 0
    refused = cli("run", str(path), "--out", str(out), "--hands", "4000")
    assert refused.returncode == 1 and "different experiment" in refused.stderr


def test_a_folder_that_is_not_a_dataset_is_never_deleted(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    out = tmp_path / "out"
    (out / "small").mkdir(parents=True)
    (out / "small" / "thesis.tex").write_text("precious")
    for extra in ([], ["--fresh"]):
        done = cli("run", str(path), "--out", str(out), *extra)
        assert done.returncode == 1 and "not a rummysim dataset" in done.stderr
    assert (out / "small" / "thesis.tex").read_text() == "precious"


def test_a_repeated_run_of_a_complete_dataset_does_nothing(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli("run", str(path), "--out", str(out)).returncode == 0
    before = {p: p.stat().st_mtime_ns for p in (out / "small").rglob("*.parquet")}
    again = cli("run", str(path), "--out", str(out))
    assert again.returncode == 0 and "wrote 0 shards" in again.stdout
    assert before == {p: p.stat().st_mtime_ns for p in (out / "small").rglob("*.parquet")}


def test_a_damaged_shard_file_is_played_again(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    out = tmp_path / "out"
    assert cli("run", str(path), "--out", str(out)).returncode == 0
    reference = dataset_rows(out / "small")
    victim = next((out / "small" / "hands").rglob("part-00001.parquet"))
    victim.write_bytes(victim.read_bytes()[:100])
    again = cli("run", str(path), "--out", str(out))
    assert again.returncode == 0 and "wrote 1 shards" in again.stdout
    assert dataset_rows(out / "small") == reference


def test_the_manifest_keeps_the_wall_clock_time_of_the_runs_that_made_the_dataset(tmp_path):
    """The report's benchmark sets its own time against the simulation's: the manifest keeps
    the wall-clock seconds of the run, plan included, added up over the runs that completed
    it; a run with nothing left to do adds nothing."""
    from benchmarks.report import simulate_seconds

    exp = load_experiment(write_experiment(tmp_path, SMALL))
    manifest = tmp_path / "out" / "small" / "manifest.json"
    start = time.perf_counter()
    run_experiment(exp, tmp_path / "out", workers=2)
    first = json.loads(manifest.read_text())["seconds"]
    assert 0 < first <= time.perf_counter() - start
    victim = next((tmp_path / "out" / "small" / "hands").rglob("part-00001.parquet"))
    victim.write_bytes(victim.read_bytes()[:100])
    start = time.perf_counter()
    run_experiment(exp, tmp_path / "out", workers=2)
    second = json.loads(manifest.read_text())["seconds"]
    assert first < second <= first + time.perf_counter() - start
    run_experiment(exp, tmp_path / "out", workers=2)
    done = json.loads(manifest.read_text())
    assert done["seconds"] == second and simulate_seconds(done) == second


def _mount_tmpfs(where: Path, options: str) -> None:
    where.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(where)], capture_output=True
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.decode().strip()})")


def test_an_unwritable_output_folder_is_a_clear_error(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    ro = tmp_path / "ro"
    _mount_tmpfs(ro, "size=1m,ro")
    try:
        done = cli("run", str(path), "--out", str(ro / "data"))
    finally:
        subprocess.run(["umount", str(ro)], check=False)
    assert done.returncode == 1
    assert "cannot write to the output folder" in done.stderr and str(ro) in done.stderr
    assert "Traceback" not in done.stderr


def test_a_full_disk_stops_the_run_and_keeps_the_completed_shards(tmp_path):
    path = write_experiment(tmp_path, LONG)
    disk = tmp_path / "disk"
    _mount_tmpfs(disk, "size=400k")
    try:
        done = cli("run", str(path), "--out", str(disk), "--workers", "2")
        root = disk / "small"
        assert done.returncode == 1, done.stdout
        assert "No space left on device" in done.stderr or "no space left" in done.stderr
        assert "Traceback" not in done.stderr
        manifest = json.loads((root / "manifest.json").read_text())
        kept = [s for s in manifest["shards"] if s["status"] == "done"]
        assert 0 < len(kept) < len(manifest["shards"]) and not manifest["complete"]
        files = {str(p.relative_to(root)) for p in root.rglob("*.parquet")}
        for shard in kept:
            name = f"arm={shard['arm']}/part-{shard['shard']:05d}.parquet"
            assert f"hands/{name}" in files and f"games/{name}" in files
        rows = dataset_rows(root)
        reference = dataset_rows(_reference(tmp_path, LONG))
        for name, part in rows.items():
            assert part == reference[name]  # every file there is complete and correct
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_a_second_run_into_the_same_dataset_waits_its_turn(tmp_path):
    path = write_experiment(tmp_path, LONG)
    out = tmp_path / "out"
    first = start_cli("run", str(path), "--out", str(out), "--workers", "1")
    _wait_for(lambda: _done_shards(out / "small") >= 1)
    second = cli("run", str(path), "--out", str(out), "--workers", "1")
    assert second.returncode == 1 and "another rummysim run is writing" in second.stderr
    first.kill()
    first.communicate(timeout=60)


def test_a_worker_dying_between_shards_is_replaced_without_fuss(tmp_path, monkeypatch):
    """A worker that dies right after reporting a shard (idle, waiting for the next one) is
    replaced; its finished shard counts and nothing is replayed or lost."""
    import threading

    import sim.runner.local as local
    from sim.runner.run import plan
    from sim.runner.shards import run_shard

    def dies_after_shard_1(task, progress=None):
        result = run_shard(task, progress)
        if task.shard == 1 and task.arm.startswith("basic"):

            def later():
                time.sleep(0.05)
                os.kill(os.getpid(), signal.SIGKILL)

            threading.Thread(target=later).start()
        return result

    monkeypatch.setattr(local, "run_shard", dies_after_shard_1)
    exp = load_experiment(write_experiment(tmp_path, SMALL))
    tasks = plan(exp, tmp_path / "out" / "small")
    done, messages = [], []

    def slow_record(result):  # the parent is busy while the worker dies
        done.append((result.arm, result.shard))
        time.sleep(0.3)

    local.run_local(tasks, 2, lambda arm, n: None, slow_record, messages.append)
    assert sorted(done) == sorted((t.arm, t.shard) for t in tasks)
    assert any("died while idle" in m for m in messages), messages


def test_an_edited_variant_file_is_a_different_plan(tmp_path):
    variant = tmp_path / "house.toml"
    variant.write_text('extends = "rummy_basic"\ndescription = "house"\n')
    text = SMALL.replace(
        'variant = "rummy_basic"\n\n[[arms]]', f'variant = "{variant}"\n\n[[arms]]'
    )
    path = write_experiment(tmp_path, text)
    out = tmp_path / "out"
    assert cli("run", str(path), "--out", str(out)).returncode == 0
    variant.write_text(
        'extends = "rummy_basic"\ndescription = "house"\n[rules]\nace_rank = "high"\n'
    )
    refused = cli("run", str(path), "--out", str(out))
    assert refused.returncode == 1 and "variant rules" in refused.stderr


def test_leftovers_of_a_killed_first_run_do_not_lock_the_folder(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    root = tmp_path / "out" / "small"
    (root / ".tmp").mkdir(parents=True)
    (root / ".tmp" / "manifest.json.999").write_text("{")
    (root / ".manifest.json.998.tmp").write_text("{")  # the name an earlier version used
    done = cli("run", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert not (root / ".tmp").exists()


def test_a_relative_out_folder_is_made_absolute(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    done = subprocess.run(
        [sys.executable, "-m", "sim.cli", "run", str(path), "--out", "rel"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    manifest = json.loads((tmp_path / "rel" / "small" / "manifest.json").read_text())
    assert manifest["complete"]
    assert f"dataset: {tmp_path / 'rel' / 'small'}" in done.stdout.replace("\n", "")


def test_the_plan_names_the_engine_so_a_changed_engine_never_resumes(tmp_path, monkeypatch):
    from sim.runner import manifest as mf
    from sim.runner.run import plan

    exp = load_experiment(write_experiment(tmp_path, SMALL))
    tasks = plan(exp, tmp_path / "out" / "small")
    before = mf.plan_id(exp, tasks)
    monkeypatch.setattr(mf, "ENGINE_DIGEST", "another engine")
    assert mf.plan_id(exp, tasks) != before


def _local_run(tmp_path: Path, monkeypatch, fake_run_shard) -> tuple[list, list, dict]:
    """Run SMALL's shards with ``run_local`` and ``fake_run_shard`` in the workers (they are
    forked, so the patch reaches them); return the shards done, the messages logged and the
    net progress per arm."""
    import sim.runner.local as local
    from sim.runner.run import plan

    monkeypatch.setattr(local, "run_shard", fake_run_shard)
    exp = load_experiment(write_experiment(tmp_path, SMALL))
    tasks = plan(exp, tmp_path / "out" / "small")
    done, messages, progress = [], [], {}

    def count(arm: str, n: int) -> None:
        progress[arm] = progress.get(arm, 0) + n

    local.run_local(tasks, 2, count, lambda r: done.append((r.arm, r.shard)), messages.append)
    return done, messages, progress


def test_a_worker_killed_while_playing_is_reported_and_its_shard_retried(tmp_path, monkeypatch):
    """A worker killed in the middle of a shard is reported with its pid; the shard is played
    again by a new worker, and the progress it had reported is taken back."""
    from sim.runner.shards import run_shard

    marker = tmp_path / "killed-once"

    def dies_in_shard_1_once(task, progress=None):
        if task.shard == 1 and task.arm.startswith("basic"):
            try:
                marker.touch(exist_ok=False)
            except FileExistsError:
                pass
            else:
                progress(400)
                os.kill(os.getpid(), signal.SIGKILL)
        return run_shard(task, progress)

    done, messages, progress = _local_run(tmp_path, monkeypatch, dies_in_shard_1_once)
    assert sorted(done) == sorted(set(done)) and len(done) == 6  # 2 arms x 3 shards, once each
    killed = [m for m in messages if "while playing shard" in m]
    assert len(killed) == 1 and "pid " in killed[0] and "retrying it" in killed[0], messages
    assert all(total == 3000 for total in progress.values()), progress


def test_a_shard_that_keeps_killing_its_workers_stops_the_run(tmp_path, monkeypatch):
    """A shard is started at most MAX_ATTEMPTS times; then the run stops with a
    message naming it, rather than killing workers forever."""
    import sim.runner.local as local
    from sim.runner.shards import run_shard

    def shard_1_always_dies(task, progress=None):
        if task.shard == 1 and task.arm.startswith("basic"):
            os.kill(os.getpid(), signal.SIGKILL)
        return run_shard(task, progress)

    with pytest.raises(local.RunFault, match=f"killed its worker {local.MAX_ATTEMPTS} times"):
        _local_run(tmp_path, monkeypatch, shard_1_always_dies)
