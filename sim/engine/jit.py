"""The two ways engine code is compiled.

``kernel``: numba ``njit(cache=True)`` with the runtime's reference counting switched off
(``_nrt=False``). Passing arrays between kernels then costs nothing: measured on these
machines, a small kernel taking the hand state went from ~150 ns to ~2 ns per call, and
before this half of all engine time was atomic reference counting. Such a kernel may not
allocate arrays; it only reads and writes arrays it is given (and views of them).

``allocating``: plain ``njit(cache=True)`` for the few functions that create arrays (the
state and workspace constructors, the game loop's buffers).

numba's on-disk cache (``cache=True``) notices when a kernel's own file changes but not when
a module it calls does, and a stale kernel can crash the process. So the cache lives in a
folder named after a hash of every engine source file: any edit starts a fresh cache.
``NUMBA_CACHE_DIR``, when set, is used as the parent folder. It is set here, before any
kernel is decorated.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba import njit


def _engine_digest() -> str:
    """SHA-256 of every engine source file, cards.py and the numba version."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update((Path(__file__).parent.parent / "cards.py").read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()


ENGINE_DIGEST = _engine_digest()
"""Names this exact engine: the cache folder, and the runner's plan (a changed engine may
play differently, so a dataset is never resumed across engine versions)."""


def _engine_cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or str(Path.home() / ".cache" / "rummysim")
    folder = Path(base) / f"numba-{ENGINE_DIGEST[:16]}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".writable"
        probe.touch()
    except OSError:  # read-only home: numba would refuse to cache at all
        folder = Path(tempfile.gettempdir()) / "rummysim" / folder.name
        folder.mkdir(parents=True, exist_ok=True)
    return str(folder)


numba.config.CACHE_DIR = _engine_cache_dir()


def cache_is_cold() -> bool:
    """True when no kernel has been compiled into this engine's cache yet (the first call
    will compile them all, which takes minutes)."""
    return not any(Path(numba.config.CACHE_DIR).rglob("*.nbi"))


kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
allocating = njit(cache=True)
