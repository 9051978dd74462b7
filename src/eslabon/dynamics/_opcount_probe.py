"""The old name of :mod:`eslabon.dynamics.opcount_instrumented`, instrumented operation counts.

Importing it warns (DeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

import warnings

from . import opcount_instrumented as _new
from .opcount_instrumented import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warnings.warn(
    "eslabon.dynamics._opcount_probe is renamed eslabon.dynamics.opcount_instrumented; import that",
    DeprecationWarning,
    stacklevel=2,
)

if __name__ == "__main__":  # python -m eslabon.dynamics._opcount_probe METHOD N...
    import sys

    _new.main(sys.argv[1:])
