"""Conventions shared by every layer (see ``docs/conventions.md``).

* SI units inside the library (m, kg, s, rad, N, N·m); degrees only at the I/O edge.
* Spatial vectors are ordered ``[angular; linear]``: a twist is ``[ω; v]``, a wrench ``[n; f]``.
* Gravity is a field of the model: the acceleration of free fall in world coordinates.
  The physical default is ``STANDARD_GRAVITY`` = (0, 0, -9.81) m/s² with world z up.
* Joint types are small integers stored in the model's flat arrays.
"""

from __future__ import annotations

STANDARD_GRAVITY = (0.0, 0.0, -9.81)

# joint type codes are part of the packed layout; what each type does: _engine.joints
from ._engine.layout import FIXED, PRISMATIC, REVOLUTE  # noqa: E402,F401
from ._engine.layout import JOINT_CODES as JOINT_TYPE_CODES  # noqa: E402,F401
from ._engine.layout import JOINT_NAMES as JOINT_TYPE_NAMES  # noqa: E402,F401

DH_CONVENTIONS = ("standard", "modified", "rojas")
