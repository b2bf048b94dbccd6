"""The toggle declarations: complete, consistent, and their value checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from sim.engine import layout
from sim.rules import ConfigError
from sim.rules.toggles import BY_NAME, DEFAULTS, TOGGLES, Kind, markdown_table, toggle

RULES_IDS = {
    "decks": 1, "jokers": 2, "joker_points": 3, "ace_rank": 4, "ace_points": 5, "run_suit": 6,
    "strip_8_9_10": 7, "face_values": 8, "group_duplicates": 9, "joker_limit": 10,
    "joker_declare": 11, "joker_replace": 12, "joker_slide": 13, "deuces_wild": 14, "upcard": 15,
    "discard_draw": 16, "call_rummy": 17, "meld_timing": 18, "melds_per_turn": 19,
    "layoff_target": 20, "layoff_requires_meld": 21, "borrowing": 22, "rearrange": 23,
    "initial_meld_min": 24, "discard_before_initial_meld": 25, "must_discard_to_go_out": 26,
    "going_rummy": 27, "stock_exhaustion": 28, "scoring": 29, "game_end": 30,
    "dealer_rotation": 31, "knock_limit": 32, "gin_opening": 33, "gin_bonus": 34,
    "undercut_bonus": 35, "box_bonus": 36, "shutout": 37, "spade_double": 38,
    "oklahoma_extra_bonus": 39, "continental_quick_bonus": 40, "continental_special_bonus": 41,
    "start_points": 42, "phom_layoff_others": 43, "phom_discard_taken_penalty": 44,
    "phom_three_taken_liability": 45, "play_direction": 46, "tonk_deal": 47,
    "tonk_stock_card_must_play": 48, "tonk_meld_immediately": 49, "tonk_no_fourth_in_group": 50,
    "tonk_one_layoff_per_turn": 51, "tonk_layoff_skips_discard": 52, "tonk_flat_out_payment": 53,
    "tonk_drop_penalty": 54, "tonk_stock_out": 55, "tonk_instant": 56, "tonk_super": 57,
    "tonk_wait": 58, "carousel_round_bonus_to": 59,
}  # fmt: skip
SECTION_GROUPS = {range(1, 9): "2A", range(9, 15): "2B", range(15, 18): "2C",
                  range(18, 26): "2D", range(26, 28): "2E", range(28, 29): "2F",
                  range(29, 30): "2G", range(30, 32): "2H", range(32, 40): "2I",
                  range(40, 43): "2J", range(43, 47): "2K", range(47, 59): "2L",
                  range(59, 60): "2M"}  # fmt: skip


def test_every_rules_toggle_declared_once_with_its_id():
    rules = [t for t in TOGGLES if not t.policy and not t.extension]
    assert {t.name: t.id for t in rules} == RULES_IDS
    assert len(rules) == len(RULES_IDS) == 59
    assert len(BY_NAME) == len(TOGGLES)


def test_sections_match_ids():
    for t in TOGGLES:
        if t.policy or t.extension:
            continue
        group = next(g for ids, g in SECTION_GROUPS.items() if t.id in ids)
        assert t.section == f"{group}.{t.id}", t.name


def test_simulator_extensions_are_listed_in_docs_variants_md():
    """A rule RULES.md lacks a toggle for is declared like the rest, with an id from 101 and
    the section it extends, and docs/variants.md lists it (issue #29 point 4)."""
    text = (Path(__file__).parents[2] / "docs" / "variants.md").read_text(encoding="utf-8")
    extensions = [t for t in TOGGLES if t.extension]
    assert extensions
    for t in extensions:
        assert f"`{t.name}`" in text, t.name
        assert t.section[0] in "12", t.name  # a §1 baseline rule or a §2 toggle


def test_policy_settings():
    assert {t.name for t in TOGGLES if t.policy} == {"turn_cap", "hand_cap"}


def test_every_default_passes_its_own_check_and_is_supported():
    for t in TOGGLES:
        assert t.check(t.default) == t.default, t.name
        assert t.meaning and t.section


def test_supported_values_are_declared_values():
    for t in TOGGLES:
        if t.kind is Kind.CHOICE:
            assert set(t.supported_values()) <= set(t.choices), t.name


@pytest.mark.parametrize(
    ("name", "value", "normalised"),
    [
        ("going_rummy", "bonus", "bonus:10"),
        ("going_rummy", "bonus:7", "bonus:7"),
        ("game_end", "target", "target:100"),
        ("game_end", "fixed_hands", "fixed_hands:10"),
        ("game_end", "penalty_limit", "penalty_limit:100"),
        ("game_end", "single_hand", "single_hand"),
        ("upcard", "on", True),
        ("must_discard_to_go_out", "off", False),
        ("ace_points", 11, 11),
        ("ace_points", "auto", "auto"),
    ],
)
def test_check_normalises(name, value, normalised):
    assert toggle(name).check(value) == normalised


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("decks", True),  # a boolean is not an integer
        ("ace_points", "11"),
        ("ace_points", 12),
        ("game_end", "target:-5"),
        ("game_end", "target:abc"),
        ("game_end", "single_hand:3"),
        ("upcard", "yes"),
        ("stock_exhaustion", "void"),
        ("dealer_rotation", "winner"),
    ],
)
def test_check_rejects(name, value):
    with pytest.raises(ConfigError) as info:
        toggle(name).check(value)
    assert info.value.key == name


@pytest.mark.parametrize(
    ("name", "value", "section"),
    [
        ("decks", 5, "2A.1"),
        ("jokers", 9, "2A.2"),
    ],
)
def test_declared_but_unplayed_values_are_refused_with_their_section(name, value, section):
    """Every RULES.md value is declared; the engine plays only some (Continental's §2J all,
    Tonk's §2L those docs/variants.md lists; ``deuces_wild`` only under Continental, which
    the rules model says, ``tests/rules/test_errors.py``)."""
    with pytest.raises(ConfigError) as info:
        toggle(name).check(value)
    assert f"not supported by the engine yet (RULES.md §{section})" in str(info.value)
    assert toggle(name).check(toggle(name).default) == toggle(name).default


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("start_points", -1),  # out of range, not merely unsupported
        ("start_points", "100"),
        ("tonk_deal", 6),
        ("tonk_instant", "49"),
        ("tonk_wait", 2),
        ("play_direction", "left"),
    ],
)
def test_values_rules_md_lacks_are_not_allowed(name, value):
    with pytest.raises(ConfigError) as info:
        toggle(name).check(value)
    assert "not supported by the engine yet" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "value", "high"),
    [("knock_limit", 7, 10), ("knock_limit", 0, 10), ("gin_bonus", 0, 200),
     ("gin_bonus", 40, 200), ("undercut_bonus", 15, 200)],
)  # fmt: skip
def test_2I_32_to_35_integers_beyond_rules_md_are_a_declared_extension(name, value, high):
    """What ``rummysim tune`` turns (issue #35): knock_limit 0..10, gin_bonus and
    undercut_bonus 0..200 besides RULES.md's values, which stay as they were."""
    t = toggle(name)
    assert t.check(value) == value and t.extension_int(value)
    assert not any(t.extension_int(c) for c in t.choices)
    assert f"simulator extension: integer 0..{high}" in t.allowed_text()
    with pytest.raises(ConfigError, match=f"integer 0..{high}"):
        t.check(high + 1)
    with pytest.raises(ConfigError):
        t.check(-1)
    assert layout.code(name, value) == value


def test_an_extension_integer_never_collides_with_a_word():
    """knock_limit's words code as -1 - index, so no integer 0..10 reads as unlimited."""
    t = toggle("knock_limit")
    words = {layout.code("knock_limit", w) for w in ("unlimited", "upcard")}
    assert words.isdisjoint({layout.code("knock_limit", v) for v in range(t.low, t.high + 1)})


def test_unknown_toggle_name_suggests():
    with pytest.raises(ConfigError, match="did you mean 'stock_exhaustion'"):
        toggle("stock_exhaustin")


def test_defaults_mapping_covers_every_setting():
    assert set(DEFAULTS) == set(BY_NAME)


def test_docs_table_is_current():
    docs = Path(__file__).resolve().parents[2] / "docs" / "variants.md"
    assert markdown_table() in docs.read_text(encoding="utf-8"), (
        "docs/variants.md is out of date: paste sim.rules.toggles.markdown_table() into it"
    )


def _readme_support_sentence() -> str:
    """What README.md must say about §2A–2I and §2J–2M, generated from the declarations."""
    rules = [t for t in TOGGLES if not t.policy and not t.extension]
    main = [t for t in rules if t.id <= 39]
    only_default = [t.name for t in main if t.supported_values() == (t.default,)]
    partial = [
        t.name
        for t in main
        if t.name not in only_default
        and (
            t.supported_high is not None
            or (t.kind is not Kind.INT and set(t.supported_values()) != set(_all_values(t)))
        )
    ]
    later = [t for t in rules if t.id > 39]
    later_played = [t.name for t in later if t.supported_values() != (t.default,)]
    played = ", ".join(f"`{n}`" for n in later_played[:-1]) + f" and `{later_played[-1]}`"
    names = ", ".join(f"`{n}`" for n in only_default)
    some = ", ".join(f"`{n}`" for n in partial[:-1]) + f" and `{partial[-1]}`"
    full = len(main) - len(only_default) - len(partial)
    later_default = len(later) - len(later_played)
    if only_default:
        head = (
            f"{len(only_default)} accept only their default ({names}), as do {later_default} "
            f"of the {len(later)} of §2J–2M"
        )
    elif later_default == 0:
        head = f"none accepts only its default, nor does any of the {len(later)} of §2J–2M"
    else:
        head = f"none accepts only its default; {later_default} of the {len(later)} of §2J–2M do"
    return (
        f"Of the {len(main)} toggles of §2A–2I, {head} "
        f"(Continental's, Phỏm's, Tonk's and Carousel's {played} play); {some} play some of "
        "their values, "
        f"the other {full} "
        "every "
        "value"
    )


def _all_values(t) -> tuple:
    if t.kind is Kind.SWITCH:
        return (False, True)
    if t.kind is Kind.PARAM:
        return tuple(c.partition(":")[0] for c in t.choices)
    return t.choices


@pytest.mark.nojit
def test_readme_says_which_toggles_accept_only_their_default():
    readme = Path(__file__).resolve().parents[2] / "README.md"
    text = " ".join(readme.read_text(encoding="utf-8").split())
    sentence = _readme_support_sentence()
    assert sentence in text, f"README.md should say (the declarations changed): {sentence}"
