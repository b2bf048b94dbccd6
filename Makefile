# rummysim developer entry points. Every target creates and uses .venv in the project root.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: help install run test test-nojit bench lint clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*##/\t/'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install rummysim with its dev tools

RUN_HANDS ?= 20000

run: $(STAMP)  ## run the default experiment (RUN_HANDS hands per arm) into data/
	$(BIN)/rummysim run house-rules --hands $(RUN_HANDS) --out data

test: $(STAMP)  ## full test suite, then the reduced suite without JIT
	$(BIN)/python -m pytest -n 2 -q
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -m nojit -p no:cacheprovider

test-nojit: $(STAMP)  ## only the reduced suite, with numba's JIT disabled
	NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -m nojit -p no:cacheprovider

bench: $(STAMP)  ## engine benchmarks, one JSON line per figure
	$(BIN)/python -m sim.bench_suite

lint: $(STAMP)  ## ruff
	$(BIN)/ruff check sim tests
	$(BIN)/ruff format --check sim tests

clean:
	rm -rf $(VENV) build *.egg-info
