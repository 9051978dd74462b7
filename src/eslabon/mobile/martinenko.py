"""The old name of :mod:`eslabon.mobile.steered_cart`, closed-form dynamics of the steered cart.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import steered_cart as _new
from .steered_cart import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.mobile.martinenko", "eslabon.mobile.steered_cart")
