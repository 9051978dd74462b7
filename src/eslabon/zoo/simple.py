"""Small textbook models."""

from __future__ import annotations

import numpy as np

from ..model import from_dh


def planar2(
    l1: float = 1.0, l2: float = 0.8, m1: float = 2.0, m2: float = 1.5, gravity=(0.0, -9.81, 0.0)
):
    """Two-link planar arm (R-R) moving in the x0–y0 plane, standard DH
    (a = l1, l2; d = 0; α = 0), uniform slender links (COM at mid-link, inertia
    m l²/12 about the COM's y and z axes), gravity along −y0. A textbook model with a
    closed-form Lagrangian, used as the sympy oracle in the tests.
    """
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "d": 0.0,
            "a": l,
            "alpha": 0.0,
            "mass": m,
            "com": (-l / 2, 0.0, 0.0),
            "inertia": np.diag((0.0, m * l * l / 12, m * l * l / 12)),
        }
        for l, m in ((l1, m1), (l2, m2))
    ]
    return from_dh(
        rows, "standard", gravity=gravity, name="planar2", source="textbook two-link planar arm"
    )
