"""Every ``Examples`` section of the docstrings runs and prints what it shows (doctest),
so the API reference (``make docs``) and ``help()`` cannot drift from the code. The
modules are found by their ``>>>`` lines, so a new example is run without listing it."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import numpy as np
import pytest

SRC = Path(__file__).resolve().parents[1] / "src"


def _modules_with_examples() -> list[str]:
    names = []
    for path in sorted((SRC / "eslabon").rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            parts = path.relative_to(SRC).with_suffix("").parts
            names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def test_the_core_functions_have_examples():
    for name in ("eslabon.dynamics.api", "eslabon.control.linearize", "eslabon.model.dh"):
        assert name in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name}: no example found"
    # numpy's default print options: the CLI's main(), run in-process by other tests,
    # sets its own for the whole process
    with np.printoptions(precision=8, linewidth=75, suppress=False, threshold=1000):
        for test in tests:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} example(s) failed (output above)"
