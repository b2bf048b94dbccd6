"""How rummysim's numba code is compiled: the engine's kernels, and the report's.

``kernel``: numba ``njit(cache=True)`` with the runtime's reference counting switched off
(``_nrt=False``). Passing arrays between kernels then costs nothing: measured on these
machines, a small kernel taking the hand state went from ~150 ns to ~2 ns per call, and
before this half of all engine time was atomic reference counting. Such a kernel may not
allocate arrays; it only reads and writes arrays it is given (and views of them).

``allocating``: plain ``njit(cache=True)`` for the few functions that create arrays (the
state and workspace constructors, the game loop's buffers).

``threaded``: ``njit(cache=True, nogil=True)`` for the report's chunk reductions
(``sim.report.kernels``), which run while the report's reading threads decode the next chunk.

Compiling: ``fast_inline`` (installed here) makes numba's IR inlining copy a callee in
time linear in its size; a cold compile of the engine is ~2.3x faster, with the same
machine code.

numba's on-disk cache (``cache=True``) notices when a kernel's own file changes but not when
a module it calls does, and a stale kernel can crash the process. So the cache lives in a
folder named after a hash of every engine source file: any edit starts a fresh cache.
``NUMBA_CACHE_DIR``, when set, is used as the parent folder. It is set here, before any
kernel is decorated.

Loading a kernel from that cache skips a needless step (:func:`_install_fast_cache_load`):
numba's ``Cache.load_overload`` calls ``target_context.refresh()`` before it reads the
file, and that imports and installs every lowering registry numba has (numpy linalg,
typed dict/list/set, np.random, jitclass, ...): ~0.3 s of a ~1.7 s ``rummysim bench
--hands 1``, spent on nothing a cached nopython kernel uses.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba
from numba import njit

from sim.engine import fast_inline


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


_PACKAGE = __package__.split(".")[0]  # "sim"

FAST_CACHE_LOAD_NUMBA = ((0, 68),)
"""numba (major, minor) versions whose ``Cache.load_overload`` was read and checked against
the replacement below. Any other version is left alone."""


def _patch_allowed(switch: str, versions: tuple[tuple[int, int], ...]) -> bool:
    """Whether one of the numba patches here may be installed: the environment variable
    ``switch`` is not ``0`` and numba's (major, minor) version is one the patch was checked
    against."""
    if os.environ.get(switch, "1") == "0":
        return False
    try:
        version = tuple(int(part) for part in numba.__version__.split(".")[:2])
    except ValueError:
        return False
    return version in versions


def _install_fast_cache_load() -> bool:
    """Make numba load cached kernels without refreshing the target context first.

    What numba does (numba/core/caching.py, 0.68)::

        def load_overload(self, sig, target_context):
            target_context.refresh()
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)

    ``refresh()`` does two things: it initialises the NRT runtime (``rtsys.initialize``,
    whose symbols the allocating kernels link against) and it imports and installs every
    typing and lowering registry. Rebuilding a cached *nopython* function needs only the
    first: the file holds machine code and its environment, nothing is typed or lowered.
    The registries matter only to object mode (``objmode`` blocks, lifted loops), which
    the engine never uses (tests/engine/test_jit_fast_load.py keeps it so), and to compiling,
    which refreshes both contexts itself (``CompilerBase.__init__`` in numba/core/compiler.py)
    before it types anything, so a cache miss, or a kernel compiled later in the same
    process, sees the full registries as before. numba upstream weighed the same change
    (PR #9806, "Only refresh target_context if objmode is used").

    The replacement initialises the runtime, then loads as numba does. It applies only to
    functions defined in ``sim`` (the engine's kernels and the report's; any other cached
    function, e.g. a library's, is loaded the original way). If anything in it raises, the
    original method runs instead, so the worst case is numba's own behaviour.
    ``RUMMYSIM_NUMBA_FAST_LOAD=0`` turns it off (the tests compare both ways). Returns
    True when it was installed.
    """
    if not _patch_allowed("RUMMYSIM_NUMBA_FAST_LOAD", FAST_CACHE_LOAD_NUMBA):
        return False
    from numba.core.caching import Cache
    from numba.core.runtime.nrt import rtsys

    original = Cache.load_overload
    if getattr(original, "_rummysim_fast", False):
        return True  # already installed (module reloaded)
    needed = ("_load_overload", "_guard_against_spurious_io_errors")
    if not all(hasattr(Cache, name) for name in needed):
        return False

    def load_overload(self, sig, target_context):
        module = getattr(getattr(self, "_py_func", None), "__module__", None) or ""
        if not module.startswith(_PACKAGE + "."):  # not one of rummysim's: numba's way
            return original(self, sig, target_context)
        try:
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except Exception:
            return original(self, sig, target_context)

    load_overload._rummysim_fast = True
    load_overload.__doc__ = original.__doc__
    Cache.load_overload = load_overload
    return True


FAST_CACHE_LOAD = _install_fast_cache_load()
"""True when cached kernels load without numba's full context refresh (see above)."""


def _install_cache_save_lock() -> bool:
    """Make numba's cache writes safe between processes compiling at the same time.

    numba saves an overload by reading the function's index, taking the first free data
    file name (``name.1.nbc``, ``.2.nbc``, ...), writing the index, then the data
    (``IndexDataCacheFile.save``, numba/core/caching.py). Two processes saving different
    overloads of one kernel at once can take the same name, and one overwrites the other's
    data under the other's index entry. ``sim.engine.precompile`` compiles overloads of the
    same kernels in parallel, and so do pytest-xdist workers, so each save here holds an
    exclusive ``flock`` on a file in its cache folder. Loads need no lock: numba writes each
    file under a temporary name and renames it, and a load that finds no data compiles.
    Returns True when installed (not on platforms without ``fcntl``)."""
    try:
        import fcntl
    except ImportError:
        return False
    from numba.core.caching import IndexDataCacheFile

    original = IndexDataCacheFile.save
    if getattr(original, "_rummysim_locked", False):
        return True

    def save(self, key, data):
        lock_path = Path(getattr(self, "_cache_path", numba.config.CACHE_DIR)) / ".save.lock"
        with open(lock_path, "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                original(self, key, data)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    save._rummysim_locked = True
    save.__doc__ = original.__doc__
    IndexDataCacheFile.save = save
    return True


CACHE_SAVE_LOCK = _install_cache_save_lock()
"""True when numba's cache saves are serialised between processes (see above)."""

FAST_INLINE = (
    _patch_allowed("RUMMYSIM_NUMBA_FAST_INLINE", fast_inline.FAST_INLINE_NUMBA)
    and fast_inline.install()
)
"""True when numba's IR inlining copies a callee in linear time (``fast_inline``)."""


def cache_is_cold() -> bool:
    """True when ``game.play_games`` is not in this checkout's cache yet: the first call
    would compile it, which takes minutes. (A first compile cut short leaves other
    kernels cached; ``sim.engine.precompile`` then loads those and compiles the rest.)

    numba keeps a checkout's kernels in a subfolder named after the sources' folder
    (``engine_<hash of its path>``), so two clones of the same engine share the digest's
    folder but not their kernels: the test looks in this checkout's subfolder, else a second
    clone would find the first one's kernels, skip the parallel precompile and compile
    everything in one process."""
    from sim.engine.game import play_games

    folder = getattr(getattr(play_games, "_cache", None), "_cache_path", None)
    if folder is None:  # not a caching dispatcher (NUMBA_DISABLE_JIT): nothing to compile
        return False
    return not any(Path(folder).glob("game.play_games-*.nbi"))


kernel = njit(cache=True, _nrt=False)
inline_kernel = njit(cache=True, _nrt=False, inline="always")
allocating = njit(cache=True)
threaded = njit(cache=True, nogil=True)
