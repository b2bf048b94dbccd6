"""The statistics of the report against known answers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.report.stats import (
    Sums,
    _weight_pair,
    block_bootstrap,
    hist_summary,
    holm,
    two_sided_p,
    wilson,
)


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe(k: int, n: int, low: float, high: float) -> None:
    p, lo, hi = wilson(k, n)
    assert p == pytest.approx(k / n)
    assert lo == pytest.approx(low, abs=1e-4)
    assert hi == pytest.approx(high, abs=1e-4)


@pytest.mark.nojit
def test_wilson_of_nothing_is_nan() -> None:
    assert all(math.isnan(x) for x in wilson(0, 0))


@pytest.mark.nojit
def test_holm_matches_hand_computation() -> None:
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> 0.06 (monotone)
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    out = holm([0.01, math.nan])
    assert out[0] == pytest.approx(0.01) and math.isnan(out[1])


@pytest.mark.nojit
def test_two_sided_p() -> None:
    assert two_sided_p(1.959963984540054, 1.0) == pytest.approx(0.05)
    assert two_sided_p(0.0, 0.0) == 1.0
    assert two_sided_p(0.3, 0.0) == 0.0


@pytest.mark.nojit
def test_histogram_quantiles_match_expanded_data() -> None:
    rng = np.random.default_rng(1)
    data = rng.poisson(17, size=5001)
    values, counts = np.unique(data, return_counts=True)
    s = hist_summary(values, counts)
    for name, q in {"p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9}.items():
        assert s[name] == np.quantile(data, q, method="inverted_cdf")
    assert s["mean"] == pytest.approx(data.mean())
    assert s["n"] == len(data)


def _blocks(rng: np.random.Generator, x: np.ndarray, size: int) -> Sums:
    """Rows x -> blocks of ``size`` rows: (n, sum x)."""
    k = len(x) // size
    x = x[: k * size].reshape(k, size)
    return Sums(("n", "x"), np.stack([np.full(k, size, float), x.sum(axis=1)], axis=1))


MEAN = {"mean": lambda s: s["x"] / s["n"]}


@pytest.mark.nojit
def test_identical_arms_give_exactly_no_difference() -> None:
    rng = np.random.default_rng(2)
    a = _blocks(rng, rng.normal(20, 5, 4000), 10)
    iv = block_bootstrap(MEAN, a, a, paired=True, resamples=300)["mean"]
    assert iv.estimate == 0 and iv.low == 0 and iv.high == 0
    assert iv.p == 1.0


@pytest.mark.nojit
def test_paired_bootstrap_finds_a_built_in_effect() -> None:
    rng = np.random.default_rng(3)
    shared = rng.normal(20, 5, 4000)  # what the common deals contribute to both arms
    a = _blocks(rng, shared + 0.3 + rng.normal(0, 1, 4000), 10)
    b = _blocks(rng, shared + rng.normal(0, 1, 4000), 10)
    iv = block_bootstrap(MEAN, a, b, paired=True, resamples=1000)["mean"]
    assert iv.low < 0.3 < iv.high
    assert iv.low > 0 and iv.p < 1e-6
    # unpaired, the shared noise does not cancel: a much wider interval
    wide = block_bootstrap(MEAN, a, b, paired=False, resamples=1000)["mean"]
    assert (wide.high - wide.low) > 3 * (iv.high - iv.low)


@pytest.mark.nojit
def test_paired_intervals_cover_zero_about_95_percent_without_effect() -> None:
    rng = np.random.default_rng(4)
    covered = 0
    trials = 200
    for t in range(trials):
        shared = rng.normal(20, 5, 600)
        a = _blocks(rng, shared + rng.normal(0, 1, 600), 6)
        b = _blocks(rng, shared + rng.normal(0, 1, 600), 6)
        iv = block_bootstrap(MEAN, a, b, paired=True, resamples=200, seed=t)["mean"]
        covered += iv.low <= 0 <= iv.high
    assert 0.89 <= covered / trials <= 0.99


@pytest.mark.nojit
def test_paired_blocks_must_line_up() -> None:
    rng = np.random.default_rng(5)
    a = _blocks(rng, rng.normal(size=100), 10)
    b = _blocks(rng, rng.normal(size=50), 10)
    with pytest.raises(ValueError):
        block_bootstrap(MEAN, a, b, paired=True)


def _reference_draws(av, bv, paired, resamples, seed):
    """Bootstrap sums drawn from one generator (every draw of one arm, then of the other),
    without any cache."""
    from sim.report.stats import _weights

    rng = np.random.default_rng(seed)
    wa = _weights(rng, av.shape[0], resamples)
    wb = None if bv is None else (wa if paired else _weights(rng, bv.shape[0], resamples))
    return [(wa @ av, None if bv is None else wb @ bv)]


@pytest.mark.nojit
@pytest.mark.parametrize("paired", [True, False, None])
def test_cached_weights_draw_what_one_generator_draws(paired) -> None:
    rng = np.random.default_rng(6)
    a = _blocks(rng, rng.normal(20, 5, 3000), 10)
    b = _blocks(rng, rng.normal(20, 5, 3000 if paired else 2000), 10)
    other = None if paired is None else b
    _weight_pair.cache_clear()
    first = block_bootstrap(MEAN, a, other, paired=bool(paired), resamples=250, seed=9)
    again = block_bootstrap(MEAN, a, other, paired=bool(paired), resamples=250, seed=9)
    assert _weight_pair.cache_info().hits == 1  # the second run drew nothing new
    _weight_pair.cache_clear()
    fresh = block_bootstrap(MEAN, a, other, paired=bool(paired), resamples=250, seed=9)
    assert first == again == fresh
    # and the weights are those of one generator
    expected = _reference_draws(
        a.values.astype(float),
        None if other is None else other.values.astype(float),
        bool(paired),
        250,
        9,
    )
    kb = None if other is None or paired else other.values.shape[0]
    wa, wb = _weight_pair(9, 250, a.values.shape[0], kb)
    assert not wa.flags.writeable
    assert np.array_equal(wa @ a.values.astype(float), np.concatenate([sa for sa, _ in expected]))
    if other is not None:
        wb = wa if paired else wb
        want = np.concatenate([sb for _, sb in expected])
        assert np.array_equal(wb @ other.values.astype(float), want)


def test_hist_quantile_is_the_smallest_value_reaching_the_share_and_nan_when_empty():
    values = np.array([1, 2, 4, 9])
    assert hist_summary(values, np.array([1.0, 0, 0, 3]))["median"] == 9
    assert hist_summary(values, np.array([2.0, 2, 2, 2]))["median"] == 2
    assert hist_summary(values, np.array([10.0, 10, 10, 70]))["p10"] == 1
    assert hist_summary(values, np.array([10.0, 10, 10, 70]))["p25"] == 4
    assert math.isnan(hist_summary(values, np.zeros(4))["median"])


@pytest.mark.nojit
def test_holm_does_not_collect_every_object_of_the_process(monkeypatch) -> None:
    """statsmodels' Holm calls ``gc.collect()``; with a report's heap that full collection
    cost 0.11 s a call. When it runs, the objects alive before the call must be frozen (out
    of the collector's sight), and none may stay frozen after."""
    import gc

    from sim.report.stats import holm

    heap = [[i] for i in range(10_000)]  # live objects of the caller
    frozen_at_collect = []

    def collect(*args) -> int:
        frozen_at_collect.append(gc.get_freeze_count())
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    assert holm([0.01, 0.04, 0.5]) == pytest.approx([0.03, 0.08, 0.5])
    assert len(frozen_at_collect) == 1 and frozen_at_collect[0] >= len(heap)
    assert gc.get_freeze_count() == 0
