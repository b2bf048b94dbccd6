"""``make bench``: the standard benchmarks, one JSON line per figure.

Engine: 2-player rummy_basic greedy on one worker and on every core, 4 players, careful
bots, and the warm-cache start-up time of ``rummysim bench --hands 1``.
Pipeline (sim.bench_pipeline): ``rummysim run`` end to end against the engine alone, worker
scaling, the Dask backend, and a worker's peak memory at 1x and 10x the hands.
Report (sim.report.bench): seconds to report on a simulated dataset next to the seconds it
took to simulate it.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from sim.bench import bench, cpu_count
from sim.bench_pipeline import bench_dask, bench_memory, bench_pipeline, bench_scaling
from sim.report.bench import bench_report_pipeline

HANDS = int(os.environ.get("RUMMYSIM_BENCH_HANDS", "200000"))
MEMORY_HANDS = int(os.environ.get("RUMMYSIM_BENCH_MEMORY_HANDS", "100000"))


def startup_seconds(repeats: int = 3) -> float:
    """Median wall time of a fresh ``rummysim bench --hands 1`` process (cache warmed first)."""
    command = [sys.executable, "-m", "sim.cli", "bench", "--hands", "1"]
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    cores = cpu_count()
    runs = [
        dict(players=2, bots="greedy", workers=1),
        dict(players=2, bots="greedy", workers=cores),
        dict(players=4, bots="greedy", workers=1),
        dict(players=2, bots="careful", workers=1),
    ]
    for run in runs:
        print(json.dumps(bench("rummy_basic", hands=HANDS, **run)), flush=True)
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
    workers = max(2, cores)
    for figure in (
        bench_pipeline(HANDS, workers),
        bench_scaling(HANDS, workers),
        bench_dask(HANDS, workers),
        bench_memory(MEMORY_HANDS, workers),
        bench_report_pipeline(workers=workers),
    ):
        print(json.dumps(figure), flush=True)


if __name__ == "__main__":
    main()
