"""Interval estimates and tests for the balance report.

* :func:`wilson` — the Wilson score interval of a proportion (statsmodels).
* :func:`block_bootstrap` — a bootstrap over blocks of per-block sums, paired (the same
  resampling weights for both arms, for rows dealt from the same shuffles) or unpaired.
  Every statistic of the report is a smooth function of sums (a mean is ``sum / n``, a
  share is ``count / n``, a standard deviation comes from the sums of x and x²), so
  resampling blocks of sums is the same as resampling the rows of those blocks, and the
  bootstrap never needs the rows themselves. No library bootstraps sums of blocks with
  weights shared by two arms, so this one is written here.
* :func:`holm` — Holm's step-down adjustment of p-values for many comparisons (statsmodels).

docs/report.md explains the method and why it is honest at 10 million hands.
"""

from __future__ import annotations

import gc
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.stats import norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint
from threadpoolctl import ThreadpoolController


def wilson(successes: float, trials: float) -> tuple[float, float, float]:
    """Proportion and its 95% Wilson score interval: ``(p, low, high)``; NaNs when
    ``trials`` is 0."""
    if trials <= 0:
        return (math.nan, math.nan, math.nan)
    low, high = proportion_confint(successes, trials, alpha=0.05, method="wilson")
    return (successes / trials, low, high)


def two_sided_p(estimate: float, se: float) -> float:
    """Two-sided p-value of ``estimate`` against 0 from a normal approximation with standard
    error ``se``. A zero standard error gives 1 for a zero estimate and 0 otherwise."""
    if not math.isfinite(estimate) or not math.isfinite(se):
        return math.nan
    if se <= 0:
        return 1.0 if estimate == 0 else 0.0
    return float(2 * norm.sf(abs(estimate / se)))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (same order as given; NaNs pass through).

    statsmodels' Holm ends with a full ``gc.collect()`` (0.11 s in a report process holding
    its tables and figures, five times a report); the objects alive before the call are
    frozen meanwhile, so that collection looks only at the call's own."""
    p = np.asarray(pvalues, dtype=float)
    out = np.full(len(p), math.nan)
    known = ~np.isnan(p)
    if known.any():
        gc.freeze()
        try:
            out[known] = multipletests(p[known], method="holm")[1]
        finally:
            gc.unfreeze()
    return out.tolist()


# ---- distributions from histograms ---------------------------------------------------


QUANTILES = {"p10": 0.1, "p25": 0.25, "median": 0.5, "p75": 0.75, "p90": 0.9}


def hist_summary(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """Count, mean and :data:`QUANTILES` of a histogram (value -> count), NaN when it is empty;
    each quantile is the smallest value whose cumulative share reaches it (numpy's weighted
    ``inverted_cdf``, as of the hands themselves)."""
    c = np.asarray(counts, dtype=float)
    n = float(c.sum())
    if n <= 0:
        return {"n": n, "mean": math.nan} | dict.fromkeys(QUANTILES, math.nan)
    qs = np.quantile(values, list(QUANTILES.values()), weights=c, method="inverted_cdf")
    return {"n": n, "mean": float(np.dot(values, c) / n)} | dict(
        zip(QUANTILES, map(float, qs), strict=True)
    )


# ---- the block bootstrap -------------------------------------------------------------


@dataclass(frozen=True)
class Sums:
    """Named columns of summed quantities, one row per block or per bootstrap draw."""

    names: tuple[str, ...]
    values: np.ndarray  # (rows, columns)

    def __getitem__(self, name: str) -> np.ndarray:
        return self.values[..., self.names.index(name)]

    def total(self) -> Sums:
        """The sums over every row (a single row)."""
        return Sums(self.names, self.values.sum(axis=0, keepdims=True))


Statistic = Callable[[Sums], np.ndarray]
"""Maps sums (rows = draws) to one value per row."""


@dataclass(frozen=True)
class Interval:
    """A point estimate with its bootstrap interval, standard error and p-value against 0."""

    estimate: float
    low: float
    high: float
    se: float
    p: float


def _weights(rng: np.random.Generator, blocks: int, draws: int) -> np.ndarray:
    """Multinomial bootstrap weights: how often each block is drawn, ``(draws, blocks)``."""
    picks = rng.integers(0, blocks, size=(draws, blocks))
    picks += np.arange(draws)[:, None] * blocks
    return np.bincount(picks.ravel(), minlength=draws * blocks).reshape(draws, blocks)


@lru_cache(maxsize=8)
def _weight_pair(
    seed: int, resamples: int, ka: int, kb: int | None = None
) -> tuple[np.ndarray, np.ndarray | None]:
    """The weights of every draw for ``ka`` blocks of one arm and ``kb`` of the other (None:
    one arm, or paired draws, which give both arms its weights), as floats: drawn from
    ``default_rng(seed)``, every draw of ``wa`` then every draw of ``wb``. A report bootstraps
    many statistics of arms with as many blocks from one seed, so they are kept (read-only)."""
    rng = np.random.default_rng(seed)
    wa, wb = (None if k is None else _weights(rng, k, resamples).astype(float) for k in (ka, kb))
    for w in (wa, wb):
        if w is not None:
            w.flags.writeable = False
    return wa, wb


_blas = ThreadpoolController()
"""Weighted sums run on one BLAS thread: threads woken for such small products spin longer
than they work (100 draws over 400 blocks: 2 ms on one thread, 8 to 140 ms on two)."""


def block_bootstrap(
    stats: Mapping[str, Statistic],
    a: Sums,
    b: Sums | None = None,
    *,
    paired: bool = True,
    resamples: int = 2000,
    seed: int = 0,
) -> dict[str, Interval]:
    """Bootstrap ``stat(a) - stat(b)`` (or ``stat(a)`` alone when ``b`` is None) over blocks,
    for every statistic of ``stats`` on the same draws.

    ``a`` and ``b`` hold one row of sums per block. Paired: rows i of ``a`` and ``b`` come
    from the same deals, and each draw gives both the same weights, so the noise the two
    arms share cancels. Unpaired: each arm's blocks are drawn independently. The interval is
    the percentile interval; the p-value is the normal approximation with the bootstrap
    standard error.
    """
    if paired and b is not None and a.values.shape[0] != b.values.shape[0]:
        raise ValueError("paired blocks must line up one to one")
    names = list(stats)

    def diff(sa: Sums, sb: Sums | None) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            cols = []
            for name in names:
                value = stats[name](sa)
                if sb is not None:
                    value = value - stats[name](sb)
                cols.append(np.asarray(value, dtype=float))
        return np.stack(cols, axis=-1)  # (draws, statistics)

    estimates = diff(a.total(), b.total() if b is not None else None)[0]
    ka = a.values.shape[0]
    kb = b.values.shape[0] if b is not None else None
    if ka < 2 or (kb is not None and kb < 2):
        return {
            n: Interval(float(e), *[math.nan] * 4) for n, e in zip(names, estimates, strict=True)
        }
    wa, wb = _weight_pair(seed, resamples, ka, None if paired else kb)
    wb = wa if paired else wb
    with _blas.limit(limits=1, user_api="blas"):
        drawn_a = Sums(a.names, wa @ a.values.astype(float))
        drawn_b = None if b is None else Sums(b.names, wb @ b.values.astype(float))
    table = diff(drawn_a, drawn_b)
    return {
        n: _interval(float(e), table[:, j], resamples)
        for j, (n, e) in enumerate(zip(names, estimates, strict=True))
    }


def _interval(estimate: float, values: np.ndarray, resamples: int) -> Interval:
    """The percentile interval and standard error of a statistic's draws (NaN when fewer
    than half the draws give a number); a draw spread below rounding is no spread."""
    values = values[np.isfinite(values)]
    if not math.isfinite(estimate) or len(values) < resamples // 2:
        return Interval(estimate, math.nan, math.nan, math.nan, math.nan)
    low, high = (float(x) for x in np.quantile(values, [0.025, 0.975]))
    se = float(values.std(ddof=1))
    if se < 1e-12 * max(1.0, abs(estimate)):
        se, low, high = 0.0, estimate, estimate
    return Interval(estimate, low, high, se, two_sided_p(estimate, se))
