"""Compile the engine into numba's on-disk cache on several processes at once.

A cold compile of ``game.play_games`` in one process took about 11 minutes on these
machines before ``fast_inline`` (12-16 before ``play_turns`` became a kernel of its own),
nearly all of it in seven large kernels that numba compiles one after another:
``hand.play_turns`` twice (for ``params`` and for ``bits.fast_params(params)``, each with
every per-turn kernel inlined into it), ``mask_hand.play_mask_hand`` three times (every
toggle it reads a constant, ``play_mask_hand_standard``; the ace rule a constant,
``play_mask_hand_ace_low``; everything read from ``params``) and
``knock.play_knock_turns`` twice (any-suit and same-suit runs,
``knock_melds.is_any_suit``). Here each of those is compiled by its own
process into the shared cache (``jit.py`` serialises the cache writes), as many at once as
there are processes; then ``play_games`` is compiled once, loading them from the cache.

Run as ``python -m sim.engine.precompile [--processes N]`` (``make test`` does, before the
tests, so pytest's workers start warm instead of each compiling the whole engine at once),
and from the runner before a first run on a cold cache. With a warm cache every part loads
in about a second. The parent process imports neither numba nor the engine.

The signatures built here must be those ``play_games`` calls the kernels with, or the
parts are compiled in vain; each part's child reports whether it compiled or loaded, and
the ``games`` part reports any large kernel ``play_games`` still had to compile
(tests/engine/test_precompile.py checks the signatures against the cache index).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

PARTS = (
    "turns_general",
    "turns_fast",
    "mask_hand_standard",
    "mask_hand_ace_low",
    "mask_hand_any_ace",
    "knock_any_suit",
    "knock_same_suit",
)
"""The large kernels compiled apart, longest first (measured on a cold cache of a slow
machine of this kind, two at once, with ``fast_inline``: 155-162 s for each of the turns,
64-72 s for each of ``mask_hand``'s, 40-42 s for each of the knock turns; then
``play_games`` ~119 s; 442 s in all on 2 processes, 1,027 s before ``fast_inline``)."""

GAMES = "games"
"""The last part: ``play_games`` itself, loading the parts from the cache."""


def _int64_array_type():
    from numba import types

    return types.Array(types.int64, 1, "C")


def _state_type(players: int):
    """The numba type of ``state.HandState`` as ``play_games`` builds it."""
    import numba
    import numpy as np

    from sim.engine.api import make_params
    from sim.engine.state import EV_COLS, new_state

    params, _ = make_params(players=players)
    return numba.typeof(new_state(params, np.zeros((1, EV_COLS), np.int64)))


def signatures() -> dict[str, tuple[Callable, tuple]]:
    """For each part: the dispatcher and the argument types ``play_games`` calls it with."""
    from numba import types

    from sim.engine.hand import play_turns
    from sim.engine.knock import play_knock_turns
    from sim.engine.mask_hand import (
        play_mask_hand_ace_low,
        play_mask_hand_any_ace,
        play_mask_hand_standard,
    )

    st = _state_type(2)
    pl, piles, melds, sc, rng, ws = (st[i] for i in (1, 2, 3, 5, 6, 8))
    arr = _int64_array_type()
    fast = types.Array(types.int64, 1, "C", readonly=True, aligned=False)  # bits.fast_params
    i64 = types.int64
    # play_turns(st, params, values, bots, dealer)
    # play_mask_hand(pl, piles, melds, sc, rng, ws, params, values, bots, dealer, seed, shard,
    # deal): the fields of HandState that hand.play_hand passes
    mask_hand = (pl, piles, melds, sc, rng, ws, arr, arr, arr, i64, i64, i64, i64)
    # play_knock_turns(st, params, values, bots, dealer, rule): knock.play_knock_hand passes
    # an int64 rule for any-suit runs and an int32 one (the ace rank) for same-suit runs
    return {
        "turns_general": (play_turns, (st, arr, arr, arr, i64)),
        "turns_fast": (play_turns, (st, fast, arr, arr, i64)),
        "mask_hand_standard": (play_mask_hand_standard, mask_hand),
        "mask_hand_ace_low": (play_mask_hand_ace_low, mask_hand),
        "mask_hand_any_ace": (play_mask_hand_any_ace, mask_hand),
        "knock_any_suit": (play_knock_turns, (st, arr, arr, arr, i64, i64)),
        "knock_same_suit": (play_knock_turns, (st, arr, arr, arr, i64, types.int32)),
    }


def _misses(dispatcher) -> int:
    return sum(dispatcher.stats.cache_misses.values())


def _compile_one(dispatcher, sig) -> bool:
    """Compile (or load) one overload; True when it had to be compiled."""
    misses = _misses(dispatcher)
    dispatcher.compile(sig)
    return _misses(dispatcher) > misses


def _compile_games() -> tuple[bool, list[str]]:
    """Compile (or load) ``play_games`` by playing one hand. Returns whether it was compiled
    and the parts it had to compile again (their signatures here are out of date)."""
    from sim.engine.api import make_params, play
    from sim.engine.game import play_games
    from sim.engine.layout import BOT_GREEDY

    sigs = signatures()
    before = {name: _misses(dispatcher) for name, (dispatcher, _) in sigs.items()}
    params, values = make_params()
    play(params, values, [BOT_GREEDY, BOT_GREEDY], hands=1)
    again = [name for name, (dispatcher, _) in sigs.items() if _misses(dispatcher) > before[name]]
    return _misses(play_games) > 0, again


def run_part(name: str) -> str:
    """Compile one part in this process; returns a one-line account."""
    start = time.perf_counter()
    if name == GAMES:
        compiled, again = _compile_games()
        what = "play_games"
        if again:
            what += f" (compiled again: {', '.join(again)}: signatures out of date)"
    else:
        dispatcher, sig = signatures()[name]
        compiled = _compile_one(dispatcher, sig)
        what = name
    return f"{what}: {time.perf_counter() - start:.0f} s" + ("" if compiled else " (cached)")


def compile_engine(processes: int, log: Callable[[str], None] = print) -> float:
    """Compile every part on up to ``processes`` child processes, then ``play_games``.
    Returns the wall seconds. Raises RuntimeError naming the part that failed."""
    start = time.perf_counter()
    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return 0.0
    todo = list(PARTS)
    running: list[_Child] = []
    processes = max(1, processes)
    try:
        while todo or running:
            while todo and len(running) < processes:
                running.append(_Child.spawn(todo.pop(0)))
            running = _reap(running, log)
            time.sleep(0.2)
        running = [_Child.spawn(GAMES)]
        running[0].process.wait()
        _reap(running, log)
    finally:  # Ctrl-C or a failed part: no child keeps compiling
        for child in running:
            child.stop()
    return time.perf_counter() - start


@dataclass
class _Child:
    """A child process compiling one part; its output goes to temporary files (numba's
    warnings could fill a pipe nobody reads while the child runs)."""

    name: str
    process: subprocess.Popen
    out: IO[str]
    err: IO[str]

    @classmethod
    def spawn(cls, name: str) -> _Child:
        out = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed by output())
        err = tempfile.TemporaryFile("w+")  # noqa: SIM115
        process = subprocess.Popen(_command(name), stdout=out, stderr=err, text=True)
        return cls(name, process, out, err)

    def output(self) -> tuple[str, str]:
        """What the finished child wrote to stdout and stderr."""
        texts = []
        for handle in (self.out, self.err):
            handle.seek(0)
            texts.append(handle.read())
            handle.close()
        return texts[0], texts[1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _command(name: str) -> list[str]:
    """The command line of the child compiling part ``name``."""
    return [sys.executable, "-m", "sim.engine.precompile", "--part", name]


def _reap(running: list[_Child], log: Callable[[str], None]) -> list[_Child]:
    """Log and drop the finished children; raise if one failed."""
    left = []
    for child in running:
        if child.process.poll() is None:
            left.append(child)
            continue
        out, err = child.output()
        if child.process.returncode != 0:
            tail = err.strip().splitlines()[-5:]
            code = child.process.returncode
            raise RuntimeError(f"compiling {child.name} failed (exit {code}):\n" + "\n".join(tail))
        log("engine kernels: " + out.strip())
    return left


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--part", choices=(*PARTS, GAMES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.part:
        print(run_part(args.part), flush=True)
        return 0
    try:
        seconds = compile_engine(args.processes)
    except RuntimeError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"engine kernels ready in {seconds:.0f} s ({args.processes} processes)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
