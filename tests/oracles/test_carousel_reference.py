"""Self-tests of the plain Carousel settlement (tests/oracles/carousel.py) on RULES.md
§3.16's worked example and its clauses, named after the section."""

from __future__ import annotations

from tests.oracles import carousel as C


def test_3_16_the_worked_example():
    """Knocker A 4, B 2, C 17: B wins (4 - 2) + (17 - 2) + 10 = 27."""
    assert C.round_scores([4, 2, 17], 0, C.KNOCK) == [0, 27, 0]


def test_3_16_two_players_score_the_difference():
    assert C.round_scores([3, 12], 0, C.KNOCK) == [9, 0]
    assert C.round_scores([5, 4], 0, C.KNOCK) == [0, 1 + 10]  # undercut


def test_3_16_the_knocker_need_not_win_and_a_lowest_knocker_gets_no_bonus():
    assert C.round_scores([1, 8, 20, 30], 0, C.KNOCK) == [7 + 19 + 29, 0, 0, 0]


def test_3_16_a_knocker_tied_with_one_other_loses_to_him():
    """A 4 knocks, B 4, C 17: B wins 0 + 13 + 10."""
    assert C.round_winners([4, 4, 17], 0, C.KNOCK) == [1]
    assert C.round_scores([4, 4, 17], 0, C.KNOCK) == [0, 23, 0]


def test_3_16_a_knocker_tied_with_two_others_both_win_with_the_bonus():
    assert C.round_scores([4, 4, 4, 9], 0, C.KNOCK) == [0, 15, 15, 0]


def test_3_16_open_point_4_tied_non_knockers_both_win():
    """Knocker A 5, B 2, C 2: B and C both win, each +10 (the knocker is undercut)."""
    assert C.round_scores([5, 2, 2], 0, C.KNOCK) == [0, 3 + 0 + 10, 3 + 0 + 10]


def test_3_16_playing_all_ones_cards_wins_plus_25():
    assert C.round_scores([0, 7, 31], 0, C.OUT) == [7 + 31 + 25, 0, 0]


def test_3_16_the_stock_out_scores_differences_without_the_undercut():
    assert C.round_scores([6, 3, 10], None, C.STOCK_OUT) == [0, 3 + 7, 0]
    assert C.round_scores([3, 3, 10], None, C.STOCK_OUT) == [7, 7, 0]


def test_3_16_the_game_ends_at_150_with_the_bonuses():
    assert C.game_end([149, 20], [3, 1]) is None
    assert C.game_end([152, 90, 40], [4, 2, 1]) == [252, 140, 65]


def test_2M_59_carousel_round_bonus_to_all_players():
    """The flip of ``carousel_round_bonus_to``: the 150+ player gets his 25s as well."""
    assert C.game_end([152, 90, 40], [4, 2, 1], "all_players") == [352, 140, 65]
