"""Engine-backed calibration of the report's statistics at realistic size (issue #30 point 3),
run by ``make verify`` (not by ``make test``): ``python -m tests.report.engine_calibration``.

One experiment, simulated by the runner and the engine like any other, holds for each of R
replicates ``i`` three arms of 2-player greedy rummy (``--hands`` hands each, blocked as the
report blocks them, about 400 blocks an arm):

- ``base<i>``: rummy_basic with its own seed ``s_i``;
- ``twin<i>``: rummy_basic with another seed ``t_i``: the very same rules, other deals. It is
  compared with ``base<i>`` unpaired, as the report compares any arm with its own seed: an
  A/A pair, whose true difference is 0 on every metric;
- ``corner<i>``: around the corner (RULES.md §3.3) with ``base<i>``'s seed ``s_i``: the same
  deals, compared paired, with a real effect on most metrics;

and ``copy0``, ``base0``'s rules and seed under another name.

The report's own code reads and analyses it (``sim.report.metrics.aggregate``,
``sim.report.analysis.analyse``: block sums from the shards' footers, 2,000-draw block
bootstrap, Holm), each arm's baseline set to its replicate's ``base<i>``. Checks:

1. **A/A**: per metric, the share of the R raw 95% intervals of ``twin<i> - base<i>`` that
   exclude 0 lies in the binomial interval of the nominal 5% (R trials; the interval's level
   is Bonferroni-corrected over the metrics, 1 - 0.05/metrics, so that a correct report
   passes every metric 95% of the time); per report (a replicate's comparisons), the share of
   replicates with any Holm-adjusted p below 0.05 is at most 5% (the Wilson interval of that
   share reaches down to 5%).
2. **Coverage of a known effect**: per metric, the share of the R paired 95% intervals of
   ``corner<i> - base<i>`` that cover the true effect lies in the binomial interval of 95%
   (Bonferroni-corrected as above). The true effect is taken as the same statistic of the
   two rule sets over all R replicates pooled: R times the hands of one replicate, so its own
   error is about 1/√R of one replicate's interval half-width over 1.96 (with R = 200, 7% of
   a standard error), which moves the coverage a correct 95% interval has by under 0.1
   percentage point. (It includes each replicate's own hands, which pulls the truth towards
   each estimate by 1/R: the same order, the other way.)
3. **Exact zero**: ``copy0`` against ``base0`` plays the very same hands: every hand
   metric's paired difference must be exactly 0 with the interval [0, 0] and p = 1, and
   every game metric's estimate exactly 0.
4. **Seat advantage** (on the answer card, per arm, not compared): per statistic (seat 0's
   share of the won hands and of the won games minus 1/2, the dealer's share of the won
   hands minus 1/2), the share of the 400 ``base<i>`` and ``twin<i>`` arms' own 95%
   intervals that cover the statistic of all their block sums pooled lies in the binomial
   interval of 95% (Bonferroni-corrected over the three).

Exit code 0 when every check passes, 1 otherwise; the table printed says which.

**Not checked: seat balance.** The report no longer shows seat balance (1 - the largest
gap between seats' win rates), nor compares it between arms: near a fair table the
absolute gap folds the noise onto one side, so its bootstrap intervals are far too wide (this
check found 0 of 200 A/A intervals excluding 0 and 99.5% coverage; 0 of 400 more A/A pairs
on other seeds). The seat advantage (each seat's share of the won hands minus its fair share)
asks the same question smoothly, and is on the answer card with intervals: check 4.

**The seeds.** ``BASE_SEED`` and ``TWIN_SEED`` were 1,000,000 and 2,000,000 until 2026-12-05.
That draw failed the A/A checks of turns per hand (mean, sd) and the coverage of the stalled
and went-out shares, all through one quantity: rummy_basic's stalled hands (0.29%, 500 turns
each) varied between its 400 arms 1.21 times as much as binomial (chi-square p = 0.0025).
That was chance, not the report's statistics: 800 further rummy_basic arms of 20,000 hands
on other seeds (7,000,000 + 7,919 i and 3,000,000 + i, i < 400) vary 1.04 and 1.00 times
binomial, within an arm the stalls are binomial across 2 to 40 parts (0.96-1.08), and 400
A/A pairs made of those arms, analysed by the report's code as here, exclude 0 in 3.5% (turns
per hand), 4.75% (its sd) and 4.5% (stalled share) of raw intervals (docs/report.md). A
check with fixed seeds that fails by a 1-in-400 chance fails on every run, so the seeds were
drawn again once, to the values below, before this check was run with them; ``--base-seed
1000000 --twin-seed 2000000`` reproduces the old draw.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from sim.report.analysis import Comparison, analyse
from sim.report.dataset import Dataset, _with_rule_changes, open_dataset
from sim.report.metrics import aggregate
from sim.report.stats import Sums, holm

ALPHA = 0.05
BASE_SEED = 11_000_000
TWIN_SEED = 12_000_000


def experiment_text(
    replicates: int, hands: int, base_seed: int = BASE_SEED, twin_seed: int = TWIN_SEED
) -> str:
    """The experiment file: ``base<i>`` (seed ``base_seed + i``), ``twin<i>`` (``twin_seed +
    i``), ``corner<i>`` per replicate, and ``copy0``."""
    lines = [
        'name = "calibration"',
        'description = "A/A and coverage check of the report (make verify)"',
        "seed = 1",
        f"hands = {hands}",
        "players = [2]",
        'lineups = ["greedy"]',
        'baseline = "base0"',
    ]
    for i in range(replicates):
        for name, variant, seed in (
            (f"base{i}", "rummy_basic", base_seed + i),
            (f"twin{i}", "rummy_basic", twin_seed + i),
            (f"corner{i}", "around_the_corner", base_seed + i),
        ):
            lines += [
                "",
                "[[arms]]",
                f'name = "{name}"',
                f'variant = "{variant}"',
                f"seed = {seed}",
            ]
    lines += ["", "[[arms]]", 'name = "copy0"', 'variant = "rummy_basic"', f"seed = {base_seed}"]
    return "\n".join(lines) + "\n"


def _ruleset(arm_name: str) -> str:
    return arm_name.split("-", 1)[0]


def with_replicate_baselines(ds: Dataset) -> Dataset:
    """The dataset with each arm compared with its replicate's ``base<i>`` (``copy0`` with
    ``base0``), and whether it is paired (the same seed) worked out again."""
    by_ruleset = {_ruleset(a.name): a.name for a in ds.arms}

    def base_of(ruleset: str) -> str:
        if ruleset == "copy0":
            return by_ruleset["base0"]
        digits = ruleset.lstrip("abcdefghijklmnopqrstuvwxyz")
        return by_ruleset[f"base{digits}"]

    arms = [dataclasses.replace(a, baseline=base_of(_ruleset(a.name))) for a in ds.arms]
    return dataclasses.replace(ds, arms=tuple(_with_rule_changes(arms)))


def binomial_ok(hits: int, trials: int, rate: float, alpha: float) -> tuple[bool, float, float]:
    """Whether ``rate`` lies in the Wilson interval of ``hits`` of ``trials`` at level
    ``1 - alpha``; the interval's ends."""
    low, high = proportion_confint(hits, trials, alpha=alpha, method="wilson")
    return bool(low <= rate <= high), float(low), float(high)


@dataclasses.dataclass
class Check:
    """One line of the verdict: a count of ``trials`` against a rate."""

    name: str
    hits: int
    trials: int
    rate: float
    low: float
    high: float
    ok: bool

    def line(self) -> str:
        share = self.hits / self.trials if self.trials else math.nan
        status = "ok" if self.ok else "FAIL"
        return (
            f"{self.name:<50} {self.hits:>4}/{self.trials:<4} {100 * share:6.2f}%  "
            f"[{100 * self.low:5.2f}, {100 * self.high:5.2f}]  nominal {100 * self.rate:.0f}%  "
            f"{status}"
        )


def aa_checks(aa: dict[str, list[Comparison]], replicates: int) -> list[Check]:
    """Per metric, the raw intervals that exclude 0 against 5% (Bonferroni over metrics);
    then the replicates with any Holm-adjusted p < 0.05 against at most 5%."""
    out = []
    metrics = sorted({c.metric.name for comps in aa.values() for c in comps})
    level = ALPHA / max(len(metrics), 1)
    for metric in metrics:
        comps = [c for comps in aa.values() for c in comps if c.metric.name == metric]
        hits = sum(not (c.interval.low <= 0 <= c.interval.high) for c in comps)
        ok, low, high = binomial_ok(hits, len(comps), ALPHA, level)
        out.append(Check(f"A/A {metric}: raw 95% interval excludes 0", hits, len(comps),
                         ALPHA, low, high, ok))  # fmt: skip
    family = sum(min(holm([c.interval.p for c in comps]), default=1.0) < ALPHA
                 for comps in aa.values())  # fmt: skip
    _, low, high = binomial_ok(family, replicates, ALPHA, ALPHA)
    out.append(Check("A/A per report: any Holm p < 0.05", family, replicates, ALPHA, low, high,
                     low <= ALPHA))  # fmt: skip
    return out


def coverage_checks(paired: dict[str, list[Comparison]], truth: dict[str, float]) -> list[Check]:
    """Per metric, the paired 95% intervals that cover the pooled truth against 95%
    (Bonferroni over metrics)."""
    out = []
    metrics = sorted(truth)
    level = ALPHA / max(len(metrics), 1)
    for metric in metrics:
        comps = [c for comps in paired.values() for c in comps if c.metric.name == metric]
        hits = sum(c.interval.low <= truth[metric] <= c.interval.high for c in comps)
        ok, low, high = binomial_ok(hits, len(comps), 1 - ALPHA, level)
        out.append(Check(f"coverage {metric}: covers the pooled effect", hits, len(comps),
                         1 - ALPHA, low, high, ok))  # fmt: skip
    return out


def pooled_truth(report, pairs: dict[str, list[Comparison]]) -> dict[str, float]:
    """Each metric's effect over every replicate pooled: the statistic of all ``corner<i>``
    arms' block sums together minus that of all ``base<i>`` arms'."""
    from sim.dataset.summaries import game_sum_names, hand_sum_names
    from sim.report.analysis import arm_sums

    agg = report.agg
    names = {"hand": hand_sum_names(agg.seats, agg.reasons), "game": game_sum_names(agg.seats)}
    tables = {"hand": agg.hand_blocks, "game": agg.game_blocks}
    totals: dict[tuple[str, str], np.ndarray] = {}
    for level in ("hand", "game"):
        for side in ("corner", "base"):
            arms = [c.arm.name if side == "corner" else c.arm.baseline
                    for comps in pairs.values() for c in comps[:1]]  # fmt: skip
            total = sum(arm_sums(tables[level], arm, names[level]).total().values for arm in arms)
            totals[(level, side)] = total
    truth = {}
    for comps in pairs.values():
        for c in comps:
            if c.metric.name in truth:
                continue
            level = c.metric.level
            with np.errstate(divide="ignore", invalid="ignore"):
                corner = c.metric.fn(Sums(names[level], totals[(level, "corner")]))[0]
                base = c.metric.fn(Sums(names[level], totals[(level, "base")]))[0]
            truth[c.metric.name] = float(corner - base)
    return truth


EDGES = ("seat0_edge", "dealer_edge", "seat0_game_edge")
"""The seat advantage checked per arm (at 2 players seat 1's edges are seat 0's negated)."""


def edge_checks(report, arms: list) -> list[Check]:
    """Per seat-advantage statistic (:data:`EDGES`, ``analysis.seat_edges``), the share of
    ``arms``' own 95% intervals (``report.estimates``) that cover the statistic of all their
    block sums pooled (Bonferroni over the statistics, as the other checks)."""
    from sim.dataset.summaries import game_sum_names, hand_sum_names
    from sim.report.analysis import arm_sums, seat_edges

    agg = report.agg
    edges = {m.name: m for m in seat_edges(arms[0].seats)}
    level = ALPHA / len(EDGES)
    out = []
    for metric in EDGES:
        in_game = edges[metric].level == "game"
        names = game_sum_names(agg.seats) if in_game else hand_sum_names(agg.seats, agg.reasons)
        table = agg.game_blocks if in_game else agg.hand_blocks
        total = sum(arm_sums(table, a.name, names).total().values for a in arms)
        truth = float(edges[metric].fn(Sums(names, total))[0])
        ivs = [report.estimates[(a.name, metric)] for a in arms]
        hits = sum(iv.low <= truth <= iv.high for iv in ivs)
        ok, low, high = binomial_ok(hits, len(ivs), 1 - ALPHA, level)
        out.append(Check(f"seat advantage {metric}: covers the pooled value", hits, len(ivs),
                         1 - ALPHA, low, high, ok))  # fmt: skip
    return out


def exact_zero_checks(copies: list[Comparison]) -> list[Check]:
    """``copy0`` against ``base0``: the same hands, so every difference is exactly 0, and the
    hand metrics' paired intervals are [0, 0] with p = 1."""
    wrong = []
    for c in copies:
        iv = c.interval
        exact = iv.estimate == 0
        if c.metric.level == "hand":  # paired on the very same hands
            exact = exact and (iv.low, iv.high, iv.p) == (0, 0, 1)
        if not exact:
            wrong.append(c.metric.name)
    hits = len(copies) - len(wrong)
    name = "same rules, same seed: exactly 0" + (f" (not: {', '.join(wrong)})" if wrong else "")
    return [Check(name, hits, len(copies), 1.0, 1.0, 1.0, not wrong and bool(copies))]


def run(
    replicates: int,
    hands: int,
    workers: int,
    folder: Path,
    resamples: int,
    seeds: tuple[int, int] = (BASE_SEED, TWIN_SEED),
) -> list[Check]:
    """Simulate the experiment (base and twin seeds ``seeds``) into ``folder``, analyse it,
    and return every check."""
    from sim.runner.experiment import load_experiment  # the engine: not for the unit tests
    from sim.runner.run import run_experiment

    path = folder / "calibration.toml"
    path.write_text(experiment_text(replicates, hands, *seeds), encoding="utf-8")
    start = time.perf_counter()
    summary = run_experiment(load_experiment(path), folder / "data", workers=workers, fresh=True)
    print(f"simulated {replicates * 3 + 1} arms x {hands:,} hands in "
          f"{time.perf_counter() - start:.1f} s", flush=True)  # fmt: skip
    start = time.perf_counter()
    ds = with_replicate_baselines(open_dataset(summary.root))
    report = analyse(ds, aggregate(ds), resamples=resamples, seed=0)
    print(f"analysed in {time.perf_counter() - start:.1f} s", flush=True)
    groups: dict[str, dict[str, list[Comparison]]] = defaultdict(lambda: defaultdict(list))
    for c in report.comparisons:
        kind = _ruleset(c.arm.name).rstrip("0123456789")
        groups[kind][c.arm.name].append(c)
    aa, paired = groups["twin"], groups["corner"]
    if not all(c.arm.own_seed for comps in aa.values() for c in comps):
        raise SystemExit("an A/A arm is compared paired: its seed is not its own")
    if any(c.arm.own_seed for comps in paired.values() for c in comps):
        raise SystemExit("a coverage arm is compared unpaired: it does not share the deals")
    checks = aa_checks(aa, len(aa))
    checks += coverage_checks(paired, pooled_truth(report, paired))
    same_rules = [a for a in ds.arms if _ruleset(a.name).rstrip("0123456789") in ("base", "twin")]
    checks += edge_checks(report, same_rules)
    checks += exact_zero_checks(groups["copy"].get(next(iter(groups["copy"]), ""), []))
    return checks


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=200, help="A/A and coverage pairs")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per arm")
    parser.add_argument("--workers", type=int, default=0, help="runner workers (0: all cores)")
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap draws")
    parser.add_argument("--keep", type=Path, help="write the dataset here and keep it")
    parser.add_argument("--base-seed", type=int, default=BASE_SEED, help="base<i>'s seed - i")
    parser.add_argument("--twin-seed", type=int, default=TWIN_SEED, help="twin<i>'s seed - i")
    args = parser.parse_args(argv)
    workers = args.workers or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="rummysim-calibration-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        seeds = (args.base_seed, args.twin_seed)
        checks = run(args.replicates, args.hands, workers, folder, args.resamples, seeds)
    for check in checks:
        print(check.line())
    failed = [c for c in checks if not c.ok]
    print(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
