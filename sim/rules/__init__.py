"""The rules layer: every toggle of RULES.md §2 with its default, the validated rules model,
variant TOML loading, and the value of each card in hand.

Typical use::

    from sim.rules import load_variant

    rules = load_variant("rummy_basic@002", overrides={"going_rummy": "double"})
    rules.deal_for(4)   # (cards per hand, packs) at 4 players

The engine compiles rules into its arrays (``sim.engine.api.compile_rules``). ``card_values``
loads ``sim.rules.values`` (and numpy) on first use, so reading and checking rules
(``rummysim --help``, ``variants``) does not pay for numpy's import.
"""

from typing import TYPE_CHECKING

from sim.rules.errors import ConfigError
from sim.rules.loader import (
    list_variants,
    load_variant,
    rules_from_toml,
    rules_to_toml,
    validate_file,
    variants_dir,
)
from sim.rules.model import Rules
from sim.rules.toggles import DEFAULTS, TOGGLES, Kind, Toggle

if TYPE_CHECKING:
    from sim.rules.values import card_values

_FROM_VALUES = ("card_values",)


def __getattr__(name: str):
    """The names of ``sim.rules.values``, imported when first asked for."""
    if name in _FROM_VALUES:
        from sim.rules import values as module

        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULTS",
    "TOGGLES",
    "ConfigError",
    "Kind",
    "Rules",
    "Toggle",
    "card_values",
    "list_variants",
    "load_variant",
    "rules_from_toml",
    "rules_to_toml",
    "validate_file",
    "variants_dir",
]
