"""The rules layer: every toggle of RULES.md §2 with its default, the validated rules model,
variant TOML loading, and compilation onto the kernels' integer layout.

Typical use::

    from sim.rules import load_variant, compile_rules

    rules = load_variant("rummy_basic@002", overrides={"going_rummy": "double"})
    compiled = compile_rules(rules, players=4)   # compiled.params, compiled.card_values
"""

from sim.rules.compile import CompiledRules, card_values, compile_rules
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
