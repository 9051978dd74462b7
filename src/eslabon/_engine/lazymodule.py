"""A module imported on the first use of one of its attributes.

The public functions of the dynamics are made when :mod:`eslabon.dynamics.api` is
imported, but their general paths need the compiled kernels (and numba, about 0.45 s to
import and set up) only when one of them runs: a process whose calls all take the lean
path from the start-up library (:mod:`eslabon._engine.startlib`) never imports them.
"""

from __future__ import annotations

import importlib
import types


class LazyModule(types.ModuleType):
    """Stands for the module ``name`` until an attribute is read, then imports it (the
    import lock makes concurrent first uses safe) and reads from it."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__dict__["_target"] = None

    def _load(self):
        target = self.__dict__["_target"]
        if target is None:
            target = importlib.import_module(self.__name__)
            self.__dict__["_target"] = target
        return target

    def __getattr__(self, attr: str):
        return getattr(self._load(), attr)

    def __repr__(self) -> str:
        state = "imported" if self.__dict__["_target"] is not None else "not imported yet"
        return f"<lazy module {self.__name__!r} ({state})>"


def lazy_module(name: str) -> LazyModule:
    """The module ``name`` (absolute), imported on first attribute access."""
    return LazyModule(name)


def lazy_attributes(namespace: dict, attributes: dict):
    """A module ``__getattr__`` (PEP 562) for the package whose globals are ``namespace``:
    ``attributes`` maps a name to the relative module it is imported from on first use
    (then kept in the package's globals)."""

    def __getattr__(name: str):
        if name in attributes:
            value = getattr(importlib.import_module(attributes[name], namespace["__name__"]), name)
            namespace[name] = value
            return value
        raise AttributeError(f"module {namespace['__name__']!r} has no attribute {name!r}")

    return __getattr__
