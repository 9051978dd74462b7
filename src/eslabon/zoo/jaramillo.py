"""Reference chains for the formulations of seeds 002/004 (Jaramillo Botero, *Dinámica de
Manipuladores Robóticos*, 1998). The document has no numeric example besides the cuboid;
these two chains are ours, built to check its recursions: a one-link pendulum (P1) and an
R-P-R chain (B), with joint axes along each joint frame's z, spatial vectors [angular;
linear], SI units.
"""

from __future__ import annotations

import numpy as np

from ..model import ModelBuilder, from_dh
from ..spatial import rot_x, rot_y

G = 9.81


def jaramillo_pendulum():
    """Case P1: one revolute joint about world z through the origin, the link along its
    x; m = 1 kg, COM at (0.5, 0, 0), J_cm = diag(0, 1/12, 1/12) (a thin rod: its 6×6
    inertia is singular), gravity (0, −9.81, 0)."""
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "d": 0.0,
            "a": 1.0,
            "alpha": 0.0,
            "mass": 1.0,
            "com": (-0.5, 0.0, 0.0),
            "inertia": np.diag((0.0, 1 / 12, 1 / 12)),
        }
    ]
    return from_dh(
        rows,
        "standard",
        gravity=(0.0, -G, 0.0),
        name="jaramillo_pendulum",
        source="eslabon test chain P1 for seeds 002/004 (Jaramillo Botero 1998)",
    )


def jaramillo_rpr():
    """Case B: a spatial R-P-R chain whose bodies all have invertible inertia (for the
    constraint-force method). Body i sits at t_i, turned by E_i, in body i−1 (the
    pre-joint frame); its joint moves it about / along that frame's z. Gravity (0, 0, −9.81)."""
    b = ModelBuilder()
    data = [
        (
            "R",
            (0.0, 0.0, 0.3),
            np.eye(3),
            3.0,
            (0.1, 0.0, 0.15),
            [[0.05, 0.002, 0.0], [0.002, 0.04, 0.001], [0.0, 0.001, 0.03]],
        ),
        (
            "P",
            (0.2, 0.0, 0.5),
            rot_x(-np.pi / 3),
            2.0,
            (0.0, 0.05, 0.2),
            [[0.02, 0.0, 0.001], [0.0, 0.025, 0.0], [0.001, 0.0, 0.01]],
        ),
        (
            "R",
            (0.0, 0.1, 0.4),
            rot_y(np.pi / 2),
            1.0,
            (0.05, 0.02, 0.1),
            [[0.005, 0.0, 0.0], [0.0, 0.006, 0.0005], [0.0, 0.0005, 0.004]],
        ),
    ]
    for i, (joint, t, E, m, c, J) in enumerate(data):
        b.add_body(
            i,
            joint,
            rotation=E,
            translation=t,
            mass=m,
            com=c,
            inertia=np.array(J),
            name=f"body{i + 1}",
        )
    return b.build(
        gravity=(0.0, 0.0, -G),
        name="jaramillo_rpr",
        source="eslabon test chain B for seeds 002/004 (Jaramillo Botero 1998)",
    )
