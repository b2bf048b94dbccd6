"""numba's ``inline="always"`` made linear in the callee's size (a compile-time patch).

Most of the engine's per-turn code is ``jit.inline_kernel`` (numba inlines it at the IR
level), so the large kernels (``mask_hand``'s three, ``play_turns``' two, ``knock``'s two)
are each one function built from hundreds of inlined calls. Profiled on a cold cache,
numba 0.68 spent 831 of 953 s of compiling ``play_mask_hand_standard`` copying IR, in
``InlineWorker.inline_ir``'s ``copy_ir`` (numba/core/inline_closurecall.py)::

    def copy_ir(the_ir):
        kernel_copy = the_ir.copy()
        kernel_copy.blocks = {}
        for block_label, block in the_ir.blocks.items():
            new_block = copy.deepcopy(the_ir.blocks[block_label])
            kernel_copy.blocks[block_label] = new_block
        return kernel_copy

Each block is deep-copied with a fresh memo, and every ``ir.Var`` deep-copies its
``scope``, which holds every variable of the callee: a callee of B blocks and V variables
costs B x V variable copies, twice per call site, and an inlined callee that itself
inlined others is large in both. Here the blocks of one ``copy_ir`` share one memo, so the
scope is copied once per copy: the result is the IR numba's copy gives, except that the
copied blocks share one scope object, as the original blocks do (numba's copy gives each
block an equal copy of its own; ``inline_ir`` asserts there is one scope, compares
scopes by value, renames the callee's variables in the first and then points every
inlined block at the caller's scope, so nothing reads the other copies).

How: ``inline_closurecall`` uses its ``copy`` module only in ``copy_ir``. It is replaced by
a stand-in whose ``deepcopy`` of an ``ir.Block`` takes the memo of the block's scope for the
current ``inline_ir`` call (``inline_ir`` is wrapped to open and drop those memos; its two
``copy_ir`` calls copy blocks of different scopes: the callee's, then the first copy's).
Everything else is the ``copy`` module's. ``jit.py`` installs it only on the numba
versions in ``FAST_INLINE_NUMBA``, whose code was read against this;
``RUMMYSIM_NUMBA_FAST_INLINE=0`` turns it off. Kernels compiled with and without it make
the same plays (the pinned digests in tests/engine/test_pinned_results.py;
tests/engine/test_fast_inline.py).
"""

from __future__ import annotations

import copy
from typing import Any

from numba.core import inline_closurecall, ir

FAST_INLINE_NUMBA = ((0, 68),)
"""numba (major, minor) versions whose ``InlineWorker.inline_ir`` was read and checked
against this patch. Any other version is left alone."""


class _BlockCopier:
    """Stands in for the ``copy`` module inside numba's ``inline_closurecall``."""

    def __init__(self) -> None:
        self.memos: dict[int, dict] | None = None  # per source scope, during inline_ir

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)

    def deepcopy(self, x: Any, memo: dict | None = None) -> Any:
        if memo is None and self.memos is not None and isinstance(x, ir.Block):
            memo = self.memos.setdefault(id(x.scope), {})
        return copy.deepcopy(x, memo)


def install() -> bool:
    """Install the patch; True when it is in place (see the module docstring). ``jit.py``
    calls it only on the numba versions in ``FAST_INLINE_NUMBA`` and unless
    ``RUMMYSIM_NUMBA_FAST_INLINE=0``."""
    worker = inline_closurecall.InlineWorker
    original = worker.inline_ir
    if getattr(original, "_rummysim_fast_inline", False):
        return True
    if inline_closurecall.copy is not copy:  # someone else replaced it: leave numba alone
        return False
    copier = _BlockCopier()

    def inline_ir(self, *args, **kwargs):
        outer = copier.memos
        copier.memos = {}
        try:
            return original(self, *args, **kwargs)
        finally:
            copier.memos = outer

    inline_ir._rummysim_fast_inline = True
    inline_ir.__doc__ = original.__doc__
    inline_closurecall.copy = copier
    worker.inline_ir = inline_ir
    return True
