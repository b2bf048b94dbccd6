"""A small dataset for the report tests, built once per test session from the engine.

Arms (2 shards of 4,000 hands each): at 2 players ``basic`` (the baseline), ``same`` (the
very same rules under another name: every difference must come out as none), ``around``
(around the corner: a real effect on hand length) and a mixed greedy/careful line-up; at 4
players ``basic`` and ``around``. The manifest carries labels and an experiment text with
HTML in them, to check they are escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.builder import ArmSpec, build_dataset

HANDS_PER_SHARD = 4000
SHARDS = 2
EXPERIMENT_TEXT = 'name = "<script>alert(1)</script>"\n# a & b < c\n'


def small_arms() -> list[ArmSpec]:
    g2, g4 = ("greedy", "greedy"), ("greedy",) * 4
    return [
        ArmSpec("basic", "rummy_basic", 2, g2, label="standard rummy"),
        ArmSpec("same", "rummy_basic", 2, g2, label="same <rules> & name"),
        ArmSpec("around", "around_the_corner", 2, g2, label="around the corner"),
        ArmSpec("basic", "rummy_basic", 2, ("greedy", "careful"), label="standard rummy"),
        ArmSpec("basic", "rummy_basic", 4, g4, label="standard rummy"),
        ArmSpec("around", "around_the_corner", 4, g4, label="around the corner"),
    ]


@pytest.fixture(scope="session")
def small_dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A dataset folder in the runner's layout (hands/, games/, manifest.json)."""
    root = tmp_path_factory.mktemp("data") / "small"
    return build_dataset(
        root,
        small_arms(),
        hands_per_shard=HANDS_PER_SHARD,
        shards=SHARDS,
        seed=7,
        name="small",
        experiment_text=EXPERIMENT_TEXT,
    )


@pytest.fixture(scope="session")
def small_report(small_dataset: Path, tmp_path_factory: pytest.TempPathFactory):
    """The report of the small dataset, written once (500 resamples to keep tests quick)."""
    from sim.report.build import write_report

    out = tmp_path_factory.mktemp("report") / "small"
    return write_report(small_dataset, out, resamples=500, seed=3)
