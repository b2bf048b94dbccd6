"""How the engine's kernels are compiled: one decorator and one cache folder.

``kernel``: numba ``njit(cache=True)`` with the runtime's reference counting off
(``_nrt=False``): a kernel may not allocate arrays, only read and write the arrays it is
given, and passing arrays between kernels then costs no atomic operations.
``allocating``: plain ``njit(cache=True)`` for the few functions that create arrays.
Both use numpy's error model (``error_model="numpy"``): an integer division by zero gives 0
rather than raising, so no kernel carries exception code (kernels never raise; they count
violations).

numba compiles a kernel once for each distinct type of its arguments, and a constant
passed as it is (``log_event(st, events, E_MELD, seat, 0, 0)``) is typed as its literal
value: one more compile of the kernel, and of nothing else, per constant. Engine code
therefore passes constants to kernels as ``np.int64(E_MELD)`` or ``np.bool_(True)`` (the
value still folds in LLVM); ``tests/engine/test_kernel_shape.py`` keeps it so.

numba's on-disk cache notices when a kernel's own file changes but not when a module it
calls does, so these kernels are cached in a folder named after a hash of every source of
this package (and ``sim/cards.py`` and the numba version): any edit starts a fresh cache.
numba binds a kernel's cache folder when the kernel is decorated, so the decorators here
set ``numba.config.CACHE_DIR`` only while they decorate, and other kernels (the report's)
keep numba's default folder. Nothing here patches numba.
``NUMBA_CACHE_DIR``, when set, is the parent folder.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba import njit

_HERE = Path(__file__).parent


def _source_digest() -> str:
    """SHA-256 of this package's sources, sim/cards.py, the toggle table the params layout is
    made from (sim/rules/toggles.py: a new toggle moves the slots the kernels freeze) and the
    numba version."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    digest.update((_HERE.parent / "cards.py").read_bytes())
    digest.update((_HERE.parent / "rules" / "toggles.py").read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()


SOURCE_DIGEST = _source_digest()
"""Names this exact engine (its cache folder; a dataset is never resumed across engines)."""


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or str(Path.home() / ".cache" / "rummysim")
    folder = Path(base) / f"engine-{SOURCE_DIGEST[:16]}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / ".writable").touch()
    except OSError:  # read-only home: numba would refuse to cache at all
        folder = Path(tempfile.gettempdir()) / "rummysim" / folder.name
        folder.mkdir(parents=True, exist_ok=True)
    return str(folder)


CACHE_DIR = _cache_dir()


def _decorator(**options):
    def decorate(function):
        previous = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = CACHE_DIR
        try:
            return njit(cache=True, **options)(function)
        finally:
            numba.config.CACHE_DIR = previous

    return decorate


kernel = _decorator(_nrt=False, error_model="numpy")
allocating = _decorator(error_model="numpy")


def cache_is_cold() -> bool:
    """True when nothing of the engine is in this checkout's cache yet: the first call will
    compile the kernels (a minute or two), rather than load them (under a second)."""
    from sim.engine.game import play_games

    folder = getattr(getattr(play_games, "_cache", None), "_cache_path", None)
    if folder is None:  # not a caching dispatcher (NUMBA_DISABLE_JIT): nothing to compile
        return False
    return not any(Path(folder).glob("game.play_games-*.nbi"))
