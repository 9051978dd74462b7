"""The old name of :mod:`eslabon.dynamics.composite_rigid_body`, the joint-space mass matrix.

Importing it warns (DeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

import warnings

from . import composite_rigid_body as _new
from .composite_rigid_body import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warnings.warn(
    "eslabon.dynamics.walker_orin is renamed eslabon.dynamics.composite_rigid_body; import that",
    DeprecationWarning,
    stacklevel=2,
)
