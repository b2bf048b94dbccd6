# rummysim developer entry points. Every target creates and uses .venv in the project root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help install run test test-nojit audit-sweep bench lint golden compare-baseline verify clean chromium

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/\t/'

# compileall: pip does not byte-compile an editable install, and where PYTHONDONTWRITEBYTECODE
# is set (as on these machines) Python never writes sim's .pyc files itself, so every command
# would compile sim's modules from source (~0.08 s of `rummysim bench` start-up). A .pyc records
# its source's mtime and size: an edited module is compiled from source again until the next
# install, never run stale.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q sim
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install rummysim with its dev tools

RUN_HANDS ?=

run: $(STAMP)  ## run the default experiment (500,000 hands per arm, or RUN_HANDS) into data/, then report it
	$(BIN)/rummysim run house-rules $(if $(RUN_HANDS),--hands $(RUN_HANDS)) --out data --fresh
	$(BIN)/rummysim report data/house-rules --out reports/house-rules

# precompile: the engine is compiled once, in one process, before the test workers start, and
# its tests share one worker (tests/conftest.py), so no two processes write one kernel's cache
# at once.
test: $(STAMP) chromium  ## full test suite, then the reduced suite without JIT
	$(BIN)/python -m sim.engine.precompile
	$(BIN)/python -m pytest -n 2 --dist loadgroup -q --durations=15
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -m nojit -p no:cacheprovider

test-nojit: $(STAMP)  ## only the reduced suite, with numba's JIT disabled
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -m nojit -p no:cacheprovider

audit-sweep: $(STAMP)  ## a long audit sweep of random rules (~3 min; SWEEP_ARGS="--seed 7")
	$(BIN)/python -m sim.engine.precompile
	$(BIN)/python -m tests.engine.audit_sweep $(SWEEP_ARGS)

# The report's browser test needs Debian's chromium; install it as root where it is missing.
# Without it (not root, no network) the test is skipped with its reason, never passed.
chromium:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium \
		>/dev/null; } || echo "chromium could not be installed: the browser test will be skipped"

# tests/report/engine_calibration.py: the report's A/A and coverage check on 12M hands the
# engine plays (601 arms of 20,000 hands; ~4 min on 2 cores), issue #30 point 3.
verify: $(STAMP)  ## the engine against its plain-Python oracle hand, 1,000 hands a case (~2.5 h on 2 cores), the constrained meld searches against the brute-force oracle, 20,000 hands a rule (~15 min), then the report's engine-backed A/A and coverage check (~4 min)
	$(BIN)/python -m sim.engine.precompile
	$(BIN)/python -m tests.oracles.test_hand_oracle --hands 1000
	RUMMYSIM_ORACLE_HANDS=20000 $(BIN)/python -m pytest -q -p no:cacheprovider tests/engine/test_melds.py -k "2D_24_best_opening or 2D_22_a_borrowed or 3_13_cards_kept_apart or cards_to_keep_melded or cards_kept_melded"
	$(BIN)/python -m tests.report.engine_calibration

bench: $(STAMP)  ## engine benchmarks, one JSON line per figure
	$(BIN)/python -m sim.engine.precompile
	$(BIN)/python -m benchmarks.suite

lint: $(STAMP)  ## ruff
	$(BIN)/ruff check sim tests benchmarks
	$(BIN)/ruff format --check sim tests benchmarks

# tests/golden/test_golden.py compares replays of fixed hands with these files (docs/engine.md).
golden: $(STAMP)  ## rewrite the golden transcripts after an intended change
	$(BIN)/python -m tests.golden.regen

# tests/baseline/engine_stats.py: >= 100,000 hands of every case on both cores (~10 min);
# BASELINE_ARGS="--only gin_rummy" for some cases. `record` rewrites the baseline.
compare-baseline: $(STAMP)  ## before/after table of every variant file against tests/baseline/engine_stats.json (issue 29 point 6)
	$(BIN)/python -m sim.engine.precompile
	$(BIN)/python -m tests.baseline.engine_stats compare $(BASELINE_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info
