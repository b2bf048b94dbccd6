"""The two ways engine code is compiled.

``kernel``: numba ``njit(cache=True)`` with the runtime's reference counting switched off
(``_nrt=False``). Passing arrays between kernels then costs nothing: measured on these
machines, a small kernel taking the hand state went from ~150 ns to ~2 ns per call, and
before this half of all engine time was atomic reference counting. Such a kernel may not
allocate arrays; it only reads and writes arrays it is given (and views of them).

``allocating``: plain ``njit(cache=True)`` for the few functions that create arrays (the
state and workspace constructors, the game loop's buffers).
"""

from __future__ import annotations

from numba import njit

kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
allocating = njit(cache=True)
