"""The rules layer: every toggle of RULES.md §2 with its default, the validated rules model,
variant TOML loading, and compilation onto the kernels' integer layout.

Typical use::

    from sim.rules import load_variant, compile_rules

    rules = load_variant("rummy_basic@002", overrides={"going_rummy": "double"})
    compiled = compile_rules(rules, players=4)   # compiled.params, compiled.card_values

``compile_rules``, ``card_values`` and ``CompiledRules`` load ``sim.rules.compile`` (and numpy)
on first use, so reading and checking rules (``rummysim --help``, ``variants``) does not pay
for numpy's import.
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
    from sim.rules.compile import CompiledRules, card_values, compile_rules

_FROM_COMPILE = ("CompiledRules", "card_values", "compile_rules")


def __getattr__(name: str):
    """The names of ``sim.rules.compile``, imported when first asked for."""
    if name in _FROM_COMPILE:
        from sim.rules import compile as module

        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULTS",
    "TOGGLES",
    "CompiledRules",
    "ConfigError",
    "Kind",
    "Rules",
    "Toggle",
    "card_values",
    "compile_rules",
    "list_variants",
    "load_variant",
    "rules_from_toml",
    "rules_to_toml",
    "validate_file",
    "variants_dir",
]
