# formosa_envs tasks. `make run` and `make test` are the README's quick start.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: run simulate test bench lint golden clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.core: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[dev,train]"
	touch $@ $(VENV)/.core $(VENV)/.train

$(VENV)/.train: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[train]"
	touch $@ $(VENV)/.core

## run: set up and run the main job: train a Formosa Flowers agent, then evaluate it
run: $(VENV)/.train
	$(BIN)/formosa train flowers

## simulate: random games with a summary (no training extras needed)
simulate: $(VENV)/.core
	$(BIN)/formosa simulate flowers --players 3 --games 1000 --seed 0

## test: set up the dev tools, lint, and run the default test suite
test: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

## bench: decisions per second vs PettingZoo connect_four_v3 (2, 3, 4 players)
bench: $(VENV)/.dev
	$(BIN)/python benchmarks/bench.py

## golden: regenerate the golden game transcripts in tests/golden/
golden: $(VENV)/.dev
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info
