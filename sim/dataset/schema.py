"""The dataset schema, defined once: the columns of the hands and games tables.

Every Parquet file of a dataset is built here, from the arrays the kernels fill
(:class:`sim.engine.api.Played`) plus the shard's identity. ``docs/schema.md`` documents
the same columns for readers; a test checks the two agree.

The Hive partition key ``arm`` is not stored inside the files: readers add it from the
folder name ``arm=<name>`` (polars ``hive_partitioning``, pyarrow ``partitioning="hive"``,
duckdb ``hive_partitioning=true``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from sim.engine import rows as R
from sim.rules.diff import resolved_settings
from sim.rules.model import Rules

if TYPE_CHECKING:  # the report reads datasets without loading the engine's kernels
    from sim.engine.api import Played

SCHEMA_VERSION = 8
"""2: ``hands.points`` and ``games.comeback`` added (derived from the scores, for readers that
need not decode the score lists). 3: ``comeback`` read from the running totals, not the final
scores (which in gin carry the bonuses added after the last hand). 4: ``rules.parquet``, each
arm's resolved rules (:data:`RULES_COLUMNS`); the hands and games tables are as in 3.
5: ``hands.melds``, ``hands.layoffs`` and ``hands.rebuilds``, the per-hand action counts a
time-at-the-table model needs; the other columns are as in 4. 6: ``end_reason`` gains the
chip games' endings (``tonk``, ``drop``, ``caught``, ``stock_out``, ``redeal``; Tonk,
RULES.md §3.22), whose ``scores`` are chips won and paid; the columns are as in 5. 7:
``end_reason`` gains Phỏm's endings (``went_u``, ``showdown``; RULES.md §3.13), scored in
chips as well; the columns are as in 6. 8: ``hands.mom_seats``, the seats that were móm at
Phỏm's showdown (RULES.md §3.13), so that the settlement kinds are all in the table; the other
columns are as in 7."""

READABLE_VERSIONS = frozenset({5, 6, 7, SCHEMA_VERSION})
"""Schema versions the report reads: versions 5 to 7 differ from 8 only in the end reasons
they can hold and in lacking ``mom_seats``, which the report does not read. Versions 3 and
4 lack the action counts every report's minutes at the table are made of
(``sim.dataset.timing``), so they are refused as older (run the experiment again); version
1 lacks ``points`` and ``comeback``; version 2's ``comeback`` is wrong for gin (read from
the final scores, which carry the bonuses), so it is known-bad; a higher version was
written by a newer rummysim."""

KNOWN_BAD_VERSIONS = {2: "its comeback column is wrong for gin (fixed in version 3)"}
"""Versions that exist but must not be reported on, with why."""


def schema_version_problem(version: object) -> str | None:
    """Why a dataset of schema ``version`` cannot be reported on, or None if it can: the
    reader's version policy (:data:`READABLE_VERSIONS`). A dataset without a manifest has no
    recorded version; its Parquet columns are checked instead."""
    if version in READABLE_VERSIONS and isinstance(version, int):
        return None
    if isinstance(version, int) and not isinstance(version, bool) and version in KNOWN_BAD_VERSIONS:
        return f"schema version {version} is known to be bad: {KNOWN_BAD_VERSIONS[version]}"
    if isinstance(version, int) and not isinstance(version, bool) and 1 <= version < SCHEMA_VERSION:
        return f"schema version {version} is older than this rummysim reads ({_readable()})"
    return f"unknown schema version {version!r} (this rummysim reads {_readable()})"


def _readable() -> str:
    return ", ".join(str(v) for v in sorted(READABLE_VERSIONS))


END_REASONS = R.REASON_NAMES
"""Values of ``hands.end_reason``, in the kernels' code order."""

_REASON_TYPE = pa.dictionary(pa.int8(), pa.string())
_SCORES = pa.list_(pa.int32())
_BOTS = pa.list_(pa.string())

# (name, type, meaning): the single source for the schemas and docs/schema.md
SHARD_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("ruleset", pa.string(), "the arm's rule set: its name in the experiment file"),
    ("variant", pa.string(), "the variant file the rule set starts from"),
    ("players", pa.int8(), "seats at the table"),
    ("lineup", pa.string(), "the bots by seat, comma-separated (`greedy,careful`)"),
    ("seed", pa.int64(), "the experiment seed"),
    ("shard", pa.int32(), "shard number; deals of shard s are the same in every arm"),
    ("rotation", pa.int8(), "seat rotation of a mirrored deal (0 when deals are not mirrored)"),
)

HAND_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = SHARD_COLUMNS + (
    ("game", pa.int64(), "game number within the shard"),
    ("hand", pa.int32(), "hand number within its game, from 0"),
    ("deal", pa.int64(), "deal number within the shard: (seed, shard, deal) fixes the shuffle"),
    ("dealer", pa.int8(), "the dealer's seat"),
    ("bots", _BOTS, "bot at each seat"),
    ("turns", pa.int32(), "turns played in the hand"),
    ("draws_stock", pa.int32(), "draws from the stock"),
    ("draws_discard", pa.int32(), "draws from the discard pile"),
    ("melds", pa.int32(), "melds laid down (a knock-family showdown's included)"),
    ("layoffs", pa.int32(), "cards laid off (a showdown's and Call Rummy's calls included)"),
    ("rebuilds", pa.int32(), "times the stock was rebuilt from the discard pile (§2F)"),
    ("end_reason", _REASON_TYPE, "how the hand ended: " + ", ".join(END_REASONS)),
    ("winner", pa.int8(), "seat that won the hand, or -1 (stalled, exhausted, void, tie)"),
    ("hand_scores", _SCORES, "points each seat scored in this hand"),
    ("total_scores", _SCORES, "each seat's game total after this hand (toward the target)"),
    (
        "side_scores",
        _SCORES,
        "side bonuses each seat earned in this hand (Oklahoma gin's undercut and gin extras, "
        "§2I.39): counted in `final_scores`, not toward the target; 0 elsewhere",
    ),
    (
        "points",
        pa.int32(),
        "points that changed hands: the sum of the sides' absolute `hand_scores` (what the "
        "winner takes; under penalty scoring, the penalties paid); partnership gin: the two "
        "teams'",
    ),
    (
        "mom_seats",
        pa.int16(),
        "Phỏm: the seats that showed no meld at the showdown (móm, §3.13), as a bitmask (bit "
        "s: seat s; the winner's too when every seat was móm); 0 in every other hand and "
        "variant",
    ),
    ("violations", pa.int32(), "audit violations in this hand (0 unless run in audit mode)"),
)

GAME_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = SHARD_COLUMNS + (
    ("game", pa.int64(), "game number within the shard"),
    ("hands", pa.int32(), "hands the game lasted"),
    ("bots", _BOTS, "bot at each seat"),
    (
        "winner",
        pa.int8(),
        "seat that won the game, or -1 (tie cut by the hand cap); partnership gin: the "
        "team's first seat (0: seats 0 and 2, 1: seats 1 and 3)",
    ),
    (
        "final_scores",
        _SCORES,
        "each seat's total at the end of the game, with gin's game, box and side bonuses",
    ),
    ("lead_changes", pa.int32(), "times the unique leader changed during the game"),
    ("capped", pa.bool_(), "the game hit the hand cap"),
    (
        "comeback",
        pa.bool_(),
        "the winner had fewer points than another side before the game's last hand (that "
        "hand's `total_scores` minus its `hand_scores`: gin's bonuses do not count); false "
        "when nobody won",
    ),
)

DELTA_COLUMNS = ("game", "hand", "deal")
"""Counting columns stored with Parquet's delta encoding (a third smaller files, as fast)."""

HANDS_SCHEMA = pa.schema([(name, kind) for name, kind, _ in HAND_COLUMNS])
GAMES_SCHEMA = pa.schema([(name, kind) for name, kind, _ in GAME_COLUMNS])


@dataclass(frozen=True)
class ShardId:
    """What identifies the rows of one shard: the arm's rule set, table and seed."""

    ruleset: str
    variant: str
    players: int
    bots: tuple[str, ...]
    seed: int
    shard: int
    rotation: int = 0

    @property
    def lineup(self) -> str:
        return ",".join(self.bots)


def _shard_arrays(sid: ShardId, n: int) -> list[pa.Array]:
    return [
        pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), [sid.ruleset]).cast(pa.string()),
        pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), [sid.variant]).cast(pa.string()),
        pa.array(np.full(n, sid.players, np.int8)),
        pa.DictionaryArray.from_arrays(np.zeros(n, np.int8), [sid.lineup]).cast(pa.string()),
        pa.array(np.full(n, sid.seed, np.int64)),
        pa.array(np.full(n, sid.shard, np.int32)),
        pa.array(np.full(n, sid.rotation, np.int8)),
    ]


def _per_seat(values: np.ndarray) -> pa.Array:
    """int64[n, players] to a list<int32> column without a Python loop."""
    n, players = values.shape
    offsets = pa.array(np.arange(0, (n + 1) * players, players, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(values.reshape(-1).astype(np.int32)))


def _bots(sid: ShardId, n: int) -> pa.Array:
    """The line-up, the same on every row, as a list<string> column. The names are built as
    dictionary indices and cast once (a million rows: ~0.03 s, against ~0.3 s for a Python
    list of n * players strings); the Parquet bytes are the same."""
    players = len(sid.bots)
    offsets = pa.array(np.arange(0, (n + 1) * players, players, dtype=np.int32))
    seats = np.tile(np.arange(players, dtype=np.int32), n)
    names = pa.DictionaryArray.from_arrays(seats, pa.array(list(sid.bots), pa.string()))
    return pa.ListArray.from_arrays(offsets, names.cast(pa.string()))


def _sides(out: Played, teams: bool) -> int:
    """Score columns that are sides: every seat's, or the two teams' (partnership gin keeps a
    team's score in both partners' columns; seat 0 is team A, seat 1 team B)."""
    return 2 if teams else out.hand_scores.shape[1]


def hand_points(out: Played, teams: bool = False) -> np.ndarray:
    """Each hand's ``points``: the sum of its sides' absolute scores."""
    return np.abs(out.hand_scores[:, : _sides(out, teams)]).sum(axis=1)


def comebacks(out: Played, teams: bool = False) -> np.ndarray:
    """Each game's ``comeback``: its winner had fewer points than another side before its
    last hand, by the running totals that count toward the game's end (``total_scores``
    minus the last hand's ``hand_scores``; not the final scores, which in gin add the game,
    box and side bonuses after the last hand, §3.17). A call's hands are its games' hands in
    order (each game from hand 0), so game ``g``'s last hand is row
    ``hands[0] + ... + hands[g] - 1``."""
    width = _sides(out, teams)
    n = len(out.game_rows)
    if n == 0:
        return np.zeros(0, bool)
    last = np.cumsum(out.game_rows[:, R.G_HANDS]) - 1
    before = out.hand_totals[last, :width] - out.hand_scores[last, :width]
    winner = out.game_rows[:, R.G_WINNER]
    valid = (winner >= 0) & (winner < width)
    mine = before[np.arange(n), np.clip(winner, 0, width - 1)]
    return valid & (mine < before.max(axis=1))


def hands_table(out: Played, sid: ShardId, *, teams: bool = False) -> pa.Table:
    """The hands rows of one kernel call as a table of :data:`HANDS_SCHEMA` (``teams``: the
    table plays in partnerships, RULES.md §3.19)."""
    rows = out.hand_rows
    n = len(rows)
    reasons = pa.DictionaryArray.from_arrays(
        pa.array(rows[:, R.H_END_REASON].astype(np.int8)), pa.array(END_REASONS, pa.string())
    )
    arrays = _shard_arrays(sid, n) + [
        pa.array(rows[:, R.H_GAME]),
        pa.array(rows[:, R.H_HAND].astype(np.int32)),
        pa.array(rows[:, R.H_DEAL]),
        pa.array(rows[:, R.H_DEALER].astype(np.int8)),
        _bots(sid, n),
        pa.array(rows[:, R.H_TURNS].astype(np.int32)),
        pa.array(rows[:, R.H_DRAWS_STOCK].astype(np.int32)),
        pa.array(rows[:, R.H_DRAWS_DISCARD].astype(np.int32)),
        pa.array(rows[:, R.H_MELDS].astype(np.int32)),
        pa.array(rows[:, R.H_LAYOFFS].astype(np.int32)),
        pa.array(rows[:, R.H_REBUILDS].astype(np.int32)),
        reasons,
        pa.array(rows[:, R.H_WINNER].astype(np.int8)),
        _per_seat(out.hand_scores),
        _per_seat(out.hand_totals),
        _per_seat(out.hand_side),
        pa.array(hand_points(out, teams).astype(np.int32)),
        pa.array(rows[:, R.H_MOM_SEATS].astype(np.int16)),
        pa.array(rows[:, R.H_VIOLATIONS].astype(np.int32)),
    ]
    return pa.Table.from_arrays(arrays, schema=HANDS_SCHEMA)


def games_table(out: Played, sid: ShardId, *, teams: bool = False) -> pa.Table:
    """The games rows of one kernel call (which holds every hand of its games) as a table of
    :data:`GAMES_SCHEMA` (``teams``: the table plays in partnerships, RULES.md §3.19)."""
    rows = out.game_rows
    n = len(rows)
    arrays = _shard_arrays(sid, n) + [
        pa.array(rows[:, R.G_GAME]),
        pa.array(rows[:, R.G_HANDS].astype(np.int32)),
        _bots(sid, n),
        pa.array(rows[:, R.G_WINNER].astype(np.int8)),
        _per_seat(out.game_scores),
        pa.array(rows[:, R.G_LEAD_CHANGES].astype(np.int32)),
        pa.array(rows[:, R.G_CAPPED].astype(bool)),
        pa.array(comebacks(out, teams)),
    ]
    return pa.Table.from_arrays(arrays, schema=GAMES_SCHEMA)


RULES_FILE = "rules.parquet"
"""The dataset's table of every arm's resolved rules, at the dataset's root."""

RULES_COLUMNS: tuple[tuple[str, pa.DataType, str], ...] = (
    ("arm", pa.string(), "the arm (as the `arm` of the hands and games tables)"),
    (
        "setting",
        pa.string(),
        "a rule setting: a toggle of RULES.md §2, or `family`, "
        "`hand_size`, `packs` (the arm's table)",
    ),
    ("section", pa.string(), "its RULES.md section"),
    (
        "value",
        pa.string(),
        "its value in the arm, resolved (`ace_points` as points, never `auto`; switches as on/off)",
    ),
    ("baseline_value", pa.string(), "its value in the arm's baseline arm"),
    ("changed", pa.bool_(), "the arm differs from its baseline in this setting"),
)
"""One row per arm and rule setting (``sim.rules.diff.resolved_settings``): join it to the
hands or games on ``arm`` to ask "what did this arm change?" in one's own analysis."""

RULES_SCHEMA = pa.schema([(name, kind) for name, kind, _ in RULES_COLUMNS])


def rules_table(arms: list[tuple[str, int, Rules, Rules]]) -> pa.Table:
    """The rules table of ``arms``: (arm name, players, its rules, its baseline's rules)."""
    columns: dict[str, list] = {name: [] for name, _, _ in RULES_COLUMNS}
    for name, players, rules, baseline in arms:
        base = resolved_settings(baseline, players)
        for setting, (section, value) in resolved_settings(rules, players).items():
            columns["arm"].append(name)
            columns["setting"].append(setting)
            columns["section"].append(section)
            columns["value"].append(value)
            columns["baseline_value"].append(base[setting][1])
            columns["changed"].append(value != base[setting][1])
    return pa.Table.from_pydict(columns, schema=RULES_SCHEMA)


def markdown_table(columns: tuple[tuple[str, pa.DataType, str], ...]) -> str:
    """The columns as a Markdown table (docs/schema.md is checked against this)."""
    lines = ["| column | type | meaning |", "|---|---|---|"]
    for name, kind, meaning in columns:
        lines.append(f"| `{name}` | {kind} | {meaning} |")
    return "\n".join(lines)
