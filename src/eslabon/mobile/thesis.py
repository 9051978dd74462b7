"""The old name of :mod:`eslabon.mobile.one_way_coupling`, the one-way platform → arm coupling.

Importing it warns (EslabonDeprecationWarning) and gives that module's names; it goes in
the next release. eslabon itself never imports it."""

from .._deprecation import warn_renamed
from . import one_way_coupling as _new
from .one_way_coupling import *  # noqa: F403


def __getattr__(name: str):
    return getattr(_new, name)  # the private names too


warn_renamed("eslabon.mobile.thesis", "eslabon.mobile.one_way_coupling")
