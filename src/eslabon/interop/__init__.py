"""Bridges from eslabon models to other libraries.

* :mod:`eslabon.interop.pinocchio`: ``to_pinocchio(model)`` builds an equal
  ``pinocchio.Model`` (needs the ``pin`` package: ``pip install eslabon[bench]``).

Each bridge is a submodule loaded on first use: ``es.interop.pinocchio`` works after
``import eslabon as es`` alone (PEP 562). The third-party packages are imported only when
a function is called, so importing this package, or a bridge, never needs them.
"""

from __future__ import annotations

import importlib

__all__ = ["pinocchio"]


def __getattr__(name: str):
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
