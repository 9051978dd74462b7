"""The Cincinnati Milacron T3 of seed 000 (Rojas Salgado 1987, Table 4.4.1 = Table 5.6.1)."""
from __future__ import annotations

import numpy as np

from ..model import from_dh

_D = [0.0, 1.02, 1.02, 0.2, 0.0, 0.0]           # link lengths (standard DH a)
_B = [1.5, 0.0, 0.0, 0.0, 0.0, 0.41]             # offsets (standard DH d)
_ALPHA_DEG = [90.0, 0.0, 0.0, 90.0, 90.0, 90.0]
_MASS = [680.0, 360.0, 180.0, 55.0, 36.0, 68.0]
_RHO = [(0.0, -0.33, 0.0), (-0.87, 0.0, -0.13), (-0.64, 0.04, 0.0), (-0.12, 0.04, 0.0),
        (0.0, -0.05, -0.08), (0.0, 0.0, 0.0)]
_INERTIA = [(0.0, 62.0, 0.0), (11.0, 53.0, 44.0), (1.1, 44.0, 44.0), (0.44, 0.91, 0.82),
            (0.47, 0.38, 0.18), (0.44, 0.64, 0.73)]

#: Initial configuration of the thesis's straight-line task (Table 4.4.1), degrees.
INITIAL_THETA_DEG = (0.0, 90.0, -135.0, 45.0, 90.0, 90.0)


def cincinnati_t3(gravity=(0.0, 0.0, 9.81)):
    """Cincinnati Milacron T3 (6R), seed 000 Table 4.4.1, in the thesis's **Rojas** DH
    naming (``d`` = link length, ``b`` = offset; standard distal DH otherwise).

    Masses 680, 360, 180, 55, 36, 68 kg; centroidal offsets ρ_i and inertias (no products)
    in frame i+1 of the thesis = this model's DH frame i. No friction, no payload.

    **Gravity (0, 0, +9.81)**, as the thesis's program and every table use it
    (``DV(I)=-DV(I)*GRAV``); the text's (0, 0, −9.81) flips every gravity torque and
    matches no table (digest §7). Pass ``gravity=(0, 0, -9.81)`` for the physical robot.
    The task's initial configuration is ``INITIAL_THETA_DEG``.
    """
    rows = [{"joint": "R", "theta": 0.0, "d": _D[i], "b": _B[i],
             "alpha": np.radians(_ALPHA_DEG[i]), "mass": _MASS[i], "com": _RHO[i],
             "inertia": np.diag(_INERTIA[i]), "name": f"link{i + 1}"} for i in range(6)]
    return from_dh(rows, "rojas", gravity=gravity, name="cincinnati_t3",
                   source="seed 000 (Rojas Salgado 1987) Table 4.4.1")
