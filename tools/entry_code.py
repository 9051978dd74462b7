"""The machine code of every C entry, summarised: for a change meant to leave the
compiled code alone (a renaming, a refactoring), run it before and after and compare.

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=src python tools/entry_code.py > before.txt

Each entry (``lazy_cfunc`` of the driver modules) is compiled afresh; one line each: the
loads of its optimised LLVM IR, its instructions, those with a memory source operand, and
a digest of the instructions with symbol names, labels and constant-data names removed
(they carry compile counters and source line numbers, not code). Same digest: same code.
"""

from __future__ import annotations

import hashlib
import importlib
import re

from numba import cfunc

from eslabon._engine.compile import LazyCFunc

MODULES = (
    "eslabon.dynamics.drivers",
    "eslabon.dynamics.derivative_drivers",
    "eslabon.kinematics.drivers",
    "eslabon.dynamics.batch_drivers",
    "eslabon.dynamics.derivative_batches",
)
_NAMES = re.compile(r"_Z\w+|\.LBB\w+|\.LCPI\w+|\.Ltmp\w+|\w*numba\w*|cfunc\w*|\"?\.bytes\.-?\d+\"?")


def summary(entry: LazyCFunc) -> str:
    """IR loads, instructions, memory-source instructions and code digest of ``entry``."""
    library = cfunc(entry.signature)(entry.pyfunc)._library
    loads = len(re.findall(r"= load ", library.get_llvm_str()))
    lines = (line.split("#")[0].strip() for line in library.get_asm_str().splitlines())
    code = [x for x in lines if x and not x.startswith(".") and not x.endswith(":")]
    memory = sum(1 for x in code if "," in x and "(" in x.split(",")[0] and not x.startswith("lea"))
    digest = hashlib.sha1("\n".join(_NAMES.sub("SYM", x) for x in code).encode()).hexdigest()
    return f"IR loads {loads:5d}  instructions {len(code):6d}  memory {memory:5d}  {digest[:12]}"


def main() -> None:
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in sorted(vars(module)):
            entry = getattr(module, attr)
            if isinstance(entry, LazyCFunc):
                print(f"{name.rsplit('.', 1)[1]}.{attr:40s} {summary(entry)}", flush=True)


if __name__ == "__main__":
    main()
