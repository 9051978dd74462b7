"""Old spellings of the public surface, kept for one release with a warning.

Every renamed keyword, value or argument order warns once per process, naming the old
spelling and the call that replaces it (the migration table: ``CHANGELOG.md``). The
warning is an :class:`EslabonDeprecationWarning`, a :class:`DeprecationWarning`, so
Python shows it when the old spelling is in the user's own script (``__main__``) and a
test suite can turn exactly these into errors.
"""

from __future__ import annotations

import functools
import numbers
import warnings

import numpy as np

from ._args import caller_stacklevel


class EslabonDeprecationWarning(DeprecationWarning):
    """An old spelling of eslabon's surface that still works for one release."""


_WARNED: set = set()


def warn_renamed(old: str, new: str, key: str | None = None) -> None:
    """Warn, once per process for each ``old`` (or ``key``, when two functions share a
    name), that ``old`` is now spelled ``new``; the warning points at the user's line."""
    if (key or old) in _WARNED:
        return
    _WARNED.add(key or old)
    warnings.warn(
        f"{old} is deprecated and will be removed in the next release; use {new}",
        EslabonDeprecationWarning,
        stacklevel=caller_stacklevel(),
    )


def _public_name(func) -> str:
    """How a user calls ``func``: ``mobile.simulate``, ``control.linearize``, or the
    top-level name."""
    package = func.__module__.split(".")[1] if func.__module__.count(".") else ""
    return {"mobile": "mobile.", "control": "control."}.get(package, "") + func.__name__


def renamed_keywords(**renames: str):
    """Decorate a public function so that each old keyword ``old=`` of ``renames``
    (``old="new"``) still works: it warns once and is passed on as ``new=``. Giving both
    is refused by name. The function's own signature (``inspect.signature``) shows only
    the new names."""

    def decorate(func):
        name = _public_name(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{name}: give {new}= alone ({old}= is its old name)")
                    warn_renamed(f"{name}({old}=…)", f"{name}({new}=…)")
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper

    return decorate


def _is_duration(x) -> bool:
    return (
        isinstance(x, numbers.Real)
        and not isinstance(x, bool)
        or (isinstance(x, np.ndarray) and x.ndim == 0)
    )


def state_first(func):
    """Decorate a simulation entry point whose arguments were ``(model, t_final[, dt],
    q0=…, qd0=…)`` and are now ``(model, q0, qd0, t_final, dt)``: a call with a number
    as the second argument and no ``t_final=`` is the old order; it warns once and is
    rearranged."""
    name = _public_name(func)

    @functools.wraps(func)
    def wrapper(model, *args, **kwargs):
        if 1 <= len(args) <= 2 and "t_final" not in kwargs and _is_duration(args[0]):
            warn_renamed(
                f"{name}(model, t_final, dt, q0=…, qd0=…) (the number {args[0]!r} read as t_final)",
                f"{name}(model, q0, qd0, t_final, dt)",
                f"{name}(model, t_final, dt, …)",
            )
            kwargs["t_final"] = args[0]
            if len(args) == 2:
                if "dt" in kwargs:
                    raise TypeError(f"{name}: dt given twice")
                kwargs["dt"] = args[1]
            args = ()
        return func(model, *args, **kwargs)

    return wrapper


def renamed_value(field: str, value, renames: dict, where: str):
    """``value`` of keyword ``field``, with an old name of ``renames`` (old → new)
    warned once and replaced."""
    if isinstance(value, str) and value in renames:
        new = renames[value]
        warn_renamed(f"{where}({field}={value!r})", f"{where}({field}={new!r})")
        return new
    return value
