"""The engine's commands as a user meets them: bench, simulate, replay (with a deal file)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from sim.cli import app

runner = CliRunner()


def test_bench_prints_one_json_line_with_the_figures():
    result = runner.invoke(app, ["bench", "--hands", "300", "--players", "3"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output.strip().splitlines()[-1])
    assert figures["bench"] == "engine" and figures["hands"] == 300 and figures["players"] == 3
    assert figures["hands_per_s"] > 0 and figures["workers"] == 1


def test_bench_with_two_workers_plays_every_hand():
    result = runner.invoke(app, ["bench", "--hands", "301", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.strip().splitlines()[-1])["hands"] == 301


def test_bench_rejects_an_unknown_bot_with_exit_2():
    result = runner.invoke(app, ["bench", "--bots", "cheater"])
    assert result.exit_code == 2
    assert "cheater" in result.output and "greedy" in result.output


@pytest.mark.parametrize("command", ["bench", "simulate", "replay"])
def test_the_simple_bot_is_refused_for_progressive_rummy_with_exit_2(command):
    args = [command, "--bots", "simple"] + (["rummy_basic"] if command == "replay" else [])
    result = runner.invoke(app, [*args, "--hands", "10"] if command != "replay" else args)
    assert result.exit_code == 2
    assert "knock families" in result.output


def test_replay_a_gin_hand_shows_the_knock_and_the_showdown():
    result = runner.invoke(app, ["replay", "gin_rummy", "--bots", "simple", "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert "shows" in result.output and "end:" in result.output
    assert "audit: 0 violation(s)" in result.output


def test_replay_a_conquian_hand_shows_a_forcing_and_the_exposed_cards():
    """§3.21: careful forces random to use the card on offer that fits his melds."""
    args = ["replay", "conquian", "--bots", "random,careful", "--seed", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "forces him to use" in line)
    assert lines[at - 1].startswith("turn ") and "seat 0" in lines[at - 1]
    assert lines[at + 1].startswith("  uses ") and "discards" in result.output
    assert "turns up" in result.output and "tentos" in result.output
    assert "audit: 0 violation(s)" in result.output


def test_bench_rejects_an_impossible_player_count_with_exit_2():
    result = runner.invoke(app, ["bench", "--players", "9"])
    assert result.exit_code == 2


def test_simulate_prints_a_summary():
    result = runner.invoke(app, ["simulate", "block_rummy", "--hands", "200", "--audit"])
    assert result.exit_code == 0, result.output
    assert '"violations": 0' in result.output and '"block"' in result.output


def test_replay_prints_a_transcript_in_card_names():
    result = runner.invoke(app, ["replay", "rummy_basic", "--seed", "3", "--bots", "greedy,random"])
    assert result.exit_code == 0, result.output
    assert "turn 1:" in result.output and "upcard" in result.output
    assert "audit: 0 violation(s)" in result.output


def test_replay_shows_a_stock_rebuild_before_the_turn_it_opens():
    # §1.8: the player to draw finds the stock empty; the rebuild is part of his turn
    result = runner.invoke(app, ["replay", "rummy_basic", "--seed", "1", "--bots", "random"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    at = next(i for i, line in enumerate(lines) if "the discard pile becomes the stock" in line)
    assert lines[at].startswith("stock empty: ")
    assert lines[at + 1].startswith("turn ") and "draws" in lines[at + 2]


def test_replay_a_hand_built_deal(tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text(
        'upcard = "Ts"\n'
        'stock = "2c 3c"\n'
        "[hands]\n"
        '0 = "As 2s 3s 4s 5s 6s 7s 8s 9s Kd"\n'
        '1 = "7c Kh Ah 5h 5d 2d 3d 9c Jd 4c"\n'
    )
    result = runner.invoke(app, ["replay", "rummy_basic@004", "--deal", str(deal)])
    assert result.exit_code == 0, result.output
    assert "takes Ts from the discard pile" in result.output
    assert "went rummy after 1 turns" in result.output
    assert "hand score +112" in result.output  # (7+10+1+5+5+2+3+9+10+4) doubled (@004)


def test_replay_rejects_a_bad_deal_file_with_exit_2(tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text('upcard = "Ts"\n[hands]\n0 = "As 2s"\n1 = "7c Kh"\n')
    result = runner.invoke(app, ["replay", "rummy_basic", "--deal", str(deal)])
    assert result.exit_code == 2
    assert "hands.0" in result.output and "10 cards" in result.output
    deal.write_text('upcard = "Zz"\n[hands]\n0 = "As"\n1 = "7c"\n')
    result = runner.invoke(app, ["replay", "rummy_basic", "--deal", str(deal)])
    assert result.exit_code == 2 and "Zz" in result.output


def test_replay_refuses_a_deal_built_for_another_table_or_variant(tmp_path):
    """A deal file's optional ``players`` and ``variant`` must match the replay (review
    finding: they were accepted and ignored)."""
    hands = '[hands]\n0 = "As 2s 3s 4s 5s 6s 7s 8s 9s Kd"\n1 = "7c Kh Ah 5h 5d 2d 3d 9c Jd 4c"\n'
    deal = tmp_path / "deal.toml"
    deal.write_text('players = 3\nupcard = "Ts"\n' + hands)
    result = runner.invoke(app, ["replay", "rummy_basic", "--deal", str(deal)])
    assert result.exit_code == 2 and "players" in result.output and "3" in result.output
    deal.write_text('variant = "gin_rummy"\nupcard = "Ts"\n' + hands)
    result = runner.invoke(app, ["replay", "rummy_basic", "--deal", str(deal)])
    assert result.exit_code == 2 and "gin_rummy" in result.output
    deal.write_text('players = 2\nvariant = "rummy_basic@004"\nupcard = "Ts"\n' + hands)
    result = runner.invoke(app, ["replay", "rummy_basic@004", "--deal", str(deal)])
    assert result.exit_code == 0, result.output


def test_replay_of_partnership_gin_shows_both_tables_and_the_team_scores():
    """§3.19: one hand is two 2-player hands; the transcript gives each table, then the
    teams' scores, which are the hands table's scores of that hand."""
    import re

    import numpy as np

    from sim.engine import rows as R
    from sim.engine.api import compile_rules, play
    from sim.rules import load_variant

    result = runner.invoke(
        app,
        [
            "replay",
            "gin_rummy_4p",
            "--players",
            "4",
            "--seed",
            "1",
            "--bots",
            "simple,greedy,simple,greedy",
        ],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "table 1: seat 0 (simple) against seat 1 (greedy)" in text
    assert "table 2: seat 2 (simple) against seat 3 (greedy)" in text
    assert text.index("table 1:") < text.index("table 2:") < text.index("teams:")
    assert text.count("end: ") == 2 and "audit: 0 violation(s)" in text
    team_a, team_b = (
        int(x)
        for x in re.search(
            r"teams: seats 0 and 2 score ([+-]\d+), "
            r"seats 1 and 3 score ([+-]\d+)",
            text,
        ).groups()
    )
    params, values = compile_rules(load_variant("gin_rummy_4p"), 4, audit=True)
    bots = np.array([R.BOT_SIMPLE, R.BOT_GREEDY] * 2)
    out = play(params, values, bots, seed=1, hands=1)
    assert list(out.hand_scores[0]) == [team_a, team_b, team_a, team_b]


def test_replay_refuses_a_hand_built_deal_of_partnership_gin_with_exit_2(tmp_path):
    deal = tmp_path / "deal.toml"
    deal.write_text('upcard = "Ts"\n[hands]\n0 = "As"\n1 = "7c"\n2 = "2c"\n3 = "3c"\n')
    result = runner.invoke(
        app, ["replay", "gin_rummy_4p", "--players", "4", "--bots", "simple", "--deal", str(deal)]
    )
    assert result.exit_code == 2
    assert "partnership" in result.output


@pytest.mark.nojit
@pytest.mark.parametrize(
    ("logged", "shown"),
    [
        ("As Qs Ks", "Qs Ks As"),  # the ace high (§2A.4)
        ("As 2s Ks", "Ks As 2s"),  # around the corner
        ("As 2s 3s", "As 2s 3s"),
        ("2h As 3h Jk Kh", "Kh As 2h 3h Jk"),  # jokers last, as logged
        ("7s 7h 7c", "7s 7h 7c"),  # a group by suit
    ],
)
def test_replay_shows_a_run_in_the_order_of_its_positions(logged, shown):
    from sim.cards import cards_text, parse_cards
    from sim.replay import meld_order

    assert cards_text(meld_order(parse_cards(logged))) == shown


@pytest.mark.parametrize(
    ("variant", "bots"),
    [
        ("gin_rummy", "camper,careful-outfirst"),
        ("rummy_basic", "careful-nodiscardtake,careful-nolayoff"),
    ],
)
def test_replay_plays_the_restricted_bots_and_camper_by_name(variant, bots):
    result = runner.invoke(app, ["replay", variant, "--seed", "2", "--bots", bots])
    assert result.exit_code == 0, result.output
    assert "audit: 0 violation(s)" in result.output


def test_the_simple_refusal_lists_the_bots_that_play_there():
    result = runner.invoke(app, ["bench", "--bots", "simple", "--hands", "10"])
    assert result.exit_code == 2
    assert "camper" in result.output and "careful-outfirst" in result.output
