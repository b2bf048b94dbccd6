"""``python -m benchmarks.variants``: the README's table of every variant: its player counts,
the bots that play it, and its speed on one core (greedy at its smallest table), as Markdown.

Each variant plays ``RUMMYSIM_BENCH_VARIANT_HANDS`` hands (default 100,000; a tenth for the
slowest, Nowrang) after a warm-up hand, with the kernels already compiled (``make bench``
compiles them first: ``python -m sim.engine.precompile``).
"""

from __future__ import annotations

import os

from sim.bench import bench
from sim.engine.rows import BOT_NAMES
from sim.rules import load_variant
from sim.rules.loader import variants_dir
from sim.rules.model import bots_for

HANDS = int(os.environ.get("RUMMYSIM_BENCH_VARIANT_HANDS", "100000"))
SLOW = {"nowrang": 10, "continental": 100, "carousel_knock": 20}
"""Variants that play a fraction (1/n) of the hands, so the table takes minutes, not hours."""


def rows() -> list[tuple[str, str, str, str, int]]:
    """(variant, section, players, bots, hands/s) of every variant file but the presets."""
    out = []
    for path in sorted(variants_dir().glob("*.toml")):
        if "@" in path.stem:
            continue
        rules = load_variant(path.stem)
        players = min(rules.player_counts)
        bots = bots_for(rules.family)
        hands = HANDS // SLOW.get(path.stem, 1)
        bench(path.stem, players=players, bots="greedy", hands=1, workers=1)  # warm
        speed = bench(path.stem, players=players, bots="greedy", hands=hands, workers=1)
        counts = rules.player_counts
        shown = f"{counts[0]}–{counts[-1]}" if len(counts) > 1 else str(counts[0])
        left_out = [b for b in BOT_NAMES if b not in bots]
        shown_bots = "all" if not left_out else f"all but {', '.join(left_out)}"
        out.append((path.stem, rules.section, shown, shown_bots, int(speed["hands_per_s"])))
    return out


def main() -> None:
    print(f"| variant | RULES.md | players | bots (of {', '.join(BOT_NAMES)}) | "
          "hands/s (one core, greedy, fewest players) |")  # fmt: skip
    print("|---|---|---|---|---|")
    for variant, section, players, bots, speed in rows():
        print(f"| {variant} | §{section} | {players} | {bots} | {speed:,} |", flush=True)


if __name__ == "__main__":
    main()
