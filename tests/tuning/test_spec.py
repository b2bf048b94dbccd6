"""Tuning files (issue #35 points 1 and 5): the shipped ones load; a bad file exits 2 with one
line naming the file and the key, and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.rules import ConfigError
from sim.tuning.spec import list_specs, load_spec, tune_dir

runner = CliRunner()
pytestmark = pytest.mark.nojit

GOOD = """\
name = "t"
seed = 5
variant = "rummy_basic"
players = 2
lineup = "greedy"
hands = 2000

[knob]
setting = "game_end"
form = "target"
low = 50
high = 150
step = 10

[objective]
metric = "minutes_per_game"
target = 20
"""


def _spec(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path


def test_the_shipped_tuning_files_load():
    names = [name for name, _ in list_specs()]
    assert {"rummy-30-minutes", "rummy-dealer-edge", "gin-undercut-equals-gin"} <= set(names)
    for name in names:
        spec = load_spec(name)
        assert spec.description and spec.file.startswith(str(tune_dir()))


def test_a_good_file_resolves_its_knob_and_objective(tmp_path):
    spec = load_spec(_spec(tmp_path, GOOD))
    assert (spec.setting, spec.form, spec.knob.low, spec.knob.high, spec.knob.step) == (
        "game_end", "target", 50, 150, 10,
    )  # fmt: skip
    assert spec.value_of(70) == "target:70" and spec.knob_text(70) == "game_end = 'target:70'"
    assert (spec.objective.level, spec.objective.scale, spec.objective.target) == (
        "game", 1.0, 20.0,
    )  # fmt: skip
    assert spec.confirm_seed != spec.seed and spec.unit == "hands"


def test_a_share_objective_is_in_percent_and_may_subtract_another(tmp_path):
    text = GOOD.replace('metric = "minutes_per_game"', 'metric = "share_went_rummy"\n'
                        'minus = "share_went_out"')  # fmt: skip
    spec = load_spec(_spec(tmp_path, text))
    assert spec.objective.scale == 100.0 and spec.objective.level == "hand"
    assert spec.objective.text == "share_went_rummy - share_went_out"


BAD = [
    ("knob.setting", GOOD.replace('setting = "game_end"', 'setting = "ace_rank"'),
     "not a setting with integer values"),
    ("knob.form", GOOD.replace('form = "target"', 'form = "single_hand"'),
     "not a form of game_end that takes a number"),
    ("knob.step", GOOD.replace("step = 10", "step = 7"), "not a whole number of steps"),
    ("knob.high", GOOD.replace("high = 150", "high = 40"), "not allowed"),
    ("knob.low", GOOD.replace("low = 50", "low = 0"), "target:0"),
    ("objective.metric", GOOD.replace('"minutes_per_game"', '"minutes"'),
     "not a statistic of the report"),
    ("objective.minus", GOOD.replace("target = 20", 'target = 20\nminus = "share_gin"'),
     "not of the same level"),
    ("objective.target", GOOD.replace("target = 20", 'target = "thirty"'), "not a number"),
    ("objectiv", GOOD.replace("[objective]", "[objectiv]"), "unknown key"),
    ("objective", GOOD.replace("[objective]", "[search]"), "is missing"),
    ("lineup", GOOD.replace('lineup = "greedy"', 'lineup = "clever"'), "unknown bot"),
    ("lineup", GOOD.replace('lineup = "greedy"', 'lineup = "simple"'),
     "plays only the knock families"),
    ("lineup", GOOD.replace('lineup = "greedy"', 'lineup = ["greedy", "careful", "random"]'),
     "does not fit 2 players"),
    ("players", GOOD.replace("players = 2", "players = 13"), "not allowed"),
    ("variant", GOOD.replace('"rummy_basic"', '"rummy_basik"'), "rummy_basik"),
    ("rules.ace_rank", GOOD.replace("hands = 2000", 'hands = 2000\nrules = { ace_rank = "up" }'),
     "'up' is not allowed"),
    ("rules.game_end", GOOD.replace("hands = 2000",
                                    'hands = 2000\nrules = { game_end = "single_hand" }'),
     "is the knob"),
    ("search.scan", GOOD + "\n[search]\nscan = 2\n", "not allowed"),
    ("search.round", GOOD + "\n[search]\nround = 2\n", "unknown key"),
    ("games", GOOD.replace("hands = 2000", "hands = 2000\ngames = 10"), "not both"),
    ("knob.low", GOOD.replace('setting = "game_end"', 'setting = "knock_limit"')
     .replace('form = "target"\n', "").replace("low = 50", "low = 0")
     .replace("high = 150", "high = 10").replace("step = 10", "step = 1"),
     "applies only to the knock_rummy, gin and carousel families"),
]  # fmt: skip


@pytest.mark.parametrize(("key", "text", "problem"), BAD, ids=[b[0] + str(i) for i, b in
                                                               enumerate(BAD)])  # fmt: skip
def test_a_bad_file_exits_2_naming_the_key_and_writes_nothing(tmp_path, key, text, problem):
    path = _spec(tmp_path, text)
    out = tmp_path / "out"
    result = runner.invoke(app, ["tune", str(path), "--out", str(out)])
    assert result.exit_code == 2, result.output
    line = result.output.strip()
    assert "\n" not in line and line.startswith("error: "), result.output
    assert str(path) in line and f"key '{key}'" in line and problem in line, line
    assert not out.exists()


def test_an_unknown_shipped_name_lists_the_shipped_ones():
    with pytest.raises(ConfigError) as err:
        load_spec("no-such-tuning")
    assert "rummy-30-minutes" in str(err.value)
