"""The old name of :mod:`eslabon.dynamics.composite_rigid_body`, the joint-space mass matrix.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import composite_rigid_body as _new
from .composite_rigid_body import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.dynamics.walker_orin", "eslabon.dynamics.composite_rigid_body")
