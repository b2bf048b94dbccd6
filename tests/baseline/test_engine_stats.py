"""The engine-statistics baseline of issue 29 point 6 (``engine_stats.py``): the recorded file
covers every case, the comparison flags what it must, and a record+compare round trip of one
case against itself passes."""

from __future__ import annotations

import copy
import json

import pytest

from tests.baseline import engine_stats as E

ONE_CASE = "rummy_basic|2|greedy"


def test_baseline_covers_every_case_with_enough_hands():
    data = E.read_baseline(E.BASELINE)
    expected = {E.case_key(*case) for case in E.all_cases()}
    assert set(data["cases"]) == expected
    assert data["meta"]["hands_at_least"] >= 100_000
    for key, figures in data["cases"].items():
        variant, players, bot = key.split("|")
        assert (figures["variant"], str(figures["players"]), figures["bots"]) == (
            variant,
            players,
            bot,
        )
        assert figures["hands"] >= 100_000, key
        assert len(figures["seat_win_rate"]) == int(players), key
        assert abs(sum(figures["reason_share"].values()) - 1) < 1e-3, key
    for name in ("seed", "git_commit", "engine_digest"):
        assert data["meta"][name], name


def _figures(**changes) -> dict:
    figures = {
        "variant": "v",
        "players": 2,
        "bots": "greedy",
        "hands": 100_000,
        "games": 10_000,
        "mean_turns": 20.0,
        "mean_points": 40.0,
        "hands_per_game": 10.0,
        "reason_share": {"went_out": 0.9, "stalled": 0.1},
        "seat_win_rate": [0.45, 0.45],
        "dealer_win_rate": 0.44,
        "violations": 0,
    }
    figures.update(changes)
    return figures


# (figure changed, value within its tolerance, value beyond it)
EDGES = [
    ("mean_turns", 20.0 * 1.019, 20.0 * 1.021),  # 2%
    ("mean_turns", 20.0 * 0.981, 20.0 * 0.979),
    ("mean_points", 40.0 * 1.029, 40.0 * 1.031),  # 3%
    ("mean_points", 40.0 * 0.971, 40.0 * 0.969),
    ("hands_per_game", 10.0 * 1.049, 10.0 * 1.051),  # 5%
    ("hands_per_game", 10.0 * 0.951, 10.0 * 0.949),
    ("dealer_win_rate", 0.44 + 0.0149, 0.44 + 0.0151),  # 1.5 points
    ("dealer_win_rate", 0.44 - 0.0149, 0.44 - 0.0151),
]


@pytest.mark.nojit
@pytest.mark.parametrize(("name", "within", "beyond"), EDGES)
def test_compare_flags_each_scalar_beyond_its_tolerance(name, within, beyond):
    before = {"c": _figures()}
    tables, missing = E.compare(before, {"c": _figures(**{name: within})})
    assert not missing and E.passed(tables, missing)
    tables, missing = E.compare(before, {"c": _figures(**{name: beyond})})
    assert not E.passed(tables, missing)
    failed = [r["figure"] for r in tables["c"] if not r["ok"]]
    assert failed == [name.replace("_", " ") if name == "dealer_win_rate" else name]


@pytest.mark.nojit
def test_compare_flags_a_reason_share_and_a_seat_win_rate():
    before = {"c": _figures()}
    shares_ok = {"went_out": 0.9 - 0.0119, "stalled": 0.1 + 0.0119}
    shares_bad = {"went_out": 0.9 - 0.0121, "stalled": 0.1 + 0.0121}
    tables, missing = E.compare(before, {"c": _figures(reason_share=shares_ok)})
    assert E.passed(tables, missing)
    tables, missing = E.compare(before, {"c": _figures(reason_share=shares_bad)})
    assert [r["figure"] for r in tables["c"] if not r["ok"]] == [
        "share stalled",
        "share went_out",
    ]
    # a reason the baseline never saw counts from 0
    tables, missing = E.compare(
        before, {"c": _figures(reason_share={"went_out": 0.88, "stalled": 0.1, "block": 0.02})}
    )
    assert [r["figure"] for r in tables["c"] if not r["ok"]] == ["share block", "share went_out"]
    tables, missing = E.compare(before, {"c": _figures(seat_win_rate=[0.45, 0.4649])})
    assert E.passed(tables, missing)
    tables, missing = E.compare(before, {"c": _figures(seat_win_rate=[0.45, 0.4651])})
    assert [r["figure"] for r in tables["c"] if not r["ok"]] == ["seat 1 win rate"]


@pytest.mark.nojit
def test_compare_counts_missing_cases_as_fail():
    tables, missing = E.compare({"a": _figures(), "b": _figures()}, {"a": _figures()})
    assert missing == ["b"] and not E.passed(tables, missing)
    tables, missing = E.compare({"a": _figures()}, {"a": _figures(), "c": _figures()})
    assert missing == ["c"] and not E.passed(tables, missing)
    text = E.markdown(tables, missing, {"a": _figures()}, {"a": _figures(), "c": _figures()})
    assert "Missing cases (FAIL)" in text and "- c: missing before" in text


@pytest.mark.nojit
def test_tolerances_are_those_of_issue_29():
    assert E.TOLERANCES == {
        "mean_turns": ("rel", 0.02),
        "mean_points": ("rel", 0.03),
        "hands_per_game": ("rel", 0.05),
        "reason_share": ("pp", 1.2),
        "seat_win_rate": ("pp", 1.5),
        "dealer_win_rate": ("pp", 1.5),
    }


def test_record_then_compare_one_case_against_itself(tmp_path, capsys):
    out = tmp_path / "stats.json"
    common = ["--hands", "2000", "--only", ONE_CASE, "--workers", "1"]
    assert E.main(["record", "--out", str(out), *common]) == 0
    data = json.loads(out.read_text())
    assert list(data["cases"]) == [ONE_CASE]
    assert data["cases"][ONE_CASE]["hands"] >= 2000
    capsys.readouterr()
    assert E.main(["compare", "--baseline", str(out), *common]) == 0
    text = capsys.readouterr().out
    assert f"### {ONE_CASE}: OK" in text and "FAIL" not in text.replace("0 FAIL", "")
    # the same seed plays the same games: identical figures, not just close ones
    again = E.play_cases([("rummy_basic", 2, "greedy")], 2000, data["meta"]["seed"], workers=1)
    assert again == data["cases"]
    # a baseline whose turns are 3% off fails
    bad = copy.deepcopy(data)
    bad["cases"][ONE_CASE]["mean_turns"] *= 1.03
    out.write_text(json.dumps(bad))
    assert E.main(["compare", "--baseline", str(out), *common]) == 1
    assert "| mean_turns |" in capsys.readouterr().out
