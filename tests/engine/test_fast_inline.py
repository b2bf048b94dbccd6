"""sim.engine.fast_inline: numba's IR inlining copies a callee once per copy, and compiles
to the same machine code as numba's own copy (issue #2: make test's cold compile)."""

from __future__ import annotations

import copy
import os
import re

import numba
import pytest
from numba.core import inline_closurecall
from numba.core.compiler import run_frontend

from sim.engine import fast_inline, jit
from tests.engine.helpers import run_json_script


def test_installed_exactly_for_the_checked_numba_versions():
    version = tuple(int(p) for p in numba.__version__.split(".")[:2])
    switched_off = os.environ.get("RUMMYSIM_NUMBA_FAST_INLINE", "1") == "0"
    assert (version in fast_inline.FAST_INLINE_NUMBA and not switched_off) == jit.FAST_INLINE
    if jit.FAST_INLINE:
        assert isinstance(inline_closurecall.copy, fast_inline._BlockCopier)
        assert inline_closurecall.InlineWorker.inline_ir._rummysim_fast_inline
        assert fast_inline.install()  # a second install keeps the first


def _step(total, i, k):
    """A callee with branches and a loop: several IR blocks (also compiled by ``ASM``)."""
    if i % 3 == 0:
        total += i * k
    elif i % 3 == 1:
        total -= k
    else:
        while total > 100:
            total //= 2
    return total


_step_jit = numba.njit(inline="always")(_step)


def test_blocks_copied_in_one_inline_share_one_copy_of_the_scope():
    """numba gives every copied block its own copy of the whole scope (B x V variable
    copies); within one ``inline_ir`` the copier gives all of them one, equal to it."""
    func_ir = run_frontend(_step)
    blocks = list(func_ir.blocks.values())
    assert len(blocks) > 5
    copier = fast_inline._BlockCopier()
    plain = [copier.deepcopy(b) for b in blocks]  # outside inline_ir: numba's own copy
    assert len({id(b.scope) for b in plain}) == len(blocks)
    copier.memos = {}
    shared = [copier.deepcopy(b) for b in blocks]
    copier.memos = None
    assert len({id(b.scope) for b in shared}) == 1
    assert shared[0].scope is not blocks[0].scope
    assert shared[0].scope == blocks[0].scope == plain[0].scope
    for original, numba_copy, ours in zip(blocks, plain, shared, strict=True):
        assert ours is not original
        assert [str(s) for s in ours.body] == [str(s) for s in numba_copy.body]
        assert ours.body[0] is not original.body[0]
    assert copier.deepcopy([1, [2]]) == [1, [2]] and copier.copy is copy.copy


@pytest.mark.skipif(not jit.FAST_INLINE, reason="the patch is not installed on this numba")
def test_inline_ir_drops_its_memos_afterwards():
    @numba.njit(inline="always")
    def callee(n, k):
        total = 0
        for i in range(n):
            total = _step_jit(total, i, k)
        return total + 1

    @numba.njit
    def caller(n):
        return callee(n, 3) * 2

    expected = 0
    for i in range(10):
        expected = _step(expected, i, 3)
    assert caller(10) == (expected + 1) * 2
    assert inline_closurecall.copy.memos is None


ASM = """
import json, re, sys
import numba
from sim.engine import jit
from tests.engine.test_fast_inline import _step

step = numba.njit(inline="always")(_step)

@numba.njit(inline="always")
def walk(n, k):
    total = 0
    for i in range(n):
        total = step(total, i, k)
        if total < -50:
            total = step(total, i + 1, k + 1)
    return total

@numba.njit
def top(n, k):
    return walk(n, k) + walk(k, n)

result = top(40, 7)
asm = top.inspect_asm(top.signatures[0])
# symbol names carry a per-process counter; the instructions are what must match
lines = [re.sub(r"_ZN\\S+", "SYM", line) for line in asm.splitlines()
         if line.startswith("\\t") and not line.startswith("\\t.")]
print(json.dumps({"fast": jit.FAST_INLINE, "result": result, "asm": lines}))
"""


def _compile(fast: bool) -> dict:
    return run_json_script(ASM, timeout=600, RUMMYSIM_NUMBA_FAST_INLINE="1" if fast else "0")


@pytest.mark.skipif(numba.config.DISABLE_JIT, reason="nothing is compiled without the JIT")
@pytest.mark.skipif(not jit.FAST_INLINE, reason="the patch is not installed on this numba")
def test_the_same_machine_code_with_and_without_the_patch():
    fast, slow = _compile(fast=True), _compile(fast=False)
    assert fast["fast"] is True and slow["fast"] is False
    assert fast["result"] == slow["result"]
    assert len(fast["asm"]) > 50
    assert fast["asm"] == slow["asm"]
    assert any(re.search(r"\bidiv|\bsar|\bimul", line) for line in fast["asm"])
