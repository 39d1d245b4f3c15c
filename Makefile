PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install clean bench

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/kenning init --project . >/dev/null
	$(BIN)/kenning sync --project .
	@echo
	@echo '$$ kenning search "incremental sync manifest" --limit 3'
	@$(BIN)/kenning search "incremental sync manifest" --limit 3 --project .

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python bench/speed.py

clean:
	rm -rf $(VENV) .kenning/*.db*
