"""Rules fixed at compile time: ``params`` as a tuple whose toggles are constants.

A kernel reads its rules from ``params`` (int64[N_PARAMS], ``layout.P_*``) at run time, so
every toggle of RULES.md §2 is a branch in the compiled code, taken or not, and the code of
every toggle's other value sits between the turn's hot instructions. ``standard_params``
gives the same values as a tuple in which the toggles of ``STANDARD`` are constants: a
kernel compiled on that tuple has those branches folded away by LLVM (dead code gone, fewer
live values), while the counts that vary between variants and player counts (players, hand
size, turn cap, audit, ...) are still read from the array.

``STANDARD`` is standard rummy with every toggle the mask hand reads at its default
(RULES.md §1, §2A-§2F): one pack, no jokers (so the joker toggles of §2B.10-12 play no
part), ace low, runs of one suit, no duplicate cards in a group, any number of melds a
turn, lay-offs on any meld without conditions, going out without a discard allowed, no
going-rummy rule, the stock turned over when it runs out, an upcard. ``rummy_basic`` and
its presets @000 and @003 (up to 5 players: 6 and 7 play with two packs) are such rules.
``is_standard`` says whether ``params`` holds them; only then may a caller pass
``standard_params(params)`` instead of ``params`` (the values are equal, so the kernel makes
the same plays: ``tests/engine/test_fixed_rules.py``).
"""

from __future__ import annotations

import numba
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.engine.jit import inline_kernel
from sim.engine.layout import (
    ACE_LOW,
    LAYOFF_ANY,
    LREQ_OFF,
    MELDS_UNLIMITED,
    N_PARAMS,
    P_ACE_RANK,
    P_DECKS,
    P_GOING_RUMMY,
    P_GROUP_DUPLICATES,
    P_JOKERS,
    P_LAYOFF_REQUIRES,
    P_LAYOFF_TARGET,
    P_MELDS_PER_TURN,
    P_MUST_DISCARD_TO_GO_OUT,
    P_RUN_SUIT,
    P_STOCK_EXHAUSTION,
    P_UPCARD,
    RUMMY_OFF,
    RUN_SAME_SUIT,
    STOCK_TURN_OVER,
)

# params index -> the value a kernel compiled on standard_params takes as a constant
STANDARD = {
    P_DECKS: 1,  # §2A.1
    P_JOKERS: 0,  # §2A.2
    P_ACE_RANK: ACE_LOW,  # §2A.4
    P_RUN_SUIT: RUN_SAME_SUIT,  # §2A.6
    P_GROUP_DUPLICATES: 0,  # §2B.9
    P_UPCARD: 1,  # §2C.15
    P_MELDS_PER_TURN: MELDS_UNLIMITED,  # §2D.19
    P_LAYOFF_TARGET: LAYOFF_ANY,  # §2D.20
    P_LAYOFF_REQUIRES: LREQ_OFF,  # §2D.21
    P_MUST_DISCARD_TO_GO_OUT: 0,  # §2E.26
    P_GOING_RUMMY: RUMMY_OFF,  # §2E.27
    P_STOCK_EXHAUSTION: STOCK_TURN_OVER,  # §2F.28
}

_INDEX = tuple(sorted(STANDARD))
_VALUE = tuple(STANDARD[i] for i in _INDEX)
_N_FIXED = len(_INDEX)


@inline_kernel
def is_standard(params):
    """True when every toggle of ``STANDARD`` has its value in ``params``."""
    for i in range(_N_FIXED):
        if params[_INDEX[i]] != _VALUE[i]:
            return False
    return True


def standard_params(params):
    """``params`` as a tuple with the toggles of ``STANDARD`` constants (call it only where
    ``is_standard(params)`` holds). Without the JIT, the same values as a tuple."""
    return tuple(STANDARD.get(i, int(params[i])) for i in range(N_PARAMS))


if not numba.config.DISABLE_JIT:

    @intrinsic
    def _standard_params(typingctx, params):
        """Build the ``UniTuple(int64, N_PARAMS)``: a constant for each index of
        ``STANDARD``, a load from the array for every other one."""
        if (
            not isinstance(params, types.Array)
            or params.ndim != 1
            or params.dtype != types.int64
            or params.layout != "C"
        ):
            return None
        tuple_type = types.UniTuple(types.int64, N_PARAMS)

        def codegen(context, builder, signature, args):
            from numba.np.arrayobj import make_array  # only when compiling (jit.py: start-up)

            data = make_array(signature.args[0])(context, builder, args[0]).data
            out = cgutils.get_null_value(context.get_value_type(tuple_type))
            for i in range(N_PARAMS):
                if i in STANDARD:
                    value = context.get_constant(types.int64, STANDARD[i])
                else:
                    value = builder.load(cgutils.gep_inbounds(builder, data, i))
                out = builder.insert_value(out, value, i)
            return out

        return tuple_type(params), codegen

    standard_params = _standard_params  # noqa: F811 (the compiled builder)
