"""The old name of :mod:`eslabon.dynamics.opcount_instrumented`, instrumented operation counts.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import opcount_instrumented as _new
from .opcount_instrumented import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.dynamics._opcount_probe", "eslabon.dynamics.opcount_instrumented")

if __name__ == "__main__":  # python -m eslabon.dynamics._opcount_probe METHOD N...
    import sys

    _new.main(sys.argv[1:])
