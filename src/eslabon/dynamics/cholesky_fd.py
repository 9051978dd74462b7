"""The old name of :mod:`eslabon.dynamics.cholesky_forward_dynamics`, forward dynamics
by a Cholesky solve.

Importing it warns (DeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

import warnings

from . import cholesky_forward_dynamics as _new
from .cholesky_forward_dynamics import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warnings.warn(
    "eslabon.dynamics.cholesky_fd is renamed "
    "eslabon.dynamics.cholesky_forward_dynamics; import that",
    DeprecationWarning,
    stacklevel=2,
)
