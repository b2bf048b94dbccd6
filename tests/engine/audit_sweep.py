"""A long audit sweep, beyond what ``make test`` runs: ``make audit-sweep``.

Audit mode (docs/engine.md) over many random rule sets of standard rummy, every variant
file x player count x line-up, random knock-family rule sets, random all_at_once rule sets
random Phỏm rule sets and random Continental rule sets, each with its own seeds.
Every hand with a violation or beyond the turn cap is printed with its rules, seats and
seed, so it can be replayed; the exit code is 1 when there was any. The test suite's sweep
(tests/engine/test_audit.py) plays ~25,000 hands of random rules; rare defects need more
(one in ~400,000 hands of the old engine showed a defect), hence this longer one.

    python -m tests.engine.audit_sweep [--rule-sets N] [--hands H] [--seed S] [--draw-hands D]
    python -m tests.engine.audit_sweep --every-count 10000 [--seed S] [--only REGEX]

``--draw-hands D`` also plays ``DRAW_CASES`` (Throw Down, top_plus_one) with each bot for D
hands a case and prints their stalled shares. ``--every-count HANDS`` plays, instead, every
variant file at every player count with each bot alone (issue #29's audit bar: 10,000 hands;
~20 min on one core); ``--only REGEX`` limits it to the variant files whose name the
regular expression matches from its start (``--only "tonk|phom|conquian"``: a later issue's
variants at 100,000 hands, without replaying every file).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time

import numpy as np

from sim.engine import layout as P
from sim.engine import rows as L
from sim.engine.api import play
from sim.rules import list_variants, load_variant
from tests.engine.test_audit import (
    HANDS,
    _cases,
    _lineups,
    _random_rules,
    compile_rules,
    random_all_at_once_rules,
    random_continental_rules,
    random_knock_rules,
    random_phom_rules,
)


def _bad_hands(out, params) -> np.ndarray:
    """Rows of hands with a violation or more turns than the cap."""
    rows = out.hand_rows
    return np.nonzero((rows[:, L.H_VIOLATIONS] > 0) | (rows[:, L.H_TURNS] > params[P.P_TURN_CAP]))[
        0
    ]


def _report(what: str, out, params, seed: int) -> int:
    bad = _bad_hands(out, params)
    for i in bad:
        row = out.hand_rows[i]
        print(
            f"VIOLATION {what} seed={seed} game={row[L.H_GAME]} hand={row[L.H_HAND]} "
            f"deal={row[L.H_DEAL]} violations={row[L.H_VIOLATIONS]} turns={row[L.H_TURNS]}",
            flush=True,
        )
    return len(bad)


def sweep_rummy(rule_sets: int, hands: int, seed: int) -> int:
    """Random rule sets of standard rummy (test_audit's choices), random seats."""
    rng = random.Random(seed)
    found = 0
    for i in range(rule_sets):
        compiled, overrides = _random_rules(rng)
        seats = [
            rng.choice([L.BOT_RANDOM, L.BOT_GREEDY, L.BOT_CAREFUL]) for _ in range(compiled.players)
        ]
        out = play(
            compiled.params, compiled.card_values, np.array(seats), seed=seed + i, hands=hands
        )
        found += _report(f"rummy {overrides} seats={seats}", out, compiled.params, seed + i)
    return found


def sweep_variants(scale: int, seed: int) -> int:
    """Every variant file x player count x line-up, ``scale`` times test_audit's hands."""
    found = 0
    for variant, players, lineup in _cases():
        rules = load_variant(variant)
        compiled = compile_rules(rules, players, audit=True)
        seats = (_lineups(rules)[lineup] * players)[:players]
        out = play(
            compiled.params,
            compiled.card_values,
            np.array(seats),
            seed=seed,
            hands=HANDS[lineup] * scale,
        )
        found += _report(f"{variant} players={players} {lineup}", out, compiled.params, seed)
    return found


def sweep_every_count(hands: int, seed: int, only: str | None = None) -> int:
    """Issue #29's audit bar: every variant file (or those whose name ``only`` matches from
    its start) at every player count it allows (not only ``_table_sizes``' ends) with each
    bot alone at every seat, ``hands`` hands a case; prints each case's stalled share."""
    found = 0
    pattern = re.compile(only) if only else None
    variants = [name for name, _ in list_variants() if pattern is None or pattern.match(name)]
    if not variants:
        raise SystemExit(f"--only {only!r} matches no variant file")
    for variant in variants:
        rules = load_variant(variant)
        for players in rules.player_counts:
            compiled = compile_rules(rules, players, audit=True)
            for lineup, bots in _lineups(rules).items():
                if lineup == "mixed":
                    continue
                seats = np.array((bots * players)[:players])
                what = f"{variant} players={players} {lineup}"
                found += _play_case(what, compiled, seats, hands, seed)
    return found


def _play_case(what: str, compiled, seats: np.ndarray, hands: int, seed: int) -> int:
    """Play ``hands`` hands of ``compiled`` with ``seats``, report its bad hands and print its
    violations and its stalled and exhausted shares; returns how many hands were bad."""
    out = play(compiled.params, compiled.card_values, seats, seed=seed, hands=hands)
    found = _report(what, out, compiled.params, seed)
    ended = out.hand_rows[:, L.H_END_REASON]
    print(
        f"{what}: {out.hands} hands, {int(out.counters[L.C_VIOLATIONS])} violations, "
        f"stalled {np.mean(ended == L.REASON_STALLED):.4f}, "
        f"exhausted {np.mean(ended == L.REASON_EXHAUSTED):.4f}",
        flush=True,
    )
    return found


def sweep_knock(rule_sets: int, hands: int, seed: int) -> int:
    """Random knock-family rule sets (test_audit's choices; half with runs of any suit)."""
    rng = random.Random(seed)
    found = 0
    done = 0
    while done < rule_sets:
        drawn = random_knock_rules(rng, "any_suit" if done % 2 else None)
        if drawn is None:
            continue
        overrides, compiled, seats = drawn
        out = play(
            compiled.params, compiled.card_values, np.array(seats), seed=seed + done, hands=hands
        )
        found += _report(f"knock {overrides} seats={seats}", out, compiled.params, seed + done)
        done += 1
    return found


DRAW_CASES = [("throw_down_rummy", {}, p) for p in range(2, 7)] + [
    ("rummy_basic", {"discard_draw": "top_plus_one"}, p) for p in (2, 4, 6)
]
"""The non-standard draws (RULES.md §2C.16): Throw Down at every player count, and Boat
House's draw on standard rummy, which no file uses yet."""


def sweep_draws(hands: int, seed: int) -> int:
    """``DRAW_CASES`` x one bot at every seat, ``hands`` hands each; prints each case's
    stalled share (the other bad hands as the other sweeps do)."""
    found = 0
    for variant, overrides, players in DRAW_CASES:
        rules = load_variant(variant, overrides or None)
        compiled = compile_rules(rules, players, audit=True)
        for bot in (L.BOT_RANDOM, L.BOT_GREEDY, L.BOT_CAREFUL):
            what = f"{variant} {overrides} players={players} {L.BOT_NAMES[bot]}"
            found += _play_case(what, compiled, np.full(players, bot), hands, seed)
    return found


def sweep_all_at_once(rule_sets: int, hands: int, seed: int, draw=None, label="all_at_once") -> int:
    """Random ``meld_timing = "all_at_once"`` rule sets (test_audit's choices), or those
    ``draw(rng)`` gives (``random_phom_rules``)."""
    rng = random.Random(seed)
    found = 0
    done = 0
    draw = draw or random_all_at_once_rules
    while done < rule_sets:
        drawn = draw(rng)
        if drawn is None:
            continue
        overrides, compiled, seats = drawn
        out = play(
            compiled.params, compiled.card_values, np.array(seats), seed=seed + done, hands=hands
        )
        what = f"{label} {overrides} seats={seats}"
        found += _report(what, out, compiled.params, seed + done)
        done += 1
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rule-sets", type=int, default=5000, help="random rummy rule sets")
    parser.add_argument("--hands", type=int, default=100, help="hands per rule set")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 1_000_000)
    parser.add_argument(
        "--draw-hands", type=int, default=0, help="hands per case of the draw sweep (0: none)"
    )
    parser.add_argument(
        "--every-count", type=int, default=0, metavar="HANDS",
        help="only every variant file x player count x bot, HANDS hands a case (#29's bar)",
    )  # fmt: skip
    parser.add_argument(
        "--only", default=None, metavar="REGEX",
        help="with --every-count: only the variant files whose name matches from its start",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.only is not None and not args.every_count:
        parser.error("--only limits --every-count; give --every-count HANDS with it")
    start = time.perf_counter()
    print(f"audit sweep, seed {args.seed}", flush=True)
    if args.every_count:
        found = sweep_every_count(args.every_count, args.seed, args.only)
        print(f"every count: {found} bad hands in {time.perf_counter() - start:.0f} s")
        return 1 if found else 0
    found = sweep_rummy(args.rule_sets, args.hands, args.seed)
    print(f"rummy: {args.rule_sets} rule sets x {args.hands} hands, {found} bad hands", flush=True)
    found += sweep_variants(10, args.seed)
    print(f"variant files: done, {found} bad hands so far", flush=True)
    found += sweep_knock(max(1, args.rule_sets // 5), args.hands, args.seed)
    print(f"knock family: done, {found} bad hands so far", flush=True)
    found += sweep_all_at_once(max(1, args.rule_sets // 10), args.hands, args.seed)
    found += sweep_all_at_once(
        max(1, args.rule_sets // 10), args.hands, args.seed, random_phom_rules, "phom"
    )
    found += sweep_all_at_once(
        max(1, args.rule_sets // 10), args.hands, args.seed, random_continental_rules,
        "continental",
    )  # fmt: skip
    if args.draw_hands:
        found += sweep_draws(args.draw_hands, args.seed)
    print(
        f"all_at_once, phom and draws: done; {found} bad hands in "
        f"{time.perf_counter() - start:.0f} s"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
