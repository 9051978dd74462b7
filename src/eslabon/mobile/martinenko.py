"""The old name of :mod:`eslabon.mobile.steered_cart`, closed-form dynamics of the steered cart.

Importing it warns (DeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

import warnings

from . import steered_cart as _new
from .steered_cart import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warnings.warn(
    "eslabon.mobile.martinenko is renamed eslabon.mobile.steered_cart; import that",
    DeprecationWarning,
    stacklevel=2,
)
