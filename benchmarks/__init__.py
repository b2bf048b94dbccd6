"""rummysim's benchmarks, outside the package: ``make bench`` runs ``python -m
benchmarks.suite`` from the repository's root and prints one JSON line per figure
(docs/engine.md, "Benchmarks")."""
