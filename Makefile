# Two entry points (see README): `make demo` and `make test`. Each stage prints a line.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
SOURCES := pyproject.toml setup.py src/eslabon/_engine/_fastcall.c src/eslabon/_engine/layout.h

.PHONY: demo test test-cpu-variants lint docs bench clean

$(BIN)/python:
	@echo "==> creating $(VENV)"
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# the demo needs the plotting extra only; the tests need every extra
$(VENV)/.installed-demo: $(BIN)/python $(SOURCES)
	@echo "==> installing eslabon with its plotting extra (.[viz])"
	$(BIN)/python -m pip install --quiet -e ".[viz]"
	touch $@

$(VENV)/.installed-test: $(BIN)/python $(SOURCES)
	@echo "==> installing eslabon with its test extras (.[viz,test])"
	$(BIN)/python -m pip install --quiet -e ".[viz,test]"
	touch $@

demo: $(VENV)/.installed-demo
	@echo "==> compiling the kernels for this machine (eslabon warmup: once per version)"
	$(BIN)/eslabon warmup
	@echo "==> the short tour: eslabon demo --out out (eslabon demo --full: every source document)"
	$(BIN)/eslabon demo --out out

# The suite runs on every core (pytest-xdist; TEST_WORKERS=1 for one process), after one
# warm-up has compiled every kernel, which every worker would otherwise compile again.
TEST_WORKERS ?= auto
test: $(VENV)/.installed-test
	@echo "==> compiling every kernel once for the whole run (eslabon warmup --all)"
	$(BIN)/eslabon warmup --all
	@echo "==> running the test suite ($(TEST_WORKERS) workers)"
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist worksteal --durations=20

# The round-off-sensitive tests again with the kernels compiled for a generic x86-64 (no
# FMA, no AVX) and numpy's BLAS and SIMD loops on another kernel set, so that a result
# that depends on the CPU shows up on any machine (tests/cpu_variants.sh says which).
test-cpu-variants: $(VENV)/.installed-test
	@echo "==> the numerics tests under other CPU targets (tests/cpu_variants.sh)"
	PYTHON=$(BIN)/python bash tests/cpu_variants.sh

# style and types: ruff (lint, format) and mypy, configured in pyproject.toml
lint: $(VENV)/.installed-test
	@echo "==> ruff check, ruff format --check, mypy"
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# The API reference from the docstrings (docs/api), every Sphinx warning an error
docs: $(VENV)/.installed-test
	@echo "==> building the API reference (sphinx-build -W) into build/api"
	$(BIN)/sphinx-build -q -W --keep-going -b html docs/api build/api

# Speed benchmark side by side with Pinocchio; e.g. BENCH_ARGS="--markdown benchmarks/RESULTS.md --force".
BENCH_ARGS ?=
bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet pin || echo "pin not installable: benchmarks run without Pinocchio"
	if $(BIN)/python -c "import pinocchio" 2>/dev/null; then \
		$(BIN)/eslabon bench --against pin $(BENCH_ARGS); \
	else \
		$(BIN)/eslabon bench $(BENCH_ARGS); \
	fi

clean:
	rm -rf $(VENV) out build .pytest_cache
	find src -name '*.nbi' -delete -o -name '*.nbc' -delete -o -name '_fastcall*.so' -delete -o -name 'entries-*.so' -delete
