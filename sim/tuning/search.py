"""The search of ``rummysim tune`` (issue #35): which knob value puts a noisy objective on
its target. Pure logic over estimates with intervals, so that it can be tested on synthetic
objectives; :mod:`sim.tuning.run` feeds it simulated rounds.

A search is a sequence of rounds; each round evaluates a few knob values on one seed:

1. **scan**: ``scan`` values spread evenly over the knob's range (its ends included). If
   every interval lies on one side of the target, the answer is "no value in range".
2. **narrow**, on the search seed, so every value plays the same deals (common random
   numbers: the differences between values are not drowned by the deals' noise):

   * where the scan is monotone (no step between neighbours goes against the overall
     direction by more than both intervals allow), **bisection** of the bracket: the two
     neighbouring values evaluated so far whose estimates lie on either side of the target;
   * otherwise a **grid** of ``scan`` values over the best value's neighbourhood, a few
     rounds, each finer than the last.

   It stops when the best value's interval contains the target (the best value: the one
   whose estimate is nearest the target, the lower value on a tie), when the bracket (or
   the grid's spacing) is down to the knob's step, or after ``rounds`` narrowing rounds.
3. **confirm**: the chosen value and its neighbours one step either side, on a fresh seed.
   It agrees when the chosen value's interval still contains the target, or the chosen
   value and a neighbour still bracket it (their estimates lie on either side of it).

Every decision is a function of the rounds before it, so a run resumed from its recorded
rounds takes the same path (:func:`next_round`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

SEARCH_SEED = 0  # rounds on the tuning's seed (scan and narrowing: common random numbers)
CONFIRM_SEED = 1  # the re-confirmation's fresh seed


@dataclass(frozen=True)
class Knob:
    """The knob's range: values ``low, low + step, ..., high``."""

    low: int
    high: int
    step: int = 1

    def __post_init__(self) -> None:
        if self.step < 1 or self.high <= self.low or (self.high - self.low) % self.step:
            raise ValueError(f"bad knob range {self.low}..{self.high} step {self.step}")

    def snap(self, x: float) -> int:
        """The knob value nearest ``x`` (half a step rounds down), clamped to the range."""
        k = math.floor((x - self.low) / self.step + 0.5 - 1e-9)
        return min(max(self.low + k * self.step, self.low), self.high)

    def grid(self, low: int, high: int, points: int) -> tuple[int, ...]:
        """Up to ``points`` knob values spread evenly over ``low..high``, ends included."""
        if points < 2 or high <= low:
            return (low,)
        spread = (low + (high - low) * i / (points - 1) for i in range(points))
        return tuple(sorted({self.snap(x) for x in spread}))


@dataclass(frozen=True)
class Point:
    """The objective at one knob value: its estimate and 95% interval."""

    value: int
    estimate: float
    low: float
    high: float

    def contains(self, target: float) -> bool:
        return self.low <= target <= self.high

    def side(self, target: float) -> int:
        """+1 above the target, -1 below, 0 on it (or NaN)."""
        d = self.estimate - target
        return 0 if not d or math.isnan(d) else (1 if d > 0 else -1)


@dataclass(frozen=True)
class Round:
    """One round: its kind (scan, bisect, grid, confirm), its seed (``SEARCH_SEED`` or
    ``CONFIRM_SEED``), the knob values it evaluates and, once run, their points."""

    kind: str
    seed: int
    values: tuple[int, ...]
    points: tuple[Point, ...] = ()


@dataclass(frozen=True)
class Settings:
    """How the search runs: values in the scan, narrowing rounds at most."""

    scan: int = 6
    rounds: int = 8


@dataclass(frozen=True)
class Answer:
    """Where the search ended."""

    status: str  # "found", "no value in range"
    reason: str  # why the narrowing stopped, or why there is no value
    monotone: bool
    direction: int  # +1 the objective rises with the knob, -1 falls, 0 flat
    value: int | None = None
    point: Point | None = None  # the chosen value on the search seed
    neighbours: tuple[Point, ...] = ()  # the nearest values evaluated either side of it
    confirm: tuple[Point, ...] = ()  # the re-confirmation's points (fresh seed)
    agreed: bool | None = None
    rounds: tuple[Round, ...] = field(default_factory=tuple)


def next_round(
    knob: Knob, target: float, done: Sequence[Round], settings: Settings = Settings()
) -> Round | Answer:
    """The next round to run after ``done`` (the rounds run so far, in order), or the answer."""
    if not done:
        return Round("scan", SEARCH_SEED, knob.grid(knob.low, knob.high, settings.scan))
    search = [r for r in done if r.seed == SEARCH_SEED]
    confirmed = [r for r in done if r.seed == CONFIRM_SEED]
    points = _points(search)
    scan = sorted(done[0].points, key=lambda p: p.value)
    direction, monotone = _shape(scan)
    if all(p.low > target for p in scan) or all(p.high < target for p in scan):
        return Answer("no value in range", _no_value_text(scan, target), monotone, direction,
                      rounds=tuple(done))  # fmt: skip
    chosen, reason = _stop(knob, target, points, search, settings, monotone)
    if chosen is None:
        return _narrow(knob, target, points, search, settings, monotone)
    if not confirmed:
        values = tuple(v for v in (chosen - knob.step, chosen, chosen + knob.step)
                       if knob.low <= v <= knob.high)  # fmt: skip
        return Round("confirm", CONFIRM_SEED, values)
    return _answer(target, points, chosen, reason, monotone, direction, confirmed[0], done)


def _points(rounds: Sequence[Round]) -> dict[int, Point]:
    """Every value evaluated on the search seed (a value evaluated twice keeps its first)."""
    out: dict[int, Point] = {}
    for r in rounds:
        for p in r.points:
            out.setdefault(p.value, p)
    return dict(sorted(out.items()))


def _shape(scan: list[Point]) -> tuple[int, bool]:
    """The scan's direction (+1, -1, 0) and whether it is monotone: no neighbour goes against
    the direction with intervals that do not even overlap."""
    first, last = scan[0].estimate, scan[-1].estimate
    direction = 0 if first == last else (1 if last > first else -1)
    for a, b in zip(scan, scan[1:], strict=False):
        if direction >= 0 and b.high < a.low:
            return direction, False
        if direction <= 0 and b.low > a.high:
            return direction, False
    return direction, direction != 0


def best(points: dict[int, Point], target: float) -> Point:
    """The value whose estimate is nearest the target (the lower value on a tie)."""
    return min(points.values(), key=lambda p: (abs(p.estimate - target), p.value))


def _bracket(points: dict[int, Point], target: float) -> tuple[Point, Point] | None:
    """The first two neighbouring values whose estimates lie on either side of the target."""
    ordered = list(points.values())
    for a, b in zip(ordered, ordered[1:], strict=False):
        if a.side(target) * b.side(target) <= 0:
            return a, b
    return None


def _stop(knob, target, points, search, settings, monotone) -> tuple[int | None, str]:
    """The chosen value and why the narrowing stops, or (None, "") to narrow further."""
    top = best(points, target)
    if top.contains(target):
        return top.value, f"the interval of {top.value} contains the target"
    narrowing = len(search) - 1
    if monotone:
        pair = _bracket(points, target)
        if pair is None:  # every estimate on one side, the nearest interval misses it
            near = [p for p in points.values() if p.contains(target)]
            if near:
                return best({p.value: p for p in near}, target).value, "nearest interval"
            return top.value, "the nearest value of the range"
        a, b = pair
        if b.value - a.value <= knob.step:
            chosen = best({a.value: a, b.value: b}, target).value
            return chosen, f"{a.value} and {b.value} bracket the target one step apart"
    elif _spacing(search[-1]) <= knob.step:
        return top.value, "the grid is down to the knob's step"
    if narrowing >= settings.rounds:
        return top.value, f"the {settings.rounds} narrowing rounds are used up"
    return None, ""


def _spacing(r: Round) -> int:
    values = sorted(r.values)
    return min((b - a for a, b in zip(values, values[1:], strict=False)), default=0)


def _narrow(knob, target, points, search, settings, monotone) -> Round:
    if monotone:
        pair = _bracket(points, target)
        assert pair is not None  # _stop chose a value otherwise
        a, b = pair
        mid = knob.snap((a.value + b.value) / 2)
        mid = min(max(mid, a.value + knob.step), b.value - knob.step)
        return Round("bisect", SEARCH_SEED, (mid,))
    top = best(points, target)
    h = _spacing(search[-1])
    low, high = max(knob.low, top.value - h), min(knob.high, top.value + h)
    values = tuple(v for v in knob.grid(low, high, settings.scan) if v not in points)
    if not values:  # the neighbourhood is evaluated: step between its values
        step = knob.step if top.value < knob.high else -knob.step
        values = (top.value + step,)
    return Round("grid", SEARCH_SEED, values)


def _answer(target, points, chosen, reason, monotone, direction, confirm, done) -> Answer:
    at = points[chosen]
    below = [p for p in points.values() if p.value < chosen]
    above = [p for p in points.values() if p.value > chosen]
    neighbours = tuple(x for x in (below[-1:] + above[:1]))
    fresh = {p.value: p for p in confirm.points}
    mine = fresh.get(chosen)
    agreed = mine is not None and (
        mine.contains(target)
        or any(mine.side(target) * p.side(target) <= 0 for v, p in fresh.items() if v != chosen)
    )
    return Answer("found", reason, monotone, direction, chosen, at, neighbours,
                  confirm.points, agreed, tuple(done))  # fmt: skip


def _no_value_text(scan: list[Point], target: float) -> str:
    side = "above" if scan[0].low > target else "below"
    lo = min(p.estimate for p in scan)
    hi = max(p.estimate for p in scan)
    return (
        f"every value from {scan[0].value} to {scan[-1].value} gives an objective {side} the "
        f"target {target:g} (estimates {lo:.4g} to {hi:.4g}, every 95% interval {side} it)"
    )
