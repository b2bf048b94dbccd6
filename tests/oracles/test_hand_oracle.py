"""The engine's hands against the plain-Python oracle hand (tests/oracles/hand.py):
for every variant file ``sim.engine`` plays, at its lowest, a middle and its highest player
count, the engine plays whole games of ``greedy`` and each hand's event log must equal the
oracle's, event by event, and so must its scores (docs/engine-plan.md, "The play, exactly");
so must rummy_basic under settings that no file uses yet but the engine plays (``SETTINGS``),
and Tonk and Phỏm under their options (``TONK_SETTINGS``, ``PHOM_CASES``), Conquian
under its settings with line-ups of greedy, careful and random (``CONQUIAN_CASES``), and
Nowrang over several seeds (``NOWRANG_SEEDS``), and Continental's files at a few
player counts (``CONTINENTAL_CASES``), and the knock family's files that it plays (gin and
Oklahoma gin at 2 players, 3-player gin, 4-player partnership gin, knock rummy at 2, 3
and 5), with greedy and with line-ups of simple, random and greedy
(``KNOCK_BOT_CASES``) and under settings no file uses (``KNOCK_SETTINGS``), their
showdown and its scores and side bonuses too; and Tonk, Phỏm, Nowrang and Continental (its
presets too) with line-ups of random and greedy, all random and mixed, at low and high
player counts (``TONK_BOT_CASES``, ``PHOM_BOT_CASES``, ``NOWRANG_BOTS``,
``CONTINENTAL_BOT_CASES``); and the progressive rummy files (rummy_basic down to
german_rummy@restricted_discard in ``FILES``, all at once among them) with line-ups of
random and greedy at their lowest and highest player count (``PROGRESSIVE_BOT_CASES``), and
rummy_basic with random under settings no file uses (``PROGRESSIVE_BOT_SETTINGS``:
borrowing, any-suit jokers declared, replacement, the joker limit, top_plus_one,
only_for_initial_meld, a called joker); and Carousel with greedy at 2 and 4 players and
line-ups of greedy, careful and random at 2, 3 and 5 (``CAROUSEL_CASES``), its table
search's choice among equally good re-partitions the oracle's own (the engine's declared
order, ``tests.oracles.repartition.best_repartition``), which the engine's search
(``engine_table_search``) must have chosen too where it was not capped; a capped search's
answer is played, checked, and such a hand counted (``capped_hands``,
``capped_searches``), and one whose brute force would take too long stopped there
(``large``).

Long mode (``make verify``-style): ``python -m tests.oracles.test_hand_oracle --hands 1000``
plays that many hands per file (and setting) and player count and prints how they ended;
``--only phom`` plays only the cases whose name holds ``phom`` (``--only random``: every
line-up with random in it).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections import Counter

import numpy as np
import pytest

from sim.engine import api
from sim.engine import rows as OUT
from sim.engine import state as S
from sim.rules import Rules, load_variant
from sim.rules.loader import list_variants
from tests.oracles import hand as oracle
from tests.oracles.patterns import best_cover, fits_wild, random_pattern_hand, random_wild_hand

FILES = (
    "rummy_basic",
    "rummy_basic@000",
    "rummy_basic@002",
    "rummy_basic@003",
    "rummy_basic@004",
    "around_the_corner",
    "block_rummy",
    "block_rummy@000",
    "block_rummy@002",
    "call_rummy",
    "throw_down_rummy",
    "full_rummy",  # meld_timing all_at_once (§2D.18, §3.4)
    "queen_city_rum",  # ... with own_melds_from_each (§3.12)
    "boat_house_rum",  # all_at_once with top_plus_one and unmelded_to_winner (§3.7)
    "caloochi",  # 2 packs + 4 jokers, initial meld 51, jokers to hand (§3.8)
    "german_rummy",  # 2 packs + 6 jokers, initial meld 40, joker limit and swap (§3.14)
    "double_rum",  # 2 packs + 4 jokers, duplicates in groups, the joker slide (§3.9)
    # the alternatives of open points (§3.8, §3.9, §3.14)
    "caloochi@ace_low",
    "caloochi@duplicates",
    "caloochi@must_discard",
    "double_rum@2_jokers",
    "double_rum@slide_repeat",
    "german_rummy@restricted_discard",
    "tonk",  # chips, instant tonks, the drop, the stock-out (§3.22)
    "phom",  # the conditional take, Ù, four turns each, the showdown in chips (§3.13)
    "conquian",  # the exposed card, uses re-forming own melds, forcing, tentos (§3.21)
    "nowrang",  # 11/10 without an upcard, the 4+3+3 same-suit runs pattern (§3.15)
    # the knock family (§2I): no melding until a knock, the showdown, its scoring
    "gin_rummy",  # the upcard offer, knock within 10, lay-offs, gin and undercut (§3.17)
    "gin_rummy@bonus25",  # the same with gin and undercut bonuses of 25 (§2I.34-35)
    "knock_rummy",  # any count knocks (greedy's own 10), no lay-offs, rum +25 (§3.10)
    "oklahoma_gin",  # the upcard's knock limit, the spade double, side bonuses (§3.20)
    "gin_rummy_3p",  # the dealer sits out, the loser deals the next hand (§3.18)
    "gin_rummy_4p",  # two tables, partners switching opponents, team scores (§3.19)
)
NOT_YET: dict[str, str] = {}
"""Files of a covered family the oracle hand does not play yet, each with why."""
HANDS = 30
SEED = 29
EVENT_ROWS = 200


def player_counts(rules) -> list[int]:
    low, high = rules.players
    return sorted({low, (low + high) // 2, high})


CASES = [(name, n) for name in FILES for n in player_counts(load_variant(name))]

ANY_SUIT_JOKERS = {
    "decks": 2,
    "jokers": 4,
    "group_duplicates": "allowed",
    "joker_declare": "always",
    "joker_replace": "steal_by_replacement",
    "run_suit": "any_suit",
}
"""Jokers in runs of any suits, declared always and taken by replacement, duplicates in
groups (§2B.9, §2B.12): a setting greedy and random both play."""
BORROW_WITH_JOKERS = {
    "borrowing": "any",
    "decks": 2,
    "jokers": 4,
    "ace_rank": "high_or_low",
    "joker_declare": "three_card_group",
    "joker_limit": "not_more_than_naturals",
    "group_duplicates": "allowed",
    "initial_meld_min": 30,
}
"""Borrowing (§2D.22) with jokers, their declarations and limit, and an initial meld: a
setting greedy (``SETTINGS``) and random (``PROGRESSIVE_BOT_SETTINGS``) both play."""
SETTINGS = (
    {"must_discard_to_go_out": True},  # greedy keeps a card back (§2E.26)
    {"must_discard_to_go_out": True, "melds_per_turn": "one", "going_rummy": "double"},
    {"going_rummy": "bonus:10"},
    {"scoring": "per_card"},
    {"scoring": "penalty", "game_end": "fixed_hands:5"},
    {"ace_rank": "high"},
    {"ace_rank": "high_or_low"},
    {"run_suit": "any_suit"},
    {"layoff_requires_meld": "after_first_meld"},
    {"layoff_requires_meld": "after_own_layoff"},
    # calls (§3.2): greedy discards a card that fits only when it may not lay it off itself
    {"call_rummy": True, "layoff_requires_meld": "after_first_meld"},
    {"call_rummy": True, "layoff_requires_meld": "after_own_layoff", "going_rummy": "double"},
    {
        "call_rummy": True,
        "layoff_requires_meld": "after_first_meld",
        "stock_exhaustion": "block_difference",
    },
    {"discard_draw": "top_plus_one"},  # §3.7: the discard top and a second card
    {"discard_draw": "top_plus_one", "stock_exhaustion": "shuffle_all"},
    {"stock_exhaustion": "shuffle_all"},  # §3.6's rebuild under the baseline's draw
    # the initial meld (§2D.24-25): melds held back until they count enough
    {"initial_meld_min": 25},
    {"initial_meld_min": 30, "discard_before_initial_meld": "only_for_initial_meld"},
    {  # 2 packs, 6 cards at 5 players: a low threshold, so that hands end
        "initial_meld_min": 15,
        "decks": 2,
        "ace_rank": "high_or_low",
        "opening_ace_low": 1,
        "must_discard_to_go_out": True,
        "discard_before_initial_meld": "only_for_initial_meld",
    },
    {"initial_meld_min": 20, "melds_per_turn": "one", "layoff_requires_meld": "after_first_meld"},
    # jokers (§2A.2-3, §2B.9-12)
    {"jokers": 2},
    {"jokers": 2, "joker_declare": "always", "joker_replace": "steal_by_replacement"},
    ANY_SUIT_JOKERS,  # an any-suit run's jokers are declared too; duplicates in groups
    {  # Caloochi-like (§3.8): replacement to hand before laying down
        "decks": 2,
        "jokers": 4,
        "ace_rank": "high_or_low",
        "joker_declare": "three_card_group",
        "joker_replace": "to_hand",
        "initial_meld_min": 51,
        "discard_before_initial_meld": "only_for_initial_meld",
        "ace_points": 15,
        "joker_points": 25,
    },
    {  # German-like (§3.14): the joker limit (§2B.10)
        "decks": 2,
        "jokers": 6,
        "ace_rank": "high_or_low",
        "ace_points": 11,
        "joker_points": 30,
        "joker_limit": "not_more_than_naturals",
        "initial_meld_min": 40,
        "opening_ace_low": 1,
        "must_discard_to_go_out": True,
        "joker_replace": "reuse_same_turn",
    },
    {  # Double-Rum-like (§3.9), each joker sliding again and again (§3.9 open point 2)
        "decks": 2,
        "jokers": 4,
        "ace_rank": "high_or_low",
        "group_duplicates": "allowed",
        "ace_points": 11,
        "joker_slide": True,
        "joker_slide_repeat": True,
    },
    {"jokers": 3, "joker_slide": True, "ace_rank": "around_corner"},  # slides wrap (§2B.13)
    # borrowing (§2D.22): greedy borrows the card that melds the most of its own points
    {"borrowing": "any"},
    {"borrowing": "own", "ace_rank": "around_corner", "must_discard_to_go_out": True},
    {"borrowing": "any", "melds_per_turn": "one", "layoff_requires_meld": "after_first_meld"},
    BORROW_WITH_JOKERS,  # with jokers, their declarations and limit, and an initial meld
    {
        "jokers": 3,
        "joker_declare": "three_card_group",
        "joker_replace": "steal_by_replacement",
        "ace_rank": "around_corner",
        "joker_limit": "not_more_than_naturals",
    },
    {"jokers": 2, "call_rummy": True, "layoff_requires_meld": "after_first_meld"},
    # the 40-card pack (§2A.7): 6-7-J runs, no 8s, 9s or 10s in the shoe
    {"strip_8_9_10": True, "jokers": 2, "joker_slide": True},
    {"strip_8_9_10": True, "run_suit": "any_suit", "call_rummy": True},
    {  # play_direction (§2K.46): the deal, the turns and the callers go the other way
        "play_direction": "counterclockwise",
        "call_rummy": True,
        "layoff_requires_meld": "after_first_meld",
    },
)
TONK_SETTINGS = (
    {"strip_8_9_10": True, "tonk_instant": "47_50"},  # §2A.7, §2L.56
    {"strip_8_9_10": True, "tonk_instant": "47_50", "tonk_super": "le9", "face_values": "rank"},
    {"tonk_deal": 7, "tonk_instant": "ranked", "tonk_super": "le9"},
    {"tonk_instant": "le15", "tonk_flat_out_payment": True, "tonk_stock_out": "redeal"},
    {"tonk_drop_penalty": "lowest_only", "tonk_no_fourth_in_group": True},
    {"tonk_drop_penalty": "per_player_to_lowest", "tonk_one_layoff_per_turn": True},
    {"tonk_drop_penalty": "two_to_all", "tonk_layoff_skips_discard": True, "upcard": False},
    {"tonk_instant": 50, "face_values": "rank", "tonk_deal": 7},
    {"tonk_stock_card_must_play": True},
    {"tonk_stock_card_must_play": True, "tonk_deal": 7, "melds_per_turn": "unlimited"},
    {
        "tonk_stock_card_must_play": True,
        "tonk_one_layoff_per_turn": True,
        "tonk_layoff_skips_discard": True,
        "tonk_no_fourth_in_group": True,
    },
    {"play_direction": "counterclockwise"},  # §2K.46
)
"""Tonk's options (§2L) that the oracle plays, at 2 and 5 players."""
TONK_BOT_CASES = (
    ({}, ("random", "random")),  # the drop on 1 in 8, coins to take, uniform actions
    ({}, ("random", "greedy")),
    ({}, ("greedy", "random", "random", "greedy", "random")),
    ({}, ("random",) * 6),
    ({"tonk_stock_card_must_play": True}, ("random", "greedy", "random")),  # §2L.48
    ({"tonk_stock_card_must_play": True, "melds_per_turn": "unlimited"}, ("random",) * 2),
    (
        {
            "tonk_one_layoff_per_turn": True,
            "tonk_layoff_skips_discard": True,
            "tonk_no_fourth_in_group": True,
        },
        ("random", "random", "greedy"),
    ),
    ({"tonk_meld_immediately": True}, ("random", "greedy", "random")),  # §2L.49
    ({"tonk_meld_immediately": True, "melds_per_turn": "unlimited"}, ("random",) * 4),
    ({"tonk_deal": 7, "melds_per_turn": "unlimited"}, ("random", "random", "greedy", "random")),
    ({"play_direction": "counterclockwise"}, ("random", "greedy", "random", "greedy")),
    # 6 × 7 cards leave 9 in the stock: the stock-out, and random's drop before it (§2L.55)
    ({"tonk_deal": 7}, ("greedy", "greedy", "random", "greedy", "greedy", "random")),
)
"""Tonk with line-ups of random and greedy (docs/bots.md "Tonk: the drop"): (settings, bots)."""
TONK_BOT_HANDS = 120
PHOM_CASES = (
    ({}, 2),
    ({}, 3),
    ({}, 4),
    ({"phom_layoff_others": False}, 3),  # §2K.43: only one's own melds shown
    ({"phom_discard_taken_penalty": True, "phom_three_taken_liability": True}, 2),
    ({"phom_discard_taken_penalty": True, "phom_three_taken_liability": True}, 4),
    ({"play_direction": "counterclockwise"}, 3),  # §2K.46, §3.13 open point 1
)
"""Phỏm (§3.13) with its defaults and its options (§2K.43-46): (settings, players)."""
PHOM_HANDS = 200
PHOM_BOT_CASES = (
    ({}, ("random", "random")),  # a coin to take, uniform discards, a coin a lay-off
    ({}, ("random", "greedy")),
    ({}, ("greedy", "random", "random")),
    ({}, ("random",) * 4),
    ({"phom_layoff_others": False}, ("random", "greedy", "random")),  # §2K.43
    ({"phom_discard_taken_penalty": True, "phom_three_taken_liability": True}, ("random",) * 3),
    ({"play_direction": "counterclockwise"}, ("random", "greedy", "random", "greedy")),
)
"""Phỏm with line-ups of random and greedy (docs/bots.md "Phỏm"): (settings, bots)."""
PHOM_BOT_HANDS = 24
CONQUIAN_CASES = (
    ({}, ("greedy", "greedy")),
    ({}, ("careful", "careful")),  # careful forces (changing nothing against careful)
    ({}, ("random", "random")),  # coins to force and to use, uniform discards
    ({}, ("greedy", "careful")),
    ({}, ("careful", "random")),  # forcing makes random use cards it might turn down
    ({}, ("random", "greedy")),
    ({"rearrange": "none"}, ("greedy", "greedy")),  # a new meld or a lay-off (§2D.23)
    ({"rearrange": "none"}, ("random", "careful")),
    ({"run_max": 5}, ("greedy", "greedy")),  # the run cap (§1.3): fewer cards fit
    ({"run_max": 5}, ("careful", "random")),
    ({"strip_8_9_10": False}, ("greedy", "greedy")),  # the 52-card pack
    ({"strip_8_9_10": False}, ("careful", "random")),
    ({"strip_8_9_10": False, "ace_rank": "high"}, ("greedy", "careful")),
    ({"run_suit": "any_suit"}, ("greedy", "random")),
    ({"rearrange": "none", "run_max": 3, "run_suit": "any_suit"}, ("careful", "greedy")),
    ({"game_end": "single_hand"}, ("careful", "random")),  # no stake carried between games
)
"""Conquian (§3.21) with its file's rules and settings it accepts: (settings, bots)."""
CONQUIAN_HANDS = 200
CONTINENTAL_CASES = (
    ("continental", 2),
    ("continental", 4),
    ("continental", 7),  # 3 packs, 3 jokers
    ("continental@bonuses", 2),
    ("continental@bonuses", 3),
    ("continental@shuffle", 2),
    ("continental@shuffle", 5),
    ("continental@deuces", 2),
    ("continental@deuces", 4),
    ("continental@deuces", 9),  # 4 packs, 4 jokers
    ("continental", 12),  # ~130 turns a hand: more event rows (``CONTINENTAL_ROWS``)
)
"""Continental (§3.11) and its presets, greedy at every seat: (file, players)."""
CONTINENTAL_HANDS = 30
CONTINENTAL_BOT_CASES = (
    ("continental", ("random", "random")),  # coins to take and to go out, uniform discards
    ("continental", ("greedy", "random")),
    ("continental", ("random", "greedy", "random", "greedy")),
    ("continental@bonuses", ("random", "greedy", "random")),
    ("continental@shuffle", ("random", "random")),
    ("continental@shuffle", ("greedy", "random", "random", "greedy", "random")),
    ("continental@deuces", ("random", "greedy")),
    ("continental@deuces", ("random",) * 4),
    ("continental", ("random", "greedy") * 4),  # 8 players: 3 packs, 3 jokers
    ("continental@deuces", ("greedy", "random", "random") * 3),  # 9 players: 4 packs
    ("continental", ("random", "greedy") * 6),  # 12 players: ~200 turns a hand
)
"""Continental and its presets with line-ups of random and greedy: (file, bots)."""
CAROUSEL_CASES = (
    ("carousel_knock", ("greedy",) * 2),  # one pack and a joker
    ("carousel_knock", ("greedy",) * 4),  # two packs, two jokers
    ("carousel_knock", ("careful", "greedy", "random")),
    ("carousel_knock", ("random", "random")),
    ("carousel_knock", ("random", "careful", "greedy", "careful", "random")),
)
"""Carousel (§3.16, §2M): (file, bots); greedy at 2 and 4 players, then careful and random."""
CAROUSEL_HANDS = (16, 6, 5, 10, 5)  # a case's hands in quick mode (long mode: --hands)
CAROUSEL_ROWS = 1500  # a re-formed table lays every table meld down again: many meld rows
CONTINENTAL_BOT_HANDS = 8
CONTINENTAL_BOT_ROWS = 1500
CONTINENTAL_ROWS = 800
KNOCK_BOT_CASES = (
    ("gin_rummy", ("simple", "simple")),
    ("gin_rummy", ("random", "greedy")),  # random takes, discards and knocks on coins
    ("gin_rummy", ("simple", "random")),
    ("oklahoma_gin", ("random", "simple")),
    ("oklahoma_gin", ("greedy", "simple")),
    ("knock_rummy", ("simple", "random", "greedy")),
    ("knock_rummy", ("random", "random")),  # random knocks with any count (no limit)
    ("knock_rummy", ("simple",) * 5),
    ("gin_rummy_3p", ("simple", "random", "greedy")),
    ("gin_rummy_4p", ("simple", "random", "greedy", "random")),
)
"""The knock family's files with line-ups of simple, random and greedy: (file, bots)."""
KNOCK_HANDS = 30
KNOCK_SETTINGS = (
    ("gin_rummy", {"knock_limit": 5}, 2),  # §2I.32's [001] limit
    ("gin_rummy", {"knock_limit": 0}, 2),  # gin only: greedy waits, hands void
    ("gin_rummy", {"layoff_target": "none"}, 2),  # no lay-offs on the knocker's melds
    ("gin_rummy", {"gin_bonus": 25, "undercut_bonus": 25}, 2),  # §3.17's seed options
    ("gin_rummy", {"spade_double": True, "oklahoma_extra_bonus": True}, 2),  # §2I.38-39
    ("knock_rummy", {"knock_limit": 5}, 3),
    ("knock_rummy", {"stock_exhaustion": "shuffle_except_top"}, 5),
)
"""The knock family under settings its files do not use: (file, settings, players)."""
R, G = "random", "greedy"
PROGRESSIVE_BOT_CASES = (
    ("rummy_basic", (R, R)),
    ("rummy_basic", (G, R, R, G, R, R)),
    ("rummy_basic@000", (R, G)),
    ("rummy_basic@000", (R, R, G, R, R, G)),
    ("rummy_basic@002", (R, R)),  # one meld a turn (§2D.19)
    ("rummy_basic@002", (R, G, R, R, G, R)),
    ("rummy_basic@003", (R, G)),
    ("rummy_basic@003", (G, R, R, G, R, R, G)),  # 7 players: two packs
    ("rummy_basic@004", (R, R)),
    ("rummy_basic@004", (R, R, G, R, R, G)),
    ("around_the_corner", (R, G)),
    ("around_the_corner", (R, G, R, R, G, R)),
    ("block_rummy", (R, R)),  # random declines the discard top on a coin: block endings
    ("block_rummy", (G, R, R, G, R, R)),
    ("block_rummy@000", (R, G)),
    ("block_rummy@000", (R, R, G, R, R, G)),
    ("block_rummy@002", (R, R)),
    ("block_rummy@002", (R, G, R, R, G, R)),
    ("call_rummy", (R, G)),  # random calls on a coin
    ("call_rummy", (G, R, R, G, R, R)),
    ("throw_down_rummy", (R, R)),  # a coin, then a uniform card of the discard area
    ("throw_down_rummy", (R, R, G, R, R, G)),
    ("full_rummy", (R, G)),  # all at once: out on a coin, a uniform card outside
    ("full_rummy", (R, G, R, R, G, R)),
    ("queen_city_rum", (R, R)),
    ("queen_city_rum", (G, R, R, G, R, R)),
    ("boat_house_rum", (R, R)),  # top_plus_one's coins (the top, then the next discard)
    ("boat_house_rum", (R, R, G, R, R, G)),
    ("caloochi", (R, R)),  # initial meld 51, jokers declared at random, taken to hand
    ("caloochi", (R, G, R, R)),
    ("german_rummy", (R, G)),  # the joker limit, reuse_same_turn: a joker owed back
    ("german_rummy", (G, R, R, G, R, R)),
    ("double_rum", (R, R)),  # duplicates in groups, the slide
    ("double_rum", (R, R, G, R, R, G)),
    ("caloochi@ace_low", (R, G)),
    ("caloochi@ace_low", (R, G, R, R)),
    ("caloochi@duplicates", (R, R)),
    ("caloochi@duplicates", (G, R, R, G)),
    ("caloochi@must_discard", (R, G)),
    ("caloochi@must_discard", (R, R, G, R)),
    ("double_rum@2_jokers", (R, R)),
    ("double_rum@2_jokers", (R, G, R, R, G, R)),
    ("double_rum@slide_repeat", (R, G)),
    ("double_rum@slide_repeat", (G, R, R, G, R, R)),
    ("german_rummy@restricted_discard", (R, R)),
    ("german_rummy@restricted_discard", (R, R, G, R, R, G)),
)
"""The progressive rummy files (all at once among them) with line-ups of random and greedy,
at their lowest and highest player count: (file, bots)."""
PROGRESSIVE_BOT_SETTINGS = (
    ({"borrowing": "any"}, (R, R)),  # §2D.22: each new meld through a card it may borrow
    ({"borrowing": "own", "ace_rank": "around_corner", "must_discard_to_go_out": True}, (R, G)),
    (BORROW_WITH_JOKERS, (R, R, G, R, R)),  # borrowing with jokers, an initial meld
    (ANY_SUIT_JOKERS, (R, R)),  # an any-suit run's jokers declared at random, replaced
    (
        {
            "jokers": 3,
            "joker_declare": "three_card_group",
            "joker_replace": "steal_by_replacement",
            "ace_rank": "around_corner",
            "joker_limit": "not_more_than_naturals",
        },
        (R, G, R, R, G),
    ),
    ({"discard_draw": "top_plus_one"}, (R, G, R, R, G)),
    # only_for_initial_meld: random takes on a coin only a card it could open with, and
    # then may not stop before it has opened
    ({"initial_meld_min": 30, "discard_before_initial_meld": "only_for_initial_meld"}, (R, R)),
    (  # a called joker, declared by the caller's bot
        {"jokers": 2, "call_rummy": True, "layoff_requires_meld": "after_first_meld"},
        (R, R, G, R, R),
    ),
)
"""rummy_basic under settings no file uses, with random: (settings, bots)."""
PROGRESSIVE_BOT_HANDS = 16
PROGRESSIVE_BOT_ROWS = 1000  # random hands are long: up to the turn cap of 500 turns
NOWRANG_SEEDS = (29, 11, 1000)
"""Nowrang (§3.15), greedy at both seats: seeds of ``NOWRANG_HANDS`` hands each."""
NOWRANG_HANDS = 200
NOWRANG_BOTS = (("random", "random"), ("random", "greedy"), ("greedy", "random"))
"""Nowrang with random (docs/bots.md "Fixed patterns: Nowrang"): line-ups of 2 seats."""
NOWRANG_BOT_HANDS = 30
NOWRANG_BOT_ROWS = 800  # random plays ~100 turns a hand, and stalls 1.4% (the 500-turn cap)
ALL_AT_ONCE_SETTINGS = (
    {"must_discard_to_go_out": True},
    {"scoring": "unmelded_to_winner", "ace_rank": "around_corner", "ace_points": 11},
    {"ace_rank": "high_or_low", "run_suit": "any_suit"},
    {"stock_exhaustion": "block_totals"},
)
"""Settings no file combines with all_at_once (Boat House's scoring among them, §3.7):
full_rummy with each, at 2 and 5 players."""
"""Settings no variant file combines with progressive rummy yet but ``sim.engine`` plays
: rummy_basic with each, at 2 and 5 players."""


def engine_table_search(rules: Rules, players: int):
    """Carousel's table search as the engine runs it (``repartition.best_table_meld`` under
    its frame cap, ``carousel_policy.NODE_CAP``), for the oracle hand (``table_search``):
    ``search(hand, table, declared, better_than, must)`` returns (did it reach the cap, did
    it cut a card's candidates, the hand value it plays, its melds, its freed jokers). The
    melds are ``("group", rank, naturals, wild jokers)`` or ``("run", (suit, first
    position, slots), naturals, wild jokers)``, a kept table joker standing in them as a
    natural copy of its card. The oracle compares the re-partition it chose with its own
    where the cap was not reached, and plays it, checked, where it was (docs/bots.md)."""
    from sim.engine import melds as M
    from sim.engine import repartition as R
    from sim.engine.carousel_policy import NODE_CAP
    from sim.engine.specs import spec_for

    params, values = api.compile_rules(rules, players)
    fx = spec_for(params)
    work = M.new_work()
    rp = R.new_rp()
    ace = rules.ace_rank

    def layers(cards):
        out = np.zeros(M.MAX_LAYERS, np.int64)
        for k in cards:
            level = 0
            while (int(out[level]) >> k) & 1:
                level += 1
            out[level] |= np.int64(1) << k
        return out

    def search(hand, table, declared, better_than, must):
        marks = np.zeros(R.MAX_TABLE_JOKERS, np.int64)
        marks[: len(declared)] = declared
        naturals = [k for k in hand if k != oracle.JOKER]
        gain = R.best_table_meld(
            fx, params, values, work, rp, layers(naturals), np.int64(len(hand) - len(naturals)),
            layers(table), marks, np.int64(len(declared)), np.int64(NODE_CAP),
            np.int64(better_than), np.int64(-1 if must is None else 1 << must),
        )  # fmt: skip
        scal = rp[R.RW_SCAL]
        capped, truncated = bool(scal[R.RP_CAPPED]), bool(scal[R.RP_TRUNCATED])
        melds = []
        for m in range(int(scal[R.RP_BEST_N])):
            row = [int(x) for x in rp[R.RW_BEST + m]]
            cards = []
            for level in range(M.MAX_LAYERS):
                cards += [k for k in range(52) if (row[M.CA_TAKE + level] >> k) & 1]
            jokers = row[M.CA_JOKERS]
            if row[M.CA_TYPE] == M.MELD_GROUP:
                melds.append(("group", row[M.CA_LO], sorted(cards), jokers))
                continue
            lo, suit, shape = row[M.CA_LO], row[M.CA_SUIT], row[M.CA_SHAPE]
            slots = []
            for i in range(row[M.CA_LEN]):
                digit = (shape >> (3 * i)) & 7
                rank = oracle.rank_at(ace, lo + i)
                slots.append(oracle.JOKER if digit == M.JOKER_DIGIT else rank * 4 + digit)
            melds.append(("run", (suit, lo, slots), sorted(cards), jokers))
        return capped, truncated, int(gain), melds, int(scal[R.RP_FREED])

    return search


def with_settings(extra: dict) -> Rules:
    base = load_variant("rummy_basic")
    return dataclasses.replace(base, values={**base.values, **extra})


def engine_events(out, partnership: bool = False) -> list[list[oracle.Event]]:
    """The engine's event log cut into hands (each ends with its E_END; a partnership
    hand, two tables each with its E_END, with its E_TEAMS)."""
    last = oracle.E_TEAMS if partnership else S.E_END
    hands: list[list[oracle.Event]] = []
    current: list[oracle.Event] = []
    for row in out.events:
        n = int(row[S.EV_N])
        event = (
            int(row[S.EV_TYPE]),
            int(row[S.EV_SEAT]),
            int(row[S.EV_A]),
            int(row[S.EV_B]),
            tuple(int(c) for c in row[S.EV_CARDS : S.EV_CARDS + n]),
        )
        if event[0] == S.E_SCORE:
            continue  # the scores are compared through the hands table
        current.append(event)
        if event[0] == last:
            hands.append(current)
            current = []
    assert not current, "the engine's event log ends inside a hand (too few event rows?)"
    return hands


def first_difference(ours: list, theirs: list) -> int:
    for i, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            return i
    return -1 if len(ours) == len(theirs) else min(len(ours), len(theirs))


def describe(name, players, seed, row, engine, mine, at) -> str:
    lo = max(0, at - 6)
    lines = [
        f"{name} at {players} players, seed {seed}: hand {int(row[OUT.H_HAND])} of game "
        f"{int(row[OUT.H_GAME])} (deal {int(row[OUT.H_DEAL])}, dealer "
        f"{int(row[OUT.H_DEALER])}) differs at event {at}:",
        f"  {'engine':<52} | oracle",
    ]
    for i in range(lo, max(len(engine), len(mine))):
        if i > at + 3:
            break
        a = oracle.event_text(engine[i]) if i < len(engine) else "-"
        b = oracle.event_text(mine[i]) if i < len(mine) else "-"
        mark = ">>" if i == at else "  "
        lines.append(f"{mark}{a:<52} | {b}")
    return "\n".join(lines)


def compare(
    name: str,
    players: int,
    hands: int,
    seed: int,
    rules: Rules | None = None,
    bots: tuple[str, ...] = (),
    first: int = 0,
    rows: int = EVENT_ROWS,
) -> tuple[Counter, str | None]:
    """Play ``hands`` hands on the engine and each again on the oracle; returns how the
    matching hands ended (by reason name) and how many events of each type they logged,
    and the first difference (None: every event and every hand's scores matched).
    ``bots``: one bot name a seat (default: greedy at every seat; careful in Conquian,
    simple in the knock family, random there and in progressive rummy). ``first``: the
    first game and deal played. ``rows``: event rows a hand."""
    rules = load_variant(name) if rules is None else rules
    table = oracle.Table.of(rules, players)
    params, values = api.compile_rules(rules, players)
    bots = tuple(bots) or ("greedy",) * players
    codes = np.array([OUT.BOT_NAMES.index(b) for b in bots], np.int64)
    out = api.play(
        params,
        values,
        codes,
        seed=seed,
        first_game=first,
        first_deal=first,
        hands=hands,
        events=rows * hands * (2 if table.partnership else 1),  # 4-player gin: 2 tables
    )
    logs = engine_events(out, table.partnership)
    assert len(logs) == out.hands == hands, (len(logs), out.hands, hands)
    ended: Counter = Counter()
    carry = rules.stock_exhaustion == "drawn_hand_carry"  # Conquian's stakes (§3.21)
    search = engine_table_search(rules, players) if table.carousel else None
    single = rules.values["game_end"] == "single_hand"
    stake = 1
    for h in range(hands):
        row = out.hand_rows[h]
        deal, dealer = int(row[OUT.H_DEAL]), int(row[OUT.H_DEALER])
        if row[OUT.H_HAND] == 0:
            stake = 1  # a game's first hand is worth 1 tento
        # a game's first dealer is drawn from its own stream (one-hand games: the first's;
        # the deal then rotates, as between the hands of a game)
        if row[OUT.H_HAND] == 0 and not (single and h > 0):
            drawn = oracle.first_dealer(seed, 0, int(row[OUT.H_GAME]), players)
            if dealer != drawn:
                return (
                    ended,
                    f"{name} at {players} players: game {int(row[OUT.H_GAME])} "
                    f"starts with dealer {dealer}, the oracle draws {drawn}",
                )
        if table.partnership:  # §3.19: two tables, whose seats depend on the hand's index
            index = int(row[OUT.H_HAND])
            played = oracle.PartnershipHand(table, seed, deal, dealer, bots=bots, hand_index=index)
        else:
            played = oracle.Hand(
                table, seed, deal, dealer, bots=bots, stake=stake, table_search=search
            )
        reason, winner, mine = played.play()
        if getattr(played, "stopped", None) is not None:  # Carousel: a search it cannot follow
            at = first_difference(logs[h][: len(mine)], mine)
            if at >= 0:
                return ended, describe(name, players, seed, row, logs[h], mine, at)
            if played.stopped != "large":
                return ended, (
                    f"{name} at {players} players, seed {seed}, deal {deal}, event "
                    f"{len(mine)}: {played.stopped}"
                )
            ended[played.stopped] += 1  # counted apart: not an agreement
            ended["table_searches"] += played.searches
            ended["own_repartitions"] += played.own_repartitions
            ended["capped_searches"] += played.capped_searches
            ended.update("ev:" + oracle.EVENT_NAMES[e[0]] for e in mine)
            continue
        if carry and winner >= 0 and stake > 1:
            ended["won_carried"] += 1  # a hand won after a drawn hand (worth more)
        if carry:  # the next hand is worth one tento more after a drawn hand
            stake = stake + 1 if reason == oracle.EXHAUSTED else 1
        at = first_difference(logs[h], mine)
        if at >= 0:
            return ended, describe(name, players, seed, row, logs[h], mine, at)
        assert reason == int(row[OUT.H_END_REASON]) and winner == int(row[OUT.H_WINNER])
        engine_scores = [int(x) for x in out.hand_scores[h]]
        engine_side = [int(x) for x in out.hand_side[h]]
        if engine_side != played.side:  # Oklahoma's side bonuses (§2I.39)
            return ended, (
                f"{name} at {players} players, deal {deal}: the engine's side bonuses are "
                f"{engine_side}, the oracle's {played.side}"
            )
        if engine_scores != played.scores:
            return ended, (
                f"{name} at {players} players, deal {deal}: the engine scores {engine_scores},"
                f" the oracle {played.scores}"
            )
        ended["table_searches"] += getattr(played, "searches", 0)
        ended["own_repartitions"] += getattr(played, "own_repartitions", 0)
        if getattr(played, "capped_searches", 0):  # Carousel: capped answers, checked only
            ended["capped_hands"] += 1  # for legality and what they play
            ended["capped_searches"] += played.capped_searches
        ended[oracle.REASONS.get(reason, str(reason))] += 1
        ended.update("ev:" + oracle.EVENT_NAMES[e[0]] for e in mine)
    return ended, None


@pytest.mark.parametrize(("name", "players"), CASES)
def test_engine_hands_equal_the_oracle_hands(name, players):
    _, difference = compare(name, players, HANDS, SEED)
    assert difference is None, difference


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("extra", SETTINGS, ids=lambda extra: ",".join(map(str, extra.values())))
def test_engine_hands_equal_the_oracle_hands_under_other_settings(extra, players):
    rules = with_settings(extra)
    _, difference = compare(f"rummy_basic with {extra}", players, HANDS, SEED, rules)
    assert difference is None, difference


def test_the_take_test_under_the_joker_limit_is_the_documented_one():
    """Greedy takes a card under the joker limit only when a meld within the limit holds it
    (docs/bots.md): seed 29's first hand at 5 players, where seat 3 holding 2♣ 4♥ 8♠ 8♣ and
    two jokers is offered J♥ (no meld within the limit holds it) on turn 3."""
    extra = {
        "jokers": 3,
        "joker_limit": "not_more_than_naturals",
        "joker_replace": "steal_by_replacement",
        "joker_declare": "three_card_group",
        "ace_rank": "around_corner",
    }
    rules = with_settings(extra)
    _, difference = compare(f"rummy_basic with {extra}", 5, 5, SEED, rules)
    assert difference is None, difference


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize("extra", TONK_SETTINGS, ids=lambda extra: ",".join(map(str, extra)))
def test_engine_hands_equal_the_oracle_hands_in_tonk(extra, players):
    rules = load_variant("tonk", extra)
    _, difference = compare(f"tonk with {extra}", players, 200, SEED, rules)
    assert difference is None, difference


@pytest.mark.parametrize(
    ("extra", "bots"),
    TONK_BOT_CASES,
    ids=[",".join(f"{k}={v}" for k, v in e.items()) + "-" + "-".join(b) for e, b in TONK_BOT_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_tonk_with_random(extra, bots):
    """Tonk (§3.22) with random (docs/bots.md "random", "Tonk: the drop"): its drop on one
    chance in 8 at each ask, the coin to take, the uniform table actions and stop, the
    stock card's uniform pick (§2L.48), the melds first (§2L.49), the uniform discard."""
    rules = load_variant("tonk", extra)
    name = f"tonk with {extra}, {bots}"
    ended, difference = compare(name, len(bots), TONK_BOT_HANDS, SEED, rules, bots)
    assert difference is None, difference
    assert ended["ev:drop"] > 0 and ended["ev:draw_discard"] > 0


@pytest.mark.parametrize(
    ("name", "bots"),
    PROGRESSIVE_BOT_CASES,
    ids=[f"{n}-{'-'.join(b)}" for n, b in PROGRESSIVE_BOT_CASES],
)
def test_engine_hands_equal_the_oracle_hands_with_random(name, bots):
    """The progressive rummy files with random beside greedy (docs/bots.md, "random" and
    "All at once"): its coins to take, to call and to go out, its uniform table actions in
    the engine's listing order, its joker declarations and its uniform discards."""
    rules = load_variant(name)
    ended, difference = compare(
        f"{name} {bots}", len(bots), PROGRESSIVE_BOT_HANDS, SEED, rules, bots,
        rows=PROGRESSIVE_BOT_ROWS,
    )  # fmt: skip
    assert difference is None, difference
    assert ended["ev:meld"] > 0 and ended["went_out"] + ended["went_rummy"] > 0


@pytest.mark.parametrize(
    ("extra", "bots"),
    PROGRESSIVE_BOT_SETTINGS,
    ids=[",".join(map(str, e.values())) + "-" + "-".join(b) for e, b in PROGRESSIVE_BOT_SETTINGS],
)
def test_engine_hands_equal_the_oracle_hands_with_random_under_other_settings(extra, bots):
    rules = with_settings(extra)
    ended, difference = compare(
        f"rummy_basic with {extra}, {bots}", len(bots), PROGRESSIVE_BOT_HANDS, SEED, rules,
        bots, rows=PROGRESSIVE_BOT_ROWS,
    )  # fmt: skip
    assert difference is None, difference
    if extra.get("borrowing", "off") != "off":
        assert ended["ev:borrow"] > 0


def test_random_plays_every_progressive_file_at_its_lowest_and_highest_count():
    """Every progressive rummy file of ``FILES`` (all at once among them) has a random
    line-up at its lowest and at its highest player count in ``PROGRESSIVE_BOT_CASES``."""
    progressive = FILES[: FILES.index("german_rummy@restricted_discard") + 1]
    covered = {(name, len(bots)) for name, bots in PROGRESSIVE_BOT_CASES if R in bots}
    assert {name for name, _ in covered} == set(progressive)
    for name in progressive:
        assert {(name, n) for n in load_variant(name).players} <= covered


def test_the_memo_arrangement_is_the_brute_force_arrangement():
    """``memo_arrangement`` (the oracle hand's arrangement under all at once, where random's
    hands grow large) chooses what ``tests.oracles.arrangement`` chooses, melds and order,
    on hands of 3 to 12 cards under every ace rule, runs of one suit and of any suits."""
    rng = np.random.default_rng(5)
    values = oracle.Table.of(load_variant("rummy_basic"), 2).values
    for ace in ("low", "high", "high_or_low", "around_corner"):
        for any_suit in (False, True):
            rules = oracle.arr.Rules(ace_rank=ace, any_suit=any_suit)
            for _ in range(60):
                size = int(rng.integers(3, 13))
                cards = tuple(sorted(int(k) for k in rng.choice(52, size, replace=False)))
                brute = oracle.arr.best_arrangement(list(cards), rules, values, 0)
                assert oracle.memo_arrangement(rules, values, cards) == brute, cards


@pytest.mark.parametrize(
    ("extra", "players"),
    PHOM_CASES,
    ids=[",".join(map(str, extra.values())) + f"-{n}" for extra, n in PHOM_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_phom(extra, players):
    rules = load_variant("phom", extra)
    _, difference = compare(f"phom with {extra}", players, PHOM_HANDS, SEED, rules)
    assert difference is None, difference


@pytest.mark.parametrize(
    ("extra", "bots"),
    PHOM_BOT_CASES,
    ids=[",".join(f"{k}={v}" for k, v in e.items()) + "-" + "-".join(b) for e, b in PHOM_BOT_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_phom_with_random(extra, bots):
    """Phỏm (§3.13) with random (docs/bots.md "Phỏm"): a coin for each take the rules
    allow, a uniform allowed discard, a coin for each fitting card in the fourth turn."""
    rules = load_variant("phom", extra)
    name = f"phom with {extra}, {bots}"
    ended, difference = compare(name, len(bots), PHOM_BOT_HANDS, SEED, rules, bots)
    assert difference is None, difference
    assert ended["ev:draw_discard"] > 0 and ended["showdown"] > 0
    if extra.get("phom_layoff_others", True):
        assert ended["ev:layoff"] > 0


def test_the_three_taken_liability_is_the_documented_one():
    """§2K.45: seed 70's first hand at 3 players, where seat 0 goes Ù (with a discard) after
    taking 3 discards from seat 2, who pays the 2 × 6 chips alone (and, under
    phom_discard_taken_penalty, 3 chips more); the sampled cases seldom meet it."""
    extra = {"phom_discard_taken_penalty": True, "phom_three_taken_liability": True}
    rules = load_variant("phom", extra)
    ended, difference = compare(f"phom with {extra}", 3, 1, 70, rules)
    assert difference is None, difference
    assert ended["went_u"] == 1
    played = oracle.Hand(oracle.Table.of(rules, 3), 70, 0, oracle.first_dealer(70, 0, 0, 3))
    assert played.play()[:2] == (oracle.WENT_U, 0)
    assert len(played.picked[0]) == 3 and played.scores == [15, 0, -15]


@pytest.mark.parametrize(
    ("extra", "bots"),
    CONQUIAN_CASES,
    ids=[",".join(map(str, extra.values())) + "-" + "-".join(b) for extra, b in CONQUIAN_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_conquian(extra, bots):
    rules = load_variant("conquian", extra)
    name = f"conquian with {extra}, {bots}"
    ended, difference = compare(name, 2, CONQUIAN_HANDS, SEED, rules, bots)
    assert difference is None, difference
    assert ended["ev:use"] > 0 and ended["ev:reject"] > 0 and ended["ev:pass"] > 0
    if extra == {}:  # the file's rules: every clause met in the sample
        assert ended["went_out"] > 0 and ended["exhausted"] > 0 and ended["won_carried"] > 0
        assert ended["ev:reform"] > 0
        assert (ended["ev:force"] > 0) == (set(bots) != {"greedy"})


@pytest.mark.parametrize("ace_rank", ["high_or_low", "around_corner"])
def test_conquian_discard_ties_next_to_the_ace(ace_rank):
    """Greedy's discard counts the cards of its suit one or two run positions away: with
    the ace high or low (positions 0 and 13) or around the corner, K and A are one position
    apart. Seed 29, greedy: high_or_low deal 9 (seat 0 holding A♣ 7♠ 7♥ Q♣, each with one
    tie, discards Q♣), around_corner deal 8 (seat 1 holding A♥ 2♠ 2♥ 2♦ 6♦ 6♣ 9♣ K♥
    discards 9♣, K♥ having 2 ties). The engine once counted from the ace's low position
    only, without wrapping, and discarded A♣ and K♥ there."""
    rules = load_variant("conquian", {"strip_8_9_10": False, "ace_rank": ace_rank})
    _, difference = compare(f"conquian with ace_rank {ace_rank}", 2, 30, SEED, rules)
    assert difference is None, difference


@pytest.mark.parametrize("seed", NOWRANG_SEEDS)
def test_engine_hands_equal_the_oracle_hands_in_nowrang(seed):
    """Nowrang (§3.15) with greedy: the 11/10 deal and the opening discard, the take and
    the discard around the cover, the declaration of 4+3+3 same-suit runs, the turned-over
    stock and the deadlock breaker after it (docs/bots.md, "Fixed patterns: Nowrang")."""
    ended, difference = compare("nowrang", 2, NOWRANG_HANDS, seed)
    assert difference is None, difference
    assert ended["went_out"] > 0 and ended["ev:meld"] == 3 * ended["went_out"]
    assert ended["ev:draw_discard"] > 0 and ended["ev:rebuild"] > 0


@pytest.mark.parametrize("bots", NOWRANG_BOTS, ids="-".join)
def test_engine_hands_equal_the_oracle_hands_in_nowrang_with_random(bots):
    """Nowrang (§3.15) with random (docs/bots.md "Fixed patterns: Nowrang"): a coin to take
    the discard top, a coin to go out when it can, a uniform discard outside the cover (of
    all allowed cards when none is), and after a rebuild the deadlock breaker every bot
    draws."""
    name = f"nowrang {bots}"
    rules = load_variant("nowrang")
    ended, difference = compare(
        name, 2, NOWRANG_BOT_HANDS, SEED, rules, bots, rows=NOWRANG_BOT_ROWS
    )
    assert difference is None, difference
    assert ended["went_out"] > 0 and ended["ev:draw_discard"] > 0 and ended["ev:rebuild"] > 0


@pytest.mark.parametrize(
    ("name", "bots"), KNOCK_BOT_CASES, ids=[f"{n}-{'-'.join(b)}" for n, b in KNOCK_BOT_CASES]
)
def test_engine_hands_equal_the_oracle_hands_in_the_knock_family(name, bots):
    """The knock family (§3.10, §3.17, §3.20) with simple, random and greedy (docs/bots.md,
    "The knock family"): the take, the discard and the knock, the showdown and the scores."""
    rules = load_variant(name)
    ended, difference = compare(f"{name} {bots}", len(bots), KNOCK_HANDS, SEED, rules, bots)
    assert difference is None, difference
    assert ended["ev:knock"] > 0


KNOCK_RARE = (
    # §3.10 rule 3: seat 2 ties the knocker (seat 0) at 41 and wins 8 without a penalty
    ("knock_rummy", ("random",) * 3, 26, oracle.UNDERCUT, 2, [0, 0, 8]),
    # open point 2: seats 1 and 2 at 44 beat the knocker's 55, split 11 + 10 floor
    ("knock_rummy", ("random",) * 3, 28, oracle.UNDERCUT, -1, [-10, 10, 10]),
    # §3.20: an ace upcard, gin only (limit 0): 20 + 70 and the side 40
    ("oklahoma_gin", ("random", "simple"), 29, oracle.GIN, 1, [0, 90]),
    # §3.20: a spade upcard doubles gin, 2 × (20 + 79), and the side 80
    ("oklahoma_gin", ("random", "simple"), 47, oracle.GIN, 1, [0, 198]),
    # §3.20: a spade upcard doubles an undercut, 2 × (4 - 0 + 10), and the side 40
    ("oklahoma_gin", ("greedy", "simple"), 46, oracle.UNDERCUT, 1, [0, 28]),
)
"""Endings the samples seldom meet (the first of each in the oracle's deals of seed 29):
(file, bots, game and deal, end reason, winner, scores)."""


@pytest.mark.parametrize(
    ("name", "bots", "deal", "reason", "winner", "scores"),
    KNOCK_RARE,
    ids=[f"{name}-{deal}" for name, _, deal, *_ in KNOCK_RARE],
)
def test_knock_family_rare_endings_are_the_documented_ones(
    name, bots, deal, reason, winner, scores
):
    """The knock family's rarer scorings (§3.10 rules 3-4 and open point 2; §3.20's ace
    and spade upcards) agree with the engine and are what RULES.md says."""
    rules = load_variant(name)
    _, difference = compare(name, len(bots), 1, SEED, rules, bots, first=deal)
    assert difference is None, difference
    dealer = oracle.first_dealer(SEED, 0, deal, len(bots))
    played = oracle.Hand(oracle.Table.of(rules, len(bots)), SEED, deal, dealer, bots=bots)
    assert played.play()[:2] == (reason, winner)
    assert played.scores == scores


@pytest.mark.parametrize(
    ("name", "extra", "players"),
    KNOCK_SETTINGS,
    ids=[f"{n}-" + ",".join(map(str, e.values())) for n, e, _ in KNOCK_SETTINGS],
)
def test_engine_hands_equal_the_oracle_hands_in_the_knock_family_settings(name, extra, players):
    rules = load_variant(name, extra)
    _, difference = compare(f"{name} with {extra}", players, KNOCK_HANDS, SEED, rules)
    assert difference is None, difference


@pytest.mark.parametrize(("name", "players"), CONTINENTAL_CASES)
def test_engine_hands_equal_the_oracle_hands_in_continental(name, players):
    """Continental (§3.11, §2J, §2B.14) with greedy: 15 cards from 2-4 packs with a joker
    each, the quick out before the first draw, the take (a joker, a 2 under deuces wild, a
    card that makes the cover larger), the go-out with the lowest kind that leaves 15 cards in
    one of the patterns and the runs the documented search lays down, the discard around the
    cover, the stock turned over or shuffled, and the zero-sum payment with its bonuses
    (docs/bots.md, "Fixed patterns with wild cards: Continental")."""
    ended, difference = compare(name, players, CONTINENTAL_HANDS, SEED, rows=CONTINENTAL_ROWS)
    assert difference is None, difference
    assert ended["went_out"] > 0 and ended["ev:meld"] >= 4 * ended["went_out"]


@pytest.mark.parametrize(
    ("name", "bots"),
    CONTINENTAL_BOT_CASES,
    ids=[f"{n}-{'-'.join(b)}" for n, b in CONTINENTAL_BOT_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_continental_with_random(name, bots):
    """Continental (§3.11) with random (docs/bots.md "Fixed patterns with wild cards"): a
    coin to take, a coin to go out when it can (the quick out before the first draw is
    every bot's), a uniform discard outside the cover, and after a rebuild the deadlock
    breaker every bot draws."""
    rules = load_variant(name)
    ended, difference = compare(
        f"{name} {bots}", len(bots), CONTINENTAL_BOT_HANDS, SEED, rules, bots,
        rows=CONTINENTAL_BOT_ROWS,
    )  # fmt: skip
    assert difference is None, difference
    assert ended["went_out"] > 0 and ended["ev:draw_discard"] > 0


BONUSES = {"continental_quick_bonus": True, "continental_special_bonus": True}
CONTINENTAL_FIRST_ROUND = (
    ("continental@bonuses", {}, 39286, 0, 1),  # the first player out after one draw: +7
    ("continental@deuces", BONUSES, 395, 0, 0),  # the first player's dealt 15 fit: +10
    ("continental@deuces", BONUSES, 5648, 1, 0),  # the second player's, after a turn
)
"""Continental's outs in the first round (seed 29, 2 players; the first of their kind in
the oracle's deals, as game and deal ``deal``): (file, settings, deal, winner, his draws)."""


@pytest.mark.parametrize(
    ("name", "extra", "deal", "winner", "draws"),
    CONTINENTAL_FIRST_ROUND,
    ids=[f"{name}-{deal}" for name, _, deal, _, _ in CONTINENTAL_FIRST_ROUND],
)
def test_continental_first_round_outs_are_the_documented_ones(name, extra, deal, winner, draws):
    """§3.11, §2J.40: a player whose dealt 15 cards fit goes out at the start of his first
    turn, before drawing, with no discard (the quick bonus: +10 from each opponent); one who
    fits after his first draw pays out +7. The 30-hand samples never meet them."""
    rules = load_variant(name, extra)
    ended, difference = compare(f"{name} with {extra}", 2, 1, SEED, rules, first=deal)
    assert difference is None, difference
    assert ended["went_out"] == 1
    dealer = oracle.first_dealer(SEED, 0, deal, 2)
    played = oracle.Hand(oracle.Table.of(rules, 2), SEED, deal, dealer)
    reason, out, events = played.play()
    assert (reason, out, played.draws[out]) == (oracle.WENT_OUT, winner, draws)
    pay = played.continental_pay(out)
    assert played.scores[out] == pay and pay >= 1 + (10 if draws == 0 else 7)
    discards = [e for e in events if e[0] == oracle.E_DISCARD and e[1] == out]
    assert len(discards) == draws  # no discard going out before drawing


def test_continental_runs_share_their_natural_cards_as_documented():
    """docs/variants.md "Continental": each run gets one natural card first, the first
    choice of one place a run (the first run's changing fastest) that the cards allow. Seed
    29's deal 312 under deuces wild at 2 players (the first such deal): seat 1 goes out with
    two Q-K-A♠ runs on one Q♠, two K♠, one A♠, the 2♠ and the 2♥; both runs cannot start on
    Q♠, so the first run holds K♠ A♠ (2♠ on Q♠'s place) and the second Q♠ K♠ (2♥ on A♠'s);
    with the first run's place changing slowest the first run would hold Q♠ K♠ A♠. The
    30-hand samples never meet a contested place."""
    ended, difference = compare("continental@deuces", 2, 1, SEED, first=312)
    assert difference is None, difference
    assert ended["went_out"] == 1 and ended["ev:meld"] == 5


def test_the_opening_declaration_is_the_documented_one():
    """§3.15: the non-dealer may declare on his opening discard turn. Seed 29's deal 35690
    (the first such deal of seed 29, by the oracle's deal), where seat 1 is dealt 5-6-7♣,
    6-7-8-9♠, 8-9-10♦ and 7♥: he lays the runs down in suit order and discards 7♥ without a
    draw; the 200-hand samples never meet it."""
    ended, difference = compare("nowrang", 2, 1, SEED, first=35690)
    assert difference is None, difference
    assert ended["went_out"] == 1 and ended["ev:draw_stock"] == ended["ev:draw_discard"] == 0
    assert ended["ev:meld"] == 3 and ended["ev:discard"] == 1


def test_the_oracle_cover_is_the_brute_force_cover():
    """The oracle hand's cover (``pattern_cover``, with the kept cards of the documented
    placement) holds as many cards as the brute force over every placement
    (tests/oracles/patterns.py), its cards are the hand's, and the runs of a hand that is
    the pattern are laid down exactly (``pattern_runs``)."""
    rng = np.random.default_rng(33)
    for ace in ("low", "high"):
        for _ in range(40):  # the brute force tries every placement: slow
            hand = set(int(k) for k in rng.choice(52, size=int(rng.integers(8, 13)), replace=False))
            size, kept = oracle.pattern_cover(frozenset(hand), (4, 3, 3), ace)
            assert size == best_cover(hand, (4, 3, 3), ace == "high") == len(kept)
            assert kept <= hand
            fit = random_pattern_hand(rng, (4, 3, 3), ace == "high")
            runs = oracle.pattern_runs(fit, (4, 3, 3), ace)
            assert sorted(len(r) for r in runs) == [3, 3, 4]
            assert {k for r in runs for k in r} == fit
            assert oracle.pattern_cover(frozenset(fit), (4, 3, 3), ace) == (10, frozenset(fit))


def test_the_oracle_suit_cover_sweep_is_the_documented_choice():
    """``suit_covers`` (the sweep the oracle hand plays) chooses, for every share, the
    placement ``suit_cover`` states (every placement compared by the documented order), for
    Nowrang's pattern and Continental's three, 13 and 14 run positions."""
    rng = np.random.default_rng(7)
    for lengths in [(4, 3, 3), *oracle.CONTINENTAL]:
        distinct, shares = oracle.pattern_shares(lengths)
        for n_pos in (13, 14):
            for _ in range(60):
                size = int(rng.integers(0, 9))
                col = frozenset(int(p) for p in rng.choice(n_pos, size, replace=False))
                swept = oracle.suit_covers(col, n_pos, tuple(shares), distinct)
                assert swept == [oracle.suit_cover(col, n_pos, d, distinct) for d in shares]


@pytest.mark.parametrize("deuces", [False, True])
def test_the_oracle_wild_search_is_the_brute_force_fit(deuces):
    """The oracle hand's Continental search (``wild_search``) finds a split exactly when the
    brute force of tests/oracles/patterns.py fits the hand, and its runs hold the hand's
    cards: 15-card hands that fit (drawn run by run) and random ones, two packs, jokers."""
    rng = np.random.default_rng(31 + deuces)
    shoe = [k for _ in range(2) for k in range(52)] + [oracle.JOKER] * 2
    fitted = 0
    for i in range(120):
        if i % 2 == 0:
            lengths = oracle.CONTINENTAL[int(rng.integers(3))]
            nat, jokers = random_wild_hand(rng, lengths, "high_or_low", deuces, 2)
        else:
            cards = [shoe[p] for p in rng.choice(len(shoe), 15, replace=False)]
            nat = Counter(k for k in cards if k != oracle.JOKER)
            jokers = cards.count(oracle.JOKER)
        runs = oracle.wild_search(nat, jokers, oracle.CONTINENTAL, "high_or_low", deuces)
        fits = fits_wild(nat, jokers, list(oracle.CONTINENTAL), "high_or_low", deuces)
        assert (runs is not None) == fits, (sorted(nat.elements()), jokers)
        if runs is not None:
            fitted += 1
            held: Counter = Counter()
            for run in runs:
                held.update(run.cards)
                assert len(run.cards) + run.jokers == run.length
            assert held == nat and sum(r.jokers for r in runs) == jokers
    assert fitted >= 60


@pytest.mark.parametrize(
    ("name", "bots", "hands"),
    [(*case, n) for case, n in zip(CAROUSEL_CASES, CAROUSEL_HANDS, strict=True)],
    ids=[f"{n}-{'-'.join(b)}" for n, b in CAROUSEL_CASES],
)
def test_engine_hands_equal_the_oracle_hands_in_carousel(name, bots, hands):
    """Carousel (§3.16, §2M) with greedy, careful and random (docs/bots.md "Carousel: meld
    actions and the knock"): up to three draws, the meld action after the first or second
    (the hand's own melds and the lay-offs, one lay-off, or the table re-formed), the knock
    at 5 or less, the stock-out's final turns, the round's scores. Where the engine's table
    search did not reach its frame cap, the oracle plays its own re-partition (the brute
    force's first in the declared order) and the engine's must be the same; where it did,
    the engine's answer is played, checked for legality and what it plays."""
    rules = load_variant(name)
    ended, difference = compare(
        f"{name} {bots}", len(bots), hands, SEED, rules, bots, rows=CAROUSEL_ROWS
    )
    assert difference is None, difference
    assert ended["ev:rearrange"] > 0 and ended["ev:meld"] > 0
    assert ended["large"] == 0  # every uncapped search checked by the brute force
    assert ended["own_repartitions"] > 0  # the oracle's own choice, the engine's the same


def test_the_oracle_covers_every_progressive_file_the_engine_plays():
    """A progressive-rummy file that sim.engine starts to play needs the oracle too (and
    so does a file of a family it covers: Tonk, Phỏm, Conquian, the knock family with
    Carousel; and an all_at_once file, Nowrang's pattern among them). A file it does not
    play yet is in ``NOT_YET`` with the reason, and really is not played."""
    families = ("rummy", "tonk", "phom", "conquian", "gin", "knock_rummy", "carousel")
    played = [name for name, _ in list_variants() if load_variant(name).family in families]
    own_cases = [name for name, _ in CONTINENTAL_CASES + CAROUSEL_CASES]
    assert sorted(played) == sorted({*FILES, *own_cases, *NOT_YET})
    assert not set(NOT_YET) & {*FILES, *own_cases}
    for name in NOT_YET:
        rules = load_variant(name)
        with pytest.raises(NotImplementedError):
            for n in player_counts(rules):
                oracle.Table.of(rules, n)


@pytest.mark.parametrize("players", [2, 5])
@pytest.mark.parametrize(
    "extra", ALL_AT_ONCE_SETTINGS, ids=lambda extra: ",".join(map(str, extra.values()))
)
def test_engine_hands_equal_the_oracle_hands_all_at_once(extra, players):
    base = load_variant("full_rummy")
    rules = dataclasses.replace(base, values={**base.values, **extra})
    _, difference = compare(f"full_rummy with {extra}", players, HANDS, SEED, rules)
    assert difference is None, difference


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000, help="hands per file and count")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--only", default="", help="only the cases whose name holds this")
    args = parser.parse_args(argv)
    failures = 0
    total: Counter = Counter()
    start = time.perf_counter()
    cases = [(name, n, None, ()) for name, n in CASES]
    cases += [
        (f"rummy_basic {extra}", n, with_settings(extra), ()) for extra in SETTINGS for n in (2, 5)
    ]
    cases += [(f"phom {extra}", n, load_variant("phom", extra), ()) for extra, n in PHOM_CASES[3:]]
    cases += [
        (f"tonk {extra}", n, load_variant("tonk", extra), ())
        for extra in TONK_SETTINGS
        for n in (2, 5)
    ]
    full_rummy = load_variant("full_rummy")
    cases += [
        (
            f"full_rummy {extra}",
            n,
            dataclasses.replace(full_rummy, values={**full_rummy.values, **extra}),
            (),
        )
        for extra in ALL_AT_ONCE_SETTINGS
        for n in (2, 5)
    ]
    cases += [
        (f"tonk {extra} {'-'.join(bots)}", len(bots), load_variant("tonk", extra), bots)
        for extra, bots in TONK_BOT_CASES
    ]
    cases += [
        (f"phom {extra} {'-'.join(bots)}", len(bots), load_variant("phom", extra), bots)
        for extra, bots in PHOM_BOT_CASES
    ]
    cases += [(name, n, None, ()) for name, n in CONTINENTAL_CASES]
    cases += [
        (f"{name} {'-'.join(bots)}", len(bots), load_variant(name), bots)
        for name, bots in KNOCK_BOT_CASES
    ]
    cases += [
        (f"{name} {extra}", n, load_variant(name, extra), ()) for name, extra, n in KNOCK_SETTINGS
    ]
    cases += [
        (f"conquian {extra} {'-'.join(bots)}", 2, load_variant("conquian", extra), bots)
        for extra, bots in CONQUIAN_CASES[1:]
    ]
    cases += [
        (f"nowrang {'-'.join(bots)}", 2, load_variant("nowrang"), bots) for bots in NOWRANG_BOTS
    ]
    for lineups in (CONTINENTAL_BOT_CASES, PROGRESSIVE_BOT_CASES, CAROUSEL_CASES):
        cases += [
            (f"{name} {'-'.join(bots)}", len(bots), load_variant(name), bots)
            for name, bots in lineups
        ]
    cases += [
        (f"rummy_basic {extra} {'-'.join(bots)}", len(bots), with_settings(extra), bots)
        for extra, bots in PROGRESSIVE_BOT_SETTINGS
    ]
    cases = [case for case in cases if args.only in case[0]]
    for name, players, rules, bots in cases:
        rows = CONTINENTAL_ROWS if name.startswith("continental") else EVENT_ROWS
        if name.startswith("carousel"):
            rows = CAROUSEL_ROWS
        if R in bots:
            rows = max(rows, PROGRESSIVE_BOT_ROWS)  # random's hands are long
        if R in bots and name.startswith("nowrang"):
            rows = max(rows, NOWRANG_BOT_ROWS)
        if R in bots and name.startswith("continental"):
            rows = max(rows, CONTINENTAL_BOT_ROWS)
        ended, difference = compare(name, players, args.hands, args.seed, rules, bots, rows=rows)
        total.update(ended)
        counts = " ".join(f"{k}={ended[k]}" for k in sorted(ended) if not k.startswith("ev:"))
        status = "ok" if difference is None else "DIFFERS"
        print(f"{name:<20} {players:>2} players  {status:<7} {counts}", flush=True)
        if difference is not None:
            failures += 1
            print(difference, flush=True)
    hands = sum(total[k] for k in oracle.REASONS.values())
    counts = " ".join(f"{k}={total[k]}" for k in oracle.REASONS.values())
    events = " ".join(f"{k[3:]}={total[k]}" for k in sorted(total) if k.startswith("ev:"))
    print(
        f"{hands} hands compared in {time.perf_counter() - start:.0f} s, "
        f"{failures} of {len(cases)} cases differ\nended: {counts}\nevents: {events}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
