"""Payload argument handling shared by the zoo models."""

from __future__ import annotations

import numpy as np


def payload_dict(mass: float, inertia) -> dict | None:
    """``{"mass", "inertia"}`` for a payload at the last frame, or None when there is none.

    ``inertia`` is a scalar s (meaning s·I) or a 3×3 matrix, about the payload's COM.
    """
    I = np.asarray(inertia, dtype=float)
    I = I * np.eye(3) if I.ndim == 0 else I
    if mass == 0 and not np.any(I):
        return None
    return {"mass": mass, "inertia": I}
