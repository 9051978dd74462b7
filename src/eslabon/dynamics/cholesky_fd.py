"""The old name of :mod:`eslabon.dynamics.cholesky_forward_dynamics`, forward dynamics
by a Cholesky solve.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import cholesky_forward_dynamics as _new
from .cholesky_forward_dynamics import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.dynamics.cholesky_fd", "eslabon.dynamics.cholesky_forward_dynamics")
