PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install clean bench lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,dense]'
	touch $(STAMP)

install: $(STAMP)

DEMO_QUESTION ?= how is freshness computed

# The demo keeps its registry inside the checkout, so it never clashes with your projects.
demo: export KENNING_HOME = $(CURDIR)/.kenning/demo-home
demo: $(STAMP)
	$(BIN)/kenning init --sync --project . --name kenning-demo
	@echo
	@echo '$$ kenning ask "$(DEMO_QUESTION)"'
	@$(BIN)/kenning ask "$(DEMO_QUESTION)" --project . --limit 3

# Lint first: a finding fails the run before the suite starts (CI runs `make test`).
test: lint
	$(BIN)/python -m pytest

# ruff (lint and format check) and mypy (config in pyproject.toml); a few seconds with mypy's cache.
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy src/kenning

bench: $(STAMP)
	$(BIN)/python bench/speed.py
	$(BIN)/python bench/query_cost.py
	$(BIN)/python bench/sync_floor.py
	$(BIN)/python bench/graph_speed.py
	$(BIN)/python bench/session_start.py
	$(BIN)/python bench/token_economy.py
	$(BIN)/python bench/web_speed.py

clean:
	rm -rf $(VENV) .kenning/*.db*
