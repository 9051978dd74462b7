"""Bridges from eslabon models to other libraries.

* :mod:`eslabon.interop.pinocchio`: ``to_pinocchio(model)`` builds an equal
  ``pinocchio.Model`` (needs the ``pin`` package: ``pip install eslabon[bench]``).

The third-party packages are imported only when a function is called, so importing this
package never needs them.
"""

from __future__ import annotations

__all__ = ["pinocchio"]
