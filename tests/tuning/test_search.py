"""The search of ``rummysim tune`` on synthetic objectives with known answers (issue #35
point 5): a root found within one step, a non-monotone objective reported as such, "no value
in range", the re-confirmation's verdict, and a resumed search taking the same path."""

from __future__ import annotations

import math

import pytest

from sim.tuning.search import (
    CONFIRM_SEED,
    SEARCH_SEED,
    Answer,
    Knob,
    Point,
    Round,
    Settings,
    next_round,
)

pytestmark = pytest.mark.nojit


def search(f, knob, target, *, half=0.2, confirm_shift=0.0, settings=None):
    """Run the search on ``f`` (estimates f(x), intervals +-half; the re-confirmation's
    estimates shifted by ``confirm_shift``); return the answer."""
    done: list[Round] = []
    while True:
        step = next_round(knob, target, done, settings or Settings())
        if isinstance(step, Answer):
            return step
        shift = confirm_shift if step.seed == CONFIRM_SEED else 0.0
        points = tuple(Point(x, f(x) + shift, f(x) + shift - half, f(x) + shift + half)
                       for x in step.values)  # fmt: skip
        done.append(Round(step.kind, step.seed, step.values, points))
        assert len(done) < 60, "the search does not end"


@pytest.mark.parametrize("root", [3.0, 57.4, 123.0, 199.2])
def test_a_monotone_objective_is_solved_within_one_step(root):
    knob = Knob(0, 200, 1)
    answer = search(lambda x: 0.5 * (x - root) + 30, knob, 30.0, half=0.1)
    assert answer.status == "found" and answer.monotone and answer.direction == 1
    assert abs(answer.value - root) <= 1
    assert answer.agreed is True
    assert answer.confirm and {p.value for p in answer.confirm} >= {answer.value}


def test_a_falling_objective_on_a_coarse_step_is_solved_within_one_step():
    knob = Knob(50, 500, 10)  # a target score in tens
    answer = search(lambda x: 100.0 - 0.2 * x, knob, 40.0, half=0.3)  # root 300
    assert answer.status == "found" and answer.direction == -1
    assert abs(answer.value - 300) <= 10
    kinds = [r.kind for r in answer.rounds]
    assert kinds[0] == "scan" and kinds[-1] == "confirm" and "bisect" in kinds


def test_the_search_stops_when_the_best_interval_contains_the_target():
    knob = Knob(0, 100, 1)
    answer = search(lambda x: x / 10, knob, 4.0, half=2.5)  # wide intervals: the scan suffices
    assert answer.status == "found"
    assert [r.kind for r in answer.rounds] == ["scan", "confirm"]
    assert answer.point.contains(4.0) and "contains the target" in answer.reason


def test_a_non_monotone_objective_is_reported_as_such():
    knob = Knob(0, 100, 1)
    answer = search(lambda x: (x - 50) ** 2 / 100, knob, 4.0, half=0.05)  # roots 30 and 70
    assert answer.status == "found" and not answer.monotone
    assert min(abs(answer.value - 30), abs(answer.value - 70)) <= 1
    assert "grid" in [r.kind for r in answer.rounds]


def test_no_value_in_range_when_every_interval_is_on_one_side():
    knob = Knob(0, 10, 1)
    answer = search(lambda x: 5 + x, knob, 0.0)
    assert answer.status == "no value in range" and answer.value is None
    assert [r.kind for r in answer.rounds] == ["scan"]
    assert "above the target" in answer.reason


def test_the_reconfirmation_disagrees_when_fresh_deals_move_the_objective():
    knob = Knob(0, 200, 1)
    answer = search(lambda x: 0.5 * x, knob, 30.0, half=0.1, confirm_shift=5.0)
    assert answer.status == "found" and answer.agreed is False


def test_the_reconfirmation_agrees_when_the_value_and_a_neighbour_bracket_the_target():
    knob = Knob(0, 20, 1)
    answer = search(lambda x: 2.0 * x, knob, 15.0, half=0.1)  # 7 -> 14, 8 -> 16
    assert answer.value in (7, 8) and not answer.point.contains(15.0)
    assert answer.agreed is True and "bracket" in answer.reason


def test_a_resumed_search_asks_for_the_same_rounds():
    knob = Knob(0, 300, 1)
    answer = search(lambda x: math.sqrt(x), knob, 11.0, half=0.01)
    for k in range(len(answer.rounds)):
        step = next_round(knob, 11.0, answer.rounds[:k])
        recorded = answer.rounds[k]
        assert (step.kind, step.seed, step.values) == (recorded.kind, recorded.seed,
                                                        recorded.values)  # fmt: skip
    assert next_round(knob, 11.0, answer.rounds) == answer


def test_the_narrowing_rounds_are_bounded():
    knob = Knob(0, 10_000, 1)
    answer = search(lambda x: x / 100, knob, 33.333, half=1e-6, settings=Settings(6, 3))
    assert sum(r.kind == "bisect" for r in answer.rounds) == 3
    assert "narrowing rounds are used up" in answer.reason


def test_the_scan_spreads_over_the_range_with_its_ends():
    knob = Knob(25, 500, 5)
    first = next_round(knob, 30.0, [])
    assert first.kind == "scan" and first.seed == SEARCH_SEED
    assert first.values[0] == 25 and first.values[-1] == 500 and len(first.values) == 6
    assert all((v - 25) % 5 == 0 for v in first.values)
