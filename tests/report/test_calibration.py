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
