"""Before/after statistics of the engine on every shipped variant file (issue 29, point 6).

A rewrite of the engine must keep every variant file playing the same games. ``record``
plays every case (each variant file of ``rummysim variants``, at every player count in its
range, with one bot on every seat: random, greedy, careful, and simple in the knock family)
for at least ``--hands`` hands and writes the figures to ``engine_stats.json``; ``compare``
plays the same cases on the engine checked out now and prints a Markdown table per case:
before, after, difference, tolerance, OK/FAIL (exit code 1 on any FAIL).

    .venv/bin/python -m tests.baseline.engine_stats record              # ~100,000 hands a case
    .venv/bin/python -m tests.baseline.engine_stats compare             # or: make compare-baseline
    .venv/bin/python -m tests.baseline.engine_stats compare --only gin_rummy

Each case plays whole games, in calls of at most ``CHUNK`` hands, until ``--hands`` hands are
done: a game cut by a call's hand limit is dropped and replayed whole by the next call (from
the next game and deal numbers, as the runner does), and the last call keeps the fewest games
that reach ``--hands``. The figures therefore depend only on the seed and ``--hands``, not
on the chunk size.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from sim.engine import api
from sim.engine import rows as L
from sim.rules import list_variants, load_variant
from sim.rules.model import KNOCK_FAMILIES

BASELINE = Path(__file__).with_name("engine_stats.json")
ROOT = Path(__file__).resolve().parents[2]
SEED = 29  # issue 29
HANDS = 100_000
CHUNK = 200_000  # most hands in one kernel call (bounds the result arrays in memory)
DIGITS = 5

# Issue 29 point 6. "rel": |after - before| / |before|; "pp": |after - before| in percentage
# points of a share or rate stored as a fraction.
TOLERANCES: dict[str, tuple[str, float]] = {
    "mean_turns": ("rel", 0.02),  # mean turns per hand: 2%
    "mean_points": ("rel", 0.03),  # points per hand: 3%
    "hands_per_game": ("rel", 0.05),  # hands per game: 5%
    "reason_share": ("pp", 1.2),  # each end reason's share of hands: 1.2 points
    "seat_win_rate": ("pp", 1.5),  # each seat's share of hands won: 1.5 points
    "dealer_win_rate": ("pp", 1.5),  # the dealer's share of hands won: 1.5 points
}

AFTER_BASELINE = (
    "call_rummy",
    "throw_down_rummy",
    "full_rummy",
    "boat_house_rum",
    "queen_city_rum",
)
"""Variant files written after the previous engine was retired: it has no figures for them."""

NOT_RECORDED_YET: tuple[str, ...] = ()
"""Variant files without figures yet (none: every file's cases are recorded; a new file is
recorded with ``record --only "name|"`` and merged)."""


LINEUPS = ("random", "greedy", "careful")
KNOCK_LINEUPS = (*LINEUPS, "simple")


# ---- cases ----------------------------------------------------------------------------------


def case_key(variant: str, players: int, bot: str) -> str:
    return f"{variant}|{players}|{bot}"


def all_cases() -> list[tuple[str, int, str]]:
    """``(variant, players, bot)`` of every variant file x player count x line-up."""
    cases = []
    for name, _ in list_variants():
        if name in AFTER_BASELINE or name in NOT_RECORDED_YET:
            continue
        rules = load_variant(name)
        lineups = KNOCK_LINEUPS if rules.family in KNOCK_FAMILIES else LINEUPS
        for players in rules.player_counts:
            for bot in lineups:
                cases.append((name, players, bot))
    return cases


def select(cases: Iterable[tuple[str, int, str]], only: str | None) -> list[tuple[str, int, str]]:
    return [c for c in cases if not only or only in case_key(*c)]


# ---- playing one case -----------------------------------------------------------------------


def _next_dealer(rules, players: int, rows: np.ndarray) -> int:
    """One-hand games pass the deal on from game to game (§2H.30-31): the next call starts
    with the dealer the previous one would have used next (as ``sim.runner.shards``)."""
    if rules.option("game_end")[0] != "single_hand" or not len(rows):
        return -1
    last = rows[-1]
    winner = int(last[L.H_WINNER])
    if rules["dealer_rotation"] == "winner_deals" and winner >= 0:
        return winner
    return (int(last[L.H_DEALER]) + 1) % players


def play_case(variant: str, players: int, bot: str, hands: int, seed: int = SEED) -> dict:
    """Play whole games of one case until at least ``hands`` hands; return its figures."""
    rules = load_variant(variant)
    params, values = api.compile_rules(rules, players)
    play = api.play
    bots = np.full(players, L.BOT_NAMES.index(bot), np.int64)
    n_reasons = len(L.REASON_NAMES)
    done = games = turns = points = dealer_wins = violations = 0
    reasons = np.zeros(n_reasons, np.int64)
    seat_wins = np.zeros(players, np.int64)
    first_game = first_deal = 0
    carry = -1
    cap, tail = CHUNK, 1000
    start = time.perf_counter()
    while done < hands:
        ask = min(cap, hands - done + tail)
        out = play(
            params,
            values,
            bots,
            seed=seed,
            first_game=first_game,
            first_deal=first_deal,
            hands=ask,
            games=ask,
            dealer=carry,
        )
        per_game = out.game_rows[:, L.G_HANDS]
        ends = np.cumsum(per_game)
        n_games = len(per_game)
        if n_games and done + int(ends[-1]) >= hands:  # the fewest games that reach ``hands``
            n_games = int(np.searchsorted(ends, hands - done)) + 1
        if n_games == 0:  # one game outlasted the call: replay it with a longer one
            cap, tail = cap * 2, tail * 2
            continue
        kept = int(ends[n_games - 1])
        rows = out.hand_rows[:kept]
        assert np.all(rows[:, L.H_GAME] < first_game + n_games)
        turns += int(rows[:, L.H_TURNS].sum())
        points += int(out.hand_scores[:kept].sum())
        reasons += np.bincount(rows[:, L.H_END_REASON], minlength=n_reasons)[:n_reasons]
        winners = rows[:, L.H_WINNER]
        seat_wins += np.bincount(winners[winners >= 0], minlength=players)[:players]
        dealer_wins += int(np.sum(winners == rows[:, L.H_DEALER]))
        violations += int(rows[:, L.H_VIOLATIONS].sum())
        done += kept
        games += n_games
        first_game += n_games
        first_deal += kept
        carry = _next_dealer(rules, players, rows)
    seconds = time.perf_counter() - start
    r = DIGITS
    return {
        "variant": variant,
        "players": players,
        "bots": bot,
        "hands": done,
        "games": games,
        "mean_turns": round(turns / done, r),
        "mean_points": round(points / done, r),
        "hands_per_game": round(done / games, r),
        "reason_share": {
            name: round(int(reasons[i]) / done, r) for i, name in enumerate(L.REASON_NAMES)
        },
        "seat_win_rate": [round(int(w) / done, r) for w in seat_wins],
        "dealer_win_rate": round(dealer_wins / done, r),
        "violations": violations,
        "_seconds": seconds,
    }


def _play_one(args: tuple[str, int, str, int, int, str]) -> dict:
    return play_case(*args)


def play_cases(
    cases: Sequence[tuple[str, int, str]],
    hands: int,
    seed: int = SEED,
    workers: int = 2,
    log=None,
) -> dict[str, dict]:
    """Figures of every case, keyed by :func:`case_key`. With ``workers`` > 1 the cases are
    shared by processes forked after a first call has loaded the kernels."""
    log = log or (lambda text: None)
    jobs = [(v, p, b, hands, seed) for v, p, b in cases]
    # random line-ups play the longest hands: start them first so the workers end together
    jobs.sort(key=lambda j: (j[2] != "random", -j[1], j[0]))
    results: dict[str, dict] = {}
    if not jobs:
        return results
    play_case(jobs[0][0], jobs[0][1], "greedy", 10, seed)  # compile or load the cache
    if workers <= 1 or len(jobs) == 1:
        outputs: Iterable[dict] = map(_play_one, jobs)
        pool = None
    else:
        import multiprocess as mp

        pool = mp.get_context("fork").Pool(workers)
        outputs = pool.imap_unordered(_play_one, jobs)
    try:
        for i, figures in enumerate(outputs, 1):
            seconds = figures.pop("_seconds")
            key = case_key(figures["variant"], figures["players"], figures["bots"])
            results[key] = figures
            log(f"[{i}/{len(jobs)}] {key}: {figures['hands']} hands in {seconds:.1f} s")
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return results


# ---- the baseline file ----------------------------------------------------------------------


def _git(*args: str) -> str:
    try:
        return subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def meta(hands: int, seed: int) -> dict:
    from sim.engine.jit import SOURCE_DIGEST as ENGINE_DIGEST

    figures = {
        "issue": "29 point 6",
        "seed": seed,
        "hands_at_least": hands,
        "git_commit": _git("rev-parse", "HEAD"),
        "engine_uncommitted_changes": bool(
            _git("status", "--porcelain", "--", "sim/engine", "sim/cards.py")
        ),
        "engine_digest": ENGINE_DIGEST,
        "recorded_utc": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
        "tolerances": {k: list(v) for k, v in TOLERANCES.items()},
    }
    return figures


def write_baseline(path: Path, cases: dict[str, dict], info: dict) -> None:
    text = json.dumps({"meta": info, "cases": cases}, indent=1, sort_keys=True)
    path.write_text(text + "\n", encoding="utf-8")


def read_baseline(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# ---- comparing ------------------------------------------------------------------------------


def _check(kind: str, limit: float, before: float, after: float) -> tuple[float, float, bool]:
    """``(shown before - after difference, the same in tolerance units, within)``."""
    if kind == "pp":
        diff = (after - before) * 100
        return diff, diff, abs(diff) <= limit + 1e-9
    diff = after - before
    rel = diff / abs(before) if before else (0.0 if after == 0 else float("inf"))
    return diff, rel, abs(rel) <= limit + 1e-9


def compare_case(before: dict, after: dict) -> list[dict]:
    """One row per figure of a case: name, before, after, diff, tolerance text, ok."""
    metrics: list[tuple[str, str, float, float]] = []
    for name in ("mean_turns", "mean_points", "hands_per_game"):
        metrics.append((name, name, before[name], after[name]))
    for reason in sorted(set(before["reason_share"]) | set(after["reason_share"])):
        b = before["reason_share"].get(reason, 0.0)
        a = after["reason_share"].get(reason, 0.0)
        if b or a:
            metrics.append((f"share {reason}", "reason_share", b, a))
    seats_b, seats_a = before["seat_win_rate"], after["seat_win_rate"]
    for seat in range(max(len(seats_b), len(seats_a))):
        b = seats_b[seat] if seat < len(seats_b) else float("nan")
        a = seats_a[seat] if seat < len(seats_a) else float("nan")
        metrics.append((f"seat {seat} win rate", "seat_win_rate", b, a))
    metrics.append(
        ("dealer win rate", "dealer_win_rate", before["dealer_win_rate"], after["dealer_win_rate"])
    )
    rows = []
    for label, tol_name, b, a in metrics:
        kind, limit = TOLERANCES[tol_name]
        diff, _, ok = _check(kind, limit, b, a)
        if kind == "pp":
            shown = (b * 100, a * 100, f"{diff:+.2f} pp", f"±{limit:g} pp")
        else:
            rel = diff / abs(b) * 100 if b else float("inf") if diff else 0.0
            shown = (b, a, f"{diff:+.4g} ({rel:+.2f}%)", f"±{limit * 100:g}%")
        rows.append(
            {
                "figure": label,
                "before": shown[0],
                "after": shown[1],
                "diff": shown[2],
                "tolerance": shown[3],
                "ok": bool(ok),
            }
        )
    return rows


def compare(before: dict[str, dict], after: dict[str, dict]) -> tuple[dict, list[str]]:
    """``({case: rows}, cases missing on either side)``."""
    missing = sorted(set(before) ^ set(after))
    both = sorted(set(before) & set(after))
    tables = {key: compare_case(before[key], after[key]) for key in both}
    return tables, missing


def passed(tables: dict, missing: list[str]) -> bool:
    return not missing and all(row["ok"] for rows in tables.values() for row in rows)


def markdown(
    tables: dict, missing: list[str], before: dict[str, dict], after: dict[str, dict]
) -> str:
    lines = []
    for key, rows in tables.items():
        failed = sum(not r["ok"] for r in rows)
        hb, ha = before[key]["hands"], after[key]["hands"]
        status = "OK" if not failed else f"FAIL ({failed})"
        lines.append(f"### {key}: {status}")
        lines.append("")
        lines.append(f"hands {hb:,} before, {ha:,} after; shares and rates in %")
        lines.append("")
        lines.append("| figure | before | after | difference | tolerance | |")
        lines.append("|---|---:|---:|---:|---:|---|")
        for r in rows:
            lines.append(
                f"| {r['figure']} | {r['before']:.4f} | {r['after']:.4f} | {r['diff']} "
                f"| {r['tolerance']} | {'OK' if r['ok'] else 'FAIL'} |"
            )
        lines.append("")
    if missing:
        lines.append("### Missing cases (FAIL)")
        lines.append("")
        for key in missing:
            side = "after (not played now)" if key in before else "before (not in the baseline)"
            lines.append(f"- {key}: missing {side}")
        lines.append("")
    n_fail = sum(any(not r["ok"] for r in rows) for rows in tables.values()) + len(missing)
    total = len(tables) + len(missing)
    lines.append(f"**{total - n_fail} of {total} cases within tolerance; {n_fail} FAIL.**")
    return "\n".join(lines)


# ---- command line ---------------------------------------------------------------------------


def _log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.baseline.engine_stats")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="play every case and write the baseline")
    rec.add_argument("--hands", type=int, default=HANDS, help="at least this many hands a case")
    rec.add_argument("--out", type=Path, default=BASELINE)
    rec.add_argument("--only", default=None, help="only cases whose key contains this")
    rec.add_argument("--workers", type=int, default=2)
    cmp_ = sub.add_parser("compare", help="play every case and compare with the baseline")
    cmp_.add_argument("--hands", type=int, default=None, help="default: the baseline's")
    cmp_.add_argument("--baseline", type=Path, default=BASELINE)
    cmp_.add_argument("--only", default=None, help="only cases whose key contains this")
    cmp_.add_argument("--workers", type=int, default=2)
    cmp_.add_argument(
        "--seed", type=int, default=None, help="default: the baseline's (another seed shows noise)"
    )
    args = parser.parse_args(argv)

    if args.command == "record":
        cases = select(all_cases(), args.only)
        info = meta(args.hands, SEED)  # the commit played: taken before others may commit
        start = time.perf_counter()
        figures = play_cases(cases, args.hands, SEED, args.workers, _log)
        seconds = time.perf_counter() - start
        info["seconds"] = round(seconds, 1)
        write_baseline(args.out, figures, info)
        _log(f"{len(figures)} cases in {seconds:.1f} s -> {args.out}")
        return 0

    baseline = read_baseline(args.baseline)
    info = baseline["meta"]
    before = {k: v for k, v in baseline["cases"].items() if not args.only or args.only in k}
    hands = args.hands if args.hands is not None else int(info["hands_at_least"])
    seed = args.seed if args.seed is not None else int(info["seed"])
    cases = select(all_cases(), args.only)
    now = meta(hands, seed)
    start = time.perf_counter()
    after = play_cases(cases, hands, seed, args.workers, _log)
    seconds = time.perf_counter() - start
    tables, missing = compare(before, after)
    print("# Engine statistics: before/after (issue 29 point 6)\n")
    print(
        f"before: commit {info['git_commit'][:12]}, engine {info['engine_digest'][:12]}, "
        f"recorded {info['recorded_utc']} UTC, >= {info['hands_at_least']:,} hands a case  \n"
        f"after: commit {now['git_commit'][:12]}, engine {now['engine_digest'][:12]}, "
        f">= {hands:,} hands a case, seed {seed}, {seconds:.0f} s\n"
    )
    print(markdown(tables, missing, before, after))
    return 0 if passed(tables, missing) else 1


if __name__ == "__main__":
    sys.exit(main())
