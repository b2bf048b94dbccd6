"""Calibration of the report's statistics on synthetic data with fixed seeds (issue #30
point 3): A/A pairs reject at the nominal 5% (raw, per metric) and Holm holds the
family-wise rate per report; 95% intervals cover a known effect 93-97% of the time. The
engine-backed check at realistic size is ``make verify``'s."""

from __future__ import annotations

import numpy as np
import pytest

from sim.report.stats import Sums, block_bootstrap, holm, wilson

PAIRS = 400
BLOCKS = 100
PER_BLOCK = 20


def _blocks(values: np.ndarray) -> Sums:
    """``values`` (blocks x hands) as block sums of ``n``, ``x``."""
    n = np.full(values.shape[0], values.shape[1], float)
    return Sums(("n", "x"), np.stack([n, values.sum(axis=1)], axis=1))


MEAN = {"mean": lambda s: s["x"] / s["n"]}


def _mean_of(column: str):
    return lambda s: s[column] / s["n"]


def _within_binomial(hits: int, trials: int, rate: float) -> bool:
    """Whether ``rate`` lies in the 95% Wilson interval of ``hits`` of ``trials``."""
    _, low, high = wilson(hits, trials)
    return low <= rate <= high


@pytest.mark.nojit
@pytest.mark.parametrize("paired", [True, False], ids=["paired", "unpaired"])
def test_aa_pairs_reject_at_the_nominal_rate(paired: bool) -> None:
    """400 A/A pairs (the same distribution, paired on shared deal noise or independent):
    the share of raw 95% intervals that exclude 0 is consistent with 5%."""
    rng = np.random.default_rng(11 if paired else 12)
    rejected = 0
    for t in range(PAIRS):
        shared = rng.normal(20, 5, (BLOCKS, PER_BLOCK)) if paired else 0.0
        a = _blocks(shared + rng.normal(0, 2, (BLOCKS, PER_BLOCK)))
        b = _blocks(shared + rng.normal(0, 2, (BLOCKS, PER_BLOCK)))
        iv = block_bootstrap(MEAN, a, b, paired=paired, resamples=500, seed=t)["mean"]
        rejected += not (iv.low <= 0 <= iv.high)
    assert _within_binomial(rejected, PAIRS, 0.05), rejected / PAIRS


@pytest.mark.nojit
def test_holm_keeps_the_family_wise_rate_of_aa_reports() -> None:
    """400 A/A reports of 8 comparisons each: the share of reports with any Holm-adjusted
    p below 0.05 is consistent with at most 5%."""
    rng = np.random.default_rng(13)
    metrics = {f"m{i}": _mean_of(f"x{i}") for i in range(8)}
    names = ("n", *(f"x{i}" for i in range(8)))
    any_rejected = 0
    for t in range(PAIRS):
        cols_a = [np.full(BLOCKS, PER_BLOCK, float)]
        cols_b = [np.full(BLOCKS, PER_BLOCK, float)]
        for _ in range(8):
            cols_a.append(rng.normal(0, 1, (BLOCKS, PER_BLOCK)).sum(axis=1))
            cols_b.append(rng.normal(0, 1, (BLOCKS, PER_BLOCK)).sum(axis=1))
        a = Sums(names, np.stack(cols_a, axis=1))
        b = Sums(names, np.stack(cols_b, axis=1))
        ivs = block_bootstrap(metrics, a, b, paired=False, resamples=300, seed=t)
        any_rejected += min(holm([iv.p for iv in ivs.values()])) < 0.05
    _, low, _ = wilson(any_rejected, PAIRS)
    assert low <= 0.05, any_rejected / PAIRS


@pytest.mark.nojit
def test_intervals_cover_a_known_effect_93_to_97_percent() -> None:
    """400 replications of a paired comparison with a built-in effect of 0.3: the 95%
    intervals cover 0.3 in 93-97% of them."""
    rng = np.random.default_rng(14)
    covered = 0
    for t in range(PAIRS):
        shared = rng.normal(20, 5, (BLOCKS, PER_BLOCK))
        a = _blocks(shared + 0.3 + rng.normal(0, 2, (BLOCKS, PER_BLOCK)))
        b = _blocks(shared + rng.normal(0, 2, (BLOCKS, PER_BLOCK)))
        iv = block_bootstrap(MEAN, a, b, paired=True, resamples=500, seed=t)["mean"]
        covered += iv.low <= 0.3 <= iv.high
    assert 0.93 <= covered / PAIRS <= 0.97, covered / PAIRS


# ---- the engine-backed check's own verdicts (tests/report/engine_calibration.py) ---------


def _comparison(metric: str, low: float, high: float, p: float, estimate: float = 0.0):
    from types import SimpleNamespace

    from sim.report.stats import Interval

    return SimpleNamespace(
        metric=SimpleNamespace(name=metric, level="hand"),
        interval=Interval(estimate, low, high, 0.01, p),
    )


def _aa_pairs(pairs: int, rejected: int) -> dict:
    """``pairs`` A/A replicates of two metrics, ``rejected`` of them excluding 0 on ``a``."""
    return {
        f"twin{i}": [
            _comparison("a", 0.1, 0.2, 0.001) if i < rejected else _comparison("a", -1, 1, 0.5),
            _comparison("b", -1, 1, 0.5),
        ]
        for i in range(pairs)
    }


@pytest.mark.nojit
def test_the_engine_check_fails_a_rejection_rate_far_from_five_percent() -> None:
    from tests.report.engine_calibration import aa_checks

    ok = {c.name: c.ok for c in aa_checks(_aa_pairs(200, 10), 200)}
    assert ok["A/A a: raw 95% interval excludes 0"] and ok["A/A per report: any Holm p < 0.05"]
    bad = {c.name: c.ok for c in aa_checks(_aa_pairs(200, 40), 200)}
    assert not bad["A/A a: raw 95% interval excludes 0"]
    assert not bad["A/A per report: any Holm p < 0.05"]  # 20% of the reports reject
    never = {c.name: c.ok for c in aa_checks(_aa_pairs(200, 0), 200)}
    assert not never["A/A b: raw 95% interval excludes 0"]  # never rejecting: too wide


@pytest.mark.nojit
def test_the_engine_check_fails_a_coverage_far_from_95_percent() -> None:
    from tests.report.engine_calibration import coverage_checks

    def pairs(missed: int) -> dict:
        miss, cover = _comparison("a", 1.5, 2.5, 0.0), _comparison("a", 0.5, 1.5, 0.0)
        return {f"corner{i}": [miss if i < missed else cover] for i in range(200)}

    assert coverage_checks(pairs(10), {"a": 1.0})[0].ok
    assert not coverage_checks(pairs(40), {"a": 1.0})[0].ok
    assert not coverage_checks(pairs(0), {"a": 1.0})[0].ok  # 100%: intervals too wide


@pytest.mark.nojit
def test_the_engine_check_wants_exactly_zero_for_the_same_hands() -> None:
    from tests.report.engine_calibration import exact_zero_checks

    assert exact_zero_checks([_comparison("a", 0.0, 0.0, 1.0)])[0].ok
    assert not exact_zero_checks([_comparison("a", 0.0, 0.0, 1.0, estimate=1e-12)])[0].ok
    assert not exact_zero_checks([_comparison("a", -0.1, 0.1, 1.0)])[0].ok
    assert not exact_zero_checks([])[0].ok


def test_the_engine_checks_experiment_pairs_each_arm_as_intended(tmp_path) -> None:
    """``base<i>`` and ``corner<i>`` deal from one seed (paired), ``twin<i>`` from its own."""
    from sim.runner.experiment import load_experiment
    from tests.report.engine_calibration import experiment_text

    path = tmp_path / "calibration.toml"
    path.write_text(experiment_text(2, 1000), encoding="utf-8")
    seeds = {a.ruleset.name: a.seed for a in load_experiment(path).arms}
    assert seeds["base1"] == seeds["corner1"] != seeds["twin1"]
    assert seeds["copy0"] == seeds["base0"] != seeds["base1"]
    assert len(seeds) == 7
