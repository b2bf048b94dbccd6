"""The run's progress bar (rich): hands done, hands per second and time left, per arm and
overall."""

from __future__ import annotations

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from sim.runner.experiment import Experiment
from sim.runner.run import Reporter


class RateColumn(ProgressColumn):
    """Units per second, e.g. ``23,410 hands/s``."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        text = "" if speed is None else f"{speed:,.0f} {self.unit}/s"
        return Text(text, style="progress.data.speed")


class RichReporter(Reporter):
    """Shows the run in the terminal; messages are printed above the bars."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.progress: Progress | None = None
        self.bars: dict[str, TaskID] = {}
        self.overall: TaskID | None = None

    def start(self, experiment: Experiment, totals: dict[str, int], done: dict[str, int]) -> None:
        unit = experiment.unit
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            RateColumn(unit),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=self.console,
            speed_estimate_period=60,
        )
        total = sum(totals.values())
        already = sum(done.values())
        self.overall = self.progress.add_task("[bold]all arms", total=total, completed=already)
        for arm, amount in totals.items():  # an arm's bar shows while the arm is running
            self.bars[arm] = self.progress.add_task(
                f"  {arm}", total=amount, completed=done.get(arm, 0), visible=False
            )
        self.progress.start()

    def advance(self, arm: str, amount: int) -> None:
        if self.progress is None:
            return
        self.progress.advance(self.overall, amount)
        bar = self.bars.get(arm)
        if bar is not None:
            self.progress.advance(bar, amount)
            task = self.progress.tasks[bar]
            self.progress.update(bar, visible=not task.finished)

    def log(self, message: str) -> None:
        self.console.print(message, highlight=False, style="yellow")

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()

    def arm_done(self, arm: str) -> None:
        """Every shard of ``arm`` is written: drop its bar."""
        if self.progress is not None and arm in self.bars:
            self.progress.update(self.bars[arm], visible=False)
