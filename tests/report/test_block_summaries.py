"""Block tables kept in the hands files' footers by the runner (sim.dataset.summaries): the report
reads them instead of the rows of hands and games, and must get exactly what the rows give; a
summary made another way (another block size, deals numbered per game), or damaged, is not
used."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.parquet as pq
import pytest

from sim.dataset import summaries as B
from sim.report import metrics as M
from sim.report.dataset import open_dataset
from sim.runner.experiment import load_experiment
from sim.runner.run import run_experiment
from tests.report.builder import charged_seconds

RUMMY = """\
name = "kept"
seed = 11
hands = 2500
shard_size = 1000
players = [2, 4]
lineups = ["greedy", ["careful", "greedy"]]
baseline = "basic"

[[arms]]
name = "basic"
variant = "rummy_basic"

[[arms]]
name = "around"
variant = "around_the_corner"
rules = { going_rummy = "double" }
"""

PARTNERS = """\
name = "partners"
seed = 4
hands = 1800
shard_size = 700
players = [4]
lineups = ["simple", ["careful", "simple"]]
baseline = "gin"

[[arms]]
name = "gin"
variant = "gin_rummy_4p"
"""


def _run(tmp: Path, text: str, workers: int = 2, **changes) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    path = tmp / "experiment.toml"
    lines = [f"{k} = {v}" for k, v in changes.items()]
    path.write_text(text.replace("[[arms]]", "\n".join(lines) + "\n[[arms]]", 1))
    return run_experiment(load_experiment(path), tmp / "data", workers=workers, fresh=True).root


IN_GAMES = RUMMY.replace("hands = 2500\nshard_size = 1000", "games = 150\nshard_size = 60")
MIRRORED = RUMMY.replace('baseline = "basic"', 'baseline = "basic"\nmirror = true')
MIRRORED_GAMES = IN_GAMES.replace('baseline = "basic"', 'baseline = "basic"\nmirror = true')


@pytest.fixture(
    scope="module",
    params=[RUMMY, PARTNERS, IN_GAMES, MIRRORED, MIRRORED_GAMES],
    ids=["rummy", "partners", "in-games", "mirrored", "mirrored-in-games"],
)
def kept(request, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp("kept"), request.param)


def _footers(root: Path) -> list[bytes | None]:
    paths = sorted((root / "hands").glob("arm=*/*.parquet"))
    return [(pq.read_metadata(p).metadata or {}).get(B.SUMMARY_KEY) for p in paths]


def _aggregate(root: Path, *, footers: bool) -> M.Aggregates:
    ds = open_dataset(root)
    if footers:
        return M.aggregate(ds)
    real = M._summarized
    try:
        M._summarized = lambda part, blocking, teams: False
        return M.aggregate(ds)
    finally:
        M._summarized = real


def _same(a: M.Aggregates, b: M.Aggregates) -> None:
    for f in fields(M.Aggregates):
        x, y = getattr(a, f.name), getattr(b, f.name)
        pairs = [(f"{f.name}[{k}]", x[k], y.get(k)) for k in x] if f.name == "hist" else []
        if f.name == "hist":
            assert set(x) == set(y), f.name
        for name, u, v in pairs or [(f.name, x, y)]:
            if hasattr(u, "equals"):
                assert u.schema == v.schema and u.equals(v), name
            else:
                assert u == v, name


def test_the_runner_keeps_every_shards_hand_blocks_and_they_are_what_the_rows_give(
    kept: Path,
) -> None:
    """Every hands file of a run counted in hands carries its shard's blocks, the report uses
    them (no rows read), and every table is the one reading the rows gives: sums, end
    reasons, seats, partnerships read as two teams,
    games and their histograms."""
    footers = _footers(kept)
    assert footers and all(footers)
    ds = open_dataset(kept)
    reads = []
    real = M._read
    M._read = lambda path, columns: reads.append(path) or real(path, columns)
    try:
        from_footers = M.aggregate(ds)
    finally:
        M._read = real
    assert reads == []  # no rows were read, of hands or games
    _same(from_footers, _aggregate(kept, footers=False))


def test_summaries_are_deterministic_whatever_the_workers(tmp_path: Path) -> None:
    two = _footers(_run(tmp_path / "a", RUMMY, workers=2))
    assert all(two) and two == _footers(_run(tmp_path / "b", RUMMY, workers=1))


def test_a_run_counted_in_games_blocks_hands_by_game_number(kept: Path) -> None:
    """A run counted in games plays as many games in every arm, not hands: its hands and games
    are blocked by game number, so every arm has about as many blocks (a mirrored one too:
    its deals are numbered per game, so blocks of deals are blocks of games)."""
    ds = open_dataset(kept)
    agg = M.aggregate(ds)
    counted = ds.manifest["experiment"]["unit"]
    mirrored = ds.manifest["experiment"]["mirror"]
    assert agg.by_game == (counted == "games" and not mirrored)
    assert agg.per_game_deals == mirrored
    if counted == "games":
        games = {a.name: 150 * (a.players if mirrored else 1) for a in ds.arms}
        assert agg.block == M.block_size(150)
        assert ("counted in games" in agg.blocks_text) != mirrored
        blocks = agg.hand_blocks.group_by("arm").len()
        # 150 games in shards of 60: blocks of game numbers 0, 1 | 2 ... per shard
        assert blocks["len"].n_unique() == 1
        assert agg.game_blocks.group_by("arm").agg(pl.col("n").sum())["n"].to_list() == [
            games[a] for a in sorted(games)
        ]


PLANNED = """\
name = "planned"
seed = 5
hands = 24000
shard_size = 10000
players = [2, 4]
lineups = ["greedy"]
baseline = "basic"
mirror = true

[[arms]]
name = "basic"
variant = "rummy_basic"

[[arms]]
name = "single"
variant = "rummy_basic"
rules = { game_end = "single_hand" }
"""


def test_a_mirrored_run_counted_in_hands_has_blocks_its_plan_fixed(tmp_path: Path) -> None:
    """A mirrored run's blocks are game numbers; counted in hands, the plan sizes them from
    the experiment alone, as if every game lasted ``MIRROR_HANDS_PER_GAME`` hands (no pilot
    simulation): the manifest keeps the size, every footer holds it, and the report reads no
    rows. An arm has as many blocks as its games in one rotation make (each block holds
    every rotation of its games), more than 400 for these short games, and the analysis
    merges them down to 400 in every arm alike."""
    from sim.runner.run import MIRROR_HANDS_PER_GAME

    root = _run(tmp_path, PLANNED)
    ds = open_dataset(root)
    games = {
        a.name: sum(p.rows for p in M._parts(root / "games")[a.name]) // a.players for a in ds.arms
    }
    planned = ds.manifest["report_blocks"]
    assert planned["stride"] == 1 << 20 and not planned["by_game"]
    assert planned["block"] == M.block_size(24000 // MIRROR_HANDS_PER_GAME)
    assert all(_footers(root))
    reads = []
    real = M._read
    M._read = lambda path, columns: reads.append(path) or real(path, columns)
    try:
        agg = M.aggregate(ds)
    finally:
        M._read = real
    assert not reads and agg.block == planned["block"] and agg.per_game_deals
    _same(agg, _aggregate(root, footers=False))
    blocks = dict(agg.hand_blocks.group_by("arm").len().iter_rows())
    shards = 3
    for arm, n in blocks.items():  # a block of every rotation's games, not one per rotation
        per_rotation = games[arm] / agg.block
        assert per_rotation - 1 <= n <= 1.1 * per_rotation + shards, arm
    assert min(blocks.values()) > B.BOOTSTRAP_BLOCKS  # games shorter than the plan's bound


def _record_files(root: Path) -> None:
    """Make the manifest agree with the files as this test left them (the report refuses a
    file whose SHA-256 differs): a rewritten file's digest recorded, a removed shard
    pending, as if the run had not reached it."""

    from sim.dataset.files import file_digest, shard_path

    path = root / "manifest.json"
    manifest = json.loads(path.read_text())
    for entry in manifest["shards"]:
        files = [shard_path(root, t, entry["arm"], entry["shard"]) for t in ("hands", "games")]
        if not all(f.exists() for f in files):
            entry["status"] = "pending"
            continue
        entry["hands_sha256"], entry["games_sha256"] = (file_digest(f) for f in files)
    path.write_text(json.dumps(manifest))


def test_a_summary_of_other_blocks_or_a_damaged_one_is_not_used(tmp_path: Path) -> None:
    """The report's blocks are the plan's (the manifest's ``report_blocks``): with another
    block size there, no summary fits and every row is read; with one shard of one arm gone,
    the plan's blocks stay and the footers are used. A summary that does not decode is read
    around too. Either way the tables are those of the rows."""
    root = _run(tmp_path, RUMMY)
    path = sorted((root / "hands").glob("arm=*/*.parquet"))[0]
    table = pq.read_table(path)
    value = pq.read_metadata(path).metadata[B.SUMMARY_KEY]
    header = B.summary_header(value)
    damaged = value[: len(value) - 40] + b"A" * 40
    with pq.ParquetWriter(path, table.schema) as writer:
        writer.write_table(table)
        writer.add_key_value_metadata({B.SUMMARY_KEY: damaged})
    _record_files(root)
    open_dataset(root)
    parts = M._parts(root / "hands")
    blocking = B.Blocking(
        header["block"], 1, header["seats"], tuple(header["known"]), False,
        tuple(header["seconds"]),
    )  # fmt: skip
    arm = path.parent.name.removeprefix("arm=")
    assert M._summarized(next(p for p in parts[arm] if p.path == path), blocking, False)
    with pytest.raises(B.SummaryError):
        B.read_summary(damaged)
    _same(_aggregate(root, footers=True), _aggregate(root, footers=False))
    # the last shard of one arm gone: the plan's blocks, read from the footers
    last = sorted((root / "hands").glob("arm=*/*.parquet"))[-1]
    last.unlink()
    (root / "games" / last.parent.name / last.name).unlink()
    _record_files(root)
    agg = _aggregate(root, footers=True)
    assert agg.block == header["block"]
    _same(agg, _aggregate(root, footers=False))
    # a plan of smaller blocks than the footers': every row is read
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["report_blocks"]["block"] = header["block"] // 2
    (root / "manifest.json").write_text(json.dumps(manifest))
    agg = _aggregate(root, footers=True)
    assert agg.block == header["block"] // 2
    _same(agg, _aggregate(root, footers=False))


def test_a_summary_holds_what_the_rows_of_its_shard_give_and_names_its_blocking(
    kept: Path,
) -> None:
    """Each hands file's footer is what its shard's rows give, table by table (hand and game
    blocks, the four histograms, a game in the block of its first deal), made again from the
    files byte for byte; its header says how it was made, and any other blocking is refused."""
    ds = open_dataset(kept)
    parts = M._parts(kept / "hands")
    for arm in ds.arms:
        for part in parts[arm.name]:
            value = part.summary
            header = B.summary_header(value)
            blocking = B.Blocking(
                header["block"],
                header["stride"],
                header["seats"],
                tuple(header["known"]),
                header["by_game"],
                tuple(header["seconds"]),
            )
            games_path = kept / "games" / part.path.parent.name / part.path.name
            hands, games = pq.read_table(part.path), pq.read_table(games_path)
            flags = {"teams": arm.teams}
            assert B.summary_for(hands, games, blocking, **flags) == value
            tables = B.read_summary(value)
            real = M._summarized
            try:  # the shard's tables made from its rows
                M._summarized = lambda part, blocking, teams: False
                rows = M._shard_tables(part, games_path, blocking, arm.teams)
            finally:
                M._summarized = real
            assert list(rows) == list(B.TABLES)
            for name, got in rows.items():
                want = tables[name]
                assert np.array_equal(got.shard, want.shard), name
                assert np.array_equal(got.block, want.block), name
                assert np.array_equal(got.columns, want.columns), name
            assert tables["hands"].columns[:, 0].sum() == hands.num_rows
            assert tables["games"].columns[:, 0].sum() == games.num_rows
            assert B.summary_fits(header, blocking, **flags)
            for other in (
                replace(blocking, block=blocking.block + 1),
                replace(blocking, stride=(1 << 20) + 1 - blocking.stride),
                replace(blocking, seats=blocking.seats + 1),
                replace(blocking, known=blocking.known[1:]),
                replace(blocking, by_game=not blocking.by_game),
                replace(blocking, seconds=(1.0,) * 5),  # another time model
            ):
                assert not B.summary_fits(header, other, **flags)
            assert not B.summary_fits(header, blocking, teams=not arm.teams)
    assert B.summary_header(b"not json\n") is None and B.summary_header(None) is None
    head, _, body = value.partition(b"\n")
    wrong = head.replace(f'"crc32": {header["crc32"]}'.encode(), b'"crc32": 7')
    with pytest.raises(B.SummaryError, match="not those it was written with"):
        B.read_summary(wrong + b"\n" + body)


@pytest.mark.nojit
def test_a_games_first_deal_is_the_deal_of_its_hand_0() -> None:
    """Hands of two shards, out of order, a mirrored rotation repeating shard 1's games: each
    game's first deal, the sum over its hands of ``deal * (hand == 0)``, is that of its hand
    0 (in its own rotation); a game without hands is a clear error."""
    shard = np.array([1, 1, 1, 0, 0, 0, 1, 1, 1])
    rotation = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1])
    game = np.array([0, 0, 1, 0, 1, 1, 0, 0, 1])
    hand = np.array([0, 1, 0, 0, 0, 1, 0, 1, 0])
    deal = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2])
    keys = B.game_keys(shard, rotation, game)
    first = (deal * (hand == 0))[:, None]
    wanted = B.game_keys(np.array([0, 0, 1, 1, 1]), np.array([0, 0, 0, 1, 1]),
                         np.array([0, 1, 0, 0, 1]))  # fmt: skip
    assert B.sums_per_game(keys, first, wanted)[:, 0].tolist() == [0, 1, 0, 0, 2]
    with pytest.raises(B.ChunkError, match="a game has no hands"):
        B.sums_per_game(keys, first, B.game_keys(np.array([0]), np.array([0]), np.array([2])))


@pytest.mark.nojit
@pytest.mark.parametrize("keyed", [0, 1])
def test_rows_are_put_in_key_order_with_equal_keys_summed(keyed: int) -> None:
    """A mirrored run's rotations start a shard's blocks again: a chunk's rows are sorted by
    (shard, block[, value]) and equal keys summed, as a group_by would."""
    rng = np.random.default_rng(3)
    n = 200
    rows = B.Rows(
        rng.integers(0, 3, n), rng.integers(0, 5, n), rng.integers(0, 4, (n, 3)).astype(np.int64)
    )
    got = B.in_key_order(rows, keyed)
    frame = pl.DataFrame(
        {
            "shard": rows.shard,
            "block": rows.block,
            **{f"c{i}": rows.columns[:, i] for i in range(3)},
        }
    )
    keys = ["shard", "block"] + [f"c{i}" for i in range(keyed)]
    want = frame.group_by(keys).agg(pl.col(f"c{i}").sum() for i in range(keyed, 3)).sort(keys)
    assert got.shard.tolist() == want["shard"].to_list()
    assert got.block.tolist() == want["block"].to_list()
    assert got.columns.tolist() == [
        list(r) for r in want.select([f"c{i}" for i in range(3)]).rows()
    ]
    again = B.in_key_order(got, keyed)  # already in order, nothing repeated: the same rows
    assert (
        again.shard.tolist() == got.shard.tolist()
        and again.columns.tolist() == got.columns.tolist()
    )


def test_a_mirrored_run_of_an_earlier_version_is_blocked_from_its_games(tmp_path: Path) -> None:
    """A mirrored dataset whose manifest has no planned blocks (written before they were
    planned) is cut as it was then: blocks of games sized from the games each arm played
    in all its rotations, read from its rows (its footers, if any, do not fit)."""

    root = _run(tmp_path, PLANNED)
    manifest = json.loads((root / "manifest.json").read_text())
    planned = manifest.pop("report_blocks")["block"]
    (root / "manifest.json").write_text(json.dumps(manifest))
    ds = open_dataset(root)
    games = [sum(p.rows for p in parts) for parts in M._parts(root / "games").values()]
    agg = M.aggregate(ds)
    assert agg.per_game_deals and agg.block == M.block_size(min(games)) != planned
    _same(agg, _aggregate(root, footers=False))


def test_turns_per_game_sum_each_games_hands_in_every_kind_of_run(kept: Path) -> None:
    """A game's turns are its own hands' (a mirrored run plays each game once per seat
    rotation under the same number: the rotation keeps them apart); the hands of a game cut
    short at a shard's end, which has no game row, count for no game."""
    ds = open_dataset(kept)
    agg = M.aggregate(ds)
    keys = ["shard", "rotation", "game"]
    for arm in ds.arms:
        hands = ds.hands().filter(pl.col("arm") == arm.name).collect()
        games = ds.games().filter(pl.col("arm") == arm.name).collect().select(keys)
        per_game = hands.group_by(keys).agg(pl.col("turns").sum()).join(games, on=keys)
        want = per_game["turns"].value_counts().sort("turns")
        got = agg.hist["game_turns"].filter(pl.col("arm") == arm.name)
        assert got["turns"].to_list() == want["turns"].to_list(), arm.name
        assert got["len"].to_list() == want["count"].to_list(), arm.name


def test_seconds_per_game_are_the_time_model_over_each_games_hands(kept: Path) -> None:
    """Issue #30 points 1 and 6: a game's minutes at the table are the time model
    (sim.dataset.timing, the experiment's [time]) charged over its own hands' action counts;
    the report keeps their histogram per arm and their mean per game block."""
    from sim.dataset.timing import time_model

    ds = open_dataset(kept)
    agg = M.aggregate(ds)
    model = time_model(ds.manifest)
    keys = ["shard", "rotation", "game"]
    charged = charged_seconds(model)
    for arm in ds.arms:
        hands = ds.hands().filter(pl.col("arm") == arm.name).collect()
        games = ds.games().filter(pl.col("arm") == arm.name).collect().select(keys)
        per_game = hands.group_by(keys).agg(charged.sum().round().cast(pl.Int64).alias("s"))
        per_game = per_game.join(games, on=keys)
        assert per_game.height == games.height > 0
        want = per_game["s"].value_counts().sort("s")
        got = agg.hist["game_seconds"].filter(pl.col("arm") == arm.name)
        assert got["seconds"].to_list() == want["s"].to_list(), arm.name
        assert got["len"].to_list() == want["count"].to_list(), arm.name
        blocks = agg.game_blocks.filter(pl.col("arm") == arm.name)
        assert blocks["seconds"].sum() == per_game["s"].sum(), arm.name
