"""The one compile-time mechanism: rule slots fixed as constants (docs/engine-plan.md §2).

Kernels read every rule through :func:`rule`, ``rule(fx, params, P_SLOT)``. ``fx`` is a
:class:`Fixed` value: its numba type carries, for each params slot, either a constant or
:data:`RUNTIME`. Where the slot is fixed, ``rule`` is that constant when the kernel is
compiled, so LLVM drops the code of every other value of the rule; otherwise it reads
``params[P_SLOT]``. Each distinct ``Fixed`` compiles the kernels that take it once more,
so there are few specs, and each one changes only speed, never play (a test plays every
spec's hands under :data:`GENERIC` too and compares the rows).

The slot must be a compile-time constant that numba can see as a literal: a name imported
from ``sim.engine.layout`` (``from sim.engine.layout import P_ACE_RANK``). A module attribute
(``layout.P_ACE_RANK``) fails to compile ("Cannot request literal type") rather than
silently reading the slot at run time.

Without the JIT (``NUMBA_DISABLE_JIT=1``) ``rule`` is the plain function below, with the
same answers.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numba import literally, types
from numba.extending import NativeValue, models, overload, register_model, typeof_impl, unbox

from sim.engine import layout as L

RUNTIME = np.iinfo(np.int64).min
"""A slot the kernel reads from ``params`` at run time (no rule value uses it)."""


class Fixed:
    """Which params slots are compile-time constants, and their values (``RUNTIME``: not
    fixed). Build one with :func:`fixed`."""

    __slots__ = ("name", "values")

    def __init__(self, name: str, values: tuple[int, ...]) -> None:
        if len(values) != L.N_PARAMS:
            raise ValueError(f"a Fixed needs {L.N_PARAMS} slot values, got {len(values)}")
        self.name = name
        self.values = tuple(int(v) for v in values)

    def matches(self, params: np.ndarray) -> bool:
        """True when every fixed slot holds the same value in ``params``."""
        return all(v == RUNTIME or int(params[i]) == v for i, v in enumerate(self.values))

    def __repr__(self) -> str:
        return f"Fixed({self.name!r})"


def fixed(name: str, settings: Mapping[str, int | str | bool]) -> Fixed:
    """A spec fixing the named toggles or engine slots (values as in the variant files)."""
    values = [RUNTIME] * L.N_PARAMS
    for key, value in settings.items():
        values[L.slot(key)] = L.code(key, value) if key not in L.ENGINE_SLOTS else int(value)
    return Fixed(name, tuple(values))


class FixedType(types.Type):
    """numba's type of a :class:`Fixed`: the slot values are part of the type."""

    def __init__(self, name: str, values: tuple[int, ...]) -> None:
        self.values = values
        super().__init__(name=f"Fixed_{name}_{hash(values) & 0xFFFFFFFF:08x}")

    @property
    def key(self):
        return self.values


@typeof_impl.register(Fixed)
def _typeof_fixed(value, context):
    return FixedType(value.name, value.values)


register_model(FixedType)(models.OpaqueModel)


@unbox(FixedType)
def _unbox_fixed(typ, obj, context):
    return NativeValue(context.context.get_dummy_value())


def rule(fx: Fixed, params: np.ndarray, slot: int) -> int:
    """The value of rule ``slot``: ``fx``'s constant where it fixes the slot, else
    ``params[slot]``."""
    value = fx.values[slot]
    return int(params[slot]) if value == RUNTIME else value


@overload(rule)
def _rule(fx, params, slot):
    if not isinstance(slot, types.IntegerLiteral):
        return lambda fx, params, slot: literally(slot)
    value = fx.values[slot.literal_value]
    if value != RUNTIME:
        return lambda fx, params, slot: value
    return lambda fx, params, slot: params[slot]


GENERIC = fixed("generic", {})
"""Nothing fixed: every rule is read at run time. Plays every variant."""

STANDARD = fixed(
    "standard",
    {
        "packs": 1,
        "jokers": 0,
        "ace_rank": "low",
        "run_suit": "same_suit",
        "group_duplicates": "forbidden",
        "meld_timing": "progressive",
        "call_rummy": False,
        "discard_draw": "top",
        "family": L.FAMILY_RUMMY,
    },
)
"""The RULES.md §1 baseline's card rules and progressive melding: one pack, no jokers, ace
low, runs of one suit, the discard top drawn (§2C.16), no knock (the knock family's phases
fold away), no calls (§3.2's phase folds away). The hot case of ``make bench`` (2-player
``rummy_basic``)."""

SPECS = (STANDARD, GENERIC)
"""Most specific first: :func:`spec_for` takes the first that matches."""


def spec_for(params: np.ndarray) -> Fixed:
    """The most specific spec whose fixed slots all hold ``params``' values."""
    for spec in SPECS:
        if spec.matches(params):
            return spec
    return GENERIC
