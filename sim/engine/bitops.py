"""Bit operations on card masks: LLVM's instructions under the JIT, plain Python without.

``popcount`` (``llvm.ctpop``), ``lowest_bit`` (``llvm.cttz``) and ``highest_bit``
(``llvm.ctlz``) are plain functions that
numba replaces by one machine instruction when it compiles a kernel (``@overload``), so
``NUMBA_DISABLE_JIT=1`` runs the same code slowly.
"""

from __future__ import annotations

from numba import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic, overload


def popcount(x: int) -> int:
    """How many bits of ``x`` (>= 0) are set."""
    return bin(int(x)).count("1")


def lowest_bit(x: int) -> int:
    """The index of the lowest set bit of ``x`` (> 0)."""
    x = int(x)
    return (x & -x).bit_length() - 1


def highest_bit(x: int) -> int:
    """The index of the highest set bit of ``x`` (> 0)."""
    return int(x).bit_length() - 1


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@overload(popcount)
def _popcount(x):
    return lambda x: _ctpop(x)


@overload(lowest_bit)
def _lowest_bit(x):
    return lambda x: trailing_zeros(x)


@overload(highest_bit)
def _highest_bit(x):
    return lambda x: 63 - leading_zeros(x)
