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
(``layout.P_ACE_RANK``) fails to compile (no implementation of ``rule`` for an ``int64``
slot) rather than silently reading the slot at run time. ``rule`` is typed and lowered
directly (numba's low-level extension API): it compiles nothing of its own.

A mechanic's entry kernels are marked :func:`gated` with the rule that turns the mechanic
on, so a spec that fixes that rule off compiles none of the mechanic (numba would otherwise
type and compile the branch that the constant makes dead).

Without the JIT (``NUMBA_DISABLE_JIT=1``) ``rule`` is the plain function below, with the
same answers, and a gated kernel is simply called.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import (
    NativeValue,
    lower_builtin,
    models,
    overload,
    register_model,
    type_callable,
    typeof_impl,
    unbox,
)

from sim.engine import layout as L

RUNTIME = np.iinfo(np.int64).min
"""A slot the kernel reads from ``params`` at run time (no rule value uses it)."""


class Fixed:
    """Which params slots are compile-time constants, and their values: per slot an ``int``
    (fixed: a constant), :data:`RUNTIME` (read at run time) or a tuple of ints (*limited*:
    read at run time, but only those values occur, so a mechanic that none of them runs is
    not compiled, :func:`gated`). Build one with :func:`fixed`."""

    __slots__ = ("name", "values")

    def __init__(self, name: str, values: tuple[int | tuple[int, ...], ...]) -> None:
        if len(values) != L.N_PARAMS:
            raise ValueError(f"a Fixed needs {L.N_PARAMS} slot values, got {len(values)}")
        self.name = name
        self.values = tuple(
            tuple(sorted({int(x) for x in v})) if isinstance(v, tuple) else int(v) for v in values
        )

    def matches(self, params: np.ndarray) -> bool:
        """True when every fixed slot holds its value in ``params`` and every limited slot
        one of its values."""
        for value, actual in zip(self.values, params.tolist(), strict=True):
            admitted = _may_be(value)
            if admitted is not None and actual not in admitted:
                return False
        return True

    def __repr__(self) -> str:
        return f"Fixed({self.name!r})"


def _constant_of(value: int | tuple[int, ...]) -> int:
    """A slot's constant under a spec (:data:`RUNTIME`: read at run time, limited or not)."""
    return RUNTIME if isinstance(value, tuple) else value


def _may_be(value: int | tuple[int, ...]) -> tuple[int, ...] | None:
    """The values a slot may hold under a spec (None: any)."""
    if isinstance(value, tuple):
        return value
    return None if value == RUNTIME else (value,)


def fixed(name: str, settings: Mapping[str, int | str | bool | tuple]) -> Fixed:
    """A spec fixing the named toggles or engine slots (values as in the variant files); a
    tuple of values limits the slot to them."""
    values: list[int | tuple[int, ...]] = [RUNTIME] * L.N_PARAMS
    for key, setting in settings.items():

        def code(value, key=key):
            return int(value) if key in L.ENGINE_SLOTS else L.code(key, value)

        values[L.slot(key)] = (
            tuple(code(v) for v in setting) if isinstance(setting, tuple) else code(setting)
        )
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
    value = _constant_of(fx.values[slot])
    return int(params[slot]) if value == RUNTIME else value


@type_callable(rule)
def _type_rule(context):
    def typer(fx, params, slot):
        if isinstance(fx, FixedType) and isinstance(slot, types.IntegerLiteral):
            return types.int64
        return None  # not a literal slot: numba reports no matching implementation

    return typer


@lower_builtin(rule, FixedType, types.Array, types.IntegerLiteral)
def _lower_rule(context, builder, signature, args):
    """The rule's constant where ``fx`` fixes the slot, else a load of ``params[slot]``:
    written straight into the caller, so a rule read compiles nothing of its own."""
    fx, params, slot = signature.args
    value = _constant_of(fx.values[slot.literal_value])
    if value != RUNTIME:
        return context.get_constant(types.int64, value)
    array = context.make_array(params)(context, builder, args[1])
    index = context.get_constant(types.intp, slot.literal_value)
    return builder.load(cgutils.get_item_pointer(context, builder, params, array, [index]))


def gated(slot: int, runs: Callable[[int], bool], never: object):
    """Decorates a kernel (``@gated(P_SLOT, runs, never)`` above ``@kernel``) that is a
    mechanic's entry point, so that it is compiled only for the specs under which it can
    run.

    numba types both branches of an ``if`` whatever a spec's constants make of the
    condition, so a phase behind ``if rule(...) == ...`` is compiled (with every kernel it
    calls) for a spec where it can never run: the knock family's, §3.2's calls and the
    all_at_once go-out for ``STANDARD``. A spec that fixes ``slot`` to a value, or limits it
    to values, for which ``runs`` is false compiles, in its place, a stand-in that returns
    ``never`` (a value of the kernel's return type; the stand-in is never reached, because
    the caller reads the same rule first). For every other spec the kernel itself is compiled, once
    per spec, and called as usual. Without the JIT the result simply calls ``kernel``.

    ``slot`` is a params slot (``P_*``). The stand-in and the typing function mirror the
    kernel's parameters (numba matches an overload's parameters by name), so they are
    written from its signature here, once.
    """
    return lambda kernel: _gate(kernel, slot, runs, never)


def _gate(kernel, slot, runs, never):
    function = getattr(kernel, "py_func", kernel)
    parameters = list(inspect.signature(function).parameters)
    if parameters[0] != "fx":
        raise TypeError(f"{function.__name__}: a gated kernel takes the spec (fx) first")
    names = ", ".join(parameters)
    scope = {"__name__": function.__module__, "kernel": kernel, "never": never}
    exec(  # the source is the kernel's own parameter names, nothing else
        f"def call({names}):\n    return kernel({names})\n"
        f"def stand_in({names}):\n    return never\n"
        f"def choose({names}):\n    return _gate_pick_(fx)\n",
        scope,
    )

    def pick(fx):
        return function if _runs_under(fx, slot, runs) else scope["stand_in"]

    scope["_gate_pick_"] = pick  # a name no kernel parameter shadows (``pick`` is one)
    call = scope["call"]
    call.__name__ = call.__qualname__ = function.__name__
    call.__doc__ = function.__doc__
    call.gate = (slot, runs)
    # the kernel's own options; never called from Python, so no wrapper for Python callers
    options = dict(getattr(kernel, "targetoptions", {}))
    options.update(no_cpython_wrapper=True, no_cfunc_wrapper=True)
    options.pop("nopython", None)
    overload(call, jit_options=options)(scope["choose"])
    return call


def _runs_under(fx: Fixed, slot: int, runs: Callable[[int], bool]) -> bool:
    """Can a mechanic gated on ``slot`` by ``runs`` run under the spec ``fx``?"""
    may_be = _may_be(fx.values[slot])
    return may_be is None or any(map(runs, may_be))


def compiled_under(kernel, spec: Fixed) -> bool:
    """Does ``spec`` compile ``kernel`` itself rather than a ``gated`` stand-in (every kernel
    that is not gated: yes)? What a spec's cold compile pays for, without compiling it."""
    gate = getattr(kernel, "gate", None)
    return gate is None or _runs_under(spec, *gate)


GENERIC = fixed("generic", {})
"""Nothing fixed: every rule is read at run time. Plays every variant."""

_ONE_PACK_RUMMY = {
    "packs": 1,
    "jokers": 0,
    "strip_8_9_10": False,
    "run_max": 13,
    "group_duplicates": "forbidden",
    "meld_timing": ("progressive", "all_at_once"),
    "family": L.FAMILY_RUMMY,
    "initial_meld_min": 0,
    "discard_before_initial_meld": "free",
    "joker_limit": "none",
    "joker_slide": False,
    "borrowing": "off",
    "upcard": True,
    "go_out_pattern": "none",
    "tonk_no_fourth_in_group": False,
    "tonk_meld_immediately": False,
    "tonk_stock_card_must_play": False,
    "tonk_one_layoff_per_turn": False,
    "tonk_layoff_skips_discard": False,
    "tonk_wait": "off",
    "mc_seats": 0,
}

ONE_PACK_RUMMY = fixed("one_pack_rummy", _ONE_PACK_RUMMY)
"""The rummy family's one-pack games without jokers: STANDARD's card rules but for the ace
and the run suits, read at run time, with either timing of melding (progressive, or all at
once: §2D.18, limited to those two, so the knock family's and Phỏm's phases are not
compiled), any draw (§2C.16), any stock rule (§2F.28), calls (§3.2) and any scoring. It
plays every arm of ``make run``'s default experiment that STANDARD does not (the ace rules,
around the corner, block rummy) and the five variants of issue #29 (Full Rummy, Queen City,
Boat House, Throw Down, Call Rummy), so a new user's first run compiles these two specs and
not GENERIC (issue #29's compile bar). No mcN seat (``mc_seats``), no Tonk table rule
(§2L.48-52, 58), no initial-meld threshold, joker slide or borrowing (§2D.24-25, §2B.13,
§2D.22), an upcard."""

STANDARD = fixed(
    "standard",
    {
        **_ONE_PACK_RUMMY,
        "ace_rank": "low",
        "run_suit": "same_suit",
        "meld_timing": "progressive",
        "call_rummy": False,
        "discard_draw": "top",
    },
)
"""ONE_PACK_RUMMY with the RULES.md §1 baseline's card rules and progressive melding: the
ace low, runs of one suit, the discard top drawn (§2C.16), no knock (the knock family's
phases fold away), no calls (§3.2's phase folds away). The hot case of ``make bench``
(2-player ``rummy_basic``)."""

ONE_PACK_KNOCK = fixed(
    "one_pack_knock",
    {
        **_ONE_PACK_RUMMY,
        "family": (L.FAMILY_KNOCK_RUMMY, L.FAMILY_GIN),
        "meld_timing": "knock",
        "ace_rank": "low",
        "run_suit": "same_suit",
        "call_rummy": False,
        "discard_draw": "top",
    },
)
"""The knock family's one-pack games without jokers (gin §3.17-3.20, knock rummy §3.10, at
every player count): STANDARD's card rules (the ace low, runs of one suit) with melding
fixed to the knock, so the meld search, the knock family's bots and its showdown compile
with the card rules as constants and the progressive and all-at-once phases fold away. The
family (gin or knock rummy), the knock limit, lay-offs, the stock rule, the scoring and the
bonuses are read at run time. No mcN seat (``mc_seats``): a game with one plays GENERIC.
The hot case of ``make bench``'s gin line (issue #29's 250,000 hands/s bar)."""

SPECS = (STANDARD, ONE_PACK_RUMMY, ONE_PACK_KNOCK, GENERIC)
"""Most specific first: :func:`spec_for` takes the first that matches."""


def spec_for(params: np.ndarray) -> Fixed:
    """The most specific spec whose fixed slots all hold ``params``' values."""
    for spec in SPECS:
        if spec.matches(params):
            return spec
    return GENERIC


def spec_named(name: str) -> Fixed:
    """The spec of :data:`SPECS` called ``name``."""
    for spec in SPECS:
        if spec.name == name:
            return spec
    raise ValueError(f"no spec {name!r}; the specs are {', '.join(s.name for s in SPECS)}")


FOLDS = {STANDARD.name: ONE_PACK_RUMMY}
"""A spec whose games a more general spec plays nearly as fast, so that a plan which
compiles the general one anyway need not compile the specific one too (:func:`plan_specs`):
ONE_PACK_RUMMY plays STANDARD's games about 13% slower (2-player rummy_basic, greedy;
docs/perf-log.md), and STANDARD's own cold compile is about 40% of ``make run``'s."""

FOLD_HANDS = 20_000_000
"""A plan folds a spec of :data:`FOLDS` only while the hands it would play under it number
fewer than this: where its own compile (about 45 s on an idle core) costs more than the
fold's slower play (13% of about 4-20 µs a hand, on each worker)."""


def plan_specs(wanted: Sequence[tuple[np.ndarray, int]]) -> list[Fixed]:
    """The spec each of a plan's rule sets plays under, given each set's params (bots
    included, ``api.with_bots``) and the hands it will play: its most specific
    (:func:`spec_for`), except that the sets of a spec of :data:`FOLDS` play under its
    fold when another set of the plan needs that spec anyway and they play fewer than
    :data:`FOLD_HANDS` hands in all. So ``make run``'s default experiment compiles one spec,
    not two, on a new user's first run. A spec changes only speed, never play."""
    chosen = [spec_for(params) for params, _ in wanted]
    for folded, into in FOLDS.items():
        needed = any(spec is into for spec in chosen)
        hands = sum(n for (_, n), spec in zip(wanted, chosen, strict=True) if spec.name == folded)
        if needed and hands < FOLD_HANDS:
            chosen = [into if spec.name == folded else spec for spec in chosen]
    for (params, _), spec in zip(wanted, chosen, strict=True):
        assert spec.matches(params), (spec, "a fold must cover the specs it folds")
    return chosen
