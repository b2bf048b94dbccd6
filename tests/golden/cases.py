"""The golden cases, derived from the variant files: each variant at its lowest and highest
player count, with one bot at every seat (greedy, random, and ``simple`` in the knock
families), for :data:`SEEDS`. :func:`text` produces a case's transcript exactly as
``rummysim replay VARIANT --players P --bots B --seed S`` prints it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from sim.rules import list_variants, load_variant
from sim.rules.model import KNOCK_FAMILIES

TRANSCRIPTS = Path(__file__).resolve().parent / "transcripts"
"""Where the golden transcripts are kept, one file per case."""

SEEDS = (1, 2)
"""The experiment seeds of each case (deal 0 of each)."""

BOTS = ("greedy", "random")
KNOCK_BOTS = (*BOTS, "simple")
"""The bots of a case, one at every seat; ``simple`` plays only the knock families."""


@dataclass(frozen=True)
class Case:
    """One replayed hand: ``rummysim replay variant --players --bots --seed``."""

    variant: str
    players: int
    bots: str
    seed: int

    @property
    def name(self) -> str:
        return f"{self.variant}__p{self.players}__{self.bots}__s{self.seed}"

    @property
    def path(self) -> Path:
        return TRANSCRIPTS / f"{self.name}.txt"


@cache
def variant_names() -> tuple[str, ...]:
    """Every variant file's name, as ``rummysim variants`` lists them."""
    return tuple(name for name, _ in list_variants())


@cache
def cases() -> tuple[Case, ...]:
    """Every golden case, in a fixed order."""
    out = []
    for variant in variant_names():
        rules = load_variant(variant)
        low, high = rules.players
        bots = KNOCK_BOTS if rules.family in KNOCK_FAMILIES else BOTS
        for players in sorted({low, high}):
            for bot in bots:
                for seed in SEEDS:
                    out.append(Case(variant, players, bot, seed))
    return tuple(out)


def text(case: Case) -> str:
    """The case's transcript, as ``rummysim replay`` prints it (with its final newline)."""
    from sim.bench import parse_bots
    from sim.replay import transcript

    rules = load_variant(case.variant)
    codes = parse_bots(case.bots, case.players)
    return transcript(rules, case.players, codes, seed=case.seed) + "\n"
