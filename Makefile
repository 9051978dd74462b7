# Two entry points (see README): `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml setup.py src/eslabon/_fastcall.c
	$(BIN)/python -m pip install --quiet -e ".[viz,test]"
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/eslabon demo --out out

test: $(STAMP)
	$(BIN)/python -m pytest

# Speed benchmark side by side with Pinocchio; e.g. BENCH_ARGS="--markdown benchmarks/RESULTS.md".
BENCH_ARGS ?=
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet pin || echo "pin not installable: benchmarks run without Pinocchio"
	if $(BIN)/python -c "import pinocchio" 2>/dev/null; then \
		$(BIN)/eslabon bench --against pin $(BENCH_ARGS); \
	else \
		$(BIN)/eslabon bench $(BENCH_ARGS); \
	fi

clean:
	rm -rf $(VENV) out .pytest_cache
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete -o -name '_fastcall*.so' -delete
