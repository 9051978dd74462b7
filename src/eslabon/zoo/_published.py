"""Models kept as their source published them."""

from __future__ import annotations

import functools
import warnings

from ..model.validate import ImplausibleInertiaWarning


def published_inertias(factory):
    """For a built-in model whose published inertia table breaks the triangle inequality
    of a rigid body (the model's docstring says which bodies; ``eslabon info`` shows
    them): build it without the :class:`ImplausibleInertiaWarning` a user's file gets.
    The dynamics stay well defined (M(q) is positive definite)."""

    @functools.wraps(factory)
    def build(*args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ImplausibleInertiaWarning)
            return factory(*args, **kwargs)

    return build
