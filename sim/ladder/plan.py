"""What a ladder plays: every pair of bots on mirrored common deals, as an ordinary experiment.

A ladder of one variant at ``players`` seats is the experiment (docs/experiments.md) with one
rule set and, for each pair of bots ``(a, b)``, the line-ups that seat them equally:

* an even table: ``[a, b]``, the two bots alternating round the table (at 4 players a, b,
  a, b; in a partnership game the two teams);
* an odd table: ``[a, b, a, ...]`` and ``[b, a, b, ...]``, one bot on the extra seat in
  each, so that over the two each bot holds as many seats.

It is played in whole games with ``mirror = true``: every game once per seat rotation, so
every bot gets every seat's cards (docs/experiments.md, "Mirrored deals"). A variant whose
deal does not pass left (a winner who deals next) is played with ``dealer_rotation =
"left"``, which the ladder says, since mirrored deals need it.

The plan is written as a file (``OUT/ladder-<variant>-<players>p.toml``) and run by the
runner, so a ladder resumes, is deterministic, and runs on the local or the Dask backend
like ``rummysim run``; ``rummysim report`` reads its dataset like any other.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

from sim.engine.rows import MC_BOTS
from sim.rules import ConfigError, Rules, load_variant
from sim.rules.errors import show
from sim.rules.loader import toml_value, variants_dir
from sim.rules.model import bots_for
from sim.runner.experiment import check_bots_fit, experiments_dir, lineup_bots

DEFAULT_GAMES = 2_000
"""Games per pair (each played once per seat rotation)."""
DEFAULT_SEED = 20261206


def fitting_bots(rules: Rules, bots: Sequence[str] | None, name: str) -> list[str]:
    """The ladder's bots: ``bots`` checked (known, each fitting the rule set, no repeats, at
    least two), or, when None, every bot that plays the rule set (``bots_for``) but the
    Monte Carlo ones (``rows.MC_BOTS``: hundreds of times slower, played when named)."""
    if bots is None:
        return [b for b in bots_for(rules.family) if b not in MC_BOTS]
    out = lineup_bots(list(bots), "bots")
    if len(set(out)) != len(out):
        raise ConfigError(f"{show(','.join(out))} names a bot twice", key="bots")
    if len(out) < 2:
        raise ConfigError("a ladder needs at least two bots", key="bots", allowed="a,b[,c...]")
    check_bots_fit(tuple(out), rules, name, "bots")
    return out


def pair_lineups(a: str, b: str, players: int) -> list[list[str]]:
    """The line-ups that seat ``a`` and ``b`` equally at ``players`` seats (module docstring)."""
    if players % 2 == 0:
        return [[a, b]]
    return [[(a, b)[i % 2] for i in range(players)], [(b, a)[i % 2] for i in range(players)]]


def ladder_name(variant: str, players: int) -> str:
    """The ladder's experiment (and dataset folder) name."""
    return f"ladder-{variant}-{players}p"


def ladder_text(
    variant: str,
    players: int,
    bots: Sequence[str] | None = None,
    *,
    games: int = DEFAULT_GAMES,
    seed: int = DEFAULT_SEED,
    shard_size: int | None = None,
) -> str:
    """The experiment file of the ladder of ``variant`` at ``players`` seats (a name of
    configs/variants/ or a path); ``shard_size``: games per shard (each played in every
    seating), default the runner's. ConfigError for an unknown variant, a player count it
    does not allow, or bots that do not fit it."""
    rules = load_variant(variant)
    if players not in rules.player_counts:
        raise ConfigError(
            f"{players} players is not allowed in {show(variant)}", key="players",
            allowed=", ".join(map(str, rules.player_counts)),
        )  # fmt: skip
    if games < 1:
        raise ConfigError(f"{show(games)} is not allowed", key="games", allowed=">= 1")
    chosen = fitting_bots(rules, bots, variant)
    pairs = itertools.combinations(chosen, 2)
    lineups = [lineup for a, b in pairs for lineup in pair_lineups(a, b, players)]
    name = ladder_name(rules.name, players)
    arm = {"name": rules.name, "variant": str(variant)}
    if rules.dealer_rotation != "left":  # mirrored deals need it (module docstring)
        arm["rules"] = {"dealer_rotation": "left"}
    about = f"Bot ladder: {', '.join(chosen)} in {rules.name} at {players} players"
    head = {"name": name, "description": about + ", every pair on mirrored deals",
            "seed": seed, "games": games, "mirror": True, "players": [players],
            "baseline": rules.name}  # fmt: skip
    if shard_size is not None:
        head["shard_size"] = shard_size  # checked where the experiment is read
    return toml_text(head) + "\n[[arms]]\n" + toml_text(arm | {"lineups": lineups})


def toml_text(table: dict) -> str:
    """A flat TOML table, one ``key = value`` line each (``toml_value``)."""
    return "".join(f"{key} = {toml_value(value)}\n" for key, value in table.items())


LADDER_BOTS = ("random", "greedy", "careful", "camper", "simple")
"""The bots of the shipped ladder of every variant (configs/experiments/ladder.toml), each
where it fits (``simple`` in the knock families only): the styles of play, not the
restricted-play bots (docs/bots.md), which measure a decision rather than a style. Where
camper's style does not apply (docs/bots.md: all at once, Tonk, Phỏm, Conquian, Nowrang)
it plays as careful, and their pair is an A/A check."""
LADDER_GAMES = 1_000
"""Games per pair and table in the shipped ladder: within its time budget (below)."""
LADDER_HEADER = """\
# Every variant's bot ladder at 2 players and at 4 where the variant allows 4: every pair
# of the bots that fit it, on mirrored deals. Written by `python -m sim.ladder.plan` (do not
# edit: tests/ladder checks it is what that writes). Run: `rummysim ladder ladder`.
# Time budget: about 30 minutes on 2 cores (docs/ladder.md has the measured figure).
# Not here: gin_rummy_3p (3 players only, and a loser who sits out cannot be mirrored).
"""


def shipped_ladder_text(variants_dir: Path, games: int = LADDER_GAMES) -> str:
    """configs/experiments/ladder.toml: one rule set per variant of ``variants_dir`` (presets,
    ``name@preset``, left out), at 2 and 4 players where allowed, with the pairs of
    :data:`LADDER_BOTS` that fit it; a variant whose deal does not pass left is played with
    ``dealer_rotation = "left"`` (mirrored deals need it)."""
    head = {"name": "ladder", "description": "Every variant's bot ladder (rummysim ladder "
            "ladder): every pair of bots at 2 players, and at 4 where allowed",
            "seed": DEFAULT_SEED, "games": games, "mirror": True, "players": [2],
            "baseline": "rummy_basic"}  # fmt: skip
    text = LADDER_HEADER + toml_text(head)
    for path in sorted(variants_dir.glob("*.toml")):
        rules = load_variant(path.stem)
        counts = [k for k in (2, 4) if k in rules.player_counts]
        if "@" in path.stem or not counts or rules.dealer_rotation == "loser_sits_out":
            continue
        bots = fitting_bots(rules, None, path.stem)
        bots = [b for b in LADDER_BOTS if b in bots]
        pairs = list(itertools.combinations(bots, 2))
        arm = {"name": rules.name, "variant": path.stem, "players": counts,
               "baseline": rules.name}  # fmt: skip
        if rules.dealer_rotation != "left":
            arm["rules"] = {"dealer_rotation": "left"}
        arm["lineups"] = [list(pair) for pair in pairs]  # [a, b] fits 2 and 4 seats alike
        text += "\n[[arms]]\n" + toml_text(arm)
    return text


if __name__ == "__main__":  # python -m sim.ladder.plan: write configs/experiments/ladder.toml
    (experiments_dir() / "ladder.toml").write_text(shipped_ladder_text(variants_dir()))
