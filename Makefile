# Two entry points (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e ".[viz,test]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/eslabon reproduce practica --out out/practica

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet pin || echo "pin not installable: benchmarks run without Pinocchio"
	$(BIN)/python benchmarks/bench_dynamics.py

clean:
	rm -rf $(VENV) out .pytest_cache
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete
