"""The old name of :mod:`eslabon.mobile.wheel_kinematics`, wheeled-platform kinematics.

Importing it warns (DeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

import warnings

from . import wheel_kinematics as _new
from .wheel_kinematics import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warnings.warn(
    "eslabon.mobile.sheth_uicker is renamed eslabon.mobile.wheel_kinematics; import that",
    DeprecationWarning,
    stacklevel=2,
)
