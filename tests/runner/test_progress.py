"""The progress display and the closing summary a user sees."""

from __future__ import annotations

from rich.console import Console

from sim.runner.experiment import load_experiment
from sim.runner.progress import RichReporter
from sim.runner.run import run_experiment
from tests.runner.helpers import SMALL, cli, write_experiment


def test_the_bar_counts_every_hand_of_every_arm(tmp_path):
    console = Console(record=True, width=140, force_terminal=True)
    reporter = RichReporter(console)
    exp = load_experiment(write_experiment(tmp_path, SMALL))
    run_experiment(exp, tmp_path / "out", workers=2, reporter=reporter)
    overall = reporter.progress.tasks[reporter.overall]
    assert overall.completed == overall.total == 6000
    for arm in ("basic-2p-greedy", "ace_high-2p-greedy"):
        task = reporter.progress.tasks[reporter.bars[arm]]
        assert task.completed == task.total == 3000 and not task.visible
    text = console.export_text()
    assert "all arms" in text and "6000/6000" in text and "hands/s" in text


def test_the_summary_says_what_was_written_and_where(tmp_path):
    path = write_experiment(tmp_path, SMALL)
    done = cli("run", str(path), "--out", str(tmp_path / "data"), "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "2 arms x 3,000 hands, seed 7, 2 workers" in done.stdout
    assert "wrote 6 shards (6,000 hands" in done.stdout
    assert f"dataset: {tmp_path / 'data' / 'small'}" in done.stdout.replace("\n", "")
