# formosa_envs tasks. `make run` and `make test` are the README's quick start.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# the default suite and the JAX tests run in TEST_WORKERS processes (pytest-xdist), each
# test file whole in one of them (its module fixtures are built once); 1 runs them serially
TEST_WORKERS ?= 2
PARALLEL := $(if $(filter-out 1,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadfile)

.PHONY: run play simulate test ecosystem ecosystem-plumbing ecosystem-bench browser bench bench-rllib lint golden clean docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.core: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[dev,rllib,spiel,jax,web,docs]"
	touch $@ $(VENV)/.core $(VENV)/.train $(VENV)/.rllib $(VENV)/.web $(VENV)/.docs

$(VENV)/.rllib: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[rllib]"
	touch $@ $(VENV)/.core $(VENV)/.train

$(VENV)/.train: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[train]"
	touch $@ $(VENV)/.core

## run: set up and run the main job: train a Formosa Flowers agent, then evaluate it
run: $(VENV)/.train
	$(BIN)/formosa train flowers

$(VENV)/.web: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[web]"
	touch $@ $(VENV)/.core

## play: set up the web extra and play in the browser (formosa serve: http://127.0.0.1:8000/,
## games kept in formosa-games/, which git ignores); PLAY_ARGS passes options (e.g. --port 8080)
play: $(VENV)/.web
	$(BIN)/formosa serve $(PLAY_ARGS)

$(VENV)/.docs: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[docs]"
	touch $@ $(VENV)/.core

## docs: build the documentation site into site/ (mkdocs build --strict: a warning, a broken
## link or anchor included, fails the build)
docs: $(VENV)/.docs
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

## simulate: random games with a summary (no training extras needed)
simulate: $(VENV)/.core
	$(BIN)/formosa simulate flowers --players 3 --games 1000 --seed 0

## test: set up the dev tools, lint, run the default suite (with the web app's server tests,
## tests/web: the [web] extra is part of the dev setup), the PettingZoo-floor check (fresh
## venvs with pettingzoo 1.25 and 1.26 from the package index), the Ray RLlib tests, the
## OpenSpiel bridge tests, the JAX engine tests, the browser tests (replay and play pages in
## headless Chromium from Debian's packages, installed here when missing) and the ecosystem
## recipes' plumbing (make ecosystem-plumbing; make ecosystem also trains them); and builds
## the documentation site (make docs, warnings as errors)
test: $(VENV)/.dev browser
	$(BIN)/ruff check .
	$(BIN)/python -m pytest $(PARALLEL)
	$(MAKE) docs
	$(BIN)/python -m pytest -m slow tests/test_pettingzoo_floor.py
	$(BIN)/python -m pytest -m wheel -s tests/test_wheel.py
	$(BIN)/python -m pytest -m rllib
	$(BIN)/python -m pytest -m "spiel and not slow"
	$(BIN)/python -m pytest -m "jax and not slow" $(PARALLEL) tests/jax
	$(BIN)/python -m pytest -m browser
	$(MAKE) ecosystem-plumbing

## ecosystem: the recipes with TorchRL, Tianshou, SuperSuit and AgileRL (README "Use with
## other libraries") in their own venv, .venv-eco, pinned by constraints/ecosystem.txt
## (torch stays the CPU build: a plain torch requirement would pull a multi-GB CUDA build)
ECO_VENV := .venv-eco
ECO_BIN  := $(ECO_VENV)/bin

$(ECO_BIN)/python:
	$(PYTHON) -m venv $(ECO_VENV)

$(ECO_VENV)/.installed: pyproject.toml constraints/ecosystem.txt | $(ECO_BIN)/python
	$(ECO_BIN)/pip install -q -e ".[dev,ecosystem]" -c constraints/ecosystem.txt
	touch $@

ecosystem-plumbing: $(ECO_VENV)/.installed
	OMP_NUM_THREADS=1 $(ECO_BIN)/python -m pytest -m "ecosystem and not slow" tests/ecosystem

## ecosystem: the plumbing tests above, then every recipe trains (TorchRL, Tianshou, AgileRL,
## SuperSuit + SB3 in .venv-eco; OpenSpiel in .venv) and must beat random (slow tests, a few
## CPU-minutes each; not part of make test)
ecosystem: ecosystem-plumbing $(VENV)/.dev
	OMP_NUM_THREADS=1 $(ECO_BIN)/python -m pytest -m "ecosystem and slow" tests/ecosystem
	OMP_NUM_THREADS=1 $(BIN)/python -m pytest -m "spiel and slow" tests/spiel

## ecosystem-bench: the recipes' before -> after figures (benchmarks/ecosystem_learning.py)
ecosystem-bench: $(ECO_VENV)/.installed $(VENV)/.dev
	OMP_NUM_THREADS=1 $(ECO_BIN)/python benchmarks/ecosystem_learning.py \
		--clients torchrl,tianshou,tianshou-dqn,agilerl,supersuit --out runs/ecosystem_learning_eco.json
	OMP_NUM_THREADS=1 $(BIN)/python benchmarks/ecosystem_learning.py \
		--clients openspiel --out runs/ecosystem_learning_spiel.json

## browser: install Debian's chromium and chromium-driver (needs root and apt) if missing
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	else apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	    chromium chromium-driver >/dev/null; fi

## bench: decisions per second vs PettingZoo connect_four_v3 (2, 3, 4 players)
bench: $(VENV)/.dev
	$(BIN)/python benchmarks/bench.py

## bench-rllib: RLlib env steps/s with 1 and 2 env runners, every game (README table)
bench-rllib: $(VENV)/.dev
	$(BIN)/python benchmarks/bench_rllib.py

## golden: regenerate the golden game transcripts in tests/golden/
golden: $(VENV)/.dev
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) $(ECO_VENV) .pytest_cache .ruff_cache *.egg-info
