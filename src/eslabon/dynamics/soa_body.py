"""The old name of :mod:`eslabon.dynamics.newton_euler_body_frames`, Newton–Euler in body frames.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import newton_euler_body_frames as _new
from .newton_euler_body_frames import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.dynamics.soa_body", "eslabon.dynamics.newton_euler_body_frames")
