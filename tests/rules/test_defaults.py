"""One test per setting default, named after its RULES.md section (§2A–2H, §2J–2M; §1.8 policy).

Expected values are copied from RULES.md by hand, not from sim.rules.toggles, so a changed
default fails here. Each also checks that the baseline variant file keeps the default.
"""

import pytest

from sim.rules import DEFAULTS, load_variant


@pytest.fixture(scope="module")
def baseline():
    return load_variant("rummy_basic")


def check_default(baseline, name, expected):
    assert DEFAULTS[name] == expected
    assert baseline[name] == expected


def test_2A_1_decks_default_1(baseline):
    check_default(baseline, "decks", 1)


def test_2A_2_jokers_default_0(baseline):
    check_default(baseline, "jokers", 0)


def test_2A_3_joker_points_default_15(baseline):
    check_default(baseline, "joker_points", 15)


def test_2A_4_ace_rank_default_low(baseline):
    check_default(baseline, "ace_rank", "low")


def test_2A_5_ace_points_default_auto(baseline):
    check_default(baseline, "ace_points", "auto")


def test_2A_6_run_suit_default_same_suit(baseline):
    check_default(baseline, "run_suit", "same_suit")


def test_2A_7_strip_8_9_10_default_off(baseline):
    check_default(baseline, "strip_8_9_10", False)


def test_2A_8_face_values_default_ten(baseline):
    check_default(baseline, "face_values", "ten")


def test_2B_9_group_duplicates_default_forbidden(baseline):
    check_default(baseline, "group_duplicates", "forbidden")


def test_2B_10_joker_limit_default_none(baseline):
    check_default(baseline, "joker_limit", "none")


def test_2B_11_joker_declare_default_inferred(baseline):
    check_default(baseline, "joker_declare", "inferred")


def test_2B_12_joker_replace_default_none(baseline):
    check_default(baseline, "joker_replace", "none")


def test_2B_13_joker_slide_default_off(baseline):
    check_default(baseline, "joker_slide", False)


def test_2B_14_deuces_wild_default_off(baseline):
    check_default(baseline, "deuces_wild", False)


def test_2C_15_upcard_default_on(baseline):
    check_default(baseline, "upcard", True)


def test_2C_16_discard_draw_default_top(baseline):
    check_default(baseline, "discard_draw", "top")


def test_2C_17_call_rummy_default_off(baseline):
    check_default(baseline, "call_rummy", False)


def test_2D_18_meld_timing_default_progressive(baseline):
    check_default(baseline, "meld_timing", "progressive")


def test_2D_19_melds_per_turn_default_unlimited(baseline):
    check_default(baseline, "melds_per_turn", "unlimited")


def test_2D_20_layoff_target_default_any(baseline):
    check_default(baseline, "layoff_target", "any")


def test_2D_21_layoff_requires_meld_default_off(baseline):
    check_default(baseline, "layoff_requires_meld", "off")


def test_2D_22_borrowing_default_off(baseline):
    check_default(baseline, "borrowing", "off")


def test_2D_23_rearrange_default_none(baseline):
    check_default(baseline, "rearrange", "none")


def test_2D_24_initial_meld_min_default_0(baseline):
    check_default(baseline, "initial_meld_min", 0)


def test_2D_25_discard_before_initial_meld_default_free(baseline):
    check_default(baseline, "discard_before_initial_meld", "free")


def test_2E_26_must_discard_to_go_out_default_off(baseline):
    check_default(baseline, "must_discard_to_go_out", False)


def test_2E_27_going_rummy_default_off(baseline):
    check_default(baseline, "going_rummy", "off")


def test_2F_28_stock_exhaustion_default_turn_over(baseline):
    check_default(baseline, "stock_exhaustion", "turn_over")


def test_2G_29_scoring_default_pip_to_winner(baseline):
    check_default(baseline, "scoring", "pip_to_winner")


def test_2H_30_game_end_default_target_100(baseline):
    check_default(baseline, "game_end", "target:100")


def test_2H_31_dealer_rotation_default_left(baseline):
    check_default(baseline, "dealer_rotation", "left")


def test_1_8_policy_turn_cap_default_500(baseline):
    check_default(baseline, "turn_cap", 500)


def test_1_11_policy_hand_cap_default_1000(baseline):
    check_default(baseline, "hand_cap", 1000)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("continental_quick_bonus", False),  # 2J.40
        ("continental_special_bonus", False),  # 2J.41
        ("start_points", 100),  # 2J.42
        ("phom_layoff_others", True),  # 2K.43
        ("phom_discard_taken_penalty", False),  # 2K.44
        ("phom_three_taken_liability", False),  # 2K.45
        ("play_direction", "clockwise"),  # 2K.46
        ("tonk_deal", 5),  # 2L.47
        ("tonk_stock_card_must_play", False),  # 2L.48
        ("tonk_meld_immediately", False),  # 2L.49
        ("tonk_no_fourth_in_group", False),  # 2L.50
        ("tonk_one_layoff_per_turn", False),  # 2L.51
        ("tonk_layoff_skips_discard", False),  # 2L.52
        ("tonk_flat_out_payment", False),  # 2L.53
        ("tonk_drop_penalty", "two_to_each_le"),  # 2L.54
        ("tonk_stock_out", "lowest_collects"),  # 2L.55
        ("tonk_instant", "49_50"),  # 2L.56 (47_50 with strip_8_9_10)
        ("tonk_super", "off"),  # 2L.57
        ("tonk_wait", "off"),  # 2L.58
        ("carousel_round_bonus_to", "others_only"),  # 2M.59
    ],
)
def test_2J_2M_variant_option_defaults(baseline, name, expected):
    check_default(baseline, name, expected)
