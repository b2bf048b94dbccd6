"""``make bench``: the standard benchmarks, one JSON line per figure.

The engine beside its reference (benchmarks.reference): the speed reference, 2-player
rummy_basic greedy and its ratio to the reference, and its cold compile (issue #29's bars).
Engine: 2-player rummy_basic greedy on one worker and on every core (each worker playing
as many hands as the one worker; their ratio, against one-core runs just before and after,
is a line of its own), 4 players, careful bots; gin_rummy simple against simple on one core
(issue #4's bar: 250,000 hands/s); mc32 against simple in 2-player gin (issue #34's bar:
200 hands/s on one core) and against greedy in 2-player rummy_basic; tonk at 2 players,
phom at 4 and conquian at 2, greedy (issue #32's bar: 100,000 hands/s); nowrang at 2,
greedy (issue #33's bar: 100,000 hands/s); continental at 4, greedy (issue #33 point 1);
carousel_knock at 2 and 4, greedy (issue #33 point 3's bar: 1,000 hands/s);
german_rummy at 4 players, greedy, with its initial meld of 40 and without it (issue #31's
bar: 15,000 hands/s with it); the reference again after those one-core lines
(``reference_after``: its ratio to the first run says whether the host held its speed
while they ran); and the warm-cache start-up time of ``rummysim bench --hands 1``.
Hand analysis: `rummysim deadwood --file` on a million random hands.
Pipeline (benchmarks.pipeline): ``rummysim run`` end to end against the engine alone, worker
scaling, the Dask backend, and a worker's peak memory at 1x and 10x the hands.
Report (benchmarks.report): seconds to report on a simulated dataset next to the seconds it
took to simulate it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from benchmarks.pipeline import bench_dask, bench_memory, bench_pipeline, bench_scaling
from benchmarks.reference import figures as reference_figures
from benchmarks.reference import reference
from benchmarks.report import bench_report_pipeline
from sim.bench import bench, cpu_count

HANDS = int(os.environ.get("RUMMYSIM_BENCH_HANDS", "1000000"))
"""Hands per engine figure: at 200,000 a one-core run lasted 0.4-0.6 s and the two-worker
run's pool start-up was a tenth of it, so on these shared machines the per-core figure
swung by a third between runs and the scaling read low."""
DEADWOOD_HANDS = int(os.environ.get("RUMMYSIM_BENCH_DEADWOOD_HANDS", "1000000"))
PIPELINE_HANDS = int(os.environ.get("RUMMYSIM_BENCH_PIPELINE_HANDS", "1000000"))  # per arm
MEMORY_HANDS = int(os.environ.get("RUMMYSIM_BENCH_MEMORY_HANDS", "100000"))
MC_HANDS = int(os.environ.get("RUMMYSIM_BENCH_MC_HANDS", "2000"))
"""Hands of each Monte Carlo figure: mc32 plays thousands of playouts a hand."""


def startup_seconds(repeats: int = 5) -> float:
    """Median wall time of a fresh ``rummysim bench --hands 1`` process, started as the console
    script starts it (import sim.cli, call main; not the script file itself, which may belong
    to another checkout), with sim's modules byte-compiled as ``make install`` leaves them
    (where PYTHONDONTWRITEBYTECODE is set no run writes them) and numba's cache warmed by a
    first run."""
    import compileall
    from pathlib import Path

    import sim

    compileall.compile_dir(Path(sim.__file__).parent, quiet=1)
    script = "from sim.cli import main; main()"
    command = [sys.executable, "-c", script, "bench", "--hands", "1"]
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def deadwood_seconds(hands: int) -> dict:
    """Seconds for ``rummysim deadwood --file`` on ``hands`` random 10/11-card hands."""
    import random
    import tempfile

    from sim.cards import card_name

    rng = random.Random(0)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        for i in range(hands):
            cards = rng.sample(range(52), 10 + i % 2)
            handle.write(" ".join(card_name(k) for k in cards) + "\n")
    command = [sys.executable, "-m", "sim.cli", "deadwood", "--file", handle.name]
    subprocess.run([*command[:-2], "As", "2s", "3s"], check=True, capture_output=True)  # warm
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True)
    seconds = time.perf_counter() - start
    os.unlink(handle.name)
    lines = done.stdout.count(b"\n")
    return {"bench": "deadwood", "hands": lines, "seconds": round(seconds, 3),
            "hands_per_s": round(lines / seconds, 1)}  # fmt: skip


def host_drift(first: dict | None) -> dict | None:
    """The reference run again after the one-core engine lines (``reference_after``), beside
    its first run: these shared hosts can slow by half for minutes at a time, and then every
    one-core line of the suite reads low, bars missed included. ``ratio`` well below 1 says
    the lines between the two runs were measured on a slowed host. None without ../shared."""
    if first is None:
        return None
    after = reference()
    if after is None:
        return None
    return {
        "bench": "reference_after",
        "hands_per_s": after["hands_per_s"],
        "first_hands_per_s": first["hands_per_s"],
        "ratio": round(after["hands_per_s"] / first["hands_per_s"], 3),
    }


def main() -> None:
    first_reference = None
    for figure in reference_figures(HANDS):
        if figure["bench"] == "reference":
            first_reference = figure
        print(json.dumps(figure), flush=True)
    cores = cpu_count()
    greedy = dict(variant="rummy_basic", players=2, bots="greedy")
    one_core = bench(hands=HANDS, workers=1, **greedy)
    # Every worker plays as many hands as the one-core run, so both runs last about as long
    # and the pool's start (~50 ms: forking the workers, their first result arrays) weighs
    # the same in both. With HANDS shared out it was ~7% of a two-worker run's time, which
    # alone held the ratio below 1.86 on an idle machine.
    all_cores = bench(hands=HANDS * cores, workers=cores, **greedy)
    for figure in (one_core, all_cores):
        print(json.dumps(figure), flush=True)
    # The machine's speed drifts between runs: the ratio is taken against the mean of one-core
    # runs just before and just after the all-cores run.
    after = bench(hands=HANDS, workers=1, **greedy)
    single = (one_core["hands_per_s"] + after["hands_per_s"]) / 2
    scaling = {
        "bench": "engine_scaling",
        "workers": cores,
        "one_core_hands_per_s": [one_core["hands_per_s"], after["hands_per_s"]],
        "all_cores_hands_per_s": all_cores["hands_per_s"],
        "ratio": round(all_cores["hands_per_s"] / single, 3),
    }
    print(json.dumps(scaling), flush=True)
    for run in (dict(players=4, bots="greedy"), dict(players=2, bots="careful")):
        print(json.dumps(bench("rummy_basic", hands=HANDS, workers=1, **run)), flush=True)
    gin = bench("gin_rummy", players=2, bots="simple", hands=HANDS * 2, workers=1)
    print(json.dumps(gin), flush=True)
    # issue #34 point 4: mc32 (seat 0) against simple in 2-player gin (bar: 200 hands/s on
    # one core) and against greedy in 2-player basic rummy
    for name, bots in (("gin_rummy", "mc32,simple"), ("rummy_basic", "mc32,greedy")):
        figure = bench(name, players=2, bots=bots, hands=MC_HANDS, workers=1)
        print(json.dumps(figure), flush=True)
    # issue #31's bar: German Rummy at 4 players, greedy (two packs, six jokers), with its
    # initial meld of 40 and, side by side, the same game without it
    for opening in (40, 0):
        figure = bench(
            "german_rummy", players=4, bots="greedy", hands=HANDS // 10, workers=1,
            overrides={"initial_meld_min": opening},
        )  # fmt: skip
        print(json.dumps(figure), flush=True)
    # issue #32's bar: each chip game at least 100,000 hands/s on one core (Tonk at 2
    # players; Phỏm at 4, its usual table; Conquian's 2)
    for name, players in (("tonk", 2), ("phom", 4), ("conquian", 2)):
        figure = bench(name, players=players, bots="greedy", hands=HANDS, workers=1)
        print(json.dumps(figure), flush=True)
    # issue #33's bar: Nowrang at 2 players, greedy (one pack), 100,000 hands/s; a tenth of
    # the hands, since it plays far below that (docs/perf-log.md)
    figure = bench("nowrang", players=2, bots="greedy", hands=HANDS // 10, workers=1)
    print(json.dumps(figure), flush=True)
    # issue #33 point 1: Continental at 4 players, greedy (two packs and two jokers); a
    # hundredth of the hands, since its wild pattern test is slower still (docs/engine.md)
    figure = bench("continental", players=4, bots="greedy", hands=HANDS // 100, workers=1)
    print(json.dumps(figure), flush=True)
    # issue #33 point 3: Carousel at 2 and 4 players, greedy (bar: 1,000 hands/s on one
    # core); a five-hundredth of the hands, each turn asking the table search (docs/engine.md)
    for players in (2, 4):
        figure = bench(
            "carousel_knock", players=players, bots="greedy", hands=HANDS // 500, workers=1
        )
        print(json.dumps(figure), flush=True)
    drift = host_drift(first_reference)
    if drift is not None:
        print(json.dumps(drift), flush=True)
    print(
        json.dumps(
            {
                "bench": "startup",
                "command": "rummysim bench --hands 1",
                "seconds": round(startup_seconds(), 3),
            }
        ),
        flush=True,
    )
    print(json.dumps(deadwood_seconds(DEADWOOD_HANDS)), flush=True)
    workers = max(2, cores)
    for figure in (
        bench_pipeline(PIPELINE_HANDS, workers),
        bench_scaling(PIPELINE_HANDS, workers),
        bench_dask(PIPELINE_HANDS, workers),
        bench_memory(MEMORY_HANDS, workers),
        bench_report_pipeline(workers=workers),
    ):
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
