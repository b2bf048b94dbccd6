"""How the bots play the wild-card games, with audit mode on (issue #31's bar; docs/bots.md,
"The initial meld"): for every variant named, table size and bot, the hands without a
result, the audit's violations, how often each hand ends each way (``ends_pct``: the
outcome mix, the chip games' settlements included), how often each seat lays down a meld
(makes his initial meld, where there is one), the melds a hand and the joker slides.

    python -m tests.engine.bot_sweep [--hands H] [--workers W] VARIANT...

One JSON line per case; exit code 1 when any case counts a violation or leaves more than 2%
of its hands without a result (stalled or exhausted; Conquian's drawn hand, which raises
the next hand's stake, is a result) with greedy or careful (a defect, not a result). Each
case plays ``--hands`` hands in chunks of 2,000 with the event log on, seeds 1000, 1001,
... (one a chunk).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

CHUNK = 2000
EVENTS_PER_HAND = 400  # event rows a chunk may need per hand (a 6-player hand logs ~250)
MAX_STALLED_PCT = 2.0  # greedy and careful (issue #31's bar)


def sweep_case(case: tuple[str, int, str, int]) -> dict:
    """Play one case (variant, players, bot, hands) and count what the module says."""
    from sim.bench import parse_bots
    from sim.engine import rows as R
    from sim.engine import state as S
    from sim.engine.api import compile_rules, play
    from sim.rules import load_variant

    variant, players, bot, hands = case
    rules = load_variant(variant)
    params, values = compile_rules(rules, players, audit=True)
    # Conquian's drawn hand is a result: the next hand is worth one tento more (§3.21)
    drawn_counts = rules.stock_exhaustion == "drawn_hand_carry"
    bots = np.asarray(parse_bots(bot, players), np.int64)
    done = stalled = violations = melds = slides = borrows = 0
    ends = np.zeros(len(R.REASON_NAMES), np.int64)
    opened = np.zeros(players, np.int64)
    start = time.perf_counter()
    chunk = 0
    while done < hands:
        n = min(CHUNK, hands - done)
        out = play(params, values, bots, seed=1000 + chunk, hands=n, events=n * EVENTS_PER_HAND)
        chunk += 1
        rows = out.hand_rows
        done += len(rows)
        stalled += int((rows[:, R.H_END_REASON] == R.REASON_STALLED).sum())
        ends += np.bincount(rows[:, R.H_END_REASON], minlength=len(ends))
        violations += int(out.counters[R.C_VIOLATIONS])
        kinds, seats = out.events[:, S.EV_TYPE], out.events[:, S.EV_SEAT]
        hand = np.cumsum((kinds == S.E_DEAL) & (seats == 0))  # each hand deals seat 0 once
        if hand[-1] != len(rows):
            raise RuntimeError(f"{variant}: the event log lost hands (raise EVENTS_PER_HAND)")
        laid = kinds == S.E_MELD
        melds += int(laid.sum())
        slides += int((kinds == S.E_SLIDE).sum())
        borrows += int((kinds == S.E_BORROW).sum())
        for _, seat in set(zip(hand[laid].tolist(), seats[laid].tolist(), strict=True)):
            opened[seat] += 1
    return {
        "variant": variant,
        "players": players,
        "bot": bot,
        "hands": done,
        "stalled_pct": round(100 * stalled / done, 3),
        "no_result_pct": round(
            100 * (stalled + (0 if drawn_counts else ends[R.REASON_EXHAUSTED])) / done, 3
        ),
        "ends_pct": {
            name: round(100 * int(n) / done, 2)
            for name, n in zip(R.REASON_NAMES, ends, strict=True)
            if n
        },
        "violations": violations,
        "opened_pct": [round(100 * o / done, 1) for o in opened.tolist()],
        "melds_per_hand": round(melds / done, 2),
        "slides": slides,
        "borrows": borrows,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--hands", type=int, default=100_000, help="hands a case")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from multiprocess import Pool

    from sim.rules import load_variant

    cases = [
        (variant, players, bot, args.hands)
        for variant in args.variants
        for players in load_variant(variant).player_counts
        for bot in ("random", "greedy", "careful")
    ]
    bad = 0
    with Pool(args.workers) as pool:
        for result in pool.imap(sweep_case, cases):
            print(json.dumps(result), flush=True)
            too_many = result["bot"] != "random" and result["no_result_pct"] > MAX_STALLED_PCT
            bad += result["violations"] > 0 or too_many
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
