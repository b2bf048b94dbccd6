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
import hashlib
import math
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

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


def hist_quantile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The q-quantile (smallest value whose cumulative share reaches q) of a histogram."""
    order = np.argsort(values)
    v, c = np.asarray(values)[order], np.asarray(counts, dtype=float)[order]
    if c.sum() <= 0:
        return math.nan
    cdf = np.cumsum(c) / c.sum()
    return float(v[min(int(np.searchsorted(cdf, q - 1e-12)), len(v) - 1)])


def hist_summary(values: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """Mean, sd, p10, p25, median, p75, p90 of a histogram (value -> count)."""
    v = np.asarray(values, dtype=float)
    c = np.asarray(counts, dtype=float)
    n = c.sum()
    mean = float((v * c).sum() / n) if n else math.nan
    var = float((c * (v - mean) ** 2).sum() / (n - 1)) if n > 1 else math.nan
    out = {"n": float(n), "mean": mean, "sd": math.sqrt(var) if var == var else math.nan}
    for name, q in (("p10", 0.1), ("p25", 0.25), ("median", 0.5), ("p75", 0.75), ("p90", 0.9)):
        out[name] = hist_quantile(values, counts, q)
    return out


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
    """Multinomial bootstrap weights: how often each block is drawn, ``(draws, blocks)``
    (``blocks`` draws with replacement per row, counted with one ``bincount``)."""
    picks = rng.integers(0, blocks, size=(draws, blocks))
    picks += np.arange(draws)[:, None] * blocks
    return np.bincount(picks.ravel(), minlength=draws * blocks).reshape(draws, blocks)


WEIGHTS_CACHE_BYTES = 64 * 2**20
"""Bootstrap weights kept for reuse (a report bootstraps many statistics of arms with the
same number of blocks, from the same seed, so their draws are the same). They are kept as
the smallest unsigned integers that hold them (a block is rarely drawn more than 15 times),
so the weights of 2,000 draws over 5,000 blocks take 10 MB, not 80."""

_weights_cache: OrderedDict[tuple, list[tuple[np.ndarray, np.ndarray | None]]] = OrderedDict()


def _compact(w: np.ndarray) -> np.ndarray:
    """``w`` (whole numbers) as the smallest unsigned integer type that holds it, read-only."""
    out = w.astype(np.min_scalar_type(int(w.max()) if w.size else 0))
    out.flags.writeable = False
    return out


def _weight_chunks(
    seed: int, resamples: int, chunk: int, ka: int, b: tuple[int, bool] | None
) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """The weights of every chunk of draws, ``(wa, wb)``, for ``ka`` blocks of one arm and,
    unless ``b`` is None, ``b = (kb, paired)`` of the other: drawn from
    ``default_rng(seed)`` chunk by chunk (``wa``, then ``wb`` unless paired, where ``wb`` is
    ``wa``), so the same arguments always give the same weights, which are kept (read-only,
    as small integers: multiply them as floats) in a small cache for the next bootstrap with
    the same arguments. Paired weights are one arm's weights, so they share its cache entry."""
    if b is not None and b[1]:
        return [(wa, wa) for wa, _ in _weight_chunks(seed, resamples, chunk, ka, None)]
    key = (seed, resamples, chunk, ka, b)
    if key in _weights_cache:
        _weights_cache.move_to_end(key)
        return _weights_cache[key]
    rng = np.random.default_rng(seed)
    out: list[tuple[np.ndarray, np.ndarray | None]] = []
    done = 0
    while done < resamples:
        n = min(chunk, resamples - done)
        wa = _compact(_weights(rng, ka, n))
        wb = None if b is None else _compact(_weights(rng, b[0], n))
        out.append((wa, wb))
        done += n
    _weights_cache[key] = out
    while len(_weights_cache) > 1 and _cached_bytes() > WEIGHTS_CACHE_BYTES:
        _weights_cache.popitem(last=False)  # the least recently used
    return out


def _cached_bytes() -> int:
    return sum(
        w.nbytes
        for chunks in _weights_cache.values()
        for pair in chunks
        for w in pair
        if w is not None
    )


RESAMPLED_CACHE_BYTES = 32 * 2**20
"""Resampled sums kept for reuse: an arm's blocks resampled for its own intervals are, with
the same weights, what its side of a paired comparison resamples."""

_resampled_cache: OrderedDict[tuple, tuple[list[np.ndarray], int]] = OrderedDict()
"""Resampled sums by weights and values, each with its size in bytes."""


_blas = ThreadpoolController()


def _resampled(weights: list[np.ndarray], key: tuple, values: np.ndarray) -> list[np.ndarray]:
    """Per chunk of draws, the weighted sums of the blocks ``values`` (blocks, columns):
    ``weights @ values``, on one BLAS thread (threads woken for such small products spin
    longer than they work: 100 draws over 400 blocks took 2 ms on one thread, 8 to 140 ms on
    two, and 15 ms with einsum, which uses no BLAS). The sums are of whole numbers, exact in
    any order. ``key`` names the weights; the result is cached by the weights and the
    values' bytes."""
    digest = hashlib.blake2b(values.tobytes(), digest_size=16).digest()
    full = (key, values.shape, digest)
    if full in _resampled_cache:
        _resampled_cache.move_to_end(full)
        return _resampled_cache[full][0]
    with _blas.limit(limits=1, user_api="blas"):
        out = [w.astype(float) @ values for w in weights]
    _resampled_cache[full] = (out, sum(x.nbytes for x in out))
    while (
        len(_resampled_cache) > 1
        and sum(size for _, size in _resampled_cache.values()) > RESAMPLED_CACHE_BYTES
    ):
        _resampled_cache.popitem(last=False)
    return out


def block_bootstrap(
    stats: Mapping[str, Statistic],
    a: Sums,
    b: Sums | None = None,
    *,
    paired: bool = True,
    resamples: int = 2000,
    seed: int = 0,
    chunk: int = 100,
) -> dict[str, Interval]:
    """Bootstrap ``stat(a) - stat(b)`` (or ``stat(a)`` alone when ``b`` is None) over blocks,
    for every statistic of ``stats`` on the same draws.

    ``a`` and ``b`` hold one row of sums per block. Paired: rows i of ``a`` and ``b`` come
    from the same deals, and each draw gives both the same weights, so the noise the two
    arms share cancels. Unpaired: each arm's blocks are drawn independently. Memory is
    ``chunk x blocks`` weights at a time, whatever the number of rows behind the blocks.
    The interval is the percentile interval; the p-value is the normal approximation with
    the bootstrap standard error.
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
    kb = b.values.shape[0] if b is not None else 0
    if ka < 2 or (b is not None and kb < 2):
        return {
            n: Interval(float(e), math.nan, math.nan, math.nan, math.nan)
            for n, e in zip(names, estimates, strict=True)
        }
    av = a.values.astype(float)
    bv = b.values.astype(float) if b is not None else None
    shape = (seed, resamples, chunk, ka, None if b is None else (kb, paired))
    chunks = _weight_chunks(*shape)
    # the weights' name: paired draws are the one-arm draws of the same blocks
    key = shape[:4] + ((None, "a") if b is None or paired else (shape[4], "a"),)
    sums_a = _resampled([wa for wa, _ in chunks], key, av)
    sums_b: list[np.ndarray | None] = [None] * len(chunks)
    if bv is not None:
        key_b = key if paired else shape[:4] + (shape[4], "b")
        sums_b = list(_resampled([wb for _, wb in chunks], key_b, bv))
    # every statistic is computed row by row: once over all the draws, not chunk by chunk
    all_b = None if bv is None else np.concatenate(sums_b)
    table = diff(
        Sums(a.names, np.concatenate(sums_a)), None if all_b is None else Sums(a.names, all_b)
    )
    ivs = _intervals(np.asarray(estimates, dtype=float), table, resamples)
    return dict(zip(names, ivs, strict=True))


def _reaches(cdf: np.ndarray, total: np.ndarray | float, q: float) -> np.ndarray:
    """Where cumulative counts reach the share ``q`` of ``total`` (without dividing every
    cell; the 1e-12 keeps a share of exactly ``q`` from missing by rounding)."""
    return cdf >= (q - 1e-12) * total


def quantile_rows(values: np.ndarray, cdf: np.ndarray, q: float) -> np.ndarray:
    """``hist_quantile`` of every row of ``cdf`` (rows of cumulative counts over the sorted
    ``values``): the smallest value whose cumulative share reaches ``q``."""
    total = cdf[:, -1:]
    out = values[np.argmax(_reaches(cdf, total, q), axis=1)].astype(float)
    out[total[:, 0] <= 0] = math.nan
    return out


HistStatistic = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Maps (sorted values, rows of cumulative counts over them) to one value per row."""


@dataclass(frozen=True)
class QuantileStat:
    """A statistic of a histogram made of its quantiles: ``sum(sign * quantile(q))`` over
    ``terms`` of (q, sign). :func:`hist_bootstrap` draws such statistics from a few
    columns around each quantile instead of the whole cumulative histogram."""

    terms: tuple[tuple[float, int], ...]

    def combine(self, quantile: Callable[[float], np.ndarray]) -> np.ndarray:
        """The statistic from each term's quantile per row, ``quantile(q)``."""
        return sum(sign * quantile(q) for q, sign in self.terms)

    def __call__(self, values: np.ndarray, cdf: np.ndarray) -> np.ndarray:
        return self.combine(lambda q: quantile_rows(values, cdf, q))


def quantile_of(q: float) -> QuantileStat:
    """The q-quantile of each row."""
    return QuantileStat(((q, 1),))


def quantile_spread(high: float, low: float) -> QuantileStat:
    """The ``high`` quantile minus the ``low`` one (an IQR: 0.75, 0.25), per row."""
    return QuantileStat(((high, 1), (low, -1)))


WINDOW_HALF = 4
"""Columns either side of a quantile's column in the whole histogram that its draws are
first looked for in (:func:`_window_quantiles`); doubled until every draw's is found."""


def _window_quantiles(
    values: np.ndarray, cumulative: np.ndarray, weights: np.ndarray, qs: Sequence[float]
) -> dict[float, np.ndarray]:
    """``quantile_rows(values, weights @ cumulative, q)`` for each ``q`` of ``qs``, without
    the whole product.

    A draw's cumulative counts are ``weights @ cumulative``; its q-quantile is the first
    column reaching ``q`` times its total. Draws resample the same blocks, so that column is
    near the whole histogram's: the product is taken over a window of columns around it
    (with the column before the window, to show the crossing is not earlier) and the window
    is widened for the draws whose crossing lies outside. Counts and weights are whole
    numbers, so every product is exact and the result is the full computation's."""
    draws = weights.shape[0]
    width = cumulative.shape[1]
    totals = weights @ np.ascontiguousarray(cumulative[:, -1])
    whole = cumulative.sum(axis=0)
    out: dict[float, np.ndarray] = {}
    for q in qs:
        centre = int(np.argmax(_reaches(whole, whole[-1], q)))
        column = np.zeros(draws, dtype=np.int64)
        todo: np.ndarray | None = None  # None: every draw
        half = WINDOW_HALF
        while True:
            first = max(centre - half, 0)
            last = min(centre + half, width - 1)
            start = max(first - 1, 0)  # the column before the window, when there is one
            w = weights if todo is None else weights[todo]
            t = totals if todo is None else totals[todo]
            reached = _reaches(w @ cumulative[:, start : last + 1], t[:, None], q)
            inside = reached[:, -1].copy() if last < width - 1 else np.ones(len(t), bool)
            if first > start:
                inside &= ~reached[:, 0]
            found = first + np.argmax(reached[inside, first - start :], axis=1)
            rows = np.flatnonzero(inside) if todo is None else todo[inside]
            column[rows] = found
            todo = np.flatnonzero(~inside) if todo is None else todo[~inside]
            if todo.size == 0 or (first == 0 and last == width - 1):
                break
            half *= 2
        value = values[column].astype(float)
        value[totals <= 0] = math.nan
        out[q] = value
    return out


def hist_bootstrap(
    stats: Mapping[str, HistStatistic],
    values: np.ndarray,
    block_counts: np.ndarray,
    *,
    resamples: int = 2000,
    seed: int = 0,
    chunk: int = 100,
) -> dict[str, Interval]:
    """Percentile intervals of statistics of a distribution kept as one histogram per block
    (quantiles, an IQR): what ``block_bootstrap`` does for sums.

    ``values`` (V,) are the distinct values, ``block_counts`` (blocks, V) how often each
    occurs in each block. Each draw resamples the blocks with the weights
    ``block_bootstrap`` uses (the same seed draws the same blocks) and computes every
    statistic of the summed histogram; a statistic gets the sorted values and the rows of
    cumulative counts over them. Such a statistic has no null value to test, so ``p`` is
    NaN.
    """
    order = np.argsort(values)
    values = np.asarray(values)[order]
    cumulative = np.cumsum(np.asarray(block_counts, dtype=float)[:, order], axis=1)
    names = list(stats)
    total = cumulative.sum(axis=0, keepdims=True)
    estimates = [float(stats[n](values, total)[0]) for n in names]
    blocks = cumulative.shape[0]
    if blocks < 2:
        return {
            n: Interval(e, math.nan, math.nan, math.nan, math.nan)
            for n, e in zip(names, estimates, strict=True)
        }
    # the weighted sum of cumulative counts is the draw's cumulative count (on one BLAS
    # thread, as in block_bootstrap); each statistic is then computed once, row by row, over
    # all the draws: quantiles from a window of columns each, others from the whole product
    weights = np.concatenate(
        [w for w, _ in _weight_chunks(seed, resamples, chunk, blocks, None)]
    ).astype(float)
    with _blas.limit(limits=1, user_api="blas"):
        if all(isinstance(stats[n], QuantileStat) for n in names):
            qs = sorted({q for n in names for q, _ in stats[n].terms})
            drawn = _window_quantiles(values, cumulative, weights, qs)
            columns = [stats[n].combine(drawn.__getitem__) for n in names]
        else:
            cdf = weights @ cumulative
            columns = [stats[n](values, cdf) for n in names]
    table = np.stack(columns, axis=1)
    ivs = _intervals(np.asarray(estimates, dtype=float), table, resamples)
    return {
        n: Interval(iv.estimate, iv.low, iv.high, iv.se, math.nan)
        for n, iv in zip(names, ivs, strict=True)
    }


def _intervals(estimates: np.ndarray, table: np.ndarray, resamples: int) -> list[Interval]:
    """:func:`_interval` of every column of ``table`` (draws, statistics): the quantiles and
    standard errors of the columns without a missing draw in one call each (over the
    transposed table, row by row: the same arithmetic as one column at a time)."""
    rows = np.ascontiguousarray(table.T)
    whole = np.isfinite(rows).all(axis=1) & np.isfinite(estimates)
    out: list[Interval | None] = [None] * len(estimates)
    if whole.any() and rows.shape[1] >= resamples // 2:
        full = rows[whole]
        lows, highs = np.quantile(full, [0.025, 0.975], axis=1)
        ses = full.std(axis=1, ddof=1)
        for j, low, high, se in zip(np.flatnonzero(whole), lows, highs, ses, strict=True):
            out[j] = _finish(float(estimates[j]), float(low), float(high), float(se))
    return [
        iv if iv is not None else _interval(float(estimates[j]), rows[j], resamples)
        for j, iv in enumerate(out)
    ]


def _finish(estimate: float, low: float, high: float, se: float) -> Interval:
    """The interval of a statistic from its draws' quantiles and standard error."""
    if se < 1e-12 * max(1.0, abs(estimate)):
        se = 0.0
        low = high = estimate
    return Interval(estimate, low, high, se, two_sided_p(estimate, se))


def _interval(estimate: float, values: np.ndarray, resamples: int) -> Interval:
    values = values[np.isfinite(values)]
    if not math.isfinite(estimate) or len(values) < resamples // 2:
        return Interval(estimate, math.nan, math.nan, math.nan, math.nan)
    low, high = np.quantile(values, [0.025, 0.975])
    return _finish(estimate, float(low), float(high), float(values.std(ddof=1)))
