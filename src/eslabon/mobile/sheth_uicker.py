"""The old name of :mod:`eslabon.mobile.wheel_kinematics`, wheeled-platform kinematics.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import wheel_kinematics as _new
from .wheel_kinematics import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.mobile.sheth_uicker", "eslabon.mobile.wheel_kinematics")
