"""The report end to end on the small dataset: its numbers, findings, files and CLI."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import polars as pl
import pyarrow.dataset as pads
import pytest
from typer.testing import CliRunner

from sim.cli import app
from sim.report.answer import answer_cards
from sim.report.dataset import DatasetError, open_dataset
from sim.report.metrics import aggregate


def _hands(root: Path) -> pl.DataFrame:
    table = pads.dataset(root / "hands", format="parquet", partitioning="hive").to_table()
    return pl.from_arrow(table)


def test_aggregates_match_a_direct_count(small_dataset: Path) -> None:
    ds = open_dataset(small_dataset)
    agg = aggregate(ds)
    hands = _hands(small_dataset)
    totals = agg.hand_blocks.group_by("arm").agg(pl.all().exclude("shard", "block").sum())
    for arm in ds.arms:
        rows = hands.filter(pl.col("arm") == arm.name)
        t = totals.filter(pl.col("arm") == arm.name).row(0, named=True)
        assert t["n"] == rows.height
        assert t["turns"] == rows["turns"].sum()
        assert t["win0"] == (rows["winner"] == 0).sum()
        assert t["dealer_win"] == (rows["winner"] == rows["dealer"]).sum()
        points = sum(sum(abs(v) for v in s) for s in rows["hand_scores"].to_list())
        assert t["points"] == points
        stalled = (rows["end_reason"].cast(pl.String) == "stalled").sum()
        assert t["r_stalled"] == stalled


def test_comebacks_match_a_brute_force_count(small_dataset: Path) -> None:
    ds = open_dataset(small_dataset)
    agg = aggregate(ds)
    hands = _hands(small_dataset)
    games = pl.from_arrow(
        pads.dataset(small_dataset / "games", format="parquet", partitioning="hive").to_table()
    )
    arm = "basic-4p-greedy"
    last = {
        (r["shard"], r["game"], r["hand"]): r
        for r in hands.filter(pl.col("arm") == arm).iter_rows(named=True)
    }
    expected = 0
    for g in games.filter(pl.col("arm") == arm).iter_rows(named=True):
        h = last[(g["shard"], g["game"], g["hands"] - 1)]
        before = [t - s for t, s in zip(h["total_scores"], h["hand_scores"], strict=True)]
        if g["winner"] >= 0 and before[g["winner"]] < max(before):
            expected += 1
    got = agg.game_blocks.filter(pl.col("arm") == arm)["comeback"].sum()
    assert got == expected


def _games(root: Path) -> pl.DataFrame:
    table = pads.dataset(root / "games", format="parquet", partitioning="hive").to_table()
    return pl.from_arrow(table)


def test_final_margin_is_the_winners_lead_over_the_best_other_side() -> None:
    """docs/report.md: the winner's final total minus the best other side's (negative when
    gin's box bonuses put a loser ahead), best minus second best when nobody won."""
    from sim.dataset.summaries import Blocking, game_sum_names, game_tables_of
    from sim.report.metrics import _frame

    games = pl.DataFrame(
        {
            "shard": [0, 0, 0],
            "game": [0, 1, 2],
            "hands": [3, 4, 5],
            "winner": pl.Series([0, 1, -1], dtype=pl.Int8),
            "final_scores": [[214, 240], [60, 130], [90, 70]],
            "lead_changes": pl.Series([1, 0, 2], dtype=pl.Int32),
            "capped": [False, False, True],
            "comeback": [False, False, False],
        }
    )
    hands = pl.DataFrame(  # one hand a game, of 7 turns
        {"shard": [0, 0, 0], "rotation": [0, 0, 0], "game": [0, 1, 2], "hand": [0, 0, 0],
         "deal": [0, 1, 2], "turns": [7, 7, 7]}
    )  # fmt: skip
    games = games.with_columns(rotation=pl.lit(0))
    blocking = Blocking(block=1, stride=1, seats=2, known=("other",), by_game=True)
    sums, _hands_hist, margins, turns, seconds = game_tables_of(
        games.to_arrow(), hands.to_arrow(), blocking, teams=False
    )  # a run counted in games: blocks of game numbers
    sums = _frame([("a", sums)], game_sum_names(2))
    assert sums["margin"].to_list() == [-26, 70, 20]
    assert sums["lead_changes2"].to_list() == [1, 0, 4]
    assert _frame([("a", margins)], ("margin", "len"))["margin"].to_list() == [-26, 70, 20]
    assert _frame([("a", turns)], ("turns", "len"))["turns"].to_list() == [7, 7, 7]
    assert len(seconds) == 0  # no time model: no minutes per game


def _comparisons(report, arm: str) -> dict:
    return {c.metric.name: c for c in report.comparisons if c.arm.name == arm}


def test_identical_arms_come_out_as_no_difference(small_report) -> None:
    comps = _comparisons(small_report.report, "same-2p-greedy")
    assert comps, "the identical arm was not compared"
    for name, c in comps.items():
        if c.metric.level == "hand":  # paired on the same deals: exactly zero
            assert c.interval.estimate == 0, name
            assert c.interval.low == 0 and c.interval.high == 0, name
        assert c.interval.low <= 0 <= c.interval.high, name
        assert not c.p_holm < 0.05, name


def test_around_the_corner_shortens_hands(small_report) -> None:
    for players in (2, 4):
        c = _comparisons(small_report.report, f"around-{players}p-greedy")["turns_mean"]
        assert c.p_holm < 0.05
        assert c.interval.high < 0
    # sentences only for findings: with a band narrower than its effect, it is one
    cards = answer_cards(small_report.report, {"turns_mean": 0.01})
    found = [s for card in cards for s in card.findings() if "turns per hand (mean)" in s]
    assert any(s.startswith("around the corner changes turns per hand (mean) by -") for s in found)


def test_holm_adjusts_every_comparison(small_report) -> None:
    comps = small_report.report.comparisons
    assert all(c.p_holm >= c.interval.p or math.isnan(c.interval.p) for c in comps)


def test_summary_files_have_one_row_per_arm_and_metric(small_report) -> None:
    folder = small_report.folder
    summary = pl.read_parquet(folder / "summary.parquet")
    csv = pl.read_csv(folder / "summary.csv")
    assert summary.height == csv.height
    assert summary.select("arm", "metric").is_duplicated().sum() == 0
    arms = set(summary["arm"])
    assert len(arms) == 6
    row = summary.filter((pl.col("arm") == "around-2p-greedy") & (pl.col("metric") == "turns_mean"))
    assert row["baseline"][0] == "basic-2p-greedy"
    assert row["diff_low"][0] <= row["diff"][0] <= row["diff_high"][0]
    seats = summary.filter(pl.col("metric") == "seat0_win")
    assert (seats["ci_low"] <= seats["value"]).all() and (seats["value"] <= seats["ci_high"]).all()


def test_mixed_line_up_reports_each_bots_win_rate_and_points_per_seat(small_report) -> None:
    """Skill: each bot of the mixed greedy/careful line-up gets its hand win rate per seat
    (Wilson interval) and its points per seat-hand, as the hands give them, in the summary,
    the page and report.md; line-ups of one bot get none."""
    report, name = small_report.report, "basic-2p-greedy,careful"
    hands = _hands(report.dataset.root).filter(pl.col("arm") == name)
    rows = report.rows.filter(pl.col("metric").str.starts_with("bot_"))
    assert set(rows["arm"]) == {name} and rows.height == 4
    page = (small_report.folder / "index.html").read_text()
    md = (small_report.folder / "report.md").read_text()
    assert "Skill: mixed line-ups" in page and "## Skill: mixed line-ups" in md
    for seat, bot in enumerate(("greedy", "careful")):  # not mirrored: one seat each
        win = rows.filter(pl.col("metric") == f"bot_{bot}_win").row(0, named=True)
        assert win["n"] == hands.height and win["interval"] == "wilson"
        assert win["value"] == pytest.approx(100 * (hands["winner"] == seat).mean())
        assert win["ci_low"] < win["value"] < win["ci_high"]
        points = rows.filter(pl.col("metric") == f"bot_{bot}_points")["value"].item()
        assert points == pytest.approx(hands["hand_scores"].list.get(seat).mean())
        assert f"{name}: {bot}: hand win rate per seat {win['value']:.2f} [" in md
        assert f"{bot}: points per seat-hand {points:.2f}" in page


def test_outputs_exist_and_config_strings_are_escaped(small_report) -> None:
    folder = small_report.folder
    for name in ("index.html", "report.md", "summary.csv", "summary.parquet"):
        assert (folder / name).stat().st_size > 0
    stems = ("length", "survival-2p", "survival-4p", "spread", "seats", "forest")
    for stem in stems:
        assert (folder / "figures" / f"{stem}.png").stat().st_size > 0
        assert (folder / "figures" / f"{stem}.svg").stat().st_size > 0
    page = (folder / "index.html").read_text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "same &lt;rules&gt; &amp; name" in page
    assert page.count("data:image/png;base64,") == len(stems)
    assert page.count("<table") == page.count('<table class="sortable"') >= 3
    assert 'src="http' not in page and "src='http" not in page  # self-contained
    md = (folder / "report.md").read_text()
    assert (
        "| around-2p-greedy | basic-2p-greedy | turns per hand (mean) |" in md
    )  # every comparison


def test_cli_writes_the_report(small_dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "r"
    result = CliRunner().invoke(
        app, ["report", str(small_dataset), "--out", str(out), "--resamples", "100"]
    )
    assert result.exit_code == 0, result.output
    assert str(out / "index.html") in result.output
    assert (out / "index.html").exists()


@pytest.mark.nojit
def test_cli_rejects_a_folder_that_is_not_a_dataset(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert missing.exit_code == 2
    assert "not a folder" in missing.output
    empty = runner.invoke(app, ["report", str(tmp_path)])
    assert empty.exit_code == 2
    assert "not a rummysim dataset" in empty.output


def test_bad_manifest_and_bad_baseline_are_clear_errors(
    small_dataset: Path, tmp_path: Path
) -> None:
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(small_dataset, copy)
    with pytest.raises(DatasetError, match="baseline"):
        open_dataset(copy, baseline="nope")
    (copy / "manifest.json").write_text("{not json")
    with pytest.raises(DatasetError, match="manifest"):
        open_dataset(copy)
    (copy / "manifest.json").unlink()
    ds = open_dataset(copy)  # no manifest: arms from the files, baseline by name order
    assert {a.baseline for a in ds.arms if a.players == 2 and a.lineup == "greedy"} == {
        "around-2p-greedy"
    }


def test_blocks_are_merged_to_the_same_count_in_every_arm() -> None:
    """Each arm's hand or game blocks are merged, neighbours together, into exactly
    BOOTSTRAP_BLOCKS (so every arm's bootstrap draws the same weights); the sums are kept."""
    from sim.report.analysis import arm_sums
    from sim.report.metrics import BOOTSTRAP_BLOCKS

    names = ("n", "hands")
    most = BOOTSTRAP_BLOCKS
    for blocks in (most - 3, most, most + 1, most + 7, 1000):
        frame = pl.DataFrame(
            {
                "arm": ["a"] * blocks,
                "shard": [i // 100 for i in range(blocks)],
                "block": [i % 100 for i in range(blocks)],
                "n": [1.0] * blocks,
                "hands": [float(i) for i in range(blocks)],
            }
        )
        sums = arm_sums(frame, "a", names)
        assert sums.values.shape[0] == min(blocks, BOOTSTRAP_BLOCKS)
        assert sums["n"].sum() == blocks
        assert sums["hands"].sum() == blocks * (blocks - 1) / 2
        # neighbours merged: each merged block holds consecutive blocks, at most two here
        assert sums["n"].max() <= math.ceil(blocks / BOOTSTRAP_BLOCKS)
        ends = np.cumsum(sums["n"]).astype(int)
        starts = ends - sums["n"].astype(int)
        want = [sum(range(a, b)) for a, b in zip(starts, ends, strict=True)]
        assert sums["hands"].tolist() == want


def test_paired_blocks_are_lined_up_in_order_then_merged_alike_in_both_arms() -> None:
    """Two arms' blocks, one with blocks the other lacks and both out of order: lined up on
    (shard, block), the missing ones empty, then merged in (shard, block) order into at most
    BOOTSTRAP_BLOCKS, the same neighbours together in both arms."""
    from sim.report.analysis import _paired
    from sim.report.metrics import BOOTSTRAP_BLOCKS

    rng = np.random.default_rng(3)
    keys = [(s, b) for s in range(3) for b in range(300)]  # 900 blocks

    def arm(take: np.ndarray) -> pl.DataFrame:
        chosen = [keys[i] for i in take]
        return pl.DataFrame(
            {
                "shard": [k[0] for k in chosen],
                "block": [k[1] for k in chosen],
                "n": [1.0] * len(chosen),
                "key": [float(k[0] * 1000 + k[1]) for k in chosen],
            }
        )

    a = arm(rng.permutation(len(keys)))
    b = arm(rng.permutation(len(keys))[:700])
    sa, sb = _paired(a, b, ("n", "key"))
    assert sa.values.shape[0] == sb.values.shape[0] == BOOTSTRAP_BLOCKS
    assert sa["n"].sum() == 900 and sb["n"].sum() == 700
    # every merged block of a holds consecutive keys, in order
    ordered = sorted(k[0] * 1000 + k[1] for k in keys)
    ends = np.cumsum(sa["n"]).astype(int)
    starts = ends - sa["n"].astype(int)
    assert sa["key"].tolist() == [sum(ordered[i:j]) for i, j in zip(starts, ends, strict=True)]
    # b's merged blocks are the same groups of keys: each of its keys lies in a's group
    spans = enumerate(zip(starts, ends, strict=True))
    group_of = {key: g for g, (i, j) in spans for key in ordered[i:j]}
    groups = np.zeros(BOOTSTRAP_BLOCKS)
    for key in b["key"].to_list():
        groups[group_of[key]] += key
    assert sb["key"].tolist() == groups.tolist()


def test_every_arm_shows_each_resolved_setting_it_changes(small_report) -> None:
    """Issue #30 point 2: "around the corner" visibly also raises the ace's points (its
    ``ace_points = "auto"`` resolves to 11, RULES.md §3.3), in the page, report.md and the
    summary tables; an arm with the baseline's very rules says so."""
    folder = small_report.folder
    change = "ace_rank low → around_corner; ace_points 1 → 11"
    assert change in (folder / "report.md").read_text()
    assert change in (folder / "index.html").read_text()
    summary = pl.read_parquet(folder / "summary.parquet")
    by_arm = dict(summary.select("arm", "rule_changes").unique().iter_rows())
    assert by_arm["around-4p-greedy"] == change
    assert by_arm["same-2p-greedy"] == "same rules"
    assert by_arm["basic-2p-greedy"] == "baseline"


def test_seat_advantage_is_each_seats_share_of_won_hands_and_games_minus_fair_share(
    small_report,
) -> None:
    """Issue #30 point 1: seat advantage, checked against the rows: each seat's share of the
    hands (games) someone won minus 1/players, and the dealer's, in percentage points, each
    inside its own bootstrap interval."""
    report = small_report.report
    ds = report.dataset
    for name, players in (("around-4p-greedy", 4), ("basic-2p-greedy,careful", 2)):
        hands = ds.hands().filter((pl.col("arm") == name) & (pl.col("winner") >= 0)).collect()
        games = ds.games().filter((pl.col("arm") == name) & (pl.col("winner") >= 0)).collect()
        rows = report.rows.filter(pl.col("arm") == name)
        got = {r["metric"]: r for r in rows.iter_rows(named=True)}
        for s in range(players):
            want = 100 * ((hands["winner"] == s).mean() - 1 / players)
            assert got[f"seat{s}_edge"]["value"] == pytest.approx(want)
            want = 100 * ((games["winner"] == s).mean() - 1 / players)
            assert got[f"seat{s}_game_edge"]["value"] == pytest.approx(want)
        want = 100 * ((hands["winner"] == hands["dealer"]).mean() - 1 / players)
        assert got["dealer_edge"]["value"] == pytest.approx(want)
        for metric in [m for m in got if m.endswith("_edge")]:
            assert got[metric]["ci_low"] <= got[metric]["value"] <= got[metric]["ci_high"]
        assert f"seat{players}_edge" not in got


def test_minutes_per_hand_charge_every_action_of_the_time_model(small_report) -> None:
    """Issue #30 point 1: minutes at the table per hand are the time model's seconds
    (``sim.dataset.timing``: the hand, its turns, melds, lay-offs and stock rebuilds) over 60,
    per arm, compared with the baseline and on the answer card; an experiment's ``[time]``
    (the manifest's) changes them."""
    import dataclasses

    from sim.dataset.timing import DEFAULT_SECONDS, time_model
    from sim.report.analysis import analyse
    from sim.report.answer import answer_cards

    report = small_report.report
    ds = report.dataset

    def minutes(hands: pl.DataFrame, sec: dict[str, float]) -> float:
        charged = (
            sec["hand"] + sec["turn"] * hands["turns"] + sec["meld"] * hands["melds"]
            + sec["layoff"] * hands["layoffs"] + sec["rebuild"] * hands["rebuilds"]
        )  # fmt: skip
        return float(charged.mean()) / 60

    assert time_model(ds.manifest) == DEFAULT_SECONDS
    for arm in ds.arms:
        hands = ds.hands().filter(pl.col("arm") == arm.name).collect()
        assert hands["melds"].sum() > 0 and hands["layoffs"].sum() > 0
        row = report.rows.filter((pl.col("arm") == arm.name) & (pl.col("metric") == "minutes_mean"))
        assert row["value"].item() == pytest.approx(minutes(hands, DEFAULT_SECONDS))
        assert row["ci_low"].item() <= row["value"].item() <= row["ci_high"].item()
    assert [c for c in report.comparisons if c.metric.name == "minutes_mean"]
    cards = answer_cards(report)
    compared = [card for card in cards if card.rows]  # (a table of the baseline alone has none)
    assert compared and all("minutes_mean" in [m for m, _, _ in c.columns] for c in compared)
    # the experiment's [time], as the manifest records it
    slow = {"turn": 20.0, "rebuild": 60.0}
    manifest = ds.manifest | {"experiment": ds.manifest["experiment"] | {"time": slow}}
    other = analyse(dataclasses.replace(ds, manifest=manifest), report.agg, resamples=50)
    arm = ds.arms[0]
    hands = ds.hands().filter(pl.col("arm") == arm.name).collect()
    row = other.rows.filter((pl.col("arm") == arm.name) & (pl.col("metric") == "minutes_mean"))
    assert row["value"].item() == pytest.approx(minutes(hands, DEFAULT_SECONDS | slow))


def test_a_version_7_dataset_without_mom_seats_is_still_read(small_dataset, tmp_path) -> None:
    """Schema version 8 added ``hands.mom_seats``; a dataset of version 7 (its files without
    the column, the version in their metadata) opens and its hands read as before."""
    import shutil

    import pyarrow.parquet as pq

    from sim.report.dataset import open_dataset

    old = tmp_path / "v7"
    shutil.copytree(small_dataset, old)
    (old / "manifest.json").unlink()  # rewritten files would not match its digests
    for path in (old / "hands").glob("arm=*/*.parquet"):
        table = pq.read_table(path).drop_columns(["mom_seats"])
        meta = {**(table.schema.metadata or {}), b"rummysim.schema_version": b"7"}
        pq.write_table(table.replace_schema_metadata(meta), path)
    before = open_dataset(small_dataset).hands().select(pl.len()).collect().item()
    assert open_dataset(old).hands().select(pl.len()).collect().item() == before > 0


def test_hands_without_action_counts_are_refused_naming_the_file(small_dataset, tmp_path) -> None:
    """A dataset written before schema version 5 (its hands lack melds, lay-offs and rebuilds,
    which every report's minutes at the table are made of) is refused, naming the file and
    the columns, rather than reported without them; so is a manifest of schema version 3
    or 4."""
    import json
    import shutil

    import pyarrow.parquet as pq

    from sim.report.dataset import DatasetError, open_dataset

    old = tmp_path / "old"
    shutil.copytree(small_dataset, old)
    (old / "manifest.json").unlink()  # rewritten files would not match its digests
    for path in (old / "hands").glob("arm=*/*.parquet"):
        table = pq.read_table(path).drop_columns(["melds", "layoffs", "rebuilds"])
        pq.write_table(table, path)
    with pytest.raises(DatasetError, match=r"hands/arm=.*parquet: no column 'melds'"):
        open_dataset(old)
    for version in (3, 4):
        manifest = json.loads((small_dataset / "manifest.json").read_text())
        dated = tmp_path / f"v{version}"
        shutil.copytree(small_dataset, dated)
        (dated / "manifest.json").write_text(json.dumps(manifest | {"schema_version": version}))
        with pytest.raises(DatasetError, match=f"schema version {version} is older"):
            open_dataset(dated)
